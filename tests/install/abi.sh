# libkattr's ABI is its public API (issues 15 and 25): libkattr.so
# exports exactly the names lib/libkattr.map lists, fewer than 80; the
# public headers declare KATTR_API exactly those; libkattr(3) documents
# every one of them and no other function (the export count and the man
# page agree); every kattr_* function the tools and benches call is
# exported or declared in a private header (lib/include-private/kattr/,
# reached through libkattr.a), and no private header marks anything
# KATTR_API or declares an export.  Each failure names the symbol and
# what to do.
. "$SRC_DIR/tests/cli/lib.sh"
command -v nm >/dev/null || skip_test "nm (binutils) is not installed"
command -v perl >/dev/null || skip_test "perl is not installed"
so="$BUILD_DIR/lib/libkattr.so"
map="$SRC_DIR/lib/libkattr.map"
man="$SRC_DIR/man/libkattr.3"
pub="$SRC_DIR/lib/include/kattr"
privdir="$SRC_DIR/lib/include-private/kattr"
max_exports=79
[ -e "$so" ] || skip_test "$so is not built"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

# kattr_* names declared KATTR_API (or not) in C headers, one a line.
declared() {
	perl -0777 -ne 'while (/KATTR_API[^;(]*?\b(kattr_\w+)\s*\(/g) { print "$1\n" }' "$@" | sort -u
}
# Every kattr_* word of C sources outside comments (all configurations).
words() {
	local f
	for f in "$@"; do
		gcc -fpreprocessed -dD -E -P -x c "$f" 2>/dev/null
	done | grep -o '\bkattr_[A-Za-z0-9_]*' | sort -u
}

sed -n '/global:/,/local:/p' "$map" | sed 's,/\*.*\*/,,' |
	grep -o '\bkattr_[A-Za-z0-9_]*' | sort -u >"$t/listed"
nm -D --defined-only "$so" | awk '$2 != "A" { sub(/@.*/, "", $3); print $3 }' |
	sort -u >"$t/exported"
[ -s "$t/listed" ] && ok || fail "no symbol listed in $map"
# what this build's tools and benches call: "symbol source" lines
find "$BUILD_DIR/src" "$BUILD_DIR/bench" -name '*.o' | sort | while read -r o; do
	src=${o#"$BUILD_DIR"/}
	src=$(printf '%s' "$src" | sed 's,CMakeFiles/[^/]*\.dir/,,; s,\.o$,,')
	nm -u "$o" | awk -v s="$src" '$NF ~ /^kattr_/ { print $NF, s }'
done | sort -u >"$t/calls"
cut -d' ' -f1 "$t/calls" | sort -u >"$t/called"
grep -o '\bkattr_[A-Za-z0-9_]*' "$man" | sort -u >"$t/documented"
declared "$pub"/*.h >"$t/public"
declared "$privdir"/*.h >"$t/private_api"
for h in "$privdir"/*.h; do
	gcc -fpreprocessed -dD -E -P -x c "$h"
done | perl -0777 -ne 'while (/\b(kattr_\w+)\s*\(/g) { print "$1\n" }' | sort -u >"$t/private"
# the functions libkattr(3) names: "name(" in the synopses, ".BR name ()"
perl -ne 'while (/\b(kattr_\w+)(?:\(| \(\))/g) { print "$1\n" }' "$man" | sort -u >"$t/doc_functions"
[ -s "$t/called" ] && ok || fail "no kattr_* call found in the objects under $BUILD_DIR/src"

# fail_each FORMAT: a failure for each line "NAME [WHERE]" on stdin
# (FORMAT's first %s the name, its second, if any, where).
fail_each() {
	local s where
	while read -r s where; do
		if [ -n "$where" ]; then
			fail "$(printf "$1" "$s" "$where")"
		else
			fail "$(printf "$1" "$s")"
		fi
	done
}
# Where the name is called from, or declared: for the messages.
callers() { awk -v s="$1" '$1 == s { print $2 }' "$t/calls" | head -3 | tr '\n' ' ' | sed 's/ $//'; }
header_of() { grep -lw "$1" "$pub"/*.h | sed "s,^$SRC_DIR/,," | head -1; }

fail_each "%s is listed in lib/libkattr.map but libkattr.so does not define it: a typo, or a function gone (drop the line)" \
	< <(comm -23 "$t/listed" "$t/exported")
fail_each "%s is exported but lib/libkattr.map does not list it (the map's 'local: *;' is missing?)" \
	< <(comm -13 "$t/listed" "$t/exported")
fail_each "%s is called by %s but neither exported nor private: add it to lib/libkattr.map (and declare it KATTR_API in its public header), or declare it in lib/include-private/kattr/" \
	< <(comm -23 "$t/called" "$t/listed" | comm -23 - "$t/private" |
		while read -r s; do printf '%s\n' "$s $(callers "$s")"; done)
fail_each "%s is declared KATTR_API in %s but not exported: add it to lib/libkattr.map, or move it to lib/include-private/kattr/private.h" \
	< <(comm -23 "$t/public" "$t/listed" | while read -r s; do printf '%s\n' "$s $(header_of "$s")"; done)
fail_each "%s is exported but no public header (lib/include/kattr/) declares it KATTR_API" \
	< <(comm -13 "$t/public" "$t/listed")
fail_each "%s is declared in lib/include-private/kattr/ but exported: one or the other" \
	< <(comm -12 "$t/private" "$t/listed")
fail_each "%s is KATTR_API in a header of lib/include-private/kattr/: private functions are not marked for export" \
	<"$t/private_api"
# libkattr(3) documents every export, and names no other function.
fail_each "%s is exported (declared in lib/include/kattr/%s) but libkattr(3) does not document it: add its entry to man/libkattr.3" \
	< <(comm -23 "$t/exported" "$t/documented" |
		while read -r s; do printf '%s\n' "$s $(header_of "$s" | sed 's,.*/,,')"; done)
fail_each "%s is a function libkattr(3) documents but libkattr.so does not export: drop its entry, or export it" \
	< <(comm -23 "$t/doc_functions" "$t/exported")
# Each export carries the version node the map lists it in ("name NODE"),
# and the current node is KATTR_1 (issue 25's names): a function renamed
# or changed goes in a new node, never back into an old one.
perl -ne 'if (/^\s*(KATTR_[\w.]+)\s*\{/) { $n = $1 } elsif (/\}/) { $n = "" }
	s,/\*.*?\*/,,g; print "$1 $n\n" if $n && /^\s*(kattr_\w+)\s*;/' "$map" |
	sort >"$t/listed_nodes"
nm -D --defined-only "$so" | awk '$2 != "A" && $3 ~ /@@/ { split($3, v, "@@"); print v[1], v[2] }' |
	sort >"$t/exported_nodes"
fail_each "%s is exported in node %s, not the one lib/libkattr.map lists it in" \
	< <(comm -13 "$t/listed_nodes" "$t/exported_nodes")
grep -q '^KATTR_1 {' "$map" && ok || fail "lib/libkattr.map has no KATTR_1 node (issue 25's renamed exports)"
for s in kattr_rg_create kattr_why_text kattr_name_check kattr_proc_foreach kattr_rg_share_set; do
	grep -qx "$s KATTR_1" "$t/exported_nodes" && ok ||
		fail "$s is not exported in node KATTR_1 (issue 25: changed since KATTR_0)"
done
n=$(wc -l <"$t/exported")
[ "$n" -le "$max_exports" ] && ok ||
	fail "libkattr.so exports $n functions, more than $max_exports (issue 25): a function only the suite's tools need goes in lib/include-private/kattr/"
[ "$n" = "$(wc -l <"$t/doc_functions")" ] && ok ||
	fail "libkattr.so exports $n functions but libkattr(3) documents $(wc -l <"$t/doc_functions")"
echo "$(wc -l <"$t/exported") symbols exported, $(wc -l <"$t/called") called by src/ and bench/"
finish
