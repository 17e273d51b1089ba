# tests/rgcsfs/lib.sh: run the RGCS emulator (rgcsfs) under a test.
#
# Usage, in a bash test run by ctest (BUILD_DIR and WITH_FUSE come from
# kattr_add_script_test):
#
#	. "$SRC_DIR/tests/rgcsfs/lib.sh"
#	mnt=$(mktemp -d)
#	trap 'rgcsfs_stop "$mnt"; rgcsfs_kill_sleeps; rmdir "$mnt"' EXIT
#	rgcsfs_start "$mnt" || exit $?   # 77 (skip, reason printed) or 1
#	root=$mnt/res_groups             # the RGCS default group
#	"$RGCS_IO" write "$root/members" 42    # prints OK or EINVAL, ESRCH...
#	rgcsfs_spawn_sleeps 3            # pids in RGCSFS_SLEEPS[@]
#	...
#	rgcsfs_stop "$mnt" || fail "emulator exited badly"
#
# rgcsfs_start DIR	mounts the emulator on DIR (an empty directory) in the
#			background and waits until res_groups/ is there.
#			Returns 77 after printing "SKIP: <reason>" when it
#			cannot run here (built with WITH_FUSE=OFF, not root,
#			no /dev/fuse, no fusermount3, FUSE mounts refused);
#			1 with the emulator's log when it fails otherwise.  Call it in the test's own
#			shell, not in $(...): rgcsfs_stop waits for the process.
# rgcsfs_stop DIR	unmounts (SIGTERM, then SIGKILL and a lazy unmount if
#			needed) and reaps the emulator.  Safe to call twice,
#			from a trap, or when rgcsfs_start failed.  Returns 1
#			(printing the log) when the emulator exited non-zero,
#			e.g. on an AddressSanitizer report.
# rgcsfs_mounted DIR	true while an rgcsfs is mounted on DIR.
# rgcsfs_in_root RES_GROUPS PID
#			true when PID is a member of the root group.  The
#			root's list is ENOSPC on a busy machine (that is the
#			ABI): then "listed in no other group" is checked.
# rgcsfs_spawn_sleeps N	starts N "sleep" children, appends their pids to
#			RGCSFS_SLEEPS; rgcsfs_kill_sleeps kills and reaps them.
#
# Variables: RGCSFS (the emulator binary), RGCS_IO (one-syscall helper, see
# rgcs_io.c), RGCSFS_WHY (the skip reason), RGCSFS_TIMEOUT (seconds to wait
# for the mount, default 20).

RGCSFS=${RGCSFS:-${BUILD_DIR:-}/tests/rgcsfs/rgcsfs}
RGCS_IO=${RGCS_IO:-${BUILD_DIR:-}/tests/rgcsfs/rgcs_io}
RGCSFS_WHY=
RGCSFS_SLEEPS=()

# rgcsfs_usable: 0, or 77 with the reason in RGCSFS_WHY.
rgcsfs_usable() {
	if [ "${WITH_FUSE:-ON}" = OFF ] || [ "${WITH_FUSE:-ON}" = 0 ]; then
		RGCSFS_WHY="built with WITH_FUSE=OFF: no RGCS emulator"
	elif [ ! -x "$RGCSFS" ] || [ ! -x "$RGCS_IO" ]; then
		RGCSFS_WHY="rgcsfs is not built ($RGCSFS)"
	elif [ "$(id -u)" != 0 ]; then
		RGCSFS_WHY="needs root (the emulator reads every task's /proc entry and mounts with allow_other)"
	elif [ ! -c /dev/fuse ]; then
		RGCSFS_WHY="no /dev/fuse here (FUSE is not available)"
	elif ! command -v fusermount3 >/dev/null 2>&1; then
		RGCSFS_WHY="fusermount3 is missing (Debian package fuse3)"
	else
		return 0
	fi
	return 77
}

rgcsfs_mounted() {
	local d
	d=$(realpath -e -- "$1" 2>/dev/null) || return 1
	awk -v d="$d" '{ for (i = 7; i <= NF; i++) if ($i == "-") break }
		$5 == d && $(i + 1) == "fuse.rgcsfs" { found = 1 }
		END { exit !found }' /proc/self/mountinfo
}

. "${SRC_DIR:-$(dirname "${BASH_SOURCE[0]}")/../..}/tests/common/fuse.sh"

rgcsfs_start() {
	local dir pid i limit why
	rgcsfs_usable || { echo "SKIP: $RGCSFS_WHY"; return 77; }
	reap_dead_fuse rgcsfs
	dir=$(realpath -e -- "$1" 2>/dev/null)
	[ -d "$dir" ] || { echo "rgcsfs_start: $1 is not a directory"; return 1; }
	if rgcsfs_mounted "$dir"; then
		echo "rgcsfs_start: an rgcsfs is already mounted on $dir"; return 1
	fi
	"$RGCSFS" "$dir" -f >"$dir.rgcsfs.log" 2>&1 &
	pid=$!
	echo "$pid" >"$dir.rgcsfs.pid"
	limit=$(( ${RGCSFS_TIMEOUT:-20} * 10 ))
	for ((i = 0; i < limit; i++)); do
		if rgcsfs_mounted "$dir" && [ -f "$dir/res_groups/members" ]; then
			return 0
		fi
		if ! kill -0 "$pid" 2>/dev/null; then
			# a kernel or container that refuses FUSE mounts: skip
			why=$(grep -m1 -E 'Operation not permitted|device not found|No such device' \
				"$dir.rgcsfs.log")
			if [ -n "$why" ]; then
				RGCSFS_WHY="cannot mount FUSE here: $why"
				rgcsfs_stop "$dir" >/dev/null
				echo "SKIP: $RGCSFS_WHY"
				return 77
			fi
			echo "rgcsfs_start: the emulator exited before mounting $dir:"
			cat "$dir.rgcsfs.log"
			rgcsfs_stop "$dir" >/dev/null
			return 1
		fi
		sleep 0.1
	done
	echo "rgcsfs_start: $dir not mounted after ${RGCSFS_TIMEOUT:-20} s:"
	cat "$dir.rgcsfs.log"
	rgcsfs_stop "$dir" >/dev/null
	return 1
}

rgcsfs_stop() {
	local dir pid status=0 i
	dir=$(realpath -m -- "$1")
	[ -f "$dir.rgcsfs.pid" ] || return 0
	pid=$(cat "$dir.rgcsfs.pid")
	if kill -0 "$pid" 2>/dev/null; then
		kill -TERM "$pid" 2>/dev/null
		for ((i = 0; i < 100; i++)); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		if kill -0 "$pid" 2>/dev/null; then
			echo "rgcsfs_stop: the emulator ignored SIGTERM; killing it"
			kill -KILL "$pid" 2>/dev/null
			status=1
		fi
	fi
	wait "$pid" 2>/dev/null
	local rc=$?
	# 127: not our child (another shell started it); nothing to report
	if [ "$rc" != 0 ] && [ "$rc" != 127 ]; then
		echo "rgcsfs_stop: the emulator exited with status $rc:"
		status=1
	fi
	if rgcsfs_mounted "$dir"; then
		fusermount3 -u -z "$dir" 2>/dev/null || umount -l "$dir" 2>/dev/null
		echo "rgcsfs_stop: $dir was still mounted after the emulator stopped"
		status=1
	fi
	[ "$status" = 0 ] || cat "$dir.rgcsfs.log"
	rm -f "$dir.rgcsfs.pid" "$dir.rgcsfs.log"
	return $status
}

rgcsfs_in_root() {
	local root=$1 pid=$2 text
	[ -e "/proc/$pid" ] || return 1
	if text=$("$RGCS_IO" read "$root/members"); then
		printf '%s\n' "$text" | grep -qx -- "$pid"
		return
	fi
	[ "$text" = ENOSPC ] || return 1
	! find "$root" -mindepth 2 -name members -exec cat {} + 2>/dev/null | grep -qx -- "$pid"
}

rgcsfs_spawn_sleeps() {
	local i
	for ((i = 0; i < $1; i++)); do
		sleep 300 &
		RGCSFS_SLEEPS+=($!)
	done
}

rgcsfs_kill_sleeps() {
	[ ${#RGCSFS_SLEEPS[@]} -gt 0 ] || return 0
	kill "${RGCSFS_SLEEPS[@]}" 2>/dev/null
	wait "${RGCSFS_SLEEPS[@]}" 2>/dev/null
	RGCSFS_SLEEPS=()
	return 0
}
