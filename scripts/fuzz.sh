#!/bin/bash
# fuzz.sh DIR [SECONDS]: build every libFuzzer target with clang in DIR and
# run each for a bounded time (default $FUZZ_SECONDS or 20 s).  Corpora seed
# from tests/fuzz/corpus/<target>/ when present.
set -u
dir=$1
secs=${2:-${FUZZ_SECONDS:-20}}
top=$(cd "$(dirname "$0")/.." && pwd)
command -v clang >/dev/null || { echo "fuzz: clang missing (scripts/deps.sh installs it)"; exit 1; }
CC=clang "$top/scripts/build.sh" "$dir" -DBUILD_FUZZERS=ON -DBUILD_TESTING=ON || exit 1
# one target: its result line, and the log's tail when it failed
run_one() {
	local bin=$1 name work rc seeds=()
	name=$(basename "$bin")
	work=$(mktemp -d)
	[ -d "$top/tests/fuzz/corpus/$name" ] && seeds=("$top/tests/fuzz/corpus/$name")
	if LSAN_OPTIONS=suppressions=$top/tests/fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS} \
		"$bin" -max_total_time="$secs" -rss_limit_mb=2048 -max_len=65536 \
		-artifact_prefix="$dir/$name-" "$work" "${seeds[@]}" >"$dir/$name.log" 2>&1; then
		echo "fuzz: $name: $(grep -oE 'Done [0-9]+ runs' "$dir/$name.log" | tail -1) in ${secs}s, no crash"
		rc=0
	else
		echo "fuzz: $name FAILED"; tail -30 "$dir/$name.log"; rc=1
	fi
	rm -rf "$work"
	return $rc
}
# as many targets at once as there are CPUs (each is single-threaded); the
# output of one target is printed whole, when it ends
jobs_max=$(nproc)
status=0 running=0
for bin in "$dir"/tests/fuzz/fuzz_*; do
	[ -x "$bin" ] || continue
	if [ $running -ge "$jobs_max" ]; then
		wait -n || status=1
		running=$((running - 1))
	fi
	out=$dir/$(basename "$bin").result
	{ run_one "$bin" >"$out" 2>&1; rc=$?; cat "$out"; exit $rc; } &
	running=$((running + 1))
done
while [ $running -gt 0 ]; do
	wait -n || status=1
	running=$((running - 1))
done
exit $status
