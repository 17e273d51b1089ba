# likelytop sources: detection order (/proc/likely_prof, tracefs, user-space
# profiles) in a sysroot, -p PID and --exec with a fake profiled program
# that writes the likely_prof format to $LIKELY_PROF_DIR/<pid>.
. "$(dirname "$0")/../cli/lib.sh"
bin=$(tool_path likelytop)
here="$SRC_DIR/tests/likelytop"
writer="$here/fake_writer.sh"
command -v jq >/dev/null || skip_test "jq is not installed (scripts/deps.sh installs it)"
tmp=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
mkdir -p "$tmp/root" "$tmp/prof" "$tmp/t"
export LIKELY_PROF_DIR="$tmp/prof" TMPDIR="$tmp/t"
unset XDG_RUNTIME_DIR

# Nothing anywhere: say what each source needs, exit 1.
run "$bin" -b --sysroot "$tmp/root"
expect_rc 1 "no source"
expect_match "$err" "/proc/likely_prof: missing \(needs a kernel built with CONFIG_PROFILE_LIKELY" "no source: procfs"
expect_match "$err" "branch_annotated: .*CONFIG_PROFILE_ANNOTATED_BRANCHES" "no source: tracefs"
expect_match "$err" "$tmp/prof: no profile of a live process \(needs a running program built with likely_prof.h" "no source: user space"

# tracefs under /sys/kernel/debug/tracing is found...
mkdir -p "$tmp/root/sys/kernel/debug/tracing/trace_stat"
cp "$here/data/branch_annotated.txt" "$tmp/root/sys/kernel/debug/tracing/trace_stat/branch_annotated"
run "$bin" -b --sysroot "$tmp/root"
expect_rc 0 "tracefs (debugfs path)"
expect_match "$out" "/sys/kernel/debug/tracing/trace_stat/branch_annotated \(branch_annotated\)" "tracefs source named"
# ... /sys/kernel/tracing first ...
mkdir -p "$tmp/root/sys/kernel/tracing/trace_stat"
cp "$here/data/branch_annotated.txt" "$tmp/root/sys/kernel/tracing/trace_stat/branch_annotated"
run "$bin" -b --sysroot "$tmp/root"
expect_match "$out" " /sys/kernel/tracing/trace_stat/branch_annotated" "/sys/kernel/tracing preferred"
# ... and /proc/likely_prof before both.
mkdir -p "$tmp/root/proc"
cp "$here/data/likely_prof.txt" "$tmp/root/proc/likely_prof"
run env KATTR_SYSROOT="$tmp/root" "$bin" -b --format json
expect_rc 0 "procfs"
[ "$(printf '%s' "$out" | jq -r '.[0].function')" = kfree ] && ok || fail "procfs read: $out"
rm -rf "$tmp/root/proc" "$tmp/root/sys"
# A symlink in the tree is resolved inside it, never followed out: an
# absolute link to a profile outside finds nothing there.
mkdir -p "$tmp/root/proc" "$tmp/outside"
cp "$here/data/likely_prof.txt" "$tmp/outside/likely_prof"
ln -s "$tmp/outside/likely_prof" "$tmp/root/proc/likely_prof"
run "$bin" -b --sysroot "$tmp/root"
expect_rc 1 "a symlink out of the sysroot"
expect_match "$err" "/proc/likely_prof: missing" "a symlink out of the sysroot is not a source"
rm -rf "$tmp/root/proc" "$tmp/outside"

# A user-space profile: the newest live process's file.
"$writer" 0 0.2 &
live=$!
pids+=("$live")
true &
dead=$!
wait "$dead"
for i in $(seq 50); do [ -f "$tmp/prof/$live" ] && break; sleep 0.1; done
[ -f "$tmp/prof/$live" ] && ok || fail "the fake writer wrote nothing"
cp "$tmp/prof/$live" "$tmp/prof/$dead"		# newer, but its process is gone
touch "$tmp/prof/.$dead.tmp"
run "$bin" -b --sysroot "$tmp/root" --format json
expect_rc 0 "user-space profile detected"
[ "$(printf '%s' "$out" | jq -r '.[0].function')" = kfree ] && ok || fail "user-space profile read"
run "$bin" -b --sysroot "$tmp/root"
expect_match "$out" "pid $live \($tmp/prof/$live\)" "the live process, not the dead one, is chosen"

# -p PID, with rates between iterations.
run "$bin" -b -p "$live" -n 2 -d 0.7 --format json
expect_rc 0 "-p PID"
[ "$(printf '%s\n' "$out" | jq -s '.[1][] | select(.function == "kfree") | .rate > 0')" = true ] && ok ||
	fail "-p PID: kfree's rate grows: $out"
run "$bin" -b -p "$dead" --format json
expect_rc 0 "-p of an exited process reads its last snapshot"
run "$bin" -b -p 2147483
expect_rc 1 "-p of an unprofiled process"
expect_match "$err" "process 2147483 does not seem to be profiled: no $tmp/prof/2147483 .*looked in $tmp/prof" "-p message"
ln -s /etc/passwd "$tmp/prof/$$"
run "$bin" -b -p $$
expect_rc 1 "-p does not follow a symlink"
rm -f "$tmp/prof/$$"

# The default directories.
run env -u LIKELY_PROF_DIR XDG_RUNTIME_DIR="$tmp/xdg" "$bin" -b -p 4242
expect_match "$err" "looked in $tmp/xdg/likely_prof" "XDG_RUNTIME_DIR/likely_prof"
run env -u LIKELY_PROF_DIR -u XDG_RUNTIME_DIR HOME="$tmp/home" "$bin" -b -p 4242
expect_match "$err" "looked in $tmp/home/.cache/likely_prof" "HOME/.cache/likely_prof"

# --exec: the final snapshot once the command exits; nothing left behind.
run "$bin" -b --format json --exec -- "$writer" 4 0.1
expect_rc 0 "--exec"
[ "$(printf '%s' "$out" | jq -r '.[] | select(.function == "kfree") | .incorrect')" = 336 ] && ok ||
	fail "--exec final snapshot (4 x 84 wrong): $out"
[ -z "$(ls -A "$tmp/t")" ] && ok || fail "--exec left $(ls -A "$tmp/t")"
run "$bin" -b --format json -n 2 -d 0.15 --exec -- "$writer" 8 0.1
expect_rc 0 "--exec -n 2"
[ "$(printf '%s\n' "$out" | jq -s 'length')" = 3 ] && ok || fail "--exec -n 2: two snapshots and the final one"
run "$bin" -b --exec -- sh -c 'exit 3'
expect_rc 1 "--exec of a command that writes no profile"
expect_match "$err" "exited without writing a profile" "--exec no profile message"
run "$bin" -b --exec -- /nonexistent/cmd
expect_rc 1 "--exec of a missing command"
expect_match "$err" "cannot run '/nonexistent/cmd': no such file" "--exec missing command message"
[ -z "$(ls -A "$tmp/t")" ] && ok || fail "failed --exec left $(ls -A "$tmp/t")"

# The reader goes away (| head): the command is stopped, the directory removed.
( timeout 20 "$bin" -b -n 100000 -d 0.1 --exec -- "$writer" 0 0.05 2>/dev/null; echo $? >"$tmp/pipe.rc" ) | head -c 1 >/dev/null
for i in $(seq 50); do [ -s "$tmp/pipe.rc" ] && break; sleep 0.1; done
[ "$(cat "$tmp/pipe.rc" 2>/dev/null)" = 1 ] && ok || fail "likelytop | head: status $(cat "$tmp/pipe.rc" 2>/dev/null)"
wait_until 10 '[ -z "$(ls -A "$tmp/t")" ]' && ok || fail "likelytop --exec | head left $(ls -A "$tmp/t")"
wait_until 10 '! pgrep -f "fake_writer.sh 0 0.05" >/dev/null' && ok ||
	fail "likelytop --exec | head left the command running"

# Interrupted: the command is stopped and its directory removed.
"$bin" -b --exec -- "$writer" 0 0.1 >/dev/null 2>&1 &
lt=$!
pids+=("$lt")
for i in $(seq 50); do ls "$tmp"/t/likelytop.*/[0-9]* >/dev/null 2>&1 && break; sleep 0.1; done
child=$(basename "$(ls "$tmp"/t/likelytop.*/[0-9]* | head -1)")
kill -TERM "$lt"
wait "$lt"
wait_until 10 '! kill -0 "$child" 2>/dev/null' && ok || fail "the --exec command $child survived likelytop"
[ -z "$(ls -A "$tmp/t")" ] && ok || fail "an interrupted --exec left $(ls -A "$tmp/t")"
finish
