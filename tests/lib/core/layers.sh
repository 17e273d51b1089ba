# lib/'s layers (issue 25): the files of core/ call each other in one
# direction only, resolve -> sysroot -> mountinfo -> mount -> attr (read
# from the built objects: what each defines and what it calls), and a
# layer violation fails to compile: a file of lib/ sees only its own
# layer's private header and the layers below, never kattr/private.h.
. "$SRC_DIR/tests/cli/lib.sh"
command -v nm >/dev/null || skip_test "nm (binutils) is not installed"
cc=${CC:-cc}
command -v "$cc" >/dev/null || skip_test "no C compiler ($cc)"
objs="$BUILD_DIR/lib/CMakeFiles/kattr_objs.dir/core"
[ -d "$objs" ] || skip_test "$objs is not built"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

# the call edges between core's files: "caller callee symbol"
for o in "$objs"/*.o; do
	nm --defined-only "$o" | awk -v f="$(basename "$o" .c.o)" '$2 ~ /^[TtWw]$/ { print $3, f }'
done | sort -k1,1 >"$t/defs"
for o in "$objs"/*.o; do
	nm -u "$o" | awk -v f="$(basename "$o" .c.o)" '{ print $NF, f }'
done | sort -k1,1 | join - "$t/defs" | awk '$2 != $3 { print $2, $3, $1 }' >"$t/edges"
[ -s "$t/edges" ] && ok || fail "no call between core's files found in $objs"
rank() { case $1 in str) echo 0 ;; resolve) echo 1 ;; sysroot) echo 2 ;;
	mountinfo) echo 3 ;; mount) echo 4 ;; attr) echo 5 ;; *) echo 9 ;; esac; }
while read -r from to sym; do
	if [ "$(rank "$from")" -gt "$(rank "$to")" ] && [ "$(rank "$from")" != 9 ]; then
		ok
	else
		fail "lib/core/$from.c calls $sym in lib/core/$to.c: a call up the stack (resolve -> sysroot -> mountinfo -> mount -> attr), or a file the stack does not know"
	fi
done <"$t/edges"

# compile SNIPPET: 0 when it compiles as a file of lib/ would
compile() {
	printf '%s\n' "$1" >"$t/s.c"
	"$cc" -std=gnu11 -Werror=implicit-function-declaration -DKATTR_BUILDING_LIB \
		-I"$SRC_DIR/lib/include" -I"$SRC_DIR/lib/include-private" \
		-c "$t/s.c" -o "$t/s.o" 2>"$t/err"
}
compile '#include "kattr/private_core.h"
int f(void) { struct kattr_root *r; return kattr_root_open(NULL, &r); }' && ok ||
	fail "core's own calls do not compile with private_core.h: $(head -3 "$t/err")"
compile '#include "kattr/private_core.h"
int f(void) { return kattr_rg_open(0, 0, 0); }' &&
	fail "core sees kattr_rg_open (a layer above) through private_core.h" || ok
compile '#include "kattr/private_sys.h"
int f(void) { return kattr_profile_parse_likely_row(0, 0); }' &&
	fail "sys sees the profile layer through private_sys.h" || ok
compile '#include "kattr/private.h"' &&
	fail "kattr/private.h (every layer) compiles inside lib/" || ok
grep -q 'private_<layer>' "$t/err" && ok ||
	fail "including kattr/private.h in lib/ does not say why: $(head -3 "$t/err")"
finish
