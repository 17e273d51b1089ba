#!/bin/bash
# run.sh OUTDIR: the tests of the systemd guest (scripts/vm.sh --systemd),
# run by kattr-vm-systemd.service once systemd (PID 1) reached
# multi-user.target.  Each test bounded, a log each in OUTDIR/logs/, a
# line each in OUTDIR/results.txt, systemd's own view (failed units,
# boot time, the journal) beside them; then the status and a power-off.
set -u
out=${1:?usage: run.sh OUTDIR}
[ "${KATTR_TOP:-}" ] && [ "${KATTR_BUILD:-}" ] && [ "$(cat /proc/1/comm)" = systemd ] ||
	{ echo "run.sh: runs only inside the systemd guest of scripts/vm.sh" >&2; exit 2; }
here=$KATTR_TOP/tests/vm/systemd
mkdir -p "$out/logs"
export SRC_DIR=$KATTR_TOP BUILD_DIR=$KATTR_BUILD VM_OUT=$out KATTR_IN_VM=1 KATTR_IN_SYSTEMD_VM=1
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
for o in WITH_LIBCONFIG WITH_LIBMNL WITH_NCURSES WITH_FUSE SANITIZE; do
	v=$(sed -n "s/^$o:[A-Z]*=//p" "$BUILD_DIR/CMakeCache.txt" 2>/dev/null)
	export "$o=${v:-ON}"
done
echo "vm-guest: systemd up: $(systemd-analyze time 2>/dev/null | head -1)"
bound=${KATTR_VM_TEST_BOUND:-420}
pass=0 failed=0 skipped=0
: >"$out/results.txt"
# units.sh first: rgctl.sh prunes (among others) the groups the shipped units made
for t in units.sh rgctl.sh; do
	name=vm_systemd_${t%.sh}
	t0=$(date +%s.%N)
	(cd /tmp && timeout -k 5 "$bound" bash "$here/$t") >"$out/logs/$name.log" 2>&1
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
{
	systemd-analyze time
	systemctl --failed --no-pager
	systemd-cgls --no-pager
} >"$out/logs/systemd-state.txt" 2>&1
journalctl -b --no-pager >"$out/logs/journal.txt" 2>&1
status=1
[ $failed = 0 ] && status=0
echo "vm-guest: done: status $status"
echo "$status" >"$out/status"
sync
systemctl poweroff --no-block
