#!/bin/bash
# The units cmake --install ships, run by systemd (PID 1) in the systemd
# guest: rgctl.service holds the delegated subtree, rgctl-apply.service
# applied /etc/rgctl/rgctl.conf at boot (the installed example),
# rgctl-classify.service (Type=notify: active only after
# READY=1) moves a process the rules name, reloads on `systemctl reload`
# (SIGHUP) and stops; systemd-cgls shows the classified process in
# rgctl's group.
. "$SRC_DIR/tests/rgctl/common.sh"
[ "${KATTR_IN_SYSTEMD_VM:-}" = 1 ] || skip_test "runs only inside the systemd guest of scripts/vm.sh"
require_root "starts and stops units"
CG=/sys/fs/cgroup
D=$CG/rgctl.slice/rgctl.service
for u in rgctl.service rgctl-apply.service rgctl-classify.service; do
	expect_eq "$(systemctl is-active "$u")" active "$u active after boot"
	expect_eq "$(systemctl is-enabled "$u" 2>&1)" enabled "$u enabled"
done
expect_eq "$(systemctl show -P Type rgctl-classify.service)" notify "classify's Type"
expect_eq "$(systemctl show -P Delegate rgctl.service)" yes "rgctl.service delegates"
for g in batch interactive; do
	[ -d "$D/$g" ] && ok || fail "rgctl-apply.service did not make $g (from /etc/rgctl/rgctl.conf)"
done
W=$(mktemp -d)
CLEANUPS+=("rm -rf '$W'")
# the example's rule: comm "make" goes to batch
cp "$(command -v sleep)" "$W/make"
"$W/make" 300 & SPAWNED+=($!); M=$!
for ((i = 0; i < 50; i++)); do grep -qx "0::/rgctl.slice/rgctl.service/batch" "/proc/$M/cgroup" && break; sleep 0.2; done
expect_eq "$(cat "/proc/$M/cgroup")" "0::/rgctl.slice/rgctl.service/batch" "the daemon moved 'make' to batch"
run systemd-cgls --no-pager -u rgctl.service
expect_match "$out" "batch" "systemd-cgls shows batch"
expect_match "$out" "$M .*make" "systemd-cgls shows the classified process in it"
pid=$(systemctl show -P MainPID rgctl-classify.service)
run systemctl reload rgctl-classify.service
expect_rc 0 "systemctl reload"
for ((i = 0; i < 50; i++)); do journalctl -u rgctl-classify.service --no-pager | grep -q "reloaded" && break; sleep 0.2; done
expect_match "$(journalctl -u rgctl-classify.service --no-pager)" "reloaded 1 rule" "the daemon reloaded (SIGHUP)"
expect_eq "$(systemctl show -P MainPID rgctl-classify.service)" "$pid" "same daemon after the reload"
run systemctl stop rgctl-classify.service
expect_rc 0 "stop"
expect_eq "$(systemctl is-active rgctl-classify.service)" inactive "stopped"
kill -0 "$pid" 2>/dev/null && fail "the daemon still runs after stop" || ok
run systemctl start rgctl-classify.service
expect_rc 0 "start again"
expect_eq "$(systemctl is-active rgctl-classify.service)" active "active again"
# restart of apply: applies the file again, nothing to do
run systemctl restart rgctl-apply.service
expect_rc 0 "restart rgctl-apply"
expect_match "$(journalctl -u rgctl-apply.service --no-pager)" "0 changes" "the second apply had nothing to do"
finish
