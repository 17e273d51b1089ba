#!/bin/bash
# tour.sh BUILD_DIR: show, with real commands on this machine, what the
# suite does.  Each feature adds its own stop as scripts/tour.d/NN-name.sh
# (sourced in order, with $B the build directory and step() to show a command).
set -eu
B=$(cd "$1" && pwd)
export B
step() { printf '\n\033[1m== %s\033[0m\n$ %s\n' "$1" "${*:2}"; "${@:2}"; }
for stop in "$(dirname "$0")"/tour.d/*.sh; do
	[ -f "$stop" ] || continue
	. "$stop"
done
