#!/bin/bash
# apply_sweep.sh BACKEND (cgroup1, cgroup2 or rgcs): rgctl apply --prune is
# made to fail at every step of its plan in turn, before the step and
# after it (RGCTL_APPLY_FAIL_STEP=K and K+), and a full snapshot of the
# hierarchy (every group, every attribute file, every thread's group) must
# be the same afterwards.  The plan holds creates (with and without
# shares), share changes and deletions of groups with quotas,
# notify_on_release, RGCS controller shares, processes and threads placed
# apart from their process.  Then: a failing undo is reported as such, the
# plan applies cleanly and a second apply has nothing to do.
. "$SRC_DIR/tests/rgctl/tasks_lib.sh"
BACKEND=${1:?backend}
CG2=

setup_cgroup2() {
	require_root "the cgroup v2 sweep writes to cgroupfs"
	CG2=$(awk '{ for (i = 7; $i != "-"; i++); if ($(i+1) == "cgroup2") { print $5; exit } }' /proc/self/mountinfo)
	[ -n "$CG2" ] || skip_test "no cgroup v2 hierarchy mounted"
	WORK=$(mktemp -d)
	export RGCTL_RUNDIR="$WORK/run"
	ROOT="$CG2/rgdtest.sweep.$$.$RANDOM"
	mkdir "$ROOT" 2>/dev/null || skip_test "cannot create a group under $CG2 (not writable here)"
	CPU=$CG2	# where rgd_cleanup moves what is left
	trap rgd_cleanup EXIT
}

case $BACKEND in
cgroup1) rgd_setup sweep ;;
cgroup2) setup_cgroup2 ;;
rgcs) rgd_setup_rgcs sweep ;;
*) echo "unknown backend $BACKEND"; exit 2 ;;
esac
needs_libconfig
cd "$WORK" || exit 1
R=(--backend "$BACKEND" --root "$ROOT")

# A process with 3 threads besides the main one, and a plain process.
coproc THR { exec "$HELPER" threads 3 600; }
PIDS+=("$THR_PID")
read -r -u "${THR[0]}" T T1 T2 T3 || { echo "FAIL: the threads helper did not start"; exit 1; }
sleep 600 & S=$!
PIDS+=("$S")

put() {	# put FILE VALUE: one write, as the kernel wants it
	printf '%s' "$2" >"$ROOT/$1" || { echo "FAIL: cannot write '$2' to $1"; exit 1; }
}

# The state every failed apply must leave behind.  The groups are made
# by rgctl: apply --prune deletes only those.
baseline() {
	local g
	for g in keep keep/q old old/kid stray; do
		"$RGCTL" "${R[@]}" create "$g" || { echo "FAIL: cannot create $g"; exit 1; }
	done
	case $BACKEND in
	cgroup1)
		put keep/cpu.shares 512
		put keep/q/cpu.shares 300
		put keep/q/cpu.cfs_quota_us 50000
		put keep/q/notify_on_release 1
		put old/cpu.shares 700
		put old/cpu.cfs_period_us 80000
		put old/cpu.cfs_quota_us 40000
		put old/notify_on_release 1
		put old/cgroup.clone_children 1
		put old/kid/cpu.shares 100
		put old/kid/cpu.cfs_quota_us 20000
		put stray/notify_on_release 1
		# the process in old, each other thread somewhere else
		put old/cgroup.procs "$T"
		put old/kid/tasks "$T1"
		put keep/q/tasks "$T2"
		put stray/tasks "$T3"
		put old/kid/cgroup.procs "$S"
		;;
	cgroup2)
		put keep/cgroup.max.descendants 5
		put old/cgroup.max.descendants 3
		put old/cgroup.max.depth 2
		put old/kid/cgroup.max.depth 1
		put stray/cgroup.max.descendants 0
		put old/cgroup.procs "$S"
		put old/kid/cgroup.procs "$T"
		;;
	rgcs)
		put keep/shares res=cpu,min_shares=10
		put keep/q/shares res=cpu,min_shares=5
		put keep/q/shares res=numtasks,max_shares=7
		put old/shares res=cpu,min_shares=20,child_shares_divisor=50
		put old/shares res=numtasks,max_shares=9
		put old/kid/shares res=cpu,min_shares=10
		put old/members "$T"
		put old/kid/members "$T1"
		put keep/q/members "$T2"
		put stray/members "$T3"
		put old/kid/members "$S"
		;;
	esac
}

# Remove every group (deepest first), then make the baseline again.
reset() {
	groups_clear
	baseline
}

# Every group, every attribute file, every thread's group, as text (the
# lines of every file, sorted: member lists compare as sets).  Counters
# and pressure are left out; RGCS: the root's members are the machine's.
snap() {
	(
		cd "$ROOT" || exit 1
		find . -type d | LC_ALL=C sort
		grep -r -H --exclude='cpu.stat*' --exclude='cgroup.stat*' \
			--exclude=cgroup.events --exclude='*.pressure' --exclude=cgroup.kill \
			--exclude=cgroup.event_control --exclude=stats --exclude=release_agent \
			--exclude=cgroup.controllers --exclude=cgroup.sane_behavior \
			'' . 2>/dev/null | LC_ALL=C sort
	) | if [ "$BACKEND" = rgcs ]; then grep -v '^\./members:'; else cat; fi
}

case $BACKEND in
cgroup1)
	cat >plan.conf <<'CONF'
backend = "cgroup1";
groups = (
  { name = "keep";     shares = 1024; },
  { name = "keep/q";   shares = 400; },
  { name = "new1";     shares = 2000; },
  { name = "new1/sub"; },
  { name = "new2";     shares = 64; }
);
CONF
	;;
cgroup2)
	cat >plan.conf <<'CONF'
backend = "cgroup2";
groups = (
  { name = "keep"; }, { name = "keep/q"; },
  { name = "new1"; }, { name = "new1/sub"; }, { name = "new2"; }
);
CONF
	;;
rgcs)
	cat >plan.conf <<'CONF'
backend = "rgcs";
groups = (
  { name = "keep";     shares = "min_shares=30"; },
  { name = "keep/q";   shares = "res=numtasks,max_shares=8"; },
  { name = "new1";     shares = "min_shares=15,child_shares_divisor=60"; },
  { name = "new1/sub"; shares = "min_shares=6"; },
  { name = "new2"; }
);
CONF
	;;
esac

baseline
before=$(snap)
[ -n "$before" ] || { echo "FAIL: empty snapshot"; exit 1; }
run "$RGCTL" "${R[@]}" apply --prune --dry-run plan.conf
expect_rc 0 "dry run"
N=$(printf '%s\n' "$out" | sed -n 's/^\([0-9]*\) changes (dry run.*/\1/p')
expect_match "$out" 'delete stray' "the plan deletes stray"
expect_match "$out" 'delete old/kid' "the plan deletes old/kid"
[ "${N:-0}" -ge 5 ] && ok || fail "plan too short: $out"
[ "$(snap)" = "$before" ] && ok || fail "the dry run changed something"

# The sweep: every step, failing before and after it.
broken=0
for ((k = 1; k <= N; k++)); do
	for how in "" +; do
		run env RGCTL_APPLY_FAIL_STEP="$k$how" "$RGCTL_FAULTS" "${R[@]}" apply --prune plan.conf
		expect_rc 1 "failure at step $k$how"
		expect_match "$err" "step $k of $N .*failure injected" "step $k$how named"
		expect_match "$err" "nothing (was )?changed" "step $k$how: nothing changed reported"
		[ -z "$out" ] && ok || fail "step $k$how: a failed apply printed changes: $out"
		after=$(snap)
		# what undo re-created is rgctl's again
		marks=$("$RGCTL" "${R[@]}" dump | grep -c '# made by rgctl$')
		[ "$marks" = 5 ] && ok || fail "step $k$how: $marks of the 5 groups are marked as rgctl's after the rollback"
		if [ "$after" != "$before" ]; then
			fail "step $k$how: the hierarchy differs after the rollback (stderr: $err):"
			diff <(printf '%s\n' "$before") <(printf '%s\n' "$after") | head -20
			broken=$((broken + 1))
			[ "$broken" -ge 3 ] && break 2
			reset
		else
			ok
		fi
	done
done

# An undo that fails is named, and nothing claims "nothing changed".
run env RGCTL_APPLY_FAIL_STEP="$N" RGCTL_APPLY_FAIL_UNDO=$((N - 1)) "$RGCTL_FAULTS" "${R[@]}" apply --prune plan.conf
expect_rc 1 "failing undo"
expect_match "$err" "the groups are NOT as before" "failing undo reported"
expect_match "$err" "could not be undone: failure injected by RGCTL_APPLY_FAIL_UNDO" "failing undo named"
printf '%s' "$err" | grep -q "nothing changed" && fail "a failing undo claimed nothing changed: $err" || ok
reset
[ "$(snap)" = "$before" ] && ok || fail "reset did not restore the baseline"

# The plan applies, the file is then fully present, and again is a no-op.
run "$RGCTL" "${R[@]}" apply --prune plan.conf
expect_rc 0 "apply (stderr: $err)"
expect_match "$out" "^$N changes$|"$'\n'"$N changes$" "apply made the $N changes"
for g in keep keep/q new1 new1/sub new2; do
	[ -d "$ROOT/$g" ] && ok || fail "$g missing after apply"
done
for g in old stray; do
	[ -d "$ROOT/$g" ] && fail "$g still there after --prune" || ok
done
case $BACKEND in
cgroup1)
	[ "$(cat "$ROOT/keep/q/cpu.shares")" = 400 ] && ok || fail "keep/q shares not 400"
	[ "$(cat "$ROOT/keep/q/cpu.cfs_quota_us")" = 50000 ] && ok || fail "keep/q lost its quota"
	grep -qx "$T1" "$ROOT/tasks" && ok || fail "thread $T1 of the deleted old/kid is not in the root"
	grep -qx "$T2" "$ROOT/keep/q/tasks" && ok || fail "thread $T2 moved out of keep/q"
	;;
rgcs)
	expect_match "$(cat "$ROOT/keep/shares")" "res=cpu,min_shares=30," "keep min_shares"
	expect_match "$(cat "$ROOT/keep/q/shares")" "res=numtasks,min_shares=-3,max_shares=8," "keep/q numtasks"
	expect_match "$(cat "$ROOT/keep/q/shares")" "res=cpu,min_shares=5," "keep/q cpu kept"
	grep -qx "$T2" "$ROOT/keep/q/members" && ok || fail "thread $T2 moved out of keep/q"
	;;
esac
run "$RGCTL" "${R[@]}" apply --prune plan.conf
expect_rc 0 "second apply"
[ "$out" = "0 changes" ] && ok || fail "the second apply is not a no-op: $out"
finish
