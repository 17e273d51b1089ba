#!/bin/bash
# bench/rgctl/top.sh BUILD_DIR [GROUPS] [SECS]
#
# What watching GROUPS (default 1000) groups costs, rgctl top against
# systemd-cgtop (Debian's systemd), on the same tree in the same run
# (issue 27: "with 1,000 groups at -d 1, rgctl top uses at most 1% of one
# CPU, and less than systemd-cgtop -d 1").  The groups are made on this
# machine's cgroup v1 hierarchies (cpu, cpuacct, memory, blkio, pids, each
# a directory of the same path: what rgctl top joins), one sleeper in
# every tenth; then each tool, one after the other, takes SECS + 1
# snapshots one second apart, twice: live in a tmux pane (-n SECS+1 -d 1;
# the CPU time from the shell's `times`), and batch (-b -n SECS+1 -d 1,
# every group printed each second, to /dev/null, under
# bench_rgctl_runcost).  Wall time and user + system CPU of the whole run,
# startup and the first read included; rgctl top's startup (opening every
# group's files) is measured apart (-b -n 1) and its steady cost given
# without it.  rgctl top keeps every group's files open and pread()s them,
# reads an idle group (pids.current 0) for pids.current alone, and walks
# the tree again every 5 s; systemd-cgtop opens and reads each file each
# second.  Needs root and tmux; every group is removed, even on failure
# or Ctrl-C.
set -u
B=$(cd "${1:?usage: top.sh BUILD_DIR [GROUPS] [SECS]}" && pwd)
N=${2:-1000} SECS=${3:-30}
RG=$B/src/rgctl/rgctl RC=$B/bench/rgctl/bench_rgctl_runcost
[ "$(id -u)" = 0 ] || { echo "top.sh: needs root"; exit 1; }
for t in "$RG" "$B/src/rgctl/rgctl-top" "$RC"; do [ -x "$t" ] || { echo "top.sh: $t not built"; exit 1; }; done
command -v systemd-cgtop >/dev/null || { echo "top.sh: systemd-cgtop missing (apt-get install systemd)"; exit 1; }
command -v tmux >/dev/null || { echo "top.sh: tmux missing (apt-get install tmux)"; exit 1; }
mnt() { awk -v c="$1" '{ for (i = 7; $i != "-"; i++); if ($(i+1) == "cgroup" && ("," $(i+3) ",") ~ "," c ",") { print $5; exit } }' /proc/self/mountinfo; }
H=()
for c in cpu cpuacct memory blkio pids; do
	m=$(mnt $c)
	[ -n "$m" ] || { echo "top.sh: needs a cgroup v1 $c hierarchy"; exit 1; }
	case " ${H[*]-} " in *" $m "*) ;; *) H+=("$m") ;; esac
done
G=rgtopb$$
work=$(mktemp -d "${TMPDIR:-/tmp}/rgctl-top.XXXXXX")
export RGCTL_RUNDIR=$work/run
SLEEPERS=()
sock=rgtopbench$$
cleanup() {
	tmux -L "$sock" kill-server 2>/dev/null
	[ ${#SLEEPERS[@]} -gt 0 ] && kill "${SLEEPERS[@]}" 2>/dev/null && wait 2>/dev/null
	for h in "${H[@]}"; do
		[ -d "$h/$G" ] || continue
		find "$h/$G" -mindepth 1 -depth -type d -exec rmdir {} + 2>/dev/null
		rmdir "$h/$G"
	done
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
for h in "${H[@]}"; do
	mkdir "$h/$G" || exit 1
	(cd "$h/$G" && mkdir $(seq -f "g%04g" 1 "$N")) || exit 1
done
for ((i = 1; i <= N; i += 10)); do
	sleep 3600 &
	SLEEPERS+=($!)
	for h in "${H[@]}"; do
		f=$h/$G/$(printf g%04d "$i")/cgroup.procs
		echo $! >"$f" || exit 1
	done
done
echo "$N groups in ${#H[@]} hierarchies (${H[*]}), ${#SLEEPERS[@]} sleepers; $((SECS + 1)) snapshots, 1 s apart, each tool in turn"
n=$((SECS + 1))
# the same tree: the groups below $G
"$RG" --backend cgroup1 --root "${H[0]}" top -b -n 1 -d 1 "$G" | tail -n +2 | wc -l |
	{ read -r rows; [ "$rows" -eq $((N + 1)) ] || { echo "top.sh: rgctl top shows $rows groups, not $((N + 1))"; exit 1; }; } || exit 1
systemd-cgtop -b -n 1 -d 1 --depth=2 "/$G" | grep -c "^/$G/g" |
	{ read -r rows; [ "$rows" -eq "$N" ] || echo "top.sh: note: systemd-cgtop shows $rows of the $N groups"; }
res() {	# res NAME CMD...: one runcost, "WALL_US CPU_US"
	local w c
	read -r w c < <("$RC" -q "${@:2}") && [ -n "${c:-}" ] || { echo "top.sh: $1 failed"; exit 1; }
	echo "$w $c"
}
# live: in a 160x50 tmux pane, the shell's `times` after the tool exits
live() {	# live NAME CMD...: "WALL_US CPU_US"
	local f=$work/$1.times i
	cat >"$work/$1.sh" <<EOS
s=\$(date +%s%N)
$(printf '%q ' "${@:2}") >/dev/tty
e=\$(date +%s%N)
times >'$f.raw'
echo "\$(( (e - s) / 1000 )) \$(sed -n 2p '$f.raw')" >'$f.tmp' && mv '$f.tmp' '$f'
EOS
	tmux -L "$sock" new-session -d -s "$1" -x 160 -y 50 "bash '$work/$1.sh'"
	for ((i = 0; i < (n + 60) * 10; i++)); do [ -s "$f" ] && break; sleep 0.1; done
	[ -s "$f" ] || { echo "top.sh: $1 did not finish"; exit 1; }
	# "WALL 0m0.120s 0m0.340s": children's user and system time
	awk '{ split($2, u, /[ms]/); split($3, y, /[ms]/)
		printf "%d %d\n", $1, (u[1] * 60 + u[2] + y[1] * 60 + y[2]) * 1e6 }' "$f"
}
read -r sw sc < <(res start "$RG" --backend cgroup1 --root "${H[0]}" top -b -n 1 -d 1 "$G")
read -r lrw lrc < <(live rgctl "$RG" --backend cgroup1 --root "${H[0]}" top -n "$n" -d 1 "$G")
read -r lcw lcc < <(live cgtop systemd-cgtop -n "$n" -d 1 --depth=2 "/$G")
read -r rw rc < <(res rgctl "$RG" --backend cgroup1 --root "${H[0]}" top -b -n "$n" -d 1 "$G")
read -r cw cc < <(res cgtop systemd-cgtop -b -n "$n" -d 1 --depth=2 "/$G")
pct() { awk -v c="$1" -v w="$2" 'BEGIN { printf "%.2f", 100 * c / w }'; }
row() {	# row NAME WALL_US CPU_US
	printf "%-22s %8.1f %9.1f %11s\n" "$1" "$(awk -v w="$2" 'BEGIN { print w / 1e6 }')" \
		"$(awk -v c="$3" 'BEGIN { print c / 1e3 }')" "$(pct "$3" "$2")"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
printf "%-22s %8s %9s %11s\n" "" wall_s cpu_ms "% of 1 CPU"
row "rgctl top (live)" "$lrw" "$lrc"
row "systemd-cgtop (live)" "$lcw" "$lcc"
row "rgctl top -b" "$rw" "$rc"
row "systemd-cgtop -b" "$cw" "$cc"
row "rgctl top start" "$sw" "$sc"
echo "rgctl top live without its start (-b -n 1 cost): $(pct $((lrc - sc)) "$lrw")% of one CPU"
echo "systemd-cgtop / rgctl top CPU: live $(ratio "$lcc" "$lrc")x, batch $(ratio "$cc" "$rc")x"
