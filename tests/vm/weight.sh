#!/bin/bash
# cpu.weight is enforced: two busy loops pinned to one CPU, in sibling
# groups weighted 100 and 300 (set through rgctl), get CPU time within 10%
# of 1:3 (the ratio between 2.7 and 3.3).
. "$(dirname "$0")/lib.sh"
r() { run "$RG" --backend cgroup2 "$@"; }
[ -n "${VM_ENABLE_CPU:-}" ] && enable_cpu_along "$G/w100"
SECS=${VM_WEIGHT_SECS:-8}
r create "$G/w100" -p --shares 100
expect_rc 0 "create w100"
r create "$G/w300" -p --shares 300
expect_rc 0 "create w300"
expect_eq "$(cat "$U/$G/w100/cpu.weight") $(cat "$U/$G/w300/cpu.weight")" "100 300" "weights"
cpu=$(($(nproc) - 1))
for g in w100 w300; do
	"$RG" --backend cgroup2 exec "$G/$g" -- taskset -c "$cpu" "$HELPER" spin $((3 * SECS + 4)) &
	SPAWNED+=($!)
done
sleep 2	# both running and settled
# Up to three windows: under TCG the guest's clock runs on while the host
# deschedules a vCPU, and a host busy with other work skews one window
# (CI, 2026-12-05: 1:2.55 once, at host load 3); weights not enforced
# would give 1:1 in every window.  Each window is printed.
for ((try = 1; try <= 3; try++)); do
	a0=$(cpu_usec "$U/$G/w100") b0=$(cpu_usec "$U/$G/w300")
	sleep "$SECS"
	a1=$(cpu_usec "$U/$G/w100") b1=$(cpu_usec "$U/$G/w300")
	a=$((a1 - a0)) b=$((b1 - b0))
	share=$(awk -v a=$a -v b=$b 'BEGIN { printf "%.3f", b / (a + b) }')
	ratio=$(awk -v a=$a -v b=$b 'BEGIN { printf "%.2f", a ? b / a : 0 }')
	echo "weight 100:300 on CPU $cpu over $SECS s (window $try): $a us : $b us = 1:$ratio (w300's share $share, want 0.750)"
	awk -v a=$a -v b=$b -v t="$SECS" 'BEGIN { exit !(a > 0 && b / a >= 2.7 && b / a <= 3.3 && (a + b) >= 0.8 * t * 1e6) }' && break
done
echo "weight 100:300 -> 1:$ratio (share $share)" >"$VM_OUT/weight-figure"
awk -v a=$a -v b=$b 'BEGIN { exit !(a > 0 && b / a >= 2.7 && b / a <= 3.3) }' && ok ||
	fail "CPU time $a:$b us = 1:$ratio is not within 10% of 1:3 (in none of $((try > 3 ? 3 : try)) windows)"
# the pair had the CPU: together at least 80% of the interval
awk -v a=$a -v b=$b -v t="$SECS" 'BEGIN { exit !((a + b) >= 0.8 * t * 1e6) }' && ok ||
	fail "the two loops got only $((a + b)) us of ${SECS} s"
finish
