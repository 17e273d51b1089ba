# lib/'s layers (issue 25): within proc/, chan/, rg/ and rgconf/ the files
# call each other without a cycle (read from the built objects: what each
# defines and what it calls; rg/: base.c at the bottom, the backends over
# it, rg.c on top), and a file of one folder that includes the
# header of a layer it does not use fails to compile (lib/CMakeLists.txt
# sets KATTR_USES_<LAYER> per folder; each layer's headers check it).
# core/'s own order is tests/lib/core/layers.sh.
. "$SRC_DIR/tests/cli/lib.sh"
command -v nm >/dev/null || skip_test "nm (binutils) is not installed"
command -v tsort >/dev/null || skip_test "tsort (coreutils) is not installed"
cc=${CC:-cc}
command -v "$cc" >/dev/null || skip_test "no C compiler ($cc)"
objs="$BUILD_DIR/lib/CMakeFiles/kattr_objs.dir"
[ -d "$objs/rgconf" ] && [ -d "$objs/rg" ] || skip_test "$objs is not built"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

# "caller callee" edges between the files of one folder
edges() {
	for o in "$objs/$1"/*.o; do
		# an object whose source is gone (a build dir older than a move)
		[ -e "$SRC_DIR/lib/$1/$(basename "$o" .o)" ] || continue
		nm --defined-only "$o" | awk -v f="$(basename "$o" .c.o)" '$2 ~ /^[TtWwDdBbRr]$/ { print $3, f }'
	done | sort -k1,1 >"$t/defs"
	for o in "$objs/$1"/*.o; do
		[ -e "$SRC_DIR/lib/$1/$(basename "$o" .o)" ] || continue
		nm -u "$o" | awk -v f="$(basename "$o" .c.o)" '{ print $NF, f }'
	done | sort -k1,1 | join - "$t/defs" | awk '$2 != $3 { print $2, $3 }' | sort -u
}
for d in proc chan rg rgconf; do
	edges "$d" >"$t/edges.$d"
	if tsort "$t/edges.$d" >/dev/null 2>"$t/cycle"; then
		ok
	else
		fail "lib/$d/: a call cycle between its files: $(tr '\n' ' ' <"$t/cycle")"
	fi
done
[ -s "$t/edges.rgconf" ] && ok || fail "no call between rgconf's files found in $objs/rgconf"
# rg/'s bottom: base.c calls no other file of rg/ but rg_parse.c
if grep -q '^base ' "$t/edges.rg" && ! grep -v '^base rg_parse$' "$t/edges.rg" | grep -q '^base '; then
	ok
else
	fail "lib/rg/base.c: not found, or it calls up: $(grep '^base ' "$t/edges.rg" | tr '\n' ' ')"
fi

# compile SNIPPET as a file of lib/ using LAYERS (PROC RG ...) would
compile() {
	printf '%s\n' "$1" >"$t/s.c"
	shift
	set -- $(printf -- '-DKATTR_USES_%s ' "$@")
	"$cc" -std=gnu11 -Werror=implicit-function-declaration -DKATTR_BUILDING_LIB "$@" \
		-I"$SRC_DIR/lib/include" -I"$SRC_DIR/lib/include-private" \
		-c "$t/s.c" -o "$t/s.o" 2>"$t/err"
}
up() {	# up WHAT HEADER LAYERS...: including HEADER must fail
	what=$1 hdr=$2
	shift 2
	if compile "#include \"kattr/$hdr\"" "$@"; then
		fail "$what includes kattr/$hdr, a layer above it"
	elif grep -q 'does not use' "$t/err"; then
		ok
	else
		fail "$what including kattr/$hdr fails without saying why: $(head -3 "$t/err")"
	fi
}
up "proc/" private_rg.h PROC
up "proc/" rg.h PROC
up "chan/" private_proc.h CHAN
up "rg/" private_rgconf.h PROC RG
up "rg/" rgplan.h PROC RG
up "rg/" private_chan.h PROC RG
up "core/" proc.h
up "profile/" rg.h PROFILE
compile '#include "kattr/private_rgconf.h"
int f(void) { return kattr_rg_parse_pid("1", 0); }' PROC RG RGCONF && ok ||
	fail "rgconf/ does not compile with the layers below it: $(head -3 "$t/err")"
compile '#include "kattr/private_proc.h"
int f(void) { return kattr_proc_foreach(0, 0, 0); }' PROC && ok ||
	fail "proc/ does not compile with its own header: $(head -3 "$t/err")"
finish
