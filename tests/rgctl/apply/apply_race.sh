#!/bin/bash
# rgctl apply runs racing on one hierarchy (cgroup v1 cpu, a private
# subtree): K different configurations applied with --prune at once, for
# several rounds.  Applies are serialised by the hierarchy lock, so every
# run must either succeed having planned from a whole earlier state (it
# creates all of its groups and deletes all of exactly one other file's,
# or has nothing to do) or fail with nothing of its own changed; the tree
# afterwards is exactly one of the files.  A held lock makes apply --wait
# fail, naming the holder, with nothing changed.
. "$SRC_DIR/tests/rgctl/tasks_lib.sh"
rgd_setup race
needs_libconfig
R=(--root "$ROOT")
cd "$WORK" || exit 1
K=4 G=12 ROUNDS=3

# config I: groups cI-1..cI-G (the first 4 with a child each), shares per file
for ((i = 1; i <= K; i++)); do
	{
		echo 'backend = "cgroup1";'
		echo 'groups = ('
		for ((j = 1; j <= G; j++)); do
			echo "  { name = \"c$i-$j\"; shares = $((100 * i + j)); },"
		done
		for ((j = 1; j <= 4; j++)); do
			echo "  { name = \"c$i-$j/sub\"; shares = $((1000 + 100 * i + j)); }$([ "$j" -lt 4 ] && echo ,)"
		done
		echo ');'
	} >"c$i.conf"
	{
		for ((j = 1; j <= G; j++)); do echo "c$i-$j"; done
		for ((j = 1; j <= 4; j++)); do echo "c$i-$j/sub"; done
	} | LC_ALL=C sort >"c$i.groups"
done

# the groups now, sorted
groups_now() { (cd "$ROOT" && find . -mindepth 1 -type d | sed 's|^\./||' | LC_ALL=C sort); }
# which config the tree is exactly (shares included), or nothing
which_conf() {
	local i now g ok
	now=$(groups_now)
	for ((i = 1; i <= K; i++)); do
		[ "$now" = "$(cat "c$i.groups")" ] || continue
		ok=1
		while read -r g; do
			j=${g#c$i-}; j=${j%/sub}
			want=$((100 * i + j)); [ "${g%/sub}" != "$g" ] && want=$((1000 + 100 * i + j))
			[ "$(cat "$ROOT/$g/cpu.shares")" = "$want" ] || ok=0
		done <"c$i.groups"
		[ "$ok" = 1 ] && { echo "$i"; return; }
	done
	echo none
}

runs=0
for ((round = 1; round <= ROUNDS; round++)); do
	pids=()
	for ((i = 1; i <= K; i++)); do
		"$RGCTL" "${R[@]}" apply --prune --wait 120 "c$i.conf" >"out.$round.$i" 2>"err.$round.$i" &
		pids+=($!)
	done
	for ((i = 1; i <= K; i++)); do
		wait "${pids[$((i - 1))]}"
		rc=$?
		runs=$((runs + 1))
		o=$(cat "out.$round.$i") e=$(cat "err.$round.$i")
		if [ "$rc" != 0 ]; then
			fail "round $round, c$i: exit $rc: $e"
			continue
		fi
		[ -z "$e" ] && ok || fail "round $round, c$i: stderr: $e"
		[ "$o" = "0 changes" ] && { ok; continue; }
		# it planned from a whole state: all of its groups, all of one other's
		created=$(printf '%s\n' "$o" | sed -n 's/^create \([^ ]*\).*/\1/p' | LC_ALL=C sort)
		deleted=$(printf '%s\n' "$o" | sed -n 's/^delete \([^ ]*\).*/\1/p' | LC_ALL=C sort)
		[ "$created" = "$(cat "c$i.groups")" ] && ok ||
			fail "round $round, c$i: created a partial set: $(echo $created | head -c 200)"
		match=
		for ((j = 1; j <= K; j++)); do
			[ "$deleted" = "$(cat "c$j.groups")" ] && match=$j
		done
		[ -n "$match" ] || [ -z "$deleted" ] && ok ||
			fail "round $round, c$i: deleted a partial set: $(echo $deleted | head -c 200)"
	done
	w=$(which_conf)
	[ "$w" != none ] && ok || fail "round $round: the tree is no configuration: $(groups_now | head -c 300)"
done
echo "$runs applies raced ($K at a time, $ROUNDS rounds, $((G + 4)) groups each)"

# a held lock: apply waits --wait seconds, then fails naming the holder
before=$(groups_now)
( exec 9<"$ROOT"; flock -x 9; exec sleep 30 ) &
holder=$!
PIDS+=("$holder")
wait_until 10 '! flock -n "$ROOT" true' || fail "the lock holder did not take the lock"
sed 's/shares = 1/shares = 3/' c1.conf >held.conf
run "$RGCTL" "${R[@]}" apply --prune --wait 1 held.conf
expect_rc 1 "apply while the lock is held"
expect_match "$err" "another apply \\(pid [0-9]+\\) holds the lock on '$ROOT' and did not finish within 1 s; nothing was changed" "lock timeout message"
[ "$(groups_now)" = "$before" ] && ok || fail "apply changed groups without the lock"
run "$RGCTL" "${R[@]}" apply --prune --dry-run held.conf
expect_rc 0 "a dry run does not wait for the lock"
kill "$holder"
wait "$holder" 2>/dev/null
run "$RGCTL" "${R[@]}" apply --prune --wait 5 held.conf
expect_rc 0 "apply once the lock is free"
run "$RGCTL" "${R[@]}" apply --wait 1x held.conf
expect_rc 2 "--wait 1x"
finish
