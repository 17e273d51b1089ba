#!/bin/bash
# A fork storm under rgctl classify: thousands of short-lived processes
# while hundreds of long-lived matching ones start, each forking a child
# at once (the fork race).  Every long-lived process and every child must
# end up in the group.  Run twice: with the default receive buffer, and
# with a tiny one, which overflows (ENOBUFS): the daemon must say so,
# grow the buffer, rescan and still miss nothing.
# storm.sh [v1|v2 [SHORT LONG]]: the hierarchy, the processes.
. "$SRC_DIR/tests/rgctl/tasks_lib.sh"
rgd_setup storm "${1:-v1}"
needs_libconfig
needs_libmnl
cd "$WORK" || exit 1
mkdir "$ROOT/storm"
tag=$$
cp "$HELPER" "./rgdS$tag"
printf 'groups = ({ name = "storm"; });\nrules = ({ group = "storm"; comm = "rgdS%s"; });\n' "$tag" >s.conf
SHORT=${2:-${RGD_STORM_SHORT:-3000}}
LONG=${3:-${RGD_STORM_LONG:-200}}

storm_round() {	# storm_round LABEL [classify options...]
	local label=$1 daemon pids missing=0 p i
	shift
	"$RGCTL" --root "$ROOT" classify "$@" s.conf 2>"daemon.$label.log" & daemon=$!
	PIDS+=($daemon)
	for ((i = 0; i < 100; i++)); do
		grep -q "listening" "daemon.$label.log" && break; sleep 0.05
	done
	sleep 0.3	# the start scan
	# the driver itself (task_helper) matches no rule
	"$HELPER" storm "$SHORT" "$LONG" "$WORK/rgdS$tag" 40 >"pids.$label"
	mapfile -t pids <"pids.$label"
	PIDS+=("${pids[@]}")
	[ "${#pids[@]}" = $((2 * LONG)) ] && ok ||
		fail "$label: ${#pids[@]} pids reported, expected $((2 * LONG))"
	# give the daemon time to drain (and rescan after an overflow)
	for ((i = 0; i < 100; i++)); do
		missing=0
		for p in "${pids[@]}"; do
			in_group "$p" storm || missing=$((missing + 1))
		done
		[ $missing = 0 ] && break
		sleep 0.2
	done
	[ $missing = 0 ] && ok || fail "$label: $missing of ${#pids[@]} processes not in the group"
	kill -TERM $daemon; wait $daemon
	kill -KILL "${pids[@]}" 2>/dev/null
	echo "$label: ${#pids[@]} long-lived processes and children, $missing missed;" \
		"$(grep -c 'were lost' "daemon.$label.log") loss reports"
}

storm_round default
storm_round tiny --rcvbuf 1 -v
expect_match "$(cat daemon.tiny.log)" "process events were lost \\(the [0-9]+ KiB receive buffer overflowed\\)|process events were lost \\(sequence gap\\)" "overflow reported"
expect_match "$(cat daemon.tiny.log)" "resynchronised from /proc \\(after lost events\\): [0-9]+ processes, [0-9]+ started unseen" "resync after the overflow"
expect_match "$(cat daemon.tiny.log)" "receive buffer now [0-9]+ KiB" "buffer grown"
[ "$T_FAILS" = 0 ] || { echo "--- tiny log"; tail -20 daemon.tiny.log; }
finish
