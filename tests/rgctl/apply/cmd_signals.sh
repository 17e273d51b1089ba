#!/bin/bash
# cmd_signals.sh BACKEND COMMAND: the signal sweep of issue 30 for the
# multi-step commands other than apply, on cgroup1 (a private subtree of
# the cpu hierarchy), cgroup2 (a private subtree of the v2 root; the
# guest's tests/vm/signals.sh) or rgcs (the FUSE emulator).  COMMAND is
#   create   create -p of eight groups, three of them three deep
#   delete   delete -R of a tree with settings and live members
#   set      set with two keys (cgroup1; cgroup2, where cpu is available:
#            the base leaves it disabled in the root's
#            cgroup.subtree_control, so set enables it, and the undo, or
#            the recovery, must disable it again)
# The command's run is timed first, from its first step (rgctl-faults
# marks it, and waits RGCTL_STEP_DELAY_US before each step, so the points
# fall inside it on any machine); then SIGTERM and SIGINT, in turn, at 20
# points spread over it: one message "COMMAND: interrupted by SIG...: N changes undone,
# the groups are as before", exit status 128 + the signal, and the whole
# tree (every group, every attribute file, every member) as before, no
# process lost.  Then SIGKILL at 20 points: the next rgctl (list) undoes
# what the dead run did, from its journal, and says so; the tree is as
# before (or, killed after its end, as the command left it) and no
# journal is left.
. "$SRC_DIR/tests/rgctl/tasks_lib.sh"
BACKEND=${1:?backend}
CMD=${2:?command}

case $BACKEND in
cgroup1) rgd_setup "sig$CMD" ;;
cgroup2) rgd_setup "sig$CMD" v2 ;;
rgcs)	rgd_setup_rgcs sig ;;
*)	echo "unknown backend $BACKEND"; exit 2 ;;
esac
[ "$BACKEND/$CMD" = rgcs/set ] && skip_test "RGCS has one resource key (cpu.weight): no set with several"
if [ "$BACKEND/$CMD" = cgroup2/set ]; then
	grep -qw cpu "$CPU/cgroup.controllers" ||
		skip_test "no cpu controller on the cgroup v2 hierarchy at $CPU (set needs one)"
	# available to the test's root: enabled in the v2 root (outside the
	# tree compared), not in the test's root (inside it)
	grep -qw cpu "$CPU/cgroup.subtree_control" || echo +cpu >"$CPU/cgroup.subtree_control" ||
		skip_test "cannot enable cpu in $CPU/cgroup.subtree_control"
fi
cd "$WORK" || exit 1
R=(--backend "$BACKEND" --root "$ROOT")
# The points are timed from the command's first step (the mark, tasks_lib.sh),
# so its start-up (slow under ASan, TCG or load) is outside them, and
# three in four must land inside the run: those past its end are counted
# out, each one that lands is checked whole.  Each step waits
# RGCTL_STEP_DELAY_US (rgctl-faults) so the run is long enough to aim at:
# 15 ms, 60 ms under ASan; RGD_SIG_DELAY_US: another (the TCG guest).
if [ "${SANITIZE:-OFF}" = ON ]; then DELAY_DEF=60000; else DELAY_DEF=15000; fi
DELAY_DEF=${RGD_SIG_DELAY_US:-$DELAY_DEF}
# set with two keys waits before one step only (18 ms in all here): a
# loaded machine's jitter swallowed the window (CI, 2026-12-05), so its
# one step waits four times as long
[ "$CMD" = set ] && DELAY_DEF=$((DELAY_DEF * 4))
export RGCTL_STEP_DELAY_US=${RGCTL_STEP_DELAY_US:-$DELAY_DEF}
# RGD_SIG_POINTS: fewer points per signal kind (the TCG guest: 10)
POINTS=${RGD_SIG_POINTS:-20}
MIN_HITS=$(( (POINTS * 3 + 3) / 4 ))

sleep 600 & S1=$!
sleep 600 & S2=$!
sleep 600 & S3=$!
PIDS+=("$S1" "$S2" "$S3")

put() { printf '%s' "$2" >"$ROOT/$1" || { echo "FAIL: cannot write '$2' to $1"; exit 1; }; }
member() {	# member GROUP PID
	if [ "$BACKEND" = rgcs ]; then put "$1/members" "$2"; else put "$1/cgroup.procs" "$2"; fi
}
# The base: d (S1), d/a, d/a/b (S2), d/c (S3), s; settings on some.
baseline() {
	"$RGCTL" "${R[@]}" create -p d/a/b d/c s >/dev/null || { echo "FAIL: baseline"; exit 1; }
	if [ "$BACKEND" = rgcs ]; then
		put d/a/shares res=cpu,min_shares=10
		put s/shares res=cpu,min_shares=20
	elif [ "$BACKEND" = cgroup2 ]; then
		# no controller here: the core's own settings
		put d/a/cgroup.max.descendants 7
		put d/c/cgroup.max.depth 3
		put s/cgroup.max.descendants 50
	else
		put d/a/cpu.shares 300
		put d/c/notify_on_release 1
		put s/cpu.shares 512
	fi
	member d "$S1"
	member d/a/b "$S2"
	member d/c "$S3"
}
reset() {
	local d
	# cgroup v2: no controller enabled anywhere in the tree (deepest
	# first), so that the root may hold the processes again
	[ "$BACKEND" = cgroup2 ] && for d in $(cd "$ROOT" && find . -depth -type d); do
		echo -cpu >"$ROOT/$d/cgroup.subtree_control" 2>/dev/null
	done
	groups_clear
	baseline
}
# Every group, every attribute file (member lists too; on cgroup v2 the
# root's cgroup.subtree_control and each group's cgroup.controllers), as
# text; not the files whose values change by themselves (usage,
# statistics, pressure, events).
snap() {
	(
		cd "$ROOT" || exit 1
		find . -type d | LC_ALL=C sort
		grep -r -H --exclude='cpu.stat*' --exclude='cpuacct.*' --exclude=stats \
			--exclude=cgroup.event_control --exclude=release_agent \
			--exclude=cgroup.sane_behavior --exclude='*.stat' --exclude='*.stat.local' \
			--exclude='*.current' --exclude='*.peak' --exclude='*.pressure' \
			--exclude='*.events' --exclude='*.events.local' --exclude=cgroup.kill \
			--exclude='memory.numa_stat' '' . 2>/dev/null | LC_ALL=C sort
	) | if [ "$BACKEND" = rgcs ]; then grep -v '^\./members:'; else cat; fi
}
journals() { find "$RGCTL_RUNDIR" -name 'journal.*' 2>/dev/null | wc -l; }
# the journals with their whole plan (one killed while writing it changed
# nothing: the next rgctl removes it and says nothing)
planned() { find "$RGCTL_RUNDIR" -name 'journal.*' -exec grep -lx run {} + 2>/dev/null | wc -l; }
case $CMD in
create)	ARGS=(create -p n1/a/b n2/a/b n3/a/b n4 n5 n6 n7 n8) ;;
delete)	ARGS=(delete -R d) ;;
set)	ARGS=(set s cpu.weight=300 cpu.max=20ms/100ms) ;;
*)	echo "unknown command $CMD"; exit 2 ;;
esac

mark_open
reset
before=$(snap)
# D: the run from its first step (the mark) to its end, the shorter of two
D=
for _ in 1 2; do
	faults_timed out.txt err.txt "${R[@]}" "${ARGS[@]}" ||
		fail "the timed $CMD ended before its first step (stderr: $(cat err.txt))"
	now_ms; t0=$NOW
	wait "$BG"
	rc=$?
	now_ms; d=$(timed_span $((NOW - t0)))
	expect_eq "$rc" 0 "the timed $CMD (stderr: $(cat err.txt))"
	after=$(snap)
	reset
	[ -z "$D" ] || [ "$d" -lt "$D" ] && D=$d
done
echo "$BACKEND ${ARGS[*]}: $D ms from its first step to its end"
[ "$(snap)" = "$before" ] && ok || fail "reset does not give the base state back"
[ "$after" != "$before" ] && ok || fail "$CMD changed nothing"

lost() { kill -0 "$S1" 2>/dev/null && kill -0 "$S2" 2>/dev/null && kill -0 "$S3" 2>/dev/null; }
hits=0 khits=0
# trial SIG MS: SIG after MS ms, then the checks
trial() {
	local sig=$1 ms=$2 pid num now err had
	num=$(kill -l "$sig")
	if ! faults_bg out.txt err.txt "${R[@]}" "${ARGS[@]}"; then
		fail "SIG$sig at $ms ms: $CMD ended before its first step (stderr: $(cat err.txt))"
		reset
		return
	fi
	pid=$BG
	sleep_ms "$ms"
	kill -s "$sig" "$pid" 2>/dev/null || { wait "$pid"; reset; return; }
	wait "$pid"
	rc=$? err=$(cat err.txt)
	if [ "$sig" = KILL ]; then
		had=$(planned)
		err=$("$RGCTL" "${R[@]}" list 2>&1 >/dev/null)
		now=$(snap)
		if [ "$had" = 1 ]; then
			khits=$((khits + 1))
			expect_match "$err" "^rgctl: recovered from rgctl $CMD \\(pid $pid\\) killed after [0-9]+ of [0-9]+ changes: [0-9]+ undone, the groups are as before$" "SIGKILL at $ms ms: list recovers, says so"
			[ "$now" = "$before" ] && ok || { fail "SIGKILL at $ms ms: the tree differs after the recovery"; diff <(echo "$before") <(echo "$now") | head -8; }
		else
			expect_eq "$err" "" "SIGKILL at $ms ms, no journal: list says nothing"
			[ "$now" = "$before" ] || [ "$now" = "$after" ] && ok || { fail "SIGKILL at $ms ms without a journal: half done"; diff <(echo "$before") <(echo "$now") | head -8; }
		fi
		expect_eq "$(journals)" 0 "SIGKILL at $ms ms: no journal left"
	elif [ "$rc" = 0 ]; then
		: # after its end (the points start at its first step, when it
		  # catches signals already)
	else
		hits=$((hits + 1))
		expect_eq "$rc" "$((128 + num))" "SIG$sig at $ms ms: exit status (stderr: $err)"
		expect_match "$err" "^rgctl: $CMD: interrupted by SIG$sig: [0-9]+ changes? undone, the groups are as before$" "SIG$sig at $ms ms: one line says so"
		now=$(snap)
		[ "$now" = "$before" ] && ok || { fail "SIG$sig at $ms ms: the tree differs"; diff <(echo "$before") <(echo "$now") | head -8; }
	fi
	lost && ok || fail "SIG$sig at $ms ms: a process was lost"
	[ "$(snap)" = "$before" ] || reset
}
for ((j = 1; j <= POINTS; j++)); do
	ms=$((D * j / (POINTS + 1)))
	if ((j % 2)); then trial TERM "$ms"; else trial INT "$ms"; fi
done
echo "$hits of $POINTS SIGTERM/SIGINT came while $CMD ran"
[ "$hits" -ge "$MIN_HITS" ] && ok || fail "only $hits of $POINTS signals came while $CMD ran"
for ((j = 1; j <= POINTS; j++)); do
	trial KILL $((D * j / (POINTS + 1)))
done
echo "$khits of $POINTS SIGKILLs came while $CMD had a journal"
[ "$khits" -ge "$MIN_HITS" ] && ok || fail "only $khits of $POINTS kills came while $CMD ran"
finish
