#!/bin/bash
# The signal sweep of issue 30 on the guest's cgroup v2 (the host has no
# cpu controller on v2): the host's scripts, on a private subtree of the
# v2 root each makes, with the cpu controller available.
#   tests/rgctl/apply/cmd_signals.sh cgroup2 create|delete|set: SIGTERM and
#     SIGINT, then SIGKILL, at 10 points each (the host: 20), three in
#     four landing inside the run, the whole tree compared,
#     cgroup.subtree_control included: set enables cpu in the test root's,
#     which the undo and the recovery must disable again
# (apply: signals_apply.sh.)  The points are timed from the command's
# first step (rgctl-faults' mark), so rgctl's start-up, slow under TCG,
# falls outside them; each step waits 100 ms so the run is long enough to
# aim at.  Each script runs as on the host; its exit status is one check
# here.
. "$(dirname "$0")/lib.sh"
[ "${WITH_LIBCONFIG:-ON}" = OFF ] && skip_test "rgctl was built without libconfig"
grep -qw cpu "$U/cgroup.controllers" || { fail "no cpu controller in $U/cgroup.controllers"; finish; }
[ -x "$BUILD_DIR/src/rgctl/rgctl-faults" ] || skip_test "rgctl-faults is not built (BUILD_TESTING=OFF)"
export RGD_SIG_DELAY_US=100000
# 10 points per signal kind, not the host's 20: the host sweeps the same
# code on v1 and RGCS at 20; here each point costs a TCG second or more
export RGD_SIG_POINTS=10
for c in create delete set; do
	sweep "cmd_signals cgroup2 $c" cmd_signals.sh cgroup2 "$c"
done
finish
