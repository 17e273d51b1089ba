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
# Every figure is given for the previous build too, in the same run:
# PREV=DIR names its build directory, else PREV_REV (default HEAD~1) is
# built into BUILD_DIR/../bench-prev (git archive, scripts/build.sh);
# PREV=none leaves it out.
# Only the ratios mean anything: the machine is shared.  Not run by ctest.
set -eu
B=$(cd "${1:?usage: run.sh BUILD_DIR [SITES]}" && pwd)
n=${2:-200000}
here=$(cd "$(dirname "$0")" && pwd)
lt="$B/src/likelytop/likelytop"
top=$(cd "$here/../.." && pwd)
if [ "${PREV:-}" = none ]; then
	lp=
elif [ -n "${PREV:-}" ]; then
	lp="$(cd "$PREV" && pwd)/src/likelytop/likelytop"
else
	rev=$(git -C "$top" rev-parse --short "${PREV_REV:-HEAD~1}")
	pd="$(dirname "$B")/bench-prev-$rev"
	if [ ! -x "$pd/build/src/likelytop/likelytop" ]; then
		echo "building the previous build ($rev) in $pd"
		rm -rf "$pd" && mkdir -p "$pd/src"
		git -C "$top" archive "$rev" | tar -x -C "$pd/src"
		"$pd/src/scripts/build.sh" "$pd/build" >/dev/null
	fi
	lp="$pd/build/src/likelytop/likelytop"
fi
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
[ -n "$lp" ] && echo "previous build: $lp"
echo
echo "== 1. one batch iteration vs sort -t'|' -k3 -n (same file, runs interleaved)"
runs=${RUNS:-21}
names=("sort -t'|' -k3 -n" "likelytop -b" "likelytop -b --format csv" "likelytop -b --format json" "LC_ALL=C sort -t'|' -k3 -n"
       "likelytop -b (branch_all)" "sort -k1 -n (branch_all)")
cmds=("sort -t| -k3 -n $tmp/prof" "$lt -b -f $tmp/prof" "$lt -b -f $tmp/prof --format csv" "$lt -b -f $tmp/prof --format json"
      "env LC_ALL=C sort -t| -k3 -n $tmp/prof"
      "$lt -b -f $tmp/all" "sort -k1 -n $tmp/all")
peer=(0 0 0 0 0 6 6)	# the sort each line is compared with
if [ -n "$lp" ]; then
	names+=("previous: likelytop -b" "previous: likelytop -b --format csv" "previous: likelytop -b --format json" "previous: likelytop -b (branch_all)")
	cmds+=("$lp -b -f $tmp/prof" "$lp -b -f $tmp/prof --format csv" "$lp -b -f $tmp/prof --format json" "$lp -b -f $tmp/all")
	peer+=(0 0 0 6)
fi
for w in 1 2; do for c in "${cmds[@]}"; do $c >/dev/null; done; done	# warm the page cache
for r in $(seq "$runs"); do
	for i in "${!cmds[@]}"; do
		/usr/bin/time -a -o "$tmp/t$i" -f "%e %U %S %M" ${cmds[$i]} >/dev/null
	done
done
med() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
echo "  (medians of $runs runs; cpu = user + sys; x sort = this / its sort, <= 0.50 is the goal)"
for i in "${!cmds[@]}"; do
	p=${peer[$i]}
	wall=$(awk '{ print $1 }' "$tmp/t$i" | med)
	cpu=$(awk '{ print $2 + $3 }' "$tmp/t$i" | med)
	rss=$(awk '{ print $4 }' "$tmp/t$i" | med)
	bw=$(awk '{ print $1 }' "$tmp/t$p" | med)
	bc=$(awk '{ print $2 + $3 }' "$tmp/t$p" | med)
	br=$(awk '{ print $4 }' "$tmp/t$p" | med)
	awk -v n="${names[$i]}" -v w="$wall" -v c="$cpu" -v m="$rss" -v bw="$bw" -v bc="$bc" -v br="$br" 'BEGIN {
		printf "  %-38s wall %5.0f ms, cpu %5.0f ms, peak RSS %5.1f MB   x sort: cpu %.2fx, wall %.2fx, RSS %.2fx\n",
		       n, w * 1000, c * 1000, m / 1024, (bc > 0 ? c / bc : 0), (bw > 0 ? w / bw : 0), (br > 0 ? m / br : 0) }'
done

# CPU seconds (utime + stime) of a pid, from /proc/PID/stat.
cpu() { awk -v hz="$(getconf CLK_TCK)" '{ print ($14 + $15) / hz }' "/proc/$1/stat"; }
# live NAME CMD... [-- NAME2 CMD2...]: run CMD (and CMD2, at the same
# time, so that both see the same load) in 132x40 tmux panes for $secs s;
# print their CPU % of one CPU.
live() {
	local names=() pids=() c0=() c1=() t0 t1 i cmd=()
	while [ $# -gt 0 ]; do
		names+=("$1"); shift
		cmd=()
		while [ $# -gt 0 ] && [ "$1" != -- ]; do cmd+=("$1"); shift; done
		[ $# -gt 0 ] && shift
		tmux -L "$sock" new-session -d -s "${names[-1]}" -x 132 -y 40 "$(printf '%q ' "${cmd[@]}")"
	done
	sleep 3	# the first read and draw are not what is measured
	# keys to press first ($keys, e.g. z: counts from now on)
	for i in "${!names[@]}"; do
		[ -z "${keys:-}" ] || tmux -L "$sock" send-keys -t "${names[$i]}" $keys
		pids+=("$(tmux -L "$sock" list-panes -t "${names[$i]}" -F '#{pane_pid}')")
	done
	[ -z "${keys:-}" ] || sleep 1
	t0=$(date +%s.%N)
	for i in "${!pids[@]}"; do c0+=("$(cpu "${pids[$i]}")"); done
	sleep "$secs"
	for i in "${!pids[@]}"; do c1+=("$(cpu "${pids[$i]}")"); done
	t1=$(date +%s.%N)
	for i in "${!names[@]}"; do
		tmux -L "$sock" kill-session -t "${names[$i]}"
		awk -v a="${c0[$i]}" -v b="${c1[$i]}" -v s="$t0" -v e="$t1" 'BEGIN { printf "%.2f ", (b - a) * 100 / (e - s) }'
	done
}
echo
echo "== 2. live view, -d 1, ${secs}s each (CPU % of one CPU; goal <= 1%)"
echo "  (this build and the previous one run side by side, over the same ${secs}s)"
# both LABEL CMD-after-binary...: this build's figure, and the previous one's
both() {
	local label=$1 name=$2 f f1 f2=""
	shift 2
	if [ -n "$lp" ]; then
		f=$(live "$name" "$lt" "$@" -- "${name}p" "$lp" "$@")
	else
		f=$(live "$name" "$lt" "$@")
	fi
	f1=${f%% *}
	if [ -n "$lp" ]; then
		f2=$(echo "$f" | awk '{ printf "%s, this/previous %.2f", $2, ($2 > 0 ? $1 / $2 : 0) }')
	fi
	printf '  %-52s %6s%%%s\n' "$label" "$f1" "${f2:+   (previous build: $f2)}"
}
both "likelytop -d 1 -f (static 200k-site file)" a -d 1 -f "$tmp/prof"
# moving NAME LABEL A B: the live view on a file that is A and B in turn,
# replaced every second (as a profiled program rewrites its profile).
moving() {
	local name=$1 label=$2 a=$3 b=$4 mover
	cp "$a" "$tmp/moving"
	( i=0; while :; do i=$((i + 1)); src=$a; [ $((i % 2)) = 0 ] && src=$b
	  cp "$src" "$tmp/.m"; mv "$tmp/.m" "$tmp/moving"; sleep 1; done ) &
	mover=$!
	both "$label" "$name" -d 1 -f "$tmp/moving"
	kill "$mover" 2>/dev/null || true
}
moving b "likelytop -d 1 -f (file rewritten every second)" "$tmp/prof" "$tmp/prof2"
moving d "likelytop -d 1 -f (branch_all, rewritten every second)" "$tmp/all" "$tmp/all2"
# zeroed (z): every refresh also rebases on a snapshot older than the last
keys=z moving f "likelytop -d 1 -f (rewritten every second, zeroed)" "$tmp/prof" "$tmp/prof2"
printf '  %-52s %6s%%\n' "top -d 1 (peer, for scale)" "$(live c top -d 1 | awk '{ print $1 }')"
# The static profile on a /proc-like file (pseudofs serves src/prof.1 on
# every open): no stat shortcut there, every refresh reads the bytes.
pfs="$B/tests/likelytop/pseudofs"
if [ -x "$pfs" ] && [ -c /dev/fuse ]; then
	mkdir -p "$tmp/psrc" "$tmp/pfs"
	ln "$tmp/prof" "$tmp/psrc/prof.1"
	"$pfs" "$tmp/psrc" "$tmp/pfs" -f -s &
	for i in $(seq 50); do mountpoint -q "$tmp/pfs" && break; sleep 0.1; done
	both "likelytop -d 1 -f (static, /proc-like FUSE file)" e -d 1 -f "$tmp/pfs/prof"
else
	echo "  (no pseudofs in $B or no /dev/fuse: the /proc-like case is not measured)"
fi
