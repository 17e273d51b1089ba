#!/bin/bash
# Classification latency (exec -> membership, 1,000 execs) and processes
# missed under a fork storm: rgctl classify (the event path, and
# --at-exec) against libcgroup's cgrulesengd (Debian cgroup-tools) on an
# equivalent rule, in the same run, on the cgroup v1 cpu hierarchy; and
# what each costs an exec storm of /bin/true (alternating pairs without
# and with the daemon; the median of the pairs' ratios).  Needs root.
#   bench/classify/run.sh [BUILD_DIR] [EXECS] [SHORT] [LONG] [PAIRS] [STORM]
# /etc/cgrules.conf is restored (or removed) and both daemons are stopped
# on exit.  Not part of ctest.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$top/out/build}
EXECS=${2:-1000}
SHORT=${3:-5000}
LONG=${4:-300}
PAIRS=${5:-10}		# exec storms with and without each daemon
STORM=${6:-2000}	# execs of /bin/true in one
RGCTL=$build/src/rgctl/rgctl
DRIVER=$build/bench/classify/bench_classify
[ "$(id -u)" = 0 ] || { echo "run as root"; exit 1; }
[ -x "$RGCTL" ] && [ -x "$DRIVER" ] || { echo "build first: $RGCTL, $DRIVER"; exit 1; }
command -v cgrulesengd >/dev/null || { echo "cgrulesengd missing (apt-get install cgroup-tools)"; exit 1; }
CPU=$(awk '{ for (i = 7; $i != "-"; i++); if ($(i+1) == "cgroup" && ("," $(i+3) ",") ~ /,cpu,/) { print $5; exit } }' /proc/self/mountinfo)
[ -n "$CPU" ] || { echo "no cgroup v1 cpu hierarchy"; exit 1; }

WORK=$(mktemp -d)
NAME=rgdbench.$$
ROOT=$CPU/$NAME
DAEMON=
RULES=/etc/cgrules.conf
SAVED=
[ -e $RULES ] && { SAVED=$WORK/cgrules.conf.saved; cp -a $RULES "$SAVED"; }
SOCKET_EXISTED=0; [ -e /var/run/cgred.socket ] && SOCKET_EXISTED=1
# cgrulesengd refuses to start without /etc/cgconfig.conf and /etc/cgconfig.d
MADE_CGCONFIG_D=0; [ -d /etc/cgconfig.d ] || { mkdir /etc/cgconfig.d && MADE_CGCONFIG_D=1; }
MADE_CGCONFIG=0; [ -e /etc/cgconfig.conf ] || { : >/etc/cgconfig.conf && MADE_CGCONFIG=1; }

cleanup() {
	[ -n "$DAEMON" ] && kill "$DAEMON" 2>/dev/null && wait "$DAEMON" 2>/dev/null
	if [ -n "$SAVED" ]; then cp -a "$SAVED" $RULES; else rm -f $RULES; fi
	[ $SOCKET_EXISTED = 1 ] || rm -f /var/run/cgred.socket
	[ $MADE_CGCONFIG_D = 1 ] && rmdir /etc/cgconfig.d
	[ $MADE_CGCONFIG = 1 ] && rm -f /etc/cgconfig.conf
	if [ -d "$ROOT" ]; then
		for d in $(find "$ROOT" -depth -type d); do
			while read -r p; do kill -KILL "$p" 2>/dev/null; echo "$p" >"$CPU/cgroup.procs" 2>/dev/null; done <"$d/cgroup.procs"
			rmdir "$d" 2>/dev/null || { sleep 0.2; rmdir "$d"; }
		done
	fi
	rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

mkdir -p "$ROOT/target"
TARGET=$WORK/rgdbench-tgt
cp "$DRIVER" "$TARGET"
CGPATH=/$NAME/target
printf 'groups = ({ name = "target"; });\nrules = ({ group = "target"; comm = "rgdbench-tgt"; });\n' >"$WORK/rgctl.conf"
printf 'groups = ({ name = "target"; });\nrules = ({ group = "target"; exe = "%s"; });\n' "$TARGET" >"$WORK/rgctl-exe.conf"
printf '*:rgdbench-tgt\tcpu\t%s/target\n' "$NAME" >$RULES

empty_group() {	# move what is left back to the root, kill it
	while read -r p; do kill -KILL "$p" 2>/dev/null; echo "$p" >"$CPU/cgroup.procs" 2>/dev/null; done <"$ROOT/target/cgroup.procs"
	sleep 0.5
}

cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0; }

start_daemon() {	# start_daemon rgctl|rgctl-atexec|rgctl-exe|cgrulesengd
	local ready= i
	case $1 in
	rgctl)	"$RGCTL" --root "$ROOT" classify -v "$WORK/rgctl.conf" 2>>"$WORK/rgctl.log" & DAEMON=$!
		ready="scan (start)" ;;
	rgctl-atexec)	# a comm rule: every filesystem's execs wait for it
		"$RGCTL" --root "$ROOT" classify -v --at-exec=required "$WORK/rgctl.conf" 2>>"$WORK/rgctl.log" & DAEMON=$!
		ready="placing processes at exec" ;;
	rgctl-exe)	# only an exe rule: only the target's execs wait
		"$RGCTL" --root "$ROOT" classify -v --at-exec=required "$WORK/rgctl-exe.conf" 2>>"$WORK/rgctl.log" & DAEMON=$!
		ready="placing processes at exec" ;;
	*)	cgrulesengd -n -f "$WORK/cgred.log" & DAEMON=$! ;;
	esac
	# cgrulesengd says nothing when ready: a second
	if [ -z "$ready" ]; then sleep 1; else
		for ((i = 0; i < 200; i++)); do
			[ "$(grep -c "$ready" "$WORK/rgctl.log")" -gt "${STARTS:-0}" ] && break
			kill -0 "$DAEMON" 2>/dev/null || break
			sleep 0.05
		done
		STARTS=$(grep -c "$ready" "$WORK/rgctl.log")
	fi
	kill -0 "$DAEMON" 2>/dev/null || { echo "$1 did not start: $(tail -2 "$WORK/rgctl.log")"; DAEMON=; exit 1; }
}
stop_daemon() { kill "$DAEMON"; wait "$DAEMON" 2>/dev/null; DAEMON=; empty_group; }

summary() {	# summary RAWFILE: median and p99 of the classified, and misses
	sort -n "$1" | awk '$1 < 0 { miss++; next } { v[n++] = $1 }
		$2 == 0 { out++ }
		END { printf "%d execs: median %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms, not classified within 2 s: %d, ran outside its group: %d\n",
			n + miss, v[int(n / 2)] / 1e6, v[int(n * 0.9)] / 1e6, v[int(n * 0.99)] / 1e6, v[n - 1] / 1e6, miss, out }'
}

echo "kernel $(uname -r), $(nproc) CPUs, $(ls /proc | grep -c '^[0-9]') processes; cgroup-tools $(dpkg-query -W -f='${Version}' cgroup-tools 2>/dev/null)"
# Latency: 4 alternating rounds, so both see the same machine.
ROUNDS=4
for ((r = 1; r <= ROUNDS; r++)); do
	for d in rgctl rgctl-atexec cgrulesengd; do
		start_daemon $d
		"$DRIVER" latency $((EXECS / ROUNDS)) "$TARGET" "$CGPATH" "$WORK/lat.$d" >/dev/null
		stop_daemon
	done
done
echo "latency, exec() to membership (rgctl classify): $(summary "$WORK/lat.rgctl")"
echo "latency, exec() to membership (rgctl --at-exec): $(summary "$WORK/lat.rgctl-atexec")"
echo "latency, exec() to membership (cgrulesengd):    $(summary "$WORK/lat.cgrulesengd")"
# Fork storm: each daemon twice.
for r in 1 2; do
	for d in rgctl cgrulesengd; do
		start_daemon $d
		t0=$(cpu_ticks "$DAEMON")
		echo "storm $r, $d: $("$DRIVER" storm "$SHORT" "$LONG" "$TARGET" "$CGPATH" 3000)," \
			"daemon CPU $(( ($(cpu_ticks "$DAEMON") - t0) * 1000 / $(getconf CLK_TCK) )) ms"
		stop_daemon
	done
done
echo "rgctl classify: $(grep -c 'were lost' "$WORK/rgctl.log") loss reports (each followed by a rescan)"
echo "cgrulesengd: $(grep -ci 'buffer full' "$WORK/cgred.log" 2>/dev/null) 'NETLINK BUFFER FULL' reports in its log"

# The cost of an exec storm: PAIRS alternating pairs (without and with the
# daemon, in turn first) of STORM execs of /bin/true; the median of the pairs' ratios.
median() { sort -g | awk '{ v[n++] = $1 } END { print v[int(n / 2)] }'; }
TRUE=$(command -v true)
for d in rgctl rgctl-atexec rgctl-exe cgrulesengd; do
	: >"$WORK/ratios.$d"
	for ((r = 1; r <= PAIRS; r++)); do
		# odd pairs measure without first, even ones with: an order
		# effect (caches, the other sessions' rhythm) cancels out
		((r % 2)) && without=$("$DRIVER" execs "$STORM" "$TRUE")
		start_daemon $d
		with=$("$DRIVER" execs "$STORM" "$TRUE")
		stop_daemon
		((r % 2)) || without=$("$DRIVER" execs "$STORM" "$TRUE")
		echo "$with $without" | awk '{ printf "%.4f\n", $1 / $2 }' >>"$WORK/ratios.$d"
		echo "$without" >>"$WORK/without.$d"
		echo "$with" >>"$WORK/with.$d"
	done
	sort -g "$WORK/ratios.$d" | awk -v d="$d" -v n="$STORM" -v w="$(median <"$WORK/without.$d")" -v x="$(median <"$WORK/with.$d")" \
		'{ v[k++] = $1 } END { printf "exec storm (%d x /bin/true), %s: median %.1f us/exec without, %.1f with; ratio with/without: median %.3f, min %.3f, max %.3f (%d pairs)\n",
			n, d, w / n / 1e3, x / n / 1e3, v[int(k / 2)], v[0], v[k - 1], k }'
done
echo "(rgctl-exe: --at-exec with only an exe rule, which names no /bin/true: its execs are not marked)"
