#!/bin/bash
# rgctl classify on the guest's cgroup v2: a fork storm (short-lived
# processes, long-lived matching ones that each fork a child at once) with
# the default and a tiny receive buffer: nothing missed.
. "$(dirname "$0")/lib.sh"
[ "${WITH_LIBCONFIG:-ON}" = OFF ] && skip_test "rgctl was built without libconfig"
[ "${WITH_LIBMNL:-ON}" = OFF ] && skip_test "rgctl was built without libmnl"
W=$(mktemp -d)
CLEANUPS+=("rm -rf '$W'")
cd "$W" || exit 1
mkdir -p "$U/$G/storm"
R=(--backend cgroup2 --root "$U/$G")
tag=$$
cp "$HELPER" "./rgdS$tag"
printf 'groups = ({ name = "storm"; });\nrules = ({ group = "storm"; comm = "rgdS%s"; });\n' "$tag" >s.conf
SHORT=${VM_STORM_SHORT:-600}
LONG=${VM_STORM_LONG:-60}
in_storm() { grep -qx "$1" "$U/$G/storm/cgroup.procs"; }

storm_round() {	# storm_round LABEL [classify options...]
	local label=$1 daemon pids missing=0 p i
	shift
	"$RG" "${R[@]}" classify "$@" s.conf 2>"daemon.$label.log" & daemon=$!
	SPAWNED+=($daemon)
	for ((i = 0; i < 200; i++)); do
		grep -q "listening" "daemon.$label.log" && break; sleep 0.05
	done
	sleep 0.5
	"$HELPER" storm "$SHORT" "$LONG" "$W/rgdS$tag" 60 >"pids.$label"
	mapfile -t pids <"pids.$label"
	SPAWNED+=("${pids[@]}")
	expect_eq "${#pids[@]}" $((2 * LONG)) "$label: pids reported"
	for ((i = 0; i < 150; i++)); do
		missing=0
		for p in "${pids[@]}"; do in_storm "$p" || missing=$((missing + 1)); done
		[ $missing = 0 ] && break
		sleep 0.2
	done
	expect_eq "$missing" 0 "$label: processes missed"
	kill -TERM $daemon; wait $daemon
	kill -KILL "${pids[@]}" 2>/dev/null
	wait "${pids[@]}" 2>/dev/null
	echo "$label: ${#pids[@]} long-lived processes and children among $SHORT short ones, $missing missed;" \
		"$(grep -c 'were lost' "daemon.$label.log") loss reports"
}
storm_round default
storm_round tiny --rcvbuf 1 -v
[ "$T_FAILS" = 0 ] || { echo "--- tiny log"; tail -20 daemon.tiny.log; }
finish
