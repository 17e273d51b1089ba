#!/bin/bash
# The signal sweep of issue 30 on the guest's cgroup v2, for apply (the
# host has no cpu controller on v2; signals.sh: the other commands): the
# host's scripts, on a private subtree of the v2 root each makes, with the
# cpu controller available.
#   tests/rgctl/apply/apply_signals.sh 300 (a mixed plan), 100 of each single
#     kind (create, shares, prune), apply_kill.sh 100 (smaller plans than
#     the host's: TCG is slow), 10 points each (the host: 20), with
#     RGD_BACKEND=cgroup2; the groups with members in box/
# The points are timed from the first step (rgctl-faults' mark), so
# rgctl's start-up, slow under TCG, falls outside them.  Each runs as on
# the host; its exit status is one check here.
. "$(dirname "$0")/lib.sh"
[ "${WITH_LIBCONFIG:-ON}" = OFF ] && skip_test "rgctl was built without libconfig"
grep -qw cpu "$U/cgroup.controllers" || { fail "no cpu controller in $U/cgroup.controllers"; finish; }
[ -x "$BUILD_DIR/src/rgctl/rgctl-faults" ] || skip_test "rgctl-faults is not built (BUILD_TESTING=OFF)"
export RGD_BACKEND=cgroup2
# 10 points each, not the host's 20: the host sweeps the same code on v1
# and RGCS at 20; here each point costs a TCG second or more
export RGD_SIG_POINTS=10
sweep "apply_signals cgroup2" apply_signals.sh 300
for k in create shares prune; do
	sweep "apply_signals cgroup2 $k" apply_signals.sh 100 "$k"
done
sweep "apply_kill cgroup2" apply_kill.sh 100
finish
