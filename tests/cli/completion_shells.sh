# zsh and fish completion (completion/kattr.zsh.in, kattr.fish.in: both run
# kattr.bash's engine, _kattr_external).  As the bash tests do: a command,
# an option, rgctl list -o's columns (not those already in the list),
# splicebench --mode after a comma, rgctl set's keys and a key's values;
# then, as root, groups named to run code or split ('a$(touch${IFS}F1)',
# 'b`touch F2`', 'c;touch F3', quotes, blanks, invalid UTF-8...) on a named
# cgroup v1 hierarchy of the test's own: every group offered is a real
# one, and Tab in a real interactive zsh and fish under tmux completes a
# prefix to a word that, run, names the group.  Nothing may run (no F*).
# fish reads a completion function's output a line per candidate, a tab
# starting its description: names with a tab are not offered there (the
# kernel takes no newline in a group's name).
. "$(dirname "$0")/lib.sh"
command -v zsh >/dev/null || skip_test "zsh is not installed (scripts/deps.sh installs it)"
command -v fish >/dev/null || skip_test "fish is not installed (scripts/deps.sh installs it)"
command -v tmux >/dev/null || skip_test "tmux is not installed (scripts/deps.sh installs it)"
export KATTR_COMPLETION_ENGINE="$SRC_DIR/completion/kattr.bash"
zfile="$BUILD_DIR/completion/_rgctl"	# _likelytop, _splicebench: the same body
ffile="$BUILD_DIR/completion/kattr.fish"
tmp=$(mktemp -d /tmp/kattr-compsh.XXXXXX)
mnt=$tmp/mnt work=$tmp/work sock=$tmp/tmux.sock
mkdir "$mnt" "$work" "$tmp/fish" "$tmp/z"
cleanup() {
	tmux -S "$sock.zsh" kill-server 2>/dev/null
	tmux -S "$sock.fish" kill-server 2>/dev/null
	named_hier_umount "kattrcsh$$" "$mnt" || return
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
for t in rgctl likelytop splicebench; do cp "$ffile" "$tmp/fish/$t.fish"; done
export PATH="$BUILD_DIR/src/rgctl:$BUILD_DIR/src/likelytop:$BUILD_DIR/src/splicebench:$PATH"

# fish_cands LINE: what fish offers for LINE (complete -C), one a line,
# sorted, into $got.
fish_cands() {
	got=$(cd "$work" && fish --no-config -c 'set fish_complete_path $argv[1] $fish_complete_path
		complete -C$argv[2]' "$tmp/fish" "$1" 2>&1 | cut -f1 | LC_ALL=C sort)
}
# zsh_cands WORD...: what _kattr hands compadd for the line WORD... (the
# last: the word completed, as typed; $ZPREFIX: zsh's PREFIX, the word
# without an opening quote), NUL-separated, into $got (one a line,
# sorted; a name with a newline would show: none has one).
zsh_cands() {
	got=$(cd "$work" && zsh -f -c '
		compadd() { while [[ $1 != -- ]]; do shift; done; shift; printf "%s\0" "$@"; }
		words=("$@") CURRENT=$# PREFIX=${ZPREFIX-${@[-1]}}
		source "'"$zfile"'"' _ "$@" 2>&1 | tr '\0' '\n' | LC_ALL=C sort)
}
# check_both WANT LINE...: both shells offer exactly WANT (lines) for LINE
# (the words, the last the one completed)
check_both() {
	local want=$1 line
	shift
	line="$*"
	[ -z "${@: -1}" ] && line+=" "
	fish_cands "$line"
	expect_eq "$got" "$want" "fish '$line<TAB>'"
	zsh_cands "$@"
	expect_eq "$got" "$want" "zsh '$line<TAB>'"
}
nl=$'\n'
check_both "list" rgctl li
check_both "--backend" rgctl --back
check_both "DEPTH${nl}GROUP${nl}MISSING${nl}NAME${nl}SHARES${nl}TASKS" rgctl list -o ""
check_both "GROUP,SHARES,DEPTH${nl}GROUP,SHARES,MISSING${nl}GROUP,SHARES,NAME${nl}GROUP,SHARES,TASKS" rgctl list -o GROUP,SHARES,
check_both "copy,gift${nl}copy,vmsplice" splicebench --mode copy,
check_both "copy,vmsplice" splicebench --mode copy,v
check_both "csv${nl}json${nl}openmetrics${nl}text" likelytop --format ""
check_both "openmetrics${nl}text" rgctl stats --format ""
check_both "--textfile" rgctl stats --textf
check_both "memory.high=${nl}memory.low=${nl}memory.max=${nl}memory.min=${nl}memory.swap.max=" rgctl set g mem
check_both "memory.max=max" rgctl set g memory.max=
check_both "pids.max=max" rgctl create g --set pids.max=
fish_cands "rgctl set g "
expect_eq "$(printf '%s\n' "$got" | grep -c '^[a-z]*\.[a-z.]*=$')" \
	"$(rgctl set --help | sed -n '/^KEYS/,/^$/p' | grep -c '^  [a-z]*\.')" "fish: every key of rgctl set --help"
fish_cands "rgctl --root=$tmp/wo"
expect_eq "$got" "--root=$work/" "fish: --root=DIR"

# Hostile names, as root on a hierarchy of the test's own.
if [ "$(id -u)" != 0 ]; then
	echo "SKIP (part): the hostile names need root (a cgroup v1 hierarchy is mounted)"
	finish
fi
named_hier_mount "kattrcsh$$" "$mnt" || {
	echo "SKIP (part): cannot mount a named cgroup v1 hierarchy here"
	finish
}
names=('a$(touch${IFS}F1)' 'b`touch F2`' 'c;touch F3' 'd|touch F4'
	'e$((1/0))' 'f*' 'h space' $'i\xff\xfeinvalid' "j'q\"dq\\bs"
	'k:colon=eq' '~l' '#m' $'n\ttab' 'o&p>q<r' 'a$(touch${IFS}F1)/x y')
for n in "${names[@]}"; do mkdir -p "$mnt/$n" || fail "cannot create the group '$n'"; done
no_files_ran() {
	local f
	for f in "$work"/F* "$tmp"/F* /F*; do
		[ -e "$f" ] && { fail "$1: '$f' was created: a name ran as a command"; rm -f "$f"; }
	done
	ok
}
want=$(cd "$mnt" && find . -mindepth 1 -type d | sed 's|^\./||' | LC_ALL=C sort)
R=(rgctl -b cgroup1 --root "$mnt")
for cmd in list shares delete exec set; do
	zsh_cands "${R[@]}" $cmd ""
	expect_eq "$got" "$want" "zsh '$cmd <TAB>': the groups"
	fish_cands "${R[*]} $cmd "
	expect_eq "$got" "$(printf '%s\n' "$want" | grep -av "$(printf '\t')")" "fish '$cmd <TAB>': the groups"
	no_files_ran "'$cmd <TAB>'"
done
ZPREFIX='e$((1/' zsh_cands "${R[@]}" list "'e\$((1/"
expect_eq "$got" 'e$((1/0))' "zsh: a quoted prefix"
fish_cands "${R[*]} list 'e\$((1/"
expect_eq "$got" 'e$((1/0))' "fish: a quoted prefix"
no_files_ran "quoted prefixes"

# Real interactive shells under tmux: PREFIX, Tab, then the line is run
# with t7 in front, which says OK when its 7th argument names a group.
cat >"$tmp/z/.zshrc" <<EOF
fpath=('$BUILD_DIR/completion' \$fpath)
autoload -Uz compinit && compinit -u -d '$tmp/z/.zcompdump'
PS1='%% '
unset HISTFILE
t7() { [[ \$# = 7 && -d '$mnt'/\$7 ]] && echo OK || echo "BAD \$#" }
EOF
cat >"$tmp/fish/t7.fish" <<EOF
function t7
    if test (count \$argv) -eq 7 -a -d '$mnt'/"\$argv[7]"; echo OK; else; echo BAD (count \$argv); end
end
EOF
# a server per shell (a new session on a server being killed would die)
tm() { tmux -S "$sock.$shell" "$@"; }
typein() { printf '%s' "$1" >"$tmp/buf"; tm load-buffer -b kc "$tmp/buf" && tm paste-buffer -b kc -d; }
wait_for() {	# wait_for LINE [SEC]: until the pane shows LINE alone (30 s:
		# a loaded machine starts zsh's compinit slowly)
	local i n=$((${2:-30} * 10))
	for ((i = 0; i < n; i++)); do
		tm capture-pane -p -J -S - | sed 's/ *$//' | grep -qxF -- "$1" && return 0
		sleep 0.1
	done
	fail "$shell under tmux: no '$1' after ${2:-30} s: $(tm capture-pane -p -J | grep -v '^$' | tail -5)"
	return 1
}
step=0
try_prefix() {	# try_prefix PREFIX: Tab completes it to a group
	local i
	step=$((step + 1))
	tm send-keys C-u
	typein "clear; echo BEGIN$step"
	tm send-keys Enter
	wait_for "BEGIN$step" || return
	tm clear-history
	typein "${R[*]} list $1"
	tm send-keys Tab
	# the completion is done when the line has changed (5 s at most)
	for ((i = 0; i < 50; i++)); do
		tm capture-pane -p -J | sed 's/ *$//' | grep -qxF -- "% ${R[*]} list $1" || break
		sleep 0.1
	done
	tm send-keys C-a
	typein "t7 "
	tm send-keys Enter
	typein "echo END$step"
	tm send-keys Enter
	wait_for "END$step" || return
	pane=$(tm capture-pane -p -J -S - | sed 's/ *$//' | sed -n "/^BEGIN$step\$/,/^END$step\$/p")
	printf '%s\n' "$pane" | grep -qx OK && ok || fail "$shell: '${R[*]} list $1<TAB>': $pane"
	case "$pane" in
	*"not found"* | *rror* | *"Unknown command"* | *"rgctl:"*) fail "$shell: '$1<TAB>' printed: $pane" ;;
	esac
	no_files_ran "$shell: '$1<TAB>'"
}
# (a quote opened in the prefix: "'j", '"h s', and "'a$(...)/": inside
# double quotes, $( would be a substitution the user typed, in each shell)
prefixes=(b c d f h "'j" '"h s' k o "\\~" "\\#" "'a\$(touch\${IFS}F1)/")
for shell in zsh fish; do
	if [ $shell = zsh ]; then
		run_cmd="env -i HOME=$tmp/z ZDOTDIR=$tmp/z PATH=$PATH TERM=screen LANG=C.UTF-8 KATTR_COMPLETION_ENGINE=$KATTR_COMPLETION_ENGINE zsh -i"
	else
		run_cmd="env -i HOME=$tmp PATH=$PATH TERM=screen LANG=C.UTF-8 KATTR_COMPLETION_ENGINE=$KATTR_COMPLETION_ENGINE fish --no-config -i -C 'set fish_complete_path $tmp/fish \$fish_complete_path; set fish_function_path $tmp/fish \$fish_function_path; function fish_prompt; echo \"% \"; end; set fish_greeting'"
	fi
	tm -f /dev/null new-session -d -x 250 -y 50 -c "$work" "$run_cmd"
	wait_for '%' 60 || { tm kill-server; continue; }
	for p in "${prefixes[@]}"; do try_prefix "$p"; done
	[ $shell = zsh ] && try_prefix "\$'i"	# fish has no $'...'
	tm kill-server
done
finish
