# Shared by the issue-4 shell tests: a private subtree of the cgroup v1 cpu
# hierarchy (or, with "v2", of the cgroup v2 one) used as rgctl's --root, processes to clean up, and a trap that leaves nothing
# behind (processes killed, groups removed deepest first).
. "$SRC_DIR/tests/cli/lib.sh"
RGCTL=$(tool_path rgctl)
# the tests' build of rgctl, with apply's fault hooks (tests/rgctl/apply/apply_faults.c)
RGCTL_FAULTS=$BUILD_DIR/src/rgctl/rgctl-faults
HELPER="$BUILD_DIR/tests/rgctl/task_helper"
PIDS=()
ROOT=
WORK=

# The cgroup v1 hierarchy with the cpu controller, from mountinfo.
cpu_mount() {
	awk '{ for (i = 7; $i != "-"; i++); if ($(i+1) == "cgroup" && ("," $(i+3) ",") ~ /,cpu,/) { print $5; exit } }' /proc/self/mountinfo
}

# The cgroup v2 hierarchy, from mountinfo.
v2_mount() {
	awk '{ for (i = 7; $i != "-"; i++); if ($(i+1) == "cgroup2") { print $5; exit } }' /proc/self/mountinfo
}

# rgd_setup NAME [v1|v2]: root, the hierarchy (v1: cpu, the default; v2:
# any controllers, membership is enough), a unique subtree
rgd_setup() {
	require_root "$1 writes to cgroupfs"
	case ${2:-v1} in
	v1)	CPU=$(cpu_mount)
		[ -n "$CPU" ] || skip_test "no cgroup v1 cpu hierarchy mounted" ;;
	v2)	CPU=$(v2_mount)
		[ -n "$CPU" ] || skip_test "no cgroup v2 hierarchy mounted" ;;
	*)	echo "rgd_setup: unknown hierarchy '$2'"; exit 1 ;;
	esac
	echo "on $CPU (${2:-v1})"
	WORK=$(mktemp -d)
	# classify's one-daemon-per-hierarchy lock: private to the test, so
	# tests (and other checkouts' tests) can run side by side
	export RGCTL_RUNDIR="$WORK/run"
	ROOT="$CPU/rgdtest.$1.$$.$RANDOM"
	mkdir "$ROOT" || skip_test "cannot create a group under $CPU"
	trap rgd_cleanup EXIT
}

# rgd_setup_backend NAME: rgd_setup on $RGD_BACKEND (cgroup1, the default,
# or cgroup2: a private subtree of the v2 root, as the guest's
# tests/vm/signals_apply.sh runs it, where the cpu controller must be
# available; the groups with members then sit in box/, since v2 lets no
# process into a group that enables a controller for its children, as the
# root does here; or rgcs: the FUSE emulator, rgd_setup_rgcs).  Sets
# BACKEND, SP (box/ or nothing), MEMBERS (the member file), PROCS (the
# file that moves a process) and MEMDEPTH (the depth of the first member
# file that is the test's own: the RGCS root's lists the machine's
# processes).
rgd_setup_backend() {
	BACKEND=${RGD_BACKEND:-cgroup1}
	SP= MEMDEPTH=1 PROCS=cgroup.procs
	case $BACKEND in
	cgroup1) rgd_setup "$1"; MEMBERS=tasks ;;
	cgroup2) rgd_setup "$1" v2; SP=box/ MEMBERS=cgroup.procs
		grep -qw cpu "$CPU/cgroup.controllers" || skip_test "no cpu controller on the cgroup v2 hierarchy at $CPU"
		grep -qw cpu "$CPU/cgroup.subtree_control" || echo +cpu >"$CPU/cgroup.subtree_control" ||
			skip_test "cannot enable cpu in $CPU/cgroup.subtree_control" ;;
	rgcs)	rgd_setup_rgcs "$1"; MEMBERS=members PROCS=members MEMDEPTH=2 ;;
	*)	echo "unknown backend $BACKEND"; exit 2 ;;
	esac
}

# shv N: the shares value N in $BACKEND's configuration form (RGCS: a cpu
# minimum, 1..50)
shv() {
	if [ "$BACKEND" = rgcs ]; then
		printf '"res=cpu,min_shares=%d"' $(($1 % 50 + 1))
	else
		printf '%d' "$1"
	fi
}

# rgd_setup_rgcs NAME: the RGCS emulator on a mount point of the test's
# own (skips, saying why, where FUSE cannot run); ROOT its res_groups;
# the trap stops it and kills PIDS.
rgd_setup_rgcs() {
	. "$SRC_DIR/tests/rgcsfs/lib.sh"
	WORK=$(mktemp -d)
	export RGCTL_RUNDIR="$WORK/run"
	MNT=$(mktemp -d "/tmp/rgctl-$1.XXXXXX")
	trap rgd_rgcs_cleanup EXIT
	rgcsfs_start "$MNT" || exit $?
	ROOT=$MNT/res_groups
}
rgd_rgcs_cleanup() {
	local p
	for p in "${PIDS[@]}"; do kill -KILL "$p" 2>/dev/null; done
	for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
	rgcsfs_stop "$MNT"
	rmdir "$MNT"
	rm -rf "$WORK"
}

# The step mark: rgctl-faults, given RGCTL_STEP_MARK_FD=N, writes one byte
# to descriptor N when its first step begins (signals caught, journal
# written), and closes it; so a sweep times its signals from there and
# rgctl's start-up, slow and uneven under TCG or on a loaded machine,
# stays outside the points.
# mark_open: a FIFO in $WORK whose read end the test holds on fd 6 (and
# nothing else), and an idle one nobody writes on fd 8, which times
# sleep_ms without a fork (a fork and exec of sleep(1) takes tens of ms
# under TCG).
mark_open() {
	mkfifo "$WORK/step.mark" "$WORK/step.idle" || { echo "FAIL: cannot make the FIFOs in $WORK"; exit 1; }
	exec 7<>"$WORK/step.mark" 8<>"$WORK/step.idle"
	exec 6<"$WORK/step.mark" 7<&-
	MARK_IDLE=1
}
# faults_bg OUT ERR ARGS...: rgctl-faults ARGS in the background (BG: its
# pid) holding the FIFO's one write end, then wait for its byte: 0 when
# its first step began, 1 when it ended first (nothing to do, or an
# error: the write end closed with no byte).  No polling, so no race
# between a timeout and the byte.
faults_bg() {
	local out=$1 err=$2 b=
	shift 2
	exec 9>"$WORK/step.mark"
	RGCTL_STEP_MARK_FD=9 "$RGCTL_FAULTS" "$@" >"$out" 2>"$err" &
	BG=$!
	exec 9>&-
	read -r -N1 -t 300 -u 6 b
	[ "$b" = s ]
}
# faults_timed OUT ERR ARGS...: faults_bg for the run that times the
# sweep: without ASan's leak check at exit, which takes longer than the
# steps and would stretch the window past the run's last change; and
# with RGCTL_STEP_TIMES (timed_span).
faults_timed() {
	rm -f "$WORK/step.times"
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		RGCTL_STEP_TIMES="$WORK/step.times" faults_bg "$@"
}
# timed_span MS: the span of the run faults_timed started, once it ended:
# from its first step to its last change where rgctl-faults wrote it
# (apply, delete: the verify and exit after the last change are no
# target), else MS (the caller's, to its exit)
timed_span() {
	local s=
	[ -s "$WORK/step.times" ] && read -r s <"$WORK/step.times"
	[[ $s =~ ^[0-9]+$ ]] && [ "$s" -le "$1" ] && echo "$s" || echo "$1"
}
# timed_length ARGS...: D, the length in ms of the apply that rgctl-faults
# ARGS makes, from its first step to its last change (the shorter of two
# runs, run as the trials run it), and applied, the tree (snap) after it.
# The script defines snap, reset (the tree back as before) and C (the
# number of changes the run makes, in its output).
timed_length() {
	local t0 w d _
	D=
	for _ in 1 2; do
		faults_timed out.txt err.txt "$@" ||
			fail "the timed apply ended before its first step (stderr: $(cat err.txt))"
		now_ms; t0=$NOW
		wait "$BG"
		now_ms; w=$((NOW - t0)) d=$(timed_span $((NOW - t0)))
		echo "timed: $w ms to its exit, $d ms to its last change"
		expect_match "$(cat out.txt)" "$C changes" "the timed apply made every change"
		applied=$(snap)
		reset
		[ -z "$D" ] || [ "$d" -lt "$D" ] && D=$d
	done
}
# groups_clear: every group below $ROOT removed, deepest first, its tasks
# moved to $ROOT before (not on RGCS, where they need not leave: the
# emulator's groups take no real task)
groups_clear() {
	local d p
	for d in $(cd "$ROOT" && find . -mindepth 1 -depth -type d); do
		if [ "$BACKEND" != rgcs ]; then
			for p in $(cat "$ROOT/$d/tasks" "$ROOT/$d/cgroup.threads" \
				"$ROOT/$d/cgroup.procs" 2>/dev/null); do
				echo "$p" >"$ROOT/cgroup.procs" 2>/dev/null
			done
		fi
		rmdir "$ROOT/$d"
	done
}
# now_ms: NOW = the time in ms (no fork: bash's EPOCHREALTIME)
now_ms() { local t=${EPOCHREALTIME/[.,]/}; NOW=$((t / 1000)); }
sleep_ms() {	# sleep_ms MS
	local s
	printf -v s '%d.%03d' $(($1 / 1000)) $(($1 % 1000))
	if [ -n "${MARK_IDLE:-}" ]; then read -r -t "$s" -u 8 _; else sleep "$s"; fi
}

# rgd_notify_listen ADDR LOG: a datagram listener at ADDR (a path, or @NAME: an
# abstract socket), each message one line of LOG ('|' for newlines)
rgd_notify_listen() {
	python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
a = sys.argv[1]
s.bind("\0" + a[1:] if a.startswith("@") else a)
open(sys.argv[2], "w").close()
while True:
    m = s.recv(4096).decode()
    with open(sys.argv[2], "a") as f:
        f.write(m.replace("\n", "|") + "\n")
' "$1" "$2" & PIDS+=($!)
	for ((i = 0; i < 50; i++)); do [ -e "$2" ] && return 0; sleep 0.1; done
	echo "FAIL: the notify listener at $1 did not start"; exit 1
}

rgd_cleanup() {
	local p d
	for p in "${PIDS[@]}"; do kill -KILL "$p" 2>/dev/null; done
	for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
	if [ -n "$ROOT" ] && [ -d "$ROOT" ]; then
		# Anything still inside goes back to the hierarchy's root.
		for d in $(find "$ROOT" -depth -type d); do
			while read -r p; do
				echo "$p" >"$CPU/cgroup.procs" 2>/dev/null
			done <"$d/cgroup.procs"
			# killed tasks leave a group a moment after wait(): retry
			for _ in $(seq 50); do
				rmdir "$d" 2>/dev/null && break
				[ -d "$d" ] || break
				sleep 0.1
			done
		done
	fi
	[ -n "$WORK" ] && rm -rf "$WORK"
}

# in_group PID GROUP: the process is a member of ROOT/GROUP
in_group() { grep -qx "$1" "$ROOT/$2/cgroup.procs" 2>/dev/null; }

# wait_in_group PID GROUP [TENTHS]: poll until it is (default 3 s)
wait_in_group() {
	local i
	for ((i = 0; i < ${3:-30}; i++)); do
		in_group "$1" "$2" && return 0
		sleep 0.1
	done
	return 1
}

# needs_libconfig: with WITH_LIBCONFIG=OFF check the message, then skip.
needs_libconfig() {
	if [ "${WITH_LIBCONFIG:-ON}" = OFF ] || [ "${WITH_LIBCONFIG:-ON}" = 0 ]; then
		printf 'groups = ();\n' >"$WORK/x.conf"
		run "$RGCTL" --root "$ROOT" apply "$WORK/x.conf"
		expect_rc 1 "apply without libconfig"
		expect_match "$err" "built without libconfig" "apply without libconfig"
		[ "$T_FAILS" = 0 ] || finish
		skip_test "rgctl was built without libconfig (WITH_LIBCONFIG=OFF)"
	fi
}

needs_libmnl() {
	if [ "${WITH_LIBMNL:-ON}" = OFF ] || [ "${WITH_LIBMNL:-ON}" = 0 ]; then
		skip_test "rgctl was built without libmnl (WITH_LIBMNL=OFF)"
	fi
}
