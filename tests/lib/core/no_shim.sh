# The global sysroot is a shim kept for outside programs (issue 25): the
# tools open one root handle (tool_root()) and pass it, and the library
# takes the root from the handle it is given.  Neither calls the shim nor
# the default-root helpers again: read from the built objects (what each
# calls) and from the sources (code another build leaves out).
. "$SRC_DIR/tests/cli/lib.sh"
command -v nm >/dev/null || skip_test "nm (binutils) is not installed"
shim='kattr_set_sysroot kattr_get_sysroot kattr_sysroot_from_env kattr_sysroot_open kattr_sysroot_path kattr_sysroot_canonical kattr_root_default'
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

# every object of lib/ and src/ but the shim's own file
find "$BUILD_DIR/lib" "$BUILD_DIR/src" -path '*/CMakeFiles/*' -name '*.o' \
	! -name 'sysroot.c.o' | sort >"$t/objs"
[ -s "$t/objs" ] && ok || fail "no object of lib/ or src/ under $BUILD_DIR"
[ "$(grep -c '/src/' "$t/objs")" -gt 0 ] && ok || fail "no tool object under $BUILD_DIR/src"
while read -r o; do
	nm -u "$o" | awk '{ print $NF }' >"$t/undef"
	for s in $shim; do
		if grep -qx "$s" "$t/undef"; then
			fail "${o#"$BUILD_DIR"/} calls $s (the global sysroot's shim): pass a struct kattr_root instead"
		fi
	done
	ok
done <"$t/objs"

# the sources, every build's code (WITH_* off or on)
for s in $shim; do
	hits=$(grep -rnw "$s" "$SRC_DIR/src" "$SRC_DIR/lib" --include='*.c' --include='*.h' |
		grep -v "^$SRC_DIR/lib/core/sysroot.c:" |
		grep -v "^$SRC_DIR/lib/include/kattr/kattr.h:" |
		grep -v "^$SRC_DIR/lib/include-private/kattr/private_core.h:" |
		grep -v ':[0-9]*:\s*\(/\*\| \*\)')
	[ -z "$hits" ] && ok || fail "$s called outside the shim: $hits"
done

# and the check sees a call: an object that calls the shim is found
printf '%s\n' 'int kattr_set_sysroot(const char *);' \
	'int f(void) { return kattr_set_sysroot(0); }' >"$t/s.c"
if ${CC:-cc} -c "$t/s.c" -o "$t/s.o" 2>/dev/null; then
	nm -u "$t/s.o" | awk '{ print $NF }' | grep -qx kattr_set_sysroot && ok ||
		fail "nm -u does not list a call to kattr_set_sysroot"
fi
finish
