#!/bin/bash
# rgctl stats GROUP --delay: with delay accounting off it says how to turn
# it on (no zeros); with it on, busy members show CPU delay, the total is
# their sum, and on cgroup v1 the task-state counts are there (cgroupstats
# is a v1 interface: the kernel answers EINVAL for a v2 directory, so on
# v2 there is no such line).  Runs on cgroup v1 cpu and on cgroup v2,
# each that is mounted (delay accounting needs no controller).  The sysctl
# is restored on exit.
. "$SRC_DIR/tests/rgctl/tasks_lib.sh"
require_root "delay writes to cgroupfs"
V1=$(cpu_mount)
V2=$(awk '{ for (i = 7; $i != "-"; i++); if ($(i+1) == "cgroup2") { print $5; exit } }' /proc/self/mountinfo)
[ -n "$V1$V2" ] || skip_test "neither a cgroup v1 cpu nor a cgroup v2 hierarchy is mounted"
WORK=$(mktemp -d)
trap delay_cleanup EXIT
# rgd_cleanup for each hierarchy used (CPU: where members go back to)
USED=()
delay_cleanup() {
	local u
	for u in "${USED[@]}"; do
		CPU=${u%%|*} ROOT=${u#*|} WORK=
		rgd_cleanup
	done
	ROOT= CPU=
	rgd_cleanup
	rm -rf "${TMPW:-}"
	[ -n "${saved:-}" ] && echo "$saved" >/proc/sys/kernel/task_delayacct
	return 0
}
TMPW=$WORK
# use HIER: a fresh subtree of HIER as rgctl's --root
use() {
	CPU=$1
	ROOT="$1/rgdtest.delay.$$.$RANDOM"
	mkdir "$ROOT" || return 1
	USED+=("$CPU|$ROOT")
}
first=${V1:-$V2}
use "$first" || skip_test "cannot create a group under $first"
cd "$WORK" || exit 1
if [ "${WITH_LIBMNL:-ON}" = OFF ]; then
	mkdir "$ROOT/g"
	run "$RGCTL" --root "$ROOT" stats g --delay
	expect_rc 1 "stats --delay without libmnl"
	expect_match "$err" "built without libmnl" "stats --delay without libmnl"
	[ "$T_FAILS" = 0 ] || finish
	skip_test "rgctl was built without libmnl (WITH_LIBMNL=OFF)"
fi
SYSCTL=/proc/sys/kernel/task_delayacct
[ -w $SYSCTL ] || skip_test "no $SYSCTL in this kernel"
saved=$(cat $SYSCTL)

# delay_on: the checks on the hierarchy of ROOT (v1: with cgroupstats)
delay_on() {
local v1=no p
[ "$CPU" = "${V1:-}" ] && v1=yes
echo "stats --delay on $CPU (cgroup v1: $v1)"
PIDS=()
mkdir "$ROOT/busy"

echo 0 >$SYSCTL
run "$RGCTL" --root "$ROOT" stats busy --delay
expect_rc 1 "delay accounting off"
expect_match "$err" "delay accounting is off: turn it on with 'sysctl kernel.task_delayacct=1'" "off message"
[ -z "$out" ] && ok || fail "zeros printed while off: $out"

echo 1 >$SYSCTL
# three spinners on this machine's CPUs: they wait for one another
for i in 1 2 3; do
	"$HELPER" spin 20 & PIDS+=($!)
	echo $! >"$ROOT/busy/cgroup.procs"
done
sleep 1.5
run "$RGCTL" --root "$ROOT" stats busy --delay
expect_rc 0 "stats --delay"
for p in "${PIDS[@]}"; do
	expect_match "$out" "(^|$(printf '\n'))$p +task_helper +[0-9.]+ +[0-9]+" "row for $p"
done
expect_match "$out" "total +3 members" "total row"
if [ $v1 = yes ]; then
	expect_match "$out" "tasks: [0-9]+ sleeping, [0-9]+ running, [0-9]+ stopped" "cgroupstats line"
else
	printf '%s\n' "$out" | grep -q "^tasks:" && fail "cgroupstats line on cgroup v2" || ok
fi
# the total is the sum of the rows, and the spinners did wait for a CPU
sum=$(printf '%s\n' "$out" | awk '$2 == "task_helper" { s += $3 } END { printf "%.3f", s }')
tot=$(printf '%s\n' "$out" | awk '$1 == "total" { print $4 }')
awk -v s="$sum" -v t="$tot" 'BEGIN { d = s - t; exit !(d < 0.01 && d > -0.01) }' && ok ||
	fail "total $tot is not the sum $sum"
ncpu=$(nproc)
if [ "$ncpu" -lt 3 ]; then
	awk -v t="$tot" 'BEGIN { exit !(t > 0) }' && ok || fail "no CPU delay with 3 spinners on $ncpu CPUs"
fi
run "$RGCTL" --root "$ROOT" --json stats busy --delay
expect_rc 0 "stats --delay --json"
if command -v jq >/dev/null; then
	n=$(printf '%s' "$out" | jq '.members | length')
	[ "$n" = 3 ] && ok || fail "json members: $n"
	s=$(printf '%s' "$out" | jq '[.members[].cpu_delay_total] | add')
	t=$(printf '%s' "$out" | jq '.total.cpu_delay_total')
	[ "$s" = "$t" ] && ok || fail "json total $t != sum $s"
	if [ $v1 = yes ]; then
		printf '%s' "$out" | jq -e '.tasks.running >= 0' >/dev/null && ok || fail "json tasks"
	else
		printf '%s' "$out" | jq -e 'has("tasks") | not' >/dev/null && ok || fail "json tasks on cgroup v2"
	fi
fi
# plain stats still works through the same command
run "$RGCTL" --root "$ROOT" stats busy
expect_rc 0 "plain stats"
for p in "${PIDS[@]}"; do kill -KILL "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
PIDS=()
}

delay_on
if [ -n "$V1" ] && [ -n "$V2" ]; then
	use "$V2" || skip_test "cannot create a group under $V2"
	delay_on
fi
finish
