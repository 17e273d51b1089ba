#!/bin/bash
# Placement is whole or a miss (issue 43 items 1 and 2).  On cgroup v1 a
# group is a directory in each of cpu, cpuacct, memory, pids and blkio; a
# process counts as placed only when every one of them has it (each
# check reads /proc/PID/cgroup for every hierarchy the group spans).
#  - held: the event path with slow_attach.so, which holds the daemon's
#    move of a chain after its first hierarchy (cpu) until the test says
#    go; the chain forks "( sleeper & )" while held, so the sleeper is in
#    the group in cpu and in its old group in the others, every time.
#    The daemon must find it half placed and complete the move ("completed
#    the move" logged, counted in the exit summary); comm and exe rules.
#  - zombie: while the daemon is held, a chain with an exe rule execs,
#    forks its sleeper and exits unreaped (a zombie: its exe cannot be
#    read): -vv must not say "no rule matches" of it, and its sleeper is
#    placed (by its exit record) or the chain is logged as missed.
#  - at exec: CHAINS double-fork chains ("( sleeper 60 & ); exit 0", half
#    through setsid) x ROUNDS with --at-exec, comm and exe rules: whole
#    from the first instruction, or a logged miss.
# The summary at exit never says "none missed" when one was.
# A daemon that marks filesystems holds every exec: ctest runs this alone.
# whole.sh [CHAINS ROUNDS HELD]
. "$SRC_DIR/tests/rgctl/tasks_lib.sh"
require_root "creates groups in the cgroup v1 hierarchies"
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
ROUNDS=${2:-1}
HELD=${3:-8}
BOUND=${RGD_WHOLE_BOUND:-300}
WORK=$(mktemp -d)
export RGCTL_RUNDIR="$WORK/run"
trap 'rm -rf "$WORK"' EXIT	# until the cleanup below takes over
# (needs_libconfig tries rgctl apply on the cpu hierarchy's root: refused
# at once without libconfig, before it looks at the root)
ROOT=$CPU needs_libconfig
needs_libmnl
tag=$$
G=rgdtest.whole.$tag.$RANDOM
CHAIN=rgdW$tag		# a copy of sh: the comm and exe rules' program
SLEEPER=rgdY$tag	# a copy of sleep: matches no rule, follows its chain
PARENT=rgdP$tag		# a copy of sleep: a parent that never reaps
H=$WORK/hold		# slow_attach.so's fifos and go files
mkdir "$WORK/hold"
cp "$(readlink -f /bin/sh)" "$WORK/$CHAIN"
cp "$(command -v sleep)" "$WORK/$SLEEPER"
cp "$(command -v sleep)" "$WORK/$PARENT"
chmod 755 "$WORK/$CHAIN" "$WORK/$SLEEPER" "$WORK/$PARENT"
DPIDS=()
sleepers() { pgrep -x -r D,R,S,T,t "$SLEEPER"; }	# not zombies: pid 1 may reap late
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
	pkill -KILL -x "$PARENT"
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
	local n=0 c id ctls path
	[ -r "/proc/$1/cgroup" ] || { echo gone; return; }
	while IFS=: read -r id ctls path; do
		[ "$path" = "/$G/a" ] || continue
		for c in "${CTLS[@]}"; do
			[[ ",$ctls," = *",$c,"* ]] && n=$((n + 1))
		done
	done <"/proc/$1/cgroup" 2>/dev/null
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

# wait_file FILE: up to 10 s
wait_file() {
	local i
	for ((i = 0; i < 1000; i++)); do [ -e "$1" ] && return 0; sleep 0.01; done
	return 1
}
# sleeper_but PID: the sleeper that is not PID (up to 5 s for its exec)
sleeper_but() {
	local i p
	for ((i = 0; i < 500; i++)); do
		for p in $(sleepers); do [ "$p" != "$1" ] && { echo "$p"; return; }; done
		sleep 0.01
	done
	echo none
}
# release P: a hold the daemon never took is let go (the chain reads on)
release() { [ -p "$H/hold.$1" ] && timeout 2 sh -c 'echo x >"$1"' sh "$H/hold.$1"; rm -f "$H/hold.$1"; }

# held RULE: HELD chains, one at a time, each held mid-move by the shim
held() {
	local rule=$1 label=events.held.$1 i c s st k log_of=daemon.events.held.$1.log
	local split=0 esc=0 unheld=0 uncompleted=0
	start_daemon "$log_of" "scan \\(start\\)" "$rule.conf" -vv ||
		{ fail "$label: the daemon did not start: $(tail -3 "$log_of")"; return; }
	for ((i = 0; i < HELD; i++)); do
		# the chain: its fifo made under its pid, then the rule's program
		# (exec: the event that moves it); held after cpu's write, it
		# forks its sleeper and says go
		sh -c 'mkfifo "$1/hold.$$" && exec "$2" -c '\''read x <"$0/hold.$$"; ( "$1" 60 & ); : >"$0/go.$$"'\'' "$1" "$3"' \
			sh "$H" "$WORK/$CHAIN" "$WORK/$SLEEPER" & c=$!
		if ! wait_file "$H/go.$c"; then
			unheld=$((unheld + 1))
			release "$c"
		fi
		wait "$c"
		s=$(sleeper_but 0)
		# whole within 5 s: the half-done move found and completed
		for ((k = 0; k < 50; k++)); do
			st=$(place "$s")
			[ "$st" = whole ] && break
			sleep 0.1
		done
		if [ "$st" = split ]; then
			split=$((split + 1))
			echo "$label: chain $c's sleeper $s split: $(tr '\n' ' ' <"/proc/$s/cgroup")"
		elif [ "$st" != whole ]; then
			esc=$((esc + 1))
			echo "$label: chain $c's sleeper $s $st"
		elif ! grep -aq "completed the move of $s (" "$log_of"; then
			uncompleted=$((uncompleted + 1))
		fi
		kill_sleepers || fail "$label: sleepers survive SIGKILL for 10 s"
	done
	stop_daemon
	[ "$unheld" = 0 ] && ok || fail "$label: $unheld of $HELD chains never held by slow_attach.so"
	[ "$split" = 0 ] && ok || fail "$label: $split of $HELD sleepers forked mid-move left split between hierarchies"
	[ "$esc" = 0 ] && ok || fail "$label: $esc of $HELD sleepers forked mid-move outside the group"
	[ "$uncompleted" = 0 ] && ok || fail "$label: $uncompleted of $HELD completed moves not logged as completed"
	expect_match "$(tail -2 "$log_of")" "summary: .*[1-9][0-9]* half-done moves? completed" "$label: the completed moves in the summary"
	echo "$label: $HELD held, $split split, $esc out; $(grep -ac "completed the move" "$log_of") completed (${SECONDS}s)"
}

# zombie: HELD times, while the daemon is held on a chain, an exe rule's
# chain execs, forks its sleeper and exits, unreaped
zombie() {
	local label=events.zombie i a b s st k log_of=daemon.events.zombie.log
	local esc=0 unlogged=0 said=0
	start_daemon "$log_of" "scan \\(start\\)" exe.conf -vv ||
		{ fail "$label: the daemon did not start: $(tail -3 "$log_of")"; return; }
	for ((i = 0; i < HELD; i++)); do
		# a: held mid-move, then a sleeper in the group
		sh -c 'mkfifo "$1/hold.$$" && exec "$2" -c '\''read x <"$0/hold.$$"; : >"$0/held.$$"; exec "$1" 60'\'' "$1" "$3"' \
			sh "$H" "$WORK/$CHAIN" "$WORK/$SLEEPER" & a=$!
		if ! wait_file "$H/held.$a"; then
			fail "$label: chain $a never held by slow_attach.so"
			release "$a"
			break
		fi
		# b: its parent execs a sleep that never reaps it
		rm -f "$WORK/bpid"
		sh -c '"$1" -c '\''( "$0" 60 & ); exit 0'\'' "$2" & echo $! >"$0/bpid"; exec "$3" 30' \
			"$WORK" "$WORK/$CHAIN" "$WORK/$SLEEPER" "$WORK/$PARENT" &
		wait_file "$WORK/bpid"
		b=$(cat "$WORK/bpid")
		for ((k = 0; k < 500; k++)); do
			[ "$(awk '{ print $3 }' "/proc/$b/stat" 2>/dev/null)" = Z ] && break
			sleep 0.01
		done
		[ "$(awk '{ print $3 }' "/proc/$b/stat" 2>/dev/null)" = Z ] ||
			fail "$label: chain $b is not a zombie after 5 s"
		s=$(sleeper_but "$a")
		: >"$H/go.$a"
		for ((k = 0; k < 50; k++)); do
			st=$(place "$s")
			[ "$st" = whole ] && break
			sleep 0.1
		done
		if [ "$st" != whole ]; then
			esc=$((esc + 1))
			echo "$label: chain $b's sleeper $s $st: $(tr '\n' ' ' <"/proc/$s/cgroup" 2>/dev/null)"
			grep -aq "missed $b " "$log_of" || unlogged=$((unlogged + 1))
		fi
		grep -aq "^rgctl: $b ($CHAIN): no rule matches" "$log_of" && said=$((said + 1))
		pkill -KILL -x "$PARENT"
		kill_sleepers || fail "$label: sleepers survive SIGKILL for 10 s"
	done
	stop_daemon
	[ "$said" = 0 ] && ok || fail "$label: said 'no rule matches' of $said of $HELD zombie chains (their exe unread)"
	[ "$unlogged" = 0 ] && ok || fail "$label: $unlogged of $esc zombie chains' sleepers outside the group, not logged as missed"
	expect_match "$(tail -2 "$log_of")" "summary: " "$label: the summary at exit"
	echo "$label: $HELD zombie chains, $esc sleepers out ($unlogged not logged); $said said 'no rule matches' (${SECONDS}s)"
}

PRELOAD=$BUILD_DIR/tests/rgctl/classify/slow_attach.so
export RGD_HOLD_AT=$CPU RGD_HOLD_DIR=$H
held comm
held exe
zombie
PRELOAD=
unset RGD_HOLD_AT RGD_HOLD_DIR
for rule in comm exe; do
	label=at-exec.$rule log_of=daemon.$label.log
	start_daemon "$log_of" "placing processes at exec|cannot place" $rule.conf -v --at-exec ||
		{ fail "$label: the daemon did not start: $(tail -3 "$log_of")"; continue; }
	if grep -q "cannot place" "$log_of"; then
		echo "SKIP part $label: $(grep -o 'cannot place.*' "$log_of" | head -1)"
		stop_daemon
		continue
	fi
	# whole from the first instruction
	storm "$label" 0
	stop_daemon
	[ "$SEEN" -ge $((ROUNDS * CHAINS)) ] && ok || fail "$label: $SEEN sleepers seen, want $((ROUNDS * CHAINS))"
	[ "$SPLIT" = 0 ] && ok || fail "$label: $SPLIT of $SEEN sleepers split between hierarchies"
	[ "$UNLOGGED" = 0 ] && ok || fail "$label: $UNLOGGED of $ESC escaped sleepers' chains not logged as missed"
	if [ "$ESC" != 0 ]; then
		expect_match "$(tail -2 "$log_of")" "[0-9]+ process(es)? missed \\(each logged above\\)" "$label: the misses counted at exit"
	fi
	echo "$label: $SEEN sleepers, $SPLIT split, $ESC escaped ($UNLOGGED not logged); $(tail -1 "$log_of") (${SECONDS}s)"
done
[ -z "${RGD_KEEP:-}" ] || cp daemon.*.log "$RGD_KEEP"
[ "$T_FAILS" = 0 ] || for f in daemon.*.log; do echo "--- $f"; grep -av "moved [0-9]* (\|no rule matches" "$f" | tail -15; done
finish
