# tests/cli/lib.sh itself: finish passes only when a check ran and none
# failed (issue 25: a script whose checks were all skipped passed), and
# wait_until polls with a bound.
. "$SRC_DIR/tests/cli/lib.sh"

# the exit status and output of a script that sources lib.sh and runs BODY
body() {
	run bash -c '. "$SRC_DIR/tests/cli/lib.sh"; '"$1"
}
body 'finish'
expect_rc 1 "finish after no check"
expect_match "$out" "^FAIL: no check ran" "finish after no check: said"
body 'ok; finish'
expect_rc 0 "finish after one passed check"
body 'ok; fail x; finish'
expect_rc 1 "finish after a failed check"
body 'skip_test "why"'
expect_rc 77 "skip_test"

t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
( sleep 0.3; touch "$t/late" ) &
wait_until 10 '[ -e "$t/late" ]' && ok || fail "wait_until: a condition met late"
wait
start=$SECONDS
wait_until 1 false && fail "wait_until: a condition never met" || ok
[ $((SECONDS - start)) -le 3 ] && ok || fail "wait_until 1 took $((SECONDS - start)) s"
finish
