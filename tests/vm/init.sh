#!/bin/bash
# PID 1 of the guest scripts/vm.sh boots.  The host's root is / (9p, read
# only); KATTR_TOP (the clone), KATTR_BUILD (its build) and KATTR_ACCEL come
# from the kernel command line.  Mounts the kernel's filesystems and tmpfs
# scratch, runs tests/vm/run.sh, which writes results.txt, one log per test
# and the captures to the "out" share, then writes the status there and
# reboots (QEMU exits).  Lines starting "vm-guest:" are the progress scripts/vm.sh shows.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
say() { echo "vm-guest: $*"; }
mnt() { mountpoint -q "$3" || mount -t "$1" -o "$2" "$1" "$3" || say "cannot mount $1 on $3"; }

mount -t proc -o nosuid,nodev,noexec proc /proc
mnt sysfs nosuid,nodev,noexec /sys
mountpoint -q /dev || mount -t devtmpfs -o nosuid devtmpfs /dev
mkdir -p /dev/pts /dev/shm 2>/dev/null
mnt devpts nosuid,noexec,gid=5,mode=620,ptmxmode=666 /dev/pts
mnt tmpfs nosuid,nodev,mode=1777 /dev/shm
mount -t tmpfs -o mode=755,size=256m tmpfs /run
mkdir -p /run/out /run/tmp /run/home /run/lock && chmod 1777 /run/tmp
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 out /run/out || {
	say "cannot mount the out share"; echo b >/proc/sysrq-trigger; sleep 60; }
# the host's /tmp and /var/tmp are read-only here: scratch on tmpfs
# (unless the clone itself lives there)
case "$KATTR_TOP $KATTR_BUILD" in
*/tmp/*) ;;
*) mount -t tmpfs -o mode=1777,size=512m tmpfs /tmp
   mount -t tmpfs -o mode=1777,size=64m tmpfs /var/tmp ;;
esac
mount -t tmpfs -o mode=755,size=16m tmpfs /var/log 2>/dev/null
mnt cgroup2 nosuid,nodev,noexec /sys/fs/cgroup
mnt tracefs nosuid,nodev,noexec /sys/kernel/tracing
mnt debugfs nosuid,nodev,noexec /sys/kernel/debug
mnt configfs nosuid,nodev,noexec /sys/kernel/config
# swap on the scratch disk scripts/vm.sh gives (/dev/vda, 64 MiB), so
# memory.swap.max limits something real
swap=none
if [ -b /dev/vda ] && mkswap -q /dev/vda >/dev/null 2>&1 && swapon /dev/vda 2>/dev/null; then
	swap="/dev/vda ($(awk '$1 == "SwapTotal:" { print $2 }' /proc/meminfo) kB)"
else
	say "no swap: $([ -b /dev/vda ] && echo "mkswap or swapon /dev/vda failed" || echo "no /dev/vda")"
fi
export HOME=/run/home TMPDIR=/run/tmp TMUX_TMPDIR=/run/tmp TERM=xterm LANG=C.UTF-8
hostname kattr-vm 2>/dev/null
say "up: $(uname -r), $(nproc) CPUs, swap $swap, accel ${KATTR_ACCEL:-?}, $(cut -d' ' -f1 /proc/uptime) s since boot"

status=1
if [ -x "$KATTR_TOP/tests/vm/run.sh" ]; then
	"$KATTR_TOP/tests/vm/run.sh" /run/out </dev/null
	status=$?
else
	say "no $KATTR_TOP/tests/vm/run.sh"
fi
say "done: status $status"
echo "$status" >/run/out/status
sync
umount /run/out
echo b >/proc/sysrq-trigger	# reboot: QEMU (-no-reboot) exits
sleep 60
