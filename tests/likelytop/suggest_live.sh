# likelytop's live view, key p: the patch suggested for the selected site,
# against -S SRCDIR (the fixture tree of suggest.sh), driven through tmux:
# a patch, a refusal with its reason, a right hint (nothing to suggest),
# no -S (what to give), back with p and Esc, quit restoring the terminal;
# --callers-from's paragraph, and its bad file said in the pane.
. "$(dirname "$0")/../cli/lib.sh"
bin=$(tool_path likelytop)
here="$SRC_DIR/tests/likelytop/suggest"
[ "${WITH_NCURSES:-ON}" = OFF ] && skip_test "built without ncurses (WITH_NCURSES=OFF): no live view"
command -v tmux >/dev/null || skip_test "tmux is not installed (scripts/deps.sh installs it)"
tmp=$(mktemp -d)
TMUX_SOCK="likelytop-suggest-test-$$"
KEYS_PAUSE=0.3 WAIT_TENTHS=50
. "$SRC_DIR/tests/cli/tmux.sh"
cleanup() { tmux_stop; rm -rf "$tmp"; }
trap cleanup EXIT

start() {	# start NAME ARGS...: likelytop in a 132x40 pane
	local name=$1
	shift
	tmux_start "$name" 132 40 "" "$bin" "$@"
}

# The default sort puts slab_count (99990 incorrect) first, kfree second.
start a -f "$here/likely_prof.txt" -S "$here/tree" -d 60
wait_for a "slab_count" "list shown"
keys a p
wait_for a "suggested patch for slab_count\(\)  mm/slab\.c:23" "p: the title names the site"
wait_for a "Subject: \[PATCH\] mm/slab: use unlikely\(\) instead of likely\(\) in slab_count\(\)" "p: the patch's subject"
wait_for a "^\+ +if \(unlikely\(counts\[i\] > 0\)\)" "p: the patch's + line"
keys a p
wait_for a "slab_count .*mm/slab\.c:23" "p again: back to the list"
keys a Down p
wait_for a "Subject: \[PATCH\] mm/slab: remove unlikely\(\) from kfree\(\)" "p on kfree"
wait_for a "incorrect: 84123 \(55\.5% of 151444 evaluations, rows summed\)" "p: kfree's two rows summed"
keys a Escape
# gone() (drivers/gone.c) is not in the tree: the refusal says so.
keys a / g o n e Enter
keys a p
wait_for a "refused: file not found in the source tree" "p: a refusal with its reason"
keys a Escape Escape
# pick_next's likely() at line 13 is right: nothing to suggest.
keys a / p i c k Enter
keys a End p
wait_for a "nothing to suggest: the hint misses 0\.0%, not more than 50%" "p: a right hint"
keys a q
wait_exit a

# The rule's thresholds apply to p too.
start c -f "$here/likely_prof.txt" -S "$here/tree" -d 60 --flip-miss 99.995
wait_for c "slab_count" "list shown (--flip-miss)"
keys c p
wait_for c "Subject: \[PATCH\] mm/slab: remove likely\(\) from slab_count\(\)" "p under --flip-miss 99.995: removed, not flipped"
keys c q
wait_exit c

# --callers-from: kfree's patch names the callers that make it wrong; a
# bad file is said in the pane, the view goes on.
printf '%s\n' '{"site":{"function":"kfree"},"wrong":100,"callers":[{"caller":"kvfree+0x37","module":null,"calls":100,"wrong":80},{"caller":"b+0x1","module":null,"calls":30,"wrong":10},{"caller":"c+0x1","module":null,"calls":500,"wrong":10}]}' >"$tmp/kfree.json"
start d -f "$here/likely_prof.txt" -S "$here/tree" -d 60 --callers-from "$tmp/kfree.json"
wait_for d "slab_count" "list shown (--callers-from)"
keys d Down p
wait_for d "callers: +one of its 3 callers made 80\.0% of the wrong" "p: kfree's mail names its caller"
wait_for d "kvfree\+0x37: 80 wrong of 100 calls" "p: the caller's figures"
keys d q
wait_exit d
echo 'nonsense' >"$tmp/bad.json"
start e -f "$here/likely_prof.txt" -S "$here/tree" -d 60 --callers-from "$tmp/bad.json"
wait_for e "slab_count" "list shown (a bad --callers-from)"
keys e p
wait_for e "bad\.json: line 1: not JSON" "p: the bad file's line and cause"
keys e q
wait_exit e

# Without -S: what to give.
start b -f "$here/likely_prof.txt" -d 60
wait_for b "slab_count" "list shown (no -S)"
keys b p
wait_for b "no source tree: give -S SRCDIR to see the suggested patch" "p without -S"
keys b q
wait_exit b
finish
