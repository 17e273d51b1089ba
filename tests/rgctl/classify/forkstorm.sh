#!/bin/bash
# The double-fork storm of issue 34: CHAINS short-lived processes a comm
# rule matches, each double-forking a sleeper and exiting at once
# ("( sleep 60 & ); exit 0", plain and through setsid), ROUNDS times.
# Every sleeper must end in the rule's group:
#  - with --at-exec: at once (the matched program ran in its group from
#    its first instruction, so what it forked was born there);
#  - on the event path with taskstats exit records: within a bound (a
#    chain that exited before /proc was read is classified by its record);
#  - with the records off ($RGCTL_NO_EXIT_RECORDS): a sleeper may escape,
#    but then the daemon's log names its chain's pid ("missed PID").
# With --at-exec every exec of the machine may wait for the daemon: ctest
# runs this alone (RUN_SERIAL); each daemon dies after a bound (timeout
# -s KILL), and the trap kills every sleeper.
# forkstorm.sh [v1|v2 [CHAINS ROUNDS]]
. "$SRC_DIR/tests/rgctl/tasks_lib.sh"
rgd_setup forkstorm "${1:-v1}"
needs_libconfig
needs_libmnl
# the sanitizer build checks memory: 3 rounds, and a longer bound (10
# rounds under ASan outlived 300 s, and the killed daemon logged nothing)
if [ "${SANITIZE:-OFF}" = ON ]; then ROUNDS_DEF=3 BOUND_DEF=600; else ROUNDS_DEF=10 BOUND_DEF=300; fi
CHAINS=${2:-${RGD_FORKSTORM_CHAINS:-40}}
ROUNDS=${3:-${RGD_FORKSTORM_ROUNDS:-$ROUNDS_DEF}}
BOUND=${RGD_FORKSTORM_BOUND:-$BOUND_DEF}	# seconds a daemon may live
cd "$WORK" || exit 1
tag=$$
CHAIN=rgdF$tag		# the matched program (a #! script)
SLEEPER=rgdZ$tag	# a copy of sleep: found by its name, matches no rule
mkdir "$ROOT/fs"
cp "$(command -v sleep)" "$WORK/$SLEEPER"
# RGD_CHAIN in the sleeper's environment names the chain it came from
cat >"$CHAIN" <<EOF
#!/bin/sh
export RGD_CHAIN=\$\$
if [ "\$1" = setsid ]; then ( setsid "$WORK/$SLEEPER" 60 & ); else ( "$WORK/$SLEEPER" 60 & ); fi
exit 0
EOF
chmod 755 "$CHAIN" "$SLEEPER"
printf 'groups = ({ name = "fs"; });\nrules = ({ group = "fs"; comm = "%s"; });\n' "$CHAIN" >fs.conf

sleepers() { pgrep -x "$SLEEPER"; }
kill_sleepers() {	# kill_sleepers: every sleeper gone, within 10 s
	local p i
	for ((i = 0; i < 100; i++)); do
		local left=0
		for p in $(sleepers); do kill -KILL "$p" 2>/dev/null; left=1; done
		[ $left = 0 ] && return 0
		sleep 0.1
	done
	return 1
}
trap 'kill_sleepers; rgd_cleanup' EXIT

DAEMON=
start_daemon() {	# start_daemon LOG READY-REGEX [classify options...]
	local log=$1 ready=$2 i t
	shift 2
	timeout -s KILL "$BOUND" "$RGCTL" --root "$ROOT" classify -v "$@" fs.conf 2>"$log" & t=$!
	PIDS+=($t)
	for ((i = 0; i < 50; i++)); do DAEMON=$(pgrep -P $t) && break; sleep 0.02; done
	PIDS+=($DAEMON)
	T=$t
	for ((i = 0; i < 200; i++)); do
		grep -Eq "$ready" "$log" && return 0
		kill -0 "$DAEMON" 2>/dev/null || break
		sleep 0.05
	done
	return 1
}
stop_daemon() { kill -TERM "$DAEMON" 2>/dev/null; wait "$T"; }

# chains HOW: CHAINS chains at once; returns when every chain has exited
chains() {
	local i cp=()
	for ((i = 0; i < CHAINS; i++)); do "$WORK/$CHAIN" "$1" & cp+=($!); done
	wait "${cp[@]}"
}

# escaped TENTHS: poll until every sleeper is in the group, at most
# TENTHS tenths of a second; print the ones that are not, one a line
escaped() {
	local i p out
	for ((i = 0; ; i++)); do
		out=
		for p in $(sleepers); do in_group "$p" fs || out+="$p"$'\n'; done
		[ -z "$out" ] || [ "$i" -ge "$1" ] && break
		sleep 0.1
	done
	printf '%s' "$out"
}

# storm LABEL TENTHS: ROUNDS rounds of plain and setsid chains; sets
# ESC (sleepers not in the group), SEEN (sleepers counted), UNLOGGED
# (escaped sleepers whose chain the log does not name)
storm() {
	local label=$1 tenths=$2 r how p n chain i
	ESC=0 SEEN=0 UNLOGGED=0
	for ((r = 0; r < ROUNDS; r++)); do
		for how in plain setsid; do
			chains "$how"
			# each chain's sleeper was forked before its chain exited,
			# but may still wait in its exec (--at-exec) or be about to
			for ((i = 0; i < 100; i++)); do
				n=$(sleepers | wc -l)
				[ "$n" -ge "$CHAINS" ] && break
				sleep 0.1
			done
			SEEN=$((SEEN + n))
			[ "$n" = "$CHAINS" ] || echo "$label round $r $how: $n sleepers, not $CHAINS"
			for p in $(escaped "$tenths"); do
				ESC=$((ESC + 1))
				chain=$(tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | sed -n 's/^RGD_CHAIN=//p')
				echo "$label round $r $how: sleeper $p (chain ${chain:-?}) escaped"
				grep -q "missed ${chain:-none} " "daemon.$label.log" || UNLOGGED=$((UNLOGGED + 1))
			done
			kill_sleepers || fail "$label: sleepers survive SIGKILL for 10 s"
		done
	done
}

# 1. --at-exec: in the group before the first instruction (no polling)
if start_daemon daemon.atexec.log "placing processes at exec|cannot place" --at-exec; then
	if grep -q "cannot place" daemon.atexec.log; then
		echo "SKIP part: --at-exec unavailable: $(grep -o 'cannot place.*' daemon.atexec.log | head -1)"
		stop_daemon
	else
		storm atexec 0
		stop_daemon
		[ "$SEEN" -ge $((ROUNDS * CHAINS * 2)) ] && ok || fail "atexec: $SEEN sleepers seen, want $((ROUNDS * CHAINS * 2))"
		[ "$ESC" = 0 ] && ok || fail "--at-exec: $ESC of $SEEN sleepers escaped"
		echo "--at-exec: $ESC of $SEEN sleepers escaped"
	fi
else
	fail "the --at-exec daemon did not start: $(tail -3 daemon.atexec.log)"
fi

# 2. the event path with exit records: none escapes (bound 10 s a round)
start_daemon daemon.events.log "scan \\(start\\)" ||
	fail "the daemon did not start: $(tail -3 daemon.events.log)"
if grep -q "exit records are unavailable" daemon.events.log; then
	echo "SKIP part: $(grep -o 'taskstats exit records are unavailable ([^)]*)' daemon.events.log)"
	stop_daemon
else
	storm events 100
	stop_daemon
	[ "$SEEN" -ge $((ROUNDS * CHAINS * 2)) ] && ok || fail "events: $SEEN sleepers seen, want $((ROUNDS * CHAINS * 2))"
	[ "$ESC" = 0 ] && ok || fail "event path with exit records: $ESC of $SEEN sleepers escaped"
	grep -q "^rgctl: missed" daemon.events.log &&
		fail "event path with exit records: $(grep -c '^rgctl: missed' daemon.events.log) missed" || ok
	echo "event path with exit records: $ESC of $SEEN sleepers escaped;" \
		"$(grep -o '[0-9]* found by exit records' daemon.events.log)"
fi

# 3. the records off: an escape is allowed, an unlogged one is not
RGCTL_NO_EXIT_RECORDS=1 start_daemon daemon.norec.log "scan \\(start\\)" ||
	fail "the daemon did not start: $(tail -3 daemon.norec.log)"
expect_match "$(cat daemon.norec.log)" "taskstats exit records are unavailable \\(\\\$RGCTL_NO_EXIT_RECORDS is set\\)" "records off: said at start"
storm norec 30
stop_daemon
[ "$UNLOGGED" = 0 ] && ok || fail "records off: $UNLOGGED of $ESC escaped sleepers' chains are not logged as missed"
[ "$ESC" = 0 ] || expect_match "$(cat daemon.norec.log)" "[0-9]+ process(es)? missed \\(each logged above\\)" "records off: the misses counted at exit"
echo "event path without exit records: $ESC of $SEEN sleepers escaped, $UNLOGGED not logged;" \
	"$(grep -c '^rgctl: missed' daemon.norec.log) chains logged as missed"
[ -z "${RGD_KEEP:-}" ] || cp daemon.*.log "$RGD_KEEP"
[ "$T_FAILS" = 0 ] || for f in daemon.*.log; do echo "--- $f"; grep -v "moved [0-9]* (" "$f" | tail -15; done
finish
