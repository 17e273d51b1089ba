# likelytop --suggest on the real profiles of tests/data/linux-6.1 (captured
# in the patched 6.1 guest of scripts/vm.sh) against Debian's 6.1 source:
# every patch applies (git apply --check), the files they touch still build
# (make FILE.o, patches applied, then reversed), and checkpatch.pl's verdict.
# Prints the figures: wrong hints, patches, refusals and why, applied,
# built, checkpatch errors and warnings.
#
# It needs a configured kernel tree of the captured kernel, which costs
# minutes to make, so it runs only when told where one is:
#   KATTR_LINUX_SRC=DIR   a tree of linux-source-6.1 with kernel/patches/*.patch
#                         applied; configured and prepared here if it is not yet
#                         (the captured kernel's config: KATTR_LINUX_CONFIG, default
#                         the newest /var/cache/kattr-vm/*/config)
# The tree is used as it is and left as it was: each file's patches are
# applied for its build and reversed after (also when the build fails).
. "$(dirname "$0")/../cli/lib.sh"
LT=$(tool_path likelytop)
data="$SRC_DIR/tests/data/linux-6.1"
K=${KATTR_LINUX_SRC:-}
[ -n "$K" ] || skip_test "set KATTR_LINUX_SRC to a linux-source-6.1 tree with kernel/patches applied (see the top of this script)"
[ -f "$K/Makefile" ] && [ -f "$K/scripts/checkpatch.pl" ] || skip_test "$K is not a kernel tree"
[ -e "$data/likely_prof.xz" ] || skip_test "no captures in $data"
command -v git >/dev/null || skip_test "git is not installed"
command -v xz >/dev/null || skip_test "xz is not installed"
tmp=$(mktemp -d)
applied_now=
undo() {	# reverse what is applied, whatever happened
	[ -n "$applied_now" ] && (cd "$K" && git apply -R $applied_now) || true
	applied_now=
}
trap 'undo; rm -rf "$tmp"' EXIT
for f in likely_prof branch_annotated; do
	xz -dc "$data/$f.xz" >"$tmp/$f" || { fail "cannot read $data/$f.xz"; finish; }
done

if [ ! -f "$K/include/generated/autoconf.h" ]; then
	cfg=${KATTR_LINUX_CONFIG:-$(ls -t /var/cache/kattr-vm/*/config 2>/dev/null | head -1)}
	[ -f "$cfg" ] || skip_test "$K is not configured and no captured kernel config was found (KATTR_LINUX_CONFIG)"
	echo "configuring $K with $cfg (make olddefconfig prepare)"
	cp "$cfg" "$K/.config"
	(cd "$K" && nice -n 15 make -s olddefconfig && nice -n 15 make -s prepare) >"$tmp/prep.log" 2>&1 ||
		{ fail "cannot prepare $K: $(tail -5 "$tmp/prep.log")"; finish; }
fi

for f in likely_prof branch_annotated; do
	mkdir "$tmp/$f.d"
	run "$LT" --suggest "$K" -f "$tmp/$f" --suggest-out "$tmp/$f.d"
	expect_rc 0 "$f: --suggest"
	summary=$(printf '%s\n' "$err" | tail -1)
	echo "$f: ${summary#likelytop: }"
	echo "$f: refusals by reason:"
	printf '%s\n' "$err" | sed -n 's/^likelytop: refused .* missed): //p' |
		sed 's/ ([^ ]*)$//; s/: [0-9]* files named .*//' | sort | uniq -c | sed 's/^/  /'
	n=$(ls "$tmp/$f.d" | grep -c '\.patch$' || true)
	want=$(printf '%s\n' "$summary" | sed -n 's/.*: \([0-9]*\) patch.*/\1/p')
	[ "$n" = "$want" ] && ok || fail "$f: $n patch files, the summary says $want"
	[ "$n" -gt 0 ] && ok || fail "$f: no patch at all"
	napplied=0
	for p in "$tmp/$f.d"/*.patch; do
		if (cd "$K" && git apply --check "$p") 2>"$tmp/apply.err"; then
			napplied=$((napplied + 1))
		else
			fail "$f: ${p##*/} does not apply: $(cat "$tmp/apply.err")"
		fi
	done
	echo "$f: $napplied of $n patches apply (git apply --check)"
	[ "$napplied" = "$n" ] && ok || fail "$f: not every patch applies"
	# checkpatch.pl on each
	cerr=0 cwarn=0 cclean=0
	for p in "$tmp/$f.d"/*.patch; do
		out=$(cd "$K" && perl scripts/checkpatch.pl --no-tree -q --terse "$p" 2>&1 || true)
		e=$(printf '%s\n' "$out" | grep -c ': ERROR:' || true)
		w=$(printf '%s\n' "$out" | grep -c ': WARNING:' || true)
		cerr=$((cerr + e)) cwarn=$((cwarn + w))
		[ "$e$w" = 00 ] && cclean=$((cclean + 1))
		[ "$e" = 0 ] || echo "  checkpatch ${p##*/}: $out"
	done
	echo "$f: checkpatch.pl: $cclean of $n clean, $cerr errors, $cwarn warnings in all"
	[ "$cerr" = 0 ] && ok || fail "$f: checkpatch.pl errors"
done

# The same with every evaluated site (--min-total 1), for the figures.
for f in likely_prof branch_annotated; do
	run "$LT" --suggest "$K" -f "$tmp/$f" --min-total 1
	expect_rc 0 "$f: --suggest --min-total 1"
	echo "$f, --min-total 1: $(printf '%s\n' "$err" | tail -1 | sed 's/^likelytop: //')"
	printf '%s\n' "$err" | sed -n 's/^likelytop: refused .* missed): //p' |
		sed 's/ ([^ ]*)$//; s/: [0-9]* files named .*//' | sort | uniq -c | sed 's/^/  /'
done

# Build every touched .c file with its patches applied (likely_prof's
# series: full paths, the larger set).
files=$(grep -h '^+++ b/' "$tmp/likely_prof.d"/*.patch | sed 's|^+++ b/||' | sort -u)
nbuilt=0 nfiles=0 nhdr=0
for file in $files; do
	case $file in
	*.c) ;;
	*) nhdr=$((nhdr + 1)); echo "  $file: a header: built with the files that include it (not checked here)"; continue ;;
	esac
	nfiles=$((nfiles + 1))
	ps=$(grep -l "^+++ b/$file\$" "$tmp/likely_prof.d"/*.patch | tr '\n' ' ')
	if ! (cd "$K" && git apply $ps); then
		fail "$file: patches do not apply together"
		continue
	fi
	applied_now=$ps
	if (cd "$K" && nice -n 15 make -s "${file%.c}.o") >"$tmp/build.log" 2>&1; then
		nbuilt=$((nbuilt + 1))
		echo "  built $file with $(echo $ps | wc -w) patch(es)"
	else
		fail "$file does not build with its patches: $(tail -5 "$tmp/build.log")"
	fi
	undo
done
echo "build: $nbuilt of $nfiles touched .c files build with their patches ($nhdr headers not built alone)"
[ "$nbuilt" = "$nfiles" ] && ok || fail "not every touched file builds"
finish
