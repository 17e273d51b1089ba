#!/bin/bash
# tour.sh BUILD_DIR: show, with real commands on this machine, what the
# suite does.  Each feature adds its own stop as scripts/tour.d/NN-name.sh
# (sourced in order, with $B the build directory, step() to show and run a
# command, shstep() for a shell pipeline given as one string).  Commands are
# shown as a user would type them: the build directory's tools by name,
# arguments quoted for the shell where they need it.
set -eu
B=$(cd "$1" && pwd)
export B
# rgctl's run state (its registry, classify's lock) in a directory of the
# tour's own, removed after: the tour leaves the host's /run/rgctl as it was
RGCTL_RUNDIR=$(mktemp -d "${TMPDIR:-/tmp}/rgctl-tour.XXXXXX")
export RGCTL_RUNDIR
trap 'rm -rf "$RGCTL_RUNDIR"' EXIT
# show: the build's tool paths as bare names, the checkout as "."
TOUR_TOP=$(cd "$(dirname "$0")/.." && pwd)
show() {
	local s=$1 top=$TOUR_TOP
	for t in rgctl/rgctl likelytop/likelytop splicebench/splicebench; do
		s=${s//"'$B/src/$t'"/${t##*/}}
		s=${s//"$B/src/$t"/${t##*/}}
	done
	s=${s//"'$top'"/.}
	s=${s//"$top/"/./}
	# a quoted path that needs no quotes loses them
	printf '%s' "$s" | sed -E "s/'(\.\/[A-Za-z0-9_.\/-]*)'/\1/g"
}
step() {
	local a cmd=""
	for a in "${@:2}"; do
		case $a in
		*[!A-Za-z0-9_./:=,+%@-]*|'') cmd+=" $(printf '%q' "$a")" ;;
		*) cmd+=" $a" ;;
		esac
	done
	printf '\n\033[1m== %s\033[0m\n$ %s\n' "$1" "$(show "${cmd# }")"
	"${@:2}"
}
shstep() {
	printf '\n\033[1m== %s\033[0m\n$ %s\n' "$1" "$(show "$2")"
	bash -c "$2"
}
for stop in "$(dirname "$0")"/tour.d/*.sh; do
	[ -f "$stop" ] || continue
	. "$stop"
done
