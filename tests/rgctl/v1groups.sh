# cgroup v1: a group is one directory in each hierarchy rgctl manages (cpu,
# cpuacct, memory, pids, blkio; cpuset once a cpuset key is set), issue 26
# item 3.
# create makes it in every one or in none (a fault in the third hierarchy
# leaves nothing), attach moves a process and all its threads into every
# one or leaves it where it was in all (a cpuset without cpus refuses),
# delete removes every one, list names what a group made by another tool
# lacks, members says when hierarchies disagree.  Needs root and v1.
. "$(dirname "$0")/common.sh"
require_root "creates groups in the cgroup v1 hierarchies"
MT=$BUILD_DIR/tests/rgctl/mt_helper
[ -x "$MT" ] || { echo "FAIL: $MT not built"; exit 1; }
CPU=$(mount_of cgroup cpu)
[ -n "$CPU" ] || skip_test "no cgroup v1 hierarchy with the cpu controller is mounted"
declare -A H
for c in cpuacct memory pids blkio cpuset; do
	m=$(mount_of cgroup $c)
	[ -n "$m" ] && [ "$m" != "$CPU" ] && H[$c]=$m
done
[ -n "${H[memory]}" ] && [ -n "${H[cpuacct]}" ] ||
	skip_test "needs cpuacct and memory on hierarchies of their own (this host: cpu at $CPU)"
use_hierarchy "$CPU"
for s in b r s; do CLEANUPS+=("cg_remove '$CPU' '$CPU/$G.$s'"); done
r() { run "$RG" --backend cgroup1 --root "$CPU" "$@"; }
# spans: the hierarchies create makes a group in (not cpuset)
SPANS=("$CPU")
for c in cpuacct memory pids blkio; do [ -n "${H[$c]}" ] && SPANS+=("${H[$c]}"); done
ALL=("${SPANS[@]}")
[ -n "${H[cpuset]}" ] && ALL+=("${H[cpuset]}")

# where_is PID: its group in each of cpu, cpuacct, memory, pids, blkio,
# cpuset, from /proc/PID/cgroup (one line, sorted by controller)
where_is() {
	awk -F: '$2 ~ /^(cpu|cpuacct|cpu,cpuacct|cpuacct,cpu|memory|pids|blkio|cpuset)$/ { print $2 "=" $3 }' \
		"/proc/$1/cgroup" | sort | tr '\n' ' '
}
count_dirs() {	# count_dirs NAME: in how many hierarchies NAME is a directory
	local h n=0
	for h in "${ALL[@]}"; do [ -d "$h/$1" ] && n=$((n + 1)); done
	echo $n
}

# create: every hierarchy, not cpuset
r create "$G" "$G/a"
expect_rc 0 "create $G $G/a"
for h in "${SPANS[@]}"; do
	[ -d "$h/$G/a" ] && ok || fail "create did not make $G/a in $h"
done
if [ -n "${H[cpuset]}" ]; then
	[ ! -d "${H[cpuset]}/$G" ] && ok || fail "create made $G in cpuset (an empty cpuset refuses tasks)"
fi
r list "$G"
expect_rc 0 "list"
expect_match "$(printf '%s\n' "$out" | head -1)" "^GROUP +TASKS +SHARES$" "no MISSING column when nothing is missing"

# attach: the process and every thread, in every hierarchy
"$MT" &
mt=$!
SPAWNED+=($mt)
for _ in $(seq 100); do [ "$(ls /proc/$mt/task | wc -l)" -ge 4 ] && break; sleep 0.05; done
r attach "$G/a" "$mt"
expect_rc 0 "attach a 4-thread process"
for t in $(ls /proc/$mt/task); do
	n=$(grep -cE ":(cpu|cpuacct|cpu,cpuacct|memory|pids|blkio):/$G/a\$" /proc/$mt/task/$t/cgroup)
	expect_eq "$n" "${#SPANS[@]}" "thread $t in $G/a in every hierarchy"
done
r members "$G/a"
expect_eq "$(printf '%s\n' "$out" | grep -v '^#')" "$mt" "members of $G/a"
expect_eq "$err" "" "members: no note when the hierarchies agree"

# a task moved in one hierarchy by another tool: members says so
sleep 300 &
sp=$!
SPAWNED+=($sp)
r attach "$G/a" "$sp"
r whereis "$sp"
expect_eq "$out" "$G/a" "whereis after attach"
expect_eq "$err" "" "whereis: no note when the hierarchies agree"
r --json whereis "$sp"
expect_eq "$(json_get "$out" '.disagree | tostring')" false "--json whereis: disagree false"
expect_eq "$(json_get "$out" '[.hierarchies[].group] | unique | join(" ")')" "$G/a" \
	"--json whereis: $G/a in every hierarchy"
echo "$sp" >"${H[memory]}/$G/cgroup.procs"
# whereis: the primary's group on stdout, exit 0; each hierarchy's on stderr
r whereis "$sp"
expect_rc 0 "whereis when the hierarchies disagree"
expect_eq "$out" "$G/a" "whereis: cpu's group on stdout"
expect_match "$err" "hierarchies disagree on the group of pid $sp" "whereis: the hierarchies disagree"
expect_match "$err" $'\n  memory: '"$G"$'(\n|$)' "whereis: memory's group named"
expect_match "$err" $'\n  cpu: '"$G/a"$'(\n|$)' "whereis: cpu's group named"
r --json whereis "$sp"
expect_rc 0 "--json whereis when the hierarchies disagree"
expect_eq "$(json_get "$out" .group)" "$G/a" "--json whereis: group is cpu's"
expect_eq "$(json_get "$out" '.disagree | tostring')" true "--json whereis: disagree true"
expect_eq "$(json_get "$out" '.hierarchies[] | select(.hierarchy == "memory") | .group')" "$G" \
	"--json whereis: memory's group"
expect_eq "$(json_get "$out" '.hierarchies[] | select(.hierarchy == "cpu") | .path')" "/$G/a" \
	"--json whereis: cpu's path"
# with --root below the task's place in memory: outside it there
run "$RG" -b cgroup1 --root "$CPU/$G" whereis "$sp"
expect_eq "$out" a "whereis under --root $G"
expect_match "$err" $'\n  memory: /\n' "memory's group is --root's own"
r attach "$G/a" "$sp"
run "$RG" -b cgroup1 --root "$CPU/$G/a" whereis "$sp"
expect_eq "$out" / "whereis under --root $G/a"
expect_eq "$err" "" "whereis under --root $G/a: the hierarchies agree"
echo "$sp" >"${H[memory]}/$G/cgroup.procs"
run "$RG" -b cgroup1 --root "$CPU/$G/a" whereis "$sp"
expect_match "$err" $'\n  memory: outside the root \\(/'"$G"'\)' "memory outside --root named"
r members "$G/a"
expect_match "$err" "hierarchies disagree.*memory" "members: the hierarchies disagree"

# attach failing in one hierarchy (a cpuset without cpus): left where it
# was in every one
if [ -n "${H[cpuset]}" ]; then
	r create "$G.b"
	mkdir "${H[cpuset]}/$G.b"
	before=$(where_is "$mt")
	r attach "$G.b" "$mt"
	expect_rc 1 "attach into a group whose cpuset has no cpus"
	expect_match "$err" "cpuset has no cpus or mems.*left where it was" "attach refusal message"
	expect_eq "$(where_is "$mt")" "$before" "the process left where it was in every hierarchy"
	for t in $(ls /proc/$mt/task); do
		n=$(grep -c ":/$G/a\$" /proc/$mt/task/$t/cgroup)
		expect_eq "$n" "${#SPANS[@]}" "thread $t still in $G/a"
	done
	r delete "$G.b"
	expect_rc 0 "delete $G.b (cpuset too)"
	expect_eq "$(count_dirs "$G.b")" 0 "$G.b gone from every hierarchy, cpuset too"
fi

# create failing in the third hierarchy (memory's own file of that name):
# nothing left behind
r create "$G/memory.stat"
expect_rc 1 "create where memory has a file of that name"
expect_match "$err" "attribute file of that name is in the memory hierarchy" "create refusal names the hierarchy"
expect_eq "$(count_dirs "$G/memory.stat")" 0 "nothing left of $G/memory.stat"

# a group another tool made in cpu only: listed as it is, the rest named
mkdir "$CPU/$G/lone"
r list "$G"
expect_match "$out" "$G/lone +0 +[0-9]+ +cpuacct.*memory" "list names the missing hierarchies"
r list -o GROUP,MISSING -rn "$G/lone"
expect_match "$out" "^$G/lone .*memory" "-o MISSING"
# --json: the same as an array of hierarchies, no key where none is missing
r --json list "$G"
expect_rc 0 "--json list"
lone=$(json_get "$out" ".groups[] | select(.name == \"$G/lone\") | .missing | join(\" \")")
expect_match " $lone " " memory " "--json list: missing names memory"
expect_match " $lone " " cpuacct " "--json list: missing names cpuacct"
expect_eq "$(json_get "$out" ".groups[] | select(.name == \"$G/a\") | has(\"missing\") | tostring")" false \
	"--json list: no missing key for a group in every hierarchy"
r members "$G/lone"
expect_match "$err" "no directory in the hierarchies of .*memory" "members: missing named"
r attach "$G/lone" "$sp"
expect_rc 0 "attach into a group in cpu only"
expect_match "$(where_is "$sp")" "cpu=/$G/lone" "moved in cpu"
# a child of it: the parent is completed where it is missing
r create "$G/lone/kid"
expect_rc 0 "create below a group made in cpu only"
for h in "${SPANS[@]}"; do
	[ -d "$h/$G/lone/kid" ] && ok || fail "$G/lone/kid not made in $h"
done
r delete -R "$G/lone"
expect_rc 0 "delete -R $G/lone"
expect_eq "$(count_dirs "$G/lone")" 0 "$G/lone gone from every hierarchy"

# a cpuset key makes the cpuset directories (with the parent's cpus and
# mems), and the group's tasks move into cpuset from then on
if [ -n "${H[cpuset]}" ]; then
	r set "$G/a" cpuset.cpus=0 --dry-run
	expect_rc 0 "set cpuset.cpus --dry-run"
	[ ! -d "${H[cpuset]}/$G" ] && ok || fail "--dry-run made the cpuset directory"
	r set "$G/a" cpuset.cpus=0
	expect_rc 0 "set cpuset.cpus where the group has no cpuset directory"
	expect_eq "$(cat "${H[cpuset]}/$G/a/cpuset.cpus")" 0 "cpuset.cpus written"
	expect_eq "$(cat "${H[cpuset]}/$G/a/cpuset.mems")" "$(cat "${H[cpuset]}/cpuset.mems")" "cpuset.mems from the parent"
	r attach "$G/a" "$mt"
	expect_rc 0 "attach with a cpuset"
	expect_match "$(where_is "$mt")" "cpuset=/$G/a " "moved into cpuset too"
fi

# delete: every hierarchy, tasks moved up in each
r delete -R "$G"
expect_rc 0 "delete -R $G"
expect_eq "$(count_dirs "$G")" 0 "$G gone from every hierarchy"
expect_match "$(where_is "$mt")" "memory=/ " "the process moved up in memory too"

# an explicit --root below the hierarchy's top: the same place in the others
# where it is there; a root made in cpu alone stays in cpu
r create "$G.s"
run "$RG" -b cgroup1 --root "$CPU/$G.s" create y
expect_rc 0 "create below a --root made by rgctl"
expect_eq "$(count_dirs "$G.s/y")" "${#SPANS[@]}" "--root spans the same place in every hierarchy"
mkdir "$CPU/$G.r"
run "$RG" -b cgroup1 --root "$CPU/$G.r" create y
expect_rc 0 "create below a --root in cpu only"
expect_eq "$(count_dirs "$G.r/y")" 1 "--root made in cpu only: the group is made in cpu only"

# a --root on a named hierarchy of no controller ("none,name=x") is a tree
# of its own: the same path in cpu, memory... is the machine's, never
# touched (it made the group at the top of every hierarchy as well)
NM=$(mktemp -d /tmp/rgctl-v1named.XXXXXX)
if mount -t cgroup -o "none,name=rgtv1n$$" "rgtv1n$$" "$NM" 2>/dev/null; then
	CLEANUPS+=("rmdir '$NM/$G.n' 2>/dev/null; umount '$NM'; rmdir '$NM'")
	for h in "${ALL[@]}"; do CLEANUPS+=("rmdir '$h/$G.n' 2>/dev/null"); done
	run "$RG" -b cgroup1 --root "$NM" create "$G.n"
	expect_rc 0 "create under a named hierarchy's root"
	[ -d "$NM/$G.n" ] && ok || fail "the group is not in the named hierarchy"
	expect_eq "$(count_dirs "$G.n")" 0 "a named hierarchy's group made in no other hierarchy"
	run "$RG" -b cgroup1 --root "$NM" delete "$G.n"
	expect_rc 0 "delete under a named hierarchy's root"
else
	rmdir "$NM"
	echo "# note: cannot mount a named cgroup v1 hierarchy here: that check skipped"
fi
finish
