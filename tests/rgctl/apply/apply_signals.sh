#!/bin/bash
# apply_signals.sh [GROUPS [KIND]]: SIGTERM and SIGINT during rgctl apply
# --prune (issue 30) on cgroup v1 (a private subtree of the cpu hierarchy;
# with RGD_BACKEND=cgroup2 a private subtree of the v2 root, with rgcs
# the emulator).  The base has keep (with shares), stray with a process
# and stray/kid with another; the plan, by KIND:
#   mixed   (the default) creates GROUPS groups with shares, changes
#           keep's shares and deletes stray and stray/kid with their
#           members
#   create  creates GROUPS groups with shares, nothing else
#   shares  changes the shares of GROUPS groups the base has
#   prune   deletes GROUPS groups the base has (rgctl made them)
# The run is timed first, from its first step (rgctl-faults' mark) to its
# last change; then a signal is sent at 20 points spread over it, SIGTERM
# and SIGINT in turn.  After each: one message "interrupted by SIG...: N
# changes undone, the groups are as before" (or, past the last change,
# that they are kept), exit status 128 + the signal, the tree (rgctl dump,
# every group's members) as before, and no process lost.  Then --no-undo
# keeps what was done.
. "$SRC_DIR/tests/rgctl/tasks_lib.sh"
N=${1:-3000}
KIND=${2:-mixed}
case $KIND in mixed | create | shares | prune) ;; *) echo "unknown plan kind $KIND"; exit 2 ;; esac
# the single-kind plans are short (500 creates take 50 ms here): each of
# their steps waits 1 ms first (rgctl-faults), so the run is mostly that
# wait and its length is the same loaded or not
[ "$KIND" = mixed ] || export RGCTL_STEP_DELAY_US=${RGCTL_STEP_DELAY_US:-1000}
# RGD_BACKEND=cgroup2: on a private subtree of the v2 root; rgcs: on the
# emulator (tasks_lib.sh)
rgd_setup_backend signals
needs_libconfig
cd "$WORK" || exit 1
R=(--backend "$BACKEND" --root "$ROOT")

# a process in stray, one in stray/kid (the groups the mixed plan deletes)
sleep 600 & P1=$!
sleep 600 & P2=$!
PIDS+=("$P1" "$P2")

# conf KEEP_SHARES STRAY(0/1) FROM VALUE: a configuration: keep with
# KEEP_SHARES, stray and stray/kid if STRAY, g1..gN with shares VALUE+i%900
# (none if VALUE is 0), none if FROM is 0
conf() {
	local i last=
	echo 'groups = ('
	echo "  { name = \"keep\"; shares = $(shv "$1"); }"
	[ -n "$SP" ] && echo "  ,{ name = \"${SP%/}\"; }"
	[ "$2" = 1 ] && echo "  ,{ name = \"${SP}stray\"; }, { name = \"${SP}stray/kid\"; }"
	if [ "$3" = 1 ]; then
		for ((i = 1; i <= N; i++)); do
			if [ "$4" = 0 ]; then
				echo "  ,{ name = \"g$i\"; }"
			else
				echo "  ,{ name = \"g$i\"; shares = $(shv $(($4 + i % 900))); }"
			fi
		done
	fi
	echo ');'
}
case $KIND in
mixed)	conf 512 1 0 0 >base.conf; conf 2048 0 1 100 >plan.conf; C=$((N + 3)) ;;
create)	conf 512 1 0 0 >base.conf; conf 512 1 1 100 >plan.conf; C=$N ;;
shares)	conf 512 1 1 100 >base.conf; conf 512 1 1 1001 >plan.conf; C=$N ;;
prune)	conf 512 1 1 0 >base.conf; conf 512 1 0 0 >plan.conf; C=$N ;;
esac

# The base state: keep (512), stray with P1, stray/kid with P2, and the
# g* groups of the shares and prune plans.  The g* groups go by rmdir
# first (apply --prune would save each one first: slow).
reset() {
	find "$ROOT" -mindepth 1 -maxdepth 1 -type d -name 'g*' -print0 | xargs -0 -r rmdir
	"$RGCTL" "${R[@]}" apply --prune base.conf >/dev/null || { echo "FAIL: cannot apply base.conf"; exit 1; }
	echo "$P1" >"$ROOT/${SP}stray/$PROCS" && echo "$P2" >"$ROOT/${SP}stray/kid/$PROCS" ||
		{ echo "FAIL: cannot place the processes"; exit 1; }
}
# The whole tree: rgctl dump, then each group's members (one awk).
snap() {
	"$RGCTL" "${R[@]}" dump
	(cd "$ROOT" && find . -mindepth "$MEMDEPTH" -name "$MEMBERS" -print0 | LC_ALL=C sort -z |
		xargs -0 awk 'FNR == 1 { printf "\n%s:", FILENAME } { printf " %s", $1 } END { print "" }')
}
mark_open
reset
before=$(snap)
expect_match "$before" "stray/kid/$MEMBERS: $P2" "the base state has P2 in stray/kid"
# The run's length, measured as the trials run it (the shorter of two):
# from its first step (rgctl-faults' mark, tasks_lib.sh: starting and
# planning come before it and change nothing) to its end.
timed_length "${R[@]}" apply --prune plan.conf
echo "apply ($KIND) of $C changes: $D ms from its first step to its end"
[ "$(snap)" = "$before" ] && ok || fail "reset does not give the base state back"
[ "$D" -gt 50 ] || skip_test "the run ($D ms) is too short to send signals inside it"
hits=0
# sig_trial SIG MS: send SIG after MS ms; check the message, the status
# and the tree.
sig_trial() {
	local sig=$1 ms=$2 pid num after
	num=$(kill -l "$sig")
	if ! faults_bg out.txt err.txt "${R[@]}" apply --prune plan.conf; then
		fail "SIG$sig at $ms ms: apply ended before its first step (stderr: $(cat err.txt))"
		reset
		return
	fi
	pid=$BG
	sleep_ms "$ms"
	if ! kill -s "$sig" "$pid" 2>/dev/null; then
		# finished before the signal (a loaded machine): not a trial
		wait "$pid"
		echo "SIG$sig at $ms ms: rgctl had finished (exit $?)"
		reset
		return
	fi
	wait "$pid"
	rc=$? err=$(cat err.txt)
	if [ "$rc" = 0 ] && [ -z "$err" ] && [ "$(snap)" = "$applied" ]; then
		# the signal came once the run was over, in its exit (ASan's
		# leak check there takes a while: CI, 2026-12-05): the run is
		# whole, exit 0; not a trial
		echo "SIG$sig at $ms ms: rgctl had done its work (exit 0)"
		reset
		return
	fi
	hits=$((hits + 1))
	expect_eq "$rc" "$((128 + num))" "SIG$sig at $ms ms: exit status (stderr: $err)"
	if printf '%s' "$err" | grep -q "after the last change"; then
		# past the last change: kept, said so; the tree goes back by reset
		expect_match "$err" "^rgctl: apply: SIG$sig came after the last change: the $C changes made are kept$" "SIG$sig at $ms ms: kept, said"
	else
		expect_match "$err" "^rgctl: apply: interrupted by SIG$sig: [0-9]+ changes? undone, the groups are as before$" "SIG$sig at $ms ms: the message"
		[ "$(printf '%s\n' "$err" | wc -l)" = 1 ] && ok || fail "SIG$sig at $ms ms: more than one line: $err"
		after=$(snap)
		if [ "$after" = "$before" ]; then
			ok
		else
			fail "SIG$sig at $ms ms: the tree differs after the undo:"
			diff <(printf '%s\n' "$before") <(printf '%s\n' "$after") | head -10
		fi
	fi
	kill -0 "$P1" 2>/dev/null && kill -0 "$P2" 2>/dev/null && ok || fail "SIG$sig at $ms ms: a process was lost"
	[ "$(snap)" = "$before" ] || reset
}

# RGD_SIG_POINTS: fewer points (the TCG guest: 10); three in four must
# land inside the run (past its end: counted out)
POINTS=${RGD_SIG_POINTS:-20}
for ((j = 1; j <= POINTS; j++)); do
	ms=$((D * j / (POINTS + 1)))
	if ((j % 2)); then sig_trial TERM "$ms"; else sig_trial INT "$ms"; fi
done
echo "$hits of $POINTS signals came while apply ran"
[ "$hits" -ge $(((POINTS * 3 + 3) / 4)) ] && ok || fail "only $hits of $POINTS signals came while rgctl ran"
# a signal while another apply holds the lock ends the wait, nothing done
exec 9<"$ROOT"
flock -x 9
"$RGCTL" "${R[@]}" apply --prune --wait 60 plan.conf >out.txt 2>err.txt &
pid=$!
sleep 0.3
kill -TERM "$pid"
wait "$pid"
rc=$?
expect_eq "$rc" 143 "SIGTERM waiting for the lock: exit status"
expect_match "$(cat err.txt)" "interrupted by SIGTERM while waiting for the lock on .*: nothing was changed" "SIGTERM waiting for the lock: the message"
exec 9<&-
[ "$(snap)" = "$before" ] && ok || fail "SIGTERM waiting for the lock changed the tree"

# --no-undo: what was done stays, and the message says so (sent earlier
# when the run was over, or past its last change, before the signal)
for frac in 2 4 8 16; do
	faults_bg out.txt err.txt "${R[@]}" apply --prune --no-undo plan.conf
	pid=$BG
	sleep_ms $((D / frac))
	kill -TERM "$pid" 2>/dev/null
	wait "$pid"
	rc=$?
	grep -q "kept (--no-undo)" err.txt && break
	reset
done
expect_eq "$rc" 143 "--no-undo: exit status"
expect_match "$(cat err.txt)" "interrupted by SIGTERM: [0-9]+ changes? kept \\(--no-undo\\), [0-9]+ not made" "--no-undo: the message"
[ "$(snap)" != "$before" ] && ok || fail "--no-undo: nothing was kept"
reset
finish
