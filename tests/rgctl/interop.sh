# rgctl and Debian's cgroup-tools (libcgroup) on the same cgroup v1 cpu
# hierarchy: a group made by cgcreate is listed and managed by rgctl, and
# cgget reads back what rgctl set.  Needs root.
. "$(dirname "$0")/common.sh"
require_root "creates groups in the cgroup v1 cpu hierarchy"
for t in cgcreate cgget cgset cgdelete lscgroup jq; do
	command -v $t >/dev/null || skip_test "$t is not installed (cgroup-tools, jq)"
done
CPU=$(mount_of cgroup cpu)
[ -n "$CPU" ] || skip_test "no cgroup v1 hierarchy with the cpu controller is mounted"
CLEANUPS+=("cg_remove '$CPU' '$CPU/$G'")
r() { run "$RG" --backend cgroup1 --root "$CPU" "$@"; }

# made by cgcreate, seen and managed by rgctl
run cgcreate -g "cpu:/$G/lib"
expect_rc 0 "cgcreate"
r --json list "$G"
expect_eq "$(json_get "$out" '[.groups[].name] | join(",")')" "$G,$G/lib" "rgctl lists the cgcreate'd group"
r shares "$G/lib" 700
expect_rc 0 "rgctl shares on a cgcreate'd group"
run cgget -n -v -r cpu.shares "/$G/lib"
expect_eq "$out" 700 "cgget reads what rgctl set"
run cgset -r cpu.shares=300 "/$G/lib"
r shares "$G/lib"
expect_eq "$out" 300 "rgctl reads what cgset set"
spawn 1
r attach "$G/lib" "${PIDS[0]}"
expect_rc 0 "rgctl attach into a cgcreate'd group"
expect_eq "$(cat "$CPU/$G/lib/tasks")" "${PIDS[0]}" "the task is in the cgcreate'd group"
r delete "$G/lib"
expect_rc 0 "rgctl deletes a populated cgcreate'd group"
[ ! -d "$CPU/$G/lib" ] && ok || fail "$G/lib still there"

# made by rgctl, seen by libcgroup
r create "$G/mine" --shares 4096
expect_rc 0 "rgctl create"
run cgget -n -v -r cpu.shares "/$G/mine"
expect_eq "$out" 4096 "cgget reads rgctl's shares"
run lscgroup "cpu:/$G"
expect_match "$out" "cpu:/$G/mine" "lscgroup lists rgctl's group"
run cgdelete -g "cpu:/$G/mine"
expect_rc 0 "cgdelete of rgctl's group"
r list "$G"
expect_rc 0 "list after cgdelete"
printf '%s\n' "$out" | grep -q "$G/mine" && fail "rgctl still lists $G/mine" || ok
r delete "$G"
expect_rc 0 "delete $G"
finish
