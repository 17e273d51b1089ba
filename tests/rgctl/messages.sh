# rgctl's messages where it knows the cause (issue 12, item 13), each
# checked word for word, in captured trees (--sysroot; no root needed):
# a cgroup v1 hierarchy without cpu, octal-looking and zero values, an
# attribute file where a group is asked for, a file of the wrong content,
# a mount point that is not a directory.  Nothing may change on refusal.
. "$(dirname "$0")/common.sh"
T=$(mktemp -d /tmp/rgctl-msg.XXXXXX)
CLEANUPS+=("rm -rf '$T'")
mkdir -p "$T/proc/self" "$T/sys/fs/cgroup/cpu/db" "$T/sys/fs/cgroup/cpuset" \
	"$T/sys/kernel/config/res_groups" "$T/bad/proc/self" "$T/bad/sys/fs/cgroup"
cat >"$T/proc/self/mountinfo" <<MI
23 1 0:21 / / rw - ext4 /dev/sda1 rw
31 23 0:28 / /sys/fs/cgroup rw - tmpfs tmpfs rw
32 31 0:29 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu
33 31 0:30 / /sys/fs/cgroup/cpuset rw - cgroup cgroup rw,cpuset
50 23 0:40 / /sys/kernel/config rw - configfs configfs rw
MI
C=$T/sys/fs/cgroup/cpu S=$T/sys/fs/cgroup/cpuset R=$T/sys/kernel/config/res_groups
echo 1024 >"$C/cpu.shares"; : >"$C/tasks"
echo 512 >"$C/db/cpu.shares"; : >"$C/db/tasks"
: >"$S/tasks"; echo 0-1 >"$S/cpuset.cpus"
echo "res=cpu,min_shares=-3,max_shares=-3,child_shares_divisor=100" >"$R/shares"
: >"$R/members"
r() { run "$RG" --sysroot "$T" -b cgroup1 "$@"; }
rr() { run "$RG" --sysroot "$T" -b rgcs "$@"; }
same() {	# same WHAT WANT [RC]: exit RC (1), empty stdout, stderr exactly WANT
	expect_rc "${3:-1}" "$1"
	expect_eq "$out" "" "$1: nothing on stdout"
	expect_eq "$err" "$2" "$1: message"
}
snap() { find "$T" -type f -printf '%p %s %T@\n' | sort; find "$T" -type d | sort; }

before=$(snap)
# a v1 hierarchy without cpu is not "cgroup v2 without the cpu controller"
r --root /sys/fs/cgroup/cpuset shares / 100
same "shares on v1 cpuset" "rgctl: cannot set the shares of '/': /sys/fs/cgroup/cpuset has no cpu.shares there (a cgroup v1 hierarchy without the cpu controller)"
r --root /sys/fs/cgroup/cpuset shares /
same "shares shown on v1 cpuset" "rgctl: '/' has no shares: /sys/fs/cgroup/cpuset has no cpu.shares there (a cgroup v1 hierarchy without the cpu controller)"
r --root /sys/fs/cgroup/cpuset create x --shares 100
same "create --shares on v1 cpuset" "rgctl: cannot create 'x' with shares: /sys/fs/cgroup/cpuset has no cpu.shares (a cgroup v1 hierarchy without the cpu controller); nothing was created"

# octal-looking values, as rgctl(8) says
for v in 010 01024 -010 00; do
	r shares db "$v"
	same "shares $v" "rgctl: invalid shares '$v' for cgroup1: a leading 0 is refused (it reads as octal elsewhere): write the number without it" 2
	r create db/x --shares "$v"
	same "create --shares $v" "rgctl: invalid shares '$v' for cgroup1: a leading 0 is refused (it reads as octal elsewhere): write the number without it" 2
done
for v in min_shares=010 max_shares=-01 child_shares_divisor=0100; do
	rr shares / "$v"
	same "rgcs shares $v" "rgctl: invalid shares '$v' for rgcs: a value has a leading 0 (RGCS would read it as octal): write it without" 2
done
for v in child_shares_divisor=0 min_shares=1,child_shares_divisor=0; do
	rr shares / "$v"
	same "rgcs shares $v" "rgctl: invalid shares '$v' for rgcs: child_shares_divisor=0 is refused (children's shares are divided by it)" 2
	rr create x --shares "$v"
	same "rgcs create --shares $v" "rgctl: invalid shares '$v' for rgcs: child_shares_divisor=0 is refused (children's shares are divided by it)" 2
done

# an attribute file where a group is asked for: not "File exists"
r create cpu.shares
same "create over an attribute" "rgctl: cannot create 'cpu.shares': an attribute file of that name is there (not a group)"
r create -p db/cpu.shares/x
same "create -p through an attribute" "rgctl: cannot create 'db/cpu.shares/x': a component of the name is an attribute file, not a group"
r create db/cpu.shares/x
same "create through an attribute" "rgctl: cannot create 'db/cpu.shares/x': a component of the name is an attribute file, not a group"
expect_eq "$(snap)" "$before" "nothing changed by the refusals"

# a file that does not hold what the kernel writes: not "Invalid argument"
echo "12 x" >"$C/db/tasks"
r list
same "list with a garbled tasks file" "rgctl: cannot list '/': a file of the group holds text that is not what the kernel writes there"
: >"$C/db/tasks"
echo "lots" >"$C/db/cpu.shares"
r shares db
same "shares with a garbled cpu.shares" "rgctl: cannot read the shares of 'db': a file of the group holds text that is not what the kernel writes there"
echo 512 >"$C/db/cpu.shares"

# a mount point that is not a directory: not "cannot open the auto hierarchy"
cat >"$T/bad/proc/self/mountinfo" <<MI
23 1 0:21 / / rw - ext4 /dev/sda1 rw
32 23 0:29 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu
MI
: >"$T/bad/sys/fs/cgroup/cpu"
run "$RG" --sysroot "$T/bad" list
same "auto: mount point a file" "rgctl: cannot open the hierarchy the mount table names: not a directory"
run "$RG" --sysroot "$T/bad" -b cgroup1 list
same "cgroup1: mount point a file" "rgctl: cannot open the cgroup1 hierarchy the mount table names: not a directory"
run "$RG" --sysroot "$T/bad" --root /sys/fs/cgroup/cpu list
same "--root a file" "rgctl: cannot use '/sys/fs/cgroup/cpu': not a directory"

# a misspelt command: the closest one named, usage status
run "$RG" lst
same "misspelt command" "rgctl: unknown command 'lst' (did you mean 'list'?)
Try 'rgctl --help' for more information." 2
run "$RG" help delte
expect_rc 2 "help of a misspelt command"
expect_match "$err" "unknown command 'delte' \(did you mean 'delete'\?\)" "help of a misspelt command: did you mean"
run "$RG" frobnicate
same "unknown command" "rgctl: unknown command 'frobnicate'
Try 'rgctl --help' for more information." 2

# permission denied says what is needed (a group is made as nobody)
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null &&
	setpriv --reuid=65534 --regid=65534 --clear-groups "$RG" --version >/dev/null 2>&1; then
	chmod -R go+rX "$T"
	run setpriv --reuid=65534 --regid=65534 --clear-groups "$RG" --sysroot "$T" -b cgroup1 create nobody-x
	expect_rc 1 "create as nobody"
	expect_match "$err" "permission denied \(needs root, or a subtree delegated to this user\)" "create as nobody: what is needed"
	[ ! -e "$C/nobody-x" ] && ok || fail "create as nobody made the group"
else
	echo "note: the check as nobody did not run (not root, no setpriv, or nobody cannot run $RG)"
fi
finish
