# likelytop --callers SITE -p PID through likely_prof.h's own per-caller
# counts (LIKELY_PROF_CALLERS): callers_prog's hinted() called from three
# places at known rates; the figures must be exact (no root needed).
. "$(dirname "$0")/../cli/lib.sh"
LT=$(tool_path likelytop)
PROG=$BUILD_DIR/tests/likelytop/lt_callers_prog
command -v jq >/dev/null || skip_test "jq is not installed (scripts/deps.sh installs it)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -m 700 "$tmp/d"
export LIKELY_PROF_DIR=$tmp/d
N=10000
"$PROG" $N
pid=$(ls "$tmp/d" | grep -v callers)
[ -f "$tmp/d/$pid.callers" ] && ok || fail "no $pid.callers beside the profile"
line=$(grep -n 'if (unlikely(!p))' "$SRC_DIR/tests/likelytop/callers_prog.c" | cut -d: -f1)
# the known figures: a 3N calls, 1% NULL; b 2N, 25%; c N, 60%
want='[["caller_c",10000,6000],["caller_b",20000,5000],["caller_a",30000,300]]'
for site in hinted "callers_prog.c:$line"; do
	run "$LT" --callers "$site" -p "$pid" -b -J
	expect_rc 0 "--callers $site -p PID"
	expect_eq "$(jq -c '[.callers[] | [(.caller | sub("\\+0x[0-9a-f]+$"; "")), .calls, .wrong]]' <<<"$out")" \
		"$want" "--callers $site: exact per caller, sorted by wrong"
	expect_eq "$(jq -c '[.calls, .wrong, .lost, .site.hint, (.callers | map(.module) | unique)]' <<<"$out")" \
		'[60000,11300,0,"unlikely",["lt_callers_prog"]]' "--callers $site: totals"
done
run "$LT" --callers hinted -p "$pid" -b --format csv
expect_eq "$(sed 's/+0x[0-9a-f]*,/,/' <<<"$out")" "iteration,caller,module,calls,wrong
1,caller_c,lt_callers_prog,10000,6000
1,caller_b,lt_callers_prog,20000,5000
1,caller_a,lt_callers_prog,30000,300" "CSV"
run "$LT" --callers hinted -p "$pid" -b -n 2 -d 0.1
expect_rc 0 "text, two snapshots"
expect_eq "$(grep -c '60.00  caller_c+0x[0-9a-f]* \[lt_callers_prog\]$' <<<"$out")" 2 "text rows"
expect_match "$out" "^hint: unlikely\(\) at .*callers_prog.c:$line: wrong when the condition is true" "text header"
# the caller names agree with the symbols (nm): caller_c's return address
# lies inside caller_c
addr=$(jq -r '.callers[0].caller' <<<"$("$LT" --callers hinted -p "$pid" -b -J)")
[[ $addr =~ ^caller_c\+0x[0-9a-f]+$ ]] && ok || fail "caller name $addr"

# --suggest: two of the three callers make 97.3% of the wrong
# evaluations, and the patch's message says so with their figures
run "$LT" --suggest "$SRC_DIR/tests/likelytop" -p "$pid" --min-miss 10 --min-total 1
expect_rc 0 "--suggest on the program's profile"
expect_match "$out" "^  callers:   two of its 3 callers made 97\.3% of the wrong
             evaluations \(counted per caller by likely_prof\.h\):
             caller_c\+0x[0-9a-f]+ \[lt_callers_prog\]: 6000 wrong of 10000 calls
             caller_b\+0x[0-9a-f]+ \[lt_callers_prog\]: 5000 wrong of 20000 calls
             Fixing those callers, not the hint, is the alternative\.$" "--suggest names the callers"
mv "$tmp/d/$pid.callers" "$tmp/callers.saved"
run "$LT" --suggest "$SRC_DIR/tests/likelytop" -p "$pid" --min-miss 10 --min-total 1
expect_rc 0 "--suggest without the callers file"
expect_match "$out" "^  action:    remove the hint" "the patch"
grep -q "callers:" <<<"$out" && fail "a callers paragraph without counts" || ok
mv "$tmp/callers.saved" "$tmp/d/$pid.callers"

# refusals
run "$LT" --callers nosuch -p "$pid" -b
expect_rc 1 "a function without counts"
expect_match "$err" "no caller counts for it" "says why"
run "$LT" --callers hinted -p 0 -b
expect_rc 2 "pid 0"
run "$LT" --callers hinted -p 4194304 -b
expect_rc 1 "a pid without a callers file"
expect_match "$err" "LIKELY_PROF_CALLERS" "says how to get one"
printf 'likely_prof callers 1\nunlikely\t1\t2\tf\n' >"$tmp/d/4194305.callers"
run "$LT" --callers f -p 4194305 -b
expect_rc 1 "a malformed callers file"
expect_match "$err" "line 2: not a likely_prof callers file" "names the line"
run "$LT" --callers hinted -p "$pid"
expect_rc 2 "--callers without -b"
run "$LT" --callers hinted --uprobe -b
expect_rc 2 "--uprobe without -p"
run "$LT" --uprobe -b
expect_rc 2 "--uprobe without --callers"
finish
