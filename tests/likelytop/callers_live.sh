# likelytop's live view, the c key, driven through tmux: the callers of
# the selected site of a program built with LIKELY_PROF_CALLERS
# (callers_prog under --exec), exact and live (a second round of calls
# shows at the next refresh); c and Esc go back; the help lists the key.
# A kernel profile's row: a function without a tracepoint of its own, the
# status line says why; kfree (as root, with tracefs): its callers traced
# from this machine's kernel while the screen is open, the instance gone
# once it is left.  Every check polls the pane, with a bound.  Runs in a
# mount namespace of its own (tracefs mounted there if the host has none).
. "$(dirname "$0")/../cli/lib.sh"
bin=$(tool_path likelytop)
PROG=$BUILD_DIR/tests/likelytop/lt_callers_prog
lp="$SRC_DIR/tests/likelytop/data/likely_prof.txt"
[ "${WITH_NCURSES:-ON}" = OFF ] && skip_test "built without ncurses: no live view"
command -v tmux >/dev/null || skip_test "tmux is not installed (scripts/deps.sh installs it)"
T_=/sys/kernel/tracing
if [ "$(id -u)" = 0 ] && [ -z "${LT_LIVE_NS:-}" ] && command -v unshare >/dev/null; then
	LT_LIVE_NS=1 exec unshare -m --propagation private bash "$0"
fi
if [ -n "${LT_LIVE_NS:-}" ] && [ "$(stat -f -c %T $T_ 2>/dev/null)" != tracefs ]; then
	mount -t tracefs nodev $T_ 2>/dev/null
fi
tmp=$(mktemp -d)
TMUX_SOCK="likelytop-callers-$$"
. "$SRC_DIR/tests/cli/tmux.sh"
cleanup() { tmux_stop; rm -rf "$tmp"; }
trap cleanup EXIT

start() {	# start NAME ARGS...: likelytop in a 132x30 pane
	local name=$1
	shift
	tmux_start "$name" 132 30 "export LIKELY_PROF_INTERVAL_MS=100 TMPDIR='${TMPDIR:-/tmp}'" "$bin" "$@"
}

start a -d 0.2 --exec -- "$PROG" 10000 "$tmp/go" 2
touch "$tmp/go.1"
wait_for a "hinted +.*callers_prog\.c:" "the hinted site in the list" || finish
keys a c
wait_for a "callers of hinted\(\)  .*callers_prog\.c:[0-9]+  \(c or Esc: back\)" "c: the callers screen"
wait_for a "60000 calls, 11300 wrong, 3 callers" "c: the totals"
wait_for a "^ +10000 +6000 +60\.00  caller_c\+0x[0-9a-f]+ \[lt_callers_prog\]" "c: caller_c exact"
wait_for a "^ +20000 +5000 +25\.00  caller_b\+0x[0-9a-f]+ \[lt_callers_prog\]" "c: caller_b exact"
wait_for a "^ +30000 +300 +1\.00  caller_a\+0x[0-9a-f]+ \[lt_callers_prog\]" "c: caller_a exact"
touch "$tmp/go.2"
wait_for a "120000 calls, 22600 wrong, 3 callers" "c: live, the second round shows"
wait_for a "^ +20000 +12000 +60\.00  caller_c" "c: live per caller"
keys a c
wait_for a "FUNCTION" "c again goes back"
keys a c
wait_for a "callers of hinted" "c once more"
keys a Escape
wait_for a "FUNCTION" "Esc goes back"
keys a h
wait_for a "^ *c +callers of the selected site" "help lists c"
keys a x q
start b -f "$lp"
wait_for b "kfree +mm/slab\.c" "a kernel profile" || finish
keys b G
keys b c
wait_for b "c: .*: no tracepoint that records its caller is known" "c on a function without a tracepoint: the status line says why"
wait_for b "FUNCTION" "and the list stays"
keys b g c
if [ "$(id -u)" = 0 ] && [ "$(stat -f -c %T $T_ 2>/dev/null)" = tracefs ] && [ -e $T_/events/kmem/kfree ]; then
	wait_for b "callers of kfree\(\)" "c on kfree: the callers screen"
	wait_for b "this machine's kernel, kmem:kfree in .*instances/likelytop-[0-9]+" "c on kfree: traced from this kernel"
	( end=$((SECONDS + 3)); while [ $SECONDS -lt $end ]; do /bin/true; done )
	wait_for b "^ +[0-9]+ +[0-9]+ +[0-9.]+  [A-Za-z_.0-9]+\+0x" "c on kfree: callers counted"
	ls $T_/instances | grep -q '^likelytop-' && ok || fail "no likelytop instance while the screen is open"
	keys b Escape
	wait_for b "FUNCTION" "Esc leaves the kernel's callers"
	wait_until 5 "! ls $T_/instances | grep -q '^likelytop-'" && ok || fail "the instance is left after the screen: $(ls $T_/instances)"
else
	wait_for b "c: .*(tracefs|instance|permission|mount)" "c on kfree without root or tracefs: the status line says why"
fi
keys b q
finish
