#!/bin/bash
# import-captures.sh [--callers] [OUTDIR]: on the host, after scripts/vm.sh, take the
# guest's captures (OUTDIR/captures, default out/vm) into tests/data/linux-6.1/
# (xz) and seed the fuzz corpora (tests/fuzz/corpus/) with slices of them
# (libFuzzer's inputs stay under 64 KiB).  The kfree callers that
# tests/vm/callers.sh captured (likelytop --callers kfree -J over its exec
# loop) go in as kfree_callers.json with a line in KERNEL; --callers takes
# only them (after a run of KATTR_VM_TESTS=callers, whose profiles are
# too short to replace the full suite's).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
callers_only=no
[ "${1:-}" = --callers ] && { callers_only=yes; shift; }
cap=${1:-$top/out/vm}/captures
dst=$top/tests/data/linux-6.1
fz=$top/tests/fuzz/corpus
import_callers() {
	[ -s "$cap/kfree_callers.json" ] || return 0
	cp "$cap/kfree_callers.json" "$dst/kfree_callers.json"
	sed -i '/^kfree_callers.json:/d' "$dst/KERNEL"
	jq -r '"kfree_callers.json: likelytop --callers kfree -b -n 1 -d 3 -J (\(.site.mechanism)) over tests/vm/callers.sh'"'"'s exec loop, captured \(env.CAPTURED) on \(env.KVER): \(.calls) calls, \(.wrong) wrong (ZERO_OR_NULL_PTR), \(.callers | length) callers; most wrong: \(.callers[0].caller) \(.callers[0].wrong)"' \
		"$dst/kfree_callers.json" >>"$dst/KERNEL"
}
if [ $callers_only = yes ]; then
	[ -s "$cap/kfree_callers.json" ] || { echo "import-captures: no $cap/kfree_callers.json" >&2; exit 1; }
	export CAPTURED=$(sed -n 's/^captured: \([^,]*\),.*/\1/p' "$cap/KERNEL")
	export KVER=$(sed -n 's/^kernel: //p' "$cap/KERNEL")
	import_callers
	cat "$dst/KERNEL"
	exit 0
fi
for f in KERNEL likely_prof likely_prof.early branch_annotated; do
	[ -s "$cap/$f" ] || { echo "import-captures: no $cap/$f" >&2; exit 1; }
done
mkdir -p "$dst"
cp "$cap/KERNEL" "$dst/KERNEL"
rm -f "$dst"/*.xz
for f in likely_prof branch_annotated branch_all; do
	[ -s "$cap/$f" ] || continue
	echo "$f: $(($(wc -l <"$cap/$f") - $([ $f = likely_prof ] && echo 3 || echo 2))) sites" >>"$dst/KERNEL"
	xz -9e -T1 -c "$cap/$f" >"$dst/$f.xz"
done
export CAPTURED=$(sed -n 's/^captured: \([^,]*\),.*/\1/p' "$cap/KERNEL")
export KVER=$(sed -n 's/^kernel: //p' "$cap/KERNEL")
import_callers
# corpora: the header and 300 rows of each; two likely_prof readings for
# parse_next (sites appear, counts move); single rows of each kind
head -303 "$cap/likely_prof" >"$fz/fuzz_profile/real_likely_prof"
head -302 "$cap/branch_annotated" >"$fz/fuzz_profile/real_branch_annotated"
[ -s "$cap/branch_all" ] && head -302 "$cap/branch_all" >"$fz/fuzz_profile/real_branch_all"
{ head -303 "$cap/likely_prof.early"; echo '%%'; head -303 "$cap/likely_prof"; } >"$fz/fuzz_profile_next/real_likely_prof"
{ head -302 "$cap/branch_annotated"; echo '%%'; head -2 "$cap/branch_annotated"; sed -n '3,302p' "$cap/branch_annotated" | tac; } >"$fz/fuzz_profile_next/real_branch_annotated_resorted"
grep -m1 '^+unlikely' "$cap/likely_prof" | tr -d '\n' >"$fz/fuzz_prof_likely_row/real_plus"
grep -m1 '^-likely' "$cap/likely_prof" | tr -d '\n' >"$fz/fuzz_prof_likely_row/real_minus"
grep -m1 '^ likely' "$cap/likely_prof" | tr -d '\n' >"$fz/fuzz_prof_likely_row/real_likely"
# trace rows: the first byte says which format (bit 0: branch_all)
{ printf '\0'; grep -m1 '^ *[0-9]*/[0-9]' "$cap/branch_annotated" | tr -d '\n'; } >"$fz/fuzz_prof_trace_row/real_constant"
{ printf '\0'; sed -n 3p "$cap/branch_annotated" | tr -d '\n'; } >"$fz/fuzz_prof_trace_row/real_annotated"
[ -s "$cap/branch_all" ] && { printf '\1'; sed -n 3p "$cap/branch_all" | tr -d '\n'; } >"$fz/fuzz_prof_trace_row/real_all"
find "$fz" -name 'real_*' -empty -delete
cat "$dst/KERNEL"
ls -l "$dst"
