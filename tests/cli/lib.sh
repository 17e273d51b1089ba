# Helpers for the shell-level tests.  Source it; BUILD_DIR and SRC_DIR come
# from ctest.  A test exits 0 (passed), 1 (failed) or 77 (skipped, with the
# reason printed).
set -u
: "${BUILD_DIR:?run through ctest}" "${SRC_DIR:?run through ctest}"
T_FAILS=0
T_CHECKS=0

tool_path() { echo "$BUILD_DIR/src/$1/$1"; }

fail() { echo "FAIL: $*"; T_FAILS=$((T_FAILS + 1)); }
# wait_until SECONDS CONDITION: poll the shell CONDITION (a command, or a
# string eval'd) every 50 ms until it holds (0) or SECONDS pass (1): the
# way a test waits for something to happen, never a fixed sleep.
wait_until() {
	local end=$((SECONDS + $1))
	shift
	until eval "$@"; do
		[ "$SECONDS" -lt "$end" ] || { eval "$@"; return; }
		sleep 0.05
	done
}
ok() { T_CHECKS=$((T_CHECKS + 1)); }
# A cgroup v1 hierarchy of no controller, a test's own: named_hier_mount
# NAME DIR mounts it (non-zero if it cannot); named_hier_umount NAME DIR
# removes every group in it, unmounts it, and sees that the kernel dropped
# it.  The kernel drops a hierarchy at its unmount only if it has no child
# group left, and a removed group leaves that list a little after its rmdir:
# an unmount right after the last rmdir can keep the empty hierarchy alive
# for good (named in every process's /proc/PID/cgroup).  So, until
# /proc/self/cgroup no longer names it: mount it once more and unmount.
named_hier_mount() { mount -t cgroup -o "none,name=$1" "$1" "$2" 2>/dev/null; }
named_hier_gone() { ! grep -q ":name=$1:" /proc/self/cgroup; }
named_hier_drop() {
	named_hier_mount "$1" "$2" && umount "$2"
	named_hier_gone "$1"
}
named_hier_umount() {
	if mountpoint -q "$2"; then
		find "$2" -mindepth 1 -depth -type d -exec rmdir {} + 2>/dev/null
		umount "$2" || { echo "FAIL: cannot unmount $2"; return 1; }
	fi
	named_hier_gone "$1" || wait_until 10 "named_hier_drop '$1' '$2'" || {
		echo "FAIL: the cgroup v1 hierarchy name=$1 is still alive 10 s after its unmount"
		return 1
	}
}
skip_test() { echo "SKIP: $*"; exit 77; }
require_root() { [ "$(id -u)" = 0 ] || skip_test "needs root ($1)"; }

# run CMD...: sets $rc, $out, $err
run() {
	local o e
	o=$(mktemp) e=$(mktemp)
	"$@" >"$o" 2>"$e"
	rc=$?
	out=$(cat "$o") err=$(cat "$e")
	rm -f "$o" "$e"
}

# expect_rc N what: checks $rc
expect_rc() {
	if [ "$rc" != "$1" ]; then
		fail "$2: exit status $rc, expected $1 (stderr: ${err:0:300})"
	else
		ok
	fi
}

expect_eq() {	# expect_eq GOT WANT what
	if [ "$1" = "$2" ]; then ok; else fail "$3: got '${1:0:300}', expected '${2:0:300}'"; fi
}

# A REGEX with a newline matches across lines (^ and $ at each line's
# ends, as grep's): grep would split it into one pattern per line, any of
# which matching (an empty one matches everything).
expect_match() {	# expect_match TEXT REGEX what
	local m
	case $2 in
	*$'\n'*) RE=$2 perl -0777 -ne 'exit(!/$ENV{RE}/m)' <<<"$1" && m=1 ;;
	*) printf '%s' "$1" | grep -Eq -- "$2" && m=1 ;;
	esac
	if [ -n "${m:-}" ]; then ok; else
		fail "$3: '${1:0:300}' does not match /$2/"
	fi
}

# The end of every test: failed when a check failed, or when none ran (a
# script whose checks were all passed over proves nothing: a test that
# cannot check anything here says why with skip_test).
finish() {
	echo "$T_CHECKS checks, $T_FAILS failed"
	[ "$T_FAILS" = 0 ] || exit 1
	if [ "$T_CHECKS" = 0 ]; then
		echo "FAIL: no check ran"
		exit 1
	fi
	exit 0
}
