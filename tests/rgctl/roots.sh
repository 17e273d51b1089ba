# Roots and names, without root privileges: a captured tree (--sysroot)
# with a cgroup v1 cpu mount, a symlink planted in it, and roots of the
# wrong filesystem type.  Nothing may be written outside the tree.
. "$(dirname "$0")/common.sh"
T=$(mktemp -d /tmp/rgctl-roots.XXXXXX)
OUT=$(mktemp -d /tmp/rgctl-outside.XXXXXX)
CLEANUPS+=("rm -rf '$T' '$OUT'")
C=$T/sys/fs/cgroup/cpu
mkdir -p "$T/proc/self" "$C/db" "$T/sys/fs/cgroup/unified" "$T/srv" "$T/sys/kernel/config"
cat >"$T/proc/self/mountinfo" <<MI
23 1 0:21 / / rw - ext4 /dev/sda1 rw
31 23 0:28 / /sys/fs/cgroup rw - tmpfs tmpfs rw
32 31 0:29 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu
41 31 0:38 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw
45 23 0:40 / /sys/kernel/config rw - configfs configfs rw
MI
echo 1024 >"$C/cpu.shares"; : >"$C/tasks"
echo 512 >"$C/db/cpu.shares"; : >"$C/db/tasks"
echo >"$T/sys/fs/cgroup/unified/cgroup.subtree_control"
echo 100 >"$OUT/cpu.shares"
ln -s "$OUT" "$C/evil"
mkdir "$C/real" && ln -s ../real "$C/db/link"
echo 2 >"$C/real/cpu.shares"; : >"$C/real/tasks"
r() { run "$RG" --sysroot "$T" "$@"; }

# a captured file is anyone's: its names reach the terminal escaped
printf 'nr_periods 3\nx\033]0;pwned\007\377y 7\n' >"$C/db/cpu.stat"
r stats db
expect_rc 0 "stats in a captured tree"
expect_eq "$(printf '%s\n' "$out" | awk 'NR > 1 { print $1, $2, $3 }')" "$(printf '%s\n' 'cpu nr_periods 3' 'cpu x\x1b]0;pwned\x07\xffy 7')" "stats escapes the file's names"
r stats -r -n db
expect_eq "$out" "$(printf '%s\n' 'cpu nr_periods - 3' 'cpu x\x1b]0;pwned\x07\xffy - 7')" "stats --raw escapes the file's names"
rm "$C/db/cpu.stat"

r --json list
expect_rc 0 "list in a captured tree"
expect_eq "$(json_get "$out" '.backend')" cgroup1 "detects the v1 cpu hierarchy"
expect_eq "$(json_get "$out" '[.groups[].name] | join(",")')" "/,db,real" "list skips symlinks"
r shares evil 4096
expect_rc 1 "shares through a symlink"
expect_match "$err" "symbolic link" "symlink message"
expect_eq "$(cat "$OUT/cpu.shares")" 100 "nothing written through the symlink"
r create evil/x
expect_rc 1 "create through a symlink"
[ ! -e "$OUT/x" ] && ok || fail "create made a directory through the symlink"
r shares db/link 4096
expect_rc 1 "shares through a symlink inside a group"
r shares db 4096
expect_rc 0 "shares in the captured tree"
expect_eq "$(cat "$C/db/cpu.shares")" 4096 "shares written"
r --backend rgcs list
expect_rc 1 "no RGCS in the tree"
expect_eq "$err" "rgctl: no rgcs hierarchy is mounted: configfs at /sys/kernel/config has no res_groups (the kernel has no Resource Groups)" "no RGCS message names configfs and res_groups"
r --root /srv list
expect_rc 1 "--root on ext4"
expect_match "$err" "not an RGCS/cgroup mount" "--root on ext4 message"
r --backend cgroup2 --root /sys/fs/cgroup/cpu list
expect_rc 1 "--backend cgroup2 on a v1 mount"
expect_match "$err" "is a cgroup1 hierarchy, not cgroup2" "mismatch message"
r --root /nonexistent list
expect_rc 1 "--root missing"

# every command has --help (exit 0, its usage on stdout)
for c in list create delete shares attach members stats exec whereis; do
	run "$RG" "$c" --help
	expect_rc 0 "$c --help"
	expect_match "$out" "^Usage: rgctl $c \[options\]" "$c --help text"
done

# the real system: an ordinary directory is never taken for a hierarchy
run "$RG" --root "$OUT" create x
expect_rc 1 "--root on an ordinary directory"
expect_match "$err" "not an RGCS/cgroup mount" "--root ordinary directory message"
[ ! -e "$OUT/x" ] && ok || fail "rgctl wrote into an ordinary directory"
run "$RG" --backend rgcs --root /proc list
expect_rc 1 "--root /proc"
finish
