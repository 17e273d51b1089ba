# likelytop batch columns: -o, +LIST, --output-all, --noheadings, --raw
# against golden output (tests/likelytop/golden/, the summary's clock time
# replaced by HH:MM:SS); miss_pct/rate precision in JSON; CSV empties;
# the usage errors of the column options.
# KATTR_GOLDEN_UPDATE=1 rewrites the golden files (review the diff).
. "$(dirname "$0")/../cli/lib.sh"
bin=$(tool_path likelytop)
data="$SRC_DIR/tests/likelytop/data"
golden="$SRC_DIR/tests/likelytop/golden"
command -v jq >/dev/null || skip_test "jq is not installed (scripts/deps.sh installs it)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$data" || exit 1

# golden NAME ARGS...: likelytop -b ARGS... output equals golden/NAME
golden() {
	local name=$1
	shift
	run "$bin" -b "$@"
	expect_rc 0 "$name: likelytop -b $*"
	printf '%s\n' "$out" | sed -E 's/^likelytop - [0-9]{2}:[0-9]{2}:[0-9]{2} - /likelytop - HH:MM:SS - /' >"$tmp/$name"
	if [ "${KATTR_GOLDEN_UPDATE:-}" = 1 ]; then
		cp "$tmp/$name" "$golden/$name"
	fi
	if diff -u "$golden/$name" "$tmp/$name" >"$tmp/diff"; then ok; else
		fail "$name: likelytop -b $* differs from golden/$name:
$(cat "$tmp/diff")"
	fi
}
golden default.txt -f likely_prof.txt
golden all-format.txt -f branch_all.txt
golden annotated.txt -f branch_annotated.txt
golden columns.txt -f likely_prof.txt -o function,MISS,hint
golden plus.txt -f branch_annotated.txt -o +constant
golden output-all.txt -f likely_prof.txt --output-all
golden noheadings.txt -f likely_prof.txt --noheadings
golden raw.txt -f branch_annotated.txt --raw --output-all
golden csv-noheadings.csv -f likely_prof.txt --format csv --noheadings

# Aligned: every row's FUNCTION starts in the same column as its title.
run "$bin" -b -f likely_prof.txt
col=$(printf '%s\n' "$out" | awk 'NR == 3 { print index($0, "FUNCTION") }')
bad=$(printf '%s\n' "$out" | awk -v c="$col" 'NR > 3 && NF { if (substr($0, c - 1, 1) != " " || substr($0, c, 1) == " ") print }')
[ -n "$col" ] && [ -z "$bad" ] && ok || fail "FUNCTION not aligned at column $col: $bad"

# --raw: a blank in a name is \x20, so every row has as many fields.
printf 'Likely Profiling Results\n --------\n[+- ] Type | # True | # False | Function:Filename@Line\n unlikely |        1|        2\tmyfunc()@:a b.c@3\n likely |        5|        0\tg()@:c.c@4\n' >"$tmp/blank"
run "$bin" -b -f "$tmp/blank" --raw --noheadings -o function,file,line
expect_rc 0 "--raw with a blank in a name"
[ "$(printf '%s\n' "$out" | awk '{ print NF }' | sort -u)" = 3 ] && ok || fail "--raw: rows do not split into 3 fields: $out"
expect_match "$out" '^myfunc a\\x20b\.c 3$' "--raw escapes blanks"

# JSON numbers at CSV's precision: miss_pct 2 decimals, rate 3.
run "$bin" -b -f branch_annotated.txt --format json
[ "$(printf '%s' "$out" | jq -c '[.[] | select(.function == "fast_path") | .miss_pct]')" = '[0.11]' ] && ok ||
	fail "json miss_pct is not rounded to 2 decimals: $out"
expect_match "$out" '"miss_pct":0\.11,' "json miss_pct printed as 0.11"
printf '%s' "$out" | grep -Eq '"miss_pct":[0-9]+\.[0-9]{3,}' && fail "json: a miss_pct with 3+ decimals: $out" || ok
run "$bin" -b -f likely_prof.txt --format json -n 2 -d 0.05
printf '%s\n' "$out" | grep -Eq '"rate":[0-9]+\.[0-9]{4,}' && fail "json: a rate with 4+ decimals" || ok

# CSV: a field that does not apply is empty, never 0: miss_pct of a site
# never evaluated, constant where the source has none, rate of the first
# snapshot, reset when there was none.
run "$bin" -b -f branch_annotated.txt --format csv
expect_match "$out" '^1,annotated,0,0,,0,never_hit,never\.c,99,,$' "csv: never evaluated has an empty miss_pct"
run "$bin" -b -f likely_prof.txt --format csv
expect_match "$out" '^1,unlikely,67321,84123,55\.55,,kfree,mm/slab\.c,3380,,$' "csv: no constant, no rate, no reset: empty"

# Usage errors: status 2, one message naming the cause.
usage() {	# usage REGEX ARGS...
	local re=$1
	shift
	run "$bin" "$@"
	expect_rc 2 "likelytop $*"
	expect_match "$err" "$re" "likelytop $*: message"
}
usage "unknown column 'nope'" -b -f likely_prof.txt -o hint,nope
usage "unknown column ''" -b -f likely_prof.txt -o hint,,function
usage "CSV and JSON always carry every field" -b -f likely_prof.txt --format csv -o hint
usage "CSV and JSON always carry every field" -b -f likely_prof.txt --format json --raw
usage "JSON has no headings" -b -f likely_prof.txt --format json --noheadings
usage "need --batch" -f likely_prof.txt --raw
# --help lists every column.
# -J: the same document as --format json (util-linux's and rgctl's letter)
run "$bin" -b -J -f likely_prof.txt
expect_rc 0 "-J"
j1=$out
run "$bin" -b --format json -f likely_prof.txt
expect_eq "$j1" "$out" "-J prints what --format json prints"
jq -e 'length > 0' <<<"$j1" >/dev/null && ok || fail "-J: not a JSON array of sites"
run "$bin" --help
for c in MARK HINT CORRECT INCORRECT 'MISS%' WRONG/s CONSTANT FUNCTION LOCATION FILE LINE; do
	expect_match "$out" "^ +$c  " "--help lists column $c"
done

# One name per column: the title is the -o name; the names -o took before
# (and the branch_all titles) are still accepted, for the same column.
run "$bin" -b -f likely_prof.txt -o 'MARK,HINT,CORRECT,INCORRECT,MISS%,WRONG/s,CONSTANT,FUNCTION,LOCATION,FILE,LINE'
expect_rc 0 "-o with every title"
titles=$(printf '%s\n' "$out" | sed -n 3p | tr -s ' ' | sed 's/^ //')
expect_eq "$titles" "MARK HINT CORRECT INCORRECT MISS% WRONG/s CONSTANT FUNCTION LOCATION FILE LINE" "titles are the -o names"
# (the first line has the clock time: left out)
run "$bin" -b -f likely_prof.txt -o 'MARK,HINT,CORRECT,INCORRECT,MISS%,WRONG/s,FUNCTION,LOCATION'
new=$(printf '%s\n' "$out" | sed 1d)
run "$bin" -b -f likely_prof.txt -o '!,hint,correct,incorrect,miss,rate,function,file:line'
expect_rc 0 "-o with the old names"
expect_eq "$(printf '%s\n' "$out" | sed 1d)" "$new" "old names (!, MISS, RATE, FILE:LINE) name the same columns"
run "$bin" -b -f likely_prof.txt
expect_eq "$(printf '%s\n' "$out" | sed 1d)" "$new" "the default columns are those"
run "$bin" -b -f branch_all.txt -o 'not-taken,taken,taken%,taken/s'
expect_rc 0 "-o with the branch_all titles"
expect_match "$(printf '%s\n' "$out" | sed -n 3p)" "NOT-TAKEN +TAKEN +TAKEN% +TAKEN/s" "branch_all titles"
finish
