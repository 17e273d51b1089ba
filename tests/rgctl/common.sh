# Shared start of rgctl's shell tests: helpers, a unique group prefix, and a
# cleanup that runs whatever happens (moves tasks back, removes groups,
# kills what the test started).
. "$SRC_DIR/tests/cli/lib.sh"
RG=$(tool_path rgctl)
[ -x "$RG" ] || { echo "FAIL: $RG not built"; exit 1; }
G=rgt$$				# unique group prefix for this run
SPAWNED=()
CLEANUPS=()

# mount_of FSTYPE [SUPER_OPT]: the first mount point of that type, from
# mountinfo (never a hard-coded path).
mount_of() {
	awk -v t="$1" -v o="${2:-}" '{
		for (i = 7; i <= NF; i++) if ($i == "-") break
		if ($(i + 1) != t) next
		if (o != "") { n = split($(i + 3), a, ","); f = 0
			for (k = 1; k <= n; k++) if (a[k] == o) f = 1
			if (!f) next }
		print $5; exit }' /proc/self/mountinfo
}

# use_hierarchy ROOT: skip the test unless groups can be created in ROOT;
# then $G below it is removed at exit, whatever happens.
use_hierarchy() {
	mkdir "$1/$G.probe" 2>/dev/null || skip_test "cannot create groups in $1"
	rmdir "$1/$G.probe"
	CLEANUPS+=("cg_remove '$1' '$1/$G'")
}

# v1_peers MOUNT: when MOUNT is a cgroup v1 mount point, the mount points
# of the other v1 hierarchies a group spans (cpu, cpuacct, memory, pids,
# blkio, cpuset: rgctl makes a group in each).
v1_peers() {
	awk -v me="$1" '{
		for (i = 7; i <= NF; i++) if ($i == "-") break
		if ($(i + 1) != "cgroup") next
		if ($5 == me) { mine = 1; next }
		if ($(i + 3) ~ /(^|,)(cpu|cpuacct|memory|pids|blkio|cpuset)(,|$)/ && !seen[$(i + 3)]++)
			peers[++n] = $5 }
		END { if (mine) for (k = 1; k <= n; k++) print peers[k] }' /proc/self/mountinfo
}

# cg_remove ROOT DIR: move every task below DIR to the hierarchy root ROOT,
# then remove the directories, deepest first; where ROOT is a cgroup v1
# mount point, the same below each of its peers (v1_peers) too.
cg_remove() {
	local p
	cg_remove_one "$1" "$2"
	case $2 in "$1"/*) ;; *) return 0 ;; esac
	for p in $(v1_peers "$1"); do cg_remove_one "$p" "$p${2#"$1"}"; done
}

cg_remove_one() {
	local root=$1 dir=$2 d t file
	[ -d "$dir" ] || return 0
	file=tasks
	[ -f "$root/tasks" ] || file=cgroup.procs
	find "$dir" -depth -type d | while read -r d; do
		for t in $(cat "$d/$file" 2>/dev/null); do
			echo "$t" >"$root/$file" 2>/dev/null
		done
		rmdir "$d" 2>/dev/null
	done
}

cleanup() {
	local c
	for c in "${CLEANUPS[@]}"; do eval "$c"; done
	if [ ${#SPAWNED[@]} -gt 0 ]; then
		kill "${SPAWNED[@]}" 2>/dev/null
		wait "${SPAWNED[@]}" 2>/dev/null
	fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# spawn N: start N sleeps; their pids go to SPAWNED and $PIDS
spawn() {
	local i
	PIDS=()
	for ((i = 0; i < $1; i++)); do
		sleep 300 &
		SPAWNED+=($!)
		PIDS+=($!)
	done
}

# json_get JSON FILTER: jq -r, fails the check when jq cannot parse it
json_get() {
	local v
	if ! v=$(printf '%s' "$1" | jq -er "$2" 2>&1); then
		fail "jq '$2' on '${1:0:300}': $v"
		return 1
	fi
	printf '%s' "$v"
}

expect_eq() {	# expect_eq GOT WANT what
	if [ "$1" = "$2" ]; then ok; else fail "$3: got '${1:0:300}', expected '$2'"; fi
}

# in_file FILE ID: is ID one of FILE's lines?
in_file() { grep -qx -- "$2" "$1" 2>/dev/null; }
