# Every producer mode with every consumer on small totals; the verify
# consumer checks every chunk of every mode; the file consumer leaves
# exactly one run's bytes in its file.
. "$(dirname "$0")/../cli/lib.sh"
bin=$(tool_path splicebench)
command -v jq >/dev/null || skip_test "jq is not installed (apt-get install jq)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

total=$((4 << 20))
for mode in copy vmsplice gift; do
	for cons in null read verify "file:$tmp/out"; do
		what="--mode $mode --consumer $cons"
		run "$bin" --mode "$mode" --consumer "$cons" --size 4K,64K \
			--total 4M --runs 2 --format json
		expect_rc 0 "$what"
		n=$(printf '%s' "$out" | jq '[.results[] | select(.median_gbps > 0)] | length')
		[ "$n" = 2 ] && ok || fail "$what: $n of 2 points with a rate"
		c=$(printf '%s' "$out" | jq -r '[.results[].consumer] | unique | join(",")')
		[ "$c" = "${cons%%:*}" ] && ok || fail "$what: consumer reported as '$c'"
		b=$(printf '%s' "$out" | jq '[.results[].bytes_per_run] | unique | join(",")')
		[ "$b" = "\"$total\"" ] && ok || fail "$what: bytes per run $b, expected $total"
		case $cons in
		verify)
			# 2 runs x 4M: 2048 chunks of 4K and 128 of 64K, none corrupted
			v=$(printf '%s' "$out" | jq -c '[.results[].verify | [.chunks, .corrupt]]')
			[ "$v" = "[[2048,0],[128,0]]" ] && ok ||
				fail "$what: verify counted $v, expected [[2048,0],[128,0]]"
			;;
		file:*)
			s=$(stat -c %s "$tmp/out")
			[ "$s" = "$total" ] && ok || fail "$what: the file holds $s bytes, expected $total"
			;;
		null)
			t=$(printf '%s' "$out" | jq '[.results[].data_touched] | unique | .[0]')
			[ "$t" = false ] && ok || fail "$what: null results not labelled 'no data touched'"
			;;
		esac
	done
done

# --time instead of --total, pinned, busy, a bigger pipe: still verified.
run "$bin" --mode copy,vmsplice,gift --consumer verify --size 16K --time 0.2 \
	--runs 1 --pin 0,0 --busy --pipe-size 256K --format json
expect_rc 0 "--time --pin --busy --pipe-size with verify"
v=$(printf '%s' "$out" | jq '[.results[] | select(.verify.chunks > 0 and .verify.corrupt == 0 and .busy)] | length')
[ "$v" = 3 ] && ok || fail "--time/--busy verify: $v of 3 modes verified"
p=$(printf '%s' "$out" | jq -c '[.results[].pipe_size] | unique')
[ "$p" = "[262144]" ] && ok || fail "--pipe-size 256K: got $p"
pin=$(printf '%s' "$out" | jq -c '.results[0].pin')
[ "$pin" = "[0,0]" ] && ok || fail "--pin 0,0 reported as $pin"

# --huge: obtained (checked in /proc/self/smaps) or said so.
thp=$(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)
run "$bin" --mode copy,vmsplice --consumer verify --size 64K --total 4M --runs 1 \
	--huge --format json
expect_rc 0 "--huge"
h=$(printf '%s' "$out" | jq -c '[.results[] | [.huge_requested, .huge]] | unique')
case "$h" in
"[[true,true]]") ok ;;
"[[true,false]]")
	if [ -z "$thp" ]; then
		expect_match "$err" "huge pages were not obtained \(copy 64K, vmsplice 64K\): transparent huge pages are missing from this kernel \(no /sys/kernel/mm/transparent_hugepage" \
			"--huge without THP message"
	elif [ "$thp" = never ]; then
		expect_match "$err" "huge pages were not obtained \(copy 64K, vmsplice 64K\): transparent huge pages are disabled \('never'" \
			"--huge with THP 'never' message"
	else
		expect_match "$err" "huge pages were not obtained for copy 64K, vmsplice 64K" \
			"--huge not obtained message"
	fi
	;;
*) fail "--huge: results say $h" ;;
esac

# --huge on a kernel without THP: madvise(MADV_HUGEPAGE) fails with EINVAL
# (a preload library) and /sys/kernel/mm/transparent_hugepage is missing
# (a sysroot without it): small pages, one clear message, every mode runs.
shim="$BUILD_DIR/tests/splicebench/sb_no_thp.so"
[ -f "$shim" ] || { echo "FAIL: $shim not built"; exit 1; }
cp -r "$SRC_DIR/tests/lib/sys/fixtures/sysfacts-epyc-docker" "$tmp/nothp"
rm -r "$tmp/nothp/sys/kernel/mm/transparent_hugepage"
for facts in "--sysroot $tmp/nothp" ""; do
	# shellcheck disable=SC2086
	run env LD_PRELOAD="$shim" ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=0 \
		"$bin" $facts --mode copy,vmsplice,gift --consumer verify --size 64K \
		--total 2M --runs 1 --huge --format json
	what="--huge without THP${facts:+ ($facts)}"
	expect_rc 0 "$what"
	h=$(printf '%s' "$out" | jq -c '[.results[] | [.huge_requested, .huge, .verify.corrupt]] | unique')
	[ "$h" = "[[true,false,0]]" ] && ok || fail "$what: results say $h"
	if [ -n "$facts" ]; then
		why="no /sys/kernel/mm/transparent_hugepage, and madvise\(MADV_HUGEPAGE\) fails with EINVAL"
	else
		why="madvise\(MADV_HUGEPAGE\) fails with EINVAL"
	fi
	expect_match "$err" "^splicebench: huge pages were not obtained \(copy 64K, vmsplice 64K, gift 64K\): transparent huge pages are missing from this kernel \($why\); those points ran on small pages$" \
		"$what: message"
	n=$(printf '%s\n' "$err" | grep -c .)
	[ "$n" = 1 ] && ok || fail "$what: $n lines on stderr: $err"
done
finish
