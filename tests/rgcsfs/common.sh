# Shared start of the emulator's own tests: sources the CLI test helpers and
# lib.sh, mounts rgcsfs on a fresh directory ($mnt, $R = res_groups) and
# makes sure nothing stays mounted or running whatever happens.
. "$SRC_DIR/tests/cli/lib.sh"
. "$SRC_DIR/tests/rgcsfs/lib.sh"

EXTRA_PIDS=()
mnt=$(mktemp -d /tmp/rgcsfs-test.XXXXXX)
cleanup() {
	rgcsfs_stop "$mnt"
	rgcsfs_kill_sleeps
	[ ${#EXTRA_PIDS[@]} -eq 0 ] || kill "${EXTRA_PIDS[@]}" 2>/dev/null
	rmdir "$mnt" 2>/dev/null
}
trap cleanup EXIT
trap 'exit 1' INT TERM
rgcsfs_start "$mnt" || exit $?
R=$mnt/res_groups

# io EXPECTED WHAT ARGS...: run "rgcs_io ARGS", compare its output
io() {
	local exp=$1 what=$2 got
	shift 2
	got=$("$RGCS_IO" "$@" 2>&1)
	if [ "$got" = "$exp" ]; then ok; else fail "$what: got '$got', expected '$exp'"; fi
}

# same TEXT EXPECTED WHAT
same() {
	if [ "$1" = "$2" ]; then ok; else
		fail "$3: got '$(printf '%s' "$1" | head -c 600)', expected '$(printf '%s' "$2" | head -c 600)'"
	fi
}

# has_line FILE-TEXT LINE: is LINE one of TEXT's lines?
has_line() { printf '%s\n' "$1" | grep -qx -- "$2"; }

# in_root PID: is PID a member of res_groups itself?
in_root() { rgcsfs_in_root "$R" "$1"; }

# stop_emulator: the clean-exit check every test ends with
stop_emulator() {
	rgcsfs_stop "$mnt" || fail "the emulator did not exit cleanly"
	if rgcsfs_mounted "$mnt"; then fail "still mounted after rgcsfs_stop"; else ok; fi
}
