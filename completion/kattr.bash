# bash completion for the kattr suite: rgctl, likelytop, splicebench.
# Installed once per tool name (bash-completion loads completions/NAME).
#
# Options and commands are read from the tools' own --help at completion
# time, so this file does not drift from them.  What --help cannot say
# (the values an option takes) is in _kattr_values below, the one place
# to update.

# _kattr_help_opts CMD...: the options CMD... --help mentions (not those
# of the commands a "Commands:" section lists: those are the commands').
_kattr_help_opts()
{
	LC_ALL=C "$@" --help 2>/dev/null | sed '/^Commands:/,/^$/d' |
		grep -oE '(^|[][ ,|])--?[A-Za-z][A-Za-z0-9-]*' |
		sed -E 's/^[][ ,|]//' | sort -u
}

# _kattr_help_columns CMD: the column names listed in CMD --help (an
# indented upper-case name, two blanks, its description).
_kattr_help_columns()
{
	LC_ALL=C "$1" --help 2>/dev/null |
		sed -nE 's/^ +([A-Z][A-Z0-9%-]*)  .*/\1/p'
}

# _kattr_rgctl_commands RGCTL: the commands under "Commands:" in --help.
_kattr_rgctl_commands()
{
	LC_ALL=C "$1" --help 2>/dev/null |
		sed -n '/^Commands:/,/^$/{s/^  \([a-z][a-z-]*\).*/\1/p}'
}

# _kattr_rgctl_groups RGCTL [GLOBAL-OPTION...]: the groups of the hierarchy,
# one per line, from rgctl itself (so --backend/--root on the line count).
# The raw, headingless list is asked for first; a plain `rgctl list`
# (a title line, then the group in the first column) is the fallback.
_kattr_rgctl_groups()
{
	local r=$1
	shift
	{ LC_ALL=C "$r" "$@" list --noheadings --raw --output GROUP 2>/dev/null ||
	  LC_ALL=C "$r" "$@" list 2>/dev/null | awk 'NR > 1 { print $1 }'; } |
		sed -E 's/^[^A-Za-z0-9_/.]+//' | grep -v '^/$' | sed 's|^/||'
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
	"rgctl -o" | "rgctl --output") echo "<columns>" ;;
	"likelytop -f" | "likelytop --file") echo "<profile>" ;;
	"likelytop -p" | "likelytop --pid") echo "<profpid>" ;;
	"likelytop --format") echo "text csv json" ;;
	"likelytop --suggest") echo "<dir>" ;;
	"likelytop --suggest-out") echo "<file>" ;;
	"likelytop --min-miss" | "likelytop --flip-miss") echo "" ;;
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

# Complete a comma-separated list in $cur from the words $1.
_kattr_list()
{
	local words=$1 prefix="" last=$cur plus=""
	if [[ $cur == +* ]]; then
		plus=+
		last=${cur#+}
	fi
	if [[ $last == *,* ]]; then
		prefix=${last%,*},
		last=${last##*,}
	fi
	local IFS=$'\n'
	COMPREPLY=($(compgen -P "$plus$prefix" -W "$words" -- "$last"))
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

# _kattr_complete_value TOOL OPTION (cur, COMPREPLY as usual): 0 if OPTION
# takes a value and COMPREPLY holds its candidates.
_kattr_complete_value()
{
	local tool=$1 opt=$2 v
	v=$(_kattr_values "$tool" "$opt") || return 1
	case "$v" in
	"<dir>") COMPREPLY=($(compgen -d -- "$cur")) ;;
	"<file>") COMPREPLY=($(compgen -f -- "$cur")) ;;
	"<columns>")
		local IFS=$'\n'
		_kattr_list "$(_kattr_help_columns "$tool_bin")" ;;
	"<list:"*)
		v=${v#<list:}
		_kattr_list "$(printf '%s\n' ${v%>})" ;;
	"<profile>")
		COMPREPLY=($(compgen -f -- "$cur"))
		local s
		for s in /proc/likely_prof /sys/kernel/tracing/trace_stat/branch_annotated \
			/sys/kernel/tracing/trace_stat/branch_all -; do
			[[ $s == "$cur"* ]] && { [ "$s" = - ] || [ -e "$s" ]; } && COMPREPLY+=("$s")
		done ;;
	"<profpid>") COMPREPLY=($(compgen -W "$(_kattr_profile_pids)" -- "$cur")) ;;
	"<plot>")
		local f
		COMPREPLY=()
		while IFS= read -r f; do
			case "$f" in
			*.[sS][vV][gG] | *.[pP][nN][gG]) COMPREPLY+=("$f") ;;
			*) [ -d "$f" ] && COMPREPLY+=("$f/") ;;
			esac
		done < <(compgen -f -- "$cur") ;;
	*) COMPREPLY=($(compgen -W "$v" -- "$cur")) ;;
	esac
	return 0
}

# --opt=value: split so that the value completes like "--opt value"
# (bash splits at '=' by COMP_WORDBREAKS: "--opt" "=" "value").
_kattr_split_eq()
{
	if [ "$prev" = = ] && ((COMP_CWORD >= 2)); then
		prev=${COMP_WORDS[COMP_CWORD-2]}
		return 0
	fi
	if [ "$cur" = = ]; then
		prev=${COMP_WORDS[COMP_CWORD-1]}
		cur=
		return 0
	fi
	if [[ $cur == --*=* ]]; then
		prev=${cur%%=*}
		cur=${cur#*=}
		return 0
	fi
	return 1
}

_likelytop()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	local tool_bin=${COMP_WORDS[0]} i
	_kattr_split_eq
	# After --exec, the rest is a command of its own.
	for ((i = 1; i < COMP_CWORD; i++)); do
		if [ "${COMP_WORDS[i]}" = --exec ]; then
			[ "${COMP_WORDS[i+1]}" = -- ] && ((i++))
			if ((i + 1 == COMP_CWORD)); then
				COMPREPLY=($(compgen -c -- "$cur"))
			else
				COMPREPLY=($(compgen -f -- "$cur"))
			fi
			return 0
		fi
	done
	_kattr_complete_value likelytop "$prev" && return 0
	COMPREPLY=($(compgen -W "$(_kattr_help_opts "$tool_bin")" -- "$cur"))
}

_splicebench()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	local tool_bin=${COMP_WORDS[0]}
	_kattr_split_eq
	_kattr_complete_value splicebench "$prev" && return 0
	COMPREPLY=($(compgen -W "$(_kattr_help_opts "$tool_bin")" -- "$cur"))
}

_rgctl()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	local tool_bin=${COMP_WORDS[0]} cmd="" i w global=() nargs=0 dashdash=0
	_kattr_split_eq
	local commands
	commands=$(_kattr_rgctl_commands "$tool_bin")
	# Find the command; keep the global options that choose the hierarchy
	# (-b, --root, --sysroot) to ask rgctl about the same groups.
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		if ((dashdash)); then
			nargs=$((nargs + 1))
			continue
		fi
		case "$w" in
		-b | --backend | --root | --sysroot)
			global+=("$w" "${COMP_WORDS[i+1]}")
			((i++))
			continue ;;
		--backend=* | --root=* | --sysroot=*) global+=("$w"); continue ;;
		--) [ "$cmd" = exec ] && dashdash=1 nargs=0; continue ;;
		-*)
			_kattr_values rgctl "$w" >/dev/null && ((i++))
			continue ;;
		esac
		if [ -z "$cmd" ] && grep -qx -- "$w" <<<"$commands"; then
			cmd=$w
		elif [ -n "$cmd" ]; then
			nargs=$((nargs + 1))
		fi
	done
	if ((dashdash)); then	# exec GROUP -- COMMAND [ARG...]
		if ((nargs == 0)); then
			COMPREPLY=($(compgen -c -- "$cur"))
		else
			COMPREPLY=($(compgen -f -- "$cur"))
		fi
		return 0
	fi
	_kattr_complete_value rgctl "$prev" && return 0
	if [[ $cur == -* ]]; then
		if [ -n "$cmd" ]; then
			COMPREPLY=($(compgen -W "$(_kattr_help_opts "$tool_bin" "$cmd") $(_kattr_help_opts "$tool_bin")" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$(_kattr_help_opts "$tool_bin")" -- "$cur"))
		fi
		return 0
	fi
	if [ -z "$cmd" ]; then
		COMPREPLY=($(compgen -W "$commands" -- "$cur"))
		return 0
	fi
	local IFS=$'\n'
	case "$cmd" in
	help) COMPREPLY=($(compgen -W "$commands" -- "$cur")) ;;
	list | create | delete | shares | attach | members | stats | exec)
		if ((nargs == 0)); then
			COMPREPLY=($(compgen -W "$(_kattr_rgctl_groups "$tool_bin" "${global[@]}")" -- "$cur"))
			[ "$cmd" = create ] && compopt -o nospace 2>/dev/null
		elif [ "$cmd" = attach ]; then
			COMPREPLY=($(compgen -W "$(ps -e -o pid= 2>/dev/null | tr -d ' ')" -- "$cur"))
		fi ;;
	whereis) COMPREPLY=($(compgen -W "$(ps -e -o pid= 2>/dev/null | tr -d ' ')" -- "$cur")) ;;
	apply | classify) COMPREPLY=($(compgen -f -- "$cur")) ;;
	esac
	return 0
}

complete -F _rgctl rgctl
complete -F _likelytop likelytop
complete -F _splicebench splicebench
