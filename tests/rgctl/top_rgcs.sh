# rgctl top -b on RGCS (the emulator, tests/rgcsfs): members and the cpu
# min_shares as weights; the expected shares among siblings from them; a
# group removed while watched leaves without an error.
. "$(dirname "$0")/common.sh"
. "$SRC_DIR/tests/rgcsfs/lib.sh"
command -v jq >/dev/null || skip_test "jq is not installed"
[ -n "$RGCSFS" ] && [ -x "$RGCSFS" ] || skip_test "the RGCS emulator is not built (WITH_FUSE=OFF?)"
mnt=$(mktemp -d /tmp/rgctl-top-rgcs.XXXXXX)
CLEANUPS+=('rgcsfs_kill_sleeps; rgcsfs_stop "$mnt"; rmdir "$mnt"')
rgcsfs_start "$mnt" || exit $?
R=$mnt/res_groups
r() { run "$RG" --backend rgcs --root "$R" "$@"; }

r create top/a top/b top/gone -p
expect_rc 0 "create the groups"
r shares top/a min_shares=10
r shares top/b min_shares=30
rgcsfs_spawn_sleeps 2
r attach top/a "${RGCSFS_SLEEPS[0]}" "${RGCSFS_SLEEPS[1]}"
expect_rc 0 "attach two tasks to a"
r top -b -J -n 1 -d 0.3 top
expect_rc 0 "top -b -J on RGCS"
get() { json_get "$out" ".groups[] | select(.path == \"/top/$1\") | .$2"; }
expect_eq "$(json_get "$out" '.backend')" rgcs "backend"
expect_eq "$(get a tasks)" 2 "a's members"
expect_eq "$(get a cpu_weight)" 10 "a's min_shares as its weight"
expect_eq "$(get b cpu_weight)" 30 "b's min_shares"
# no CPU time on RGCS: the weights' promise among all siblings
raw() { printf '%s' "$out" | jq -r ".groups[] | select(.path == \"/top/$1\") | .$2"; }
expect_eq "$(raw a cpu_pct)" null "no CPU rate on RGCS"
expect_eq "$(raw a expected_share_pct)" null "no share without a CPU rate"
"$RG" --backend rgcs --root "$R" top -b -J -n 6 -d 0.3 top >"$mnt.snaps" 2>"$mnt.err" &
topp=$!
for i in $(seq 50); do [ -s "$mnt.snaps" ] && break; sleep 0.1; done
r delete top/gone
wait "$topp"
expect_eq "$?" 0 "top after a group went"
expect_eq "$(cat "$mnt.err")" "" "nothing on stderr"
expect_eq "$(tail -1 "$mnt.snaps" | jq -r '[.groups[].path] | index("/top/gone")')" null \
	"the group left"
rm -f "$mnt.snaps" "$mnt.err"
finish
