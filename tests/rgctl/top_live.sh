# rgctl top's live view through tmux (issue 27): tree order with children
# indented, the weights' expected shares, F flat, / filter, t c m i sort,
# p pause, d delay, ? help, Enter details (settings as rgctl get shows
# them, enforcement counters, processes with their command lines), a
# group removed while shown leaving without an error, resize, NO_COLOR, q
# and SIGTERM restoring the terminal.  Built without ncurses: the live
# view says so (exit 1) and -b still works.  Every check polls, bounded.
. "$(dirname "$0")/common.sh"
require_root "creates groups in the cgroup v1 hierarchies"
CPU=$(mount_of cgroup cpu)
[ -n "$CPU" ] || skip_test "needs a cgroup v1 cpu hierarchy"
if [ "${WITH_NCURSES:-ON}" = OFF ]; then
	run "$RG" --backend cgroup1 --root "$CPU" top
	expect_rc 1 "live view without ncurses"
	expect_match "$err" "needs ncurses.*WITH_NCURSES=OFF.*use -b" "no-ncurses message"
	run "$RG" --backend cgroup1 --root "$CPU" top -b -d 0.2
	expect_rc 0 "batch mode without ncurses"
	finish
fi
command -v tmux >/dev/null || skip_test "tmux is not installed (scripts/deps.sh installs it)"
for h in $CPU $(v1_peers "$CPU"); do
	use_hierarchy "$h"
done
tmp=$(mktemp -d /tmp/rgctl-top-live.XXXXXX)
TMUX_SOCK="rgctl-top-test-$$"
. "$SRC_DIR/tests/cli/tmux.sh"
CLEANUPS+=('tmux_stop; rm -rf "$tmp"')
r() { run "$RG" --backend cgroup1 --root "$CPU" "$@"; }

r create "$G/alpha" "$G/beta/inner" "$G/gone" -p
expect_rc 0 "create the groups"
r set "$G/alpha" cpu.weight=100 memory.max=64M pids.max=50
r set "$G/beta" cpu.weight=300
expect_rc 0 "set beta's weight"
sleep 300 &
SPAWNED+=("$!")
sleeper=$!
r attach "$G/alpha" "$sleeper"

# start NAME ARGS...: rgctl top in a 132x30 pane (W, H: another size)
start() {
	local name=$1
	shift
	tmux_start "$name" "${W:-132}" "${H:-30}" \
		"export TMPDIR='${TMPDIR:-/tmp}' ${NOCOLOR:+NO_COLOR=1}" \
		"$RG" --backend cgroup1 --root "$CPU" top "$@"
}

start a -d 0.3 "$G"
wait_for a "^GROUP +TASKS +CPU +WEIGHT +EXPECT +SHARE" "the column titles"
wait_for a "^/$G " "the watched group first"
wait_for a "^  alpha +1 " "alpha indented, one task"
wait_for a "^    inner " "inner below beta"
wait_for a "^  beta +0 +[-0-9.]+ +300 " "beta's weight"
wait_for a "rgctl top - .* 5 groups" "the header counts the groups"
# a group removed while shown leaves without an error
r delete "$G/gone"
wait_gone a "^  gone " "a removed group leaves the view"
wait_for a "4 groups" "the count follows"
# flat, filter
keys a F
wait_for a "^/$G/beta/inner " "F: paths in full"
keys a F
wait_for a "^    inner " "F again: the tree"
keys a / b e t
wait_for a "filter \(path has\): bet" "the filter being typed"
wait_gone a "^  alpha " "the filter hides alpha"
keys a Enter
wait_for a "filter: bet" "the filter in the header"
keys a Escape
wait_for a "^  alpha " "Esc clears the filter"
# sort keys
keys a c
wait_for a "sort: CPU" "c sorts by CPU"
keys a m
wait_for a "sort: MEM" "m sorts by memory"
keys a o
wait_for a "sort: GROUP" "o: back to paths"
# details of alpha: settings as rgctl get shows them, counters, processes
keys a g j
keys a Enter
wait_for a "^/$G/alpha  CPU" "details of alpha"
wait_for a "cpu.weight +100" "alpha's cpu.weight in details"
wait_for a "memory.max +64M" "alpha's memory.max in details"
wait_for a "pids.max +50" "alpha's pids.max in details"
wait_for a "enforcement counters" "the counters"
wait_for a "events.oom_kill|nr_throttled|events.max" "a counter named"
wait_for a "processes \(1\)" "alpha's process count"
wait_for a " $sleeper  sleep 300" "its command line"
keys a Escape
wait_for a "^GROUP +TASKS" "Esc: back to the list"
# help, pause, delay
keys a '?'
wait_for a "rgctl top: keys" "? shows help"
keys a Escape
keys a p
wait_for a "PAUSED" "p pauses"
keys a p
wait_gone a "PAUSED" "p resumes"
keys a d 0 . 7 Enter
wait_for a "every 0.7s" "d sets the delay"
keys a d 0 Enter
wait_for a "the delay is seconds" "a bad delay is refused"
keys a x
wait_for a "q quit" "any key takes the message away"
# colour, resize, quit
T capture-pane -e -p -t a | grep -q $'\e\\[36m' && ok || fail "the titles are not in colour"
T resize-window -t a -x 90 -y 16 2>/dev/null || T resize-pane -t a -x 90 -y 16
for i in $(seq 50); do
	screen a | sed -n 16p | grep -q "q quit" && break
	sleep 0.1
done
screen a | sed -n 16p | grep -q "q quit" && ok || fail "resize: the key line is not on the last row: $(screen a | tail -3)"
keys a q
wait_exit a 0

# SIGTERM ends it cleanly; NO_COLOR has no colours
NOCOLOR=1 start b -d 0.3 "$G"
wait_for b "^GROUP" "NO_COLOR run"
T capture-pane -e -p -t b | grep -q $'\e\\[3[0-7]m' && fail "NO_COLOR: colours used" || ok
# our own rgctl-top, the pane's shell's child (a pattern on the command
# line also matched top.sh's, run beside this one by ctest -j2, and its
# "top -b -J" died of our SIGTERM: exit status 143)
pid=$(pgrep -P "$(T display-message -p -t b '#{pane_pid}')" -x rgctl-top | head -1)
[ -n "$pid" ] && kill -TERM "$pid"
wait_exit b 0

# the watched group removed: the view ends with the reason (exit 1)
start c -d 0.3 "$G/beta/inner"
wait_for c "^/$G/beta/inner" "watching inner"
r delete "$G/beta/inner"
wait_exit c 1
finish
