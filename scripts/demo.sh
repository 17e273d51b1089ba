#!/bin/bash
# The suite's main job: install what is missing, build, and tour what works.
# Says what it does at each stage; the build tree is out/build (the same
# tree README's "Building by hand" uses), and the last lines say where the
# binaries are.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
t0=$SECONDS
stage() { printf '==> %s (at %d s)\n' "$*" "$((SECONDS - t0))"; }
stage "installing what is missing (scripts/deps.sh: Debian packages, only when absent)"
scripts/deps.sh
mkdir -p out
stage "configuring out/build (log: out/build.configure.log)"
cmake -S . -B out/build -DCMAKE_BUILD_TYPE=RelWithDebInfo >out/build.configure.log 2>&1 ||
	{ cat out/build.configure.log; exit 1; }
stage "building out/build with $(nproc) jobs (log: out/build.build.log; about a minute on 2 CPUs)"
# CMake's own percentage, one line per tenth
cmake --build out/build -j"$(nproc)" 2>&1 | tee out/build.build.log |
	awk 'match($0, /^\[ *[0-9]+%\]/) { p = substr($0, 2, RLENGTH - 3) + 0
		if (int(p / 10) > last) { last = int(p / 10); printf "    %3d%%\n", p; fflush() } }
	     /error|Error/ { print; fflush() }'
[ "${PIPESTATUS[0]}" = 0 ] || { echo "demo: the build failed (see out/build.build.log)" >&2; exit 1; }
stage "the tour: real commands on this host"
scripts/tour.sh out/build
stage "done.  The binaries are in out/build/src:"
for t in rgctl/rgctl likelytop/likelytop splicebench/splicebench; do
	printf '    %s\n' "$top/out/build/src/$t"
done
echo "    (cmake --install out/build, or the Debian packages of scripts/deb.sh, put them on PATH)"
