# likely_prof.h's runtime, seen from outside: the snapshot file a profiled
# program leaves in $LIKELY_PROF_DIR/<pid>, exact counts (also with
# threads), shared-library sites, interval snapshots, forked children, the
# default directory and its refusals, and a missing, read-only or full
# directory (the program runs on and says why on one stderr line).
. "$SRC_DIR/tests/cli/lib.sh"
T=$BUILD_DIR/tests/likelyprof
P=$T/lp_prog
SRC=$SRC_DIR/tests/likelyprof/lp_prog.c
DSO_SRC=$SRC_DIR/tests/likelyprof/lp_dso.c
work=$(mktemp -d)
mounted=
cleanup() {
	[ -z "$mounted" ] || umount "$mounted" 2>/dev/null
	chmod -R u+w "$work" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
unset XDG_RUNTIME_DIR LIKELY_PROF_INTERVAL_MS

line_of() {	# line_of FILE TAG: the line marked /* SITE:TAG */
	grep -n "SITE:$2 \*/" "$1" | cut -d: -f1
}
# run_prof DIR ARGS...: run lp_prog with LIKELY_PROF_DIR=DIR; sets $rc $out $err $pid
run_prof() {
	local d=$1; shift
	run env LIKELY_PROF_DIR="$d" sh -c 'echo $$ >"$0"; exec "$@"' "$work/pid" "$P" "$@"
	pid=$(cat "$work/pid")
}
expect_file_line() {	# expect_file_line FILE LINE what: LINE is a whole line of FILE
	if [ -f "$1" ] && grep -qxF -- "$2" "$1"; then ok; else
		fail "$3: no line '$2' in $1: $(cat "$1" 2>&1 | head -20)"
	fi
}
tab=$(printf '\t')

# 1. known outcomes: exact counts, flags, names, the seed's header
d=$work/known; mkdir "$d"
run_prof "$d" known
expect_rc 0 "lp_prog known"
[ -z "$err" ] && ok || fail "known: unexpected stderr: $err"
f=$d/$pid
[ -f "$f" ] && ok || fail "known: no snapshot $f (dir: $(ls -a "$d"))"
expect_file_line "$f" " unlikely |      100|      900${tab}known()@:$SRC@$(line_of "$SRC" known_unlikely)" "unlikely(i % 10 == 0)"
expect_file_line "$f" "-likely   |      250|      750${tab}known()@:$SRC@$(line_of "$SRC" known_wrong_likely)" "wrong likely() flagged -"
[ "$(head -3 "$f")" = "Likely Profiling Results
 --------------------------------------------------------------------
[+- ] Type | # True | # False | Function:Filename@Line" ] && ok || fail "header: $(head -3 "$f")"
[ "$(wc -l <"$f")" = 5 ] && ok || fail "known: expected 3 header lines and 2 rows: $(cat "$f")"
# newest first-hit first: the likely() site was first hit after the unlikely() one
[ "$(sed -n 4p "$f" | cut -c1-9)" = "-likely  " ] && ok || fail "order: $(cat "$f")"
[ -z "$(ls -A "$d" | grep -v "^$pid\$")" ] && ok || fail "known: stray files: $(ls -A "$d")"
[ "$(stat -c %a "$f")" = 600 ] && ok || fail "snapshot mode $(stat -c %a "$f")"

# 2. four threads x 1,000,000 iterations: exact totals
d=$work/threads; mkdir "$d"
run_prof "$d" threads 4 1000000
expect_rc 0 "lp_prog threads"
expect_file_line "$d/$pid" " unlikely |  1000000|  3000000${tab}thread_main()@:$SRC@$(line_of "$SRC" threads)" "4 threads x 1e6"

# 3. a site in a shared library linked at build time, and one dlopen()ed and dlclose()d
d=$work/dso; mkdir "$d"
run_prof "$d" dso
expect_rc 0 "lp_prog dso"
expect_file_line "$d/$pid" " unlikely |       50|       50${tab}lp_dso_work()@:$DSO_SRC@$(line_of "$DSO_SRC" dso)" "shared-library site"
d=$work/dlopen; mkdir "$d"
run_prof "$d" dlopen "$T/liblp_dlopen.so"
expect_rc 0 "lp_prog dlopen ($err)"
expect_file_line "$d/$pid" " unlikely |        5|        5${tab}lp_dso_work()@:$DSO_SRC@$(line_of "$DSO_SRC" dso)" "site of a dlclose()d library"

# 4. a forked child writes its own profile, from zero
d=$work/fork; mkdir "$d"
run_prof "$d" fork
expect_rc 0 "lp_prog fork"
child=$out
expect_file_line "$d/$pid" "+unlikely |        1|        0${tab}forked()@:$SRC@$(line_of "$SRC" fork_parent)" "parent's profile"
expect_file_line "$d/$child" " likely   |        3|        0${tab}forked()@:$SRC@$(line_of "$SRC" fork_child)" "child's profile"
grep -q fork_child "$d/$pid" 2>/dev/null; grep -q "@$(line_of "$SRC" fork_parent)\$" "$d/$child" &&
	fail "the child's profile has the parent's site: $(cat "$d/$child")" || ok

# 5. interval snapshots while the program runs (and a higher count at exit)
d=$work/interval; mkdir "$d"
LIKELY_PROF_DIR=$d LIKELY_PROF_INTERVAL_MS=100 "$P" run 1500 &
bg=$!
seen=
for _ in $(seq 1 50); do
	sleep 0.1
	[ -f "$d/$bg" ] && grep -q "run_for()@" "$d/$bg" && { seen=$(grep "run_for()@" "$d/$bg"); break; }
done
kill -0 $bg 2>/dev/null && ok || fail "interval: the program ended before a snapshot was seen"
[ -n "$seen" ] && ok || fail "interval: no snapshot with the site while running"
wait $bg
rc=$?
expect_rc 0 "lp_prog run"
final=$(grep "run_for()@" "$d/$bg")
[ "$(echo "$final" | cut -d'|' -f2 | tr -d ' ')" = 1500 ] && ok || fail "interval: exit count: $final"
[ "$(echo "$seen" | cut -d'|' -f2 | tr -d ' ')" -lt 1500 ] && ok || fail "interval: the running snapshot already had the final count: $seen"

# 6. missing directory: runs on, exit 0, one line on stderr saying why
run_prof "$work/missing" known
expect_rc 0 "missing dir: exit status"
[ "$(printf '%s\n' "$err" | wc -l)" = 1 ] && ok || fail "missing dir: expected one stderr line: $err"
expect_match "$err" "^likely_prof: pid [0-9]+: profiles not written: cannot open LIKELY_PROF_DIR '$work/missing': No such file or directory$" "missing dir message"

# 7. read-only directory
d=$work/ro; mkdir "$d"
if [ "$(id -u)" = 0 ]; then
	if unshare -m true 2>/dev/null; then
		run unshare -m sh -c 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" &&
			LIKELY_PROF_DIR="$1" exec "$2" known' sh "$d" "$P"
	else
		echo "note: read-only case not run: needs unshare -m as root"; rc=skip
	fi
else
	chmod 0500 "$d"
	run env LIKELY_PROF_DIR="$d" "$P" known
fi
if [ "$rc" != skip ]; then
	expect_rc 0 "read-only dir: exit status"
	[ "$(printf '%s\n' "$err" | wc -l)" = 1 ] && ok || fail "read-only dir: expected one stderr line: $err"
	expect_match "$err" "^likely_prof: pid [0-9]+: profiles not written: cannot write to '$d': (Read-only file system|Permission denied)$" "read-only dir message"
	[ -z "$(ls -A "$d")" ] && ok || fail "read-only dir: files left: $(ls -A "$d")"
fi

# 8. full directory (a full tmpfs): root only
if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
	d=$work/full; mkdir "$d"
	run unshare -m sh -c 'mount -t tmpfs -o size=4k,mode=0700 lpfull "$1" &&
		(dd if=/dev/zero of="$1/fill" bs=4096 count=4 2>/dev/null; true) &&
		LIKELY_PROF_DIR="$1" exec "$2" threads 2 1000' sh "$d" "$P"
	expect_rc 0 "full dir: exit status"
	[ "$(printf '%s\n' "$err" | wc -l)" = 1 ] && ok || fail "full dir: expected one stderr line: $err"
	expect_match "$err" "profiles not written: cannot write to '$d': No space left on device$" "full dir message"
else
	echo "note: full-directory case not run: needs root and unshare -m"
fi

# 9. the default directory: $XDG_RUNTIME_DIR/likely_prof, else $HOME/.cache/likely_prof, mode 0700
x=$work/xdg; mkdir "$x"
run env -u LIKELY_PROF_DIR XDG_RUNTIME_DIR="$x" "$P" known
expect_rc 0 "xdg default"
[ -z "$err" ] && ok || fail "xdg default: stderr: $err"
[ "$(stat -c %a "$x/likely_prof" 2>&1)" = 700 ] && ok || fail "xdg default: $x/likely_prof mode $(stat -c %a "$x/likely_prof" 2>&1)"
[ "$(ls "$x/likely_prof" | wc -l)" = 1 ] && ok || fail "xdg default: expected one profile: $(ls -A "$x/likely_prof")"
h=$work/home; mkdir "$h"
run env -u LIKELY_PROF_DIR -u XDG_RUNTIME_DIR HOME="$h" "$P" known
expect_rc 0 "home default"
[ "$(stat -c %a "$h/.cache/likely_prof" 2>&1)" = 700 ] && ok || fail "home default: mode $(stat -c %a "$h/.cache/likely_prof" 2>&1)"
[ "$(ls "$h/.cache/likely_prof" | wc -l)" = 1 ] && ok || fail "home default: expected one profile"
# a symlink planted where the default directory goes is refused
s=$work/sym; mkdir -p "$s" "$work/elsewhere"; ln -s "$work/elsewhere" "$s/likely_prof"
run env -u LIKELY_PROF_DIR XDG_RUNTIME_DIR="$s" "$P" known
expect_rc 0 "symlinked default: exit status"
expect_match "$err" "^likely_prof: pid [0-9]+: profiles not written: '$s/likely_prof' is a symbolic link or not a directory$" "symlinked default refused"
[ -z "$(ls -A "$work/elsewhere")" ] && ok || fail "symlinked default: wrote through the symlink"
# a default directory owned by another user is refused
if [ "$(id -u)" = 0 ]; then
	o=$work/other; mkdir -p "$o/likely_prof"; chown 65534 "$o/likely_prof"
	run env -u LIKELY_PROF_DIR XDG_RUNTIME_DIR="$o" "$P" known
	expect_rc 0 "foreign default: exit status"
	expect_match "$err" "'$o/likely_prof' is owned by uid 65534 or writable by others, not private$" "foreign default refused"
	[ -z "$(ls -A "$o/likely_prof")" ] && ok || fail "foreign default: wrote into it"
fi

# 10. a FIFO or a symlink planted as the temporary file (a shared
# LIKELY_PROF_DIR): the program exits promptly (SIGTERM blocked, as a
# daemon may have it), the profile is written, the planted objects and the
# symlink's target are untouched, and nothing else is left behind.
for kind in fifo symlink dangling; do
	d=$work/planted-$kind; mkdir "$d"
	printf 'precious\n' >"$work/target-$kind"
	run timeout -s KILL 10 env LIKELY_PROF_DIR="$d" LIKELY_PROF_INTERVAL_MS=20 sh -c '
		case $1 in
		fifo) mkfifo "$2/.$$.tmp" ;;
		symlink) ln -s "$3" "$2/.$$.tmp" ;;
		dangling) ln -s "$2/nowhere" "$2/.$$.tmp" ;;
		esac
		echo $$ >"$4"; trap "" TERM; exec "$5" run 200' sh "$kind" "$d" "$work/target-$kind" "$work/pid" "$P"
	pid=$(cat "$work/pid")
	expect_rc 0 "planted $kind: the program must exit by itself ($err)"
	[ -z "$err" ] && ok || fail "planted $kind: stderr: $err"
	grep -q "run_for()@" "$d/$pid" 2>/dev/null && ok || fail "planted $kind: no profile: $(ls -la "$d")"
	case $kind in
	fifo) [ -p "$d/.$pid.tmp" ] ;;
	*) [ -L "$d/.$pid.tmp" ] ;;
	esac && ok || fail "planted $kind: the planted object was replaced: $(ls -la "$d")"
	[ "$(cat "$work/target-$kind")" = precious ] && ok || fail "planted $kind: the symlink's target was written"
	[ ! -e "$d/nowhere" ] && ok || fail "planted $kind: created the dangling symlink's target"
	[ "$(ls -A "$d" | sort | tr '\n' ' ')" = "$(printf '%s\n' ".$pid.tmp" "$pid" | sort | tr '\n' ' ')" ] && ok ||
		fail "planted $kind: stray files: $(ls -A "$d")"
done

# 11. without LIKELY_PROF: no runtime linked, no file, nothing on stderr
d=$work/plain; mkdir "$d"
run env LIKELY_PROF_DIR="$d" "$T/lp_prog_plain" known
expect_rc 0 "plain build"
[ -z "$(ls -A "$d")$err" ] && ok || fail "plain build wrote '$(ls -A "$d")' / '$err'"
nm "$T/lp_prog_plain" | grep -q likely_prof && fail "plain build references likely_prof symbols" || ok
finish
