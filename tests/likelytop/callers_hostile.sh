# likelytop --callers under names that a profiled program, its source or
# its user chose (issue 41 item 2): nothing a terminal obeys reaches the
# text output, the live view's c screen or an error message, and a
# newline in a name never splits a row; each such byte shows as \xNN.
# - a copy of callers_prog named "prog ESC ]2;PWNED BEL", its PID.callers
#   then naming "prog ESC ]2;PWNED BEL LF x" (a file of that name too) as
#   the callers' module, as a program may write it: in batch text, CSV and
#   JSON, and in the c screen of -p PID (tmux, when installed);
# - SITE and -S FILE in error messages;
# - as root with kmem:kfree: the hint read from -S sources, its file in
#   "hint: ... (FILE:LINE)" and --condition in the text header.
. "$(dirname "$0")/../cli/lib.sh"
LT=$(tool_path likelytop)
PROG=$BUILD_DIR/tests/likelytop/lt_callers_prog
command -v jq >/dev/null || skip_test "jq is not installed (scripts/deps.sh installs it)"
tmp=$(mktemp -d)
TMUX_SOCK="likelytop-chostile-$$"
cleanup() { [ -n "${TMUX_ON:-}" ] && tmux_stop; rm -rf "$tmp"; }
trap cleanup EXIT
mkdir -m 700 "$tmp/d" "$tmp/bin"
export LIKELY_PROF_DIR=$tmp/d
bad1=$'prog\e]2;PWNED\a'
bad=$'prog\e]2;PWNED\a\nx'
shown='prog\x1b]2;PWNED\x07\x0ax'
cp "$PROG" "$tmp/bin/$bad1"
cp "$PROG" "$tmp/bin/$bad"

# no ESC, BEL or other C0 byte but the newline ending each line
clean() {	# clean TEXT WHAT
	if LC_ALL=C grep -q '[[:cntrl:]]' <<<"$1"; then
		fail "$2: a control byte in the output:"
		printf '%s\n' "$1" | od -c | sed -n 1,8p | sed 's/^/    | /'
	else
		ok
	fi
}

"$tmp/bin/$bad1" 1000
pid=$(ls "$tmp/d" | grep -v callers)
[ -f "$tmp/d/$pid.callers" ] && ok || fail "no $pid.callers beside the profile"
# the module with a newline, escaped in the file as likely_prof.h does
c=$(<"$tmp/d/$pid.callers")
printf '%s\n' "${c//"$tmp/bin/$bad1"$'\t'/"$tmp/bin/$bad1"'\nx'$'\t'}" >"$tmp/d/$pid.callers"
expect_eq "$(grep -c 'PWNED.\\nx' "$tmp/d/$pid.callers")" 3 "the callers file names the module with LF"
run "$LT" --callers hinted -p "$pid" -b
expect_rc 0 "--callers -p PID of the hostile-named program"
clean "$out" "text"
# three rows, each whole: the module escaped within its brackets
expect_eq "$(grep -cF " [$shown]" <<<"$out")" 3 "text: the module escaped, one row per caller"
expect_eq "$(grep -c '^ *[0-9]' <<<"$out")" 3 "text: no row split"
run "$LT" --callers hinted -p "$pid" -b --format csv
expect_rc 0 "CSV"
expect_eq "$(tail -n +2 <<<"$out" | LC_ALL=C grep -c '^1,caller_[abc]+0x[0-9a-f]*,"prog')" 3 \
	"CSV: the module quoted"
run "$LT" --callers hinted -p "$pid" -b -J
expect_rc 0 "JSON"
expect_eq "$(jq -r '.callers | map(.module) | unique | .[]' <<<"$out")" "$bad" "JSON: the module as it is"
clean "$out" "JSON"

# SITE and FILE in error messages
run "$LT" --callers $'kfree\e[31mRED' -b
clean "$err" "--callers SITE: the error message"
expect_match "$err" 'kfree\\x1b\[31mRED' "--callers SITE: the name escaped"
run "$LT" --callers $'f\e]2;X\a.c:12' -S "$tmp" -b
expect_rc 1 "--callers FILE:LINE -S without that file"
clean "$err" "--callers FILE:LINE: the error message"
expect_match "$err" 'f\\x1b]2;X\\x07\.c:12' "--callers FILE:LINE: the file escaped"
run "$LT" --callers "$(printf 'f\e[31m%.0s' $(seq 300))" -p "$pid" -b
expect_rc 1 "a long hostile name"
clean "$err" "a long hostile name: the error message"

# the c screen of the live view: one row per caller, the module escaped
if [ "${WITH_NCURSES:-ON}" != OFF ] && command -v tmux >/dev/null; then
	. "$SRC_DIR/tests/cli/tmux.sh"
	TMUX_ON=1
	tmux_start a 200 30 "export LIKELY_PROF_DIR='$tmp/d' TMPDIR='${TMPDIR:-/tmp}'" \
		"$LT" -d 0.2 -p "$pid"
	if wait_for a "hinted +.*callers_prog\.c:" "the hinted site in the list"; then
		keys a c
		wait_for a "6000 calls, .* 3 callers" "c: the callers screen"
		s=$(screen a)
		expect_eq "$(grep -cF "[$shown]" <<<"$s")" 3 "c: the module escaped, one row per caller"
		grep -q '^x\]' <<<"$s" && fail "c: a row split at the newline" || ok
		keys a q
	fi
else
	echo "# the c screen not checked: built without ncurses, or no tmux"
fi

# the kernel's side: the hint read from -S sources, its file, --condition
T_=/sys/kernel/tracing
if [ "$(id -u)" != 0 ] || ! grep -qw tracefs /proc/filesystems; then
	echo "# kernel hints not checked: needs root and tracefs (kmem:kfree)"
	finish
fi
src=$tmp/src
mkdir -p "$src/mm"
printf 'void kfree(const void *objp)\n{\n\tif (unlikely(!objp /* \033]2;PWNED\a */))\n\t\treturn;\n}\n' >"$src/mm/slab.c"
printf 'void kfree(const void *objp)\n{\n\tif (unlikely(!objp))\n\t\treturn;\n}\n' >"$src/mm/$bad.c"
run "$LT" --callers mm/slab.c:3 -S "$src" -b -n 1 -d 0.1
if [ "$rc" != 0 ] && grep -q 'kmem:kfree\|tracefs\|tracing' <<<"$err"; then
	echo "# kernel hints not checked: $err"
	finish
fi
expect_rc 0 "--callers FILE:LINE -S: a hint with ESC and BEL in a comment"
clean "$out" "the hint from the source"
expect_match "$out" '^hint: unlikely\(!objp /\* \\x1b]2;PWNED\\x07 \*/\)' "the hint escaped"
run "$LT" --callers "mm/$bad.c:3" -S "$src" -b -n 1 -d 0.1
expect_rc 0 "--callers FILE:LINE -S: a file named with ESC, BEL and LF"
clean "$out" "the hint's file"
expect_match "$out" "^hint: unlikely\(!objp\) \(mm/prog\\\\x1b]2;PWNED\\\\x07\\\\x0ax\.c:3\)" "the file escaped"
run "$LT" --callers kfree --condition $'!ptr\e[31m' -b -n 1 -d 0.1
expect_rc 0 "--condition with ESC"
clean "$out" "--condition"
finish
