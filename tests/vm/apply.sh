#!/bin/bash
# rgctl apply / dump / --prune on the guest's cgroup v2 with cpu: groups
# created parents first with their cpu.weight, idempotence, the dump
# round trip, a weight change, and --prune of a group with a live member.
. "$(dirname "$0")/lib.sh"
[ "${WITH_LIBCONFIG:-ON}" = OFF ] && skip_test "rgctl was built without libconfig"
W=$(mktemp -d)
CLEANUPS+=("rm -rf '$W'")
cd "$W" || exit 1
[ -n "${VM_ENABLE_CPU:-}" ] && enable_cpu_along "$G/x"
# the test's own root group, cpu enabled down to it by rgctl
run "$RG" --backend cgroup2 create "$G/x" -p --shares 100
expect_rc 0 "create the test root"
run "$RG" --backend cgroup2 delete "$G/x"
R=(--backend cgroup2 --root "$U/$G")
[ -n "${VM_ENABLE_CPU:-}" ] && echo +cpu >"$U/$G/cgroup.subtree_control"

cat >a.conf <<'CONF'
backend = "cgroup2";
groups = (
  { name = "db/batch"; shares = 50; },
  { name = "db";       shares = 800; },
  { name = "web"; }
);
CONF
run "$RG" "${R[@]}" apply --dry-run a.conf
expect_rc 0 "dry run"
expect_match "$out" '3 changes \(dry run' "dry-run plan"
[ ! -d "$U/$G/db" ] && ok || fail "dry run created a group"
run "$RG" "${R[@]}" apply a.conf
expect_rc 0 "apply"
expect_match "$out" '3 changes$' "apply output"
expect_eq "$(cat "$U/$G/db/cpu.weight" 2>&1)" 800 "db cpu.weight"
expect_eq "$(cat "$U/$G/db/batch/cpu.weight" 2>&1)" 50 "db/batch cpu.weight"
[ -d "$U/$G/web" ] && ok || fail "web not created"
run "$RG" "${R[@]}" apply a.conf
expect_eq "$out" "0 changes" "second apply"

run "$RG" "${R[@]}" dump
expect_rc 0 "dump"
printf '%s\n' "$out" >dump1.conf
expect_match "$out" '\{ name = "db/batch"; shares = 50; \}' "dump lists db/batch with its weight"
run "$RG" "${R[@]}" apply dump1.conf
expect_eq "$out" "0 changes" "applying the dump"
run "$RG" "${R[@]}" dump
expect_eq "$out" "$(cat dump1.conf)" "dump after applying it"

sed 's/800/1200/' a.conf >b.conf
run "$RG" "${R[@]}" apply b.conf
expect_match "$out" $'^set db shares=1200 \\(was 800\\)\n1 change$' "weight change"
expect_eq "$(cat "$U/$G/db/cpu.weight")" 1200 "db cpu.weight changed"

# --prune: a stray leaf with a live member goes, the member survives in
# the parent (web has no controller enabled for its children)
"$RG" "${R[@]}" create web/stray	# rgctl's: --prune deletes only those
spawn 1
echo "${PIDS[0]}" >"$U/$G/web/stray/cgroup.procs"
run "$RG" "${R[@]}" apply --prune b.conf
expect_rc 0 "prune"
expect_match "$out" "delete web/stray" "prune deletes web/stray"
[ ! -d "$U/$G/web/stray" ] && ok || fail "web/stray not pruned"
kill -0 "${PIDS[0]}" 2>/dev/null && ok || fail "the pruned group's member died"
expect_eq "$(cat "/proc/${PIDS[0]}/cgroup")" "0::/$G/web" "the member moved to web"
run "$RG" "${R[@]}" apply --prune b.conf
expect_eq "$out" "0 changes" "prune is idempotent"

# A stray right below --root, whose cpu is enabled for populated children:
# cgroup v2 lets no process into the root then, and rgctl moves none above
# it: refused with the reason, nothing changed.
"$RG" "${R[@]}" create stray
echo "${PIDS[0]}" >"$U/$G/stray/cgroup.procs"
run "$RG" "${R[@]}" apply --prune b.conf
expect_rc 1 "prune of a populated group below a root holding no processes"
expect_match "$err" "delete stray.*its tasks could not move to the parent: on cgroup v2" "the refusal says why"
[ -d "$U/$G/stray" ] && ok || fail "stray was deleted anyway"
expect_eq "$(cat "/proc/${PIDS[0]}/cgroup")" "0::/$G/stray" "the member stayed where it was"
echo "${PIDS[0]}" >"$U/cgroup.procs"
rmdir "$U/$G/stray"
finish
