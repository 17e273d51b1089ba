# rgctl set/get on RGCS (the emulator): cpu.weight is res=cpu's min_shares;
# cpu.max, pids.max, memory, io and cpuset keys are refused with the reason;
# a value the kernel refuses changes nothing.
. "$(dirname "$0")/common.sh"
. "$SRC_DIR/tests/rgcsfs/lib.sh"
[ -n "$RGCSFS" ] && [ -x "$RGCSFS" ] || skip_test "the RGCS emulator is not built (WITH_FUSE=OFF?)"
mnt=$(mktemp -d /tmp/rgctl-rgres.XXXXXX)
CLEANUPS+=('rgcsfs_stop "$mnt"; rmdir "$mnt"')
rgcsfs_start "$mnt" || exit $?
R=$mnt/res_groups
r() { run "$RG" --backend rgcs --root "$R" "$@"; }
r create db
r set db CPUWeight=30
expect_rc 0 "set cpu.weight on RGCS"
expect_match "$(cat "$R/db/shares")" "res=cpu,min_shares=30,max_shares=-2" "min_shares written"
r get db -n -r
expect_eq "$out" "cpu.weight 30" "get on RGCS"
for kv in cpu.max=50% pids.max=5 memory.max=1G io.weight=100 cpuset.cpus=0; do
	r set db "$kv"
	expect_rc 1 "set $kv on RGCS"
	expect_match "$err" "RGCS.*nothing was changed" "$kv refusal names RGCS"
done
r set db cpu.weight=40 cpu.weight=500
expect_rc 1 "a min_shares over the parent's divisor"
expect_match "$err" "res_groups/db/shares: the kernel refused.*nothing was changed" "refused write"
expect_match "$(cat "$R/db/shares")" "res=cpu,min_shares=30," "rolled back to 30"
finish
