#!/bin/bash
# run.sh OUTDIR: the in-guest suite (called by tests/vm/init.sh inside the
# guest of scripts/vm.sh; it refuses to run elsewhere).  Runs each test
# below with the tests' usual environment (BUILD_DIR, SRC_DIR, WITH_*),
# bounded, one log per test in OUTDIR/logs/, a line per test in
# OUTDIR/results.txt; then captures the kernel's profiles into
# OUTDIR/captures/ for tests/data/.  Exit 0 when every test passed or was
# skipped, else 1.
set -u
out=${1:?usage: run.sh OUTDIR}
[ "${KATTR_TOP:-}" ] && [ "${KATTR_BUILD:-}" ] && [ "$PPID" = 1 ] ||
	{ echo "run.sh: runs only inside the guest of scripts/vm.sh" >&2; exit 2; }
here=$KATTR_TOP/tests/vm
mkdir -p "$out/logs" "$out/captures"
export SRC_DIR=$KATTR_TOP BUILD_DIR=$KATTR_BUILD VM_OUT=$out KATTR_IN_VM=1
# the build's options, as ctest would pass them
for o in WITH_LIBCONFIG WITH_LIBMNL WITH_NCURSES WITH_FUSE SANITIZE; do
	v=$(sed -n "s/^$o:[A-Z]*=//p" "$BUILD_DIR/CMakeCache.txt" 2>/dev/null)
	export "$o=${v:-ON}"
done
# the test setup enables cpu itself when asked (an rgctl that does not)
[ -n "${KATTR_VM_ENABLE_CPU:-}" ] && export VM_ENABLE_CPU=1

tests=(
	"detect.sh"
	"rgctl.sh"
	"weight.sh"
	"apply.sh"
	"resources.sh"
	"owner.sh"
	"delay.sh"
	"stats.sh"
	"top.sh"
	"classify.sh"
	"signals.sh"
	"signals_apply.sh"
	"likelytop.sh"
	"callers.sh"
	"splicebench.sh"
	"$KATTR_TOP/tests/rgctl/cgroup2.sh"
)
# rgctl classify --at-exec on v2: only when asked (KATTR_VM_TESTS=atexec).
# Under TCG the daemon's 250 ms batch budget runs out and 2 of 1,000
# programs were answered unclassified (placed after exec by the event
# path), and 1,000 runs take longer than the bound: issue 34 stays open on
# that; the host's tests/rgctl/classify/atexec.sh runs in every ctest.
[[ ",${KATTR_VM_TESTS:-}," == *",atexec,"* ]] && tests+=("atexec.sh")
# an early reading of /proc/likely_prof (the fuzz corpus pairs it with the
# late one: sites appear, counts move)
cat /proc/likely_prof >"$out/captures/likely_prof.early" 2>/dev/null
bound=${KATTR_VM_TEST_BOUND:-900}
pass=0 failed=0 skipped=0
: >"$out/results.txt"
for t in "${tests[@]}"; do
	case $t in /*) path=$t name=rgctl_$(basename "$t" .sh) ;; *) path=$here/$t name=vm_${t%.sh} ;; esac
	# KATTR_VM_TESTS=a,b: only those (names without vm_ and .sh)
	[ -z "${KATTR_VM_TESTS:-}" ] || [[ ",$KATTR_VM_TESTS," == *",${name#vm_},"* ]] || continue
	t0=$(date +%s.%N)
	(cd /run/tmp && timeout -k 5 "$bound" bash "$path") >"$out/logs/$name.log" 2>&1
	rc=$?
	secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
	checks=$(grep -Eo '^[0-9]+ checks, [0-9]+ failed' "$out/logs/$name.log" | tail -1)
	case $rc in
	0) res=PASS; pass=$((pass + 1)) ;;
	77) res=SKIP; skipped=$((skipped + 1)); checks=$(grep -m1 '^SKIP:' "$out/logs/$name.log") ;;
	124 | 137) res=FAIL; failed=$((failed + 1)); checks="killed after $bound s" ;;
	*) res=FAIL; failed=$((failed + 1)) ;;
	esac
	line=$(printf '%-4s %-22s %6s s  %s' "$res" "$name" "$secs" "$checks")
	echo "$line" >>"$out/results.txt"
	echo "vm-guest: $line"
	[ $res = FAIL ] && grep -E '^FAIL' "$out/logs/$name.log" | head -5 | sed 's/^/vm-guest:     /'
done
total=$((pass + failed + skipped))
echo "$total tests: $pass passed, $failed failed, $skipped skipped" >>"$out/results.txt"
echo "vm-guest: $total tests: $pass passed, $failed failed, $skipped skipped"

# the real profiles for tests/data (after the suite, so well populated)
tr=/sys/kernel/tracing/trace_stat
{
	echo "kernel: $(uname -r) $(uname -v)"
	echo "patches: $(cd "$KATTR_TOP/kernel/patches" && echo *.patch)"
	echo "captured: $(date -u +%Y-%m-%dT%H:%M:%SZ), $(cut -d' ' -f1 /proc/uptime) s after boot, after the in-guest suite"
} >"$out/captures/KERNEL"
cat /proc/likely_prof >"$out/captures/likely_prof" 2>/dev/null
cat "$tr/branch_annotated" >"$out/captures/branch_annotated" 2>/dev/null
[ -r "$tr/branch_all" ] && cat "$tr/branch_all" >"$out/captures/branch_all"
wc -l "$out/captures"/* | sed 's/^/vm-guest: capture /'
[ $failed = 0 ]
