#!/bin/bash
# rgctl stats on the guest's cgroup v2 (issue 26 item 4): a busy loop and a
# process holding 40 MiB in a group with memory and pids enabled; stats
# shows CPU time (cpu.stat), memory.current, memory.peak (n/a on a kernel
# without it), pids, and the PSI figures of cpu, memory and io where the
# kernel has PSI (/proc/pressure); --interval gives the loop's CPU rate.
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || skip_test "jq is not installed in the guest"
SH=$BUILD_DIR/tests/rgctl/stats_helper
[ -x "$SH" ] || { fail "$SH is not built"; finish; }
r() { run "$RG" --backend cgroup2 "$@"; }
r create "$G/s" -p
expect_rc 0 "create"
# memory and pids enabled above the group (set enables them)
r set "$G/s" memory.high=max pids.max=max
expect_rc 0 "set enables memory and pids"
"$RG" --backend cgroup2 exec "$G/s" -- "$HELPER" spin 60 &
SPAWNED+=($!)
"$RG" --backend cgroup2 exec "$G/s" -- "$SH" touch 40 60 >"$VM_OUT/stats.ready" &
SPAWNED+=($!)
for _ in $(seq 200); do
	[ -s "$VM_OUT/stats.ready" ] && break
	sleep 0.1
done
expect_eq "$(cat "$VM_OUT/stats.ready")" ready "the 40 MiB toucher is ready"
sleep 1

r -J stats "$G/s"
expect_rc 0 "stats --json"
printf '%s\n' "$out" | jq -c '.stats'
u=$(json_get "$out" '.stats.cpu.usage_usec')
[ -n "$u" ] && [ "$u" -gt 0 ] && ok || fail "usage_usec '$u' for a busy group"
expect_eq "$(json_get "$out" '.figures[] | select(.figure == "usage_usec") | .file')" cpu.stat "usage_usec from cpu.stat"
cur=$(json_get "$out" '.stats.memory.current')
[ -n "$cur" ] && [ "$cur" -ge $((32 << 20)) ] && ok || fail "memory.current '$cur' below 32 MiB"
if [ -e "$U/$G/s/memory.peak" ]; then
	expect_match "$(json_get "$out" '.stats.memory.peak')" '^[0-9]+$' "memory.peak"
else
	expect_eq "$(json_get "$out" '.stats.memory.peak == null')" true "memory.peak n/a (null) on this kernel"
	r stats "$G/s"
	expect_match "$out" '^memory +peak +n/a$' "memory.peak n/a in the table"
fi
expect_match "$(json_get "$out" '.stats.memory["events.oom_kill"]')" '^[0-9]+$' "memory events.oom_kill"
expect_match "$(json_get "$out" '.stats.pids.current')" '^[0-9]+$' "pids.current"
if [ -e /proc/pressure/cpu ]; then
	for res in cpu memory io; do
		expect_match "$(json_get "$out" ".stats.$res[\"pressure.some.avg10\"]")" '^[0-9]+(\.[0-9]+)?$' \
			"$res pressure.some.avg10"
		expect_match "$(json_get "$out" ".stats.$res[\"pressure.some.total_usec\"]")" '^[0-9]+$' \
			"$res pressure.some.total_usec"
	done
	r stats "$G/s"
	printf '%s\n' "$out"
	expect_match "$out" '^cpu +pressure\.some\.avg10 +[0-9]+\.[0-9]{2}%$' "PSI in the table"
else
	fail "the guest kernel has no PSI (/proc/pressure): CONFIG_PSI in kernel/config.fragment"
fi

r -J stats --interval 1 "$G/s"
expect_rc 0 "stats --interval 1"
rate=$(json_get "$out" '.figures[] | select(.figure == "usage_usec") | .rate | floor')
echo "busy loop: $rate% of one CPU"
[ -n "$rate" ] && [ "$rate" -ge 10 ] && [ "$rate" -le 130 ] && ok ||
	fail "CPU rate of a busy loop '$rate', expected 10 to 130 percent of one CPU"
rm -f "$VM_OUT/stats.ready"
finish
