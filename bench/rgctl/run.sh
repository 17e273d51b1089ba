#!/bin/bash
# bench/rgctl/run.sh BUILD_DIR [NPROC] [NGROUPS] [RUNS]
#
# rgctl against libcgroup's tools (Debian cgroup-tools) on the cgroup v1
# cpu hierarchy, in the same run, alternating which goes first:
#  1. move NPROC (default 10000) running processes into a group:
#     "rgctl attach G PID..." vs "cgclassify -g cpu:/G PID..." (one call
#     each, every pid on the command line);
#  2. create and then delete NGROUPS (default 1000) groups, one call per
#     group: "rgctl create/delete" vs "cgcreate/cgdelete".
# Needs root.  Everything it makes is removed, every process killed, even
# on failure or Ctrl-C.  Prints medians of RUNS (default 3) runs and ratios.
set -u
B=$(cd "${1:?usage: run.sh BUILD_DIR [NPROC] [NGROUPS] [RUNS]}" && pwd)
NPROC=${2:-10000} NGROUPS=${3:-1000} RUNS=${4:-3}
RG=$B/src/rgctl/rgctl SLEEPERS=$B/bench/rgctl/bench_rgctl_sleepers
[ "$(id -u)" = 0 ] || { echo "run.sh: needs root"; exit 1; }
for t in "$RG" "$SLEEPERS"; do [ -x "$t" ] || { echo "run.sh: $t not built"; exit 1; }; done
for t in cgclassify cgcreate cgdelete; do
	command -v $t >/dev/null || { echo "run.sh: $t missing (apt-get install cgroup-tools)"; exit 1; }
done
CPU=$(awk '{ for (i = 7; i <= NF; i++) if ($i == "-") break
	if ($(i + 1) == "cgroup" && $(i + 3) ~ /(^|,)cpu(,|$)/) { print $5; exit } }' /proc/self/mountinfo)
[ -n "$CPU" ] || { echo "run.sh: no cgroup v1 cpu hierarchy mounted"; exit 1; }
G=rgbench$$
work=$(mktemp -d /tmp/rgctl-bench.XXXXXX)
sleepers_pid=

cleanup() {
	if [ -n "$sleepers_pid" ]; then
		kill "$sleepers_pid" 2>/dev/null
		wait "$sleepers_pid" 2>/dev/null
	fi
	if [ -d "$CPU/$G" ]; then
		find "$CPU/$G" -depth -type d | while read -r d; do
			for t in $(cat "$d/tasks" 2>/dev/null); do echo "$t" >"$CPU/tasks" 2>/dev/null; done
			rmdir "$d" 2>/dev/null
		done
	fi
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

now() { date +%s%N; }
ms() { echo $(( ($2 - $1) / 1000000 )); }
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }'; }
back_to_root() {	# every task of $CPU/$G/$1 back to the root
	local t
	while read -r t; do echo "$t" >"$CPU/tasks" 2>/dev/null; done <"$CPU/$G/$1/tasks"
}

echo "rgctl benchmark: $(uname -r), $(nproc) CPUs, cgroup v1 cpu at $CPU"
echo "rgctl $("$RG" --version | awk '{print $NF}'), $(dpkg-query -W -f='cgroup-tools ${Version}' cgroup-tools 2>/dev/null)"
mkdir "$CPU/$G" "$CPU/$G/rg" "$CPU/$G/cg"

# ---- 1. moving NPROC running processes ----
"$SLEEPERS" "$NPROC" "$work/pids" &
sleepers_pid=$!
for _ in $(seq 600); do [ -s "$work/pids" ] && [ "$(wc -l <"$work/pids")" = "$NPROC" ] && break; sleep 0.1; done
[ "$(wc -l <"$work/pids" 2>/dev/null)" = "$NPROC" ] || { echo "run.sh: could not start $NPROC processes"; exit 1; }
mapfile -t PIDS <"$work/pids"
rg_t=() cg_t=()
for ((run = 1; run <= RUNS; run++)); do
	for who in $( ((run % 2)) && echo "rg cg" || echo "cg rg"); do
		t0=$(now)
		if [ $who = rg ]; then
			"$RG" --backend cgroup1 --root "$CPU" attach "$G/rg" "${PIDS[@]}" || echo "rgctl attach failed"
		else
			cgclassify -g "cpu:/$G/cg" "${PIDS[@]}" || echo "cgclassify failed"
		fi
		t1=$(now)
		n=$(wc -l <"$CPU/$G/$who/tasks")
		[ "$n" = "$NPROC" ] || echo "warning: $who moved $n of $NPROC"
		[ $who = rg ] && rg_t+=($(ms "$t0" "$t1")) || cg_t+=($(ms "$t0" "$t1"))
		back_to_root "$who"
	done
done
rg_m=$(median "${rg_t[@]}") cg_m=$(median "${cg_t[@]}")
printf '\nmove %d processes into a group (ms, runs: rgctl %s | cgclassify %s)\n' "$NPROC" "${rg_t[*]}" "${cg_t[*]}"
printf '  rgctl attach  %6d ms\n  cgclassify    %6d ms\n  rgctl is %sx faster\n' "$rg_m" "$cg_m" "$(ratio "$cg_m" "$rg_m")"
kill "$sleepers_pid"; wait "$sleepers_pid" 2>/dev/null; sleepers_pid=

# ---- 2. create + delete NGROUPS groups ----
rg_t=() cg_t=()
for ((run = 1; run <= RUNS; run++)); do
	for who in $( ((run % 2)) && echo "rg cg" || echo "cg rg"); do
		t0=$(now)
		if [ $who = rg ]; then
			for ((i = 0; i < NGROUPS; i++)); do "$RG" -b cgroup1 --root "$CPU" create "$G/rg/g$i" || break; done
			for ((i = 0; i < NGROUPS; i++)); do "$RG" -b cgroup1 --root "$CPU" delete "$G/rg/g$i" || break; done
		else
			for ((i = 0; i < NGROUPS; i++)); do cgcreate -g "cpu:/$G/cg/g$i" || break; done
			for ((i = 0; i < NGROUPS; i++)); do cgdelete -g "cpu:/$G/cg/g$i" || break; done
		fi
		t1=$(now)
		left=$(find "$CPU/$G/$who" -mindepth 1 -type d | wc -l)
		[ "$left" = 0 ] || echo "warning: $who left $left groups"
		[ $who = rg ] && rg_t+=($(ms "$t0" "$t1")) || cg_t+=($(ms "$t0" "$t1"))
	done
done
rg_m=$(median "${rg_t[@]}") cg_m=$(median "${cg_t[@]}")
printf '\ncreate + delete %d groups, one call each (ms, runs: rgctl %s | cgcreate/cgdelete %s)\n' "$NGROUPS" "${rg_t[*]}" "${cg_t[*]}"
printf '  rgctl create/delete     %6d ms\n  cgcreate/cgdelete       %6d ms\n  rgctl is %sx faster\n' "$rg_m" "$cg_m" "$(ratio "$cg_m" "$rg_m")"
