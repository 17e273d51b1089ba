#!/bin/bash
# run.sh [BUILD_DIR] [ITERATIONS [ROUNDS]]: build lpbench (Release flags
# come from the loop's own -O2) and print the cost per profiled branch of
# every variant, measured side by side in one run.  The profile and the
# gcov data go to a temporary directory, removed afterwards.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
b=${1:-$top/out/build}
[ -d "$b" ] || "$top/scripts/build.sh" "$b"
cmake --build "$b" --target lpbench -j2 >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "# $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-), $(nproc) CPUs, gcc $(gcc -dumpfullversion)"
LIKELY_PROF_DIR=$tmp GCOV_PREFIX=$tmp GCOV_PREFIX_STRIP=0 "$b/bench/likelyprof/lpbench" "${@:2}"
# The profiled loop's own snapshot: its counts are exact (a check on the run).
grep -h "lp_prof()" "$tmp"/[0-9]* | sed "s/^/# snapshot: /"
