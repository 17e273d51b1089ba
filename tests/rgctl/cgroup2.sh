# rgctl on the real cgroup v2 hierarchy: membership commands for real; shares
# where the cpu controller is available (enabling it along the path, all or
# nothing, with a fault at every level), else a clear refusal.  Needs root.
. "$(dirname "$0")/common.sh"
require_root "creates groups in the cgroup v2 hierarchy"
command -v jq >/dev/null || skip_test "jq is not installed"
U=$(mount_of cgroup2)
[ -n "$U" ] || skip_test "no cgroup v2 hierarchy is mounted"
use_hierarchy "$U"
ROOT_SC=$(cat "$U/cgroup.subtree_control")
CLEANUPS+=("cg_remove '$U' '$U/$G.m'" "restore_root")
r() { run "$RG" --backend cgroup2 --root "$U" "$@"; }
has_cpu=no
grep -qw cpu "$U/cgroup.controllers" && has_cpu=yes
root_cpu=no
grep -qw cpu "$U/cgroup.subtree_control" && root_cpu=yes
echo "cgroup v2 at $U, cpu available: $has_cpu, enabled at the root: $root_cpu"

# The root's cpu goes back to how it was (the test enables it, as rgctl
# would for a user, but leaves nothing behind).
restore_root() {
	[ $root_cpu = no ] && grep -qw cpu "$U/cgroup.subtree_control" &&
		echo -cpu >"$U/cgroup.subtree_control" 2>/dev/null
	return 0
}

# state: every cgroup.subtree_control from the root down through $G, and
# every group below $G (what an undone command must leave as it was).
state() {
	echo "/: $(cat "$U/cgroup.subtree_control")"
	[ -d "$U/$G" ] || return 0
	find "$U/$G" -type d | sort | while read -r d; do
		echo "${d#"$U"}: $(cat "$d/cgroup.subtree_control")"
	done
}

r create "$G/a" -p
expect_rc 0 "create -p"
[ -d "$U/$G/a" ] && ok || fail "no $U/$G/a"
[ -z "$err" ] && ok || fail "create without shares said: $err"
r create "$G/b" --shares 0
expect_rc 2 "create --shares 0 (out of range for cpu.weight)"
expect_match "$err" "out of range \(1\.\.10000\)|invalid shares" "create --shares 0 message"
[ ! -d "$U/$G/b" ] && ok || fail "create with bad shares made $G/b"
r shares "$G/a" 10001
expect_rc 2 "shares 10001"
expect_match "$err" "out of range \(1\.\.10000\)" "shares 10001 message"
if [ $has_cpu = no ]; then
	r create "$G/b" --shares 100
	expect_rc 1 "create --shares without cpu"
	expect_match "$err" "cpu.weight" "create --shares without cpu message"
	[ ! -d "$U/$G/b" ] && ok || fail "create --shares without cpu left $G/b"
	r shares "$G/a"
	expect_rc 1 "shares show without cpu"
	expect_match "$err" "no shares.*cpu.weight.*cpu controller" "shares without cpu message"
	r shares "$G/a" 200
	expect_rc 1 "shares set without cpu"
	r list "$G"
	expect_match "$out" "$G/a +0 +-" "list shows no shares"
	grep -qw cpu "$U/$G/cgroup.subtree_control" && fail "cpu enabled without cpu" || ok
else
	# --- faults first, while nothing above $G/f enables cpu (unless the
	# root already does): a process in one group on the path makes
	# enabling fail there (EBUSY, no internal processes); everything
	# enabled and made before is taken back.
	# (cpu is a threaded controller: the kernel refuses it only where
	# the group has processes and child groups with processes)
	for lvl in f f/l1 f/l1/l2; do
		mkdir -p "$U/$G/$lvl/z"
		before=$(state)
		sleep 300 &
		busy=$!
		SPAWNED+=($busy)
		echo $busy >"$U/$G/$lvl/cgroup.procs"
		sleep 300 &
		busy2=$!
		SPAWNED+=($busy2)
		echo $busy2 >"$U/$G/$lvl/z/cgroup.procs"
		r create "$G/f/l1/l2/x/y" -p --shares 50
		expect_rc 1 "create with a process in $G/$lvl"
		expect_match "$err" "cannot enable cpu in $U/$G/$lvl/cgroup.subtree_control: group '$G/$lvl' has member processes" \
			"EBUSY message names $G/$lvl"
		expect_match "$err" "nothing was created" "EBUSY message says nothing was created"
		expect_eq "$(state)" "$before" "tree after the failed create (process in $G/$lvl)"
		mkdir "$U/$G/$lvl/s"
		before=$(state)
		r shares "$G/$lvl/s" 70
		expect_rc 1 "shares with a process in $G/$lvl"
		expect_match "$err" "group '$G/$lvl' has member processes.*nothing was changed" "shares EBUSY message"
		expect_eq "$(state)" "$before" "tree after the failed shares (process in $G/$lvl)"
		rmdir "$U/$G/$lvl/s"
		echo $busy >"$U/cgroup.procs"
		echo $busy2 >"$U/cgroup.procs"
		kill $busy $busy2
		wait $busy $busy2 2>/dev/null
		rmdir "$U/$G/$lvl/z"
	done
	rmdir "$U/$G/f/l1/l2" "$U/$G/f/l1" "$U/$G/f"

	# --no-enable: the old refusal, naming the parent that lacks cpu
	before=$(state)
	r create "$G/a/n" --shares 5 --no-enable
	expect_rc 1 "create --shares --no-enable"
	expect_match "$err" "cpu is not enabled in $U/$G/a/cgroup.subtree_control \(nor above it from $U/" "--no-enable names the parent $G/a"
	[ ! -d "$U/$G/a/n" ] && ok || fail "--no-enable made $G/a/n"
	r create "$G/q/r" -p --shares 5 --no-enable
	expect_rc 1 "create -p --shares --no-enable"
	[ ! -d "$U/$G/q" ] && ok || fail "--no-enable -p made $G/q"
	r shares "$G/a" 5 --no-enable
	expect_rc 1 "shares --no-enable"
	expect_match "$err" "cpu is not enabled in $U/$G/cgroup.subtree_control" "shares --no-enable message"
	r shares "$G/a"
	expect_rc 1 "shares show without cpu.weight"
	expect_match "$err" "no shares: cpu is not enabled in $U/$G/cgroup.subtree_control" "shares show names the parent"
	expect_eq "$(state)" "$before" "tree after the --no-enable refusals"

	# apply: a failure injected at every step undoes the enabling too
	if [ "${WITH_LIBCONFIG:-ON}" != OFF ]; then
		conf=$(mktemp)
		CLEANUPS+=("rm -f '$conf'")
		printf 'backend = "cgroup2";\ngroups = (\n  { name = "%s"; },\n  { name = "%s/ap"; shares = 100; },\n  { name = "%s/ap/b"; shares = 300; },\n  { name = "%s/a"; shares = 400; }\n);\n' \
			"$G" "$G" "$G" "$G" >"$conf"
		before=$(state)
		r apply "$conf" --dry-run
		expect_rc 0 "apply --dry-run"
		expect_match "$out" "create $G/ap shares=100, enabling cpu in .*$U/$G/cgroup.subtree_control" "dry run names the enabling"
		expect_match "$out" "create $G/ap/b shares=300, enabling cpu in $U/$G/ap/cgroup.subtree_control" "dry run: $G/ap"
		expect_match "$out" "set $G/a shares=400 \(was none: no cpu.weight\)$" "dry run: $G/a, enabled by an earlier step"
		r apply "$conf" --no-enable
		expect_rc 1 "apply --no-enable"
		expect_match "$err" ":4: groups: '$G/ap' has shares but cpu is not enabled in $U/" "apply --no-enable message"
		for step in 1 2 3; do
			RGCTL_APPLY_FAIL_STEP=$step run "$BUILD_DIR/src/rgctl/rgctl-faults" --backend cgroup2 --root "$U" apply "$conf"
			expect_rc 1 "apply failing at step $step"
			expect_eq "$(state)" "$before" "tree after apply failed at step $step"
		done
		r apply "$conf"
		expect_rc 0 "apply"
		expect_match "$err" "enabled cpu in $U/$G/ap/cgroup.subtree_control" "apply says what it enabled"
		expect_eq "$(cat "$U/$G/ap/b/cpu.weight") $(cat "$U/$G/a/cpu.weight")" "300 400" "weights after apply"
		r apply "$conf"
		expect_eq "$out" "0 changes" "apply again"
		r delete "$G/ap" --recursive
	fi
	# The root's subtree_control: enabled by the first command that needs it.
	# The test's own group starts without cpu for its children whatever the
	# root has, so create -p below must enable it there too.
	echo -cpu >"$U/$G/cgroup.subtree_control" 2>/dev/null
	grep -qw cpu "$U/$G/cgroup.subtree_control" && fail "cannot disable cpu in $G for the next case"
	[ $root_cpu = no ] && echo -cpu >"$U/cgroup.subtree_control"

	# --- create -p --shares enables cpu from the root down, in the
	# parents it makes too, and says so
	r create "$G/p/q/r" -p --shares 300
	expect_rc 0 "create -p --shares (cpu available, not enabled)"
	expect_eq "$(cat "$U/$G/p/q/r/cpu.weight" 2>&1)" 300 "cpu.weight after create -p --shares"
	for g in "$G" "$G/p" "$G/p/q"; do
		expect_match "$err" "enabled cpu in $U/$g/cgroup.subtree_control" "create -p says it enabled cpu in $g"
		grep -qw cpu "$U/$g/cgroup.subtree_control" && ok || fail "cpu not enabled in $g"
	done
	if [ $root_cpu = no ]; then
		expect_match "$err" "enabled cpu in $U/cgroup.subtree_control" "create -p enabled cpu at the root"
	fi
	r create "$G/p/q/s" --shares 10000
	expect_rc 0 "create --shares under an enabled parent"
	[ -z "$err" ] && ok || fail "nothing to enable, yet: $err"
	expect_eq "$(cat "$U/$G/p/q/s/cpu.weight")" 10000 "cpu.weight 10000"
	r create "$G/p/t" --shares 1 --no-enable
	expect_rc 0 "--no-enable where cpu is enabled"
	expect_eq "$(cat "$U/$G/p/t/cpu.weight")" 1 "cpu.weight 1"

	# shares: enables where missing; every value of the range read back
	r create "$G/p/q/r/deep"
	r shares "$G/p/q/r/deep" 42
	expect_rc 0 "shares where the parent lacks cpu"
	expect_eq "$err" "rgctl: enabled cpu in $U/$G/p/q/r/cgroup.subtree_control" "shares says what it enabled"
	for v in 1 2 100 9999 10000 $((RANDOM % 10000 + 1)); do
		r shares "$G/p/q/r/deep" $v
		expect_rc 0 "shares $v"
		expect_eq "$(cat "$U/$G/p/q/r/deep/cpu.weight")" $v "cpu.weight $v"
		r shares "$G/p/q/r/deep"
		expect_eq "$out" $v "shares reads $v back"
	done
	r --json shares "$G/p/q/r/deep"
	expect_eq "$(json_get "$out" '.shares[0].value')" "$v" "--json shares"

	# creates racing under a fresh parent all succeed: the kernel shows cpu
	# in the parent's cgroup.subtree_control before the children's
	# cpu.weight files exist, so a create that finds cpu enabled by another
	# one must wait for the files (it failed about 1 run in 3 with two).
	for round in 1 2 3 4 5; do
		pids=() errs=()
		for k in 1 2 3 4; do
			errs[k]=$(mktemp)
			"$RG" -b cgroup2 --root "$U" create "$G/race/r$round/s$k" -p --shares $((round * 100 + k)) >"${errs[k]}" 2>&1 &
			pids[k]=$!
		done
		bad=0
		for k in 1 2 3 4; do
			wait "${pids[k]}" || { fail "racing create r$round/s$k: $(cat "${errs[k]}")"; bad=1; }
			rm -f "${errs[k]}"
		done
		got=$(for k in 1 2 3 4; do cat "$U/$G/race/r$round/s$k/cpu.weight" 2>&1; done | tr '\n' ' ')
		want=$(for k in 1 2 3 4; do echo $((round * 100 + k)); done | tr '\n' ' ')
		[ "$got" = "$want" ] || { fail "racing creates, round $round: weights $got, want $want"; bad=1; }
		[ $bad = 0 ] && ok
	done
	# the same for shares on existing groups whose parent lacks cpu
	for k in 1 2 3 4; do mkdir -p "$U/$G/race/sh/s$k"; done
	pids=()
	for k in 1 2 3 4; do
		"$RG" -b cgroup2 --root "$U" shares "$G/race/sh/s$k" $((k * 7)) >/dev/null 2>&1 &
		pids[k]=$!
	done
	for k in 1 2 3 4; do wait "${pids[k]}" || fail "racing shares s$k: exit $?"; done
	expect_eq "$(for k in 1 2 3 4; do cat "$U/$G/race/sh/s$k/cpu.weight" 2>&1; done | tr '\n' ' ')" "7 14 21 28 " "racing shares' weights"
	# widened: enabling cpu in a parent of 300 groups creates 300 sets of
	# cpu files, so shares on its last children started meanwhile find cpu
	# enabled and their file not there yet (fails without the wait)
	E=$(mktemp -d)
	CLEANUPS+=("rm -rf '$E'")
	for round in 1 2 3; do
		W=$U/$G/race/wide$round
		mkdir -p "$W" && (cd "$W" && mkdir $(seq -f 'c%g' 0 299))
		"$RG" -b cgroup2 --root "$U" shares "$G/race/wide$round/c0" 5 >/dev/null 2>&1 &
		pids=($!)
		for k in 299 298 297 296 295 294; do
			"$RG" -b cgroup2 --root "$U" shares "$G/race/wide$round/c$k" $k >"$E/e$k" 2>&1 &
			pids+=($!)
		done
		bad=0
		for p in "${pids[@]}"; do wait "$p" || bad=1; done
		got=$(cat "$W/c0/cpu.weight" "$W/c299/cpu.weight" "$W/c294/cpu.weight" 2>&1 | tr '\n' ' ')
		[ $bad = 0 ] && [ "$got" = "5 299 294 " ] && ok ||
			fail "shares racing the enabling of cpu for 300 groups, round $round: weights $got; $(cat "$E"/e* | tr '\n' ' ')"
		rm -f "$E"/e*
	done
	r delete "$G/race" --recursive
	r delete "$G/p" --recursive
	expect_rc 0 "delete --recursive of the enabled tree"
fi

# membership: in $M, a group whose own subtree has no controller enabled
# (cgroup v2 allows processes only there, below the root)
M=$G.m
r create "$M/a" -p
spawn 3
p1=${PIDS[0]} p2=${PIDS[1]} p3=${PIDS[2]}
r attach "$M/a" "$p1" 999999 "$p2"
expect_rc 1 "attach with a missing pid"
expect_match "$err" "cannot move pid 999999 to '$M/a': no such process" "missing pid message"
in_file "$U/$M/a/cgroup.procs" "$p1" && ok || fail "$p1 did not move"
in_file "$U/$M/a/cgroup.procs" "$p2" && ok || fail "$p2 did not move"
r attach "$M/a" 0x10
expect_rc 2 "attach 0x10"
r attach "$M" --threads "$p3"
expect_rc 0 "attach --threads"
r members "$M/a"
expect_eq "$(printf '%s\n' "$out" | grep -v '^#' | sort -n | tr '\n' ' ')" "$(printf '%s\n' "$p1" "$p2" | sort -n | tr '\n' ' ')" "members"
r --json members "$M/a"
expect_eq "$(json_get "$out" '.processes | length')" 2 "--json members"
r members "$M/a" --threads
expect_eq "$(printf '%s\n' "$out" | grep -vc '^#')" 2 "members --threads"
expect_eq "$(printf '%s\n' "$out" | head -1)" "# threads" "members --threads header"
r whereis "$p3"
expect_eq "$out" "$M" "whereis"
r --json whereis "$p1"
expect_eq "$(json_get "$out" '.group')" "$M/a" "--json whereis"
expect_eq "$(json_get "$out" '.backend')" cgroup2 "--json whereis backend"
r whereis 999999
expect_rc 1 "whereis missing pid"
r stats "$M/a"
expect_rc 0 "stats"
expect_match "$out" "^cpu +usage_usec +[0-9]" "stats usage_usec"
r --json stats "$M/a"
expect_match "$(json_get "$out" '.stats.cpu.usage_usec')" '^[0-9]+$' "--json stats"
r --json list "$M"
expect_eq "$(json_get "$out" '[.groups[] | "\(.name)=\(.tasks)"] | join(",")')" "$M=1,$M/a=2" "--json list"
r exec "$M/a" -- cat /proc/self/cgroup
expect_match "$out" "^0::/$M/a$" "exec runs in the group"

# rgctl_cgroup1's bad input on cgroup v2: refused before anything moves
for bad in 0x10 010 0 -1 +5 "1 2" abc ""; do
	r attach "$M" "$p1" "$bad"
	expect_rc 2 "attach pid '$bad'"
	expect_match "$err" "invalid pid" "attach '$bad' message"
	in_file "$U/$M/cgroup.procs" "$p1" && fail "pid $p1 moved despite '$bad'" || ok
done
r attach "$M" 2
expect_rc 1 "attach kthreadd"
expect_match "$err" "cannot move pid 2 to '$M'" "kthreadd message"
r attach "$M/none" "$p1"
expect_rc 1 "attach to a missing group"
expect_match "$err" "no such group" "attach missing group message"
if command -v setpriv >/dev/null; then
	run setpriv --reuid=65534 --regid=65534 --clear-groups "$RG" -b cgroup2 --root "$U" attach "$M" "$p1"
	expect_rc 1 "attach as nobody"
	expect_match "$err" "permission denied|not permitted" "attach as nobody message"
	in_file "$U/$M/a/cgroup.procs" "$p1" && ok || fail "pid $p1 moved by nobody"
fi
r exec "$M/a" -- sh -c 'exit 7'
expect_rc 7 "exec passes the exit status on"
r exec "$M/a" -- /nonexistent/cmd
expect_rc 127 "exec of a missing command"
r exec "$M/none" -- true
expect_rc 1 "exec into a missing group"
long=$(printf 'x%.0s' $(seq 256))
for bad in "../x" "$G/../x" "/$G" "$G//a" "$G/a/" "$(printf 'a\001b')" "$long" "."; do
	r create "$bad" --shares 50
	expect_rc 2 "create '${bad:0:20}'"
	expect_match "$err" "invalid group name" "create '${bad:0:20}' message"
done
r shares ".." 5
expect_rc 2 "shares .."
if [ $has_cpu = yes ]; then
	r create "$G.s" --shares 100
	expect_rc 0 "create $G.s --shares 100"
	CLEANUPS+=("cg_remove '$U' '$U/$G.s'")
	for v in 0 10001 -5 abc 1e3 0x10 "" " 7" 99999999999999999999; do
		r shares "$G.s" "$v"
		expect_rc 2 "shares '$v'"
		expect_match "$err" "invalid shares" "shares '$v' message"
		expect_eq "$(cat "$U/$G.s/cpu.weight")" 100 "cpu.weight unchanged after '$v'"
	done
	r delete "$G.s"
	expect_rc 0 "delete $G.s"
fi
r
expect_rc 2 "no command"
r create
expect_rc 2 "create without GROUP"
r attach "$M"
expect_rc 2 "attach without PID"
r shares "$M" 5 --bogus
expect_rc 2 "unknown option"
if [ $has_cpu = yes ]; then
	# a group with processes of its own cannot get cpu for its children
	r create "$M/w" --shares 20
	expect_rc 1 "create --shares below a group with processes"
	expect_match "$err" "group '$M' has member processes" "no-internal-processes message"
	[ ! -d "$U/$M/w" ] && ok || fail "$M/w left behind"
fi

# delete moves members to the parent first (cgroup rmdir alone fails EBUSY)
r delete "$M/a"
expect_rc 0 "delete populated group"
[ ! -d "$U/$M/a" ] && ok || fail "$M/a still there"
in_file "$U/$M/cgroup.procs" "$p1" && ok || fail "$p1 not moved to the parent"
r delete "$M" --recursive
expect_rc 0 "delete --recursive"
in_file "$U/cgroup.procs" "$p3" && ok || fail "$p3 not back in the root"
r delete "$G" --recursive
expect_rc 0 "delete $G --recursive"
[ ! -d "$U/$G" ] && ok || fail "$G still there"
r delete /
expect_rc 1 "delete root"
finish
