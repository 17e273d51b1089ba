#!/bin/bash
# run.sh BUILD_DIR [ROUNDS]: splicebench's benchmark, everything in one run
# on this (shared, noisy) machine:
#  1. the harness adds nothing measurable: splicebench against sb_minloop,
#     a minimal two-thread loop with the same parameters, interleaved
#     round by round (the order alternates), for copy+read and
#     vmsplice+null; each side's figure per round is the median of 5 runs
#     after a warm-up;
#  2. repeated --quick runs agree: 5 invocations, spread per point;
#  3. Mazzoli's steps ("How fast are Linux pipes anyway?") on this machine.
# Raw data goes to BUILD_DIR/bench-splicebench/.
set -eu
B=$(cd "$1" && pwd)
rounds=${2:-8}
sb=$B/src/splicebench/splicebench
ml=$B/bench/splicebench/sb_minloop
out=$B/bench-splicebench
mkdir -p "$out"
command -v jq >/dev/null || { echo "run.sh: jq is needed"; exit 1; }
pin=(0 1)
[ "$(nproc)" -ge 2 ] || pin=(0 0)
pipe=1048576 size=262144

median() { sort -g | awk '{v[NR]=$1} END {if (NR%2) print v[(NR+1)/2]; else printf "%.4f\n", (v[NR/2]+v[NR/2+1])/2}'; }
minmax() { sort -g | awk 'NR==1{lo=$1} {hi=$1} END {printf "%s-%s", lo, hi}'; }

echo "# splicebench benchmark, $(date -u +%FT%TZ), $(uname -r), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "## 1. harness overhead (chunk 256K, pipe 1M, pinned ${pin[0]},${pin[1]}, $rounds rounds, medians of 5 runs each)"
echo
echo "| case | sb_minloop GB/s median (min-max over rounds) | splicebench GB/s median (min-max) | splicebench / minloop (median of per-round ratios, min-max) |"
echo "|---|---|---|---|"
for case in "copy read 1G" "vmsplice null 4G"; do
	set -- $case
	mode=$1 cons=$2 total=$3
	bytes=$(( ${total%G} << 30 ))
	: >"$out/$mode-$cons.min" ; : >"$out/$mode-$cons.sb"; : >"$out/$mode-$cons.ratio"
	for r in $(seq 1 "$rounds"); do
		run_min() { "$ml" "$mode" "$cons" $size $pipe $bytes "${pin[0]}" "${pin[1]}" 5 | median; }
		run_sb() { "$sb" --mode "$mode" --consumer "$cons" --size 256K --pipe-size 1M \
			--total "$total" --pin "${pin[0]},${pin[1]}" --runs 5 --format json |
			jq '.results[0].median_gbps'; }
		if [ $((r % 2)) = 1 ]; then a=$(run_min); b=$(run_sb); else b=$(run_sb); a=$(run_min); fi
		echo "$a" >>"$out/$mode-$cons.min"
		echo "$b" >>"$out/$mode-$cons.sb"
		awk -v a="$a" -v b="$b" 'BEGIN {printf "%.4f\n", b / a}' >>"$out/$mode-$cons.ratio"
	done
	printf '| %s+%s | %s (%s) | %s (%s) | %s (%s) |\n' "$mode" "$cons" \
		"$(median <"$out/$mode-$cons.min")" "$(minmax <"$out/$mode-$cons.min")" \
		"$(median <"$out/$mode-$cons.sb")" "$(minmax <"$out/$mode-$cons.sb")" \
		"$(median <"$out/$mode-$cons.ratio")" "$(minmax <"$out/$mode-$cons.ratio")"
done

echo
echo "## 2. repeated --quick (5 invocations): median GB/s per point, spread = (max-min)/median across invocations"
echo
for i in 1 2 3 4 5; do
	/usr/bin/time -f "%e" -o "$out/quick-$i.time" "$sb" --quick --format json >"$out/quick-$i.json"
done
echo "| mode | size | medians of the 5 invocations | spread |"
echo "|---|---|---|---|"
jq -s -r '[.[].results[]] | group_by(.mode + " " + (.size|tostring))[] |
	[.[0].mode, .[0].size, ([.[].median_gbps] | sort)] |
	"\(.[0]) \(.[1]) \(.[2] | map(tostring) | join(" "))"' "$out"/quick-*.json |
while read -r mode s v1 v2 v3 v4 v5; do
	printf '| %s | %s | %s %s %s %s %s | %s%% |\n' "$mode" "$((s >> 10))K" "$v1" "$v2" "$v3" "$v4" "$v5" \
		"$(awk -v a="$v1" -v m="$v3" -v b="$v5" 'BEGIN {printf "%.1f", (b - a) / m * 100}')"
done
echo
echo "--quick wall time per invocation: $(cat "$out"/quick-*.time | tr '\n' ' ')s"

echo
echo "## 3. Mazzoli's steps on this machine (chunk 256K, pipe 1M, pinned, 2G per run, median of 5, GiB/s as he reports)"
echo
echo "| step | Mazzoli 2022 (i7-8550U) GiB/s | this machine GiB/s median (min-max) | spread |"
echo "|---|---|---|---|"
step() {	# step LABEL MAZZOLI ARGS...
	local label=$1 maz=$2; shift 2
	"$sb" --size 256K --pipe-size 1M --total 2G --runs 5 --pin "${pin[0]},${pin[1]}" \
		--format json "$@" >"$out/step.json" 2>"$out/step.err" || true
	jq -r --arg l "$label" --arg m "$maz" '.results[0] | "| \($l) | \($m) | \(.median_gbps * 1e9 / 1073741824 * 100 | round / 100) (\(.min_gbps * 1e9 / 1073741824 * 100 | round / 100)-\(.max_gbps * 1e9 / 1073741824 * 100 | round / 100)) | \(.spread * 1000 | round / 10)% |"' "$out/step.json"
}
step "write + read" 3.7 --mode copy --consumer read
step "vmsplice + read" 12.7 --mode vmsplice --consumer read
step "vmsplice + splice to /dev/null" 32.8 --mode vmsplice --consumer null
step "gift (fresh pages per chunk) + splice to /dev/null" "25.0 (pages not pre-faulted)" --mode gift --consumer null
step "+ 2 MiB huge pages" 51.0 --mode vmsplice --consumer null --huge
step "+ busy loop (SPLICE_F_NONBLOCK)" 62.5 --mode vmsplice --consumer null --huge --busy
echo
echo "memcpy in the last step's run: $(jq -r '.baseline | "cache-hot \(.memcpy_cache_hot.median_gbps) GB/s, from RAM \(.memcpy_from_ram.median_gbps) GB/s"' "$out/step.json")"
echo "huge pages obtained in the huge steps: $(jq -r '.results[0].huge' "$out/step.json")"
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
