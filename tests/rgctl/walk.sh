# Walks of the tree: depth and races.  Usage: walk.sh cgroup1|rgcs
#  - any depth: a chain of 120 groups (cgroup v1) is created, listed,
#    dumped and deleted; on RGCS (5 levels at most) the deepest legal chain,
#    and one level more is refused at create with the reason;
#  - races: groups created and removed in a loop (by mkdir/rmdir, as another
#    tool would) while list, dump and delete --recursive run many times, on
#    the same subtrees: no run may fail.
. "$(dirname "$0")/common.sh"
require_root "creates groups"
command -v jq >/dev/null || skip_test "jq is not installed"
case ${1:-} in
cgroup1)
	TOP=$(mount_of cgroup cpu)
	[ -n "$TOP" ] || skip_test "no cgroup v1 hierarchy with the cpu controller is mounted"
	use_hierarchy "$TOP"
	r() { run "$RG" --backend cgroup1 --root "$TOP" "$@"; }
	DEPTH=120
	;;
rgcs)
	. "$SRC_DIR/tests/rgcsfs/lib.sh"
	[ -n "$RGCSFS" ] && [ -x "$RGCSFS" ] || skip_test "the RGCS emulator is not built (WITH_FUSE=OFF?)"
	mnt=$(mktemp -d /tmp/rgctl-walk.XXXXXX)
	CLEANUPS+=('rgcsfs_stop "$mnt"; rmdir "$mnt"')
	rgcsfs_start "$mnt" || exit $?
	TOP=$mnt/res_groups
	r() { run "$RG" --backend rgcs --root "$TOP" "$@"; }
	DEPTH=5
	;;
*)
	echo "usage: walk.sh cgroup1|rgcs"; exit 2 ;;
esac
have_dump=1
r dump
[ "$rc" = 0 ] || { have_dump=0; echo "note: dump not tested here: $err"; }

# ---- depth -------------------------------------------------------------------
chain=$G
for ((i = 1; i < DEPTH; i++)); do chain+=/a; done
r create -p "$chain"
expect_rc 0 "create -p of a chain $DEPTH deep"
r --json list "$G"
expect_rc 0 "list of a chain $DEPTH deep"
expect_eq "$(json_get "$out" '.groups | length')" "$DEPTH" "groups listed"
expect_eq "$(json_get "$out" '.groups[-1].name')" "$chain" "the deepest group listed"
if [ $have_dump = 1 ]; then
	r dump
	expect_rc 0 "dump with a chain $DEPTH deep"
	expect_match "$out" "\"$chain\"" "dump names the deepest group"
fi
if [ "$1" = rgcs ]; then
	r create -p "$chain/b"
	expect_rc 1 "create one level deeper than RGCS allows"
	expect_eq "$err" "rgctl: cannot create '$chain/b': it would be 6 levels deep; RGCS groups nest at most 5 levels below the root" "depth refused with the reason"
	[ ! -e "$TOP/$chain/b" ] && ok || fail "the refused group was made"
fi
r delete -R "$G/a"
expect_rc 0 "delete -R of a chain $((DEPTH - 1)) deep"
[ ! -e "$TOP/$G/a" ] && ok || fail "delete -R left $G/a"
cg_remove "$TOP" "$TOP/$G/a"	# whatever happened, the race starts clean

# ---- races ---------------------------------------------------------------------
# Racers: make and remove groups below $G/r and inside the subtrees that
# delete -R is removing, with mkdir/rmdir directly.
mkdir -p "$TOP/$G/r"
STOP=$(mktemp /tmp/rgctl-walk-stop.XXXXXX)
CLEANUPS+=("rm -f '$STOP'")
# perl (Debian's essential perl-base): mkdir/rmdir without a fork each.
racer() {
	perl -e '
		my ($top, $id, $stop) = @ARGV;
		while (-e $stop) {
			for my $k (0 .. 15) {
				mkdir "$top/r/x$id$k"; mkdir "$top/r/x$id$k/y";
			}
			for my $k (0 .. 15) {
				rmdir "$top/r/x$id$k/y"; rmdir "$top/r/x$id$k";
			}
			for my $d (glob("$top/del*/a")) {
				rmdir "$d/b"; rmdir "$d/n$id"; mkdir "$d/n$id";
			}
		}' "$TOP/$G" "$1" "$STOP"
}
for i in 1 2; do
	racer $i &
	SPAWNED+=($!)
done
runs=0 bad=0
check() {	# check WHAT: count the run, report a failure
	runs=$((runs + 1))
	if [ "$rc" != 0 ]; then
		bad=$((bad + 1))
		[ $bad -le 5 ] && echo "race: $1 failed (rc $rc): $err"
	fi
}
for ((k = 0; k < ${RACE_ROUNDS:-15}; k++)); do
	r list "$G"
	check "list $G"
	r list /
	check "list /"
	if [ $have_dump = 1 ]; then
		r dump
		check dump
	fi
	mkdir -p "$TOP/$G/del$k/a/b" "$TOP/$G/del$k/c"
	r delete -R "$G/del$k"
	check "delete -R $G/del$k"
	[ ! -e "$TOP/$G/del$k" ] || { bad=$((bad + 1)); echo "race: delete -R left $G/del$k"; }
done
rm -f "$STOP"
wait "${SPAWNED[@]}" 2>/dev/null
SPAWNED=()
echo "race: $runs runs of list/dump/delete -R against 2 racers, $bad failed"
[ $bad = 0 ] && ok || fail "$bad of $runs runs failed while groups came and went"

# ---- whereis when a members list cannot be read (RGCS) -------------------------
# The emulator has no /proc/PID/res_group: whereis reads every group's
# members.  A list past one page is ENOSPC: a task not found elsewhere is
# "cannot tell", never "/".
if [ "$1" = rgcs ]; then
	CLEANUPS+=("rgcsfs_kill_sleeps")
	bytes=0
	while [ $bytes -le 4400 ]; do
		n=${#RGCSFS_SLEEPS[@]}
		rgcsfs_spawn_sleeps 50
		for p in "${RGCSFS_SLEEPS[@]:n}"; do bytes=$((bytes + ${#p} + 1)); done
	done
	mkdir "$TOP/$G/big" "$TOP/$G/small"
	r attach "$G/big" "${RGCSFS_SLEEPS[@]:1}"
	expect_rc 0 "${#RGCSFS_SLEEPS[@]} tasks into $G/big"
	r attach "$G/small" "${RGCSFS_SLEEPS[0]}"
	expect_rc 0 "one task into $G/small"
	r members "$G/big"
	expect_rc 1 "members of a group past one page"
	r whereis "${RGCSFS_SLEEPS[0]}"
	expect_rc 0 "whereis of a task in a readable group"
	expect_eq "$out" "$G/small" "found in $G/small although $G/big is unreadable"
	for p in "${RGCSFS_SLEEPS[5]}" $$; do
		r whereis "$p"
		expect_rc 1 "whereis $p with $G/big unreadable"
		expect_eq "$out" "" "no guess printed for $p"
		expect_eq "$err" "rgctl: cannot tell which group pid $p is in: it is in no group whose members could be read, and a members list is longer than one page (the RGCS members file fails with ENOSPC past 4096 bytes; /proc/PID/res_group is not there to ask)" "whereis $p message"
	done
	rgcsfs_kill_sleeps
fi
finish
