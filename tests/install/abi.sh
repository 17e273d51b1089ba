# libkattr's ABI is what its users need (issue 15): libkattr.so exports
# exactly the names lib/libkattr.map lists; each is called by a tool or a
# bench (src/, bench/) or documented in libkattr(3); every kattr_*
# function the tools and benches call is exported; the public headers
# declare KATTR_API exactly the exported names, and the private header
# none of them; libkattr(3) documents the exports of the headers in
# DOC_HEADERS.  Each failure names the symbol and what to do.
. "$SRC_DIR/tests/cli/lib.sh"
command -v nm >/dev/null || skip_test "nm (binutils) is not installed"
command -v perl >/dev/null || skip_test "perl is not installed"
so="$BUILD_DIR/lib/libkattr.so"
map="$SRC_DIR/lib/libkattr.map"
man="$SRC_DIR/man/libkattr.3"
pub="$SRC_DIR/lib/include/kattr"
priv="$SRC_DIR/lib/include-private/kattr/private.h"
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
words $(find "$SRC_DIR/src" "$SRC_DIR/bench" -name '*.[ch]') >"$t/named"
grep -o '\bkattr_[A-Za-z0-9_]*' "$man" | sort -u >"$t/documented"
declared "$pub"/*.h >"$t/public"
declared "$priv" >"$t/private_api"
gcc -fpreprocessed -dD -E -P -x c "$priv" |
	perl -0777 -ne 'while (/\b(kattr_\w+)\s*\(/g) { print "$1\n" }' | sort -u >"$t/private"
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
fail_each "%s is exported but no tool or bench calls it and libkattr(3) does not document it: move its declaration to lib/include-private/kattr/private.h and drop it from lib/libkattr.map" \
	< <(comm -23 "$t/exported" "$t/called" | comm -23 - "$t/named" | comm -23 - "$t/documented")
fail_each "%s is declared KATTR_API in %s but not exported: add it to lib/libkattr.map, or move it to lib/include-private/kattr/private.h" \
	< <(comm -23 "$t/public" "$t/listed" | while read -r s; do printf '%s\n' "$s $(header_of "$s")"; done)
fail_each "%s is exported but no public header (lib/include/kattr/) declares it KATTR_API" \
	< <(comm -13 "$t/public" "$t/listed")
fail_each "%s is declared in lib/include-private/kattr/private.h but exported: one or the other" \
	< <(comm -12 "$t/private" "$t/listed")
fail_each "%s is KATTR_API in lib/include-private/kattr/private.h: private functions are not marked for export" \
	<"$t/private_api"
# libkattr(3) documents every export (issue 25 asks it of all): checked
# for the headers listed here, whose exports the page covers; the others'
# missing entries are counted, not failed, until issue 25 documents them.
DOC_HEADERS="taskstats.h"
for h in $DOC_HEADERS; do
	declared "$pub/$h"
done | sort -u >"$t/doc_required"
fail_each "%s is exported (declared in lib/include/kattr/%s) but libkattr(3) does not document it: add its entry to man/libkattr.3" \
	< <(comm -23 "$t/exported" "$t/documented" | comm -12 - "$t/doc_required" |
		while read -r s; do printf '%s\n' "$s $(header_of "$s" | sed 's,.*/,,')"; done)
undoc=$(comm -23 "$t/exported" "$t/documented" | wc -l)
[ "$undoc" = 0 ] || echo "note: $undoc exports are not yet in libkattr(3) (issue 25; checked for $DOC_HEADERS only)"
echo "$(wc -l <"$t/exported") symbols exported, $(wc -l <"$t/called") called by src/ and bench/"
finish
