# likelytop --suggest on user-space profiles (likely_prof.h): lp_prog's
# wrong likely() (750 of 1000 wrong) becomes a patch against its own
# source, from --exec (the final snapshot) and from a saved snapshot; its
# __FILE__ is the absolute path the build used, resolved beneath SRCDIR
# or, in a copy of the tree, by its longest suffix found there.
. "$SRC_DIR/tests/cli/lib.sh"
LT=$(tool_path likelytop)
P=$BUILD_DIR/tests/likelyprof/lp_prog
SRC=$SRC_DIR/tests/likelyprof
command -v git >/dev/null || skip_test "git is not installed (git apply checks the patch)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/prof" "$work/t"
export LIKELY_PROF_DIR=$work/prof TMPDIR=$work/t
unset XDG_RUNTIME_DIR LIKELY_PROF_INTERVAL_MS
wrong=$(grep -n "SITE:known_wrong_likely \*/" "$SRC/lp_prog.c" | cut -d: -f1)

# --exec: run it, suggest from its final snapshot
run "$LT" --suggest "$SRC" --exec -- "$P" known
expect_rc 0 "--suggest --exec"
expect_match "$err" '1 wrong hint \(at least 1000 evaluations, misses above 50%\): 1 patch for 1 of them, 0 refused' "summary"
expect_match "$out" 'Subject: \[PATCH\] lp_prog: remove likely\(\) from known\(\)' "subject"
expect_match "$out" "in:        known\(\), lp_prog.c:$wrong" "the site"
expect_match "$out" 'incorrect: 750 \(75\.0% of 1000 evaluations\)' "the counts"
printf '%s\n' "$out" >"$work/exec.patch"
mkdir "$work/copy"
cp "$SRC/lp_prog.c" "$work/copy/"
(cd "$work/copy" && git apply --check "$work/exec.patch") && ok || fail "the patch does not apply"
(cd "$work/copy" && git apply "$work/exec.patch") && ok || fail "the patch does not apply"
grep -q '		if (i % 4 == 0) /\* SITE:known_wrong_likely \*/' "$work/copy/lp_prog.c" && ok ||
	fail "likely() not removed: $(sed -n "${wrong}p" "$work/copy/lp_prog.c")"
cc -fsyntax-only -Wall -Werror -DLIKELY_PROF -I"$SRC_DIR/lib/likelyprof" "$work/copy/lp_prog.c" && ok ||
	fail "the patched program does not compile"

# A saved snapshot against a copy elsewhere: the longest suffix of the
# profile's path that names a file there.
"$P" known
snap=$(ls "$work/prof" | head -1)
mkdir -p "$work/tree/likelyprof"
cp "$SRC/lp_prog.c" "$work/tree/likelyprof/"
run "$LT" --suggest "$work/tree" -f "$work/prof/$snap"
expect_rc 0 "--suggest -f snapshot, a copy of the tree"
expect_match "$out" "in:        known\(\), likelyprof/lp_prog.c:$wrong" "resolved by suffix"
expect_match "$out" "file:      $SRC/lp_prog.c in the profile" "the profile's path in the body"
printf '%s\n' "$out" >"$work/copy.patch"
(cd "$work/tree" && git apply --check "$work/copy.patch") && ok || fail "the copy's patch does not apply"

# The same snapshot naming a path far longer than a line (and with spaces):
# the body's "file:" line is never split, whatever the checkout's path.
long="/build root/$(printf 'a%.0s' $(seq 90))/x y/likelyprof/lp_prog.c"
sed "s|@:[^@]*/lp_prog\.c@|@:$long@|" "$work/prof/$snap" >"$work/long.prof"
grep -qF "$long" "$work/long.prof" && ok || fail "the long path was not put in the snapshot"
run "$LT" --suggest "$work/tree" -f "$work/long.prof"
expect_rc 0 "--suggest -f snapshot naming a long path"
printf '%s\n' "$out" | grep -qxF "  file:      $long in the profile" && ok ||
	fail "the long path's file: line was split: $(printf '%s\n' "$out" | grep -A1 'file:')"
finish
