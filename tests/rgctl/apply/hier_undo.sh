#!/bin/bash
# hier_undo.sh: cgroup v1, a group is one thing in every hierarchy it spans
# (issue 42 item 1): the undo of delete -R (after a failure, on SIGTERM),
# the recovery after a SIGKILLed delete -R or apply --prune, and prune
# itself treat cpu, cpuacct, memory, pids, blkio and cpuset alike.  The
# tree d, d/a, d/a/b, d/c below a root of the test's own carries settings
# in memory (limit, swappiness, oom_kill_disable), pids (pids.max), blkio
# (a read throttle, where a block device takes one), cpu and cpuset (d/a
# has a cpuset directory of its own), and the threads of one process are
# split: in d/a/b in cpu, in d/c in memory, in d in pids, in d/a in cpuset.
# After each undo or recovery every hierarchy's directories, writable
# settings and tasks are as before.  Needs root and cgroup v1 with cpu,
# memory and pids on hierarchies of their own (this machine's layout).
. "$(dirname "$0")/../common.sh"
require_root "creates groups in the cgroup v1 hierarchies"
needs_libconfig() { [ "${WITH_LIBCONFIG:-ON}" != OFF ] && [ "${WITH_LIBCONFIG:-ON}" != 0 ]; }
MT=$BUILD_DIR/tests/rgctl/mt_helper
FAULTS=$BUILD_DIR/src/rgctl/rgctl-faults
[ -x "$MT" ] && [ -x "$FAULTS" ] || { echo "FAIL: $MT or $FAULTS not built"; exit 1; }
CPU=$(mount_of cgroup cpu)
[ -n "$CPU" ] || skip_test "no cgroup v1 hierarchy with the cpu controller is mounted"
declare -A H
for c in cpuacct memory pids blkio cpuset; do
	m=$(mount_of cgroup $c)
	[ -n "$m" ] && [ "$m" != "$CPU" ] && H[$c]=$m
done
[ -n "${H[memory]:-}" ] && [ -n "${H[pids]:-}" ] ||
	skip_test "needs memory and pids on cgroup v1 hierarchies of their own (this host: cpu at $CPU)"
use_hierarchy "$CPU"
T=$G.hier
CLEANUPS+=("cg_remove '$CPU' '$CPU/$T'")
ALL=("$CPU")
for c in cpuacct memory pids blkio cpuset; do [ -n "${H[$c]:-}" ] && ALL+=("${H[$c]}"); done
WORK=$(mktemp -d)
CLEANUPS+=("rm -rf '$WORK'")
export RGCTL_RUNDIR=$WORK/run
run "$RG" -b cgroup1 --root "$CPU" create "$T"
expect_rc 0 "create the test's root $T in every hierarchy"
CS=${H[cpuset]:-}
if [ -n "$CS" ]; then
	mkdir "$CS/$T" && cat "$CS/cpuset.cpus" >"$CS/$T/cpuset.cpus" &&
		cat "$CS/cpuset.mems" >"$CS/$T/cpuset.mems" || { echo "FAIL: cannot make $CS/$T"; exit 1; }
fi
R=(-b cgroup1 --root "$CPU/$T")
r() { run "$RG" "${R[@]}" "$@"; }

# a block device blkio can throttle (its MAJ:MIN), if any
DEV=
if [ -n "${H[blkio]:-}" ]; then
	for d in /sys/block/*/dev; do
		case $d in */loop*|*/ram*|*/zram*) continue ;; esac
		DEV=$(cat "$d") && break
	done
fi

"$MT" & M=$!
sleep 600 & S=$!
SPAWNED+=("$M" "$S")
wait_until 5 '[ "$(ls /proc/$M/task | wc -l)" -ge 4 ]' || { echo "FAIL: mt_helper did not start its threads"; exit 1; }
mapfile -t TH < <(ls /proc/$M/task | grep -vx "$M")

put() { printf '%s' "$2" >"$1" || { echo "FAIL: cannot write '$2' to $1"; exit 1; }; }
baseline() {
	r create -p d/a/b d/c
	[ "$rc" = 0 ] || { echo "FAIL: baseline: $err"; exit 1; }
	put "$CPU/$T/d/a/cpu.shares" 300
	put "${H[memory]}/$T/d/a/memory.limit_in_bytes" 55M
	put "${H[memory]}/$T/d/a/memory.swappiness" 33
	put "${H[memory]}/$T/d/c/memory.oom_control" 1
	put "${H[pids]}/$T/d/a/b/pids.max" 7
	put "${H[pids]}/$T/d/pids.max" 50
	[ -n "$DEV" ] && put "${H[blkio]}/$T/d/c/blkio.throttle.read_bps_device" "$DEV 1048576"
	if [ -n "$CS" ]; then
		r set d/a cpuset.cpus=0
		[ "$rc" = 0 ] || { echo "FAIL: baseline: set cpuset.cpus: $err"; exit 1; }
	fi
	r attach d/a/b "$M"
	[ "$rc" = 0 ] || { echo "FAIL: baseline: attach: $err"; exit 1; }
	r attach d/c "$S"
	# the threads split across the hierarchies
	put "${H[memory]}/$T/d/c/tasks" "${TH[0]}"
	put "${H[pids]}/$T/d/tasks" "${TH[1]}"
	[ -n "$CS" ] && put "$CS/$T/d/a/tasks" "${TH[2]}"
	return 0
}
reset() {
	local h
	for h in "${ALL[@]}"; do cg_remove_one "$h" "$h/$T/d"; done
	rm -f "$RGCTL_RUNDIR"/journal.*
	baseline
}
# Every hierarchy: its directories below the root, each readable and
# writable file's content (tasks sorted), not the counters.
snap() {
	local h
	for h in "${ALL[@]}"; do
		echo "== $h"
		(cd "$h/$T" && find . -type d | LC_ALL=C sort &&
			find . -type f -perm -u=r -perm -u=w ! -name '*failcnt' ! -name '*max_usage_in_bytes' -print0 |
			LC_ALL=C sort -z | xargs -0 perl -e '
				for my $f (@ARGV) {
					open(my $fh, "<", $f) or next;
					my @l = <$fh>;
					chomp @l;
					@l = sort { $a <=> $b } @l if $f =~ m{/(tasks|cgroup\.procs)$};
					print "$f: ", join(" ", @l), "\n";
				}')
	done
}
journals() { find "$RGCTL_RUNDIR" -name 'journal.*' 2>/dev/null | wc -l; }
# has_record LINE: the run's journal holds that line
has_record() { grep -qx "$1" "$RGCTL_RUNDIR"/journal.* 2>/dev/null; }
check_tree() {	# check_tree WHAT
	local now
	now=$(snap)
	if [ "$now" = "$before" ]; then ok; else
		fail "$1: the hierarchies differ from before:"
		diff <(printf '%s\n' "$before") <(printf '%s\n' "$now") | head -20
	fi
}

reset
before=$(snap)
# the baseline is what it says (else the checks below compare nothing)
expect_match "$before" "^\\./d/a/memory\\.limit_in_bytes: 57671680$" "memory.limit_in_bytes in the snapshot"
expect_match "$before" "^\\./d/c/tasks: (.* )?${TH[0]}( |$)" "a thread in d/c in memory"
[ -n "$CS" ] && expect_match "$before" "^\\./d/a/tasks: ${TH[2]}$" "a thread in d/a in cpuset"

# 1. delete -R failing at its last step: the undo puts back every hierarchy
RGCTL_APPLY_FAIL_STEP=4+ run "$FAULTS" "${R[@]}" delete -R d
expect_rc 1 "delete -R d with its last step failing"
expect_match "$err" "failure injected" "the failure said"
check_tree "the undo of delete -R"
expect_eq "$(journals)" 0 "no journal left after the undo"

# 2. SIGTERM during delete -R: undone in every hierarchy
[ "$(snap)" = "$before" ] || reset
RGCTL_STEP_DELAY_US=300000 "$FAULTS" "${R[@]}" delete -R d >"$WORK/out" 2>"$WORK/err" &
pid=$!
wait_until 20 'has_record "s 2"' || fail "SIGTERM: the delete did not reach its third step"
kill -TERM "$pid"
wait "$pid"
rc=$?
expect_eq "$rc" 143 "delete -R stopped by SIGTERM (stderr: $(cat "$WORK/err"))"
expect_match "$(cat "$WORK/err")" "^rgctl: delete: interrupted by SIGTERM: [0-9]+ changes undone, the groups are as before$" "SIGTERM: one line says so"
check_tree "the undo of delete -R on SIGTERM"

# 3. SIGKILL during delete -R: the next rgctl recovers every hierarchy
[ "$(snap)" = "$before" ] || reset
RGCTL_STEP_DELAY_US=300000 "$FAULTS" "${R[@]}" delete -R d >"$WORK/out" 2>"$WORK/err" &
pid=$!
wait_until 20 'has_record "s 2"' || fail "SIGKILL: the delete did not reach its third step"
# the journal names what it saved in the other hierarchies
grep -q "^A [0-9]* memory memory.limit_in_bytes =57671680$" "$RGCTL_RUNDIR"/journal.* && ok ||
	fail "the journal lacks d/a's memory limit"
grep -qE "^p [0-9]+ memory( [0-9]+)* ${TH[0]}( |$)" "$RGCTL_RUNDIR"/journal.* && ok ||
	fail "the journal lacks d/c's thread in memory"
kill -KILL "$pid"
wait "$pid" 2>/dev/null
r list
expect_match "$err" "^rgctl: recovered from rgctl delete \\(pid $pid\\) killed after [0-9]+ of 4 changes: [0-9]+ undone, the groups are as before$" \
	"SIGKILL: list recovers and says so"
check_tree "the recovery after a SIGKILLed delete -R"
expect_eq "$(journals)" 0 "no journal left after the recovery"

# 4. what an undo cannot put back is named, one line each (not a count only)
[ "$(snap)" = "$before" ] || reset
RGCTL_APPLY_FAIL_STEP=4+ RGCTL_APPLY_FAIL_UNDO=2 run "$FAULTS" "${R[@]}" delete -R d
expect_rc 1 "delete -R d whose undo fails once"
expect_match "$err" "1 thing could not be restored" "the count"
expect_match "$err" "^rgctl:   'delete d/a/b' could not be undone: failure injected by RGCTL_APPLY_FAIL_UNDO$" \
	"the thing not restored named"
reset

if needs_libconfig; then
	printf 'groups = ( { name = "d"; } );\n' >"$WORK/d.conf"
	# 5. SIGKILL during apply --prune: the recovery puts back every hierarchy
	RGCTL_STEP_DELAY_US=300000 "$FAULTS" "${R[@]}" apply --prune "$WORK/d.conf" >"$WORK/out" 2>"$WORK/err" &
	pid=$!
	wait_until 20 'has_record "s 1"' || fail "apply --prune did not reach its second step"
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	r list
	expect_match "$err" "^rgctl: recovered from rgctl apply \\(pid $pid\\) killed after [0-9]+ of 3 changes: [0-9]+ undone, the groups are as before$" \
		"apply --prune SIGKILLed: list recovers"
	check_tree "the recovery after a SIGKILLed apply --prune"
	# 6. prune removes the groups from every hierarchy (cpuset too)
	[ "$(snap)" = "$before" ] || reset
	r apply --prune "$WORK/d.conf"
	expect_rc 0 "apply --prune"
	for h in "${ALL[@]}"; do
		[ -d "$h/$T/d" ] && [ ! -e "$h/$T/d/a" ] && [ ! -e "$h/$T/d/c" ] && ok ||
			fail "apply --prune left d/a or d/c in $h (or removed d)"
	done
	expect_match "$(awk -F: '$2 == "memory" { print $3 }' /proc/"${TH[0]}"/cgroup)" "/$T/d$" \
		"prune: d/c's thread in memory moved up to d"
else
	echo "# note: rgctl built without libconfig: the apply --prune checks skipped"
fi
finish
