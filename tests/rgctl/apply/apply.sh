#!/bin/bash
# apply.sh [cgroup1|cgroup2]: rgctl apply/dump on the real cgroup v1 cpu
# hierarchy or on cgroup v2 (a private subtree): dry run, apply,
# idempotence, dump round trip, share changes (v1), --prune, rollback
# after an injected failure, configuration errors, files that are not
# regular (a FIFO, also through @include), @include, 64-bit integers, and
# a report that cannot be written (> /dev/full) after the changes.
. "$SRC_DIR/tests/rgctl/tasks_lib.sh"
BACKEND=${1:-cgroup1}
if [ "$BACKEND" = cgroup2 ]; then
	require_root "apply writes to cgroupfs"
	CPU=$(awk '{ for (i = 7; $i != "-"; i++); if ($(i+1) == "cgroup2") { print $5; exit } }' /proc/self/mountinfo)
	[ -n "$CPU" ] || skip_test "no cgroup v2 hierarchy mounted"
	WORK=$(mktemp -d)
	export RGCTL_RUNDIR="$WORK/run"
	ROOT="$CPU/rgdtest.apply.$$.$RANDOM"
	mkdir "$ROOT" 2>/dev/null || skip_test "cannot create a group under $CPU (not writable here)"
	trap rgd_cleanup EXIT
else
	rgd_setup apply
fi
needs_libconfig
R=(--backend "$BACKEND" --root "$ROOT")
cd "$WORK" || exit 1

if [ "$BACKEND" = cgroup2 ]; then
	cat >a.conf <<'CONF'
backend = "cgroup2";
groups = ( { name = "db/batch"; }, { name = "db"; }, { name = "web"; } );
CONF
	run "$RGCTL" "${R[@]}" apply --dry-run a.conf
	expect_match "$out" $'^create db\ncreate web\ncreate db/batch\n3 changes \\(dry run' "v2 dry run plan"
	[ -d "$ROOT/db" ] && fail "dry run created a group" || ok
	run "$RGCTL" "${R[@]}" apply a.conf
	expect_rc 0 "v2 apply"
	[ -d "$ROOT/db/batch" ] && [ -d "$ROOT/web" ] && ok || fail "v2 groups missing"
	run "$RGCTL" "${R[@]}" apply a.conf
	[ "$out" = "0 changes" ] && ok || fail "v2 second apply printed '$out'"
	run "$RGCTL" "${R[@]}" dump
	expect_rc 0 "v2 dump"
	printf '%s\n' "$out" >dump1.conf
	run "$RGCTL" "${R[@]}" apply dump1.conf
	[ "$out" = "0 changes" ] && ok || fail "v2: applying the dump printed '$out'"
	if ! grep -qw cpu "$CPU/cgroup.subtree_control" 2>/dev/null; then
		printf 'groups = ({ name = "sh"; shares = 100; });\n' >s.conf
		run "$RGCTL" "${R[@]}" apply s.conf
		expect_rc 1 "v2 shares without cpu"
		expect_match "$err" "s.conf:1: groups: 'sh' has shares but" "v2 shares message"
		[ -d "$ROOT/sh" ] && fail "v2: a refused file created sh" || ok
	fi
	# rollback: step 2 fails, step 1 is undone
	printf 'groups = ({ name = "db"; }, { name = "db/batch"; }, { name = "web"; },\n { name = "new1"; }, { name = "new2"; });\n' >c.conf
	run env RGCTL_APPLY_FAIL_STEP=2 "$RGCTL_FAULTS" "${R[@]}" apply c.conf
	expect_rc 1 "v2 failed apply"
	expect_match "$err" "undid the 1 change already made: nothing changed" "v2 rollback reported"
	[ -d "$ROOT/new1" ] && fail "v2: new1 left behind" || ok
	# --prune: the member of a pruned group moves to the parent; only
	# groups rgctl made go (the xattr mark), not one made by mkdir
	"$RGCTL" "${R[@]}" create -p stray/sub
	mkdir "$ROOT/foreign" "$ROOT/db/foreign"
	sleep 30 & PIDS+=($!)
	echo $! >"$ROOT/stray/sub/cgroup.procs"
	run "$RGCTL" "${R[@]}" apply --prune c.conf
	expect_rc 0 "v2 prune"
	[ -d "$ROOT/stray" ] && fail "v2: stray not pruned" || ok
	in_group "${PIDS[0]}" . && ok || fail "v2: the pruned group's member did not move to the root"
	[ -d "$ROOT/foreign" ] && [ -d "$ROOT/db/foreign" ] && ok || fail "v2: prune deleted a group rgctl did not make"
	expect_match "$err" "--prune keeps 2 groups rgctl did not create \(or above one\): foreign, db/foreign" "v2: kept groups named"
	run "$RGCTL" "${R[@]}" dump
	expect_match "$out" '"db"; },  # made by rgctl' "v2 dump marks db"
	expect_match "$out" '"foreign"; },?$' "v2 dump leaves foreign unmarked"
	# an old-style registry line (inode and name, issue 24) claims
	# nothing: only the group's own xattr counts where there is one
	"$RGCTL" "${R[@]}" create st
	mkdir "$ROOT/st2"; mkdir -p "$RGCTL_RUNDIR"
	echo "$(stat -c %i "$ROOT/st2") ${ROOT#"$CPU"/}/st2" >"$RGCTL_RUNDIR/owned.$(stat -c '%Hd-%Ld' "$ROOT")"
	run "$RGCTL" "${R[@]}" apply --prune c.conf
	[ -d "$ROOT/st" ] && fail "v2: st not pruned" || ok
	[ -d "$ROOT/st2" ] && ok || fail "v2: st2 (mkdir) pruned"
	rmdir "$ROOT/foreign" "$ROOT/db/foreign" "$ROOT/st2"
fi

if [ "$BACKEND" = cgroup1 ]; then

cat >a.conf <<'CONF'
backend = "cgroup1";
groups = (
  { name = "db/batch"; shares = 256; },   // parents need not come first
  { name = "db";       shares = 2048; },
  { name = "web"; }
);
rules = (
  { group = "db"; comm = "postgres"; }
);
CONF

# dry run: the plan, nothing made
run "$RGCTL" "${R[@]}" apply --dry-run a.conf
expect_rc 0 "dry run"
expect_match "$out" $'^create db shares=2048\ncreate web\ncreate db/batch shares=256\n3 changes \\(dry run' "dry run plan"
[ -d "$ROOT/db" ] && fail "dry run created a group" || ok

# apply, then again: nothing to do
run "$RGCTL" "${R[@]}" apply a.conf
expect_rc 0 "apply"
expect_match "$out" $'create db shares=2048\ncreate web\ncreate db/batch shares=256\n3 changes$' "apply output"
[ "$(cat "$ROOT/db/cpu.shares")" = 2048 ] && ok || fail "db shares not 2048"
[ "$(cat "$ROOT/db/batch/cpu.shares")" = 256 ] && ok || fail "db/batch shares not 256"
run "$RGCTL" "${R[@]}" apply a.conf
expect_rc 0 "second apply"
[ "$out" = "0 changes" ] && ok || fail "second apply printed '$out'"

# dump -> apply is a no-op; dump of the result is identical
run "$RGCTL" "${R[@]}" dump
expect_rc 0 "dump"
printf '%s\n' "$out" >dump1.conf
expect_match "$out" '\{ name = "db/batch"; shares = 256; \}' "dump lists db/batch"
expect_match "$out" '\{ name = "web"; shares = 1024; \}' "dump lists web with its shares"
run "$RGCTL" "${R[@]}" apply dump1.conf
[ "$out" = "0 changes" ] && ok || fail "applying the dump printed '$out'"
run "$RGCTL" "${R[@]}" dump
[ "$out" = "$(cat dump1.conf)" ] && ok || fail "dump changed after applying it"

# a group another tool named with bytes rgctl cannot use (a terminal escape,
# a byte that is not UTF-8): dump leaves it and its children out and says so,
# the dump still applies as a no-op, --prune leaves it, whereis escapes it
odd=$(printf 'odd\033[31m\377')
mkdir "$ROOT/$odd" "$ROOT/$odd/kid"
run "$RGCTL" "${R[@]}" dump
expect_rc 0 "dump with an unusable name"
expect_match "$err" "left out 'odd\\\\x1b\\[31m\\\\xff' \\(the name contains a non-printable or non-ASCII byte\\)" "dump names what it left out"
expect_match "$out" '# left out: 2 groups whose names rgctl cannot use' "dump's comment counts the groups left out"
case $out in *odd*) fail "dump printed the unusable name: $out" ;; *) ok ;; esac
printf '%s\n' "$out" >dump_odd.conf
run "$RGCTL" "${R[@]}" apply --prune dump_odd.conf
[ "$rc" = 0 ] && [ "$out" = "0 changes" ] && ok || fail "applying a dump that left a group out: rc $rc, '$out' $err"
[ -d "$ROOT/$odd/kid" ] && ok || fail "apply --prune removed a group the dump left out"
for form in "" -r; do
	run "$RGCTL" "${R[@]}" list $form
	case $out in *$'\033'* | *$'\377'*) fail "list $form printed the name's raw bytes" ;; *) ok ;; esac
	expect_match "$out" 'odd\\x1b\[31m' "list $form shows the odd group, escaped"
done
sleep 60 & oddpid=$!
echo "$oddpid" >"$ROOT/$odd/kid/tasks"
run "$RGCTL" "${R[@]}" whereis "$oddpid"
[ "$out" = 'odd\x1b[31m\xff/kid' ] && ok || fail "whereis printed '$(printf %s "$out" | od -c | head -2)'"
kill "$oddpid"; wait "$oddpid" 2>/dev/null
rmdir "$ROOT/$odd/kid" "$ROOT/$odd"

# a share change is one change and says what it was
sed 's/2048/4096/' a.conf >b.conf
run "$RGCTL" "${R[@]}" apply b.conf
expect_match "$out" $'^set db shares=4096 \\(was 2048\\)\n1 change$' "share change"
[ "$(cat "$ROOT/db/cpu.shares")" = 4096 ] && ok || fail "db shares not 4096"

# rollback: step 3 fails, steps 1 and 2 are undone
cat >c.conf <<'CONF'
groups = (
  { name = "db"; shares = 512; },
  { name = "new1"; shares = 300; },
  { name = "new2"; },
  { name = "web"; }
);
CONF
run env RGCTL_APPLY_FAIL_STEP=3 "$RGCTL_FAULTS" "${R[@]}" apply c.conf
expect_rc 1 "failed apply"
expect_match "$err" "step 3 of 3 \\(create new2\\) failed: failure injected" "failure names the step and cause"
expect_match "$err" "undid the 2 changes already made: nothing changed" "rollback reported"
[ -z "$out" ] && ok || fail "a failed apply printed changes: $out"
[ "$(cat "$ROOT/db/cpu.shares")" = 4096 ] && ok || fail "db shares not restored"
[ -d "$ROOT/new1" ] && fail "new1 left behind" || ok
# and the same file applies cleanly afterwards
run "$RGCTL" "${R[@]}" apply c.conf
expect_match "$out" '3 changes$' "apply after rollback"

# --prune: groups not in the file go, their members move to the parent;
# only groups rgctl made (its state file), never one made otherwise, nor
# one made by rgctl and then removed and made again by someone else
"$RGCTL" "${R[@]}" create -p stray/sub
"$RGCTL" "${R[@]}" create reused && rmdir "$ROOT/reused" && mkdir "$ROOT/reused" "$ROOT/foreign"
sleep 30 & PIDS+=($!)
echo $! >"$ROOT/stray/sub/cgroup.procs"
run "$RGCTL" "${R[@]}" apply --prune --dry-run c.conf
expect_match "$out" $'^delete stray/sub\n(.*\n)*delete stray$' "prune plan: children first"
expect_match "$out" '^delete db/batch$' "prune plan: db/batch"
expect_match "$out" '^3 changes \(dry run' "prune plan: 3 changes (reused and foreign kept)"
[ -d "$ROOT/stray/sub" ] && ok || fail "dry-run prune deleted"
run "$RGCTL" "${R[@]}" apply --prune c.conf
expect_rc 0 "prune"
[ -d "$ROOT/stray" ] && fail "stray not pruned" || ok
in_group "${PIDS[0]}" . && ok || fail "the pruned group's member did not move to the root"
[ -d "$ROOT/foreign" ] && [ -d "$ROOT/reused" ] && ok || fail "prune deleted a group rgctl did not make"
expect_match "$err" "keeps 2 groups rgctl did not create" "kept groups reported"
run "$RGCTL" "${R[@]}" apply --prune c.conf
[ "$out" = "0 changes" ] && ok || fail "prune not idempotent: $out"
rmdir "$ROOT/foreign" "$ROOT/reused"

# configuration errors: FILE:LINE and the key, nothing applied
printf 'groups = (\n  { name = "e1"; colour = "red"; }\n);\n' >e1.conf
run "$RGCTL" "${R[@]}" apply e1.conf
expect_rc 1 "unknown key"
expect_match "$err" '^rgctl: e1.conf:2: groups\[1\]\.colour: unknown key' "unknown key message"
printf 'groups = (\n  { name = "e2" \n' >e2.conf
run "$RGCTL" "${R[@]}" apply e2.conf
expect_rc 1 "syntax error"
expect_match "$err" '^rgctl: e2.conf:[23]: syntax error' "syntax error message"
printf 'groups = ({ name = "e3"; },\n { name = "e4"; shares = 1; });\n' >e3.conf
run "$RGCTL" "${R[@]}" apply e3.conf
expect_rc 1 "shares out of range"
expect_match "$err" "e3.conf:2: shares: '1' is not valid for cgroup1" "range message"
printf 'groups = ({ name = "e5"; });\nrules = ({ group = "e5"; user = "no-such-user-rgd"; });\n' >e5.conf
run "$RGCTL" "${R[@]}" apply e5.conf
expect_rc 1 "unknown user"
expect_match "$err" "e5.conf:2: rules\\[1\\]\\.user: no such user 'no-such-user-rgd'" "unknown user message"
printf 'backend = "cgroup2";\ngroups = ({ name = "e6"; });\n' >e6.conf
run "$RGCTL" "${R[@]}" --backend cgroup1 apply e6.conf
expect_rc 1 "backend mismatch"
expect_match "$err" "e6.conf names backend cgroup2 but --backend is cgroup1" "backend mismatch message"
for g in e1 e2 e3 e4 e5 e6; do [ -d "$ROOT/$g" ] && fail "$g created by a bad file" || ok; done
fi

run "$RGCTL" "${R[@]}" apply nope.conf
expect_rc 1 "missing file"
expect_match "$err" "nope.conf: No such file or directory" "missing file message"
run "$RGCTL" "${R[@]}" apply
expect_rc 2 "no FILE"

# integers that do not fit: refused, never cut to 32 bits
printf 'groups = ({ name = "big"; },\n { name = "big2"; shares = 4294968320; });\n' >big.conf
run "$RGCTL" "${R[@]}" apply big.conf
expect_rc 1 "shares 2^32 + 1024"
expect_match "$err" "^rgctl: big.conf:2: groups\[2\]\.shares: 4294968320 is out of range" "big shares message"
printf 'groups = ({ name = "big"; });\nrules = ({ group = "big"; uid = 4294967296; });\n' >uid.conf
run "$RGCTL" "${R[@]}" apply uid.conf
expect_rc 1 "uid 2^32"
expect_match "$err" "^rgctl: uid.conf:2: rules\[1\]\.uid: 4294967296 is out of range" "big uid message"
[ -d "$ROOT/big" ] && fail "a refused file created big" || ok

# not a regular file: refused at once, also through @include
mkfifo fifo.conf
run timeout 10 "$RGCTL" "${R[@]}" apply fifo.conf
expect_rc 1 "apply on a FIFO"
expect_match "$err" "fifo.conf: not a regular file \(a FIFO\)" "FIFO message"
printf 'groups = (\n  { name = "inc0"; },\n  @include "fifo.conf"\n);\n' >inc-fifo.conf
run timeout 10 "$RGCTL" "${R[@]}" apply inc-fifo.conf
expect_rc 1 "@include of a FIFO"
expect_match "$err" "inc-fifo.conf:3: @include: fifo.conf: not a regular file \(a FIFO\)" "@include FIFO message"
run timeout 10 "$RGCTL" "${R[@]}" apply /dev/null/x
expect_rc 1 "a path through a device"
[ -d "$ROOT/inc0" ] && fail "a refused @include created inc0" || ok
# @include of a regular file: relative to the including file
mkdir -p parts
printf '{ name = "inc1"; },\n{ name = "inc1/x"; colour = 1; }\n' >parts/bad.inc
printf 'groups = (\n  @include "parts/bad.inc"\n);\n' >inc-bad.conf
run "$RGCTL" "${R[@]}" apply inc-bad.conf
expect_rc 1 "error in an included file"
expect_match "$err" "parts/bad.inc:2: groups\[2\]\.colour: unknown key" "included file named in the message"
printf '{ name = "inc1"; },\n{ name = "inc1/x"; }\n' >parts/g.inc
printf 'groups = (\n  { name = "inc0"; },\n  @include "parts/g.inc"\n);\n' >inc.conf
run "$RGCTL" "${R[@]}" apply inc.conf
expect_rc 0 "@include"
[ -d "$ROOT/inc0" ] && [ -d "$ROOT/inc1/x" ] && ok || fail "@include'd groups missing"

# the report cannot be written: the changes were made, and stderr says so
printf 'groups = ({ name = "full1"; });\n' >full.conf
"$RGCTL" "${R[@]}" apply full.conf >/dev/full 2>full.err
rc=$? err=$(cat full.err)
expect_rc 1 "apply > /dev/full"
expect_match "$err" "'full.conf' was applied \(1 change made\), but the report could not be written to standard output: no space left on device" "/dev/full message"
[ -d "$ROOT/full1" ] && ok || fail "apply > /dev/full did not make full1"
finish
