# likelytop batch mode: every format parsed back (jq, awk), every sort
# order, filters, the three input formats, bad input, usage errors.
. "$(dirname "$0")/../cli/lib.sh"
bin=$(tool_path likelytop)
data="$SRC_DIR/tests/likelytop/data"
command -v jq >/dev/null || skip_test "jq is not installed (scripts/deps.sh installs it)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
lp="$data/likely_prof.txt"

# --- text -----------------------------------------------------------------
run "$bin" -b -f "$lp"
expect_rc 0 "text output"
[ -z "$err" ] && ok || fail "text output wrote to stderr: $err"
first=$(printf '%s\n' "$out" | sed -n 4p)
expect_match "$first" '^! +unlikely +67321 +84123 +55\.5 +- +kfree +mm/slab\.c:3380$' "text: kfree first (most incorrect)"
expect_match "$out" '6 sites, 6 shown, 3 wrong hints' "text summary line"

# --- json: keys, values, every sort order ------------------------------------
run "$bin" -b -f "$lp" --format json
expect_rc 0 "json output"
printf '%s\n' "$out" >"$tmp/j"
[ "$(jq -s 'length' "$tmp/j")" = 1 ] && ok || fail "json: one array per iteration"
[ "$(jq -r '.[0] | keys_unsorted | join(",")' "$tmp/j")" = "hint,correct,incorrect,miss_pct,constant,function,file,line" ] && ok ||
	fail "json keys: $(jq -c '.[0] | keys_unsorted' "$tmp/j")"
[ "$(jq -r '.[] | select(.function == "kfree") | "\(.hint) \(.correct) \(.incorrect) \(.line) \(.miss_pct|floor)"' "$tmp/j")" = "unlikely 67321 84123 3380 55" ] && ok ||
	fail "json kfree values"
[ "$(jq -r '.[] | select(.function == "schedule") | "\(.correct) \(.incorrect)"' "$tmp/j")" = "900000 12" ] && ok ||
	fail "json likely(): correct = # True"
[ "$(jq -r '.[] | select(.function == "copy_to_user") | "\(.correct) \(.incorrect)"' "$tmp/j")" = "8000 40" ] && ok ||
	fail "json unlikely(): correct = # False"
[ "$(jq '[.[] | has("rate")] | any' "$tmp/j")" = false ] && ok || fail "json: no rate on the first iteration"

check_sort() {	# check_sort KEY JQ-EXPR-PER-ENTRY (desc|asc) [extra args]
	local key=$1 expr=$2 dir=$3
	shift 3
	run "$bin" -b -f "$lp" --format json --sort "$key" "$@"
	expect_rc 0 "--sort $key $*"
	local got want
	got=$(printf '%s' "$out" | jq -c "[.[] | $expr]")
	if [ "$dir" = desc ]; then
		want=$(printf '%s' "$out" | jq -c "[.[] | $expr] | sort | reverse")
	else
		want=$(printf '%s' "$out" | jq -c "[.[] | $expr] | sort")
	fi
	[ "$got" = "$want" ] && ok || fail "--sort $key $*: $got is not $dir"
	[ "$(printf '%s' "$out" | jq 'length')" = 6 ] && ok || fail "--sort $key lost rows"
}
check_sort incorrect .incorrect desc
check_sort incorrect .incorrect asc --reverse
check_sort correct .correct desc
check_sort percent .miss_pct desc
check_sort percent .miss_pct asc -r
check_sort total '(.correct + .incorrect)' desc
check_sort function .function asc
check_sort function .function desc -r
check_sort file .file asc
check_sort rate .function asc	# no rates yet: ties in site order
run "$bin" -b -f "$lp" --format json -n 2 -d 0.05 --sort rate
expect_rc 0 "--sort rate over two iterations"
# a file that never changed has no rate yet in any iteration (as the live
# view shows it: -), not 0 (sources.sh and pseudo.sh: rates that move)
[ "$(printf '%s\n' "$out" | jq -s '.[1] | map(has("rate")) | any')" = false ] && ok ||
	fail "a static file has rates in iteration 2: $out"

# --- filters -----------------------------------------------------------------
run "$bin" -b -f "$lp" --format json --wrong-only
[ "$(printf '%s' "$out" | jq -r '[.[].function] | sort | join(",")')" = "audit_free,do_sys_vm86,kfree" ] && ok ||
	fail "--wrong-only: $(printf '%s' "$out" | jq -c '[.[].function]')"
run "$bin" -b -f "$lp" --format json --min-total 8000
[ "$(printf '%s' "$out" | jq -r '[.[].function] | sort | join(",")')" = "copy_to_user,kfree,schedule" ] && ok ||
	fail "--min-total 8000"
run "$bin" -b -f "$lp" --format json --filter kernel/
[ "$(printf '%s' "$out" | jq -r '[.[].function] | sort | join(",")')" = "audit_free,do_sys_vm86,schedule" ] && ok ||
	fail "--filter kernel/ (file substring)"
run "$bin" -b -f "$lp" --format json --filter nothing-matches
[ "$out" = "[]" ] && ok || fail "empty selection is []: $out"

# --- csv, parsed back with awk ------------------------------------------------
run "$bin" -b -f "$lp" --format csv -n 2 -d 0.05
expect_rc 0 "csv output"
printf '%s\n' "$out" >"$tmp/c"
[ "$(head -1 "$tmp/c")" = "iteration,hint,correct,incorrect,miss_pct,constant,function,file,line,rate,reset" ] && ok ||
	fail "csv header: $(head -1 "$tmp/c")"
[ "$(awk -F, 'NR > 1 && NF != 11' "$tmp/c" | wc -l)" = 0 ] && ok || fail "csv: every row has 11 fields"
[ "$(awk -F, '$1 == 1 && $7 == "kfree" { print $3, $4, $9, $10 }' "$tmp/c")" = "67321 84123 3380 " ] && ok ||
	fail "csv kfree row (iteration 1, no rate)"
[ "$(awk -F, '$1 == 2 && $7 == "kfree" { print $10 }' "$tmp/c")" = "" ] && ok ||
	fail "csv: a rate in iteration 2 of a file that never changed"
[ "$(grep -c ',kfree,' "$tmp/c")" = 2 ] && ok || fail "csv: two iterations"
printf ' likely   |        1|        2\tf()@:a,b"c.c@1\n' >"$tmp/comma"
run "$bin" -b -f "$tmp/comma" --format csv
expect_match "$out" ',f,"a,b""c\.c",1,' "csv quotes a file name with a comma and a quote"

# --- the tracefs formats --------------------------------------------------------
run "$bin" -b -f "$data/branch_annotated.txt" --format json
expect_rc 0 "branch_annotated"
[ "$(printf '%s' "$out" | jq -r '.[0] | "\(.hint) \(.correct) \(.incorrect) \(.miss_pct) \(.function) \(.file) \(.line)"')" = "annotated 0 17127 100 ip_neigh_for_gw route.h 393" ] && ok ||
	fail "branch_annotated first row: $(printf '%s' "$out" | jq -c '.[0]')"
[ "$(printf '%s' "$out" | jq -r '.[] | select(.function == "some_function") | "\(.correct) \(.constant) \(.incorrect)"')" = "5 12 3" ] && ok ||
	fail "branch_annotated correct/constant"
[ "$(printf '%s' "$out" | jq -r '.[] | select(.function == "never_hit") | .miss_pct')" = null ] && ok ||
	fail "branch_annotated X row: miss_pct null"
run "$bin" -b -f "$data/branch_all.txt"
expect_rc 0 "branch_all"
expect_match "$out" 'NOT-TAKEN +TAKEN +TAKEN%' "branch_all shows taken/not taken"
expect_match "$out" '0 wrong hints' "branch_all has no wrong hints"
run "$bin" -b -f "$data/branch_all.txt" --format json
[ "$(printf '%s' "$out" | jq -r '.[] | select(.function == "do_thing") | "\(.hint) \(.miss_pct)"')" = "none 25" ] && ok ||
	fail "branch_all: hint none, 25% taken"

# --- stdin ----------------------------------------------------------------------
run sh -c "'$bin' -b -f - --format json -n 2 -d 0.05 < '$lp'"
expect_rc 0 "stdin"
[ "$(printf '%s\n' "$out" | jq -s 'map(length) | join(",")' -r)" = "6,6" ] && ok || fail "stdin read once, used twice"

# --- bad input ----------------------------------------------------------------
: >"$tmp/empty"
run "$bin" -b -f "$tmp/empty"
expect_rc 1 "empty file"
expect_match "$err" "empty.*no profile rows" "empty file message"
head -c 4096 /dev/urandom | tr -d '\n' >"$tmp/binary"
run "$bin" -b -f "$tmp/binary"
expect_rc 1 "binary file"
run "$bin" -b -f /nonexistent/profile
expect_rc 1 "missing file"
expect_match "$err" "cannot read /nonexistent/profile: no such file" "missing file message"
run "$bin" -b -f "$tmp"
expect_rc 1 "a directory"
{
	cat "$lp"
	printf ' likely   |99999999999999999999|        2\ttoo_big()@:a.c@1\n'
	printf ' likely   |        1|        2\ttrunc'
} >"$tmp/mixed"
run "$bin" -b -f "$tmp/mixed" --format json
expect_rc 0 "some bad rows"
expect_match "$err" "skipped 2 malformed rows" "bad rows counted on stderr"
[ "$(printf '%s' "$out" | jq 'length')" = 6 ] && ok || fail "good rows kept"
printf '%s' "$out" | grep -q too_big && fail "a count too large for 64 bits was shown" || ok
{ printf 'Likely Profiling Results\n likely   |        1|        2\t'; head -c 200000 /dev/zero | tr '\0' f; printf '()@:a.c@5\n'; } >"$tmp/long"
run "$bin" -b -f "$tmp/long" --format json
expect_rc 0 "a very long line"
[ "$(printf '%s' "$out" | jq '.[0].function | length')" = 200000 ] && ok || fail "long function name intact"

# A file that changes format between reads: rates restart, with a warning.
cp "$lp" "$tmp/swap"
( sleep 0.4; cp "$data/branch_annotated.txt" "$tmp/swap.new"; mv "$tmp/swap.new" "$tmp/swap" ) &
run "$bin" -b -f "$tmp/swap" --format json -n 2 -d 0.8
wait
expect_rc 0 "format change"
expect_match "$err" "changed format from likely_prof to branch_annotated" "format change warned"
[ "$(printf '%s\n' "$out" | jq -s '.[1] | map(has("rate")) | any')" = false ] && ok ||
	fail "no rates across a format change"

# -n 0 runs until interrupted; SIGINT ends it cleanly after whole snapshots.
"$bin" -b -n 0 -d 0.1 -f "$lp" --format json >"$tmp/n0" 2>"$tmp/n0.err" &
n0=$!
sleep 0.8
kill -INT "$n0"
wait "$n0"
rc=$?
expect_rc 0 "-n 0 stopped by SIGINT"
[ "$(jq -s 'length' "$tmp/n0")" -ge 3 ] && ok || fail "-n 0: several whole snapshots ($(wc -l <"$tmp/n0") lines)"

# --- usage --------------------------------------------------------------------
for args in "--format yaml -b" "--sort bogus -b" "-n 2" "-b -n -1" "-b -d 0" "-b -d x" \
	"-b -f a -p 1" "-b --min-total -3" "extra-arg" "-b -p 0" "--exec"; do
	run "$bin" $args
	expect_rc 2 "usage: $args"
done
run sh -c "'$bin' -b -f '$lp' >/dev/full"
expect_rc 1 "batch output to a full disk"
expect_match "$err" "write error" "full disk message"
finish
