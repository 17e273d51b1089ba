# cmake --install puts binaries, libkattr (shared and static), its headers,
# a working pkg-config file and the man pages where GNUInstallDirs says;
# the bash completions where bash-completion's pkg-config file says (under
# the prefix); a program builds against the installed library both ways; the shared
# library exports only kattr_* symbols; the sonames: libkattr.so.1,
# liblikelyprof.so.0.
. "$SRC_DIR/tests/cli/lib.sh"
command -v pkg-config >/dev/null || skip_test "pkg-config is not installed"
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
run cmake --install "$BUILD_DIR" --prefix "$dest"
expect_rc 0 "cmake --install"

for f in sbin/rgctl sbin/likelytop bin/splicebench include/kattr/kattr.h \
	share/man/man8/rgctl.8 share/man/man8/likelytop.8 \
	share/man/man1/splicebench.1 share/man/man3/libkattr.3 \
	share/bash-completion/completions/rgctl \
	share/bash-completion/completions/likelytop \
	share/bash-completion/completions/splicebench; do
	[ -e "$dest/$f" ] && ok || fail "$f not installed"
done
so=$(find "$dest" -name 'libkattr.so.*' -type f | head -1)
a=$(find "$dest" -name 'libkattr.a' | head -1)
pc=$(find "$dest" -name 'libkattr.pc' | head -1)
[ -n "$so" ] && ok || fail "libkattr.so not installed"
[ -n "$a" ] && ok || fail "libkattr.a not installed"
[ -n "$pc" ] && ok || fail "libkattr.pc not installed"
[ -n "$so" ] && [ -n "$pc" ] || finish

# Each shared library's ELF SONAME, read from the link a program is built
# against (libNAME.so), and the soname's own link installed beside it.
# libkattr.so.1: the release with KATTR_1 removed names from KATTR_0
# (lib/libkattr.map), an ABI break; liblikelyprof did not change.
if command -v readelf >/dev/null; then
	for want in libkattr.so.1 liblikelyprof.so.0; do
		dev=$(find "$dest" -name "${want%.so.*}.so" | head -1)
		got=$(readelf -d "$dev" 2>/dev/null | sed -n 's/.*(SONAME).*\[\(.*\)\]$/\1/p')
		[ "$got" = "$want" ] && ok || fail "${dev:-${want%.so.*}.so (not installed)}: SONAME '$got', not $want"
		[ -e "$(dirname "$dev")/$want" ] && ok || fail "$want (the soname's link) not installed"
	done
else
	echo "note: readelf (binutils) is not installed: the sonames are not checked"
fi

bad=$(nm -D --defined-only "$so" | awk '$2 ~ /[TDBR]/ && $3 !~ /^kattr_/ {print $3}')
[ -z "$bad" ] && ok || fail "libkattr.so exports non-kattr symbols: $bad"

case "${SANITIZE:-OFF}" in
ON|1|TRUE|YES|on|true)
	echo "note: sanitizer build: the probe programs (plain cc) are not linked against an instrumented library"
	finish ;;
esac
cat >"$dest/probe.c" <<'C'
#include <errno.h>
#include <stdio.h>
#include <kattr/kattr.h>
int main(void)
{
	struct kattr_mount *m;
	int r = kattr_mount_find("proc", NULL, KATTR_MAGIC_PROC, 0, &m);

	if (r < 0)
		return 1;
	printf("%s\n", kattr_mount_path(m));
	kattr_mount_close(m);
	return kattr_name_check("..", NULL) == -EINVAL ? 0 : 1;
}
C
export PKG_CONFIG_PATH="$(dirname "$pc")"
run sh -c "cc -o '$dest/probe' '$dest/probe.c' \$(pkg-config --cflags --libs libkattr)"
expect_rc 0 "build against the installed shared library ($err)"
run env LD_LIBRARY_PATH="$(dirname "$so")" "$dest/probe"
expect_rc 0 "run against the installed shared library"
expect_match "$out" "^/proc$" "probe output"
run sh -c "cc -o '$dest/probe-static' \$(pkg-config --cflags libkattr) '$dest/probe.c' $(dirname "$a")/libkattr.a \$(pkg-config --static --libs-only-L libkattr) \$(pkg-config --static --libs-only-l libkattr | sed 's/-lkattr//')"
expect_rc 0 "build against the installed static library ($err)"
# (a -DLIKELY_PROF=ON build: the probe still needs the shared liblikelyprof)
run env LD_LIBRARY_PATH="$(dirname "$so")" "$dest/probe-static"
ldd "$dest/probe-static" | grep -q 'libkattr\.so' && fail "probe-static links libkattr.so" || ok
expect_rc 0 "run the statically linked probe"

# libkattr(3)'s EXAMPLES program, taken from the installed page as
# written, builds with the command the page gives and runs.
page="$dest/share/man/man3/libkattr.3"
awk '/^\.SH EXAMPLES/ { e = 1 } e && /^\.EX/ && !x++ { on = 1; next }
	on && /^\.EE/ { exit } on' "$page" | sed 's/\\e/\\/g; s/\\-/-/g' >"$dest/groups.c"
grep -q 'int main' "$dest/groups.c" && ok || fail "libkattr(3) has no example program"
run sh -c "cd '$dest' && cc -o groups groups.c \$(pkg-config --cflags --libs libkattr)"
expect_rc 0 "build libkattr(3)'s example ($err)"
run env LD_LIBRARY_PATH="$(dirname "$so")" "$dest/groups"
expect_rc 0 "run libkattr(3)'s example"
expect_match "$out" "^kernel $(uname -r)\$" "libkattr(3)'s example prints the kernel release"
# (the groups themselves change as other tests run: only the form)
bad=$(printf '%s\n' "$out" | sed 1d | grep -Ev '^(group [^/]+|no cgroup v1 cpu hierarchy: .*)$')
[ -z "$bad" ] && ok || fail "libkattr(3)'s example printed: $bad"
finish
