# rgctl list, in text and --raw, on groups made by mkdir with names rgctl
# would never make (issue 24): invalid UTF-8 (two that differ in one byte),
# a backslash, the text of an escape, a control byte, a blank, valid UTF-8.
# Each prints as its real bytes escaped (\xNN), every name differently,
# and decodes back to itself; --json repairs instead (U+FFFD).  Needs root
# and a writable v1 cpu mount.
. "$(dirname "$0")/common.sh"
require_root "creates groups in the cgroup v1 cpu hierarchy"
CPU=$(mount_of cgroup cpu)
[ -n "$CPU" ] || skip_test "no cgroup v1 hierarchy with the cpu controller is mounted"
use_hierarchy "$CPU"
r() { run "$RG" --backend cgroup1 --root "$CPU" "$@"; }
# valid UTF-8 prints as it is on a UTF-8 terminal (escaped elsewhere)
export LC_ALL=C.UTF-8
cafe='caf'$'\xc3\xa9'
[ "$(locale charmap 2>/dev/null)" = UTF-8 ] || cafe='caf\xc3\xa9'

names=($'hx-x\xff' $'hx-x\xfe' 'a\b' 'lit\xff' $'c\x01d' 'sp ace' $'caf\xc3\xa9')
mkdir "$CPU/$G" || skip_test "cannot create groups in $CPU"
for n in "${names[@]}"; do
	mkdir "$CPU/$G/$n" || skip_test "cannot create a group named $(printf '%q' "$n")"
done
# what each prints as, sorted as the tree is (by name, bytewise)
want_text=$(printf '%s\n' 'a\x5cb' 'c\x01d' "$cafe" 'hx-x\xfe' 'hx-x\xff' \
	'lit\x5cxff' 'sp ace' | LC_ALL=C sort)

# decodes NAME...: each escaped name back to its bytes, one per line, as hex
decoded() { local n; for n in "$@"; do printf '%b' "$n" | od -An -tx1 | tr -d ' \n'; echo; done | LC_ALL=C sort; }
real=$(decoded "${names[@]//\\/\\\\}")

for mode in text raw; do
	opt=(-n -o name)
	[ $mode = raw ] && opt+=(-r)
	r list "${opt[@]}" "$G"
	expect_rc 0 "list $mode"
	rows=$(printf '%s\n' "$out" | tail -n +2 | sed 's/^[^[:alnum:]\\]*//' | LC_ALL=C sort)
	want=$want_text
	[ $mode = raw ] && want=$(printf '%s\n' "$want" | sed 's/^sp ace$/sp\\x20ace/' | LC_ALL=C sort)
	expect_eq "$rows" "$want" "list $mode: the real bytes, escaped"
	[ "$(printf '%s\n' "$rows" | LC_ALL=C sort -u | wc -l)" = ${#names[@]} ] && ok ||
		fail "list $mode: two names print alike: $rows"
	mapfile -t shown <<<"$rows"
	expect_eq "$(decoded "${shown[@]}")" "$real" "list $mode: every name decodes back"
	printf '%s' "$out" | LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]' &&
		fail "list $mode: a control byte reached the terminal" || ok
done

# the GROUP column and the tree's glyphs: the same escapes
r list "$G"
expect_rc 0 "list"
expect_match "$out" "$G/hx-x\\\\xff +0 " "list: the GROUP column escaped"
expect_match "$out" "$G/a\\\\x5cb +0 " "list: a backslash as \\x5c"

# a terminal without UTF-8: valid UTF-8 escaped too, still reversible
LC_ALL=C r list -n -r -o name "$G"
expect_rc 0 "list -r in the C locale"
expect_match "$out" '^caf\\xc3\\xa9$' "C locale: UTF-8 escaped"

# JSON repairs, as documented
r --json list "$G"
expect_rc 0 "--json list"
expect_eq "$(json_get "$out" '[.groups[].name | select(startswith("'$G'/hx"))] | unique | length')" 1 \
	"--json: both invalid names repaired to one"
expect_eq "$(json_get "$out" '[.groups[].name | select(endswith("a\\b"))] | length')" 1 \
	"--json: a backslash is a backslash"

# a name in a message: escaped, not cut at the raw length
r list -o $'name,b\xffgus' "$G"
expect_rc 2 "an unknown column"
expect_match "$err" "unknown column 'b\\\\xffgus'" "the column named as typed, escaped"
finish
