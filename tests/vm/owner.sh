#!/bin/bash
# Ownership under attack on the guest's real cgroup v2 (issue 24): the
# checks of tests/rgctl/owner.sh (rmdir + mkdir, delete + mkdir, forged
# and old marks, an old registry file, a second mount of the hierarchy).
. "$(dirname "$0")/lib.sh"
exec bash "$SRC_DIR/tests/rgctl/owner.sh" cgroup2
