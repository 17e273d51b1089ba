# Bash completion with hostile names (issue 31): groups named to run code
# ('a$(touch${IFS}F1)', 'b`touch F2`', 'c;touch F3', 'd|touch F4',
# 'e$((1/0))', 'f*', quotes, a backslash, a space, a tab, ':' and '=',
# invalid UTF-8), on a named cgroup v1 hierarchy of the test's own, are
# completed after `rgctl shares|delete|list|exec ` both by calling the
# completion function and by Tab in a real interactive bash under tmux.
# Nothing may run (no file F*), nothing may be printed, and every word
# offered, pasted back into the shell, names an existing group.  The
# other words completion reads from the system are covered too: file
# names (apply, --root), commands (exec -- CMD), pids, likelytop's
# profile pids, and a tool whose --help is hostile.
. "$(dirname "$0")/lib.sh"
comp="$SRC_DIR/completion/kattr.bash"
RGDIR="$BUILD_DIR/src/rgctl"
require_root "mounts a cgroup v1 hierarchy of its own"
command -v tmux >/dev/null || skip_test "tmux is not installed (scripts/deps.sh installs it)"
tmp=$(mktemp -d /tmp/kattr-compnames.XXXXXX)
mnt=$tmp/mnt work=$tmp/work sock=$tmp/tmux.sock
mkdir "$mnt" "$work" "$tmp/files" "$tmp/bin" "$tmp/fake" "$tmp/prof"
cleanup() {
	tmux -S "$sock" kill-server 2>/dev/null
	named_hier_umount "kattrcomp$$" "$mnt" || return
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
named_hier_mount "kattrcomp$$" "$mnt" ||
	skip_test "cannot mount a named cgroup v1 hierarchy (mount -t cgroup -o none,name=...): no cgroup v1 here"

names=('a$(touch${IFS}F1)' 'b`touch F2`' 'c;touch F3' 'd|touch F4'
	'e$((1/0))' 'f*' 'h space' $'i\xff\xfeinvalid' "j'q\"dq\\bs"
	'k:colon=eq' '~l' '#m' $'n\ttab' 'o&p>q<r' 'a$(touch${IFS}F1)/x y')
groups=()
for n in "${names[@]}"; do
	mkdir -p "$mnt/$n" || fail "cannot create the group '$n'"
done
# The kernel refuses a newline in a cgroup's name (EINVAL): no group can
# have one; file names with one are checked below.
mkdir "$mnt/g"$'\n'"newline" 2>/dev/null && fail "the kernel took a group name with a newline: add it to the names checked"
while IFS= read -r -d '' n; do
	groups+=("${n#"$mnt/"}")
done < <(find "$mnt" -mindepth 1 -type d -print0)
[ ${#groups[@]} -eq 16 ] || fail "expected 16 groups (e\$((1 is one), found ${#groups[@]}"

# rgctl list --names0: every group's real bytes, NUL-ended, "/" the root;
# alone (no other output option, no --json).
want=$( (printf '/\0'; printf '%s\0' "${groups[@]}") | sort -z | od -An -tx1)
got=$("$RGDIR/rgctl" -b cgroup1 --root "$mnt" list --names0 | sort -z | od -An -tx1)
[ "$got" = "$want" ] && ok || fail "list --names0: $got, expected $want"
got=$("$RGDIR/rgctl" -b cgroup1 --root "$mnt" list --names0 'e$((1' | od -An -c | tr -s ' \n' ' ')
[ "$got" = ' e $ ( ( 1 \0 e $ ( ( 1 / 0 ) ) \0 ' ] && ok || fail "list --names0 GROUP: $got"
for o in -r -n -T --output-all "-o GROUP"; do
	"$RGDIR/rgctl" -b cgroup1 --root "$mnt" list --names0 $o >/dev/null 2>&1
	[ $? = 2 ] && ok || fail "list --names0 $o: not a usage error"
done
"$RGDIR/rgctl" -b cgroup1 --root "$mnt" --json list --names0 >/dev/null 2>&1
[ $? = 2 ] && ok || fail "--json list --names0: not a usage error"

# Files (apply FILE, --root DIR), commands (exec -- CMD), profile pids.
for n in 'a$(touch${IFS}F5)' 'b`touch F5`' 'c;touch F5' 'f*' $'g\nnewline' 'h space' $'i\xff'; do
	: >"$tmp/files/$n"
done
printf '#!/bin/sh\n' >"$tmp/bin/zz\$(touch F6)" && chmod +x "$tmp/bin/zz\$(touch F6)"
touch "$tmp/prof/4242" "$tmp/prof/5\$(touch F7)" "$tmp/prof/6;touch F7"
# A tool whose --help and list output are hostile (not rgctl's, which
# prints none of this): still nothing runs.
cat >"$tmp/fake/rgctl" <<'EOF'
#!/bin/bash
case "$*" in
*--help*) printf 'Commands:\n  list$(touch F8) x\n  shares`touch F8` y\n\n  --opt$(touch${IFS}F8)\n  -o, --output COLUMNS\n  A$(touch F8)  col\n  B`touch F8`  col\n' ;;
*list*--names0*) printf 'z$(touch F9)\0z`touch F9`\0' ;;
esac
EOF
cp "$tmp/fake/rgctl" "$tmp/fake/likelytop"
chmod +x "$tmp/fake/rgctl" "$tmp/fake/likelytop"
export PATH="$RGDIR:$BUILD_DIR/src/likelytop:$tmp/bin:$PATH"
export LIKELY_PROF_DIR="$tmp/prof"

no_files_ran() {	# no_files_ran WHAT: no F* appeared
	local f
	for f in "$work"/F* "$tmp"/F* /F*; do
		[ -e "$f" ] && { fail "$1: '$f' was created: a name ran as a command"; rm -f "$f"; }
	done
	ok
}

# complete LINE [TEXT]: calls the function `complete -p` names for LINE's
# command as bash does (COMP_LINE, COMP_POINT, COMP_WORDS, $2 = TEXT, the
# text readline replaces: by default the last word); $got = COMPREPLY
# (array), $errs = what it printed on stderr.
complete_line() {
	local line=$1 text=${2-${1##* }} e
	got=()
	(cd "$work" && LC_ALL=C bash --norc --noprofile -c '
		. "$1"
		COMP_LINE=$2 COMP_POINT=${#2}
		read -ra COMP_WORDS <<<"$2"
		[[ $2 == *" " ]] && COMP_WORDS+=("")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		f=$(complete -p "${COMP_WORDS[0]##*/}" | sed -E "s/.*-F ([^ ]+) .*/\1/")
		"$f" "${COMP_WORDS[0]}" "$3" "${COMP_WORDS[COMP_CWORD-1]}"
		printf "%s\0" "${COMPREPLY[@]}"' _ "$comp" "$line" "$text" \
		>"$tmp/out" 2>"$tmp/err")
	while IFS= read -r -d '' e; do got+=("$e"); done <"$tmp/out"
	errs=$(cat "$tmp/err")
}

# paste_back TEXT: pw = the words the shell reads in TEXT pasted on a
# command line (run where F* would show).
paste_back() {
	local w
	pw=()
	while IFS= read -r -d '' w; do pw+=("$w"); done < <(cd "$work" &&
		bash --norc --noprofile -c "printf '%s\\0' $1" 2>/dev/null)
}

# check_groups LINE KEEP CLOSE [EXPECTED...]: complete LINE (cur: KEEP
# followed by the text readline replaces, CLOSE: the quote readline
# closes); each candidate, put after KEEP and pasted back, is one word
# naming a group; the groups named are exactly EXPECTED (default: all).
# TEXT, if set: the text readline replaces (default: after KEEP).
check_groups() {
	local line=$1 keep=$2 close=$3 w n want words=() seen=()
	shift 3
	complete_line "$line" "${TEXT-${line##* "$keep"}}"
	[ -z "$errs" ] && ok || fail "'$line<TAB>' printed: $errs"
	for w in "${got[@]}"; do
		paste_back "$keep$w$close"
		words=("${pw[@]}")
		if [ ${#words[@]} -ne 1 ]; then
			fail "'$line<TAB>': '$w' pastes back as ${#words[@]} words"
		elif [ ! -d "$mnt/${words[0]}" ]; then
			fail "'$line<TAB>': '$w' pastes back as '${words[0]}', no such group"
		else
			ok
			seen+=("${words[0]}")
		fi
	done
	[ $# -gt 0 ] || set -- "${groups[@]}"
	want=$(printf '%s\0' "$@" | sort -z | od -An -c)
	[ "$(printf '%s\0' "${seen[@]}" | sort -z | od -An -c)" = "$want" ] && ok ||
		fail "'$line<TAB>': offered $(printf '[%s] ' "${got[@]}"), expected $(printf '[%s] ' "$@")"
	no_files_ran "'$line<TAB>'"
}

# 1. The completion function, as bash calls it.
R="rgctl -b cgroup1 --root $mnt"
for cmd in shares delete list exec create members stats attach; do
	check_groups "$R $cmd " "" ""
done
check_groups "$R shares a" "" "" 'a$(touch${IFS}F1)' 'a$(touch${IFS}F1)/x y'
check_groups "$R shares a\\\$\\(touch\\\$\\{IFS\\}F1\\)/" "" "" 'a$(touch${IFS}F1)/x y'
check_groups "$R --root=$mnt shares e" "" "" 'e$((1' 'e$((1/0))'
check_groups "$R shares 'e\$((1/" "'" "'" 'e$((1/0))'
check_groups "$R shares \"j'q" '"' '"' "j'q\"dq\\bs"
check_groups "$R shares \$'i" "\$'" "'" $'i\xff\xfeinvalid'
check_groups "$R shares k:" "k:" "" 'k:colon=eq'
check_groups "$R shares \\~" "" "" '~l'
check_groups "$R shares \\#" "" "" '#m'
check_groups "$R shares f" "" "" 'f*'
check_groups "$R shares 'f*" "'" "'" 'f*'
check_groups "$R shares \$'n\\t" "\$'" "'" $'n\ttab'
TEXT='h\ ' check_groups "$R shares h\\ " "" "" 'h space'

# 2. Other words read from the system.
complete_line "rgctl apply $tmp/files/"
[ -z "$errs" ] && ok || fail "apply FILE printed: $errs"
[ ${#got[@]} -eq 6 ] && ok || fail "apply FILE: ${#got[@]} names, expected the 6 without a newline: $(printf '[%s] ' "${got[@]}")"
for w in "${got[@]}"; do
	[ -f "$w" ] && ok || fail "apply FILE: '$w' is no file (with -o filenames bash quotes it)"
done
no_files_ran "apply FILE"
complete_line "rgctl -b cgroup1 --root=$tmp/fi"
[ "${got[*]}" = "$tmp/files" ] && ok || fail "--root=DIR: $(printf '[%s] ' "${got[@]}")"
complete_line "rgctl -b cgroup1 --root $mnt exec g -- zz"
[ "${got[*]}" = 'zz\$\(touch\ F6\)' ] && ok || fail "exec -- CMD: $(printf '[%s] ' "${got[@]}")"
paste_back "${got[0]-}"
[ "${pw[*]}" = 'zz$(touch F6)' ] && ok || fail "exec -- CMD pasted back: $(printf '[%s] ' "${pw[@]}")"
no_files_ran "exec -- CMD"
complete_line "rgctl whereis "
for w in "${got[@]}"; do [[ $w =~ ^[0-9]+$ ]] || { fail "whereis PID: '$w'"; break; }; done
[ ${#got[@]} -gt 1 ] && ok || fail "whereis PID: no pids"
complete_line "likelytop -p "
[ "${got[*]}" = 4242 ] && ok || fail "likelytop -p: $(printf '[%s] ' "${got[@]}")"
no_files_ran "likelytop -p"
for line in "$tmp/fake/rgctl " "$tmp/fake/rgctl --" "$tmp/fake/rgctl list --o" "$tmp/fake/likelytop -o " "$tmp/fake/likelytop --"; do
	complete_line "$line"
	[ -z "$errs" ] && ok || fail "'$line<TAB>' printed: $errs"
	for w in "${got[@]}"; do
		paste_back "$w"
		case "${pw[*]}" in
		*'$'* | *'`'*) fail "'$line<TAB>': '$w'" ;;
		*) ok ;;
		esac
	done
	no_files_ran "'$line<TAB>'"
done
complete_line "$tmp/fake/rgctl list "
[ "${got[*]}" = 'z\$\(touch\ F9\) z\`touch\ F9\`' ] && [ -z "$errs" ] && ok ||
	fail "a hostile rgctl's names: $(printf '[%s] ' "${got[@]}") $errs"
no_files_ran "a hostile rgctl's names"

# 3. A real interactive bash under tmux: Tab Tab lists the candidates
# (one a line), each pasted back names a group; Tab on a prefix, then run.
cat >"$tmp/rc" <<EOF
unset HISTFILE	# written at exit, maybe after the cleanup removed \$HOME
PS1='\$ '
. '$comp'
bind 'set completion-display-width 0'
bind 'set completion-query-items 0'
bind 'set page-completions off'
bind 'set bell-style none'
M='$mnt'
t() { if [ \$# = 1 ] && [ -d "\$M/\$1" ]; then echo OK; else echo "BAD \$#"; fi; }
t7() { shift 6; t "\$@"; }
EOF
tm() { tmux -S "$sock" "$@"; }
tm -f /dev/null new-session -d -x 250 -y 50 -c "$work" \
	"env -i HOME=$tmp PATH=$PATH TERM=screen LANG=C.UTF-8 bash --rcfile $tmp/rc -i"
typein() {	# typein TEXT: pasted into the pane as typed
	printf '%s' "$1" >"$tmp/buf"
	tm load-buffer -b kc "$tmp/buf" && tm paste-buffer -b kc -d
}
step=0
wait_for() {	# wait_for LINE: until the pane shows LINE alone (10 s)
	local i
	for ((i = 0; i < 100; i++)); do
		tm capture-pane -p -J -S - | sed 's/ *$//' | grep -qxF -- "$1" && return 0
		sleep 0.1
	done
	fail "tmux: no '$1' after 10 s: $(tm capture-pane -p -J | grep -v '^$' | tail -5)"
	return 1
}
begin() {
	step=$((step + 1))
	tm send-keys C-u
	typein "clear; echo BEGIN$step"
	tm send-keys Enter
	wait_for "BEGIN$step" && tm clear-history
}
end_step() {
	tm send-keys C-u
	typein "echo END$step"
	tm send-keys Enter
	wait_for "END$step"
	pane=$(tm capture-pane -p -J -S - | sed 's/ *$//' | sed -n "/^BEGIN$step\$/,/^END$step\$/p")
	case "$pane" in
	*"not found"* | *rror* | *division* | *"bad substitution"* | *unexpected* | \
	*"binary file"* | *"rgctl:"*) fail "tmux step $step printed: $pane" ;;
	*) ok ;;
	esac
}
wait_for '$' || skip_test "the interactive bash under tmux did not start"
for cmd in shares delete list exec; do
	begin
	typein "$R $cmd "
	tm send-keys Tab Tab
	end_step
	listed=() state=0
	while IFS= read -r l; do
		if ((state == 0)); then
			[ "$l" = "\$ $R $cmd" ] && state=1
			continue
		fi
		[[ $l == '$ '* ]] && break
		[ -n "$l" ] && listed+=("$l")
	done <<<"$pane"
	[ ${#listed[@]} -eq ${#groups[@]} ] && ok ||
		fail "tmux '$cmd <TAB><TAB>': ${#listed[@]} words listed, expected ${#groups[@]}: $pane"
	begin
	line=
	for w in "${listed[@]}"; do line+="t $w; "; done
	typein "${line}echo PASTED"
	tm send-keys Enter
	wait_for PASTED
	end_step
	[ "$(printf '%s\n' "$pane" | grep -cx OK)" = ${#listed[@]} ] && ok ||
		fail "tmux '$cmd <TAB><TAB>': not every word listed names a group: $pane"
	no_files_ran "tmux '$cmd <TAB><TAB>'"
done
for prefix in b c d "e\\\$\\(\\(1/" f h "\$'i" "'j" k: n o "\\~" "\\#" "\"a\$(touch\${IFS}F1)/"; do
	begin
	typein "$R list $prefix"
	tm send-keys Tab C-a
	typein "t7 "
	tm send-keys Enter
	end_step
	printf '%s\n' "$pane" | grep -qx OK && ok || fail "tmux 'list $prefix<TAB>': $pane"
	no_files_ran "tmux 'list $prefix<TAB>'"
done
finish
