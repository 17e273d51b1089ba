#!/bin/bash
# rgcsfs against rgcs-abi.md: the stats file (numtasks' four lines, cpu's
# effective share and load, resets).
. "$SRC_DIR/tests/rgcsfs/common.sh"
require_root "moves real tasks between emulated groups"

nt_re='^numtasks: Current usage [0-9]+
numtasks: Number of successes [0-9]+
numtasks: Number of failures [0-9]+
numtasks: Number of forkrate failures [0-9]+
cpu:effective_min_shares=[0-9]+, load=[0-9]+$'
expect_match "$(cat "$R/stats")" "$nt_re" "root stats format"
expect_match "$(cat "$R/stats")" "cpu:effective_min_shares=100, " "the root's effective share is 100"
# Current usage = the root's members (ENOSPC past ~600 of them: a busy
# machine).  The root holds every task of the host, which come and go (a
# loaded machine starts hundreds a second): the stats read must fall between
# two members reads around it, give or take the readers themselves; a few
# tries, so that a burst between the reads is not taken for a wrong count.
root_usage_ok() {
	local m1 st m2 n1 n2 lo hi
	m1=$("$RGCS_IO" fd "$R/members" read)
	st=$("$RGCS_IO" fd "$R/stats" read)
	m2=$("$RGCS_IO" fd "$R/members" read)
	usage=$(printf '%s' "$st" | grep -oE 'Current usage [0-9]+' | grep -oE '[0-9]+$')
	if [ "${m1#read:ENOSPC}" != "$m1" ] || [ "${m2#read:ENOSPC}" != "$m2" ]; then
		why="root members ENOSPC but Current usage '$usage'"
		[ "${usage:-0}" -gt 500 ]
		return
	fi
	n1=$(printf '%s' "$m1" | cut -d: -f3- | wc -w)
	n2=$(printf '%s' "$m2" | cut -d: -f3- | wc -w)
	lo=$((n1 < n2 ? n1 : n2)) hi=$((n1 > n2 ? n1 : n2))
	why="root Current usage '$usage', members $n1 before and $n2 after"
	[ "${usage:-0}" -ge $((lo - 2)) ] && [ "${usage:-0}" -le $((hi + 2)) ]
}
good=no
for try in 1 2 3 4 5; do
	root_usage_ok && { good=yes; break; }
	echo "note: try $try: $why"
done
[ $good = yes ] && ok || fail "$why (5 tries)"

io OK "mkdir a" mkdir "$R/a"
same "$(cat "$R/a/stats")" "numtasks: Current usage 0
numtasks: Number of successes 0
numtasks: Number of failures 0
numtasks: Number of forkrate failures 0
cpu:effective_min_shares=0, load=0" "a new group's stats"

rgcsfs_spawn_sleeps 3
for p in "${RGCSFS_SLEEPS[@]}"; do io OK "move $p" write "$R/a/members" "$p"; done
same "$(head -2 "$R/a/stats")" "numtasks: Current usage 3
numtasks: Number of successes 3" "usage and successes after 3 moves"

# Resets: res=<name> (other tokens ignored); EINVAL without res= or for an
# unknown or unattached controller.
for v in "" "numtasks" "res=" "res=memory" "min_shares=1" "\x01res=numtasks"; do
	io EINVAL "stats write '$v'" write "$R/a/stats" "${v:-\n}"
done
same "$(sed -n 2p "$R/a/stats")" "numtasks: Number of successes 3" "failed resets changed nothing"
io OK "reset numtasks" write "$R/a/stats" "res=numtasks,whatever"
same "$(head -2 "$R/a/stats")" "numtasks: Current usage 3
numtasks: Number of successes 0" "reset clears successes, not usage"
io OK "reset cpu" write "$R/a/stats" "res=cpu"
kill "${RGCSFS_SLEEPS[0]}"; wait "${RGCSFS_SLEEPS[0]}" 2>/dev/null
same "$(head -1 "$R/a/stats")" "numtasks: Current usage 2" "usage follows exited tasks"

# effective_min_shares = parent's * min_shares / parent's child_shares_divisor
io OK "mkdir a/b" mkdir "$R/a/b"
io OK "mkdir a/b/c" mkdir "$R/a/b/c"
io OK "a min 50" write "$R/a/shares" "res=cpu,min_shares=50"
io OK "b min 20" write "$R/a/b/shares" "res=cpu,min_shares=20"
io OK "c min 30" write "$R/a/b/c/shares" "res=cpu,min_shares=30"
eff() { grep -oE 'effective_min_shares=[0-9]+' "$R/$1/stats" | cut -d= -f2; }
same "$(eff a)" 50 "a: 100 * 50 / 100"
same "$(eff a/b)" 10 "b: 50 * 20 / 100"
same "$(eff a/b/c)" 3 "c: 10 * 30 / 100"
io OK "a divisor 40" write "$R/a/shares" "res=cpu,child_shares_divisor=40"
same "$(eff a/b)" 25 "b: 50 * 20 / 40"
same "$(eff a/b/c)" 7 "c: 25 * 30 / 100"
io OK "b min -3" write "$R/a/b/shares" "res=cpu,min_shares=-3"
same "$(eff a/b)" 0 "a don't-care min gives 0"
same "$(eff a/b/c)" 0 "and 0 below it"
io OK "mkdir a/b/c/d" mkdir "$R/a/b/c/d"
same "$(cat "$R/a/b/c/d/stats")" "" "no stats at depth 4"

# load: a busy member shows up; sleeping members use nothing.
same "$(grep -oE 'load=[0-9]+' "$R/a/stats")" "load=0" "sleeping members: load 0"
io OK "mkdir busy" mkdir "$R/busy"
( while :; do :; done ) &
busy=$!
EXTRA_PIDS+=("$busy")
io OK "move the busy loop" write "$R/busy/members" "$busy"
sleep 1.5
load=$(grep -oE 'load=[0-9]+' "$R/busy/stats" | cut -d= -f2)
[ "${load:-0}" -ge 1 ] && [ "$load" -le 100 ] && ok || fail "busy group load '$load'"
kill "$busy"; wait "$busy" 2>/dev/null

stop_emulator
finish
