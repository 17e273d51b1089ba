#!/bin/bash
# bench/likelytop/callers_cost.sh BUILD_DIR [ROUNDS] [SECONDS]: what
# likelytop --callers kfree costs the traced workload, side by side in
# one run, rounds interleaved: kfree_storm (open, read, close of
# /proc/self/stat, a few kfree() each) alone; while likelytop --callers
# kfree -b -n 0 counts (its default mechanism: the in-kernel histogram
# where the kernel has hist triggers, as the 6.1 guest does, else every
# kmem:kfree record streamed); and while a tracefs instance records only
# the wrong ones (the kernel's filter ptr <= 16, nobody reading: what a
# kernel without hist triggers offers besides streaming, which cannot
# give the calls).  Medians of rounds per second, and the ratios.
# Root; runs in a mount namespace of its own (tracefs mounted there if
# the host has none).  Only the ratios mean anything: the machine is
# shared.  Not run by ctest.
set -eu
B=$(cd "${1:?usage: callers_cost.sh BUILD_DIR [ROUNDS] [SECONDS]}" && pwd)
rounds=${2:-5} secs=${3:-2}
T=/sys/kernel/tracing
if [ -z "${LT_BENCH_NS:-}" ]; then
	LT_BENCH_NS=1 exec unshare -m --propagation private bash "$0" "$@"
fi
[ "$(stat -f -c %T $T)" = tracefs ] || mount -t tracefs nodev $T
lt="$B/src/likelytop/likelytop" storm="$B/bench/likelytop/kfree_storm"
inst="$T/instances/ltbench-$$"
trap 'kill -INT ${ltpid:-} 2>/dev/null; wait; [ -d "$inst" ] && rmdir "$inst"' EXIT
median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
base=() traced=() filtered=() cpu=() lost=0
for r in $(seq "$rounds"); do
	base+=("$("$storm" "$secs")")
	/usr/bin/time -f "%U %S" -o "/tmp/ltbench-$$.cpu" "$lt" --callers kfree -b -n 0 -d 1 -J >"/tmp/ltbench-$$.json" &
	ltpid=$!
	sleep 0.1
	ltpid=$(pgrep -P $ltpid -x likelytop || echo $ltpid)
	# enabled (streaming), or its hist trigger set (the event soft-enabled)
	ev=$T/instances/likelytop-$ltpid/events/kmem/kfree
	until [ "$(cat $ev/enable 2>/dev/null)" = 1 ] || grep -q '^hist:' $ev/trigger 2>/dev/null; do sleep 0.05; done
	t0=$(date +%s.%N)
	traced+=("$("$storm" "$secs")")
	t1=$(date +%s.%N)
	kill -INT $ltpid && wait
	cpu+=("$(awk -v a="$t0" -v b="$t1" '{printf "%.4f", ($1 + $2) / (b - a)}' "/tmp/ltbench-$$.cpu")")
	lost=$((lost + $(jq -s '[.[].lost] | add // 0' "/tmp/ltbench-$$.json")))
	calls=$(jq -s '[.[].calls] | add // 0' "/tmp/ltbench-$$.json")
	mech=$(jq -rs '.[0].site.mechanism // "?"' "/tmp/ltbench-$$.json")
	span=$(jq -s '[.[] | .end - .start] | add // 1' "/tmp/ltbench-$$.json")
	mkdir "$inst"
	echo "ptr <= 16" >"$inst/events/kmem/kfree/filter"
	echo 1 >"$inst/events/kmem/kfree/enable"
	filtered+=("$("$storm" "$secs")")
	rmdir "$inst"
done
rm -f "/tmp/ltbench-$$.json" "/tmp/ltbench-$$.cpu"
b=$(printf '%s\n' "${base[@]}" | median)
t=$(printf '%s\n' "${traced[@]}" | median)
f=$(printf '%s\n' "${filtered[@]}" | median)
echo "kfree_storm, $rounds rounds of ${secs} s each, medians (rounds/s):"
echo "  untraced:                             $b"
echo "  likelytop --callers kfree ($mech): $t  ($(awk -v a="$t" -v b="$b" 'BEGIN {printf "%.3f", a / b}') of untraced)"
echo "  instance, filter ptr <= 16, no reader: $f  ($(awk -v a="$f" -v b="$b" 'BEGIN {printf "%.3f", a / b}') of untraced)"
echo "  kmem:kfree records in likelytop's last run: $calls ($(awk -v c="$calls" -v s="$span" 'BEGIN {printf "%.0f", c / s}')/s); lost in all rounds: $lost"
echo "  likelytop's own CPU (user+sys) per second of storm, median: $(printf '%s\n' "${cpu[@]}" | median)"
