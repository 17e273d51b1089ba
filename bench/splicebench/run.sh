#!/bin/bash
# run.sh BUILD_DIR [ROUNDS]: splicebench's benchmark, everything in one run
# on this (shared, noisy) machine:
#  1. the harness adds nothing measurable: splicebench against sb_minloop,
#     a minimal two-thread loop with the same parameters, interleaved
#     round by round (the order alternates), for copy+read and
#     vmsplice+null; each side's figure per round is the median of 5 runs
#     after a warm-up;
#  2. repeated --quick runs agree: 10 invocations, spread per point, next
#     to sb_minloop run between them (the machine's own drift);
#  3. Mazzoli's steps ("How fast are Linux pipes anyway?") on this machine.
# Raw data goes to BUILD_DIR/bench-splicebench/.
set -eu
B=$(cd "$1" && pwd)
rounds=${2:-16}
sb=$B/src/splicebench/splicebench
ml=$B/bench/splicebench/sb_minloop
out=$B/bench-splicebench
mkdir -p "$out"
command -v jq >/dev/null || { echo "run.sh: jq is needed"; exit 1; }
pin=(0 1)
[ "$(nproc)" -ge 2 ] || pin=(0 0)
pipe=1048576 size=262144

# SECTIONS="1 3" runs only those sections (default: all three).
want() { case " ${SECTIONS:-1 2 3} " in *" $1 "*) return 0 ;; esac; return 1; }
median() { sort -g | awk '{v[NR]=$1} END {if (NR%2) print v[(NR+1)/2]; else printf "%.4f\n", (v[NR/2]+v[NR/2+1])/2}'; }
minmax() { sort -g | awk 'NR==1{lo=$1} {hi=$1} END {printf "%s-%s", lo, hi}'; }

echo "# splicebench benchmark, $(date -u +%FT%TZ), $(uname -r), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
if want 1; then
echo "## 1. harness overhead (chunk 256K, pipe 1M, not pinned, $rounds rounds in alternating order; per round each side gives the median of 3 runs after a warm-up)"
echo
echo "| case | sb_minloop GB/s median (min-max over rounds) | splicebench GB/s median (min-max) | splicebench / minloop: median of per-round ratios (min-max) |"
echo "|---|---|---|---|"
for case in "copy read 512M" "vmsplice null 2G"; do
	set -- $case
	mode=$1 cons=$2 total=$3
	case $total in *G) bytes=$(( ${total%G} << 30 )) ;; *M) bytes=$(( ${total%M} << 20 )) ;; esac
	: >"$out/$mode-$cons.min" ; : >"$out/$mode-$cons.sb"; : >"$out/$mode-$cons.ratio"
	for r in $(seq 1 "$rounds"); do
		run_min() { "$ml" "$mode" "$cons" $size $pipe $bytes -1 -1 3 | median; }
		run_sb() { "$sb" --mode "$mode" --consumer "$cons" --size 256K --pipe-size 1M \
			--total "$total" --runs 3 --format json |
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
fi
echo
if want 2; then
n_quick=${QUICK_INVOCATIONS:-10}
cpu0=$(awk '/^Cpus_allowed_list:/ {split($2, a, "[-,]"); print a[1]}' /proc/self/status)
echo "## 2. repeated --quick ($n_quick invocations): median GB/s per point, spread = (max-min)/median across invocations"
echo
echo "The peer is this machine itself: between two invocations, sb_minloop runs"
echo "copy+read 64K (default pipe, both sides on CPU $cpu0, as --quick pins) as 300 runs of"
echo "40 MiB, about as long as one --quick; the spread of its medians is how much"
echo "this machine's own speed drifts from one few-second window to the next."
echo
rm -f "$out"/quick-*
: >"$out/quick-minloop"
for i in $(seq 1 "$n_quick"); do
	/usr/bin/time -f "%e" -o "$out/quick-$i.time" "$sb" --quick --format json >"$out/quick-$i.json"
	"$ml" copy read 65536 65536 41943040 "$cpu0" "$cpu0" 300 | median >>"$out/quick-minloop"
done
spread() { sort -g | awk '{v[NR]=$1} END {m=v[int((NR+1)/2)]; printf "%.1f", (v[NR]-v[1])/m*100}'; }
echo "| mode | size | medians of the $n_quick invocations (sorted) | spread |"
echo "|---|---|---|---|"
jq -s -r '[.[].results[]] | group_by(.mode + " " + (.size|tostring))[] |
	[.[0].mode, .[0].size, ([.[].median_gbps] | sort)] |
	"\(.[0]) \(.[1]) \(.[2] | map(. * 100 | round / 100 | tostring) | join(" "))"' "$out"/quick-*.json |
while read -r mode s vals; do
	printf '| %s | %s | %s | %s%% |\n' "$mode" "$((s >> 10))K" "$vals" \
		"$(printf '%s\n' $vals | spread)"
done
printf '| **peer: sb_minloop** | 64K | %s | %s%% |\n' \
	"$(sort -g "$out/quick-minloop" | awk '{printf "%.2f ", $1}')" \
	"$(spread <"$out/quick-minloop")"
echo
echo "Ratios inside each invocation (what a user should compare), spread across the $n_quick invocations:"
echo
echo "| ratio | size | values | spread |"
echo "|---|---|---|---|"
for pair in "vmsplice copy" "gift copy"; do
	set -- $pair
	jq -s -r --arg a "$1" --arg b "$2" '.[] | .results as $r | ($r | map(select(.mode == $a))) as $x |
		$x[] | . as $p | ($r[] | select(.mode == $b and .size == $p.size)) as $q |
		"\($p.size) \($p.median_gbps / $q.median_gbps)"' "$out"/quick-*.json |
	sort -n -k1,1 -k2,2g | awk -v name="$1/$2" '
		{ v[$1] = v[$1] sprintf(" %.2f", $2); n[$1]++; a[$1, n[$1]] = $2 }
		END { for (s in n) { m = a[s, int((n[s] + 1) / 2)];
			printf "| %s | %dK |%s | %.1f%% |\n", name, s / 1024, v[s], (a[s, n[s]] - a[s, 1]) / m * 100 } }' | sort -t'|' -k3,3n
done
echo
echo "--quick wall time per invocation: $(cat "$out"/quick-*.time | tr '\n' ' ')s"
fi
echo
if want 3; then
echo "## 3. Mazzoli's steps on this machine (chunk 256K, pipe 1M, 1G per run, median of 5 after a warm-up, GiB/s as he reports; pinned ${pin[0]},${pin[1]} as he did, and not pinned)"
echo
echo "| step | Mazzoli 2022 (i7-8550U, pinned) GiB/s | here, pinned: median (min-max) | here, not pinned: median (min-max) |"
echo "|---|---|---|---|"
gib() { jq -r '.results[0] | "\(.median_gbps * 1e9 / 1073741824 * 100 | round / 100) (\(.min_gbps * 1e9 / 1073741824 * 100 | round / 100)-\(.max_gbps * 1e9 / 1073741824 * 100 | round / 100))"' "$1"; }
step() {	# step LABEL MAZZOLI ARGS...
	local label=$1 maz=$2; shift 2
	"$sb" --size 256K --pipe-size 1M --total 1G --runs 5 --pin "${pin[0]},${pin[1]}" \
		--format json "$@" >"$out/step.json" 2>"$out/step.err" || true
	"$sb" --size 256K --pipe-size 1M --total 1G --runs 5 \
		--format json "$@" >"$out/step-free.json" 2>>"$out/step.err" || true
	printf '| %s | %s | %s | %s |\n' "$label" "$maz" "$(gib "$out/step.json")" "$(gib "$out/step-free.json")"
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
fi
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
