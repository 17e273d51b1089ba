#!/bin/bash
# vm.sh: boot the patched 6.1 kernel (kernel/) under QEMU and run the
# in-guest suite (tests/vm/) against the real interfaces.
#
#   scripts/vm.sh [--build-only] [--systemd] [--out DIR] [--timeout SECONDS]
#
# --systemd boots the systemd guest instead: systemd 252 (the host's) as
# PID 1 on a tmpfs overlay of the host's root, with what `cmake --install`
# of the build ships (rgctl and its units, installed into the out
# directory's install/ first and copied into the overlay), and runs
# tests/vm/systemd/ there (results in out/vm-systemd by default).
#
# The kernel is built once from Debian's linux-source-6.1 with
# kernel/config.fragment and kernel/patches/*.patch and cached outside the
# clone, in $KATTR_VM_CACHE (default /var/cache/kattr-vm, or
# ~/.cache/kattr-vm when that is not writable), under a key that hashes
# the source package's version, the compiler, the fragment and the
# patches: it is rebuilt only when one of them changes (incrementally in
# $cache/work, about 1.5 GB, which may be deleted any time).  The guest sees
# the host's root read-only over 9p and runs the suite's binaries from the
# host build (out/build, or $KATTR_VM_BUILD), so build that first.  Results
# and captures land in --out (default out/vm).  The guest also has a disk:
# /dev/vda, a sparse 64 MiB image made in --out for the run and removed
# after it (tests/vm/init.sh makes it the guest's swap; tests/vm/resources.sh
# sets io.max on it).
#
# KVM is used when a short probe boot shows it works, else TCG
# ($KATTR_VM_ACCEL=kvm|tcg forces one).  Exit status: the guest's (0 all
# in-guest tests passed, 1 something failed), 1 when the guest hung
# (killed after --timeout) or crashed, 77 (and a "vm: skipped: REASON"
# line) when no accelerator can boot the kernel or the tools are missing.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build_only=no
systemd=no
outdir=

timeout_s=${KATTR_VM_TIMEOUT:-}
while [ $# -gt 0 ]; do
	case $1 in
	--build-only) build_only=yes ;;
	--systemd) systemd=yes ;;
	--out) outdir=${2:?--out needs a directory}; shift ;;
	--timeout) timeout_s=${2:?--timeout needs seconds}; shift ;;
	-h | --help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "usage: scripts/vm.sh [--build-only] [--systemd] [--out DIR] [--timeout SECONDS]" >&2; exit 2 ;;
	esac
	shift
done
[ -n "$outdir" ] || { [ $systemd = yes ] && outdir=$top/out/vm-systemd || outdir=$top/out/vm; }
# absolute: QEMU's 9p share of it is set up from another directory (a
# relative --out left the guest without its root share)
outdir=$(realpath -m -- "$outdir")
case $timeout_s in '' | *[!0-9]*) [ -z "$timeout_s" ] || { echo "vm: --timeout: not a number of seconds: $timeout_s" >&2; exit 2; } ;; esac

skip() { echo "vm: skipped: $*"; exit 77; }
die() { echo "vm: $*" >&2; exit 1; }
say() { echo "vm: $*"; }
now() { date +%s; }

"$top/scripts/deps.sh" vm || skip "cannot install QEMU and the kernel source (scripts/deps.sh vm)"
src_tar=/usr/src/linux-source-6.1.tar.xz
[ -r "$src_tar" ] || skip "no $src_tar (package linux-source-6.1)"
command -v qemu-system-x86_64 >/dev/null || skip "no qemu-system-x86_64 (package qemu-system-x86)"

# --- the kernel: cached by key, built when missing -------------------------
cache=${KATTR_VM_CACHE:-}
if [ -z "$cache" ]; then
	cache=/var/cache/kattr-vm
	mkdir -p "$cache" 2>/dev/null && [ -w "$cache" ] || cache=${XDG_CACHE_HOME:-$HOME/.cache}/kattr-vm
fi
mkdir -p "$cache" || die "cannot create the kernel cache $cache"
frag=$top/kernel/config.fragment
patches=("$top"/kernel/patches/*.patch)
[ -r "$frag" ] || die "missing $frag"
recipe=4	# bump when the build steps below change what they produce
key=$({
	echo "recipe $recipe"
	dpkg-query -W -f='${Package} ${Version}\n' linux-source-6.1
	gcc --version | head -1
	# the options only: a comment edit rebuilds nothing
	grep -E '^(CONFIG_|# CONFIG_[A-Z0-9_]+ is not set$)' "$frag" | sha256sum | cut -d' ' -f1
	for p in "${patches[@]}"; do echo "${p##*/}"; sha256sum <"$p"; done
} | sha256sum | cut -c1-16)
kdir=$cache/$key
bz=$kdir/bzImage

# The source (extracted and patched) and the build tree stay in
# $cache/work for the next build: when only the fragment changed, make
# rebuilds only what the changed options touch.  The source is extracted
# again when the package version or a patch changed.
build_kernel() {
	local work=$cache/work src=$cache/work/src bld=$cache/work/build
	local log=$kdir/build.log t0 pid line missing p stamp
	t0=$(now)
	stamp=$({ dpkg-query -W -f='${Version}\n' linux-source-6.1
		for p in "${patches[@]}"; do sha256sum <"$p"; done; } | sha256sum | cut -c1-16)
	mkdir -p "$work"
	: >"$log"
	say "building the kernel (key $key); log: $log"
	if [ "$(cat "$work/src.stamp" 2>/dev/null)" != "$stamp" ]; then
		rm -rf "$src" "$bld" "$work/src.stamp"
		mkdir -p "$src" "$bld"
		say "extracting $src_tar"
		tar -xJf "$src_tar" -C "$src" --strip-components=1 || die "cannot extract $src_tar"
		for p in "${patches[@]}"; do
			say "applying ${p##*/}"
			patch -p1 --forward --batch -d "$src" <"$p" >>"$log" 2>&1 ||
				die "${p##*/} does not apply to $(dpkg-query -W -f='${Version}' linux-source-6.1) (see $log)"
		done
		echo "$stamp" >"$work/src.stamp"
	else
		say "reusing the patched source and build tree in $work (incremental)"
	fi
	{
		make -C "$src" O="$bld" allnoconfig &&
		make -C "$src" O="$bld" kvm_guest.config &&
		"$src/scripts/kconfig/merge_config.sh" -m -O "$bld" "$bld/.config" "$frag" &&
		make -C "$src" O="$bld" olddefconfig
	} >>"$log" 2>&1 || die "kernel configuration failed (see $log)"
	# every line of the fragment must have stuck (a dependency or a select
	# can override one); "is not set" also holds when the option is absent
	missing=$(grep -E '^(CONFIG_|# CONFIG_)' "$frag" | while read -r line; do
		case $line in
		"# "*) line=${line#\# }; ! grep -q "^${line%% *}=" "$bld/.config" || echo "$line" ;;
		*) grep -qxF -- "$line" "$bld/.config" || echo "$line" ;;
		esac; done)
	[ -z "$missing" ] || die "the configuration dropped: $(echo $missing)"
	say "compiling bzImage with $(nproc) jobs (progress every 30 s)"
	nice -n 10 make -C "$src" O="$bld" -j"$(nproc)" bzImage >>"$log" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		for ((p = 0; p < 30; p++)); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
		kill -0 "$pid" 2>/dev/null || break
		say "  $(($(now) - t0)) s: $(grep -c '^  CC ' "$log") files compiled, last: $(grep '^  [A-Z]' "$log" | tail -1 | awk '{ print $2 }')"
	done
	wait "$pid" || { tail -30 "$log"; die "kernel build failed (see $log)"; }
	cp "$bld/arch/x86/boot/bzImage" "$kdir/bzImage.new" && cp "$bld/.config" "$kdir/config" &&
		make -s -C "$src" O="$bld" kernelrelease >"$kdir/release" 2>/dev/null ||
		die "cannot store the kernel in $kdir"
	echo "$(($(now) - t0))" >"$kdir/build-seconds"
	mv "$kdir/bzImage.new" "$bz"
	say "kernel built in $(cat "$kdir/build-seconds") s ($(grep -c '^  CC ' "$log") files compiled): $bz ($(cat "$kdir/release"))"
}

mkdir -p "$kdir"
exec 9>"$cache/lock"	# one build at a time (they share $cache/work)
flock 9 || die "cannot lock $cache/lock"
if [ -s "$bz" ]; then
	say "kernel cached: $bz ($(cat "$kdir/release" 2>/dev/null), built in $(cat "$kdir/build-seconds" 2>/dev/null) s)"
else
	build_kernel
fi
flock -u 9
[ $build_only = yes ] && exit 0

# --- the suite's binaries from the host build -------------------------------
if [ -z "${KATTR_VM_BUILD:-}" ]; then
	say "building the suite in out/build (incremental)"
	mkdir -p "$top/out" && "$top/scripts/build.sh" "$top/out/build" || die "the suite's build failed"
fi
bdir=${KATTR_VM_BUILD:-$top/out/build}
bdir=$(cd "$bdir" 2>/dev/null && pwd) || die "no build directory ${KATTR_VM_BUILD:-$top/out/build}: run scripts/build.sh out/build first"
for t in src/rgctl/rgctl src/likelytop/likelytop src/splicebench/splicebench tests/rgctl/task_helper tests/rgctl/res_helper; do
	[ -x "$bdir/$t" ] || die "$bdir/$t is not built: run scripts/build.sh out/build first"
done
case "$top$bdir" in *[!A-Za-z0-9/._-]*) die "the paths $top and $bdir must be plain (letters, digits, / . _ -) for the kernel command line" ;; esac

mkdir -p "$outdir" || die "cannot create $outdir"
outdir=$(cd "$outdir" && pwd)
rm -rf "${outdir:?}"/*
guest_init=$top/tests/vm/init.sh
if [ $systemd = yes ]; then
	[ -x /lib/systemd/systemd ] || skip "no /lib/systemd/systemd on the host (package systemd) for the systemd guest"
	# what an administrator gets from `cmake --install`, for the overlay
	DESTDIR=$outdir/install cmake --install "$bdir" >"$outdir/install.log" 2>&1 ||
		die "cmake --install of $bdir failed (see $outdir/install.log)"
	guest_init=$top/tests/vm/systemd/init.sh
fi

# the guest's disk (virtio-blk, /dev/vda there): sparse, scratch
# (cache=unsafe: nothing on it outlives the run), removed however vm.sh ends
img=$outdir/vda.img
trap 'rm -f "$img"' EXIT
trap 'exit 1' INT TERM HUP
truncate -s 64M "$img" || die "cannot create the guest's disk $img"

# boot ACCEL INIT LOGFILE SECONDS [KEY=VALUE...]: one guest, bounded
boot() {
	local accel=$1 init=$2 log=$3 secs=$4 cpu
	shift 4
	case $accel in
	kvm) accel="-accel kvm" cpu=host ;;
	tcg) accel="-accel tcg,thread=multi" cpu=max ;;
	esac
	timeout --kill-after=5 "$secs" qemu-system-x86_64 $accel -cpu $cpu -m 1G -smp 2 \
		-kernel "$bz" -nographic -no-reboot \
		-drive "file=$img,if=virtio,format=raw,cache=unsafe" \
		-virtfs local,id=r,path=/,mount_tag=/dev/root,security_model=none,readonly=on,multidevs=remap \
		-virtfs "local,id=o,path=$outdir,mount_tag=out,security_model=none" \
		-append "console=ttyS0 root=/dev/root rootfstype=9p rootflags=trans=virtio,version=9p2000.L,msize=262144,cache=loose ro init=$init panic=-1 quiet $*" \
		</dev/null >"$log" 2>&1
}

# --- the accelerator: a probe boot each ------------------------------------
accel=${KATTR_VM_ACCEL:-}
probe_ok() {	# probe_ok ACCEL SECONDS
	local t0 rc
	t0=$(now)
	boot "$1" "$top/tests/vm/probe.sh" "$outdir/probe-$1.log" "$2"
	rc=$?
	if grep -q "kattr-vm-probe: up" "$outdir/probe-$1.log"; then
		say "probe boot with $1: up in $(($(now) - t0)) s"
		return 0
	fi
	[ $rc = 124 ] && rc="killed after $2 s"
	say "probe boot with $1 failed ($rc): $(grep -v '^\s*$' "$outdir/probe-$1.log" | tail -1 | cut -c1-160)"
	return 1
}
if [ -z "$accel" ]; then
	[ -e /dev/kvm ] || say "no /dev/kvm: KVM is not available here"
	if [ -r /dev/kvm ] && [ -w /dev/kvm ] && probe_ok kvm 30; then
		accel=kvm
	elif probe_ok tcg 120; then
		accel=tcg
	else
		skip "neither KVM nor TCG boots the kernel (see $outdir/probe-*.log)"
	fi
fi
case $accel in kvm | tcg) ;; *) die "KATTR_VM_ACCEL must be kvm or tcg, not $accel" ;; esac
if [ $systemd = yes ]; then
	[ -n "$timeout_s" ] || { [ $accel = kvm ] && timeout_s=300 || timeout_s=900; }
else
	[ -n "$timeout_s" ] || { [ $accel = kvm ] && timeout_s=600 || timeout_s=3000; }
fi

# --- the suite ---------------------------------------------------------------
say "booting with $accel (bounded at $timeout_s s); console: $outdir/console.log"
t0=$(now)
# passed on to the guest: a subset of the tests (KATTR_VM_TESTS=rgctl,weight),
# the per-test bound, the test setup's own +cpu (KATTR_VM_ENABLE_CPU=1)
# and the number of runs of the opt-in atexec test (VM_ATEXEC_RUNS)
extra=()
for v in KATTR_VM_TESTS KATTR_VM_TEST_BOUND KATTR_VM_ENABLE_CPU VM_ATEXEC_RUNS; do
	[ -n "${!v:-}" ] || continue
	case ${!v} in *[!A-Za-z0-9,._-]*) die "$v: only letters, digits and , . _ -" ;; esac
	extra+=("$v=${!v}")
done
boot $accel "$guest_init" "$outdir/console.log" "$timeout_s" \
	"KATTR_TOP=$top" "KATTR_BUILD=$bdir" "KATTR_ACCEL=$accel" "${extra[@]}" &
qpid=$!
# show the guest's progress lines as they come (tail ends with qemu)
tail -n +1 --pid=$qpid -F "$outdir/console.log" 2>/dev/null | sed -un 's/\r$//; /^vm-guest:/p' &
tpid=$!
wait $qpid
rc=$?
wait $tpid 2>/dev/null
secs=$(($(now) - t0))
if [ $rc = 124 ] || [ $rc = 137 ]; then
	say "the guest hung: killed after $timeout_s s (last console lines below; $outdir/console.log)"
	tail -15 "$outdir/console.log"
	exit 1
fi
if [ ! -s "$outdir/status" ]; then
	say "the guest ended without a status (qemu exit $rc, $secs s); last console lines:"
	tail -25 "$outdir/console.log"
	exit 1
fi
status=$(cat "$outdir/status")
say "guest finished in $secs s with status $status; results: $outdir/results.txt"
[ -s "$outdir/results.txt" ] && sed 's/^/vm:   /' "$outdir/results.txt"
case $status in 0 | 1 | 77) exit "$status" ;; *) exit 1 ;; esac
