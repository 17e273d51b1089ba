# Usage errors (exit 2), a CPU that cannot be used, a pipe size above
# pipe-max-size without the capability, vmsplice unsupported, and the
# unsafe reuse of vmspliced buffers caught by verify (exit 3).
. "$(dirname "$0")/../cli/lib.sh"
bin=$(tool_path splicebench)
command -v jq >/dev/null || skip_test "jq is not installed (apt-get install jq)"
small=(--size 4K --total 1M --runs 1)

for args in "--mode splice" "--mode copy," "--consumer tee" "--consumer file:" \
	"--size 0" "--size 8" "--size 100" "--size 4K,,8K" "--size 2G" "--size 1T" \
	"--pipe-size 1K" "--pipe-size x" "--total 0" "--total 1Q" "--time 0" \
	"--time -1" "--runs 0" "--runs 1001" "--runs 2x" "--format xml" \
	"--pin 0" "--pin a,b" "--plot out.pdf" "--total 1M --time 1" "extra"; do
	# shellcheck disable=SC2086
	run "$bin" $args
	expect_rc 2 "splicebench $args"
	expect_match "$err" "Try 'splicebench --help'" "splicebench $args hint"
	[ -z "$out" ] && ok || fail "splicebench $args wrote to stdout"
done

# SPLICE_F_GIFT gives whole pages: a gift size that is not one is a usage
# error naming the size and the page; the same size without gift runs.
page=$(getconf PAGESIZE)
for size in 16 4104 $((page / 2)); do
	for modes in gift copy,gift ""; do
		run "$bin" ${modes:+--mode $modes} --size "$size" --total 1M --runs 1
		expect_rc 2 "--mode ${modes:-(all)} --size $size"
		expect_match "$err" "invalid chunk size $size for gift: .* multiple of the $page-byte page" \
			"--mode ${modes:-(all)} --size $size message"
		[ -z "$out" ] && ok || fail "--size $size for gift wrote to stdout"
	done
done
run "$bin" --mode copy,vmsplice --size 4104 --total 1M --runs 1 -q
expect_rc 0 "--size 4104 without gift"

# A run too short to move a byte has no rate: refused, never 0.00 GB/s.
for t in 0.0000001 0.0009; do
	run "$bin" --mode copy --size 64K --time $t --runs 1 -q --format json
	expect_rc 2 "--time $t"
	expect_match "$err" "invalid --time '$t': too short to measure.* at least 0.001 seconds" "--time $t message"
	[ -z "$out" ] && ok || fail "--time $t wrote a report"
done
# The shortest accepted --time, on a busy machine, still moves data.
run "$bin" --mode copy,vmsplice,gift --size 1M --time 0.001 --runs 3 -q --format json
expect_rc 0 "--time 0.001"
n=$(printf '%s' "$out" | jq '[.results[] | select(.bytes_per_run > 0 and .median_gbps > 0)] | length')
[ "$n" = 3 ] && ok || fail "--time 0.001: $n of 3 points moved data"

ncpu=$(nproc --all)
run "$bin" "${small[@]}" --pin 0,$((ncpu + 3))
expect_rc 1 "--pin to a CPU we may not use"
expect_match "$err" "cannot pin the consumer to CPU $((ncpu + 3))" "--pin message"

# A pipe size above pipe-max-size without CAP_SYS_RESOURCE: said once,
# and the points run with the size the kernel gives.
max=$(cat /proc/sys/fs/pipe-max-size)
want=$((max * 4))
if command -v setpriv >/dev/null; then
	run setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		"$bin" "${small[@]}" --mode copy --pipe-size "$want" --format json
	if [ "$rc" = 0 ] || [ "$rc" = 1 ]; then
		expect_rc 0 "--pipe-size above pipe-max-size, unprivileged"
		expect_match "$err" "above /proc/sys/fs/pipe-max-size .* lacks CAP_SYS_RESOURCE" \
			"--pipe-size refusal names the limit"
		n=$(printf '%s' "$err" | grep -c "cannot set the pipe size")
		[ "$n" = 1 ] && ok || fail "--pipe-size refusal told $n times"
		p=$(printf '%s' "$out" | jq '.results[0].pipe_size')
		[ "$p" -lt "$want" ] && ok || fail "--pipe-size $want reported $p without the capability"
	else
		echo "note: cannot run as nobody here ($err); pipe-size refusal not checked"
	fi
fi

# vmsplice unsupported (a preload library makes it fail with ENOSYS):
# one message per mode, copy still measured, exit 1.
shim="$BUILD_DIR/tests/splicebench/sb_no_vmsplice.so"
[ -f "$shim" ] || { echo "FAIL: $shim not built"; exit 1; }
run env LD_PRELOAD="$shim" ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=0 \
	"$bin" "${small[@]}" --format json
expect_rc 1 "vmsplice unsupported"
n=$(printf '%s' "$err" | grep -c "vmsplice.* is not usable on this system: function not implemented")
[ "$n" = 2 ] && ok || fail "vmsplice unsupported: $n messages (expected one per mode): $err"
c=$(printf '%s' "$out" | jq '[.results[] | select(.mode == "copy" and .median_gbps > 0)] | length')
[ "$c" = 1 ] && ok || fail "vmsplice unsupported: copy was not measured"
e=$(printf '%s' "$out" | jq -r '[.results[] | select(.mode != "copy") | .error] | unique | join("|")')
[ "$e" = "vmsplice: function not implemented" ] && ok || fail "vmsplice unsupported: errors '$e'"

# The safety lesson: rewriting buffers that were vmspliced changes what
# the consumer reads; verify sees it.  write(2) copies, so copy is safe.
for mode in vmsplice gift; do
	run "$bin" --mode $mode --consumer verify --size 4K --total 2M --runs 1 \
		--pipe-size 64K --unsafe-reuse --format json
	expect_rc 3 "--unsafe-reuse --mode $mode"
	expect_match "$err" "verify: $mode 4K: [0-9]+ of 512 chunks corrupted" \
		"--unsafe-reuse $mode message"
	bad=$(printf '%s' "$out" | jq '.results[0].verify.corrupt')
	[ "${bad:-0}" -gt 0 ] && ok || fail "--unsafe-reuse $mode: JSON says $bad corrupted"
done
run "$bin" --mode copy --consumer verify --size 4K --total 2M --runs 1 --unsafe-reuse
expect_rc 0 "--unsafe-reuse --mode copy (write copies)"
# and the same modes without --unsafe-reuse are clean with the same pipe
run "$bin" --mode vmsplice,gift --consumer verify --size 4K --total 2M --runs 1 --pipe-size 64K
expect_rc 0 "vmsplice/gift verify without --unsafe-reuse"
finish
