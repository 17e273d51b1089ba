# bash completion for the kattr suite: rgctl, likelytop, splicebench.
# Installed once per tool name (bash-completion loads completions/NAME).
#
# Options, commands, columns (per command: `rgctl list --help`) and
# rgctl's resource keys (`rgctl set --help`, KEYS) are read from the
# tools' own --help at completion time, so this file does not drift from
# them.  What --help cannot say (the values an option takes) is in
# _kattr_values below, the one place to update.
#
# This file is also the engine of the zsh and fish completions (kattr.zsh,
# kattr.fish): they run it in a bash of their own through _kattr_external
# (at the end), which takes the line as words and prints the candidates
# as bytes, NUL-ended: one source of truth for the three shells.
#
# Words read from the system (group names, pids, file names, even the
# tools' --help) are data, never code: none is given to `compgen -W` or
# left unquoted (both expand $(...), `...`, $((...)) and globs).  They are
# filtered by a plain prefix match (_kattr_add) and put in COMPREPLY
# quoted for the shell (_kattr_q), so a group named 'a$(rm -rf ~)'
# completes to a\$\(rm\ -rf\ \~\) and runs nothing.  Group names come
# from `rgctl list --names0` (the real bytes, NUL-separated), which
# zsh's ${(0)...} and fish's `string split0` read as well.

# _kattr_dequote WORD: REPLY = WORD as the shell would read it (quotes
# and backslashes removed, $'...' decoded), without expanding anything;
# qstate = the quote WORD leaves open (', ", $' or empty).
_kattr_dequote()
{
	local LC_ALL=C
	local s=$1 c seg i
	REPLY= qstate=
	while [ -n "$s" ]; do
		c=${s:0:1}
		if [ "$qstate" = "'" ]; then
			[ "$c" = "'" ] && qstate= || REPLY+=$c
			s=${s:1}
		elif [ "$qstate" = '"' ]; then
			if [ "$c" = '"' ]; then
				qstate=
			elif [ "$c" = '\' ] && [[ ${s:1:1} == [\$\`\"\\] ]]; then
				REPLY+=${s:1:1}
				s=${s:1}
			else
				REPLY+=$c
			fi
			s=${s:1}
		elif [ "$c" = '\' ]; then
			REPLY+=${s:1:1}
			s=${s:2}
		elif [ "$c" = "'" ] || [ "$c" = '"' ]; then
			qstate=$c
			s=${s:1}
		elif [ "${s:0:2}" = "\$'" ]; then
			# $'...' up to its closing quote; ${seg@E} decodes the
			# escapes as $'...' does, and expands nothing.
			i=2
			while ((i < ${#s})) && [ "${s:i:1}" != "'" ]; do
				[ "${s:i:1}" = '\' ] && i=$((i + 1))
				i=$((i + 1))
			done
			seg=${s:2:i-2}
			REPLY+=${seg@E}
			((i >= ${#s})) && qstate="\$'"
			s=${s:i+1}
		elif [ "${s:0:2}" = '$"' ]; then
			qstate='"'
			s=${s:2}
		else
			REPLY+=$c
			s=${s:1}
		fi
	done
}

# _kattr_line: words = the shell words of COMP_LINE up to the cursor, as
# typed (quotes kept), split where the shell splits them (COMP_WORDS is
# also split at ':' and '='); the last is the word being completed.
_kattr_line()
{
	local LC_ALL=C
	local s=${COMP_LINE:0:COMP_POINT} c q="" w="" i=0
	words=()
	while ((i < ${#s})); do
		c=${s:i:1}
		if [ -n "$q" ]; then
			if [ "$c" = '\' ] && [ "$q" != "'" ]; then
				w+=$c
				i=$((i + 1))
				c=${s:i:1}
			elif [ "$c" = "${q: -1}" ]; then
				q=
			fi
		else
			case "$c" in
			' ' | $'\t' | $'\n' | '<' | '>')
				[ -n "$w" ] && words+=("$w")
				w= c= ;;
			';' | '&' | '|' | '(' | ')') words=() w= c= ;;
			'\') w+=$c; i=$((i + 1)); c=${s:i:1} ;;
			"'" | '"') q=$c ;;
			'$') [ "${s:i+1:1}" = "'" ] && q="\$'" ;;
			esac
		fi
		w+=$c
		i=$((i + 1))
	done
	words+=("$w")
}

# _kattr_init TEXT (the completer's $2: the text readline replaces, from
# the start of the word, an open quote or a ':'/'=' to the cursor): sets
# the completer's locals: words (the line's words, _kattr_line), tool_bin
# (the command as typed, dequoted), cur (the word completed, as typed;
# after '=' for --opt=value), prev (the word before, or --opt), match (cur
# as the shell reads it: what candidates start with), before (the part of
# match readline keeps) and qstate (the quote the kept part leaves open:
# candidates continue in it).
_kattr_init()
{
	local LC_ALL=C
	local text=$1 r=0
	COMPREPLY=()
	_kattr_line
	_kattr_dequote "${words[0]}"
	tool_bin=$REPLY
	[[ $tool_bin == "~/"* ]] && tool_bin=$HOME/${tool_bin#"~/"}
	cur=${words[${#words[@]}-1]} prev=
	((${#words[@]} > 1)) && prev=${words[${#words[@]}-2]}
	if [[ $cur =~ ^--[A-Za-z0-9-]+= ]]; then
		prev=${cur%%=*}
		cur=${cur#*=}
	fi
	((${#text} <= ${#cur})) && [ "${cur:${#cur}-${#text}}" = "$text" ] &&
		r=$((${#cur} - ${#text}))
	_kattr_dequote "$cur"
	match=$REPLY
	_kattr_dequote "${cur:0:r}"	# its qstate is the one kept
	before=$REPLY
}

# _kattr_tail NAME: REPLY = NAME after $before (bytes).
_kattr_tail()
{
	local LC_ALL=C
	REPLY=${1:${#before}}
}

# _kattr_ansic STRING: REPLY = STRING written for the inside of $'...'.
_kattr_ansic()
{
	local LC_ALL=C
	local s=$1 c i
	REPLY=
	for ((i = 0; i < ${#s}; i++)); do
		c=${s:i:1}
		case "$c" in
		\\ | \') REPLY+=\\$c ;;
		[[:print:]]) REPLY+=$c ;;
		*) printf -v c '\\%03o' "'$c"; REPLY+=$c ;;
		esac
	done
}

# _kattr_fmt NAME: REPLY = what replaces readline's text so that the word
# reads NAME: the part of NAME after $before, quoted for the quote left
# open ($qstate), or for none (_kattr_q).
_kattr_fmt()
{
	local s
	if ((${_kattr_raw:-0})); then	# _kattr_external: the word itself
		REPLY=$1
		return
	fi
	_kattr_tail "$1"
	s=$REPLY
	case "$qstate" in
	"'") REPLY=${s//\'/\'\\\'\'} ;;
	'"')
		s=${s//\\/\\\\}
		s=${s//\$/\\\$}
		s=${s//\`/\\\`}
		REPLY=${s//\"/\\\"} ;;
	"\$'") _kattr_ansic "$s" ;;
	*) _kattr_q "$s" ;;
	esac
}

# _kattr_q WORD: REPLY = WORD quoted for the shell (printf %q), with ':'
# and '=' escaped too (bash splits words there for completion); plain
# words (options, columns, "a,b" lists) as they are.
_kattr_q()
{
	# (KEY= of rgctl set: the '=' ends it, where bash splits anyway)
	if [[ $1 =~ ^[A-Za-z0-9_,+%./@-]+=?$ ]]; then
		REPLY=$1
		return
	fi
	printf -v REPLY %q "$1"
	if [ "${REPLY:0:2}" != "\$'" ]; then
		REPLY=${REPLY//:/\\:}
		REPLY=${REPLY//=/\\=}
	fi
}

# _kattr_matching DELIM: found = the words read (each ended by DELIM)
# that start with $match, compared as bytes: names need not be valid in
# the locale.  A plain string comparison: nothing in a word is expanded
# or taken as a pattern.
_kattr_matching()
{
	local LC_ALL=C w
	while IFS= read -r -d "$1" w || [ -n "$w" ]; do
		[ -n "$w" ] && [ "${w:0:${#match}}" = "$match" ] && found+=("$w")
	done
}

# _kattr_add [-0] [-p PREFIX] (reads words, one a line or, with -0, each
# ended by a NUL): adds PREFIX WORD to COMPREPLY, quoted for the shell,
# for each WORD starting with $match (cur as the shell reads it, or what
# the caller set).
_kattr_add()
{
	local delim=$'\n' prefix="" w REPLY
	local -a found=()
	[ "${1-}" = -0 ] && { delim=; shift; }
	[ "${1-}" = -p ] && prefix=$2
	local match=${match#"$prefix"}
	_kattr_matching "$delim"
	for w in "${found[@]}"; do
		_kattr_fmt "$prefix$w"
		COMPREPLY+=("$REPLY")
	done
}

# _kattr_words WORD...: the WORDs, one a line (for _kattr_add).
_kattr_words()
{
	[ $# -gt 0 ] && printf '%s\n' "$@"
}

# _kattr_file NAME: adds NAME, a file name, to COMPREPLY as bash wants it
# with -o filenames (bash quotes it): the part after $before.
_kattr_file()
{
	local REPLY
	if ((${_kattr_raw:-0})); then
		COMPREPLY+=("$1")
		return
	fi
	_kattr_tail "$1"
	COMPREPLY+=("$REPLY")
}

# _kattr_files [-d|-c]: COMPREPLY = the files (-d: directories, -c:
# commands) whose name starts with $match, left to bash to quote (-o
# filenames).  compgen -f/-d expand nothing in the word given; their one
# name a line cannot carry a newline in a file name (bash's own file
# completion cannot either): such a name is not offered.
_kattr_files()
{
	local m=$match f
	local -a all=()
	if [ "${1-}" = -c ] && [[ $m != */* ]]; then
		# command names (PATH, builtins...), quoted by _kattr_add
		[[ $m =~ ^[A-Za-z0-9_.+-]*$ ]] || return 0
		_kattr_add < <(compgen -c -- "$m" | sort -u)
		return 0
	fi
	[[ $m == "~/"* ]] && m=$HOME/${m#"~/"}
	compopt -o filenames 2>/dev/null
	while IFS= read -r f; do
		[ -e "$f" ] || [ -L "$f" ] || continue
		[ "${1-}" = -c ] && ! [ -d "$f" ] && ! [ -x "$f" ] && continue
		all+=("$f")
	done < <(compgen "${1:--f}" -- "$m" 2>/dev/null)
	# ~/ expanded: the names keep it
	[ "$m" != "$match" ] && all=("${all[@]/#"$HOME"/\~}")
	for f in "${all[@]}"; do
		_kattr_file "$f"
	done
	return 0
}

# _kattr_help_opts CMD...: the options CMD... --help mentions (not those
# of the commands a "Commands:" section lists: those are the commands').
_kattr_help_opts()
{
	LC_ALL=C "$@" --help 2>/dev/null | sed '/^Commands:/,/^$/d' |
		grep -aoE '(^|[][ ,|])--?[A-Za-z][A-Za-z0-9-]*' |
		sed -E 's/^[][ ,|]//' | sort -u
}

# _kattr_help_columns CMD...: the column names listed in CMD... --help
# (an indented upper-case name, two blanks, its description): `rgctl list
# --help` lists list's.
_kattr_help_columns()
{
	LC_ALL=C "$@" --help 2>/dev/null |
		sed -nE 's/^ +([A-Z][A-Z0-9%-]*)  .*/\1/p'
}

# _kattr_rgctl_keys RGCTL: the resource keys `rgctl set --help` lists
# under KEYS, each followed by a tab and its default.
_kattr_rgctl_keys()
{
	LC_ALL=C "$1" set --help 2>/dev/null | sed -nE '/^KEYS/,/^$/{
		s/^  ([a-z][a-z0-9]*\.[a-z0-9.]+) .*\(default ([^ ]+)\)\.$/\1	\2/p
		t
		s/^  ([a-z][a-z0-9]*\.[a-z0-9.]+) .*/\1	/p
	}'
}

# _kattr_rgctl_commands RGCTL: the commands under "Commands:" in --help.
_kattr_rgctl_commands()
{
	LC_ALL=C "$1" --help 2>/dev/null |
		sed -n '/^Commands:/,/^$/{s/^  \([a-z][a-z-]*\).*/\1/p}'
}

# _kattr_rgctl_groups RGCTL [GLOBAL-OPTION...]: the groups of the hierarchy
# below its root, each ended by a NUL, their real names from rgctl itself
# (so --backend/--root on the line count).
_kattr_rgctl_groups()
{
	local r=$1 g
	shift
	while IFS= read -r -d '' g; do
		g=${g#/}
		[ -n "$g" ] && printf '%s\0' "$g"
	done < <(LC_ALL=C "$r" "$@" list --names0 2>/dev/null)
}

# _kattr_pids: the pids of the processes, one a line (digits only).
_kattr_pids()
{
	local p
	while read -r p; do
		[[ $p =~ ^[0-9]+$ ]] && echo "$p"
	done < <(ps -e -o pid= 2>/dev/null)
}

# _kattr_values TOOL OPTION: the words OPTION takes, or a completer name
# in angle brackets (<file>, <dir>, <pid>, <group>, <command>, <columns>).
_kattr_values()
{
	case "$1 $2" in
	"rgctl -b" | "rgctl --backend") echo "rgcs cgroup1 cgroup2" ;;
	"rgctl --root" | *" --sysroot") echo "<dir>" ;;
	"rgctl --shares" | "rgctl --wait" | "rgctl --rcvbuf") echo "" ;;
	"rgctl --res") echo "" ;;
	"rgctl -i" | "rgctl --interval" | "rgctl -c" | "rgctl --count") echo "" ;;
	"rgctl -o" | "rgctl --output") echo "<columns>" ;;
	"rgctl --set") echo "<setting>" ;;
	"rgctl top -n" | "rgctl top --iterations" | "rgctl top -d" | "rgctl top --delay") echo "" ;;
	"rgctl top -s" | "rgctl top --sort")
		echo "p t c m i group tasks cpu weight expect share mem memhigh memmax oomkill ioread iowrite pids pidsmax pidsev throttled psicpu psimem psiio" ;;
	"rgctl --format") echo "text openmetrics" ;;
	"rgctl --textfile") echo "<dir>" ;;
	"likelytop -f" | "likelytop --file") echo "<profile>" ;;
	"likelytop -p" | "likelytop --pid") echo "<profpid>" ;;
	"likelytop --format") echo "text csv json openmetrics" ;;
	"likelytop --textfile") echo "<dir>" ;;
	"likelytop --suggest") echo "<dir>" ;;
	"likelytop --suggest-out") echo "<file>" ;;
	"likelytop --min-miss" | "likelytop --flip-miss") echo "" ;;
	"likelytop --callers") echo "kfree kmem_cache_free" ;;
	"likelytop --condition") echo "" ;;
	"likelytop -s" | "likelytop --sort") echo "incorrect correct percent total rate function file" ;;
	"likelytop -o" | "likelytop --output") echo "<columns>" ;;
	"likelytop -S" | "likelytop --source-dir") echo "<dir>" ;;
	"likelytop -d" | "likelytop --delay" | "likelytop -n" | "likelytop --iterations" | \
	"likelytop --filter" | "likelytop --min-total") echo "" ;;
	"splicebench --mode") echo "<list:copy vmsplice gift>" ;;
	"splicebench --consumer") echo "null read verify file:" ;;
	"splicebench --format") echo "table csv json" ;;
	"splicebench -o" | "splicebench --output") echo "<columns>" ;;
	"splicebench --plot") echo "<plot>" ;;
	"splicebench --pin" | "splicebench --size" | "splicebench --pipe-size" | \
	"splicebench --total" | "splicebench --time" | "splicebench --runs") echo "" ;;
	*) return 1 ;;
	esac
}

# _kattr_list (reads the words, one a line): complete a comma-separated
# list in $match ("+" first: added to the default ones).
_kattr_list()
{
	local prefix="" m=$match w c seen
	local -a chosen=()
	if [[ $m == +* ]]; then
		prefix=+
		m=${m#+}
	fi
	if [[ $m == *,* ]]; then
		prefix+=${m%,*},
		IFS=, read -ra chosen <<<"${m%,*}"
	fi
	# the values already in the list are not offered again (any case)
	local -a left=()
	while IFS= read -r w; do
		seen=0
		for c in "${chosen[@]}"; do
			[ "${c,,}" = "${w,,}" ] && seen=1
		done
		((seen)) || left+=("$w")
	done
	_kattr_add -p "$prefix" < <(_kattr_words "${left[@]}")
	compopt -o nospace 2>/dev/null
}

# The user-space profiles likelytop -p can show: $LIKELY_PROF_DIR/PID.
_kattr_profile_pids()
{
	local d=${LIKELY_PROF_DIR:-}
	if [ -z "$d" ]; then
		if [ -n "${XDG_RUNTIME_DIR:-}" ]; then
			d=$XDG_RUNTIME_DIR/likely_prof
		else
			d=${HOME:-/nonexistent}/.cache/likely_prof
		fi
	fi
	local f
	for f in "$d"/*; do
		f=${f##*/}
		[[ $f =~ ^[0-9]+$ ]] && echo "$f"
	done
}

# _kattr_complete_value TOOL OPTION (cur, match, COMPREPLY as usual): 0
# if OPTION takes a value and COMPREPLY holds its candidates.
_kattr_complete_value()
{
	local tool=$1 opt=$2 v f
	local -a words
	v=$(_kattr_values "$tool" "$opt") || return 1
	case "$v" in
	"<dir>") _kattr_files -d ;;
	"<file>") _kattr_files ;;
	"<columns>") _kattr_list < <(_kattr_help_columns "$tool_bin" ${help_cmd[@]+"${help_cmd[@]}"}) ;;
	"<setting>") _kattr_rgctl_setting "" = ;;
	"<list:"*)
		v=${v#<list:}
		read -ra words <<<"${v%>}"
		_kattr_list < <(_kattr_words "${words[@]}") ;;
	"<profile>")
		_kattr_files
		for f in /proc/likely_prof /sys/kernel/tracing/trace_stat/branch_annotated \
			/sys/kernel/tracing/trace_stat/branch_all -; do
			[ "${f:0:${#match}}" = "$match" ] &&
				{ [ "$f" = - ] || [ -e "$f" ]; } && _kattr_file "$f"
		done ;;
	"<profpid>") _kattr_add < <(_kattr_profile_pids) ;;
	"<plot>")
		_kattr_files
		local -a all=("${COMPREPLY[@]}")
		COMPREPLY=()
		for f in "${all[@]}"; do
			case "$f" in
			*.[sS][vV][gG] | *.[pP][nN][gG]) COMPREPLY+=("$f") ;;
			*) [ -d "$before$f" ] && COMPREPLY+=("$f") ;;
			esac
		done ;;
	*)
		read -ra words <<<"$v"
		_kattr_add < <(_kattr_words "${words[@]}") ;;
	esac
	return 0
}

_likelytop()
{
	local cur prev match before qstate tool_bin REPLY i
	local -a words
	_kattr_init "${2-}"
	# After --exec, the rest is a command of its own.
	for ((i = 1; i < ${#words[@]} - 1; i++)); do
		if [ "${words[i]}" = --exec ]; then
			[ "${words[i+1]}" = -- ] && ((i++))
			if ((i + 2 == ${#words[@]})); then
				_kattr_files -c
			else
				_kattr_files
			fi
			return 0
		fi
	done
	_kattr_complete_value likelytop "$prev" && return 0
	_kattr_add < <(_kattr_help_opts "$tool_bin")
}

_splicebench()
{
	local cur prev match before qstate tool_bin REPLY
	local -a words
	_kattr_init "${2-}"
	_kattr_complete_value splicebench "$prev" && return 0
	_kattr_add < <(_kattr_help_opts "$tool_bin")
}

# _kattr_is_command WORD COMMANDS: 0 if WORD is one of the lines of COMMANDS.
_kattr_is_command()
{
	local c
	while IFS= read -r c; do
		[ "$c" = "$1" ] && return 0
	done <<<"$2"
	return 1
}

# _kattr_rgctl_setting GROUP [=]: complete a resource key in $match from
# `rgctl set --help`; with '=', KEY= and, once the '=' is typed, values
# for it: max for limits, the default, and GROUP's value now (`rgctl get`;
# GROUP may be empty).
_kattr_rgctl_setting()
{
	local group=$1 eq=${2-} k d key
	local -a keys=() vals=()
	if [ -n "$eq" ] && [[ $match == *=* ]]; then
		key=${match%%=*}
		while IFS=$'\t' read -r k d; do
			[ "$k" = "$key" ] || continue
			# io.max's value names a device first ("DEV rbps=N"): no
			# hint but the group's value
			[ "$k" = io.max ] && continue
			[[ $k == *.max || $k == *.high || $d == max ]] && vals+=(max)
			[ -n "$d" ] && [ "$d" != max ] && [ "$d" != "parent's" ] && vals+=("$d")
		done < <(_kattr_rgctl_keys "$tool_bin")
		if [ -n "$group" ]; then
			while IFS= read -r d; do
				d=${d%"${d##*[! ]}"}
				[ -n "$d" ] && vals+=("$d")
			done < <(LC_ALL=C "$tool_bin" ${global[@]+"${global[@]}"} get -n -o VALUE \
				-- "$group" "$key" 2>/dev/null)
		fi
		_kattr_add -p "$key=" < <(_kattr_words "${vals[@]}" | sort -u)
		return 0
	fi
	while IFS=$'\t' read -r k d; do
		keys+=("$k$eq")
	done < <(_kattr_rgctl_keys "$tool_bin")
	_kattr_add < <(_kattr_words "${keys[@]}")
	[ -n "$eq" ] && compopt -o nospace 2>/dev/null
	return 0
}

# _kattr_word WORD: REPLY = WORD as the shell reads it (qstate kept).
_kattr_word()
{
	local qstate
	_kattr_dequote "$1"
}

# _kattr_rgctl_global WORD: REPLY = a global option's word from the line
# (DIR of --root DIR or --root=DIR, NAME of -b NAME) as rgctl should get
# it: dequoted, ~/ expanded.
_kattr_rgctl_global()
{
	local qstate
	_kattr_dequote "$1"
	[[ $REPLY == "~/"* ]] && REPLY=$HOME/${REPLY#"~/"}
	[[ $REPLY == --*"=~/"* ]] && REPLY=${REPLY%%=*}=$HOME/${REPLY#*=\~/}
}

_rgctl()
{
	local cur prev match before qstate tool_bin REPLY
	local cmd="" i w global=() nargs=0 dashdash=0 commands group=""
	local -a words help_cmd=()
	_kattr_init "${2-}"
	commands=$(_kattr_rgctl_commands "$tool_bin")
	# Find the command; keep the global options that choose the hierarchy
	# (-b, --root, --sysroot) to ask rgctl about the same groups.
	for ((i = 1; i < ${#words[@]} - 1; i++)); do
		w=${words[i]}
		if ((dashdash)); then
			nargs=$((nargs + 1))
			continue
		fi
		case "$w" in
		-b | --backend | --root | --sysroot)
			# after top, -b is systemd-cgtop's --batch
			[ "$cmd$w" = top-b ] && continue
			_kattr_rgctl_global "${words[i+1]-}"
			global+=("$w" "$REPLY")
			((i++))
			continue ;;
		--backend=* | --root=* | --sysroot=*)
			_kattr_rgctl_global "$w"
			global+=("$REPLY")
			continue ;;
		--) [ "$cmd" = exec ] && dashdash=1 nargs=0; continue ;;
		-*)
			{ [ "$cmd" = top ] && _kattr_values "rgctl top" "$w" >/dev/null; } ||
				_kattr_values rgctl "$w" >/dev/null && ((i++))
			continue ;;
		esac
		if [ -z "$cmd" ] && _kattr_is_command "$w" "$commands"; then
			cmd=$w
			help_cmd=("$cmd")	# its columns: rgctl CMD --help
		elif [ -n "$cmd" ]; then
			((nargs == 0)) && _kattr_word "$w" && group=${REPLY#/}
			nargs=$((nargs + 1))
		fi
	done
	if ((dashdash)); then	# exec GROUP -- COMMAND [ARG...]
		if ((nargs == 0)); then
			_kattr_files -c
		else
			_kattr_files
		fi
		return 0
	fi
	if [ "$cmd" = top ]; then	# its -b takes no value; -n, -d, -s do
		case "$prev" in
		-b) ;;
		*)
			_kattr_complete_value "rgctl top" "$prev" && return 0
			_kattr_complete_value rgctl "$prev" && return 0 ;;
		esac
	else
		_kattr_complete_value rgctl "$prev" && return 0
	fi
	if [[ $cur == -* ]]; then
		if [ -n "$cmd" ]; then
			_kattr_add < <(_kattr_help_opts "$tool_bin" "$cmd"; _kattr_help_opts "$tool_bin")
		else
			_kattr_add < <(_kattr_help_opts "$tool_bin")
		fi
		return 0
	fi
	if [ -z "$cmd" ]; then
		_kattr_add <<<"$commands"
		return 0
	fi
	case "$cmd" in
	help) _kattr_add <<<"$commands" ;;
	set | get)
		if ((nargs == 0)); then
			_kattr_add -0 < <(_kattr_rgctl_groups "$tool_bin" "${global[@]}")
		elif [ "$cmd" = set ]; then
			_kattr_rgctl_setting "$group" =
		else
			_kattr_rgctl_setting "$group"
		fi ;;
	list | create | delete | shares | attach | members | stats | exec | top)
		if ((nargs == 0)); then
			_kattr_add -0 < <(_kattr_rgctl_groups "$tool_bin" "${global[@]}")
			[ "$cmd" = create ] && compopt -o nospace 2>/dev/null
		elif [ "$cmd" = attach ]; then
			_kattr_add < <(_kattr_pids)
		fi ;;
	whereis) _kattr_add < <(_kattr_pids) ;;
	apply | classify) _kattr_files ;;
	esac
	return 0
}

# _kattr_external WORD... (for kattr.zsh and kattr.fish, in a bash of
# their own): the words of the line up to the cursor as the shell reads
# them (real bytes, quotes removed), the last the word completed (maybe
# empty); the first names the tool (rgctl, likelytop, splicebench, or a
# path to one).  Prints the options bash would be given ("nospace",
# "filenames", blank-separated) and then each candidate whole (not
# quoted: the calling shell quotes it), every record ended by a NUL.
_kattr_external()
{
	local _kattr_raw=1 _kattr_opts="" w line="" f cur pre=""
	local -a COMPREPLY=() args=("$@")
	cur=${args[$# - 1]}
	unset 'args[$# - 1]'
	for w in "${args[@]}"; do
		printf -v w %q "$w"
		line+="$w "
	done
	# --opt=VALUE: the candidates are VALUEs; the caller's word is whole
	if [[ $cur =~ ^--[A-Za-z0-9-]+= ]]; then
		pre=${cur%%=*}=
		cur=${cur#*=}
	fi
	w=
	[ -n "$cur" ] && printf -v w %q "$cur"
	[ -n "$pre" ] && w=$pre$w
	line+=$w
	f=_${1##*/}
	case "$f" in _rgctl | _likelytop | _splicebench) ;; *) return 1 ;; esac
	compopt() { [ "${1-}" = -o ] && _kattr_opts+=" $2"; return 0; }
	COMP_LINE=$line COMP_POINT=${#line}
	"$f" "$1" "$w" ""
	unset -f compopt
	printf '%s\0' "${_kattr_opts# }"
	for w in "${COMPREPLY[@]}"; do
		printf '%s\0' "$pre$w"
	done
}

complete -F _rgctl rgctl
complete -F _likelytop likelytop
complete -F _splicebench splicebench
