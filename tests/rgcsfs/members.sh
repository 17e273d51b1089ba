#!/bin/bash
# rgcsfs against rgcs-abi.md: the members file (seed 002) with real tasks.
. "$SRC_DIR/tests/rgcsfs/common.sh"
require_root "moves real tasks between emulated groups"

rgcsfs_spawn_sleeps 4
s1=${RGCSFS_SLEEPS[0]} s2=${RGCSFS_SLEEPS[1]} s3=${RGCSFS_SLEEPS[2]} s4=${RGCSFS_SLEEPS[3]}
lines() { "$RGCS_IO" read "$1" | tr '\n' ' '; }

# The root lists every task, the test shell and the sleeps included.
for p in $$ "$s1" "$s2" "$s3" 1; do
	in_root "$p" && ok || fail "pid $p missing from the root's members"
done
io OK "mkdir a" mkdir "$R/a"
io OK "mkdir b" mkdir "$R/b"
same "$(wc -c <"$R/a/members")" 0 "a new group has no members"

# One id per line, most recently added first; moved tasks leave the root.
for p in "$s1" "$s2" "$s3"; do io OK "move $p" write "$R/a/members" "$p"; done
same "$(lines "$R/a/members")" "$s3 $s2 $s1 " "a's members, newest first"
in_root "$s1" && fail "a moved task is still listed in the root" || ok
io OK "moving into the same group again" write "$R/a/members" "$s2"
same "$(lines "$R/a/members")" "$s3 $s2 $s1 " "a second move into the same group changes nothing"

# strtol(str, NULL, 0): hex, octal, trailing text, only the first number.
io OK "hex pid" write "$R/b/members" "$(printf '0x%x' "$s1")"
io OK "octal pid" write "$R/b/members" "$(printf '0%o' "$s2")"
io OK "pid with trailing text" write "$R/b/members" "${s3}abc"
io OK "trailing newline" write "$R/b/members" "$s4\n"
same "$(lines "$R/b/members")" "$s4 $s3 $s2 $s1 " "b after hex, octal, trailing text"
same "$(wc -c <"$R/a/members")" 0 "a is empty again"
# one pid per write: the second line is cut off (first non-printable byte)
io OK "two pids in one write" write "$R/a/members" "$s1\n$s2"
same "$(lines "$R/a/members")" "$s1 " "only the first pid of a write moves"
io OK "two pids separated by a blank" write "$R/a/members" "$s2 $s3"
same "$(lines "$R/a/members")" "$s2 $s1 " "only the first of 'pid pid' moves"
# the pid_t cast: 2^32 + pid is pid (why clients must check their input)
io OK "2^32 + pid wraps to pid" write "$R/a/members" "$((4294967296 + s4))"
has_line "$(cat "$R/a/members")" "$s4" && ok || fail "2^32+pid did not move pid"

# EINVAL: pid <= 0 and everything that does not parse to a positive number
for v in 0 -1 -$s1 abc "" "\n$s1" "\x01$s1" " $s1" "+$s1" "0x" "08" "4294967296"; do
	io EINVAL "members write '$v'" write "$R/a/members" "${v:-\n}"
done
# ESRCH: no such task
free=30000
while [ -e "/proc/$free" ]; do free=$((free + 1)); done
io ESRCH "members write of a missing pid $free" write "$R/a/members" "$free"
before=$(lines "$R/a/members")
same "$before" "$s4 $s2 $s1 " "failed writes changed nothing"

# A read fills the buffer once per open: re-open (or write) to refresh.
out=$("$RGCS_IO" fd "$R/a/members" read "ext:$R/a/members:$s3" read)
same "$out" "read:$(printf '%s' "$before" | wc -c):$before
ext:OK
read:$(printf '%s' "$before" | wc -c):$before" "content fixed at the first read"
same "$(lines "$R/a/members")" "$s3 $s4 $s2 $s1 " "a fresh open sees the move"
out=$("$RGCS_IO" fd "$R/a/members" read "write:$s3" read)
expect_match "$out" "^read:[0-9]+:$s3 $s4 $s2 $s1 
write:OK
read:[0-9]+:$s3 $s4 $s2 $s1 \$" "a write on the same descriptor refreshes"

# Tasks that exit drop out.
kill "$s4"; wait "$s4" 2>/dev/null
same "$(lines "$R/a/members")" "$s3 $s2 $s1 " "an exited task drops out"

# Children forked inside a group are in that group.
io OK "mkdir forks" mkdir "$R/forks"
pidfile=$mnt.child
( echo "$BASHPID" >"$R/forks/members"; sleep 300 & echo $! >"$pidfile"; wait ) &
sub=$!
EXTRA_PIDS+=("$sub")
for ((i = 0; i < 50; i++)); do [ -s "$pidfile" ] && break; sleep 0.1; done
child=$(cat "$pidfile" 2>/dev/null)
EXTRA_PIDS+=("$child")
rm -f "$pidfile"
same "$(lines "$R/forks/members")" "$child $sub " "a child forked in the group inherits it"
kill "$child" 2>/dev/null; wait "$sub" 2>/dev/null

# rmdir of a group with members succeeds and moves them to the parent.
io OK "mkdir a/c" mkdir "$R/a/c"
io OK "move s1 to a/c" write "$R/a/c/members" "$s1"
io OK "rmdir of a group with members" rmdir "$R/a/c"
same "$(lines "$R/a/members")" "$s1 $s3 $s2 " "members of a/c moved to a"
io OK "rmdir a" rmdir "$R/a"
for p in "$s1" "$s2" "$s3"; do
	in_root "$p" && ok || fail "pid $p not back in the root after rmdir a"
done

# Only the named thread moves, not its whole thread group.
if command -v python3 >/dev/null; then
	python3 -c 'import threading, time
t = threading.Thread(target=time.sleep, args=(300,), daemon=True); t.start(); time.sleep(300)' &
	py=$!
	EXTRA_PIDS+=("$py")
	for ((i = 0; i < 50; i++)); do
		[ "$(ls "/proc/$py/task" 2>/dev/null | wc -l)" -ge 2 ] && break; sleep 0.1
	done
	tid=$(ls "/proc/$py/task" | grep -vx "$py" | head -1)
	io OK "mkdir t" mkdir "$R/t"
	io OK "move one thread" write "$R/t/members" "$tid"
	same "$(lines "$R/t/members")" "$tid " "only the thread moved"
	in_root "$py" && ok || fail "the thread group leader left the root"
	# the leader moves alone, even when its threads were never seen before
	python3 -c 'import threading, time
t = threading.Thread(target=time.sleep, args=(300,), daemon=True); t.start(); time.sleep(300)' &
	py2=$!
	EXTRA_PIDS+=("$py2")
	for ((i = 0; i < 50; i++)); do
		[ "$(ls "/proc/$py2/task" 2>/dev/null | wc -l)" -ge 2 ] && break; sleep 0.1
	done
	io OK "move a leader" write "$R/t/members" "$py2"
	same "$(lines "$R/t/members")" "$py2 $tid " "only the leader moved, not its other thread"
	kill "$py" "$py2"; wait "$py" "$py2" 2>/dev/null
else
	echo "note: python3 missing, per-thread move not checked"
fi

stop_emulator
finish
