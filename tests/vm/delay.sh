#!/bin/bash
# rgctl stats --delay on the guest's cgroup v2 (taskstats over netlink):
# with kernel.task_delayacct=0 the message, with 1 real non-zero CPU
# delays for three spinners sharing the guest's CPUs, the total their sum.
. "$(dirname "$0")/lib.sh"
[ "${WITH_LIBMNL:-ON}" = OFF ] && skip_test "rgctl was built without libmnl"
SYSCTL=/proc/sys/kernel/task_delayacct
[ -w $SYSCTL ] || { fail "no $SYSCTL in the guest kernel"; finish; }
saved=$(cat $SYSCTL)
CLEANUPS+=("echo $saved >$SYSCTL")
r() { run "$RG" --backend cgroup2 "$@"; }
r create "$G/busy" -p
expect_rc 0 "create"
echo 0 >$SYSCTL
r stats "$G/busy" --delay
expect_rc 1 "delay accounting off"
expect_match "$err" "sysctl kernel.task_delayacct=1" "off message"
[ -z "$out" ] && ok || fail "zeros printed while off: $out"

echo 1 >$SYSCTL
n=$(($(nproc) + 1))
for ((i = 0; i < n; i++)); do
	# 20 s: both reads below must find them alive, under TCG on a busy
	# host too (6 s was once not enough for the second); killed at the end
	"$RG" --backend cgroup2 exec "$G/busy" -- "$HELPER" spin 20 &
	SPAWNED+=($!)
done
sleep 3
r stats "$G/busy" --delay
expect_rc 0 "stats --delay"
printf '%s\n' "$out"
rows=$(printf '%s\n' "$out" | awk '$2 == "task_helper"' | wc -l)
expect_eq "$rows" "$n" "one row per member"
sum=$(printf '%s\n' "$out" | awk '$2 == "task_helper" { s += $3 } END { printf "%.3f", s }')
tot=$(printf '%s\n' "$out" | awk '$1 == "total" { print $4 }')
awk -v s="$sum" -v t="$tot" 'BEGIN { d = s - t; exit !(d < 0.01 && d > -0.01) }' && ok ||
	fail "total $tot is not the sum $sum"
awk -v t="$tot" 'BEGIN { exit !(t > 0) }' && ok || fail "no CPU delay with $n spinners on $(nproc) CPUs"
r --json stats "$G/busy" --delay
expect_rc 0 "stats --delay --json"
expect_eq "$(json_get "$out" '.members | length')" "$n" "json members"
finish
