# likelytop --suggest over names another program chose (issue 41): a
# saved trace's caller and module names (--callers-from), the module names
# a profiled program wrote into PID.callers (-p PID) and a profile's file
# name hold newlines, a whole diff hunk, trailers, a From: header, ESC
# sequences, BEL, CR and C1 as UTF-8.  The patches must apply with
# `git am` in a scratch repository changing only the hinted files, with
# no trailer or header from the data and no byte a terminal obeys.
. "$(dirname "$0")/../cli/lib.sh"
bin=$(tool_path likelytop)
here="$SRC_DIR/tests/likelytop/suggest"
PROG=$BUILD_DIR/tests/likelytop/lt_callers_prog
command -v git >/dev/null || skip_test "git is not installed"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GIT_CONFIG_NOSYSTEM=1 HOME=$tmp
git config --global user.name T && git config --global user.email t@example.org
git config --global init.defaultBranch main

# The hostile text: each line of it would be structure if written raw.
evil=$'x\ndiff --git a/mm/evil.c b/mm/evil.c\nnew file mode 100644\n--- /dev/null\n+++ b/mm/evil.c\n@@ -0,0 +1 @@\n+evil\n\nReviewed-by: Evil <evil@example.org>\nFrom: Evil <evil@example.org>\nSubject: evil\n---\n\e]2;PWNED\a\e[31mRED\r\xc2\x9b31m\x7f'
json_str() { jq -Rs . <<<"$1" | sed 's/\\n"$/"/'; }	# as JSON, the last \n dropped
command -v jq >/dev/null || skip_test "jq is not installed (scripts/deps.sh installs it)"

# check_series NAME PATCHES SRCTREE WANTFILES: git am of PATCHES over a
# copy of SRCTREE changes exactly WANTFILES; no trailer but Signed-off-by,
# no header but From/Subject, no control byte but \n and \t, no C1.
check_series() {
	local name=$1 patches=$2 src=$3 want=$4 repo=$tmp/repo.$1 got
	if LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]\|\xc2[\x80-\x9f]' "$patches"; then
		fail "$name: a control byte from the data in the patch:"
		LC_ALL=C grep -n $'[\x01-\x08\x0b-\x1f\x7f]\|\xc2[\x80-\x9f]' "$patches" | cat -v | head -5
	else ok; fi
	grep -q 'PWNED\|RED' "$patches" && ok || fail "$name: the hostile names are not in the patch at all"
	rm -rf "$repo"; cp -r "$src" "$repo"
	git -C "$repo" init -q && git -C "$repo" add -A && git -C "$repo" commit -qm base ||
		{ fail "$name: no scratch repository"; return; }
	if ! git -C "$repo" am -q <"$patches" >"$tmp/am.out" 2>&1; then
		fail "$name: git am refused the patches: $(head -3 "$tmp/am.out")"; return
	fi
	got=$(git -C "$repo" diff --name-only HEAD "$(git -C "$repo" rev-list --max-parents=0 HEAD)" | sort | tr '\n' ' ')
	expect_eq "$got" "$want" "$name: git am changed only the hinted files"
	[ -e "$repo/mm/evil.c" ] && fail "$name: the injected hunk made mm/evil.c" || ok
	got=$(git -C "$repo" log --format=%B "$(git -C "$repo" rev-list --max-parents=0 HEAD)..HEAD" |
	      git interpret-trailers --parse | cut -d: -f1 | sort -u | tr '\n' ' ')
	expect_eq "$got" "Signed-off-by " "$name: no trailer from the data"
	got=$(git -C "$repo" log --format='%an <%ae>|%s' "$(git -C "$repo" rev-list --max-parents=0 HEAD)..HEAD" | grep -ci evil)
	expect_eq "$got" 0 "$name: no author or subject from the data"
	git -C "$repo" log --format=%B | grep -q '^Reviewed-by\|^From: Evil' &&
		fail "$name: a trailer or header line from the data in a message" || ok
}

# 1. --callers-from: a saved trace whose caller and module are hostile
printf '{"site":{"function":"kfree","event":"kmem:kfree","mechanism":"tracepoint+hist","hint":"unlikely(ZERO_OR_NULL_PTR(object))"},"iteration":1,"calls":0,"wrong":100,"lost":0,"callers":[{"caller":%s,"module":%s,"calls":100,"wrong":60},{"caller":%s,"module":null,"calls":30,"wrong":30},{"caller":"free_bprm+0xe7","module":null,"calls":500,"wrong":10}]}\n' \
	"$(json_str "$evil")" "$(json_str "$evil")" "$(json_str "b$evil")" >"$tmp/evil.json"
run "$bin" --suggest "$here/tree" -f "$here/likely_prof.txt" --callers-from "$tmp/evil.json"
expect_rc 0 "--callers-from a hostile trace"
printf '%s\n' "$out" >"$tmp/saved.patch"
want=$(sed -n 's|^diff --git a/\([^ ]*\) .*|\1|p' "$here/golden/likely_prof.patch" | sort -u | tr '\n' ' ')
check_series saved "$tmp/saved.patch" "$here/tree" "$want"
# the names are there, escaped as text: one line, \xNN
expect_match "$out" '^             x\\x0adiff --git a/mm/evil\.c .*\\x1b\]2;PWNED\\x07.* \[x\\x0adiff' \
	"the caller and module as escaped text on one line"

# 2. a profile's file name with C1 CSI as UTF-8, invalid UTF-8 and a
# backslash (the profile's reader skips rows with C0 bytes already),
# resolved by its suffix; the mail names it in a "file:" line
sed $'s|kfree()@:mm/slab.c@12|kfree()@:/\xc2\x9b31mRED\\\\\xff/mm/slab.c@12|' \
	"$here/likely_prof.txt" >"$tmp/prof.txt"
grep -q RED "$tmp/prof.txt" || fail "the profile was not made hostile"
run "$bin" --suggest "$here/tree" -f "$tmp/prof.txt"
expect_rc 0 "--suggest over a hostile file name"
printf '%s\n' "$out" >"$tmp/file.patch"
check_series file "$tmp/file.patch" "$here/tree" "$want"
expect_match "$out" 'file: +/\\xc2\\x9b31mRED\\x5c\\xff/mm/slab\.c in the profile' "the file name escaped"
LC_ALL=C grep -q $'\xc2\x9b\\|\xff' <<<"$err$out" && fail "C1 or invalid UTF-8 from the profile in the output" || ok

# 3. -p PID: the module names the program wrote into PID.callers
mkdir -m 700 "$tmp/d"
LIKELY_PROF_DIR=$tmp/d "$PROG" 1000
pid=$(ls "$tmp/d" | grep -v callers)
[ -f "$tmp/d/$pid.callers" ] && ok || { fail "no $pid.callers"; finish; }
# its own escapes (\n, \\): the object named with the hostile text
obj=$(printf '%s' "/nonexistent/prog$evil" | sed 's/\\/\\\\/g' | sed ':a;N;$!ba;s/\n/\\n/g')
O=$obj awk 'BEGIN { FS = OFS = "\t" } NR > 1 { $7 = ENVIRON["O"] } { print }' "$tmp/d/$pid.callers" >"$tmp/c" &&
	cat "$tmp/c" >"$tmp/d/$pid.callers"
mkdir -p "$tmp/src/likelytop"; cp "$SRC_DIR/tests/likelytop/callers_prog.c" "$tmp/src/likelytop/"
LIKELY_PROF_DIR=$tmp/d run "$bin" --suggest "$tmp/src" -p "$pid" --min-miss 10 --min-total 1
expect_rc 0 "--suggest -p PID with hostile module names"
expect_match "$out" '^  callers:   two of its 3 callers' "the callers paragraph is there"
printf '%s\n' "$out" >"$tmp/user.patch"
check_series user "$tmp/user.patch" "$tmp/src" "likelytop/callers_prog.c "
finish
