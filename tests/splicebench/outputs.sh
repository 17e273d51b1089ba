# Outputs: the table, CSV, JSON (parsed back with jq, the shape of the
# issue), the system facts (live and from a captured tree), and the plot
# drawn by gnuplot (SVG checked by xmllint, PNG by its signature).
. "$(dirname "$0")/../cli/lib.sh"
bin=$(tool_path splicebench)
command -v jq >/dev/null || skip_test "jq is not installed (apt-get install jq)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
small=(--size 4K,64K --total 2M --runs 3)

run "$bin" "${small[@]}"
expect_rc 0 "table"
expect_match "$out" "memcpy baseline" "table baseline"
expect_match "$out" "cache-hot +256K" "table cache-hot line"
expect_match "$out" "from RAM +128M" "table from-RAM line"
for m in copy vmsplice gift; do
	expect_match "$out" "^$m +64K +[0-9.]+[KM] +no +no +3 +[0-9]+\.[0-9]+" "table row $m 64K"
done
expect_match "$out" "Linux $(cat /proc/sys/kernel/osrelease)" "table kernel release"

run "$bin" "${small[@]}" --consumer null
expect_match "$out" "no data touched" "null consumer labelled"
expect_match "$out" "fresh pg +256K +[0-9]+\.[0-9]{2} .* CPU s/GB" "table: the fresh-page baseline"
expect_match "$out" "gift: read it against the fresh-page baseline" "table: gift read against it"
expect_match "$out" "producer writes per chunk: copy: nothing.*gift: every chunk, on fresh pages" \
	"table: what each producer writes"

run "$bin" "${small[@]}" --format csv
expect_rc 0 "csv"
head=$(printf '%s\n' "$out" | head -1)
[ "$head" = "mode,consumer,size,pipe_size,huge,busy,runs,median_gbps,min_gbps,max_gbps,spread,cpu_s_per_gb,cpu_s_per_gb_producer,cpu_s_per_gb_consumer,data_touched,huge_requested,bytes_per_run,chunks_verified,corrupt_chunks,error,samples_gbps,wide_spread,version,command,timestamp" ] &&
	ok || fail "csv header: $head"
# Fields counted outside RFC 4180 quotes (the command line has commas).
rows=$(printf '%s\n' "$out" | awk 'NR > 1 { n = 1; q = 0
	for (i = 1; i <= length($0); i++) { c = substr($0, i, 1)
		if (c == "\"") q = !q; else if (c == "," && !q) n++ }
	if (n == 25) print }' | wc -l)
[ "$rows" = 9 ] && ok || fail "csv: $rows rows of 25 fields, expected 9 (3 baseline + 6)"
# the fresh-page baseline (gift's own cost, no pipe) is a row with a rate
fr=$(printf '%s\n' "$out" | awk -F, '$1 == "fresh-pages" && $3 == 262144 && $8 > 0' | wc -l)
[ "$fr" = 1 ] && ok || fail "csv: no fresh-pages baseline row with a rate"

run "$bin" "${small[@]}" -J
expect_rc 0 "-J"
keys=$(printf '%s' "$out" | jq -c 'keys')
[ "$keys" = '["baseline","command","interrupted","results","spread_warn","system","timestamp","tool","version"]' ] && ok || fail "-J is not --format json: $keys"
run "$bin" "${small[@]}" --format json
expect_rc 0 "json"
keys=$(printf '%s' "$out" | jq -c 'keys')
[ "$keys" = '["baseline","command","interrupted","results","spread_warn","system","timestamp","tool","version"]' ] && ok || fail "json top level: $keys"
need='["busy","consumer","cpu_s_per_gb","huge","max_gbps","median_gbps","min_gbps","mode","pipe_size","runs","size"]'
miss=$(printf '%s' "$out" | jq -c --argjson need "$need" \
	'[.results[] | $need - keys] | add | unique')
[ "$miss" = "[]" ] && ok || fail "json results lack $miss"
n=$(printf '%s' "$out" | jq '[.results[] | select(.runs == 3 and .min_gbps <= .median_gbps and .median_gbps <= .max_gbps and .cpu_s_per_gb > 0 and (.cpu_s_per_gb - .cpu_s_per_gb_producer - .cpu_s_per_gb_consumer | fabs) < 0.001)] | length')
[ "$n" = 6 ] && ok || fail "json: $n of 6 results consistent (min <= median <= max, cpu both sides): $(printf '%s' "$out" | jq -c '[.results[] | {mode, size, runs, min_gbps, median_gbps, max_gbps, cpu_s_per_gb, cpu_s_per_gb_producer, cpu_s_per_gb_consumer, error}]')"
t=$(printf '%s' "$out" | jq -r '[.results[] | (.size|type), (.huge|type), (.median_gbps|type)] | unique | join(",")')
[ "$t" = "boolean,number" ] && ok || fail "json types: $t"
sys=$(printf '%s' "$out" | jq -r '.system | [.kernel_release, .page_size, .pipe_max_size, .thp_mode, .pipe_size_used] | map(tostring) | join(" ")')
exp="$(cat /proc/sys/kernel/osrelease) $(getconf PAGESIZE) $(cat /proc/sys/fs/pipe-max-size)"
case "$sys" in "$exp "*) ok ;; *) fail "json system facts '$sys', expected '$exp ...'" ;; esac
for k in cpu_model virtualization; do
	v=$(printf '%s' "$out" | jq -r ".system.$k")
	[ -n "$v" ] && [ "$v" != null ] && ok || fail "json system.$k missing"
done
b=$(printf '%s' "$out" | jq '[.baseline.memcpy_cache_hot.median_gbps, .baseline.memcpy_from_ram.median_gbps] | map(select(. > 0)) | length')
[ "$b" = 2 ] && ok || fail "json baseline: $b of 2 rates"
b=$(printf '%s' "$out" | jq '.baseline.fresh_pages | select(.median_gbps > 0 and .cpu_s_per_gb > 0 and .size == 262144) | .runs')
[ "${b:-0}" -ge 1 ] && ok || fail "json: no fresh-page baseline with a rate and CPU s/GB"
w=$(printf '%s' "$out" | jq -r '[.results[] | .mode + "=" + .producer_writes] | unique | join(";")')
case "$w" in *"gift=every chunk, on fresh pages"*"vmsplice=nothing: a buffer filled once"*) ok ;;
*) fail "json: what each producer writes per chunk: '$w'" ;; esac

# System facts from a captured tree.
run "$bin" --sysroot "$SRC_DIR/tests/lib/sys/fixtures/sysfacts-epyc-docker" \
	--mode copy --size 64K --total 1M --runs 1 --format json
expect_rc 0 "--sysroot facts"
f=$(printf '%s' "$out" | jq -c '.system | [.kernel_release, .cpu_model, .thp_mode, .container]')
[ "$f" = '["6.18.44-fc-v1098","AMD EPYC","madvise","docker"]' ] && ok ||
	fail "--sysroot facts: $f"

# Facts of a captured tree are anyone's bytes (issue 24): in text, the real
# bytes escaped (\xNN for invalid UTF-8, control bytes and the backslash),
# decoding back to them; JSON repairs (U+FFFD).
cp -r "$SRC_DIR/tests/lib/sys/fixtures/sysfacts-epyc-docker" "$tmp/odd"
sed -i 's/^model name.*/model name\t: AMD\xff EPYC \\x41 \x1b[31m/' "$tmp/odd/proc/cpuinfo"
printf '6.1\376-\\\n' >"$tmp/odd/proc/sys/kernel/osrelease"
run "$bin" --sysroot "$tmp/odd" --mode copy --size 64K --total 1M --runs 1
expect_rc 0 "--sysroot odd facts"
expect_match "$out" '^system:   Linux 6\.1\\xfe-\\x5c, AMD\\xff EPYC \\x5cx41 \\x1b\[31m, ' \
	"odd facts: the real bytes escaped"
printf '%s\n' "$out" | LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]' &&
	fail "odd facts: a control byte reached the terminal" || ok
run "$bin" --sysroot "$tmp/odd" --mode copy --size 64K --total 1M --runs 1 --format json
f=$(printf '%s' "$out" | jq -c '.system | [.kernel_release, .cpu_model]')
[ "$f" = '["6.1'$'\xef\xbf\xbd''-\\","AMD'$'\xef\xbf\xbd'' EPYC \\x41 \u001b[31m"]' ] && ok ||
	fail "odd facts json: $f"

# --quick: all three modes, meaningful numbers, in a few seconds of this
# machine.  "A few seconds" is measured, not assumed: a calibration loop
# moves 1 GiB through a pipe (the kind of work --quick does, by other
# programs) on the CPU --quick pins both its sides to, best of 3, once
# before and once after --quick; the slower of the two is the baseline
# (the machine's load may change during the run); --quick may take 30
# times that (at least 15 s).  Natively the loop takes about 0.5 s and
# --quick 5-10 s; under QEMU's TCG both are 10-20 times slower.
ms() { local t; t=$(date +%s%N); echo $((t / 1000000)); }
first=$(awk '/^Cpus_allowed_list:/ {split($2, a, "[-,]"); print a[1]}' /proc/self/status)
calibrate() {	# the best of 3 pinned loops, in ms
	local i t t0 best=
	for i in 1 2 3; do
		t0=$(ms)
		taskset -c "$first" sh -c 'dd if=/dev/zero bs=256K count=4096 2>/dev/null | dd of=/dev/null bs=256K 2>/dev/null'
		t=$(( $(ms) - t0 ))
		[ -z "$best" ] || [ "$t" -lt "$best" ] && best=$t
	done
	echo "$best"
}
calib_before=$(calibrate)
start=$(ms)
run "$bin" --quick --format json
expect_rc 0 "--quick"
took=$(( $(ms) - start ))
calib_after=$(calibrate)
calib=$calib_before; [ "$calib_after" -gt "$calib" ] && calib=$calib_after
limit=$(( calib * 30 )); [ "$limit" -lt 15000 ] && limit=15000
[ "${SANITIZE:-OFF}" = ON ] && limit=$(( limit * 4 ))
echo "--quick took $took ms; limit $limit ms (calibration loop on CPU $first: $calib_before ms before, $calib_after ms after)"
m=$(printf '%s' "$out" | jq -r '[.results[] | select(.median_gbps > 0.01 and .runs >= 3) | .mode] | unique | join(",")')
[ "$m" = "copy,gift,vmsplice" ] && ok || fail "--quick measured modes: '$m'"
[ "$took" -le "$limit" ] && ok ||
	fail "--quick took $took ms, over $limit ms (30 times the $calib ms calibration loop)"
# ... as many 10 ms runs as it takes (41 per point), both sides pinned to
# the first CPU this process may use, unless the options say otherwise.
q=$(printf '%s' "$out" | jq -c '[.results[] | [.runs, .pin]] | unique')
[ "$q" = "[[41,[$first,$first]]]" ] && ok || fail "--quick runs and pin: $q, expected 41 on CPU $first"
expect_match "$err" "--quick: producer and consumer both pinned to CPU $first " "--quick says where it pinned, on stderr"
run "$bin" --quick --mode copy --size 64K --runs 2 --total 1M --pin "$first,$first" --format json
q=$(printf '%s' "$out" | jq -c '[.results[] | [.runs, .bytes_per_run]]')
[ "$q" = "[[2,1048576]]" ] && ok || fail "--quick with --runs 2 --total 1M: $q"
if [ "$(nproc)" -ge 2 ]; then
	run "$bin" --quick --mode copy --size 64K --runs 1 --pin 0,1 --format json
	q=$(printf '%s' "$out" | jq -c '[.results[].pin]')
	[ "$q" = "[[0,1]]" ] && ok || fail "--quick --pin 0,1 gave pin $q"
	# the first CPU of the set, and a CPU each for a busy loop
	run taskset -c 1 "$bin" --quick --mode copy --size 64K --runs 1 --format json
	q=$(printf '%s' "$out" | jq -c '[.results[].pin]')
	[ "$q" = "[[1,1]]" ] && ok || fail "--quick under taskset -c 1 gave pin $q"
	run taskset -c 0,1 "$bin" --quick --busy --mode copy --size 64K --runs 1 --format json
	q=$(printf '%s' "$out" | jq -c '[.results[].pin]')
	[ "$q" = "[[0,1]]" ] && ok || fail "--quick --busy gave pin $q, expected a CPU each"
fi

# Plots.
if command -v gnuplot >/dev/null; then
	run "$bin" "${small[@]}" --plot "$tmp/p.svg"
	expect_rc 0 "--plot svg"
	expect_match "$err" "plot written to $tmp/p.svg" "--plot says it wrote the plot"
	expect_match "$out" "memcpy baseline" "--plot still prints the table"
	if command -v xmllint >/dev/null; then
		xmllint --noout "$tmp/p.svg" 2>"$tmp/lint" && ok ||
			fail "--plot svg is not well-formed XML: $(head -3 "$tmp/lint")"
	fi
	grep -q '<svg' "$tmp/p.svg" && ok || fail "--plot svg has no <svg> element"
	for m in copy vmsplice gift; do
		grep -q ">$m<" "$tmp/p.svg" && ok || fail "--plot svg has no line for $m"
	done
	run "$bin" --mode vmsplice --size 64K --total 2M --runs 2 --plot "$tmp/p.png" --format csv
	expect_rc 0 "--plot png"
	sig=$(head -c 8 "$tmp/p.png" | od -An -tx1 | tr -d ' \n')
	[ "$sig" = 89504e470d0a1a0a ] && ok || fail "--plot png signature $sig"
else
	echo "note: gnuplot is not installed; only the missing-gnuplot path is checked"
fi
# Without gnuplot: said, exit 1, other output still produced, no file left.
run env PATH=/nonexistent "$bin" --mode copy --size 64K --total 1M --runs 1 \
	--plot "$tmp/none.svg" --format json
expect_rc 1 "--plot without gnuplot"
expect_match "$err" "gnuplot is not installed" "--plot without gnuplot message"
printf '%s' "$out" | jq -e '.results | length == 1' >/dev/null && ok ||
	fail "--plot without gnuplot: no JSON on stdout"
[ ! -e "$tmp/none.svg" ] && ok || fail "--plot without gnuplot left a file"
finish
