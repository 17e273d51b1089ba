#!/bin/bash
# bench/likelytop/run.sh BUILD_DIR [SITES]: likelytop on a 200,000-site
# profile (what CONFIG_PROFILE_ALL_BRANCHES gives on a large kernel),
# side by side with its peer in the same run:
#  1. one batch iteration (read, parse, sort, print) against
#     `sort -t'|' -k3 -n` on the same file (runs interleaved, medians of
#     wall-clock and CPU time from /usr/bin/time);
#  2. the live view refreshing every second: CPU time over 20 s, on the
#     static file and on a file rewritten every second (as a profiled
#     program does), for /proc/likely_prof rows and for tracefs
#     branch_all rows (CONFIG_PROFILE_ALL_BRANCHES' own format),
#     compared with `top -d 1` measured the same way; and the static
#     file served by tests' pseudofs (FUSE, size 0 and a fixed mtime, as
#     /proc and tracefs files are), which likelytop must re-read and
#     re-parse every refresh; and the rewritten file with the counts
#     zeroed (z), which rebases every snapshot on an older one.
# Only the ratios mean anything: the machine is shared.  Not run by ctest.
set -eu
B=$(cd "${1:?usage: run.sh BUILD_DIR [SITES]}" && pwd)
n=${2:-200000}
here=$(cd "$(dirname "$0")" && pwd)
lt="$B/src/likelytop/likelytop"
secs=${LIVE_SECONDS:-20}
for t in tmux awk /usr/bin/time; do
	command -v $t >/dev/null || { echo "bench: $t missing (scripts/deps.sh installs it)"; exit 1; }
done
tmp=$(mktemp -d)
sock="lt-bench-$$"
cleanup() {
	set +e	# each step runs (no server left is not an error here)
	tmux -L "$sock" kill-server 2>/dev/null
	# unmount before pseudofs is killed: a dead FUSE mount fails mountpoint -q
	grep -qF " $tmp/pfs " /proc/mounts && { fusermount3 -u "$tmp/pfs" 2>/dev/null || umount -l "$tmp/pfs"; }
	kill $(jobs -p) 2>/dev/null
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

awk -v n="$n" -v seed=1 -f "$here/gen_profile.awk" >"$tmp/prof"
awk -v n="$n" -v seed=2 -f "$here/gen_profile.awk" >"$tmp/prof2"
awk -v n="$n" -v seed=1 -v fmt=all -f "$here/gen_profile.awk" >"$tmp/all"
awk -v n="$n" -v seed=2 -v fmt=all -f "$here/gen_profile.awk" >"$tmp/all2"
echo "profile: $n sites, $(du -h "$tmp/prof" | cut -f1), $(nproc) CPUs, $(uname -r)"
echo
echo "== 1. one batch iteration vs sort -t'|' -k3 -n (same file, runs interleaved)"
runs=${RUNS:-21}
names=("likelytop -b" "likelytop -b --format csv" "likelytop -b --format json" "sort -t'|' -k3 -n" "LC_ALL=C sort -t'|' -k3 -n"
       "likelytop -b (branch_all)" "sort -k1 -n (branch_all)")
cmds=("$lt -b -f $tmp/prof" "$lt -b -f $tmp/prof --format csv" "$lt -b -f $tmp/prof --format json"
      "sort -t| -k3 -n $tmp/prof" "env LC_ALL=C sort -t| -k3 -n $tmp/prof"
      "$lt -b -f $tmp/all" "sort -k1 -n $tmp/all")
for w in 1 2; do for c in "${cmds[@]}"; do $c >/dev/null; done; done	# warm the page cache
for r in $(seq "$runs"); do
	for i in "${!cmds[@]}"; do
		/usr/bin/time -a -o "$tmp/t$i" -f "%e %U %S" ${cmds[$i]} >/dev/null
	done
done
med() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
base=$(awk '{ print $1 }' "$tmp/t3" | med)
basecpu=$(awk '{ print $2 + $3 }' "$tmp/t3" | med)
for i in "${!cmds[@]}"; do
	wall=$(awk '{ print $1 }' "$tmp/t$i" | med)
	cpu=$(awk '{ print $2 + $3 }' "$tmp/t$i" | med)
	awk -v n="${names[$i]}" -v w="$wall" -v c="$cpu" -v b="$base" -v bc="$basecpu" -v r="$runs" 'BEGIN {
		printf "  %-28s median wall %6.0f ms, cpu %6.0f ms   sort/this: wall %.2fx, cpu %.2fx  (%d runs)\n",
		       n, w * 1000, c * 1000, (w > 0 ? b / w : 0), (c > 0 ? bc / c : 0), r }'
done

# CPU seconds (utime + stime) of a pid, from /proc/PID/stat.
cpu() { awk -v hz="$(getconf CLK_TCK)" '{ print ($14 + $15) / hz }' "/proc/$1/stat"; }
# live NAME CMD...: run CMD in a 132x40 tmux pane for $secs s; print its CPU %.
live() {
	local name=$1 pid c0 c1 t0 t1
	shift
	tmux -L "$sock" new-session -d -s "$name" -x 132 -y 40 "$(printf '%q ' "$@")"
	sleep 3	# the first read and draw are not what is measured
	# keys to press first ($keys, e.g. z: counts from now on)
	[ -z "${keys:-}" ] || { tmux -L "$sock" send-keys -t "$name" $keys; sleep 1; }
	pid=$(tmux -L "$sock" list-panes -t "$name" -F '#{pane_pid}')
	c0=$(cpu "$pid"); t0=$(date +%s.%N)
	sleep "$secs"
	c1=$(cpu "$pid"); t1=$(date +%s.%N)
	tmux -L "$sock" kill-session -t "$name"
	awk -v a="$c0" -v b="$c1" -v s="$t0" -v e="$t1" 'BEGIN { printf "%.2f", (b - a) * 100 / (e - s) }'
}
echo
echo "== 2. live view, -d 1, ${secs}s each (CPU % of one CPU)"
printf '  %-52s %s%%\n' "likelytop -d 1 -f (static 200k-site file)" "$(live a "$lt" -d 1 -f "$tmp/prof")"
# moving NAME LABEL A B: the live view on a file that is A and B in turn,
# replaced every second (as a profiled program rewrites its profile).
moving() {
	local name=$1 label=$2 a=$3 b=$4 mover
	cp "$a" "$tmp/moving"
	( i=0; while :; do i=$((i + 1)); src=$a; [ $((i % 2)) = 0 ] && src=$b
	  cp "$src" "$tmp/.m"; mv "$tmp/.m" "$tmp/moving"; sleep 1; done ) &
	mover=$!
	printf '  %-52s %s%%\n' "$label" "$(live "$name" "$lt" -d 1 -f "$tmp/moving")"
	kill "$mover" 2>/dev/null || true
}
moving b "likelytop -d 1 -f (file rewritten every second)" "$tmp/prof" "$tmp/prof2"
moving d "likelytop -d 1 -f (branch_all, rewritten every second)" "$tmp/all" "$tmp/all2"
# zeroed (z): every refresh also rebases on a snapshot older than the last
keys=z moving f "likelytop -d 1 -f (rewritten every second, zeroed)" "$tmp/prof" "$tmp/prof2"
printf '  %-52s %s%%\n' "top -d 1 (peer, for scale)" "$(live c top -d 1)"
# The static profile on a /proc-like file (pseudofs serves src/prof.1 on
# every open): no stat shortcut there, every refresh reads and parses.
pfs="$B/tests/likelytop/pseudofs"
if [ -x "$pfs" ] && [ -c /dev/fuse ]; then
	mkdir -p "$tmp/psrc" "$tmp/pfs"
	ln "$tmp/prof" "$tmp/psrc/prof.1"
	"$pfs" "$tmp/psrc" "$tmp/pfs" -f -s &
	for i in $(seq 50); do mountpoint -q "$tmp/pfs" && break; sleep 0.1; done
	printf '  %-52s %s%%\n' "likelytop -d 1 -f (static, /proc-like FUSE file)" "$(live e "$lt" -d 1 -f "$tmp/pfs/prof")"
else
	echo "  (no pseudofs in $B or no /dev/fuse: the /proc-like case is not measured)"
fi
