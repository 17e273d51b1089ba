#!/bin/bash
# splicebench --quick on the guest kernel: every mode measured, sane
# numbers, in JSON; --huge with the guest's transparent huge pages.
. "$(dirname "$0")/lib.sh"
SB=$(tool_path splicebench)
command -v jq >/dev/null || skip_test "jq is not installed"
run "$SB" --quick --format json
expect_rc 0 "splicebench --quick"
printf '%s\n' "$out" | head -c 2000; echo
printf '%s' "$out" | jq -e . >/dev/null 2>&1 && ok || fail "--quick --format json is not JSON: ${out:0:300}"
for m in copy vmsplice gift; do
	printf '%s' "$out" | grep -q "\"$m\"" && ok || fail "mode $m missing from --quick"
done
run "$SB" --quick --huge --mode gift
expect_rc 0 "splicebench --quick --huge (THP: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null))"
finish
