#!/bin/bash
# build.sh DIR [cmake options...]: configure and build the suite in DIR.
set -eu
dir=$1; shift
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$(dirname "$dir")"	# its logs go beside it (out/ in a fresh clone)
cmake -S "$top" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >"$dir.configure.log" 2>&1 ||
	{ cat "$dir.configure.log"; exit 1; }
cmake --build "$dir" -j"$(nproc)" >"$dir.build.log" 2>&1 ||
	{ grep -E 'error|Error' "$dir.build.log" | head -50; exit 1; }
