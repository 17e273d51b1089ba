#!/bin/bash
# rgctl's backend detection on a kernel with configfs mounted but no
# res_groups (no RGCS in 6.1): asked for RGCS it says what is missing,
# left to itself it picks cgroup v2.
. "$(dirname "$0")/lib.sh"
C=$(mount_of configfs)
[ -n "$C" ] || { fail "configfs is not mounted in the guest"; finish; }
[ ! -e "$C/res_groups" ] && ok || fail "$C/res_groups exists on a 6.1 kernel"
run "$RG" --backend rgcs list
expect_rc 1 "--backend rgcs without res_groups"
echo "rgctl --backend rgcs list: $err"
expect_eq "$err" "rgctl: no rgcs hierarchy is mounted: configfs at $C has no res_groups (the kernel has no Resource Groups)" "the message names configfs and res_groups"
[ "$(printf '%s\n' "$err" | grep -c .)" = 1 ] && ok || fail "more than one line: $err"
[ -z "$out" ] && ok || fail "output with the error: $out"
run "$RG" --backend rgcs --root "$C" list
expect_rc 1 "--backend rgcs --root configfs"
echo "rgctl --backend rgcs --root $C list: $err"
expect_match "$err" "'$C'.*(not an RGCS|res_groups)" "the message names the configfs mount and says it is not RGCS"
[ ! -e "$C/res_groups" ] && ok || fail "rgctl created $C/res_groups"
run "$RG" --json whereis $$
expect_rc 0 "whereis without --backend"
expect_eq "$(json_get "$out" .backend)" cgroup2 "the default backend is cgroup v2"
finish
