# rgctl exec on cgroup v2: COMMAND starts in the group by
# clone3(CLONE_INTO_CGROUP) (Linux 5.7) and rgctl, its parent, never moves;
# the exit status and death by a signal pass on, a signal sent to rgctl
# reaches COMMAND, and a COMMAND left behind by a killed rgctl gets SIGTERM.
# RGCTL_NO_CLONE3=1 takes the fallback (rgctl moves itself, then execs),
# as on a kernel without clone3.  Needs root.
. "$(dirname "$0")/common.sh"
require_root "creates groups in the cgroup v2 hierarchy"
U=$(mount_of cgroup2)
[ -n "$U" ] || skip_test "no cgroup v2 hierarchy is mounted"
use_hierarchy "$U"
r() { run "$RG" --backend cgroup2 --root "$U" "$@"; }
r create -p "$G/a"
expect_rc 0 "create"
me=$(grep '^0::' /proc/self/cgroup)

r exec "$G/a" -- sh -c 'grep "^0::" /proc/self/cgroup; cat /proc/$PPID/comm; grep "^0::" /proc/$PPID/cgroup'
expect_rc 0 "exec"
expect_eq "$out" "0::/$G/a"$'\n'"rgctl"$'\n'"$me" "COMMAND in the group, its parent rgctl where it was"
r exec "$G/a" -- sh -c 'exit 7'
expect_rc 7 "exit status passed on"
r exec "$G/a" -- sh -c 'kill -USR1 $$'
expect_rc $((128 + 10)) "death by SIGUSR1 passed on"
r exec "$G/a" -- /nonexistent/cmd
expect_rc 127 "missing command"
expect_match "$err" "cannot run '/nonexistent/cmd'" "missing command message"

# a signal sent to rgctl reaches COMMAND
"$RG" --backend cgroup2 --root "$U" exec "$G/a" -- sleep 300 & p=$!; SPAWNED+=($p)
for ((i = 0; i < 50; i++)); do [ -s "$U/$G/a/cgroup.procs" ] && break; sleep 0.1; done
c=$(cat "$U/$G/a/cgroup.procs")
[ -n "$c" ] && [ "$c" != "$p" ] && ok || fail "COMMAND is not a child in the group: '$c' (rgctl $p)"
kill -TERM "$p"; wait "$p"; rc=$?
expect_rc 143 "rgctl ends as COMMAND did (SIGTERM)"
wait_until 10 '[ ! -s "$U/$G/a/cgroup.procs" ]' && ok || fail "COMMAND survived the SIGTERM sent to rgctl"
# rgctl killed outright: COMMAND gets SIGTERM, nothing is left behind
"$RG" --backend cgroup2 --root "$U" exec "$G/a" -- sleep 300 & p=$!
for ((i = 0; i < 50; i++)); do [ -s "$U/$G/a/cgroup.procs" ] && break; sleep 0.1; done
kill -KILL "$p"; wait "$p" 2>/dev/null
for ((i = 0; i < 20; i++)); do [ -s "$U/$G/a/cgroup.procs" ] || break; sleep 0.1; done
[ -s "$U/$G/a/cgroup.procs" ] && fail "COMMAND outlived a killed rgctl" || ok

# the fallback: rgctl moves itself and becomes COMMAND
run env RGCTL_NO_CLONE3=1 "$RG" --backend cgroup2 --root "$U" exec "$G/a" -- sh -c 'grep "^0::" /proc/self/cgroup; cat /proc/$PPID/comm'
expect_rc 0 "fallback exec"
expect_eq "$(printf '%s\n' "$out" | head -1)" "0::/$G/a" "fallback: in the group"
[ "$(printf '%s\n' "$out" | sed -n 2p)" != rgctl ] && ok || fail "fallback: rgctl stayed as the parent"
r exec "$G/none" -- true
expect_rc 1 "exec into a missing group"
expect_match "$err" "no such group" "missing group message"
finish
