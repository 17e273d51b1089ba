#!/bin/bash
# Placement is whole or a miss (issue 43 items 1 and 2).  On cgroup v1 a
# group is a directory in each of cpu, cpuacct, memory, pids and blkio; a
# process counts as placed only when every one of them has it.  CHAINS
# double-fork chains a round ("( sleeper 60 & ); exit 0", half through
# setsid), ROUNDS rounds, with a comm rule and with an exe rule, on the
# event path and with --at-exec; each sleeper's /proc/PID/cgroup is read
# for every hierarchy the group spans:
#  - split (in the group in some hierarchies only): never, after a bound;
#  - escaped (in none): only when the daemon logged its chain as missed;
#  - -vv never says "no rule matches" about a chain (its comm is the rule's).
# The event path runs with slow_attach.so, which sleeps after each member
# write, so that a chain forks while it is being moved (the half-done
# move the daemon must find and complete; "completed the move" lines).
# A daemon that marks filesystems holds every exec: ctest runs this alone.
# whole.sh [CHAINS ROUNDS]
. "$SRC_DIR/tests/rgctl/tasks_lib.sh"
require_root "creates groups in the cgroup v1 hierarchies"
needs_libconfig
needs_libmnl
CPU=$(cpu_mount)
[ -n "$CPU" ] || skip_test "no cgroup v1 cpu hierarchy mounted"
mount_ctl() {	# mount_ctl CONTROLLER: the v1 hierarchy that has it
	awk -v c="$1" '{ for (i = 7; $i != "-"; i++); if ($(i+1) == "cgroup" && ("," $(i+3) ",") ~ ("," c ",")) { print $5; exit } }' /proc/self/mountinfo
}
SPANS=("$CPU") CTLS=(cpu)
for c in cpuacct memory pids blkio; do
	m=$(mount_ctl $c)
	[ -n "$m" ] && [ "$m" != "$CPU" ] && SPANS+=("$m") CTLS+=("$c")
done
[ "${#SPANS[@]}" -ge 2 ] || skip_test "needs a second v1 hierarchy beside cpu's (this host: only $CPU)"
echo "hierarchies: ${CTLS[*]}"
CHAINS=${1:-40}
ROUNDS=${2:-5}
[ "${SANITIZE:-OFF}" = ON ] && ROUNDS=${2:-2}
BOUND=${RGD_WHOLE_BOUND:-300}
WORK=$(mktemp -d)
export RGCTL_RUNDIR="$WORK/run"
tag=$$
G=rgdtest.whole.$tag.$RANDOM
CHAIN=rgdW$tag		# a copy of sh: the comm and exe rules' program
SLEEPER=rgdY$tag	# a copy of sleep: matches no rule, follows its chain
cp "$(readlink -f /bin/sh)" "$WORK/$CHAIN"
cp "$(command -v sleep)" "$WORK/$SLEEPER"
chmod 755 "$WORK/$CHAIN" "$WORK/$SLEEPER"
DPIDS=()
sleepers() { pgrep -x "$SLEEPER"; }
kill_sleepers() {
	local p i left
	for ((i = 0; i < 100; i++)); do
		left=0
		for p in $(sleepers); do kill -KILL "$p" 2>/dev/null; left=1; done
		[ $left = 0 ] && return 0
		sleep 0.1
	done
	return 1
}
cleanup() {
	local p h d
	kill_sleepers
	for p in "${DPIDS[@]}"; do kill -KILL "$p" 2>/dev/null; done
	for p in "${DPIDS[@]}"; do wait "$p" 2>/dev/null; done
	for h in "${SPANS[@]}"; do
		for d in "$h/$G/a" "$h/$G"; do
			[ -d "$d" ] || continue
			for _ in $(seq 50); do rmdir "$d" 2>/dev/null && break; sleep 0.1; done
		done
	done
	rm -rf "$WORK"
}
trap cleanup EXIT
cd "$WORK" || exit 1
run "$RGCTL" --root "$CPU" create "$G" "$G/a"
expect_rc 0 "create $G/a in every hierarchy"
[ "$T_FAILS" = 0 ] || finish
printf 'groups = ({ name = "%s"; }, { name = "%s/a"; });\nrules = ({ group = "%s/a"; comm = "%s"; });\n' \
	"$G" "$G" "$G" "$CHAIN" >comm.conf
printf 'groups = ({ name = "%s"; }, { name = "%s/a"; });\nrules = ({ group = "%s/a"; exe = "%s"; });\n' \
	"$G" "$G" "$G" "$WORK/$CHAIN" >exe.conf

# place PID: whole (in $G/a in every spanned hierarchy), none, or split
place() {
	local n=0 c line
	[ -r "/proc/$1/cgroup" ] || { echo gone; return; }
	for c in "${CTLS[@]}"; do
		line=$(grep -E "^[0-9]+:([a-z_,]*,)?$c(,[a-z_,]*)?:" "/proc/$1/cgroup")
		[ "${line#*:*:}" = "/$G/a" ] && n=$((n + 1))
	done
	if [ $n = ${#CTLS[@]} ]; then echo whole; elif [ $n = 0 ]; then echo none; else echo split; fi
}

DAEMON= T=
start_daemon() {	# start_daemon LOG READY-REGEX CONF [options...]
	local log=$1 ready=$2 conf=$3 i asan=${ASAN_OPTIONS:-}
	shift 3
	[ -z "${PRELOAD:-}" ] || asan=${asan:+$asan:}verify_asan_link_order=0
	LD_PRELOAD=${PRELOAD:-} ASAN_OPTIONS=$asan \
		timeout -s KILL "$BOUND" "$RGCTL" --root "$CPU" classify "$@" "$conf" 2>"$log" & T=$!
	DPIDS+=($T)
	for ((i = 0; i < 500; i++)); do DAEMON=$(pgrep -P $T) && break; sleep 0.02; done
	DPIDS+=($DAEMON)
	for ((i = 0; i < 600; i++)); do
		grep -Eq "$ready" "$log" && return 0
		kill -0 "$DAEMON" 2>/dev/null || break
		sleep 0.05
	done
	return 1
}
stop_daemon() { kill -TERM "$DAEMON" 2>/dev/null; wait "$T"; }

chains() {	# CHAINS chains at once, half through setsid; returns when each has exited
	local i cp=()
	for ((i = 0; i < CHAINS; i++)); do
		if ((i % 2)); then
			"$WORK/$CHAIN" -c "export RGD_CHAIN=\$\$; ( setsid '$WORK/$SLEEPER' 60 & ); exit 0" & cp+=($!)
		else
			"$WORK/$CHAIN" -c "export RGD_CHAIN=\$\$; ( '$WORK/$SLEEPER' 60 & ); exit 0" & cp+=($!)
		fi
	done
	wait "${cp[@]}"
}

# storm LABEL TENTHS: ROUNDS rounds; sets SEEN, SPLIT, ESC, UNLOGGED
storm() {
	local label=$1 tenths=$2 r i p n k st chain bad
	SEEN=0 SPLIT=0 ESC=0 UNLOGGED=0
	for ((r = 0; r < ROUNDS; r++)); do
		chains
		for ((i = 0; i < 100; i++)); do
			n=$(sleepers | wc -l)
			[ "$n" -ge "$CHAINS" ] && break
			sleep 0.1
		done
		SEEN=$((SEEN + n))
		[ "$n" = "$CHAINS" ] || echo "$label round $r: $n sleepers, not $CHAINS"
		# every sleeper whole, polled up to TENTHS tenths of a second
		for ((k = 0; ; k++)); do
			bad=
			for p in $(sleepers); do
				st=$(place "$p")
				[ "$st" = whole ] || [ "$st" = gone ] || bad+="$p:$st "
			done
			[ -z "$bad" ] || [ "$k" -ge "$tenths" ] && break
			sleep 0.1
		done
		for p in $bad; do
			st=${p#*:} p=${p%:*}
			chain=$(tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | sed -n 's/^RGD_CHAIN=//p')
			echo "$label round $r: sleeper $p (chain ${chain:-?}) $st: $(tr '\n' ' ' <"/proc/$p/cgroup" 2>/dev/null)"
			if [ "$st" = split ]; then
				SPLIT=$((SPLIT + 1))
			else
				ESC=$((ESC + 1))
				grep -q "missed ${chain:-none} " "$log_of" || UNLOGGED=$((UNLOGGED + 1))
			fi
		done
		kill_sleepers || fail "$label: sleepers survive SIGKILL for 10 s"
	done
}

for path in events at-exec; do
	for rule in comm exe; do
		label=$path.$rule log_of=daemon.$label.log
		opts=(-vv) ready="scan \\(start\\)"
		PRELOAD=
		if [ $path = at-exec ]; then
			opts=(-v --at-exec) ready="placing processes at exec|cannot place"
		else
			PRELOAD=$BUILD_DIR/tests/rgctl/classify/slow_attach.so
		fi
		start_daemon "$log_of" "$ready" $rule.conf "${opts[@]}" ||
			{ fail "$label: the daemon did not start: $(tail -3 "$log_of")"; continue; }
		if grep -q "cannot place" "$log_of"; then
			echo "SKIP part $label: $(grep -o 'cannot place.*' "$log_of" | head -1)"
			stop_daemon
			continue
		fi
		# --at-exec: whole from the first instruction; events: within 10 s
		storm "$label" "$([ $path = at-exec ] && echo 0 || echo 100)"
		stop_daemon
		[ "$SEEN" -ge $((ROUNDS * CHAINS)) ] && ok || fail "$label: $SEEN sleepers seen, want $((ROUNDS * CHAINS))"
		[ "$SPLIT" = 0 ] && ok || fail "$label: $SPLIT of $SEEN sleepers split between hierarchies"
		[ "$UNLOGGED" = 0 ] && ok || fail "$label: $UNLOGGED of $ESC escaped sleepers' chains not logged as missed"
		# -vv: "no rule matches" is never said of a chain (the rule's comm)
		bad=$(grep -a "($CHAIN): no rule matches" "$log_of" | head -3)
		[ -z "$bad" ] && ok || fail "$label: said no rule matches a chain: $bad"
		if [ "$ESC" != 0 ]; then
			expect_match "$(cat "$log_of")" "[0-9]+ process(es)? missed \\(each logged above\\)" "$label: the misses counted at exit"
		fi
		echo "$label: $SEEN sleepers, $SPLIT split, $ESC escaped ($UNLOGGED not logged);" \
			"$(grep -ac 'completed the move' "$log_of") half-done moves completed;" \
			"$(grep -ac '^rgctl: missed' "$log_of") missed logged"
	done
done
[ -z "${RGD_KEEP:-}" ] || cp daemon.*.log "$RGD_KEEP"
[ "$T_FAILS" = 0 ] || for f in daemon.*.log; do echo "--- $f"; grep -av "moved [0-9]* (\|no rule matches" "$f" | tail -15; done
finish
