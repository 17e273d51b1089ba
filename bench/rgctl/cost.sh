#!/bin/bash
# bench/rgctl/cost.sh BUILD_DIR [PAIRS] [NGROUPS] [RUNS]
#
# What one rgctl call costs, against libcgroup's tools (Debian cgroup-tools)
# and the bare mkdir(1)/rmdir(1), in the same run, on cgroup v1 (issue 24
# item 4), like with like:
#  1. PAIRS (default 30) rounds, the order rotating each round, of
#     - "rgctl --root CPU create G; rgctl --root CPU delete G" against
#       "cgcreate -g cpu:/G; cgdelete -g cpu:/G" (one hierarchy, cpu);
#     - "rgctl -b cgroup1 create G; rgctl -b cgroup1 delete G" (cgroup v1
#       detected: every v1 hierarchy rgctl uses; -b because a concurrent
#       test's RGCS emulator or cgroup v2 mount could be detected first) against "cgcreate -g CTRLS:/G; cgdelete -g
#       CTRLS:/G", CTRLS = cpu,cpuacct,memory,pids,blkio (the script says
#       in how many hierarchies rgctl made G: the same five once rgctl makes
#       a v1 group in each, fewer before);
#     - "mkdir CPU/G; rmdir CPU/G", the floor of two processes;
#  2. RUNS (default 5) rounds of NGROUPS (default 1000) groups made in one
#     call on the cpu hierarchy: "rgctl --root CPU create G1 ... GN",
#     "mkdir G1 ... GN" (one mkdir(2) per name: the bare loop) and
#     "cgcreate -g cpu:/G1 ... -g cpu:/GN"; removed again (untimed) after
#     each.
# Each command runs under bench_rgctl_runcost (no shell in between): wall
# time and the user + system time of its processes.  Then one strace -c
# of each command for its system calls.  Prints medians and ratios, and
# the load average before and after.
# RGCTL_BEFORE=PATH adds an older rgctl binary to part 1 (the cpu pair),
# same rounds.  rgctl keeps its registry of groups (where a hierarchy has
# no xattrs) in a directory of this run (RGCTL_RUNDIR), never the host's
# /run/rgctl.  Needs root; every group it makes is removed, even on failure
# or Ctrl-C.  Not part of ctest.
set -u
B=$(cd "${1:?usage: cost.sh BUILD_DIR [PAIRS] [NGROUPS] [RUNS]}" && pwd)
PAIRS=${2:-30} NGROUPS=${3:-1000} RUNS=${4:-5}
RG=$B/src/rgctl/rgctl RC=$B/bench/rgctl/bench_rgctl_runcost
BEFORE=${RGCTL_BEFORE:-}
CTRLS=cpu,cpuacct,memory,pids,blkio
[ "$(id -u)" = 0 ] || { echo "cost.sh: needs root"; exit 1; }
for t in "$RG" "$RC" ${BEFORE:+"$BEFORE"}; do [ -x "$t" ] || { echo "cost.sh: $t not built"; exit 1; }; done
for t in cgcreate cgdelete; do
	command -v $t >/dev/null || { echo "cost.sh: $t missing (apt-get install cgroup-tools)"; exit 1; }
done
# hier CTRL: the mount point of the cgroup v1 hierarchy with controller CTRL
hier() {
	awk -v c="$1" '{ for (i = 7; $i != "-"; i++); if ($(i+1) == "cgroup" && ("," $(i+3) ",") ~ ("," c ",")) { print $5; exit } }' /proc/self/mountinfo
}
CPU=$(hier cpu)
[ -n "$CPU" ] || { echo "cost.sh: no cgroup v1 cpu hierarchy mounted"; exit 1; }
# every v1 hierarchy with a controller: P is made in each (rgctl's detected
# backend and cgcreate need the parent there), P/g looked for in each
mapfile -t HIERS < <(awk '{ for (i = 7; $i != "-"; i++); if ($(i+1) == "cgroup" && $(i+3) !~ /(^|,)name=/) print $5 }' /proc/self/mountinfo)
for c in ${CTRLS//,/ }; do
	[ -n "$(hier "$c")" ] || { echo "cost.sh: no cgroup v1 $c hierarchy mounted"; exit 1; }
done
P=rgcost$$
work=$(mktemp -d "${TMPDIR:-/tmp}/rgctl-cost.XXXXXX")
export RGCTL_RUNDIR=$work/run

cleanup() {
	for h in "${HIERS[@]}"; do
		[ -d "$h/$P" ] && find "$h/$P" -depth -type d -exec rmdir {} + 2>/dev/null
	done
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
for h in "${HIERS[@]}"; do mkdir "$h/$P" || exit 1; done
mkdir "$CPU/$P/big" || exit 1
made_in() {	# made_in: the hierarchies where P/g is, by mount point
	local h
	for h in "${HIERS[@]}"; do [ -d "$h/$P/g" ] && printf '%s ' "${h##*/}"; done
}

median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }

declare -A WALL CPUT
measure() {	# measure KEY CMD... [-- CMD...]: one runcost, times appended to KEY
	local w c rc
	{ read -r w c && read -r rc; } < <("$RC" -q "${@:2}"; echo $?)
	[ "${rc:-1}" = 0 ] && [ -n "${w:-}" ] || { echo "cost.sh: $1 failed"; exit 1; }
	WALL[$1]+="$w " CPUT[$1]+="$c "
}
one_rg() { measure "$1" "$2" --root "$CPU" create "$P/g" -- "$2" --root "$CPU" delete "$P/g"; }
one() {
	case $1 in
	rgctl-cpu) one_rg "$1" "$RG" ;;
	before-cpu) one_rg "$1" "$BEFORE" ;;
	cgtools-cpu) measure "$1" cgcreate -g "cpu:/$P/g" -- cgdelete -g "cpu:/$P/g" ;;
	rgctl-all) measure "$1" "$RG" -b cgroup1 create "$P/g" -- "$RG" -b cgroup1 delete "$P/g" ;;
	cgtools-all)	# cgdelete removes G from the first hierarchy only
		measure "$1" cgcreate -g "$CTRLS:/$P/g" -- cgdelete -g "$CTRLS:/$P/g"
		[ -n "$(made_in)" ] && CGDEL_LEFT=$(made_in)
		for h in "${HIERS[@]}"; do [ ! -d "$h/$P/g" ] || rmdir "$h/$P/g"; done ;;
	mkdir) measure "$1" mkdir "$CPU/$P/g" -- rmdir "$CPU/$P/g" ;;
	esac
	[ -z "$(made_in)" ] || { echo "cost.sh: $1 left $P/g in $(made_in)"; exit 1; }
}

echo "rgctl cost benchmark: $(uname -r), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), cgroup v1 cpu at $CPU"
echo "rgctl $("$RG" --version | awk '{print $NF}'), $(dpkg-query -W -f='cgroup-tools ${Version}' cgroup-tools 2>/dev/null)"
echo "rgctl maps $(ldd "$RG" | grep -c '=>') shared libraries${BEFORE:+ (before: $(ldd "$BEFORE" | grep -c '=>'))}, cgcreate $(ldd "$(command -v cgcreate)" | grep -c '=>'), mkdir $(ldd "$(command -v mkdir)" | grep -c '=>')"
"$RG" -b cgroup1 create "$P/g" >/dev/null || { echo "cost.sh: rgctl create $P/g failed"; exit 1; }
echo "rgctl -b cgroup1 create G makes G in: $(made_in)(cgcreate -g $CTRLS: in ${CTRLS//,/ })"
"$RG" -b cgroup1 delete "$P/g" || exit 1

# ---- 1. one group: create + delete, one call each ----
who=(rgctl-cpu cgtools-cpu rgctl-all cgtools-all mkdir ${BEFORE:+before-cpu})
peer() { case $1 in *-all) echo cgtools-all ;; *) echo cgtools-cpu ;; esac; }
for ((i = 0; i < PAIRS; i++)); do
	for ((k = 0; k < ${#who[@]}; k++)); do
		one "${who[(i + k) % ${#who[@]}]}"
	done
done
printf '\ncreate + delete one group, %d rounds (median per round, microseconds):\n' "$PAIRS"
declare -A MW MC
for w in "${who[@]}"; do
	# shellcheck disable=SC2086
	MW[$w]=$(median ${WALL[$w]}) MC[$w]=$(median ${CPUT[$w]})
done
for w in "${who[@]}"; do
	p=$(peer "$w")
	printf '  %-12s wall %6d  CPU %6d   vs %s: wall %sx, CPU %sx\n' "$w" \
		"${MW[$w]}" "${MC[$w]}" "$p" "$(ratio "${MW[$w]}" "${MW[$p]}")" "$(ratio "${MC[$w]}" "${MC[$p]}")"
done

[ -z "${CGDEL_LEFT:-}" ] || echo "  (cgdelete -g $CTRLS:/G left G in: ${CGDEL_LEFT}(cgroup-tools 2.0.2 removes it from the first hierarchy only, exit 0); removed untimed: cgtools-all's figure is low, its ratios favour the peer)"

# ---- 2. NGROUPS groups in one call ----
# Like with like: a group is a directory in each hierarchy rgctl spans
# (probed: cpu, cpuacct, memory, pids, blkio here), so the bare loop makes
# the same directories (one mkdir(1), one mkdir(2) each) and cgcreate is
# given the same controllers.
for h in "${HIERS[@]}"; do [ -d "$h/$P/big" ] || mkdir "$h/$P/big" || exit 1; done
"$RG" --root "$CPU" create "$P/big/probe" >/dev/null || { echo "cost.sh: probe create failed"; exit 1; }
SPAN=() SPANC=()
for h in "${HIERS[@]}"; do
	[ -d "$h/$P/big/probe" ] || continue
	SPAN+=("$h") SPANC+=("$(awk -v m="$h" '{ for (i = 7; $i != "-"; i++); if ($5 == m) { print $(i+3); exit } }' /proc/self/mountinfo |
		tr ',' '\n' | grep -Evx 'rw|ro|.*=.*|clone_children|noprefix|xattr' | paste -sd, -)")
	rmdir "$h/$P/big/probe"
done
rm -rf "$RGCTL_RUNDIR"
ctrls=$(IFS=,; echo "${SPANC[*]}")
names=() paths=() gopts=() nw=() nc=()
for ((i = 1; i <= NGROUPS; i++)); do
	names+=("$P/big/g$i") gopts+=(-g "$ctrls:/$P/big/g$i")
	for h in "${SPAN[@]}"; do paths+=("$h/$P/big/g$i"); done
done
want=$((NGROUPS * ${#SPAN[@]}))
count_big() { local h; for h in "${SPAN[@]}"; do find "$h/$P/big" -mindepth 1 -type d; done | wc -l; }
clear_big() {
	rmdir "${paths[@]}" 2>/dev/null
	[ "$(count_big)" = 0 ] || { echo "cost.sh: groups left in $P/big"; exit 1; }
	rm -rf "$RGCTL_RUNDIR"
}
echo "$NGROUPS groups in one call: a group is ${#SPAN[@]} directories (${ctrls}), $want in all"
many=(rgctl-many mkdir-many cgcreate-many)
for ((i = 0; i < RUNS; i++)); do
	for ((k = 0; k < 3; k++)); do
		case ${many[(i + k) % 3]} in
		rgctl-many) measure rgctl-many "$RG" --root "$CPU" create "${names[@]}" ;;
		mkdir-many) measure mkdir-many mkdir "${paths[@]}" ;;
		cgcreate-many) measure cgcreate-many cgcreate "${gopts[@]}" ;;
		esac
		[ "$(count_big)" = "$want" ] ||
			echo "warning: ${many[(i + k) % 3]} did not make $want directories ($(count_big))"
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
		printf '  rgctl%s --root CPU: create %s, delete %s\n' "$([ "$r" = "$RG" ] || echo ' (before)')" \
			"$(calls "$r" --root "$CPU" create "$P/g")" "$(calls "$r" --root "$CPU" delete "$P/g")"
	done
	printf '  cgcreate -g cpu: %s, cgdelete %s\n' "$(calls cgcreate -g "cpu:/$P/g")" "$(calls cgdelete -g "cpu:/$P/g")"
	printf '  rgctl -b cgroup1: create %s, delete %s\n' "$(calls "$RG" -b cgroup1 create "$P/g")" "$(calls "$RG" -b cgroup1 delete "$P/g")"
	printf '  cgcreate -g %s: %s, cgdelete %s\n' "$CTRLS" "$(calls cgcreate -g "$CTRLS:/$P/g")" "$(calls cgdelete -g "$CTRLS:/$P/g")"
	for h in "${HIERS[@]}"; do [ ! -d "$h/$P/g" ] || rmdir "$h/$P/g"; done
	printf '  mkdir %s, rmdir %s\n' "$(calls mkdir "$CPU/$P/g")" "$(calls rmdir "$CPU/$P/g")"
	printf '  %d groups in one call: rgctl create %s' "$NGROUPS" "$(calls "$RG" --root "$CPU" create "${names[@]}")"
	clear_big
	printf ', mkdir %s' "$(calls mkdir "${paths[@]}")"
	clear_big
	printf ', cgcreate %s\n' "$(calls cgcreate "${gopts[@]}")"
	clear_big
fi
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
