#!/bin/bash
# bench/rgctl/cost.sh BUILD_DIR [PAIRS] [NGROUPS] [RUNS]
#
# What one rgctl call costs, against libcgroup's tools (Debian cgroup-tools)
# and the bare mkdir(1)/rmdir(1), in the same run, on the cgroup v1 cpu
# hierarchy (issue 24 item 4):
#  1. PAIRS (default 30) rounds of "rgctl create G; rgctl delete G",
#     "cgcreate -g cpu:/G; cgdelete -g cpu:/G" and "mkdir G; rmdir G",
#     the order rotating each round;
#  2. RUNS (default 5) rounds of NGROUPS (default 1000) groups made in one
#     call: "rgctl create G1 ... GN", "mkdir G1 ... GN" (one mkdir(2) per
#     name: the bare loop) and "cgcreate -g cpu:/G1 ... -g cpu:/GN";
#     removed again (untimed) after each.
# Each command runs under bench_rgctl_runcost (no shell in between): wall
# time and the user + system time of its processes.  Then one strace -c
# of each command for its system calls.  Prints medians and ratios.
# RGCTL_BEFORE=PATH adds an older rgctl binary to part 1, same rounds.
# rgctl keeps its ownership registry in a directory of this run
# (RGCTL_RUNDIR), never the host's /run/rgctl.  Needs root; every group it
# makes is removed, even on failure or Ctrl-C.  Not part of ctest.
set -u
B=$(cd "${1:?usage: cost.sh BUILD_DIR [PAIRS] [NGROUPS] [RUNS]}" && pwd)
PAIRS=${2:-30} NGROUPS=${3:-1000} RUNS=${4:-5}
RG=$B/src/rgctl/rgctl RC=$B/bench/rgctl/bench_rgctl_runcost
BEFORE=${RGCTL_BEFORE:-}
[ "$(id -u)" = 0 ] || { echo "cost.sh: needs root"; exit 1; }
for t in "$RG" "$RC" ${BEFORE:+"$BEFORE"}; do [ -x "$t" ] || { echo "cost.sh: $t not built"; exit 1; }; done
for t in cgcreate cgdelete; do
	command -v $t >/dev/null || { echo "cost.sh: $t missing (apt-get install cgroup-tools)"; exit 1; }
done
CPU=$(awk '{ for (i = 7; $i != "-"; i++); if ($(i+1) == "cgroup" && ("," $(i+3) ",") ~ /,cpu,/) { print $5; exit } }' /proc/self/mountinfo)
[ -n "$CPU" ] || { echo "cost.sh: no cgroup v1 cpu hierarchy mounted"; exit 1; }
P=rgcost$$
work=$(mktemp -d "${TMPDIR:-/tmp}/rgctl-cost.XXXXXX")
export RGCTL_RUNDIR=$work/run

cleanup() {
	[ -d "$CPU/$P" ] && find "$CPU/$P" -depth -type d -exec rmdir {} + 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
mkdir "$CPU/$P" "$CPU/$P/big" || exit 1

# rgctl finds the hierarchy in the mount table as cgcreate does; -b cgroup1
# as cgcreate's "cpu:" (an RGCS or cgroup v2 mount elsewhere on the host,
# such as a test's, would otherwise come first).
RGARGS=(-b cgroup1)

median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }

declare -A WALL CPUT
measure() {	# measure KEY CMD... [-- CMD...]: one runcost, times appended to KEY
	local w c rc
	{ read -r w c && read -r rc; } < <("$RC" -q "${@:2}"; echo $?)
	[ "${rc:-1}" = 0 ] && [ -n "${w:-}" ] || { echo "cost.sh: $1 failed"; exit 1; }
	WALL[$1]+="$w " CPUT[$1]+="$c "
}
one_rg() { measure "$1" "$2" "${RGARGS[@]}" create "$P/g" -- "$2" "${RGARGS[@]}" delete "$P/g"; }
one() {
	case $1 in
	rgctl) one_rg rgctl "$RG" ;;
	before) one_rg before "$BEFORE" ;;
	cgroup-tools) measure "$1" cgcreate -g "cpu:/$P/g" -- cgdelete -g "cpu:/$P/g" ;;
	mkdir) measure "$1" mkdir "$CPU/$P/g" -- rmdir "$CPU/$P/g" ;;
	esac
	[ ! -e "$CPU/$P/g" ] || { echo "cost.sh: $1 left $P/g"; exit 1; }
}

echo "rgctl cost benchmark: $(uname -r), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), cgroup v1 cpu at $CPU"
echo "rgctl $("$RG" --version | awk '{print $NF}') (${RGARGS[*]}), $(dpkg-query -W -f='cgroup-tools ${Version}' cgroup-tools 2>/dev/null)"
echo "rgctl maps $(ldd "$RG" | grep -c '=>') shared libraries${BEFORE:+ (before: $(ldd "$BEFORE" | grep -c '=>'))}, cgcreate $(ldd "$(command -v cgcreate)" | grep -c '=>'), mkdir $(ldd "$(command -v mkdir)" | grep -c '=>')"

# ---- 1. one group: create + delete, one call each ----
who=(rgctl cgroup-tools mkdir ${BEFORE:+before}) mw=() mc=() nw=() nc=()
for ((i = 0; i < PAIRS; i++)); do
	for ((k = 0; k < ${#who[@]}; k++)); do
		one "${who[(i + k) % ${#who[@]}]}"
	done
done
printf '\ncreate + delete one group, %d rounds (median per round, microseconds):\n' "$PAIRS"
for w in "${who[@]}"; do
	# shellcheck disable=SC2086
	mw[${#mw[@]}]=$(median ${WALL[$w]}) mc[${#mc[@]}]=$(median ${CPUT[$w]})
done
for ((k = 0; k < ${#who[@]}; k++)); do
	printf '  %-13s wall %6d  CPU %6d   vs cgroup-tools: wall %sx, CPU %sx\n' "${who[k]}" \
		"${mw[k]}" "${mc[k]}" "$(ratio "${mw[k]}" "${mw[1]}")" "$(ratio "${mc[k]}" "${mc[1]}")"
done

# ---- 2. NGROUPS groups in one call ----
names=() paths=() gopts=()
for ((i = 1; i <= NGROUPS; i++)); do
	names+=("$P/big/g$i") paths+=("$CPU/$P/big/g$i") gopts+=(-g "cpu:/$P/big/g$i")
done
clear_big() {
	rmdir "${paths[@]}" 2>/dev/null
	[ -z "$(find "$CPU/$P/big" -mindepth 1 -type d)" ] || { echo "cost.sh: groups left in $P/big"; exit 1; }
	rm -rf "$RGCTL_RUNDIR"
}
many=(rgctl-many mkdir-many cgcreate-many)
for ((i = 0; i < RUNS; i++)); do
	for ((k = 0; k < 3; k++)); do
		case ${many[(i + k) % 3]} in
		rgctl-many) measure rgctl-many "$RG" "${RGARGS[@]}" create "${names[@]}" ;;
		mkdir-many) measure mkdir-many mkdir "${paths[@]}" ;;
		cgcreate-many) measure cgcreate-many cgcreate "${gopts[@]}" ;;
		esac
		[ "$(find "$CPU/$P/big" -mindepth 1 -type d | wc -l)" = "$NGROUPS" ] ||
			echo "warning: ${many[(i + k) % 3]} did not make $NGROUPS groups"
		clear_big
	done
done
printf '\n%d groups in one call, %d rounds (median, milliseconds):\n' "$NGROUPS" "$RUNS"
for w in "${many[@]}"; do
	# shellcheck disable=SC2086
	nw[${#nw[@]}]=$(median ${WALL[$w]}) nc[${#nc[@]}]=$(median ${CPUT[$w]})
done
for ((k = 0; k < 3; k++)); do
	printf '  %-14s wall %7.1f  CPU %7.1f   vs mkdir: wall %sx, CPU %sx\n' "${many[k]}" \
		"$(ratio "${nw[k]}" 1000)" "$(ratio "${nc[k]}" 1000)" \
		"$(ratio "${nw[k]}" "${nw[1]}")" "$(ratio "${nc[k]}" "${nc[1]}")"
done

# ---- system calls ----
if command -v strace >/dev/null; then
	calls() { strace -f -c -o "$work/st" "$@" >/dev/null 2>&1; awk '$NF == "total" { print $4 }' "$work/st"; }
	printf '\nsystem calls per call (strace -c):\n'
	for r in "$RG" ${BEFORE:+"$BEFORE"}; do
		printf '  rgctl%s create %s, delete %s\n' "$([ "$r" = "$RG" ] || echo ' (before)')" \
			"$(calls "$r" "${RGARGS[@]}" create "$P/g")" "$(calls "$r" "${RGARGS[@]}" delete "$P/g")"
	done
	printf '  cgcreate %s, cgdelete %s\n' "$(calls cgcreate -g "cpu:/$P/g")" "$(calls cgdelete -g "cpu:/$P/g")"
	printf '  mkdir %s, rmdir %s\n' "$(calls mkdir "$CPU/$P/g")" "$(calls rmdir "$CPU/$P/g")"
	printf '  %d groups in one call: rgctl create %s' "$NGROUPS" "$(calls "$RG" "${RGARGS[@]}" create "${names[@]}")"
	clear_big
	printf ', mkdir %s' "$(calls mkdir "${paths[@]}")"
	clear_big
	printf ', cgcreate %s\n' "$(calls cgcreate "${gopts[@]}")"
	clear_big
fi
