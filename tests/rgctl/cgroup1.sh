# rgctl on the real cgroup v1 cpu hierarchy: every command, every bad input
# of issue 3, --json parsed back.  Needs root and a writable v1 cpu mount.
. "$(dirname "$0")/common.sh"
require_root "creates groups in the cgroup v1 cpu hierarchy"
command -v jq >/dev/null || skip_test "jq is not installed"
CPU=$(mount_of cgroup cpu)
[ -n "$CPU" ] || skip_test "no cgroup v1 hierarchy with the cpu controller is mounted (this is the cgroup1 backend's test; rgctl_cgroup2 runs the same commands and bad input on cgroup v2)"
use_hierarchy "$CPU"
r() { run "$RG" --backend cgroup1 --root "$CPU" "$@"; }

# create, with and without -p and --shares
r create "$G"
expect_rc 0 "create $G"
[ -d "$CPU/$G" ] && ok || fail "create did not make $CPU/$G"
r create "$G/a/b" -p --shares 512
expect_rc 0 "create -p --shares"
expect_eq "$(cat "$CPU/$G/a/b/cpu.shares")" 512 "cpu.shares after create --shares"
r create "$G/x/y"
expect_rc 1 "create without -p under a missing parent"
expect_match "$err" "parent.*(-p)" "missing parent message"
[ ! -d "$CPU/$G/x" ] && ok || fail "create without -p made $G/x"
r create "$G"
expect_rc 1 "create of an existing group"
expect_match "$err" "already exists" "existing group message"
r create "$G/a" -p
expect_rc 0 "create -p of an existing group"
r create "$G/c" --shares 1
expect_rc 2 "create --shares 1 (out of range)"
expect_match "$err" "out of range" "create --shares out of range"
[ ! -d "$CPU/$G/c" ] && ok || fail "create with bad shares made the group"
r create "$G/d/e" -p --shares abc
expect_rc 2 "create --shares abc"
[ ! -d "$CPU/$G/d" ] && ok || fail "create -p with bad shares made a parent"

# several groups in one call: all checked first, made in order, and one
# that fails removes what the call made before it
r create "$G/m1" "$G/m2" "$G/m3" --shares 300
expect_rc 0 "create of three groups"
expect_eq "$(cat "$CPU/$G/m3/cpu.shares")" 300 "--shares on every group of the call"
r create "$G/n1" "$G/n2" "$G/m1"
expect_rc 1 "create of three, the last one existing"
expect_match "$err" "cannot create '$G/m1': the group already exists" "the failing group named"
[ ! -d "$CPU/$G/n1" ] && [ ! -d "$CPU/$G/n2" ] && ok || fail "a failed create of several left groups behind"
r create -p "$G/q/r" "$G/q/s" "$G/m1/tasks"
expect_rc 1 "create -p of three, the last one an attribute file"
[ ! -d "$CPU/$G/q" ] && ok || fail "a failed create -p of several left a parent behind"
r create "$G/v1" "bad name"
expect_rc 2 "create of several, one name invalid"
[ ! -d "$CPU/$G/v1" ] && ok || fail "an invalid name among several still made the others"
for g in m1 m2 m3; do r delete "$G/$g"; expect_rc 0 "delete $G/$g"; done

# shares: show, set, every bad value, nothing changed on error
r shares "$G/a/b"
expect_rc 0 "shares show"
expect_eq "$out" 512 "shares show"
for v in 2 262144 1024; do
	r shares "$G/a" "$v"
	expect_rc 0 "shares $v"
	expect_eq "$(cat "$CPU/$G/a/cpu.shares")" "$v" "cpu.shares after shares $v"
done
for v in 1 262145 0 -5 abc 1e3 0x10 "" " 7" 99999999999999999999; do
	r shares "$G/a" "$v"
	expect_rc 2 "shares '$v'"
	expect_match "$err" "invalid shares" "shares '$v' message"
	expect_eq "$(cat "$CPU/$G/a/cpu.shares")" 1024 "cpu.shares unchanged after '$v'"
done
r --json shares "$G/a"
expect_rc 0 "--json shares"
expect_eq "$(json_get "$out" '.shares[0].value')" 1024 "--json shares value"
expect_eq "$(json_get "$out" '.shares[0].file')" cpu.shares "--json shares file"
r shares "$G/nope"
expect_rc 1 "shares of a missing group"
expect_match "$err" "no such group" "missing group message"

# attach: several pids, one missing: the others still move, exit 1
spawn 3
p1=${PIDS[0]} p2=${PIDS[1]} p3=${PIDS[2]}
r attach "$G/a" "$p1" 999999 "$p2"
expect_rc 1 "attach with one missing pid"
expect_match "$err" "cannot move pid 999999 to '$G/a': no such process" "missing pid message"
in_file "$CPU/$G/a/tasks" "$p1" && ok || fail "pid $p1 did not move"
in_file "$CPU/$G/a/tasks" "$p2" && ok || fail "pid $p2 did not move"
# malformed pids: refused before anything moves
for bad in 0x10 010 0 -1 +5 "1 2" abc ""; do
	r attach "$G/a/b" "$p3" "$bad"
	expect_rc 2 "attach pid '$bad'"
	expect_match "$err" "invalid pid" "attach '$bad' message"
	in_file "$CPU/$G/a/b/tasks" "$p3" && fail "pid $p3 moved despite '$bad'" || ok
done
r attach "$G/a/b" 2
expect_rc 1 "attach kthreadd"
expect_match "$err" "cannot move pid 2 to '$G/a/b'" "kthreadd message"
r attach "$G/a/b" --threads "$p3"
expect_rc 0 "attach --threads"
in_file "$CPU/$G/a/b/cgroup.procs" "$p3" && ok || fail "--threads did not move $p3"
r attach "$G/none" "$p3"
expect_rc 1 "attach to a missing group"
expect_match "$err" "no such group" "attach missing group message"
if command -v setpriv >/dev/null; then
	run setpriv --reuid=65534 --regid=65534 --clear-groups "$RG" -b cgroup1 --root "$CPU" attach "$G/a" "$p3"
	expect_rc 1 "attach as nobody"
	expect_match "$err" "permission denied|not permitted" "attach as nobody message"
	in_file "$CPU/$G/a/b/tasks" "$p3" && ok || fail "pid $p3 moved by nobody"
	# a group nobody may write to: its own task moves, root's may not
	r create "$G/n"
	# the group is a directory in each hierarchy: delegated in each
	for h in "$CPU" $(v1_peers "$CPU"); do
		[ -d "$h/$G/n" ] && chown 65534 "$h/$G/n/tasks" "$h/$G/n/cgroup.procs"
	done
	setpriv --reuid=65534 --regid=65534 --clear-groups sleep 300 &
	pn=$!
	SPAWNED+=($pn)
	run setpriv --reuid=65534 --regid=65534 --clear-groups "$RG" -b cgroup1 --root "$CPU" attach "$G/n" "$p3" "$pn"
	expect_rc 1 "nobody moves its own task and root's"
	expect_match "$err" "cannot move pid $p3 to '$G/n': (not permitted|permission denied)" "per-pid permission message"
	in_file "$CPU/$G/n/tasks" "$pn" && ok || fail "nobody's own task did not move"
	in_file "$CPU/$G/n/tasks" "$p3" && fail "root's task moved by nobody" || ok
	r delete "$G/n"
	expect_rc 0 "delete $G/n"
fi

# members, whereis, stats
r members "$G/a"
expect_rc 0 "members"
expect_eq "$(printf '%s\n' "$out" | head -1)" "# processes" "members header"
expect_eq "$(printf '%s\n' "$out" | grep -v '^#' | sort -n | tr '\n' ' ')" "$(printf '%s\n' "$p1" "$p2" | sort -n | tr '\n' ' ')" "members of $G/a"
r --json members "$G/a" --threads
expect_eq "$(json_get "$out" '.tasks | length')" 2 "--json members --threads"
r whereis "$p3"
expect_rc 0 "whereis"
expect_eq "$out" "$G/a/b" "whereis $p3"
r --json whereis "$p1"
expect_eq "$(json_get "$out" '.group')" "$G/a" "--json whereis"
r whereis $$
expect_rc 0 "whereis of the test shell"
r whereis 999999
expect_rc 1 "whereis of a missing pid"
expect_match "$err" "no such process" "whereis missing pid message"
r whereis 0x10
expect_rc 2 "whereis 0x10"
r stats "$G/a"
expect_rc 0 "stats"
expect_match "$out" "^cpu +nr_periods +[0-9]+$" "stats text"
r --json stats "$G/a"
expect_match "$(json_get "$out" '.stats.cpu.nr_periods')" '^[0-9]+$' "--json stats nr_periods"
ACCT=$(mount_of cgroup cpuacct)
if [ -n "$ACCT" ] && [ "$ACCT" = "$CPU" ]; then
	expect_match "$(json_get "$out" '.stats.cpu.usage_usec')" '^[0-9]+$' "--json stats cpuacct.usage (co-mounted)"
elif [ -n "$ACCT" ]; then
	# cpuacct on its own hierarchy: create made the group there too
	[ -d "$ACCT/$G/a" ] && ok || fail "create did not make $G/a in $ACCT"
	expect_match "$(json_get "$out" '.stats.cpu.usage_usec')" '^[0-9]+$' "--json stats cpuacct.usage (separate hierarchy)"
fi

# list: the subtree, tasks counted
r list "$G"
expect_rc 0 "list"
expect_match "$out" "$G/a/b +1 +512" "list line of $G/a/b"
r --json list "$G"
expect_eq "$(json_get "$out" '[.groups[].name] | join(",")')" "$G,$G/a,$G/a/b" "--json list names"
expect_eq "$(json_get "$out" '.groups[1].tasks')" 2 "--json list tasks"
expect_eq "$(json_get "$out" '.backend')" cgroup1 "--json list backend"

# exec: the command is in the group before it runs
r exec "$G/a" -- cat /proc/self/cgroup
expect_rc 0 "exec"
expect_match "$out" "[0-9]+:([a-z,]*,)?cpu(,[a-z,]*)?:/$G/a$" "exec runs in the group"
r exec "$G/a" -- sh -c 'exit 7'
expect_rc 7 "exec passes the exit status on"
r exec "$G/a" -- /nonexistent/cmd
expect_rc 127 "exec of a missing command"
r exec "$G/none" -- true
expect_rc 1 "exec into a missing group"

# bad group names: refused before anything touches the tree
long=$(printf 'x%.0s' $(seq 256))
for bad in "../x" "$G/../x" "/$G" "$G//a" "$G/a/" "$(printf 'a\001b')" "$long" "."; do
	r create "$bad"
	expect_rc 2 "create '${bad:0:20}'"
	expect_match "$err" "invalid group name" "create '${bad:0:20}' message"
done
r shares ".." 5
expect_rc 2 "shares .."

# delete: members move to the parent first; root refused; --recursive
r delete "$G/a"
expect_rc 1 "delete with child groups"
expect_match "$err" "child groups.*--recursive" "delete message"
r delete "$G/a/b"
expect_rc 0 "delete of a populated group"
[ ! -d "$CPU/$G/a/b" ] && ok || fail "$G/a/b still there"
in_file "$CPU/$G/a/tasks" "$p3" && ok || fail "pid $p3 did not move to the parent"
r delete /
expect_rc 1 "delete of the root group"
expect_match "$err" "root group" "delete root message"
r delete "$G" --recursive
expect_rc 0 "delete --recursive"
[ ! -d "$CPU/$G" ] && ok || fail "$G still there"
in_file "$CPU/tasks" "$p1" && ok || fail "pid $p1 not back in the root group"
r delete "$G"
expect_rc 1 "delete of a missing group"

# usage errors: exit 2
r
expect_rc 2 "no command"
r frobnicate
expect_rc 2 "unknown command"
r create
expect_rc 2 "create without GROUP"
r attach "$G"
expect_rc 2 "attach without PID"
r --backend cgroup3 list
expect_rc 2 "unknown backend"
finish
