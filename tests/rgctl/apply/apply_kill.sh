#!/bin/bash
# apply_kill.sh [GROUPS [DELAY_US]]: SIGKILL during rgctl apply --prune (issue 30,
# the intent journal) on cgroup v1 (a private subtree of the cpu
# hierarchy; v2 with RGD_BACKEND=cgroup2): the plan creates GROUPS groups with shares, changes a share
# and a resource, and deletes two groups with members.  The run is timed
# first, from its first step (rgctl-faults' mark); then it is killed at
# 20 points spread over it.  After each, the
# next rgctl command (list) finds the dead run's journal, undoes what it
# did and says so in one line; the tree (rgctl dump, every group's
# members) is as before, no process is lost and no journal is left.  A
# kill before the plan is written or after the run ended leaves the tree
# as before, or as applied, and no journal.
. "$SRC_DIR/tests/rgctl/tasks_lib.sh"
N=${1:-400}
# each step waits this long first (rgctl-faults' delay hook), so that the
# kills land inside the run on any machine; the recovery is the shipped
# rgctl's
export RGCTL_STEP_DELAY_US=${2:-1000}
# RGD_BACKEND=cgroup2: on a private subtree of the v2 root; rgcs: on the
# emulator (tasks_lib.sh)
rgd_setup_backend kill
needs_libconfig
cd "$WORK" || exit 1
# the changes: N creates, keep's shares and cpu_max (not on RGCS), two deletes
C=$((N + 4))
[ "$BACKEND" = rgcs ] && C=$((N + 3))
R=(--backend "$BACKEND" --root "$ROOT")

sleep 600 & P1=$!
sleep 600 & P2=$!
PIDS+=("$P1" "$P2")

{
	echo 'groups = ('
	echo "  { name = \"keep\"; shares = $(shv 512); },"
	[ -n "$SP" ] && echo "  { name = \"${SP%/}\"; },"
	echo "  { name = \"${SP}stray\"; },"
	echo "  { name = \"${SP}stray/kid\"; }"
	echo ');'
} >base.conf
{
	echo 'groups = ('
	# RGCS has one resource (cpu shares): no cpu_max there
	if [ "$BACKEND" = rgcs ]; then
		echo "  { name = \"keep\"; shares = $(shv 2048); },"
	else
		echo '  { name = "keep"; shares = 2048; cpu_max = "20ms/100ms"; },'
	fi
	[ -n "$SP" ] && echo "  { name = \"${SP%/}\"; },"
	for ((i = 1; i <= N; i++)); do
		echo "  { name = \"g$i\"; shares = $(shv $((100 + i % 900))); }$([ "$i" -lt "$N" ] && echo ,)"
	done
	echo ');'
} >plan.conf

reset() {
	find "$ROOT" -mindepth 1 -maxdepth 1 -type d -name 'g*' -print0 | xargs -0 -r rmdir
	mkdir -p stray/kid 2>/dev/null
	"$RGCTL" "${R[@]}" apply --prune base.conf >/dev/null 2>reset.err ||
		{ echo "FAIL: cannot apply base.conf: $(cat reset.err)"; exit 1; }
	if [ "$BACKEND" = cgroup2 ]; then
		echo "max 100000" >"$ROOT/keep/cpu.max"
	elif [ "$BACKEND" = cgroup1 ]; then
		echo max >"$ROOT/keep/cpu.cfs_quota_us" 2>/dev/null || echo -1 >"$ROOT/keep/cpu.cfs_quota_us"
		echo 100000 >"$ROOT/keep/cpu.cfs_period_us"
	fi
	echo "$P1" >"$ROOT/${SP}stray/$PROCS" && echo "$P2" >"$ROOT/${SP}stray/kid/$PROCS" ||
		{ echo "FAIL: cannot place the processes"; exit 1; }
}
snap() {
	"$RGCTL" "${R[@]}" dump 2>/dev/null
	(cd "$ROOT" && find . -mindepth "$MEMDEPTH" -name "$MEMBERS" -print0 | LC_ALL=C sort -z |
		xargs -0 awk 'FNR == 1 { printf "\n%s:", FILENAME } { printf " %s", $1 } END { print "" }')
}
journals() { find "$RGCTL_RUNDIR" -name 'journal.*' 2>/dev/null | wc -l; }
# the journals with their whole plan (one killed while writing it changed
# nothing: the next rgctl removes it and says nothing)
planned() { find "$RGCTL_RUNDIR" -name 'journal.*' -exec grep -lx run {} + 2>/dev/null | wc -l; }

mark_open
reset
before=$(snap)
# the run from its first step (rgctl-faults' mark, tasks_lib.sh: starting and
# planning come before it and change nothing) to its end, the shorter of two
timed_length "${R[@]}" apply --prune plan.conf
echo "apply of $C changes: $D ms from its first step to its end"
[ "$(snap)" = "$before" ] && ok || fail "reset does not give the base state back"
expect_eq "$(journals)" 0 "a finished apply leaves no journal"
[ "$D" -gt 50 ] || skip_test "the run ($D ms) is too short to kill it inside"

hits=0
kill_trial() {	# kill_trial MS
	local ms=$1 pid had err now
	if ! faults_bg out.txt err.txt "${R[@]}" apply --prune plan.conf; then
		fail "SIGKILL at $ms ms: apply ended before its first step (stderr: $(cat err.txt))"
		reset
		return
	fi
	pid=$BG
	sleep_ms "$ms"
	kill -KILL "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	had=$(planned)
	err=$("$RGCTL" "${R[@]}" list 2>&1 >/dev/null)
	now=$(snap)
	if [ "$had" = 1 ]; then
		hits=$((hits + 1))
		expect_match "$err" "^rgctl: recovered from rgctl apply \\(pid $pid\\) killed after [0-9]+ of $C changes: [0-9]+ undone, the groups are as before$" \
			"SIGKILL at $ms ms: list recovers and says so"
		if [ "$now" = "$before" ]; then ok; else
			fail "SIGKILL at $ms ms: the tree differs after the recovery:"
			diff <(printf '%s\n' "$before") <(printf '%s\n' "$now") | head -10
		fi
	else
		expect_eq "$err" "" "SIGKILL at $ms ms (no journal: before the plan or after the run): list says nothing"
		[ "$now" = "$before" ] || [ "$now" = "$applied" ] && ok ||
			fail "SIGKILL at $ms ms without a journal: the tree is neither as before nor as applied"
	fi
	expect_eq "$(journals)" 0 "SIGKILL at $ms ms: no journal left"
	kill -0 "$P1" 2>/dev/null && kill -0 "$P2" 2>/dev/null && ok || fail "SIGKILL at $ms ms: a process was lost"
	[ "$now" = "$before" ] || reset
}
# RGD_SIG_POINTS: fewer points (the TCG guest: 10); three in four must
# land inside the run (past its end: counted out)
POINTS=${RGD_SIG_POINTS:-20}
for ((j = 1; j <= POINTS; j++)); do
	kill_trial $((D * j / (POINTS + 1)))
done
echo "$hits of $POINTS kills came while apply changed the tree"
[ "$hits" -ge $(((POINTS * 3 + 3) / 4)) ] && ok || fail "only $hits of $POINTS kills came while apply changed the tree"

# a journal that another (live) rgctl holds the lock for is left alone
faults_bg /dev/null /dev/null "${R[@]}" apply --prune plan.conf
pid=$BG
sleep_ms $((D / 3))
kill -STOP "$pid"
if [ "$(journals)" = 1 ]; then
	err=$("$RGCTL" "${R[@]}" list 2>&1 >/dev/null)
	expect_eq "$err" "" "a live run's journal: list leaves it alone"
	expect_eq "$(journals)" 1 "a live run's journal stays"
fi
kill -KILL "$pid"; kill -CONT "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
# apply itself recovers first, then runs
"$RGCTL" "${R[@]}" apply base.conf >/dev/null 2>err.txt
rc=$?
[ "$(journals)" = 0 ] && ok || fail "apply after a kill: the journal is left"
expect_eq "$rc" 0 "apply after a kill runs (stderr: $(cat err.txt))"
reset
[ "$(snap)" = "$before" ] && ok || fail "the base state at the end"
finish
