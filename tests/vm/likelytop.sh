#!/bin/bash
# likelytop on the guest kernel's real profiles: /proc/likely_prof (the
# patched kernel), trace_stat/branch_annotated and branch_all (where the
# kernel profiles all branches).
#  - batch output of each (a snapshot) equals an awk reading of that file,
#    row for row;
#  - /proc/likely_prof and branch_annotated are two views of one kernel's
#    data: read likely_prof, branch_annotated, likely_prof again, and every
#    site's counts in branch_annotated lie between its two likely_prof
#    readings (mapped through the site's hint);
#  - reading the live files twice gives moving counts and rates;
#  - the live view (tmux) refreshes on the changing real file.
. "$(dirname "$0")/lib.sh"
LT=$(tool_path likelytop)
TR=$(mount_of tracefs)
[ -n "$TR" ] || TR=/sys/kernel/tracing
LP=${VM_LIKELY_PROF:-/proc/likely_prof}	# (overridable to try the test outside the guest)
BA=${VM_BRANCH_ANNOTATED:-$TR/trace_stat/branch_annotated}
ALL=${VM_BRANCH_ALL:-$TR/trace_stat/branch_all}
for f in "$LP" "$BA"; do
	[ -r "$f" ] && ok || { fail "no $f on this kernel"; finish; }
done
if [ -r "$ALL" ]; then has_all=yes; else
	has_all=no
	echo "no $ALL: the kernel profiles annotated branches only (CONFIG_PROFILE_ALL_BRANCHES off)"
fi
W=$(mktemp -d)
CLEANUPS+=("rm -rf '$W'")
cd "$W" || exit 1
# keep the kernel busy so that counters move
( while :; do ls -R /usr/share >/dev/null 2>&1; done ) &
SPAWNED+=($!)

cat "$LP" >lp.1
cat "$BA" >ba
cat "$LP" >lp.2
[ $has_all = yes ] && cat "$ALL" >all
echo "sites: likely_prof $(($(wc -l <lp.2) - 3)), branch_annotated $(($(wc -l <ba) - 2))$([ $has_all = yes ] && echo ", branch_all $(($(wc -l <all) - 2))")"
head -4 lp.2

# --- batch output equals awk's reading, row for row --------------------------------
. "$SRC_DIR/tests/likelytop/readers.sh"
check_batch() {	# check_batch FILE HINT|lp NAME
	local a
	if [ "$2" = lp ]; then a=$(awk_lp "$1"); else a=$(awk_trace "$1" "$2"); fi
	local l
	l=$(lt_rows "$1")
	local na nl
	na=$(printf '%s\n' "$a" | grep -c .) nl=$(printf '%s\n' "$l" | grep -c .)
	[ "$na" -gt 100 ] && ok || fail "$3: only $na sites"
	if [ "$a" = "$l" ]; then ok; else
		fail "$3: likelytop ($nl rows) and awk ($na rows) differ:"
		diff <(printf '%s\n' "$a") <(printf '%s\n' "$l") | head -10
	fi
	# the summary line counts the same sites
	"$LT" -b -f "$1" | head -1 | grep -q " - $na sites, $na shown," && ok || fail "$3: summary is not '$na sites'"
}
check_batch lp.2 lp "likely_prof"
check_batch ba annotated "branch_annotated"
[ $has_all = yes ] && check_batch all none "branch_all"
# the same through the live paths (likelytop opening the kernel's files)
run "$LT" -b -f "$LP" --format json
expect_rc 0 "likelytop -f $LP"
n=$(printf '%s' "$out" | jq length)
awk -v n="$n" -v m="$(($(wc -l <lp.2) - 3))" 'BEGIN { exit !(n >= m) }' && ok ||
	fail "the live likely_prof has $n sites, fewer than the earlier snapshot's"
expect_match "$(printf '%s' "$out" | jq -r '[.[].hint] | unique | join(",")')" '^likely,unlikely$' "both hints present"
run "$LT" -b -f "$BA" --format json
expect_rc 0 "likelytop -f $BA"
run "$LT" -b --format json
expect_rc 0 "likelytop with no -f"
expect_match "$(printf '%s' "$out" | jq -r '[.[].hint] | unique | join(",")')" '^likely,unlikely$' "the default source is /proc/likely_prof"

# --- two views of one kernel's data --------------------------------------------------
lt_view lp.1 >v.lp1
lt_view ba >v.ba
lt_view lp.2 >v.lp2
for pair in "lp1 ba" "ba lp2"; do
	set -- $pair
	if res=$(views_agree "v.$1" "v.$2"); then ok; else fail "views $1 then $2 disagree:"; fi
	echo "$1 then $2: $res"
done
# one site in both, as likelytop shows it: the hint turns true/false into correct/incorrect
k=$(awk '$4 + $5 > 1000 { print; exit }' v.lp2)
echo "for example: $k"

# --- the counters move between reads: rates ------------------------------------------
for f in "$LP" "$BA" $([ $has_all = yes ] && echo "$ALL"); do
	run "$LT" -b -f "$f" --format json -n 2 -d 1
	expect_rc 0 "-n 2 -d 1 on $f"
	moved=$(printf '%s\n' "$out" | jq -s '.[1] | map(select(.rate > 0)) | length' 2>/dev/null)
	[ "${moved:-0}" -gt 0 ] && ok || fail "$f read twice: no site has a non-zero rate (stale re-read?)"
done

# --- the live view on the real file --------------------------------------------------
if [ "${WITH_NCURSES:-ON}" != OFF ] && command -v tmux >/dev/null; then
	sock=vmlt$$
	T() { tmux -L "$sock" "$@"; }
	CLEANUPS+=("tmux -L $sock kill-server 2>/dev/null")
	printf '%q -d 1 -f %q; echo $? >%q; sleep 30\n' "$LT" "$LP" "$W/live.rc" >live.sh
	T new-session -d -s lt -x 160 -y 40 "bash $W/live.sh"
	sleep 3
	for i in 1 2 3 4; do
		T capture-pane -p -t lt | sed -n '5,$p' | grep -E '^[! ] +(un)?likely' >"screen.$i"
		sleep 1.5
	done
	T capture-pane -p -t lt | head -3
	grep -q . screen.1 && ok || fail "the live view shows no rows: $(T capture-pane -p -t lt | head -5)"
	changed=0
	for i in 2 3 4; do cmp -s screen.1 "screen.$i" || changed=$((changed + 1)); done
	[ $changed -ge 2 ] && ok || fail "the live view did not change over 3 refreshes ($changed changed)"
	sed 's/^!/ /' screen.4 | awk '$5 + 0 > 0 { f = 1 } END { exit !f }' && ok || fail "no non-zero rate on the live screen"
	T send-keys -t lt q
	for i in $(seq 30); do [ -s live.rc ] && break; sleep 0.2; done
	expect_eq "$(cat live.rc 2>/dev/null)" 0 "the live view quits with q"
fi
finish
