#!/bin/bash
# bench/rgctl/set.sh BUILD_DIR [ROUNDS]
#
# What setting five resources of one group costs, against libcgroup's
# cgset (Debian cgroup-tools) and bare shell writes, in the same run
# (issue 26: "set with five keys costs no more than cgset with the same
# five files").  On this machine's cgroup v1 (cpu, memory and pids on
# hierarchies of their own) the five keys and their files:
#   cpu.weight  cpu.shares                   memory.low  memory.soft_limit_in_bytes
#   cpu.max     cpu.cfs_quota_us             memory.max  memory.limit_in_bytes
#   pids.max    pids.max
# (cpu.max as a percent also writes cpu.cfs_period_us, its period: rgctl
# writes six files where cgset writes five.)  ROUNDS (default 30) rounds,
# the order rotating, each command setting the other of two value sets so
# that every call changes every file:
#   rgctl set G cpu.weight=W cpu.max=Q% memory.low=L memory.max=M pids.max=P
#   cgset -r cpu.shares=S -r cpu.cfs_quota_us=U -r memory.soft_limit_in_bytes=L
#         -r memory.limit_in_bytes=M -r pids.max=P G
#   printf >FILE five times from one shell (the floor: no checks at all).
# Each runs under bench_rgctl_runcost: wall time and user + system CPU.
# Every file is read back after each call (untimed) to check it took.
# rgctl keeps its registry in this run's RGCTL_RUNDIR.  Needs root; the
# group is removed from every hierarchy, even on failure or Ctrl-C.
set -u
B=$(cd "${1:?usage: set.sh BUILD_DIR [ROUNDS]}" && pwd)
ROUNDS=${2:-30}
RG=$B/src/rgctl/rgctl RC=$B/bench/rgctl/bench_rgctl_runcost
[ "$(id -u)" = 0 ] || { echo "set.sh: needs root"; exit 1; }
for t in "$RG" "$RC"; do [ -x "$t" ] || { echo "set.sh: $t not built"; exit 1; }; done
for t in cgcreate cgdelete cgset; do
	command -v $t >/dev/null || { echo "set.sh: $t missing (apt-get install cgroup-tools)"; exit 1; }
done
mnt() { awk -v c="$1" '{ for (i = 7; $i != "-"; i++); if ($(i+1) == "cgroup" && ("," $(i+3) ",") ~ "," c ",") { print $5; exit } }' /proc/self/mountinfo; }
CPU=$(mnt cpu) MEM=$(mnt memory) PIDS=$(mnt pids)
[ -n "$CPU" ] && [ -n "$MEM" ] && [ -n "$PIDS" ] ||
	{ echo "set.sh: needs cgroup v1 cpu, memory and pids hierarchies"; exit 1; }
G=rgset$$
work=$(mktemp -d "${TMPDIR:-/tmp}/rgctl-set.XXXXXX")
export RGCTL_RUNDIR=$work/run
cleanup() {
	cgdelete -g "cpu,memory,pids:/$G" 2>/dev/null
	for d in "$CPU/$G" "$MEM/$G" "$PIDS/$G"; do [ -d "$d" ] && rmdir "$d"; done
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
cgcreate -g "cpu,memory,pids:/$G" || exit 1

# two value sets: weight/shares, quota percent/us, low, max, pids
W=(200 300) S=(2048 3072) Q=(50 60) U=(50000 60000)
L=(33554432 50331648) M=(67108864 100663296) P=(20 30)
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
declare -A WALL CPUT
measure() {	# measure KEY CMD...: one runcost, times appended to KEY
	local w c rc
	{ read -r w c && read -r rc; } < <("$RC" -q "${@:2}"; echo $?)
	[ "${rc:-1}" = 0 ] && [ -n "${w:-}" ] || { echo "set.sh: $1 failed"; exit 1; }
	WALL[$1]+="$w " CPUT[$1]+="$c "
}
check() {	# check WHO SET: the five files hold set SET's values
	local v
	v="$(cat "$CPU/$G/cpu.shares") $(cat "$CPU/$G/cpu.cfs_quota_us") $(cat "$MEM/$G/memory.soft_limit_in_bytes") $(cat "$MEM/$G/memory.limit_in_bytes") $(cat "$PIDS/$G/pids.max")"
	[ "$v" = "${S[$2]} ${U[$2]} ${L[$2]} ${M[$2]} ${P[$2]}" ] ||
		{ echo "set.sh: after $1 the files hold '$v', not set $2's values"; exit 1; }
}
one() {	# one WHO SET
	local s=$2
	case $1 in
	rgctl) measure "$1" "$RG" set "$G" "cpu.weight=${W[s]}" "cpu.max=${Q[s]}%" \
		"memory.low=${L[s]}" "memory.max=${M[s]}" "pids.max=${P[s]}" ;;
	cgset) measure "$1" cgset -r "cpu.shares=${S[s]}" -r "cpu.cfs_quota_us=${U[s]}" \
		-r "memory.soft_limit_in_bytes=${L[s]}" -r "memory.limit_in_bytes=${M[s]}" \
		-r "pids.max=${P[s]}" "$G" ;;
	shell) measure "$1" /bin/sh -c 'printf %s "$1" >"$2" && printf %s "$3" >"$4" &&
		printf %s "$5" >"$6" && printf %s "$7" >"$8" && printf %s "$9" >"${10}"' sh \
		"${S[s]}" "$CPU/$G/cpu.shares" "${U[s]}" "$CPU/$G/cpu.cfs_quota_us" \
		"${L[s]}" "$MEM/$G/memory.soft_limit_in_bytes" "${M[s]}" "$MEM/$G/memory.limit_in_bytes" \
		"${P[s]}" "$PIDS/$G/pids.max" ;;
	esac
	check "$1" "$s"
}

echo "rgctl set benchmark: $(uname -r), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "rgctl $("$RG" --version | awk '{print $NF}'), $(dpkg-query -W -f='cgroup-tools ${Version}' cgroup-tools 2>/dev/null); group $G in $CPU, $MEM, $PIDS"
who=(rgctl cgset shell) n=0
for ((i = 0; i < ROUNDS; i++)); do
	for ((k = 0; k < 3; k++)); do
		one "${who[(i + k) % 3]}" $((n++ % 2))
	done
done
printf '\nfive resources of one group, %d rounds (median per call, microseconds):\n' "$ROUNDS"
mw=() mc=()
for w in "${who[@]}"; do
	# shellcheck disable=SC2086
	mw+=("$(median ${WALL[$w]})") mc+=("$(median ${CPUT[$w]})")
done
for ((k = 0; k < 3; k++)); do
	printf '  %-6s wall %6d  CPU %6d   vs cgset: wall %sx, CPU %sx\n' "${who[k]}" \
		"${mw[k]}" "${mc[k]}" "$(ratio "${mw[k]}" "${mw[1]}")" "$(ratio "${mc[k]}" "${mc[1]}")"
done
if command -v strace >/dev/null; then
	calls() { strace -f -c -o "$work/st" "$@" >/dev/null 2>&1; awk '$NF == "total" { print $4 }' "$work/st"; }
	printf '\nsystem calls per call (strace -c): rgctl set %s, cgset %s\n' \
		"$(calls "$RG" set "$G" cpu.weight=100 cpu.max=max memory.low=0 memory.max=max pids.max=max)" \
		"$(calls cgset -r cpu.shares=1024 -r cpu.cfs_quota_us=-1 -r memory.soft_limit_in_bytes=0 -r memory.limit_in_bytes=-1 -r pids.max=max "$G")"
fi
