# rgctl attach moves whole processes (every thread) by default on every
# backend, --thread one thread only; members says what it lists and marks
# a process whose threads are split (issue 24 item 2).  Argument: cgroup1,
# cgroup2 or rgcs.
. "$(dirname "$0")/common.sh"
command -v jq >/dev/null || skip_test "jq is not installed"
MT=$BUILD_DIR/tests/rgctl/mt_helper
[ -x "$MT" ] || { echo "FAIL: $MT not built"; exit 1; }
backend=$1
case $backend in
cgroup1|cgroup2)
	require_root "creates groups in the cgroup $backend hierarchy"
	if [ "$backend" = cgroup1 ]; then
		ROOT=$(mount_of cgroup cpu)
		[ -n "$ROOT" ] || skip_test "no cgroup v1 hierarchy with the cpu controller is mounted"
	else
		ROOT=$(mount_of cgroup2)
		[ -n "$ROOT" ] || skip_test "no cgroup v2 hierarchy is mounted"
	fi
	use_hierarchy "$ROOT"
	A=$G/a B=$G/b
	TASKS=tasks
	[ "$backend" = cgroup2 ] && TASKS=cgroup.threads
	tasks_of() { cat "$ROOT/$1/${2:-$TASKS}"; }
	;;
rgcs)
	. "$SRC_DIR/tests/rgcsfs/lib.sh"
	[ -n "$RGCSFS" ] && [ -x "$RGCSFS" ] || skip_test "the RGCS emulator is not built (WITH_FUSE=OFF?)"
	mnt=$(mktemp -d /tmp/rgctl-mt.XXXXXX)
	CLEANUPS+=('rgcsfs_stop "$mnt"; rmdir "$mnt"')
	rgcsfs_start "$mnt" || exit $?
	ROOT=$mnt/res_groups
	A=a B=b
	tasks_of() { cat "$ROOT/$1/members"; }	# threads
	;;
*) echo "usage: attach_threads.sh cgroup1|cgroup2|rgcs"; exit 2 ;;
esac
r() { run "$RG" --backend "$backend" --root "$ROOT" "$@"; }

"$MT" &
mt=$!
SPAWNED+=($mt)
for _ in $(seq 100); do [ "$(ls /proc/$mt/task | wc -l)" -ge 4 ] && break; sleep 0.05; done
tids=$(ls /proc/$mt/task | sort -n | tr '\n' ' ')
expect_eq "$(echo $tids | wc -w)" 4 "the helper runs 4 threads"
[ "$backend" = rgcs ] && cat "$ROOT/members" >/dev/null	# the emulator re-reads /proc
r create "$A" "$B" -p
expect_rc 0 "create $A $B"

# default: the whole process, every thread
r attach "$A" "$mt"
expect_rc 0 "attach (default: the whole process)"
expect_eq "$(tasks_of "$A" | sort -n | tr '\n' ' ')" "$tids" "every thread in $A"
if [ "$backend" != rgcs ]; then
	n=0
	for t in $tids; do grep -q ":/$A\$" /proc/$mt/task/$t/cgroup && n=$((n + 1)); done
	expect_eq "$n" 4 "/proc/PID/task/*/cgroup: all 4 threads in $A"
fi
r members "$A"
expect_eq "$(printf '%s\n' "$out" | head -1)" "$([ $backend = rgcs ] && echo '# threads' || echo '# processes')" "members header"
r --json members "$A"
expect_eq "$(json_get "$out" '.lists')" "$([ $backend = rgcs ] && echo threads || echo processes)" "--json members .lists"
expect_eq "$(json_get "$out" '.split | length')" 0 "no split process"

# --threads: the old spelling of the default, still accepted
r attach "$B" --threads "$mt"
expect_rc 0 "attach --threads (alias of the default)"
expect_eq "$(tasks_of "$B" | sort -n | tr '\n' ' ')" "$tids" "--threads: every thread in $B"
r attach "$A" --thread --threads "$mt"
expect_rc 2 "--thread with --threads"

# --thread: that thread only
one=$(echo $tids | cut -d' ' -f3)
r attach "$A" --thread "$one"
if [ "$backend" = cgroup2 ]; then
	expect_rc 2 "--thread on cgroup v2 (whole processes only)"
	expect_match "$err" "cgroup v2 moves whole processes" "--thread refusal on v2"
	expect_eq "$(tasks_of "$B" cgroup.procs)" "$mt" "nothing moved by a refused --thread"
else
	expect_rc 0 "attach --thread"
	expect_eq "$(tasks_of "$A")" "$one" "--thread moved only thread $one"
	expect_eq "$(tasks_of "$B" | wc -l)" 3 "the other 3 threads stayed in $B"
	if [ "$backend" = cgroup1 ]; then
		grep -q ":/$A\$" /proc/$mt/task/$one/cgroup && ok || fail "/proc: $one not in $A"
		r members "$B"
		expect_match "$out" "(^|$(printf '\n'))$mt	# split: 1 of its 4 threads in other groups" "members marks the split process"
		r --json members "$A"
		expect_eq "$(json_get "$out" '.split[0] | "\(.pid) \(.threads) \(.elsewhere)"')" "$mt 4 3" "--json members .split"
	fi
fi

# moving rgctl's own shell: a note, not an error
if [ "$backend" != rgcs ]; then
	run sh -c '"$1" --backend "$2" --root "$3" attach "$4" $$; :' sh "$RG" "$backend" "$ROOT" "$A"
	expect_rc 0 "attach of rgctl's parent"
	expect_match "$err" "note: pid [0-9]+ is rgctl's parent" "note on moving the shell"
fi
finish
