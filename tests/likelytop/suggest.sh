# likelytop --suggest on the fixture tree tests/likelytop/suggest/tree: every
# shape of hint (one per line, two on a line told apart by kind, a call split
# over lines, nested parentheses, a hint inside an expression, two of a kind
# on a line, a hint hidden in a macro), every way a file is named (a path, a
# basename unique, resolved by content or ambiguous, an absolute user-space
# path, a missing file, a line mismatch) against golden patches; each patch
# of a series applies (git apply --check) and the patched tree compiles;
# thresholds, --suggest-out FILE and DIR, usage errors.
. "$(dirname "$0")/../cli/lib.sh"
bin=$(tool_path likelytop)
here="$SRC_DIR/tests/likelytop/suggest"
command -v git >/dev/null || skip_test "git is not installed (git apply checks the patches)"
command -v cc >/dev/null || skip_test "no C compiler (the patched fixture is compiled)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$here" || { fail "no $here"; finish; }

# --- goldens: stdout is the patches, stderr the refusals and the summary ----
for f in likely_prof branch_annotated; do
	run "$bin" --suggest tree -f "$f.txt"
	expect_rc 0 "$f: --suggest"
	if [ "$out" = "$(cat "golden/$f.patch")" ]; then ok; else
		fail "$f: patches differ from golden/$f.patch:"
		diff <(printf '%s\n' "$out") "golden/$f.patch" | head -30
	fi
	if [ "$err" = "$(cat "golden/$f.err")" ]; then ok; else
		fail "$f: report differs from golden/$f.err:"
		diff <(printf '%s\n' "$err") "golden/$f.err" | head -30
	fi
done
expect_match "$(cat golden/likely_prof.err)" '14 wrong hints .*: 4 patches for 8 of them, 6 refused' "likely_prof summary"

# --- a series: each patch applies alone, all in order, and still compiles ---
cp -r tree "$tmp/tree"
mkdir "$tmp/series"
run "$bin" --suggest "$tmp/tree" -f likely_prof.txt --suggest-out "$tmp/series"
expect_rc 0 "--suggest-out DIR"
[ -z "$out" ] && ok || fail "--suggest-out DIR wrote to stdout"
names=$(cd "$tmp/series" && ls)
want="0001-sched-fair-remove-unlikely-from-pick_next.patch
0002-lib-a-use-likely-instead-of-unlikely-in-util_parse.patch
0003-mm-slab-remove-unlikely-from-kfree.patch
0004-mm-slab-use-unlikely-instead-of-likely-in-slab_count.patch"
[ "$names" = "$want" ] && ok || fail "series names: $names"
for p in "$tmp/series"/*.patch; do
	(cd "$tmp/tree" && git apply --check "$p") && ok || fail "${p##*/} does not apply alone"
	grep -q '^Signed-off-by: YOUR NAME <YOUR.EMAIL@EXAMPLE.ORG>$' "$p" && ok ||
		fail "${p##*/}: no Signed-off-by placeholder"
done
for f in $(find "$tmp/tree" -name '*.c'); do
	cc -fsyntax-only -Wall -Werror "$f" || fail "the fixture ${f#$tmp/} does not compile before the patches"
done
for p in "$tmp/series"/*.patch; do
	(cd "$tmp/tree" && git apply "$p") && ok || fail "${p##*/} does not apply in series"
done
for f in $(find "$tmp/tree" -name '*.c'); do
	cc -fsyntax-only -Wall -Werror "$f" && ok || fail "${f#$tmp/} does not compile after the patches"
done
grep -q 'if (!objp)$' "$tmp/tree/mm/slab.c" && ok || fail "kfree's unlikely() not removed"
grep -q 'if (unlikely(counts\[i\] > 0))' "$tmp/tree/mm/slab.c" && ok || fail "slab_count's likely() not flipped"
grep -q '	if (rq->nr_running > 100 &&$' "$tmp/tree/kernel/sched/fair.c" && ok || fail "split call not unwrapped"
grep -q '^	    rq->idle == 0)$' "$tmp/tree/kernel/sched/fair.c" && ok || fail "split call's second line not realigned"
grep -q 'want && (rq->idle || rq->nr_running == 0)' "$tmp/tree/kernel/sched/fair.c" && ok || fail "parentheses kept where && needs them"
grep -q 'if (unlikely(a->idle) || unlikely(b->idle))' "$tmp/tree/kernel/sched/fair.c" && ok || fail "two hints of a kind on a line must stay"
grep -q 'WARN_ON(a->nr_running < 0)' "$tmp/tree/kernel/sched/fair.c" && ok || fail "the macro line must stay"

# --- the same series written to one file -------------------------------------
run "$bin" --suggest tree -f likely_prof.txt --suggest-out "$tmp/all.mbox"
expect_rc 0 "--suggest-out FILE"
sed "s|^Profile: likely_prof.txt$|Profile: likely_prof.txt|" "$tmp/all.mbox" | cmp -s - golden/likely_prof.patch && ok ||
	fail "--suggest-out FILE differs from standard output"

# --- never through a symlink (outfile.h): refused, the target untouched -----
echo precious >"$tmp/victim"
ln -s "$tmp/victim" "$tmp/single.patch"
run "$bin" --suggest tree -f likely_prof.txt --suggest-out "$tmp/single.patch"
expect_rc 1 "--suggest-out FILE that is a symlink"
expect_match "$err" "refusing to write $tmp/single.patch: it is a symbolic link" "symlink FILE: refused"
[ "$(cat "$tmp/victim")" = precious ] && ok || fail "symlink FILE: its target was written"
[ -L "$tmp/single.patch" ] && ok || fail "symlink FILE: the link was replaced"
mkdir "$tmp/ser2"
ln -s "$tmp/victim" "$tmp/ser2/0001-sched-fair-remove-unlikely-from-pick_next.patch"
run "$bin" --suggest tree -f likely_prof.txt --suggest-out "$tmp/ser2"
expect_rc 1 "--suggest-out DIR holding a symlink patch name"
expect_match "$err" "refusing to write $tmp/ser2/0001-.*: it is a symbolic link" "symlink in DIR: refused"
[ "$(cat "$tmp/victim")" = precious ] && ok || fail "symlink in DIR: its target was written"
[ "$(ls -A "$tmp/ser2" | wc -l)" = 1 ] && ok || fail "symlink in DIR: files left behind: $(ls -A "$tmp/ser2")"
ln -s "$tmp/series" "$tmp/serlink"
run "$bin" --suggest tree -f likely_prof.txt --suggest-out "$tmp/serlink"
expect_rc 1 "--suggest-out DIR that is a symlink"
expect_match "$err" "refusing to write $tmp/serlink: it is a symbolic link" "symlink DIR: refused"
# with trailing slashes too (bash's completion adds one), nothing written
# through the link (issue 41 item 3)
mkdir "$tmp/ser3"
ln -s "$tmp/ser3" "$tmp/serlink3"
for sl in / //; do
	run "$bin" --suggest tree -f likely_prof.txt --suggest-out "$tmp/serlink3$sl"
	expect_rc 1 "--suggest-out DIR$sl that is a symlink"
	expect_match "$err" "refusing to write $tmp/serlink3: it is a symbolic link" "symlink DIR$sl: refused"
	expect_eq "$(ls -A "$tmp/ser3")" "" "symlink DIR$sl: nothing written through it"
done
run "$bin" --suggest tree -f likely_prof.txt --suggest-out "$tmp/ser3//"
expect_rc 0 "--suggest-out DIR// (a directory)"
expect_eq "$(ls -A "$tmp/ser3")" "$names" "--suggest-out DIR//: the series written"
# an existing regular file is replaced whole (a new inode, renamed in)
echo old >"$tmp/old.patch"
ino=$(stat -c %i "$tmp/old.patch")
run "$bin" --suggest tree -f likely_prof.txt --suggest-out "$tmp/old.patch"
expect_rc 0 "--suggest-out over an existing file"
cmp -s "$tmp/old.patch" "$tmp/all.mbox" && ok || fail "existing FILE not replaced by the patches"
[ "$(stat -c %i "$tmp/old.patch")" != "$ino" ] && ok || fail "existing FILE written in place, not replaced"
[ -z "$(ls -A "$tmp" | grep '^\.')" ] && ok || fail "temporary files left: $(ls -A "$tmp")"

# --- the rule's thresholds ---------------------------------------------------
run "$bin" --suggest tree -f likely_prof.txt --flip-miss 99.995
expect_rc 0 "--flip-miss 99.995"
expect_match "$out" 'remove likely\(\) from slab_count' "99.99% misses: removed, not flipped, under --flip-miss 99.995"
expect_match "$out" 'action:    remove the hint \(misses above 50%, not above 99.995%\)' "the rule in the body"
run "$bin" --suggest tree -f likely_prof.txt --min-miss 80
expect_rc 0 "--min-miss 80"
expect_match "$err" 'wrong hints \(at least 1000 evaluations, misses above 80%\): ' "--min-miss in the summary"
if printf '%s\n' "$out" | grep -q 'kfree'; then fail "kfree (55.5%) patched under --min-miss 80"; else ok; fi
run "$bin" --suggest tree -f likely_prof.txt --min-total 1
expect_rc 0 "--min-total 1"
expect_match "$err" '15 wrong hints \(at least 1 evaluation,' "--min-total 1 adds the site evaluated 10 times"
run "$bin" --suggest tree -f likely_prof.txt --filter slab
expect_rc 0 "--filter"
expect_match "$err" ': 2 patches for 2 of them, 2 refused$' "--filter slab: only mm/slab.c's sites"

# --- never out of the tree ---------------------------------------------------
mkdir -p "$tmp/t2/mm"
cp tree/mm/slab.c "$tmp/t2/mm/"
mkdir -p "$tmp/outside" && cp tree/mm/slab.c "$tmp/outside/evil.c"
ln -s "$tmp/outside" "$tmp/t2/link"
printf '%s\n' 'Likely Profiling Results' ' ---' '[+- ] Type | # True | # False | Function:Filename@Line' \
	"+unlikely |    84123|    67321	kfree()@:link/evil.c@12" \
	"+unlikely |    84123|    67321	kfree()@:../outside/evil.c@12" \
	"+unlikely |    84123|    67321	kfree()@:evil.c@12" >"$tmp/esc.txt"
run "$bin" --suggest "$tmp/t2" -f "$tmp/esc.txt"
expect_rc 0 "a profile naming files out of the tree"
[ -z "$out" ] && ok || fail "a patch for a file out of the tree: $out"
expect_match "$err" '3 wrong hints .*: 0 patches for 0 of them, 3 refused' "symlink, .. and a basename only outside: all refused"

# --- likelytop(8)'s kfree example: the saved profile of the EXAMPLES, a tree
# whose mm/slab.c has kfree's unlikely(!objp) at line 3380 ------------------
mkdir -p "$tmp/linux/mm"
{ echo "// SPDX-License-Identifier: GPL-2.0-or-later"
  for i in $(seq 2 3374); do echo "/* $i */"; done
  printf '%s\n' 'void kfree(const void *objp)' '{' '	struct kmem_cache *c;' \
	'	unsigned long flags;' '' '	if (unlikely(!objp))' '		return;' '	local_irq_save(flags);' '}'
} >"$tmp/linux/mm/slab.c"
[ "$(sed -n 3380p "$tmp/linux/mm/slab.c")" = '	if (unlikely(!objp))' ] && ok || fail "kfree fixture: wrong line"
run "$bin" --suggest "$tmp/linux" -f "$SRC_DIR/tests/likelytop/data/likely_prof.txt" --filter kfree
expect_rc 0 "the man page's kfree example"
man_lines='Subject: [PATCH] mm/slab: remove unlikely() from kfree()
  hint:      unlikely(!objp)
  in:        kfree(), mm/slab.c:3380
  correct:   67321
  incorrect: 84123 (55.5% of 151444 evaluations)
  action:    remove the hint (misses above 50%, not above 90%)
Signed-off-by: YOUR NAME <YOUR.EMAIL@EXAMPLE.ORG>
 mm/slab.c | 2 +-
-	if (unlikely(!objp))
+	if (!objp)'
while IFS= read -r l; do
	printf '%s\n' "$out" | grep -qxF -- "$l" && ok || fail "kfree example: no line '$l' in: $out"
done <<<"$man_lines"

# --- --sysroot: the profile from the captured tree, the source tree as typed
# on the host (it was resolved on the host, then opened beneath the sysroot)
mkdir -p "$tmp/sr/proc"
cp likely_prof.txt "$tmp/sr/proc/likely_prof"
run "$bin" --suggest tree -f likely_prof.txt
want=$out
run "$bin" --sysroot "$tmp/sr" --suggest tree
expect_rc 0 "--suggest under --sysroot"
expect_eq "$(printf '%s\n' "$out" | grep -v '^Profile: ')" "$(printf '%s\n' "$want" | grep -v '^Profile: ')" \
	"--suggest under --sysroot: the same patches as with -f"

# --- usage and failures ----------------------------------------------------------
run "$bin" --suggest "$tmp/none" -f likely_prof.txt
expect_rc 1 "a missing source tree"
expect_match "$err" "cannot open the source tree $tmp/none: no such file or directory" "missing tree message"
run "$bin" -b -f likely_prof.txt --suggest-out "$tmp/x"
expect_rc 2 "--suggest-out without --suggest"
run "$bin" -b -f likely_prof.txt --min-miss 60
expect_rc 2 "--min-miss without --suggest or -S"
expect_match "$err" "min-miss and --flip-miss need --suggest \\(or -S" "--min-miss alone message"
run "$bin" --suggest tree -f likely_prof.txt --min-miss 100
expect_rc 2 "--min-miss 100"
expect_match "$err" "invalid minimum miss rate '100'" "--min-miss range message"
run "$bin" --suggest tree -f likely_prof.txt --min-miss 95 --flip-miss 90
expect_rc 2 "--min-miss above --flip-miss"
run "$bin" --suggest tree -f likely_prof.txt --format json
expect_rc 2 "--suggest with --format"
run "$bin" --suggest tree -f likely_prof.txt --suggest-out "$tmp/nodir/"
expect_rc 1 "--suggest-out into a missing directory"
expect_match "$err" "cannot write $tmp/nodir/: no such file or directory" "missing output directory message"
finish
