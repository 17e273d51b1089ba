#!/bin/bash
# Install what is missing, then build and test every configuration:
# all WITH_* options off, AddressSanitizer+UBSan, the fuzz targets for a
# bounded time, the default build (with its ctest summary), and last the
# in-guest suite on the patched real kernel under QEMU (scripts/vm.sh).
#
#   scripts/check.sh [--load N] [--only SECTION,...]
#
# --load N (or KATTR_LOAD=N): N busy loops and a modest fork churn (about
# 100 short processes a second) run beside every section at normal
# priority, the way a shared or CI machine is busy; they are killed however
# the run ends.  A test that passes alone and fails with them measures the
# machine, not the program (issue 44).
# --only: the named sections only (off, asan, fuzz, default, deb, vm,
# systemd), to measure or rerun one; the guest kernel is built only for vm
# and systemd.

set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
load=${KATTR_LOAD:-0} only=
while [ $# -gt 0 ]; do
	case $1 in
	--load) load=${2:?--load needs a number}; shift 2 ;;
	--only) only=,${2:?--only needs sections},; shift 2 ;;
	*) echo "usage: scripts/check.sh [--load N] [--only off,asan,fuzz,default,deb,vm,systemd]" >&2; exit 2 ;;
	esac
done
case $load in *[!0-9]* | '') echo "check: --load takes a number of busy loops, not '$load'" >&2; exit 2 ;; esac
want() { [ -z "$only" ] || [[ $only == *,$1,* ]]; }
scripts/deps.sh || exit 1
mkdir -p out
status=0

# The guest kernel for the real-kernel sections: when it is not cached
# (scripts/vm.sh keys it), it builds from the start, in the background, at
# SCHED_IDLE (chrt --idle): it takes only the CPU time the builds and tests
# leave, in the same autogroup, so they run as fast as without it.  The
# real-kernel section waits for it.  Its own process group, killed if this
# run is.
kbuild= loadpg=
if want vm || want systemd; then
	set -m
	chrt --idle 0 scripts/vm.sh --build-only >out/kernel-build.log 2>&1 &
	kbuild=$!
	set +m
fi
# the load: its own process group (busy loops, the fork churn), killed on
# every exit
if [ "$load" -gt 0 ]; then
	set -m
	(
		for ((i = 0; i < load; i++)); do (while :; do :; done) & done
		while :; do
			for i in 1 2 3 4 5 6 7 8 9 10; do /bin/true; done
			sleep 0.1	# the churn's pace: about 100 processes a second
		done
	) >/dev/null 2>&1 &
	loadpg=$!
	set +m
	echo "check: load: $load busy loops and a fork churn beside the tests (process group $loadpg)"
fi
trap '[ -n "$kbuild" ] && kill -- -$kbuild 2>/dev/null; [ -n "$loadpg" ] && kill -- -$loadpg 2>/dev/null' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
# The tests labelled "once" (tests/CMakeLists.txt: storms, stop timings,
# the signal sweeps past the first, completion in the shells, installs)
# check at length what the others check quickly: they run in the default
# build, not in the all-off and sanitizer passes.
# each section's header says how long the run has taken so far
section() { printf '\n==== %s ==== (at %d s)\n' "$*" "$SECONDS"; }
ctest_in() {	# ctest_in DIR: run every test there
	# -j2: two tests at a time, as CI's two CPUs allow; tests that share
	# state take turns through RESOURCE_LOCK, the storms run alone
	# (RUN_SERIAL).  ctest prints each test's time: the slowest are listed
	# after its summary.
	local rc=0
	(cd "$1" && ctest -j2 --output-on-failure --timeout 600 "${@:2}") || rc=1
	slowest "$1"
	[ $rc = 0 ] && return
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

# slowest DIR: the ten slowest tests of the last run there (seconds)
slowest() {
	local t=$1/Testing/Temporary/LastTest.log
	[ -r "$t" ] || return 0
	echo "the slowest tests in $1:"
	awk '/^[0-9]+\/[0-9]+ Test: / { n = $3 } /^Test time = / { printf "  %8.1f s  %s\n", $4, n }' "$t" |
		sort -rn | head -10
}

if want off; then
section "build: every WITH_* option off"
if scripts/build.sh out/build-off -DWITH_LIBCONFIG=OFF -DWITH_LIBMNL=OFF \
	-DWITH_NCURSES=OFF -DWITH_FUSE=OFF; then
	ctest_in out/build-off -LE once
else
	echo "all-off build FAILED"; status=1
fi
fi

if want asan; then
section "build: AddressSanitizer + UndefinedBehaviorSanitizer"
if scripts/build.sh out/build-asan -DSANITIZE=ON; then
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest_in out/build-asan -LE once
else
	echo "sanitizer build FAILED"; status=1
fi
fi

if want fuzz && [ -x scripts/fuzz.sh ]; then
	section "fuzz targets (bounded)"
	scripts/fuzz.sh out/build-fuzz || status=1
fi

if want default || want vm || want systemd; then
section "build: default (-Wall -Wextra -Werror)"
if ! scripts/build.sh out/build; then
	echo "default build FAILED"; status=1
elif want default; then
	ctest_in out/build
fi
fi
if want deb; then
section "Debian packages: build, lintian, install, purge (scripts/deb.sh)"
scripts/deb.sh out/deb || { echo "Debian packages FAILED"; status=1; }
fi
if want vm; then
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
fi
if want systemd; then
section "real kernel with systemd as PID 1 (scripts/vm.sh --systemd)"
scripts/vm.sh --systemd
case $? in
0) ;;
77) echo "vm --systemd: SKIPPED (the reason is above): the systemd guest did not run" ;;
*) echo "vm --systemd suite FAILED"; status=1 ;;
esac
fi
echo "check: ${SECONDS} s in all"
[ $status = 0 ] || echo "check: FAILED (see the sections above)"
exit $status
