# cmake --install puts likely_prof.h, liblikelyprof (shared and static) and
# a working likelyprof.pc in place; a program built with
# `pkg-config --cflags --libs likelyprof` is profiled (its snapshot has
# its site), one built without -DLIKELY_PROF needs no library; the shared
# library exports only likely_prof_* symbols.
. "$SRC_DIR/tests/cli/lib.sh"
command -v pkg-config >/dev/null || skip_test "pkg-config is not installed"
case "${SANITIZE:-OFF}" in
ON|1|TRUE|YES|on|true) skip_test "sanitizer build: plain cc probes cannot link the instrumented library" ;;
esac
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
run cmake --install "$BUILD_DIR" --prefix "$dest"
expect_rc 0 "cmake --install"
for f in include/likely_prof.h share/man/man3/likely_prof.3; do
	[ -e "$dest/$f" ] && ok || fail "$f not installed"
done
so=$(find "$dest" -name 'liblikelyprof.so.0*' -type f | head -1)
a=$(find "$dest" -name 'liblikelyprof.a' | head -1)
pc=$(find "$dest" -name 'likelyprof.pc' | head -1)
[ -n "$so" ] && [ -n "$a" ] && [ -n "$pc" ] && ok || { fail "library or likelyprof.pc not installed: '$so' '$a' '$pc'"; finish; }
bad=$(nm -D --defined-only "$so" | awk '$2 ~ /[TDBR]/ && $3 !~ /^likely_prof_/ {print $3}')
[ -z "$bad" ] && ok || fail "liblikelyprof.so exports other symbols: $bad"

cat >"$dest/probe.c" <<'C'
#include <stdio.h>
#include <likely_prof.h>
int main(int argc, char **argv)
{
	int odd = 0;

	for (int i = 0; i < 7; i++)
		if (unlikely(i & 1))
			odd++;
	printf("%d\n", odd);
	return 0;
}
C
export PKG_CONFIG_PATH="$(dirname "$pc")"
libdir=$(dirname "$so")
run sh -c "cc -Wall -Werror -o '$dest/probe' '$dest/probe.c' \$(pkg-config --cflags --libs likelyprof)"
expect_rc 0 "build against the installed shared library ($err)"
mkdir "$dest/prof"
run env LD_LIBRARY_PATH="$libdir" LIKELY_PROF_DIR="$dest/prof" "$dest/probe"
expect_rc 0 "run the profiled probe"
grep -q "^ unlikely |        3|        4	main()@:$dest/probe.c@8\$" "$dest/prof"/[0-9]* 2>/dev/null && ok ||
	fail "profiled probe: snapshot: $(cat "$dest/prof"/* 2>&1)"
run sh -c "cc -o '$dest/probe-static' \$(pkg-config --cflags likelyprof) '$dest/probe.c' '$a' -pthread"
expect_rc 0 "build against the installed static library ($err)"
rm -f "$dest/prof"/*
run env LIKELY_PROF_DIR="$dest/prof" "$dest/probe-static"
expect_rc 0 "run the statically linked probe"
grep -q "|        3|        4	main()@" "$dest/prof"/[0-9]* 2>/dev/null && ok || fail "static probe: no snapshot"
run sh -c "cc -Wall -Werror -o '$dest/probe-plain' -I'$dest/include' '$dest/probe.c'"
expect_rc 0 "build without LIKELY_PROF and without the library ($err)"
finish
