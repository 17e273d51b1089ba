# rgctl on the real cgroup v2 hierarchy: membership commands for real; shares
# where cpu is enabled, else a clear refusal.  Needs root.
. "$(dirname "$0")/common.sh"
require_root "creates groups in the cgroup v2 hierarchy"
command -v jq >/dev/null || skip_test "jq is not installed"
U=$(mount_of cgroup2)
[ -n "$U" ] || skip_test "no cgroup v2 hierarchy is mounted"
mkdir "$U/$G.probe" 2>/dev/null || skip_test "cannot create groups in $U"
rmdir "$U/$G.probe"
CLEANUPS+=("cg_remove '$U' '$U/$G'")
r() { run "$RG" --backend cgroup2 --root "$U" "$@"; }
has_cpu=no
grep -qw cpu "$U/cgroup.subtree_control" && has_cpu=yes
echo "cgroup v2 at $U, cpu enabled below the root: $has_cpu"

r create "$G/a" -p
expect_rc 0 "create -p"
[ -d "$U/$G/a" ] && ok || fail "no $U/$G/a"
r create "$G/b" --shares 0
expect_rc 1 "create --shares 0 (out of range for cpu.weight)"
expect_match "$err" "out of range \(1\.\.10000\)|invalid shares" "create --shares 0 message"
[ ! -d "$U/$G/b" ] && ok || fail "create with bad shares made $G/b"
r shares "$G/a" 10001
expect_rc 1 "shares 10001"
expect_match "$err" "out of range \(1\.\.10000\)" "shares 10001 message"
if [ $has_cpu = no ]; then
	r create "$G/b" --shares 100
	expect_rc 1 "create --shares without cpu"
	expect_match "$err" "cpu.weight" "create --shares without cpu message"
	[ ! -d "$U/$G/b" ] && ok || fail "create --shares without cpu left $G/b"
	r shares "$G/a"
	expect_rc 1 "shares show without cpu"
	expect_match "$err" "no shares.*cpu.weight.*cpu controller" "shares without cpu message"
	r shares "$G/a" 200
	expect_rc 1 "shares set without cpu"
	r list "$G"
	expect_match "$out" "$G/a +0 +-" "list shows no shares"
else
	r shares "$G/a" 200
	expect_rc 0 "shares set"
	expect_eq "$(cat "$U/$G/a/cpu.weight")" 200 "cpu.weight"
	r --json shares "$G/a"
	expect_eq "$(json_get "$out" '.shares[0].value')" 200 "--json shares"
fi

spawn 3
p1=${PIDS[0]} p2=${PIDS[1]} p3=${PIDS[2]}
r attach "$G/a" "$p1" 999999 "$p2"
expect_rc 1 "attach with a missing pid"
expect_match "$err" "cannot move pid 999999 to '$G/a': no such process" "missing pid message"
in_file "$U/$G/a/cgroup.procs" "$p1" && ok || fail "$p1 did not move"
in_file "$U/$G/a/cgroup.procs" "$p2" && ok || fail "$p2 did not move"
r attach "$G/a" 0x10
expect_rc 1 "attach 0x10"
r attach "$G" --threads "$p3"
expect_rc 0 "attach --threads"
r members "$G/a"
expect_eq "$(printf '%s\n' "$out" | sort -n | tr '\n' ' ')" "$(printf '%s\n' "$p1" "$p2" | sort -n | tr '\n' ' ')" "members"
r --json members "$G/a"
expect_eq "$(json_get "$out" '.processes | length')" 2 "--json members"
r members "$G/a" --threads
expect_eq "$(printf '%s\n' "$out" | wc -l)" 2 "members --threads"
r whereis "$p3"
expect_eq "$out" "$G" "whereis"
r --json whereis "$p1"
expect_eq "$(json_get "$out" '.group')" "$G/a" "--json whereis"
expect_eq "$(json_get "$out" '.backend')" cgroup2 "--json whereis backend"
r whereis 999999
expect_rc 1 "whereis missing pid"
r stats "$G/a"
expect_rc 0 "stats"
expect_match "$out" "cpu: usage_usec [0-9]+" "stats usage_usec"
r --json stats "$G/a"
expect_match "$(json_get "$out" '.stats.cpu.usage_usec')" '^[0-9]+$' "--json stats"
r --json list "$G"
expect_eq "$(json_get "$out" '[.groups[] | "\(.name)=\(.tasks)"] | join(",")')" "$G=1,$G/a=2" "--json list"
r exec "$G/a" -- cat /proc/self/cgroup
expect_match "$out" "^0::/$G/a$" "exec runs in the group"

# delete moves members to the parent first (cgroup rmdir alone fails EBUSY)
r delete "$G/a"
expect_rc 0 "delete populated group"
[ ! -d "$U/$G/a" ] && ok || fail "$G/a still there"
in_file "$U/$G/cgroup.procs" "$p1" && ok || fail "$p1 not moved to the parent"
r delete "$G" --recursive
expect_rc 0 "delete --recursive"
in_file "$U/cgroup.procs" "$p3" && ok || fail "$p3 not back in the root"
r delete /
expect_rc 1 "delete root"
finish
