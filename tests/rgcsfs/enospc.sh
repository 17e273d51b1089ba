#!/bin/bash
# rgcsfs against rgcs-abi.md: members text past one page is ENOSPC, exactly
# at the boundary, for a group and for the root; after a failed fill the
# same descriptor reads EOF; members that exit drop out.
. "$SRC_DIR/tests/rgcsfs/common.sh"
require_root "moves real tasks between emulated groups"

io OK "mkdir big" mkdir "$R/big"
# Enough sleeps for well over 4096 bytes of "pid\n".
bytes=0 n=0
while [ $bytes -le 5000 ]; do
	rgcsfs_spawn_sleeps 50
	for p in "${RGCSFS_SLEEPS[@]:n}"; do bytes=$((bytes + ${#p} + 1)); done
	n=${#RGCSFS_SLEEPS[@]}
done
# They are all in the root now, so the root is past one page too.
io ENOSPC "root members with $n extra tasks" read "$R/members"

# Fill big up to the last pid that keeps the text within 4096 bytes.
expect="" len=0 moved=0
for p in "${RGCSFS_SLEEPS[@]}"; do
	[ $((len + ${#p} + 1)) -le 4096 ] || break
	echo "$p" >"$R/big/members" || fail "move $p"
	expect="$p
$expect" len=$((len + ${#p} + 1)) moved=$((moved + 1))
done
same "$(cat "$R/big/members")
" "$expect" "$moved ids ($len bytes), newest first"
next=${RGCSFS_SLEEPS[moved]}
echo "$next" >"$R/big/members" || fail "move $next"
io ENOSPC "one more id: $((len + ${#next} + 1)) bytes" read "$R/big/members"
same "$("$RGCS_IO" fd "$R/big/members" read read)" "read:ENOSPC:
read:0:" "ENOSPC once per open, then EOF"
same "$(grep -oE 'Current usage [0-9]+' "$R/big/stats")" "Current usage $((moved + 1))" "stats still count them"

# Move the rest in; then let half of them exit: the list fits again.
for p in "${RGCSFS_SLEEPS[@]:moved+1}"; do echo "$p" >"$R/big/members" || fail "move $p"; done
io ENOSPC "all $n in big" read "$R/big/members"
half=$((n / 2))
kill "${RGCSFS_SLEEPS[@]:0:half}"; wait "${RGCSFS_SLEEPS[@]:0:half}" 2>/dev/null
kill "${RGCSFS_SLEEPS[@]:half:half-n/8}"; wait "${RGCSFS_SLEEPS[@]:half:half-n/8}" 2>/dev/null
left=$("$RGCS_IO" read "$R/big/members" | wc -l)
same "$left" "$((n - half - (half - n / 8)))" "exited tasks dropped out"
# rmdir moves the rest to the root.
io OK "rmdir big with members" rmdir "$R/big"
in_root "${RGCSFS_SLEEPS[n-1]}" && ok || fail "members not back in the root"

stop_emulator
finish
