# rgctl top -b on the host's cgroup v1 (issue 27): two busy loops pinned to
# one CPU in groups weighted 100:300 show EXPECT 25/75 and SHARE within 10
# points of it; -J is one JSON object per snapshot with the figures of each
# group; a group removed while watched leaves without an error; bad lines
# are usage errors.  cgroup v2 in the guest: tests/vm/top.sh; RGCS:
# tests/rgctl/top_rgcs.sh.
. "$(dirname "$0")/common.sh"
require_root "creates groups in the cgroup v1 hierarchies"
command -v jq >/dev/null || skip_test "jq is not installed"
command -v taskset >/dev/null || skip_test "taskset is not installed"
CPU=$(mount_of cgroup cpu)
[ -n "$CPU" ] || skip_test "needs a cgroup v1 cpu hierarchy (cgroup v2: tests/vm/top.sh)"
for h in $CPU $(v1_peers "$CPU"); do
	use_hierarchy "$h"
done
T=$(mktemp -d /tmp/rgctl-top.XXXXXX)
CLEANUPS+=('rm -rf "$T"')
r() { run "$RG" --backend cgroup1 --root "$CPU" "$@"; }

# usage errors first: nothing is read
for bad in "-n 0" "-n x" "-d 0" "-d 0.01" "-d abc" "-o bogus" "-s bogus" "a b"; do
	# shellcheck disable=SC2086
	r top -b $bad
	expect_rc 2 "top -b $bad"
	expect_match "$err" "rgctl top: " "top -b $bad message"
done
r top -b -n 1 -d 0.2 "$G.none"
expect_rc 1 "top of a missing group"
expect_match "$err" "no such group" "missing group message"

r create "$G/a" "$G/b" "$G/gone" -p
expect_rc 0 "create the groups"
r set "$G/a" cpu.weight=100
r set "$G/b" cpu.weight=300
cpu=$(($(nproc) - 1))
for g in a b; do
	taskset -c "$cpu" sh -c 'while :; do :; done' &
	SPAWNED+=("$!")
	r attach "$G/$g" "$!"
	expect_rc 0 "attach a busy loop to $g"
done

# members -o: each process with its name and command line (issue 27)
r members -o pid,comm,args "$G/a"
expect_rc 0 "members -o pid,comm,args"
expect_match "$out" "^ +PID COMM +ARGS" "members -o header"
expect_match "$out" "^ *[0-9]+ sh +sh -c while :; do :; done" "members -o row"
r -J members -o args,pid "$G/a"
expect_eq "$(json_get "$out" '.members[0].args')" "sh -c while :; do :; done" "members -J -o args"
expect_eq "$(json_get "$out" '.members | length')" 1 "members -J -o: one process"
r members -o pid,bogus "$G/a"
expect_rc 2 "members -o with an unknown column"

# the shares: expected 25/75 from the weights, actual within 10 points,
# over up to four 5 s snapshots (the host's other load competes with both)
for i in 1 2 3 4; do
	r top -b -J -n 1 -d 5 "$G"
	expect_rc 0 "top -b -J (try $i)"
	ea=$(json_get "$out" ".groups[] | select(.path == \"/$G/a\") | .expected_share_pct")
	eb=$(json_get "$out" ".groups[] | select(.path == \"/$G/b\") | .expected_share_pct")
	aa=$(json_get "$out" ".groups[] | select(.path == \"/$G/a\") | .actual_share_pct")
	ab=$(json_get "$out" ".groups[] | select(.path == \"/$G/b\") | .actual_share_pct")
	awk -v a="$aa" -v b="$ab" 'BEGIN { exit !(a >= 15 && a <= 35 && b >= 65 && b <= 85) }' && break
done
expect_eq "$ea/$eb" "25/75" "expected shares of weights 100:300"
awk -v a="$aa" -v b="$ab" 'BEGIN { exit !(a >= 15 && a <= 35 && b >= 65 && b <= 85) }' &&
	ok || fail "actual shares $aa/$ab, not within 10 points of 25/75"
# what each group holds in JSON
for k in path tasks cpu_pct cpu_weight memory_current memory_max oom_kill \
	io_read_bps io_write_bps pids_current pids_max psi_cpu_some_avg10; do
	json_get "$out" ".groups[0] | has(\"$k\")" >/dev/null && ok || fail "no $k in -J"
done
expect_eq "$(json_get "$out" ".groups[] | select(.path == \"/$G/a\") | .tasks")" 1 "tasks of a"
expect_eq "$(json_get "$out" ".groups[] | select(.path == \"/$G/b\") | .cpu_weight")" 300 "weight of b"
expect_eq "$(json_get "$out" '.backend')" cgroup1 "backend in -J"
[ "$(json_get "$out" ".groups[] | select(.path == \"/$G/a\") | .cpu_pct")" != null ] &&
	ok || fail "the first snapshot has no CPU rate"

# -n 2: two JSON lines, each parsing; text: two tables, a blank line apart
r top -b -J -n 2 -d 0.3 "$G"
expect_rc 0 "top -b -J -n 2"
expect_eq "$(printf '%s\n' "$out" | wc -l)" 2 "-n 2: two lines"
printf '%s\n' "$out" | python3 -c 'import sys, json; [json.loads(l) for l in sys.stdin]' &&
	ok || fail "-J lines do not parse"
r top -b -n 2 -d 0.3 -F -s c -o group,cpu,weight,share "$G"
expect_rc 0 "top -b text"
expect_eq "$(printf '%s\n' "$out" | grep -c '^GROUP *CPU *WEIGHT *SHARE$')" 2 "two headers"
expect_eq "$(printf '%s\n' "$out" | sed -n 2p | awk '{print $1}')" "/$G" "-s c: the busiest first"

# a group removed while shown: gone from the next snapshot, no error
"$RG" --backend cgroup1 --root "$CPU" top -b -J -n 6 -d 0.5 "$G" >"$T/snaps" 2>"$T/err" &
topp=$!
for i in $(seq 50); do
	[ -s "$T/snaps" ] && break
	sleep 0.1
done
r delete "$G/gone"
expect_rc 0 "delete a group while top watches"
wait "$topp"
expect_eq "$?" 0 "top exit status after a group went"
expect_eq "$(cat "$T/err")" "" "top said nothing on stderr"
expect_eq "$(head -1 "$T/snaps" | jq -r "[.groups[].path] | index(\"/$G/gone\") != null")" true \
	"the first snapshot shows the group"
expect_eq "$(tail -1 "$T/snaps" | jq -r "[.groups[].path] | index(\"/$G/gone\")")" null \
	"the last snapshot does not"

# the watched group itself removed: top says so (exit 1)
r create "$G/x"
"$RG" --backend cgroup1 --root "$CPU" top -b -n 20 -d 0.3 "$G/x" >/dev/null 2>"$T/err" &
topp=$!
sleep 0.5
r delete "$G/x"
wait "$topp"
expect_eq "$?" 1 "top of a group removed"
expect_match "$(cat "$T/err")" "the group is gone" "removed group message"
finish
