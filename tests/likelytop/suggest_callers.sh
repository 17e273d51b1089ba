# likelytop --suggest --callers-from FILE: the callers of a kernel
# function as `likelytop --callers -J` saved them name, in the patch's
# mail, the one or two callers that make most (75%) of its wrong
# evaluations; summed over snapshots; a split unknown, spread callers or
# another function's give no paragraph; bad files are refused with the
# line and the cause; the guest's saved kfree callers (tests/data).
. "$(dirname "$0")/../cli/lib.sh"
bin=$(tool_path likelytop)
here="$SRC_DIR/tests/likelytop/suggest"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$here" || { fail "no $here"; finish; }

snap() {	# snap FUNCTION WRONG|null CALLER:MODULE:CALLS:WRONG...
	local fn=$1 wrong=$2 sep= c name mod calls w
	shift 2
	printf '{"site":{"function":"%s","event":"kmem:kfree","mechanism":"tracepoint+hist","hint":"unlikely(ZERO_OR_NULL_PTR(object))"},"iteration":1,"calls":0,"wrong":%s,"lost":0,"callers":[' "$fn" "$wrong"
	for c in "$@"; do
		IFS=: read -r name mod calls w <<<"$c"
		[ "$mod" = - ] && mod=null || mod="\"$mod\""
		printf '%s{"caller":"%s","module":%s,"calls":%s,"wrong":%s}' "$sep" "$name" "$mod" "$calls" "$w"
		sep=,
	done
	printf ']}\n'
}
golden=$(cat golden/likely_prof.patch)
# the kfree paragraph goes after its action line; every other byte as golden
with() {	# with PARAGRAPH: the golden patches with it in kfree's mail
	awk -v p="$1" '{ print } /^  action:/ && kfree { printf "%s", p } /^  in: +kfree\(\)/ { kfree = 1 } /^  action:/ { kfree = 0 }' golden/likely_prof.patch
}

# two callers make 90% of the wrong evaluations
snap kfree 100 "kvfree+0x37:-:100:60" "p9_client_walk+0x230:9pnet:30:30" "free_bprm+0xe7:-:500:10" >"$tmp/two.json"
run "$bin" --suggest tree -f likely_prof.txt --callers-from "$tmp/two.json"
expect_rc 0 "--callers-from: two callers"
para="  callers:   two of its 3 callers made 90.0% of the wrong
             evaluations (traced by likelytop --callers):
             kvfree+0x37: 60 wrong of 100 calls
             p9_client_walk+0x230 [9pnet]: 30 wrong of 30 calls
             Fixing those callers, not the hint, is the alternative.
"
if [ "$out" = "$(with "$para")" ]; then ok; else
	fail "two callers: the patches differ from golden + the paragraph:"
	diff <(printf '%s\n' "$out") <(with "$para") | head -20
fi
# the same counts split over two snapshots (and a line of another site)
{ snap kfree 40 "kvfree+0x37:-:50:30" "p9_client_walk+0x230:9pnet:10:10"
  snap kmem_cache_free 5 "a+0x1:-:9:5" "b+0x1:-:9:0" "c+0x1:-:9:0"
  snap kfree 60 "kvfree+0x37:-:50:30" "p9_client_walk+0x230:9pnet:20:20" "free_bprm+0xe7:-:500:10"; } >"$tmp/split.json"
run "$bin" --suggest tree -f likely_prof.txt --callers-from "$tmp/split.json"
[ "$out" = "$(with "$para")" ] && ok || fail "snapshots are not summed per caller"
# one caller makes 80%
snap kfree 100 "kvfree+0x37:-:100:80" "b+0x1:-:30:10" "c+0x1:-:500:10" >"$tmp/one.json"
run "$bin" --suggest tree -f likely_prof.txt --callers-from "$tmp/one.json"
expect_match "$out" "^  callers:   one of its 3 callers made 80\.0% of the wrong
             evaluations \(traced by likelytop --callers\):
             kvfree\+0x37: 80 wrong of 100 calls
             Fixing that caller, not the hint, is the alternative\.$" "one caller"
# no paragraph: spread, two callers only, the split unknown, another function
snap kfree 100 "a+0x1:-:100:40" "b+0x1:-:30:30" "c+0x1:-:500:30" >"$tmp/spread.json"
snap kfree 100 "a+0x1:-:100:90" "b+0x1:-:30:10" >"$tmp/two_only.json"
snap kfree null "a+0x1:-:100:0" "b+0x1:-:30:0" "c+0x1:-:500:0" >"$tmp/unknown.json"
snap kmem_cache_free 100 "a+0x1:-:100:90" "b+0x1:-:30:5" "c+0x1:-:500:5" >"$tmp/other.json"
for f in spread two_only unknown other; do
	run "$bin" --suggest tree -f likely_prof.txt --callers-from "$tmp/$f.json"
	expect_rc 0 "--callers-from $f"
	[ "$out" = "$golden" ] && ok || fail "$f: a callers paragraph, or other changes"
done
# the guest's kfree callers (6.1, tests/vm/callers.sh's exec loop): the
# first two make 162 of 218 wrong, 74.3%: under 75%, no paragraph
run "$bin" --suggest tree -f likely_prof.txt --callers-from "$SRC_DIR/tests/data/linux-6.1/kfree_callers.json"
expect_rc 0 "--callers-from the guest's capture"
[ "$out" = "$golden" ] && ok || fail "the guest's capture: a paragraph at 74.3%"
# from a pipe, as `--callers-from <(likelytop --callers kfree -b -J)`
run "$bin" --suggest tree -f likely_prof.txt --callers-from <(cat "$tmp/two.json")
[ "$out" = "$(with "$para")" ] && ok || fail "--callers-from a pipe"

# bad files: the line and the cause, exit 1, no patch written
{ snap kfree 1 "a+0x1:-:1:1"; echo '{"site":'; } >"$tmp/bad.json"
run "$bin" --suggest tree -f likely_prof.txt --callers-from "$tmp/bad.json"
expect_rc 1 "a line that is not JSON"
expect_eq "$err" "likelytop: $tmp/bad.json: line 2: not JSON" "the message names the line"
expect_eq "$out" "" "no patch after a bad callers file"
echo '{"site":{"function":"kfree"},"wrong":1,"callers":[{"caller":"a","calls":1,"wrong":2}]}' >"$tmp/bad2.json"
run "$bin" --suggest tree -f likely_prof.txt --callers-from "$tmp/bad2.json"
expect_rc 1 "more wrong than calls"
expect_match "$err" "bad2\.json: line 1: a caller whose module, calls or wrong are not what --callers -J writes$" "the cause"
echo '[1,2]' >"$tmp/bad3.json"
run "$bin" --suggest tree -f likely_prof.txt --callers-from "$tmp/bad3.json"
expect_rc 1 "JSON of another shape"
expect_match "$err" "bad3\.json: line 1: not a snapshot of likelytop --callers -J" "the cause"
run "$bin" --suggest tree -f likely_prof.txt --callers-from "$tmp/missing.json"
expect_rc 1 "a missing file"
expect_match "$err" "^likelytop: cannot read $tmp/missing\.json: " "the message names the file"
run "$bin" --suggest tree -f likely_prof.txt --callers-from "$tmp"
expect_rc 1 "a directory"
# usage
run "$bin" -b -f likely_prof.txt --callers-from "$tmp/two.json"
expect_rc 2 "--callers-from without --suggest or -S"
expect_match "$err" "--callers-from needs --suggest" "the usage error says so"
finish
