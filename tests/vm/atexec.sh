#!/bin/bash
# rgctl classify --at-exec on the guest's cgroup v2 (issue 34): the host
# test tests/rgctl/classify/atexec.sh, run here: a program whose first action is
# reading /proc/self/cgroup finds itself in its group, VM_ATEXEC_RUNS
# (1,000) of them, for an exe rule, a comm rule through a symlink, a #!
# script and a uid rule; SIGKILL and SIGTERM in an exec storm.  It SKIPs,
# saying why, when the kernel has no fanotify permission events
# (CONFIG_FANOTIFY_ACCESS_PERMISSIONS).
. "$(dirname "$0")/lib.sh"
# the daemon's bound: the guest's per-test bound (KATTR_VM_TEST_BOUND) less 20 s
RGD_ATEXEC_BOUND=${VM_ATEXEC_BOUND:-$((${KATTR_VM_TEST_BOUND:-900} - 20))} \
	exec bash "$SRC_DIR/tests/rgctl/classify/atexec.sh" v2 "${VM_ATEXEC_RUNS:-1000}"
