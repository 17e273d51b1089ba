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
status=0
for bin in "$dir"/tests/fuzz/fuzz_*; do
	[ -x "$bin" ] || continue
	name=$(basename "$bin")
	work=$(mktemp -d)
	seeds=()
	[ -d "$top/tests/fuzz/corpus/$name" ] && seeds=("$top/tests/fuzz/corpus/$name")
	if "$bin" -max_total_time="$secs" -rss_limit_mb=2048 -max_len=65536 \
		-artifact_prefix="$dir/$name-" "$work" "${seeds[@]}" >"$dir/$name.log" 2>&1; then
		echo "fuzz: $name: $(grep -oE 'Done [0-9]+ runs' "$dir/$name.log" | tail -1) in ${secs}s, no crash"
	else
		echo "fuzz: $name FAILED"; tail -30 "$dir/$name.log"; status=1
	fi
	rm -rf "$work"
done
exit $status
