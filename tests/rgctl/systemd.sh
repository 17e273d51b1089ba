# rgctl on a systemd host, without root and without systemd: a captured
# tree (--sysroot) where PID 1 is systemd and the cgroup v2 tree has
# init.scope.  Detection in list and --json, rgctl's delegated subtree as
# the default root, writes outside a delegated subtree refused naming the
# owning unit (and --force), systemd's delegation mark (user.delegate=1;
# systemd itself sets trusted.delegate=1, which needs root to set here),
# and the same tree without systemd as PID 1 or without init.scope
# behaving as before.
. "$(dirname "$0")/common.sh"
command -v setfattr >/dev/null || skip_test "setfattr (Debian package attr) is not installed"
T=$(mktemp -d /tmp/rgctl-systemd.XXXXXX)
CLEANUPS+=("rm -rf '$T'")
setfattr -n user.rgctltest -v 1 "$T" 2>/dev/null ||
	skip_test "$T's filesystem takes no user.* xattrs (systemd's delegation mark is one)"
CG=$T/sys/fs/cgroup
mkdir -p "$T/proc/self" "$T/proc/1" "$CG"
cat >"$T/proc/self/mountinfo" <<MI
23 1 0:21 / / rw - ext4 /dev/sda1 rw
31 23 0:28 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot
MI
echo systemd >"$T/proc/1/comm"
# group DIR: a cgroup v2 directory of the capture
group() {
	mkdir -p "$CG/$1"
	echo "cpu memory pids" >"$CG/$1/cgroup.controllers"
	: >"$CG/$1/cgroup.subtree_control"
	: >"$CG/$1/cgroup.procs"
	: >"$CG/$1/cgroup.threads"
}
group .
echo "cpu memory pids" >"$CG/cgroup.subtree_control"
for d in init.scope system.slice system.slice/cron.service user.slice \
	 user.slice/user-1000.slice user.slice/user-1000.slice/user@1000.service \
	 user.slice/user-1000.slice/user@1000.service/app.slice rgctl.slice \
	 rgctl.slice/rgctl.service system.slice/run-r1.scope; do
	group "$d"
done
setfattr -n user.delegate -v 1 "$CG/rgctl.slice/rgctl.service"
setfattr -n user.delegate -v 1 "$CG/user.slice/user-1000.slice/user@1000.service"
setfattr -n user.delegate -v 1 "$CG/system.slice/run-r1.scope"
r() { run "$RG" --sysroot "$T" "$@"; }
TOP=(--root /sys/fs/cgroup)

r --json list
expect_rc 0 "list on the systemd tree"
expect_eq "$(json_get "$out" '.systemd.manages')" true "systemd detected"
expect_eq "$(json_get "$out" '.systemd.pid1')" true "PID 1 is systemd"
expect_eq "$(json_get "$out" '.systemd.init_scope')" true "init.scope seen"
expect_eq "$(json_get "$out" '.root')" /sys/fs/cgroup/rgctl.slice/rgctl.service "default root: rgctl's delegated subtree"
expect_eq "$(json_get "$out" '.systemd.unit')" rgctl.service "the root's unit"
expect_eq "$(json_get "$out" '.systemd.delegated')" true "the root is delegated"
r list
expect_match "$out" "^systemd manages /sys/fs/cgroup; rgctl writes in /sys/fs/cgroup/rgctl.slice/rgctl.service, delegated by rgctl.service" "list says so"

# inside the delegated subtree: as anywhere
r create -p db/batch
expect_rc 0 "create below rgctl.service (stderr: $err)"
[ -d "$CG/rgctl.slice/rgctl.service/db/batch" ] && ok || fail "db/batch not made below rgctl.service"
group rgctl.slice/rgctl.service/db
r attach db $$
expect_rc 0 "attach below rgctl.service"
r delete db/batch
expect_rc 0 "delete below rgctl.service"
[ ! -e "$CG/rgctl.slice/rgctl.service/db/batch" ] && ok || fail "delete returned 0 but left db/batch"

# outside: refused, naming the unit and how to delegate
r "${TOP[@]}" create x
expect_rc 1 "create at the top of the tree"
expect_match "$err" "cannot create 'x': /sys/fs/cgroup/x belongs to -.slice, which systemd manages and has not delegated" "names -.slice"
expect_match "$err" "Delegate=yes" "says how to delegate"
expect_match "$err" "systemd-run --scope -p Delegate=yes" "names systemd-run"
expect_match "$err" "--force" "names --force"
[ -e "$CG/x" ] && fail "the refused create made x" || ok
r "${TOP[@]}" create system.slice/cron.service/sub
expect_rc 1 "create in a service"
expect_match "$err" "belongs to cron.service, which systemd manages" "names cron.service"
r "${TOP[@]}" delete system.slice/cron.service
expect_rc 1 "delete a service's group"
expect_match "$err" "cannot delete 'system.slice/cron.service'.*belongs to cron.service" "delete names the unit"
[ -d "$CG/system.slice/cron.service" ] && ok || fail "cron.service's group was deleted"
r "${TOP[@]}" attach system.slice $$
expect_rc 1 "attach to a slice"
expect_match "$err" "cannot move tasks to 'system.slice'.*belongs to system.slice" "attach names the slice"
[ -s "$CG/system.slice/cgroup.procs" ] && fail "the refused attach wrote a pid" || ok
r "${TOP[@]}" shares rgctl.slice/rgctl.service 100
expect_rc 1 "shares of the delegated unit's own cgroup"
expect_match "$err" "is the cgroup of rgctl.service itself" "own cgroup named"
r "${TOP[@]}" exec system.slice -- true
expect_rc 1 "exec outside delegation"
# a unit of the user manager inside its delegated subtree is its own
r "${TOP[@]}" create user.slice/user-1000.slice/user@1000.service/app.slice/x
expect_rc 1 "create in the user manager's app.slice"
expect_match "$err" "belongs to app.slice" "the nested unit named"
r "${TOP[@]}" create user.slice/user-1000.slice/user@1000.service/mine
expect_rc 0 "create in a delegated service (user@1000.service) (stderr: $err)"
# a scope made with systemd-run --scope -p Delegate=yes, as --root
r --root /sys/fs/cgroup/system.slice/run-r1.scope create job
expect_rc 0 "create in a delegated scope (stderr: $err)"
# --force
r "${TOP[@]}" --force create x
expect_rc 0 "--force creates outside delegation"
[ -d "$CG/x" ] && ok || fail "--force did not create x"
rmdir "$CG/x"

# apply: every step checked before anything is done
if [ "${WITH_LIBCONFIG:-ON}" = ON ]; then
printf 'groups = ( { name = "rgctl.service"; }, { name = "rgctl.service/ok"; }, { name = "bad"; } );\n' >"$T/a.conf"
r --root /sys/fs/cgroup/rgctl.slice apply "$T/a.conf"
expect_rc 1 "apply with a step outside delegation"
expect_match "$err" "cannot create 'bad': /sys/fs/cgroup/rgctl.slice/bad belongs to rgctl.slice" "apply names the unit"
[ -e "$CG/rgctl.slice/rgctl.service/ok" ] && fail "the refused apply made a group" || ok
fi

# rgctl.service not started: the whole tree, read-only
mv "$CG/rgctl.slice" "$T/away"
r list
expect_rc 0 "list without rgctl.service"
expect_match "$out" "^systemd manages /sys/fs/cgroup; /sys/fs/cgroup belongs to -.slice, not delegated: rgctl only reads here \\(systemctl start rgctl.service" "list says the tree is not rgctl's"
r create y
expect_rc 1 "create without rgctl.service"
expect_match "$err" "belongs to -.slice" "create refused"
mv "$T/away" "$CG/rgctl.slice"

# PID 1 is not systemd (this host): as before, the whole tree, writable
echo init >"$T/proc/1/comm"
r --json list
expect_eq "$(json_get "$out" '.systemd.manages | tostring')" false "no systemd as PID 1: not managed"
expect_eq "$(json_get "$out" '.root')" /sys/fs/cgroup "no systemd: the tree's root"
r list
printf '%s\n' "$out" | grep -q '^systemd' && fail "list mentions systemd without it" || ok
r create z
expect_rc 0 "no systemd: create anywhere"
rmdir "$CG/z"
# systemd as PID 1 but no init.scope (not its tree)
echo systemd >"$T/proc/1/comm"
mv "$CG/init.scope" "$T/init.away"
r --json list
expect_eq "$(json_get "$out" '.systemd.manages | tostring')" false "no init.scope: not managed"
expect_eq "$(json_get "$out" '.systemd.init_scope | tostring')" false "init.scope missing"
finish
