# likelytop on real kernel profiles captured in the guest of scripts/vm.sh
# (tests/data/linux-6.1/, the patched Debian 6.1 of kernel/; see its KERNEL
# file): /proc/likely_prof, trace_stat/branch_annotated (and branch_all
# when the capturing kernel had it).
# Batch output equals an awk reading of each file row for row; the wrong
# hints likelytop counts are the rows the kernel flagged '+' or '-'; and
# likely_prof and branch_annotated, captured one after the other, agree
# site by site through the hint.
. "$(dirname "$0")/../cli/lib.sh"
LT=$(tool_path likelytop)
data="$SRC_DIR/tests/data/linux-6.1"
[ -e "$data/likely_prof.xz" ] || skip_test "no captures in $data (scripts/vm.sh, then tests/vm/import-captures.sh)"
command -v xz >/dev/null || skip_test "xz is not installed"
command -v jq >/dev/null || skip_test "jq is not installed (scripts/deps.sh installs it)"
. "$SRC_DIR/tests/likelytop/readers.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for f in likely_prof branch_annotated; do
	xz -dc "$data/$f.xz" >"$tmp/$f" || { fail "cannot read $data/$f.xz"; finish; }
done

check_batch() {	# check_batch FILE lp|HINT MIN-SITES
	local a l na
	if [ "$2" = lp ]; then a=$(awk_lp "$1"); else a=$(awk_trace "$1" "$2"); fi
	l=$(lt_rows "$1")
	na=$(printf '%s\n' "$a" | grep -c .)
	echo "${1##*/}: $na sites"
	[ "$na" -ge "$3" ] && ok || fail "${1##*/}: $na sites, expected at least $3"
	if [ "$a" = "$l" ]; then ok; else
		fail "${1##*/}: likelytop and awk differ:"
		diff <(printf '%s\n' "$a") <(printf '%s\n' "$l") | head -10
	fi
	run "$LT" -b -f "$1"
	expect_rc 0 "${1##*/}: batch text"
	expect_match "$(printf '%s\n' "$out" | head -1)" " - $na sites, $na shown," "${1##*/}: summary counts every site"
}
check_batch "$tmp/likely_prof" lp 3000
check_batch "$tmp/branch_annotated" annotated 15000
# branch_all where the capturing kernel profiled all branches
if [ -e "$data/branch_all.xz" ]; then
	xz -dc "$data/branch_all.xz" >"$tmp/branch_all" || fail "cannot read $data/branch_all.xz"
	check_batch "$tmp/branch_all" none 50000
fi

# the kernel's own flags: '+' an unlikely() mostly true, '-' a likely()
# mostly false; likelytop's wrong hints are exactly those rows
flagged=$(grep -c '^[-+]' "$tmp/likely_prof")
run "$LT" -b -f "$tmp/likely_prof"
expect_match "$out" " $flagged wrong hints" "wrong hints = the kernel's +/- rows ($flagged)"
[ "$flagged" -gt 0 ] && ok || fail "no flagged row in a real profile"
run "$LT" -b -f "$tmp/likely_prof" --format json --wrong-only
expect_eq() { if [ "$1" = "$2" ]; then ok; else fail "$3: got '$1', expected '$2'"; fi; }
expect_eq "$(printf '%s' "$out" | jq length)" "$flagged" "--wrong-only shows the flagged rows"

# two views of one kernel's data, captured in this order
lt_view "$tmp/likely_prof" >"$tmp/v.lp"
lt_view "$tmp/branch_annotated" >"$tmp/v.ba"
if res=$(views_agree "$tmp/v.lp" "$tmp/v.ba"); then ok; else fail "likely_prof and branch_annotated disagree:"; fi
echo "likely_prof then branch_annotated: $res"
# and the check can fail: with the hint ignored (true/false read as
# correct/incorrect for unlikely() too) the views no longer agree
sed 's/^\([ +]\)unlikely /\1likely   /' "$tmp/likely_prof" >"$tmp/nohint"
lt_view "$tmp/nohint" >"$tmp/v.nohint"
views_agree "$tmp/v.nohint" "$tmp/v.ba" >/dev/null && fail "the cross-check passes with the hint ignored" || ok
finish
