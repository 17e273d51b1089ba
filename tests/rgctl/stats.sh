# rgctl stats on the host's cgroup v1 (issue 26 item 4): a busy loop and a
# process holding 40 MiB in a group; stats shows its CPU time (cpuacct,
# its own hierarchy) and memory use (the memory hierarchy), --interval a
# CPU rate, --json parses; a hierarchy with none of the group's files says
# so (exit 1); a bad --interval is a usage error (exit 2); ENOSPC on a v1
# cpuset is said as a cpuset's cause.  The guest's cgroup v2 and PSI:
# tests/vm/stats.sh.
. "$(dirname "$0")/common.sh"
require_root "creates groups in the cgroup v1 hierarchies"
command -v jq >/dev/null || skip_test "jq is not installed"
CPU=$(mount_of cgroup cpu)
ACCT=$(mount_of cgroup cpuacct)
MEM=$(mount_of cgroup memory)
[ -n "$CPU" ] && [ -n "$ACCT" ] && [ -n "$MEM" ] ||
	skip_test "needs cgroup v1 cpu, cpuacct and memory hierarchies (cgroup v2: tests/vm/stats.sh)"
HELPER=$BUILD_DIR/tests/rgctl/stats_helper
[ -x "$HELPER" ] || { echo "FAIL: $HELPER not built"; exit 1; }
T=$(mktemp -d /tmp/rgctl-stats.XXXXXX)
# last: a named hierarchy mounted below $T goes first
cleanup_t() {
	named_hier_umount "kattr-stats$$" "$T/named"
	rm -rf "$T"
}
for h in "$CPU" "$ACCT" "$MEM"; do
	use_hierarchy "$h"
done
CLEANUPS+=(cleanup_t)
r() { run "$RG" --backend cgroup1 --root "$CPU" "$@"; }

r create "$G"
expect_rc 0 "create $G"
# create makes the group in every hierarchy, cpuacct's and memory's too
for h in "$ACCT" "$MEM"; do
	[ -d "$h/$G" ] && ok || fail "create did not make $G in $h"
done
(while :; do :; done) &
busy=$!
SPAWNED+=("$busy")
r attach "$G" "$busy"
expect_rc 0 "attach the busy loop"
# the toucher joins before it touches: its pages are charged to the group
sh -c 'for h; do echo $$ >"$h/tasks"; done; exec "'"$HELPER"'" touch 40 300' sh \
	"$CPU/$G" "$ACCT/$G" "$MEM/$G" >"$T/ready" &
SPAWNED+=("$!")
for i in $(seq 100); do
	[ -s "$T/ready" ] && break
	sleep 0.1
done
expect_eq "$(cat "$T/ready")" ready "the 40 MiB toucher is ready"

# the figures, named as cgroup v2 names them, from each hierarchy
r -J stats "$G"
expect_rc 0 "stats --json"
usage=$(json_get "$out" '.stats.cpu.usage_usec')
[ -n "$usage" ] && [ "$usage" -gt 0 ] && ok || fail "cpu usage_usec '$usage' for a busy group"
expect_eq "$(json_get "$out" '.figures[] | select(.figure == "usage_usec") | .file')" cpuacct.usage \
	"usage_usec read from cpuacct.usage"
cur=$(json_get "$out" '.stats.memory.current')
[ -n "$cur" ] && [ "$cur" -ge $((32 << 20)) ] && ok || fail "memory current '$cur' below 32 MiB with 40 MiB touched"
expect_eq "$(json_get "$out" '.figures[] | select(.figure == "current" and .resource == "memory") | .unit')" bytes \
	"memory current in bytes"
expect_match "$(json_get "$out" '.stats.memory["events.oom_kill"]')" '^[0-9]+$' "memory events.oom_kill"
expect_eq "$(json_get "$out" '.backend')" cgroup1 "backend"
expect_eq "$(json_get "$out" '.interval == null')" true "no interval"

# the table: grouped by resource, human units; -r raw numbers
r stats "$G"
expect_rc 0 "stats"
expect_match "$(printf '%s\n' "$out" | head -1)" '^RESOURCE +FIGURE +DEVICE +VALUE$' "stats header"
expect_match "$out" '^cpu +usage_usec +[0-9]+(\.[0-9]+)?(us|ms|s|m[0-9]{2}s|h[0-9]{2}m)$' "cpu usage_usec in human units"
expect_match "$out" '^memory +current +[0-9.]+M$' "memory current in MiB"
r stats -r -n -o resource,figure,value,unit,file "$G"
expect_rc 0 "stats -r -n -o"
line=$(printf '%s\n' "$out" | grep '^memory current ')
expect_match "$line" '^memory current [0-9]+ bytes memory.usage_in_bytes$' "raw memory line"
r stats -o bogus "$G"
expect_rc 2 "stats -o bogus"

# --interval: a busy loop's CPU as percent of one CPU (loosely: the
# machine is shared)
r -J stats --interval 1 "$G"
expect_rc 0 "stats --interval 1"
rate=$(json_get "$out" '.figures[] | select(.figure == "usage_usec") | .rate | floor')
echo "busy loop: $rate% of one CPU"
[ -n "$rate" ] && [ "$rate" -ge 10 ] && [ "$rate" -le 130 ] && ok ||
	fail "CPU rate of a busy loop: '$rate' percent of one CPU, expected 10 (a loaded machine) to 130"
expect_eq "$(json_get "$out" '.interval == 1')" true "interval in the document"
expect_eq "$(json_get "$out" '.figures[] | select(.figure == "current" and .resource == "memory") | .rate == null')" true \
	"no rate for a level"
r stats -i 0.2 -c 2 -o figure,rate "$G"
expect_rc 0 "stats -i 0.2 -c 2"
expect_eq "$(printf '%s\n' "$out" | grep -c '^FIGURE')" 2 "two reports"
for bad in 0 -1 abc 1e9 inf nan 0x10 ""; do
	r stats --interval "$bad" "$G"
	expect_rc 2 "stats --interval '$bad'"
	expect_match "$err" "invalid --interval" "bad --interval message ('$bad')"
done
r stats --count 2 "$G"
expect_rc 2 "stats --count without --interval"
r stats -i 1 -c 0 "$G"
expect_rc 2 "stats --count 0"
r stats --delay -i 1 "$G"
expect_rc 2 "stats --delay with --interval"

# a hierarchy with none of the group's files: said, exit 1.  A named
# hierarchy of no controller, the group in no controller's hierarchy.
mkdir "$T/named"
if named_hier_mount "kattr-stats$$" "$T/named"; then
	mkdir "$T/named/$G.none"
	run "$RG" --root "$T/named" stats "$G.none"
	expect_rc 1 "stats of a group with no statistics file"
	expect_match "$err" "'$G.none' has no statistics here: cpu: .*; memory: .*; io: .*; pids: " \
		"no statistics: each resource said"
	expect_eq "$out" "" "nothing on stdout"
else
	echo "SKIP part: cannot mount a named cgroup v1 hierarchy"
fi
# the memory hierarchy: memory figures, and the resources it lacks named
mkdir "$MEM/$G.m"
CLEANUPS+=("rmdir '$MEM/$G.m' 2>/dev/null")
run "$RG" --root "$MEM" stats "$G.m"
expect_rc 0 "stats of a group in the memory hierarchy alone"
expect_match "$out" '^memory +current ' "its memory figures"
expect_match "$err" "no cpu figures for '$G.m': the group has no directory in the cpuacct hierarchy" \
	"the missing cpuacct directory said"

# ENOSPC on a v1 cpuset without cpus or mems: the cpuset's cause
CPUSET=$(mount_of cgroup cpuset)
if [ -n "$CPUSET" ] && mkdir "$CPUSET/$G" 2>/dev/null; then
	CLEANUPS+=("rmdir '$CPUSET/$G' 2>/dev/null")
	sleep 300 &
	SPAWNED+=("$!")
	run "$RG" --root "$CPUSET" attach "$G" "$!"
	expect_rc 1 "attach to an empty v1 cpuset"
	expect_match "$err" "cpuset[. ].*(cpus|mems)" "ENOSPC said as a cpuset's cause"
	[[ "$err" == *"one page"* ]] && fail "ENOSPC said as RGCS's: $err" || ok
fi
finish
