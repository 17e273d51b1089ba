#!/bin/bash
# tour.sh BUILD_DIR: show, with real commands on this machine, what the
# suite does.  Each feature adds its own stop here.
set -eu
b=$(cd "$1" && pwd)
step() { printf '\n\033[1m== %s\033[0m\n$ %s\n' "$1" "${*:2}"; "${@:2}"; }

step "The tools" "$b/src/rgctl/rgctl" --version
"$b/src/likelytop/likelytop" --version
"$b/src/splicebench/splicebench" --version
