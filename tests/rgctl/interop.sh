# rgctl and Debian's cgroup-tools (libcgroup) on the same cpu hierarchy: a
# group made by cgcreate is listed and managed by rgctl, and cgget reads
# back what rgctl set.  On cgroup v1 cpu (cpu.shares) and on cgroup v2 where
# the cpu controller is available (cpu.weight; libcgroup and rgctl each
# enable cpu along the path), each that this system has.  Needs root.
. "$(dirname "$0")/common.sh"
require_root "creates groups in the cgroup v1 cpu and v2 hierarchies"
for t in cgcreate cgget cgset cgdelete lscgroup jq; do
	command -v $t >/dev/null || skip_test "$t is not installed (cgroup-tools, jq)"
done
CPU=$(mount_of cgroup cpu)
V2=$(mount_of cgroup2)
if [ -n "$V2" ] && ! grep -qw cpu "$V2/cgroup.controllers"; then
	echo "cgroup v2 at $V2 has no cpu controller: not checked there"
	V2=
fi
[ -n "$CPU$V2" ] || skip_test "no cpu controller: neither a cgroup v1 cpu hierarchy nor cpu in cgroup v2"

# interop HIER BACKEND FILE V1 V2 V3 (three valid shares values)
interop() {
	local H=$1 B=$2 F=$3 a=$4 b=$5 c=$6 root_cpu=no
	echo "interop on $B at $H ($F)"
	[ "$B" = cgroup2 ] && grep -qw cpu "$H/cgroup.subtree_control" && root_cpu=yes
	CLEANUPS+=("cg_remove '$H' '$H/$G'")
	[ "$B" = cgroup2 ] && [ $root_cpu = no ] &&
		CLEANUPS+=("echo -cpu >'$H/cgroup.subtree_control' 2>/dev/null")
	r() { run "$RG" --backend "$B" --root "$H" "$@"; }

	# made by cgcreate, seen and managed by rgctl
	run cgcreate -g "cpu:/$G/lib"
	expect_rc 0 "$B: cgcreate"
	r --json list "$G"
	expect_eq "$(json_get "$out" '[.groups[].name] | join(",")')" "$G,$G/lib" "$B: rgctl lists the cgcreate'd group"
	r shares "$G/lib" "$a"
	expect_rc 0 "$B: rgctl shares on a cgcreate'd group"
	run cgget -n -v -r "$F" "/$G/lib"
	expect_eq "$out" "$a" "$B: cgget reads what rgctl set"
	run cgset -r "$F=$b" "/$G/lib"
	r shares "$G/lib"
	expect_eq "$out" "$b" "$B: rgctl reads what cgset set"
	spawn 1
	r attach "$G/lib" "${PIDS[0]}"
	expect_rc 0 "$B: rgctl attach into a cgcreate'd group"
	expect_eq "$(cat "$H/$G/lib/cgroup.procs")" "${PIDS[0]}" "$B: the task is in the cgcreate'd group"
	r delete "$G/lib"
	expect_rc 0 "$B: rgctl deletes a populated cgcreate'd group"
	[ ! -d "$H/$G/lib" ] && ok || fail "$B: $G/lib still there"
	if [ "$B" = cgroup2 ]; then
		# its process went to $G, which (cgroup v2) now may not enable
		# cpu for children: move it back to the root
		echo "${PIDS[0]}" >"$H/cgroup.procs"
	fi

	# made by rgctl, seen by libcgroup
	r create "$G/mine" --shares "$c"
	expect_rc 0 "$B: rgctl create"
	run cgget -n -v -r "$F" "/$G/mine"
	expect_eq "$out" "$c" "$B: cgget reads rgctl's shares"
	run lscgroup "cpu:/$G"
	expect_match "$out" "cpu:/$G/mine" "$B: lscgroup lists rgctl's group"
	run cgdelete -g "cpu:/$G/mine"
	expect_rc 0 "$B: cgdelete of rgctl's group"
	r list "$G"
	expect_rc 0 "$B: list after cgdelete"
	printf '%s\n' "$out" | grep -q "$G/mine" && fail "$B: rgctl still lists $G/mine" || ok
	r delete "$G"
	expect_rc 0 "$B: delete $G"
}

[ -n "$CPU" ] && interop "$CPU" cgroup1 cpu.shares 700 300 4096
[ -n "$V2" ] && interop "$V2" cgroup2 cpu.weight 70 30 409
finish
