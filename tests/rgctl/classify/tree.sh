#!/bin/bash
# The process-tree property of rgctl classify: every descendant of a
# matching process ends in its group, whatever the shape of the tree.
# Random trees (task_helper rtree: fork, double fork with the middle gone
# at once, setsid, a thread that forks, exec chains into programs that
# match another rule or none, a subreaper, early exits, idle threads) are
# started three ways: while the daemon is stopped (SIGSTOP: every fork
# happens before the matching process is moved, the middle processes are
# gone when it looks), under a fork storm, and under a fork storm with a
# tiny receive buffer (overflows: the daemon resynchronises from /proc).
# Every thread of every long-lived process is checked, through
# /proc/PID/task/TID/cgroup.  Where events were lost, an orphan forked
# unseen (its parent gone before the resync) cannot be traced: counted
# and reported, allowed only there and only when the log says so.  The seed is random per run and printed;
# RGD_TREE_SEED=N reproduces a run, RGD_TREES the trees per round.
# tree.sh [v1|v2 [TREES]]
. "$SRC_DIR/tests/rgctl/tasks_lib.sh"
rgd_setup tree "${1:-v1}"
needs_libconfig
needs_libmnl
cd "$WORK" || exit 1
mkdir "$ROOT/tree" "$ROOT/other"
tag=$$
cp "$HELPER" "./rgdT$tag"	# matches the "tree" rule
cp "$HELPER" "./rgdO$tag"	# matches the "other" rule; task_helper: none
cat >t.conf <<CONF
groups = ({ name = "tree"; }, { name = "other"; });
rules = (
  { group = "tree";  comm = "rgdT$tag"; },
  { group = "other"; comm = "rgdO$tag"; }
);
CONF
export RGD_TREE_PROGS="$WORK/rgdT$tag:$WORK/rgdO$tag:$HELPER"
TREES=${2:-${RGD_TREES:-20}}
SHORT=${RGD_STORM_SHORT:-3000}
SEED=${RGD_TREE_SEED:-$(od -An -N3 -tu4 /dev/urandom | tr -d ' ')}
echo "seed $SEED (RGD_TREE_SEED=$SEED reproduces the shapes)"
if [ "${1:-v1}" = v2 ]; then CGLINE='^0::'; else CGLINE='^[0-9]+:([^:]*,)?cpu(,[^:]*)?:'; fi
REL=${ROOT#"$CPU"}

# check REPORT: a line "PID GROUP: GROUPS SEEN" per process with a thread
# outside its group, "PID GONE" per process gone (one grep for all)
check() {
	local -a files=()
	local ln
	while read -r ln; do files+=(/proc/"${ln%% *}"/task/*/cgroup); done <"$1"
	grep -EH "$CGLINE" "${files[@]}" 2>/dev/null |
		awk -v rel="$REL" -v rep="$1" '
		BEGIN { while ((getline l < rep) > 0) { split(l, f, " "); want[f[1]] = f[2] } }
		{	split($0, p, "/"); pid = p[3]
			sub(/^[^:]*:[^:]*:[^:]*:/, ""); seen[pid] = 1
			if ($0 != rel "/" want[pid]) bad[pid] = bad[pid] " " $0 }
		END {	for (pid in want) {
				if (!(pid in seen)) print pid " GONE"
				else if (pid in bad) print pid " " want[pid] ":" bad[pid] } }'
}

# kill_trees: every process of this run's trees, reported or not (stuck
# ones too), found by the RGD_TREE_PROGS they inherit
kill_trees() {
	local e p
	for e in $(grep -lzxF "RGD_TREE_PROGS=$RGD_TREE_PROGS" /proc/[0-9]*/environ 2>/dev/null); do
		p=${e#/proc/}; p=${p%/environ}
		kill -KILL "$p" 2>/dev/null
	done
}
trap 'kill_trees; rgd_cleanup' EXIT

TOTAL_TREES=0 TOTAL_PROCS=0 TOTAL_ESCAPES=0 TOTAL_UNTRACEABLE=0
tree_round() {	# tree_round LABEL stop|storm [classify options...]
	local label=$1 mode=$2 daemon storm= i n last bad gone ts ln lossy=no untraceable pid pp
	local -a rep
	shift 2
	[ "${1:-}" = --rcvbuf ] && lossy=yes
	"$RGCTL" --root "$ROOT" classify -v "$@" t.conf 2>"daemon.$label.log" & daemon=$!
	PIDS+=($daemon)
	for ((i = 0; i < 100; i++)); do
		grep -q "scan (start)" "daemon.$label.log" && break; sleep 0.05
	done
	: >"report.$label"
	exec 9>>"report.$label"
	if [ "$mode" = stop ]; then
		kill -STOP $daemon
	else
		"$HELPER" storm "$SHORT" 0 x 1 & storm=$!
	fi
	for ((i = 0; i < TREES; i++)); do
		"./rgdT$tag" rtree $((SEED * 1000 + i)) 3 tree 9 120 1 & PIDS+=($!)
	done
	exec 9>&-
	[ -n "$storm" ] && wait $storm
	# the trees are built when the report stops growing
	last=-1
	for ((i = 0; i < 50; i++)); do
		n=$(wc -l <"report.$label")
		[ "$n" = "$last" ] && break
		last=$n; sleep 0.3
	done
	mapfile -t rep <"report.$label"
	[ "$mode" = stop ] && kill -CONT $daemon
	for ln in "${rep[@]}"; do PIDS+=("${ln%% *}"); done
	# every thread in its group: give the daemon up to 5 s to catch up
	for ((ts = 0; ts < 25; ts++)); do
		check "report.$label" >"bad.$label"
		bad=$(grep -vc GONE "bad.$label") gone=$(grep -c GONE "bad.$label")
		[ "$bad" = 0 ] && break
		sleep 0.2
	done
	# With events lost (--rcvbuf), a process forked while they were, whose
	# parent exited before the daemon looked again, cannot be traced by
	# anyone: it is an orphan (of init or a subreaper) started unseen.  The
	# stopped round (nothing lost) proves orphans are followed otherwise.
	# (and so are its descendants).
	untraceable=0
	if [ "$lossy" = yes ]; then
		local -A ppid_of=() excused=()
		while read -r pid _; do
			ppid_of[$pid]=$(awk '{ print $4 }' /proc/"$pid"/stat 2>/dev/null)
		done < <(grep -v GONE "bad.$label")
		for pid in "${!ppid_of[@]}"; do
			pp=${ppid_of[$pid]}
			{ [ "$pp" = 1 ] || grep -q "^$pp .* reaper\$" "report.$label"; } && excused[$pid]=1
		done
		for ((i = 0; i < 8; i++)); do
			for pid in "${!ppid_of[@]}"; do
				pp=${ppid_of[$pid]}
				[ -n "$pp" ] && [ -n "${excused[$pp]:-}" ] && excused[$pid]=1
			done
		done
		untraceable=${#excused[@]}
	fi
	echo "$label: $TREES trees, ${#rep[@]} processes, $bad escaped ($untraceable orphans started while events were lost, or theirs), $gone vanished;" \
		"$(grep -c 'were lost' "daemon.$label.log") loss reports"
	TOTAL_TREES=$((TOTAL_TREES + TREES)) TOTAL_PROCS=$((TOTAL_PROCS + ${#rep[@]}))
	TOTAL_ESCAPES=$((TOTAL_ESCAPES + bad)) TOTAL_UNTRACEABLE=$((TOTAL_UNTRACEABLE + untraceable))
	[ "$bad" = "$untraceable" ] && ok || fail "$label: $bad of ${#rep[@]} not in their group (seed $SEED): $(grep -v GONE "bad.$label" | head -8 | tr '\n' ';')"
	if [ "$lossy" = yes ] && [ "$untraceable" != 0 ]; then
		grep -q "resynchronised from /proc (after lost events): [0-9]* processes, [1-9][0-9]* started unseen" "daemon.$label.log" && ok ||
			fail "$label: orphans started unseen, and the log does not say so"
	fi
	if [ "$bad" != 0 ]; then	# what the daemon knew of them
		grep -v GONE "bad.$label" | head -5 | while read -r pid _; do
			echo "  $pid: ppid $(awk '{ print $4 }' /proc/"$pid"/stat 2>/dev/null)," \
				"comm $(cat /proc/"$pid"/comm 2>/dev/null), log:" \
				"$(grep -w "$pid" "daemon.$label.log" | head -3 | tr '\n' ';')"
		done
	fi
	[ "$gone" = 0 ] && ok || fail "$label: $gone processes vanished"
	[ ${#rep[@]} -gt "$TREES" ] && ok || fail "$label: only ${#rep[@]} processes reported"
	kill -TERM $daemon; wait $daemon
	for ln in "${rep[@]}"; do kill -KILL "${ln%% *}" 2>/dev/null; done
	kill_trees
	wait 2>/dev/null
	for ((i = 0; i < 50; i++)); do
		[ -z "$(cat "$ROOT/tree/cgroup.procs" "$ROOT/other/cgroup.procs")" ] && break
		sleep 0.1
	done
}

[ -z "${RGD_SKIP_STOP:-}" ] && tree_round stopped stop
tree_round storm storm
tree_round tiny storm --rcvbuf 1
expect_match "$(cat daemon.tiny.log)" "were lost" "overflow with a tiny buffer"
echo "in all: $TOTAL_TREES trees, $TOTAL_PROCS processes, $TOTAL_ESCAPES escaped ($TOTAL_UNTRACEABLE untraceable)"
[ "$T_FAILS" = 0 ] || { echo "--- tiny log"; grep -v "moved\|already" daemon.tiny.log | tail -20; }
finish
