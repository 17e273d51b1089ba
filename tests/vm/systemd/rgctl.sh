#!/bin/bash
# rgctl with systemd as PID 1 (the systemd guest of scripts/vm.sh): it
# detects systemd, works in its delegated subtree (rgctl.service,
# Delegate=yes, which systemd 252 marks with trusted.delegate=1) by
# default, refuses writes outside it naming the unit, --force overrides;
# create/attach/exec/apply/prune under the delegated subtree; a prune run
# over the whole tree (--force) deletes only rgctl's groups: system.slice,
# user.slice and init.scope stay, and so do their units; systemd-cgls
# shows rgctl's groups under rgctl.service.
. "$SRC_DIR/tests/rgctl/common.sh"
[ "${KATTR_IN_SYSTEMD_VM:-}" = 1 ] || skip_test "runs only inside the systemd guest of scripts/vm.sh"
require_root "changes the guest's cgroups"
RG=/usr/local/sbin/rgctl		# as cmake --install put it
[ -x "$RG" ] || { echo "FAIL: $RG not installed"; exit 1; }
CG=/sys/fs/cgroup
D=$CG/rgctl.slice/rgctl.service
W=$(mktemp -d)
CLEANUPS+=("rm -rf '$W'" "cg_remove '$CG' '$D/$G'" "cg_remove '$CG' '$CG/$G'")
cd "$W" || exit 1

# detection and the default root
expect_eq "$(systemctl is-active rgctl.service)" active "rgctl.service is active"
expect_eq "$(getfattr --absolute-names --only-values -n trusted.delegate "$D" 2>&1)" 1 "systemd marks the delegated cgroup (trusted.delegate)"
run "$RG" --json list
expect_rc 0 "list"
expect_eq "$(json_get "$out" .systemd.manages)" true "systemd detected"
expect_eq "$(json_get "$out" .root)" "$D" "default root: rgctl.service's cgroup"
expect_eq "$(json_get "$out" .systemd.unit)" rgctl.service "root's unit"
expect_eq "$(json_get "$out" .systemd.delegated)" true "root delegated"
run "$RG" list
expect_match "$out" "^systemd manages $CG; rgctl writes in $D, delegated by rgctl.service" "list says so"

# create, shares (cpu enabled within the delegated subtree), attach, exec
run "$RG" create -p "$G/db/batch" --shares 300
expect_rc 0 "create with shares below rgctl.service"
expect_eq "$(cat "$D/$G/db/batch/cpu.weight" 2>&1)" 300 "cpu.weight written"
# the mark: "rgctl-owner 1" and the group's name (rgctl(8) OWNERSHIP)
mark=$(getfattr --absolute-names --only-values -n trusted.rgctl "$D/$G/db" 2>&1)
expect_eq "$(printf '%s\n' "$mark" | head -1)" "rgctl-owner 1" "rgctl's mark (trusted.rgctl) on its group"
printf '%s\n' "$mark" | grep -qxF "name=$G/db" && ok || fail "the mark does not name $G/db: $mark"
spawn 2
run "$RG" attach "$G/db" "${PIDS[0]}"
expect_rc 0 "attach"
expect_eq "$(cat "/proc/${PIDS[0]}/cgroup")" "0::/rgctl.slice/rgctl.service/$G/db" "the task is in db"
# (not into db/batch: db has a process of its own now and cpu enabled
# for its children, which makes db/batch an invalid domain in cgroup v2)
run "$RG" exec "$G/db/batch" -- true
expect_rc 1 "exec into an invalid domain"
expect_match "$err" "not a valid domain" "invalid domain message"
"$RG" create "$G/e"
run "$RG" exec "$G/e" -- sh -c 'cat /proc/self/cgroup; cat /proc/$PPID/comm'
expect_rc 0 "exec (clone3)"
expect_eq "$out" "0::/rgctl.slice/rgctl.service/$G/e"$'\n'"rgctl" "exec runs in the group, rgctl waits outside it"
run systemd-cgls --no-pager -u rgctl.service
expect_match "$out" "$G" "systemd-cgls shows rgctl's groups under rgctl.service"
expect_match "$out" "${PIDS[0]} sleep" "systemd-cgls shows the attached task"

# outside the delegated subtree: refused, naming the unit
run "$RG" --root "$CG" create "$G"
expect_rc 1 "create at the top"
expect_match "$err" "belongs to -.slice, which systemd manages and has not delegated" "names -.slice"
[ -d "$CG/$G" ] && fail "the refused create made $CG/$G" || ok
run "$RG" --root "$CG" create "system.slice/$G"
expect_rc 1 "create in system.slice"
expect_match "$err" "belongs to system.slice" "names system.slice"
run "$RG" --root "$CG" attach system.slice/cron.service "${PIDS[1]}"
expect_rc 1 "attach outside"
run "$RG" --root "$CG" --force create "$G"
expect_rc 0 "--force creates at the top"
[ -d "$CG/$G" ] && ok || fail "--force did not create $CG/$G"
"$RG" --root "$CG" --force delete "$G"

# a scope delegated by systemd-run, as --root
systemd-run --scope -p Delegate=yes --unit="kattr-$G.scope" sleep 300 >/dev/null 2>&1 & SPAWNED+=($!)
for ((i = 0; i < 50; i++)); do [ -d "$CG/system.slice/kattr-$G.scope" ] && break; sleep 0.2; done
run "$RG" --root "$CG/system.slice/kattr-$G.scope" create job
expect_rc 0 "create in a scope with Delegate=yes (stderr: $err)"
"$RG" --root "$CG/system.slice/kattr-$G.scope" delete job

# apply and prune in the delegated subtree: a group made by mkdir stays
cat >a.conf <<CONF
groups = ( { name = "$G"; }, { name = "$G/db"; shares = 200; }, { name = "$G/web"; } );
CONF
"$RG" create "$G/old"
mkdir "$D/$G/foreign"
run "$RG" apply --prune a.conf
expect_rc 0 "apply --prune (stderr: $err)"
expect_match "$out" "delete $G/db/batch" "prune deletes rgctl's db/batch"
expect_match "$out" "delete $G/old" "prune deletes rgctl's old"
[ -d "$D/$G/foreign" ] && ok || fail "prune deleted $G/foreign (made by mkdir)"
expect_match "$err" "keeps .* rgctl did not create" "the kept groups are named"
expect_eq "$(cat "$D/$G/db/cpu.weight")" 200 "db's weight applied"

# prune over the whole tree: nothing of systemd's goes.  (Without tasks
# in rgctl's groups: one would have to move up into rgctl.service, whose
# cpu is enabled for its children, which cgroup v2 refuses.)
kill "${SPAWNED[@]}" 2>/dev/null; wait "${SPAWNED[@]}" 2>/dev/null; SPAWNED=()
rmdir "$D/$G/foreign"
for ((i = 0; i < 50; i++)); do [ -d "$CG/system.slice/kattr-$G.scope" ] || break; sleep 0.2; done
before=$(find "$CG" -maxdepth 3 -type d -not -path "$D/*" | sort)
units=$(systemctl list-units --no-legend --plain --state=active | awk '{ print $1 }' | sort)
printf 'groups = ( );\n' >none.conf
run "$RG" --root "$CG" --force apply --prune none.conf
expect_rc 0 "prune over the whole tree (stderr: $err)"
after=$(find "$CG" -maxdepth 3 -type d -not -path "$D/*" | sort)
expect_eq "$after" "$before" "system.slice, user.slice, init.scope and the rest are untouched"
for u in system.slice user.slice init.scope; do
	[ -d "$CG/$u" ] && ok || fail "$u is gone"
done
expect_match "$err" "--prune keeps [0-9]+ groups rgctl did not create" "the kept groups are counted"
[ -d "$D/$G" ] && fail "rgctl's groups were not pruned" || ok
expect_eq "$(systemctl list-units --no-legend --plain --state=active | awk '{ print $1 }' | sort)" "$units" "no unit stopped"
finish
