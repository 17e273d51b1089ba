#!/bin/bash
# Install what is missing, then build and test every configuration:
# all WITH_* options off, AddressSanitizer+UBSan, the fuzz targets for a
# bounded time, the default build (with its ctest summary), and last the
# in-guest suite on the patched real kernel under QEMU (scripts/vm.sh).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
scripts/deps.sh || exit 1
mkdir -p out
status=0

# The guest kernel for the real-kernel sections: when it is not cached
# (scripts/vm.sh keys it), it builds from the start, in the background, at
# SCHED_IDLE (chrt --idle): it takes only the CPU time the builds and tests
# leave, in the same autogroup, so they run as fast as without it.  The
# real-kernel section waits for it.  Its own process group, killed if this
# run is.
set -m
chrt --idle 0 scripts/vm.sh --build-only >out/kernel-build.log 2>&1 &
kbuild=$!
set +m
trap 'kill -- -$kbuild 2>/dev/null' EXIT
# each section's header says how long the run has taken so far
section() { printf '\n==== %s ==== (at %d s)\n' "$*" "$SECONDS"; }
ctest_in() {	# ctest_in DIR: run every test there
	(cd "$1" && ctest --output-on-failure --timeout 600 "${@:2}") && return
	status=1
	failed_checks "$1"
}
# failed_checks DIR: after ctest's summary (the part of a long log read
# first), each failed test's failed checks, a few lines each: what failed,
# not only which test
failed_checks() {
	local t=$1/Testing/Temporary n
	[ -r "$t/LastTestsFailed.log" ] && [ -r "$t/LastTest.log" ] || return 0
	echo "the failed checks (from $t/LastTest.log):"
	while IFS=: read -r _ n; do
		awk -v n="$n" '
			$0 ~ "^[0-9]+/[0-9]+ Test: " n "$" { on = 1; next }
			on && /^[0-9]+\/[0-9]+ Test: / { on = 0 }
			on && !/^Command: / && /FAIL|ERROR|Sanitizer|runtime error|Timeout|Killed|Aborted/ && k < 8 { print "  " n ": " substr($0, 1, 300); k++ }
			END { if (!k) print "  " n ": (no failed check printed; see the log)" }' "$t/LastTest.log"
	done <"$t/LastTestsFailed.log"
}

section "build: every WITH_* option off"
if scripts/build.sh out/build-off -DWITH_LIBCONFIG=OFF -DWITH_LIBMNL=OFF \
	-DWITH_NCURSES=OFF -DWITH_FUSE=OFF; then
	ctest_in out/build-off
else
	echo "all-off build FAILED"; status=1
fi

section "build: AddressSanitizer + UndefinedBehaviorSanitizer"
if scripts/build.sh out/build-asan -DSANITIZE=ON; then
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest_in out/build-asan
else
	echo "sanitizer build FAILED"; status=1
fi

if [ -x scripts/fuzz.sh ]; then
	section "fuzz targets (bounded)"
	scripts/fuzz.sh out/build-fuzz || status=1
fi

section "build: default (-Wall -Wextra -Werror)"
if scripts/build.sh out/build; then
	ctest_in out/build
else
	echo "default build FAILED"; status=1
fi
section "Debian packages: build, lintian, install, purge (scripts/deb.sh)"
scripts/deb.sh out/deb || { echo "Debian packages FAILED"; status=1; }
section "real kernel: the patched 6.1 under QEMU (scripts/vm.sh)"
wait "$kbuild"
echo "kernel (built in the background since the start):"
grep -E '^vm: (kernel|skipped)|failed' out/kernel-build.log | sed 's/^/  /'
scripts/vm.sh
case $? in
0) ;;
77) echo "vm: SKIPPED (the reason is above): the real-kernel suite did not run" ;;
*) echo "vm suite FAILED"; status=1 ;;
esac
section "real kernel with systemd as PID 1 (scripts/vm.sh --systemd)"
scripts/vm.sh --systemd
case $? in
0) ;;
77) echo "vm --systemd: SKIPPED (the reason is above): the systemd guest did not run" ;;
*) echo "vm --systemd suite FAILED"; status=1 ;;
esac
echo "check: ${SECONDS} s in all"
[ $status = 0 ] || echo "check: FAILED (see the sections above)"
exit $status
