#!/bin/bash
# rgctl top on cgroup v2 in the guest (issue 27): two busy loops pinned to
# one CPU in sibling groups weighted 100:300 show EXPECT 25/75 and SHARE
# within 10 points; a group at its memory.max shows OOMKILL rising; a
# fork bomb stopped by pids.max shows PIDSEV (pids.events max) rising; PSI
# figures are there; a group removed while watched leaves.  All through
# rgctl top -b -J, polled with a bound.
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || skip_test "jq is not installed in the guest"
r() { run "$RG" --backend cgroup2 "$@"; }
RES=$BUILD_DIR/tests/rgctl/res_helper
[ -n "${VM_ENABLE_CPU:-}" ] && enable_cpu_along "$G/w100"
top_of() {	# top_of GROUP PATH KEY: KEY of PATH in one snapshot of GROUP
	json_get "$out" ".groups[] | select(.path == \"/$2\") | .$3"
}

r create "$G/w100" -p --set cpu.weight=100
expect_rc 0 "create w100"
r create "$G/w300" -p --set cpu.weight=300
expect_rc 0 "create w300"
cpu=$(($(nproc) - 1))
for g in w100 w300; do
	"$RG" --backend cgroup2 exec "$G/$g" -- taskset -c "$cpu" "$HELPER" spin 60 &
	SPAWNED+=($!)
done
for i in 1 2 3 4; do
	r top -b -J -n 1 -d 5 "$G"
	expect_rc 0 "top -b -J (try $i)"
	aa=$(top_of "$G" "$G/w100" actual_share_pct) ab=$(top_of "$G" "$G/w300" actual_share_pct)
	awk -v a="$aa" -v b="$ab" 'BEGIN { exit !(a >= 15 && a <= 35 && b >= 65 && b <= 85) }' && break
done
echo "top: w100/w300 expected $(top_of "$G" "$G/w100" expected_share_pct)/$(top_of "$G" "$G/w300" expected_share_pct), got $aa/$ab"
expect_eq "$(top_of "$G" "$G/w100" expected_share_pct)/$(top_of "$G" "$G/w300" expected_share_pct)" \
	"25/75" "expected shares of weights 100:300"
awk -v a="$aa" -v b="$ab" 'BEGIN { exit !(a >= 15 && a <= 35 && b >= 65 && b <= 85) }' &&
	ok || fail "actual shares $aa/$ab, not within 10 points of 25/75"
expect_eq "$(top_of "$G" "$G/w300" cpu_weight)" 300 "cpu.weight in top"
[ "$(top_of "$G" "$G/w100" psi_cpu_some_avg10)" != null ] && ok ||
	fail "no cpu PSI on cgroup v2 ($(cat "$U/$G/w100/cpu.pressure" 2>&1 | head -1))"
[ "$(top_of "$G" "$G/w100" psi_memory_some_avg10)" != null ] && ok || fail "no memory PSI"
expect_eq "$(top_of "$G" "$G/w100" tasks)" 1 "tasks of w100"
kill "${SPAWNED[@]}" 2>/dev/null

# memory.max: OOM kills counted from top's start
r create "$G/oom" --set memory.max=32M --set memory.swap.max=0
expect_rc 0 "create oom"
"$RG" --backend cgroup2 top -b -J -n 40 -d 0.5 -o group,oomkill,memmax "$G/oom" >"$VM_OUT/top-oom" 2>&1 &
topp=$!
sleep 1
for i in 1 2; do
	"$RG" --backend cgroup2 exec "$G/oom" -- "$RES" alloc 128 >/dev/null 2>&1
done
for i in $(seq 60); do
	n=$(tail -1 "$VM_OUT/top-oom" | jq -r '.groups[0].oom_kill' 2>/dev/null)
	[ "${n:-0}" -ge 2 ] 2>/dev/null && break
	sleep 0.5
done
kill "$topp" 2>/dev/null
wait "$topp" 2>/dev/null
expect_eq "$(head -1 "$VM_OUT/top-oom" | jq -r '.groups[0].oom_kill')" 0 "no OOM kill at top's start"
expect_eq "$n" 2 "OOMKILL rose by the two allocations killed"
expect_eq "$(head -1 "$VM_OUT/top-oom" | jq -r '.groups[0].memory_max')" 33554432 "MEMMAX"

# pids.max: the refused forks counted
r create "$G/pids" --set pids.max=10
"$RG" --backend cgroup2 top -b -J -n 40 -d 0.5 -o group,pids,pidsmax,pidsev "$G/pids" >"$VM_OUT/top-pids" 2>&1 &
topp=$!
sleep 1
r exec "$G/pids" -- "$RES" forks 40
expect_eq "$out" "forked 9: EAGAIN" "10 tasks, then EAGAIN"
for i in $(seq 60); do
	n=$(tail -1 "$VM_OUT/top-pids" | jq -r '.groups[0].pids_events_max' 2>/dev/null)
	[ "${n:-0}" -ge 1 ] 2>/dev/null && break
	sleep 0.5
done
kill "$topp" 2>/dev/null
wait "$topp" 2>/dev/null
expect_eq "$n" 1 "PIDSEV rose: pids.events max +1"
expect_eq "$(head -1 "$VM_OUT/top-pids" | jq -r '.groups[0].pids_max')" 10 "PIDSMAX"

# a group removed while watched leaves without an error
r create "$G/gone"
"$RG" --backend cgroup2 top -b -J -n 6 -d 0.5 "$G" >"$VM_OUT/top-gone" 2>"$VM_OUT/top-gone.err" &
topp=$!
for i in $(seq 50); do [ -s "$VM_OUT/top-gone" ] && break; sleep 0.1; done
r delete "$G/gone"
wait "$topp"
expect_eq "$?" 0 "top after a group went"
expect_eq "$(cat "$VM_OUT/top-gone.err")" "" "nothing on stderr"
expect_eq "$(tail -1 "$VM_OUT/top-gone" | jq -r "[.groups[].path] | index(\"/$G/gone\")")" null \
	"the last snapshot does not show it"
finish
