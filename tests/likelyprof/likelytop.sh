# likelytop on real likely_prof.h profiles: a snapshot file written by a
# profiled program (-f), a live profiled process followed with -p PID (its
# counts grow between iterations), and --exec -- running one.
. "$SRC_DIR/tests/cli/lib.sh"
LT=$(tool_path likelytop)
P=$BUILD_DIR/tests/likelyprof/lp_prog
SRC=$SRC_DIR/tests/likelyprof/lp_prog.c
command -v jq >/dev/null || skip_test "jq is not installed (scripts/deps.sh installs it)"
"$LT" --help | grep -q -- '--exec' || skip_test "this likelytop has no -p/--exec"
work=$(mktemp -d)
bg=
cleanup() {
	[ -z "$bg" ] || kill "$bg" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
mkdir "$work/prof" "$work/t"
export LIKELY_PROF_DIR=$work/prof TMPDIR=$work/t
unset XDG_RUNTIME_DIR LIKELY_PROF_INTERVAL_MS
line_of() { grep -n "SITE:$1 \*/" "$SRC" | cut -d: -f1; }

# 1. -f: a snapshot a profiled program wrote
"$P" known
f=$(ls "$work/prof" | head -1)
run "$LT" -b -f "$work/prof/$f" --format json
expect_rc 0 "likelytop -f snapshot"
row() {	# row JSON LINE: the site at that line of lp_prog.c
	printf '%s' "$1" | jq -c --argjson l "$2" '[.[] | select(.line == $l)][0] | {hint, correct, incorrect, function}'
}
[ "$(row "$out" "$(line_of known_unlikely)")" = '{"hint":"unlikely","correct":900,"incorrect":100,"function":"known"}' ] && ok ||
	fail "-f: unlikely(i % 10 == 0): $(row "$out" "$(line_of known_unlikely)") in $out"
[ "$(row "$out" "$(line_of known_wrong_likely)")" = '{"hint":"likely","correct":250,"incorrect":750,"function":"known"}' ] && ok ||
	fail "-f: the wrong likely(): $(row "$out" "$(line_of known_wrong_likely)")"
run "$LT" -b -f "$work/prof/$f" --wrong-only --format json
[ "$(printf '%s' "$out" | jq -c '[.[] | .line]')" = "[$(line_of known_wrong_likely)]" ] && ok ||
	fail "--wrong-only on a real snapshot: $out"
rm -f "$work/prof"/*

# 2. -p PID: a live profiled process, snapshots every 100 ms, counts growing
LIKELY_PROF_INTERVAL_MS=100 "$P" run 4000 &
bg=$!
for _ in $(seq 1 50); do [ -f "$work/prof/$bg" ] && break; sleep 0.1; done
run "$LT" -b -p "$bg" -n 2 -d 0.5 --format json
expect_rc 0 "likelytop -p PID"
counts=$(printf '%s\n' "$out" | jq -s -c '[.[] | [.[] | select(.function == "run_for")][0].correct]')
a=$(printf '%s' "$counts" | jq '.[0]') b=$(printf '%s' "$counts" | jq '.[1]')
[ "${a:-0}" -gt 0 ] && [ "${b:-0}" -gt "${a:-0}" ] && ok || fail "-p PID: run_for's count does not grow between iterations: $counts ($out)"
kill "$bg" 2>/dev/null; wait "$bg" 2>/dev/null; bg=

# 3. --exec: likelytop runs the program profiled and shows its final snapshot
run "$LT" -b --format json --exec -- "$P" known
expect_rc 0 "likelytop --exec"
[ "$(row "$out" "$(line_of known_unlikely)")" = '{"hint":"unlikely","correct":900,"incorrect":100,"function":"known"}' ] && ok ||
	fail "--exec: final snapshot: $out"
[ -z "$(ls -A "$work/t")" ] && ok || fail "--exec left $(ls -A "$work/t")"
run "$LT" -b --format json -n 2 -d 0.3 --exec -- env LIKELY_PROF_INTERVAL_MS=100 "$P" run 1500
expect_rc 0 "likelytop --exec -n 2 of a running program"
[ "$(printf '%s\n' "$out" | jq -s -c '.[-1] | [.[] | select(.function == "run_for")][0].correct')" = 1500 ] && ok ||
	fail "--exec -n 2: final count 1500: $out"
finish
