# classify --once in a captured tree (--sysroot) whose /proc and /run are
# symlinks leading out of it (../../X, ../../R): both are resolved beneath
# the tree (to TREE/X and TREE/R), as every /proc/PID file is, and nothing
# outside is read or written: the daemon's lock is made in TREE/R/rgctl.
. "$(dirname "$0")/common.sh"
if [ "${WITH_LIBCONFIG:-ON}" = OFF ] || [ "${WITH_LIBCONFIG:-ON}" = 0 ]; then
	skip_test "built without libconfig: classify reads no configuration"
fi
B=$(mktemp -d /tmp/rgctl-sysproc.XXXXXX)
CLEANUPS+=("rm -rf '$B'")
T=$B/s/root			# the captured tree
O=$B/X				# (T/proc -> ../../X is $B/X outside, T/X inside)
C=$T/sys/fs/cgroup/cpu
mkdir -p "$T/X/self" "$C/g" "$O/self" "$B/run"
ln -s ../../X "$T/proc"
cat >"$T/X/self/mountinfo" <<MI
23 1 0:21 / / rw - ext4 /dev/sda1 rw
31 23 0:28 / /sys/fs/cgroup rw - tmpfs tmpfs rw
32 31 0:29 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu
MI
cp "$T/X/self/mountinfo" "$O/self/mountinfo"
: >"$C/tasks"; : >"$C/cgroup.procs"; echo 1024 >"$C/cpu.shares"
: >"$C/g/tasks"; : >"$C/g/cgroup.procs"; echo 1024 >"$C/g/cpu.shares"
# fake_proc DIR PID: a process named victim under DIR
fake_proc() {
	mkdir -p "$1/$2"
	echo "$2 (victim) S 1 $2 $2 0 -1 4194304 102 0 0 0 0 0 0 0 20 0 1 0 1268802 3133440 390" >"$1/$2/stat"
	printf 'Name:\tvictim\nUid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nGroups:\t\n' >"$1/$2/status"
	echo victim >"$1/$2/comm"
	echo "4:cpu:/" >"$1/$2/cgroup"
}
fake_proc "$T/X" 555		# inside the tree
fake_proc "$O" 777		# outside: must never be seen
cat >"$B/r.conf" <<CONF
groups = ({ name = "g"; });
rules = ({ group = "g"; comm = "victim"; });
CONF
run env RGCTL_RUNDIR="$B/run" "$RG" --sysroot "$T" -b cgroup1 classify --once -v "$B/r.conf"
expect_rc 0 "classify --once in the tree"
expect_eq "$(cat "$C/g/cgroup.procs")" 555 "the process inside the tree moved, and only it"
case $err$out in *777*) fail "classify saw pid 777 outside the tree: $err";; *) ok;; esac

# The lock: /run/rgctl beneath the tree, through its planted symlink
# (without the RGCTL_RUNDIR every test gets from the harness).
mkdir "$T/R" "$B/R"
ln -s ../../R "$T/run"
: >"$C/g/cgroup.procs"
run env -u RGCTL_RUNDIR "$RG" --sysroot "$T" -b cgroup1 classify --once "$B/r.conf"
expect_rc 0 "classify --once with the lock in the tree"
expect_eq "$(cat "$C/g/cgroup.procs")" 555 "moved again"
ls "$T"/R/rgctl/classify.*.lock >/dev/null 2>&1 && ok || fail "no lock in $T/R/rgctl: $(ls -R "$T/R")"
[ -z "$(ls -A "$B/R")" ] && ok || fail "the lock was made outside the tree: $(ls -R "$B/R")"
rm "$T/run"; mkdir "$T/run"; chmod 0555 "$T/run"
if [ "$(id -u)" != 0 ]; then
	run env -u RGCTL_RUNDIR "$RG" --sysroot "$T" -b cgroup1 classify --once "$B/r.conf"
	expect_rc 1 "classify when the tree's /run is read-only"
	expect_match "$err" "cannot open $T/run/rgctl \(the daemon's lock\)" "lock message names the tree's path"
fi
finish
