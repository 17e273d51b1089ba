# rgctl --backend rgcs against the RGCS emulator (tests/rgcsfs): every
# command and every RGCS-specific bad input of issue 3.
. "$(dirname "$0")/common.sh"
. "$SRC_DIR/tests/rgcsfs/lib.sh"
command -v jq >/dev/null || skip_test "jq is not installed"
[ -n "$RGCSFS" ] && [ -x "$RGCSFS" ] || skip_test "the RGCS emulator is not built (WITH_FUSE=OFF?)"
mnt=$(mktemp -d /tmp/rgctl-rgcs.XXXXXX)
CLEANUPS+=('rgcsfs_stop "$mnt"; rmdir "$mnt"')
rgcsfs_start "$mnt" || exit $?
R=$mnt/res_groups
r() { run "$RG" --backend rgcs --root "$R" "$@"; }
members_of() { cat "$R/$1/members"; }

# the root: res_groups itself or the mount holding it; wrong types refused
run "$RG" --root "$mnt" --json list
expect_rc 0 "--root at the mount"
expect_eq "$(json_get "$out" '.backend')" rgcs "detected as rgcs"
run "$RG" --backend rgcs --root /tmp list
expect_rc 1 "--root on tmp"
expect_match "$err" "not an RGCS/cgroup mount" "--root /tmp message"
run "$RG" --backend rgcs --root /proc list
expect_rc 1 "--root on proc"
run "$RG" --backend cgroup1 --root "$R" list
expect_rc 1 "--backend cgroup1 on RGCS"
expect_match "$err" "is a rgcs hierarchy, not cgroup1" "backend mismatch message"

# create: shares key lists, depth limit
r create db --shares min_shares=10
expect_rc 0 "create --shares"
expect_match "$(cat "$R/db/shares")" "res=cpu,min_shares=10,max_shares=-2" "shares after create"
r create a/b/c/d/e -p
expect_rc 0 "create 5 levels"
r create a/b/c/d/e/f
expect_rc 1 "create 6 levels"
expect_match "$err" "nest at most 5 levels" "depth limit message"
[ ! -d "$R/a/b/c/d/e/f" ] && ok || fail "6th level made"
r create x/b/c/d/e/f -p
expect_rc 1 "create -p 6 levels"
[ ! -d "$R/x" ] && ok || fail "create -p past the depth limit made parents"
r create db2 --shares guarantee=10
expect_rc 2 "create with a CKRM rcfs key"
expect_match "$err" "unknown key" "unknown key message"
[ ! -d "$R/db2" ] && ok || fail "create with a bad key made db2"
r create m1 m2 m3/x -p
expect_rc 0 "create of several groups"
[ -d "$R/m1" ] && [ -d "$R/m2" ] && [ -d "$R/m3/x" ] && ok || fail "create of several"
r create n1 n2 m1
expect_rc 1 "create of several, the last one existing"
[ ! -d "$R/n1" ] && [ ! -d "$R/n2" ] && ok || fail "a failed create of several left groups behind"
r create ok1 x/b/c/d/e/f -p
expect_rc 1 "create of several, one too deep"
[ ! -d "$R/ok1" ] && ok || fail "a too deep name among several still made the others"
r delete m3 -R
r delete m2
r delete m1

# shares: show/set, --res, every bad value; nothing changed on error
r shares db
expect_rc 0 "shares show"
expect_match "$out" "^res=numtasks,min_shares=-3,max_shares=-3,child_shares_divisor=100" "shares show numtasks"
expect_match "$out" "res=cpu,min_shares=10,max_shares=-2,child_shares_divisor=100" "shares show cpu"
r shares db min_shares=20,child_shares_divisor=50
expect_rc 0 "shares set"
expect_match "$(cat "$R/db/shares")" "res=cpu,min_shares=20,max_shares=-2,child_shares_divisor=50" "shares after set"
r shares db max_shares=7 --res numtasks
expect_rc 0 "shares --res numtasks"
expect_match "$(cat "$R/db/shares")" "res=numtasks,min_shares=-3,max_shares=7" "numtasks after set"
r --json shares db --res cpu
expect_eq "$(json_get "$out" '.shares | length')" 1 "--json shares --res"
expect_eq "$(json_get "$out" '.shares[0].min_shares')" 20 "--json min_shares"
before=$(cat "$R/db/shares")
for bad in guarantee=5 attrib=1 min_shares=abc min_shares=0x10 min_shares=-4 \
	"min_shares=1,min_shares=2" "res=cpu,res=cpu,min_shares=1" 10 res=cpu \
	"min_shares=10,max_shares=5" "$(printf 'min_shares=1\nmax_shares=2')"; do
	r shares db "$bad"
	expect_rc 2 "shares '$bad'"
	expect_match "$err" "invalid shares" "shares '$bad' message"
done
r shares db res=numtasks,min_shares=1 --res cpu
expect_rc 2 "res= differs from --res"
expect_eq "$(cat "$R/db/shares")" "$before" "shares unchanged after bad values"
# valid syntax the kernel refuses (above the parent's divisor)
r shares db min_shares=500
expect_rc 1 "shares refused by RGCS"
expect_match "$err" "refused|invalid" "kernel refusal message"

# attach / members / whereis / stats
spawn 3
p1=${PIDS[0]} p2=${PIDS[1]} p3=${PIDS[2]}
r attach db "$p1" 999999 "$p2"
expect_rc 1 "attach with a missing pid"
expect_match "$err" "cannot move pid 999999 to 'db': no such process" "missing pid message"
members_of db | grep -qx "$p1" && ok || fail "$p1 did not move"
members_of db | grep -qx "$p2" && ok || fail "$p2 did not move"
r attach a/b 0x10
expect_rc 2 "attach 0x10 (RGCS would read 16)"
expect_eq "$(members_of a/b)" "" "nothing moved by 0x10"
r attach a/b 010
expect_rc 2 "attach 010 (RGCS would read 8)"
r members db
expect_eq "$(printf '%s\n' "$out" | grep -v '^#' | sort -n | tr '\n' ' ')" "$(printf '%s\n' "$p1" "$p2" | sort -n | tr '\n' ' ')" "members"
r --json members db
expect_eq "$(json_get "$out" '.tasks | length')" 2 "--json members"
r whereis "$p2"
expect_eq "$out" db "whereis"
r --json whereis "$p3"
expect_eq "$(json_get "$out" '.group')" / "whereis of a task in the root"
r whereis 999999
expect_rc 1 "whereis of a missing pid"
expect_match "$err" "no such process" "whereis message"
r stats db
expect_match "$out" "^numtasks +Current usage +2$" "stats numtasks"
expect_match "$out" "^cpu +effective_min_shares +[0-9]+$" "stats cpu"
r --json stats db
expect_eq "$(json_get "$out" '.stats.numtasks["Current usage"]')" 2 "--json stats"
r --json list
expect_eq "$(json_get "$out" '[.groups[] | select(.name == "db") | .tasks][0]')" 2 "--json list tasks"
expect_eq "$(json_get "$out" '[.groups[].name] | join(",")')" "/,a,a/b,a/b/c,a/b/c/d,a/b/c/d/e,db" "--json list names"

# every thread of a process by default, --threads its old spelling (RGCS
# moves one thread per write); --thread one thread
if command -v python3 >/dev/null; then
	python3 -c 'import threading, time
for _ in range(3): threading.Thread(target=time.sleep, args=(300,), daemon=True).start()
time.sleep(300)' &
	mt=$!
	SPAWNED+=($mt)
	for _ in $(seq 50); do [ "$(ls /proc/$mt/task | wc -l)" -ge 4 ] && break; sleep 0.1; done
	# the emulator learns of tasks when it re-reads /proc (a members read)
	cat "$R/members" >/dev/null
	r attach a --thread "$mt"
	expect_eq "$(members_of a | wc -l)" 1 "attach --thread moves one thread"
	r attach a/b --threads "$mt"
	expect_rc 0 "attach --threads"
	expect_eq "$(members_of a/b | sort -n | tr '\n' ' ')" "$(ls /proc/$mt/task | sort -n | tr '\n' ' ')" "attach --threads moves every thread"
fi

# exec: the command is in the group from its start
r exec a/b/c -- sh -c 'echo $$; cat "$1"' sh "$R/a/b/c/members"
expect_rc 0 "exec"
first=$(printf '%s\n' "$out" | head -1)
printf '%s\n' "$out" | tail -n +2 | grep -qx "$first" && ok || fail "exec: pid $first not in a/b/c ($out)"

# delete: RGCS itself moves members to the parent
r delete db
expect_rc 0 "delete populated group"
[ ! -d "$R/db" ] && ok || fail "db still there"
r whereis "$p1"
expect_eq "$out" / "whereis after delete"
r delete a
expect_rc 1 "delete with child groups"
expect_match "$err" "child groups" "delete message"
r delete /
expect_rc 1 "delete root"
expect_match "$err" "root group" "delete root message"
r delete a --recursive
expect_rc 0 "delete --recursive"
[ ! -d "$R/a" ] && ok || fail "a still there"

# a members list over one page: RGCS fails with ENOSPC; say so
r create big
spawn 900
r attach big "${PIDS[@]}"
expect_rc 0 "attach 900 tasks"
r members big
expect_rc 1 "members over one page"
expect_match "$err" "longer than one page" "ENOSPC message"
r list big
expect_rc 0 "list with a group over one page"
expect_match "$out" "big +>1 page" "list shows >1 page"
r delete big
expect_rc 0 "delete big"
rgcsfs_stop "$mnt" || fail "the emulator did not exit cleanly"
finish
