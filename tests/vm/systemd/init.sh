#!/bin/bash
# Early init of the systemd guest (scripts/vm.sh --systemd): the host's
# root is / (9p, read only).  Builds a root for systemd on a tmpfs: the
# host's /usr and the clone's top directory bound read-only, a copy of its
# /etc, an empty /var, and over /usr/local what `cmake --install` put in
# the out share's install/ (rgctl, its units, /usr/local/etc/rgctl); writes
# a test unit and masks units that are useless here; pivots into it and
# execs /lib/systemd/systemd as PID 1.  kattr-vm-systemd.service then runs
# tests/vm/systemd/run.sh, which writes results and the status to the out
# share and powers the guest off.
# (An overlay of a tmpfs on the 9p root was the first plan: on this 6.1
# kernel the first copy-up of a 9p file, opening /etc/fstab for writing,
# oopses in ovl_copy_up_flags, a NULL function pointer.)
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
say() { echo "vm-guest: $*"; }
fail() { say "early init: $*"; echo 1 >/run/out-early/status 2>/dev/null; echo b >/proc/sysrq-trigger; sleep 60; }

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t tmpfs -o mode=755,size=64m tmpfs /run || fail "cannot mount a tmpfs on /run"
mkdir -p /run/root /run/out-early
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 out /run/out-early ||
	fail "cannot mount the out share"
N=/run/root
mount -t tmpfs -o mode=755,size=768m tmpfs "$N" || fail "cannot mount the new root's tmpfs"
for d in /*; do
	d=${d#/}
	if [ -L "/$d" ]; then
		cp -a "/$d" "$N/$d"		# bin -> usr/bin and the like
	elif [ -d "/$d" ]; then
		mkdir -p "$N/$d"
	fi
done
chmod 1777 "$N/tmp"; chmod 700 "$N/root"
cp -a /etc/. "$N/etc/" || fail "cannot copy /etc"
mount --bind /usr "$N/usr" || fail "cannot bind /usr"
# the clone and the build, exactly (binding their top directory instead
# made a clone under /tmp leave the guest a read-only /tmp)
for d in "$KATTR_TOP" "$KATTR_BUILD"; do
	case $d in "$KATTR_TOP"/?*) continue ;; esac	# inside the clone: bound with it
	mkdir -p "$N$d" || fail "cannot make $d in the new root"
	mountpoint -q "$N$d" || mount --bind "$d" "$N$d" || fail "cannot bind $d"
done
mkdir -p "$N/var/lib" "$N/var/log" "$N/var/tmp" "$N/var/cache" "$N/var/spool"
chmod 1777 "$N/var/tmp"
ln -sfn /run "$N/var/run"; ln -sfn /run/lock "$N/var/lock"
mount -t tmpfs -o mode=755,size=128m tmpfs "$N/usr/local" || fail "cannot mount /usr/local"
say "early init: new root on tmpfs, $(uname -r)"

# what cmake --install put in the out share (scripts/vm.sh ran it)
cp -a /run/out-early/install/usr/local/. "$N/usr/local/" || fail "no install tree (usr/local) in the out share"
mkdir -p "$N/kattr-out" "$N/etc/systemd/system"
: >"$N/etc/fstab"			# no host mounts to wait for
rm -f "$N/etc/machine-id"; : >"$N/etc/machine-id"
# quiet and short: no logins, network, timers or udev coldplug here
for u in getty@.service serial-getty@.service console-getty.service \
	 systemd-networkd.service networking.service systemd-resolved.service \
	 systemd-timesyncd.service cron.service ssh.service apt-daily.timer \
	 apt-daily-upgrade.timer man-db.timer e2scrub_all.timer fstrim.timer \
	 logrotate.timer dpkg-db-backup.timer systemd-tmpfiles-clean.timer \
	 systemd-udevd.service systemd-udev-trigger.service systemd-udev-settle.service \
	 systemd-random-seed.service systemd-remount-fs.service systemd-fsck-root.service \
	 systemd-firstboot.service systemd-update-utmp.service docker.service \
	 containerd.service systemd-binfmt.service getty.target remote-fs.target \
	 postgresql.service e2scrub_reap.service systemd-pstore.service \
	 sys-kernel-config.mount sys-fs-fuse-connections.mount; do
	ln -sf /dev/null "$N/etc/systemd/system/$u"
done
cat >"$N/etc/systemd/system/kattr-vm-systemd.service" <<UNIT
[Unit]
Description=kattr: the in-guest systemd tests
After=multi-user.target rgctl-apply.service rgctl-classify.service
Wants=multi-user.target

[Service]
Type=oneshot
Environment=KATTR_TOP=$KATTR_TOP KATTR_BUILD=$KATTR_BUILD KATTR_ACCEL=${KATTR_ACCEL:-} KATTR_VM_TEST_BOUND=${KATTR_VM_TEST_BOUND:-}
Environment=HOME=/root TMPDIR=/tmp LANG=C.UTF-8
ExecStart=/bin/bash $KATTR_TOP/tests/vm/systemd/run.sh /kattr-out
StandardOutput=journal+console
StandardError=journal+console
TimeoutStartSec=infinity
UNIT
cat >"$N/etc/systemd/system/kattr-vm.target" <<UNIT
[Unit]
Description=kattr: the systemd guest
Requires=multi-user.target kattr-vm-systemd.service
After=multi-user.target
UNIT
ln -sf kattr-vm.target "$N/etc/systemd/system/default.target"
# the shipped units, enabled as an administrator would
SYSTEMD_LOG_LEVEL=warning systemctl --root="$N" enable rgctl.service \
	rgctl-apply.service rgctl-classify.service >/dev/null 2>&1 ||
	fail "systemctl --root enable of the shipped units failed"

# into the new root; the out share moves along
for m in proc sys dev; do mount --move "/$m" "$N/$m"; done
mount --move /run/out-early "$N/kattr-out"
mkdir -p "$N/oldroot"
cd "$N" || fail "cannot enter the new root"
pivot_root . oldroot || fail "pivot_root into the new root failed"
say "early init: exec systemd ($(/lib/systemd/systemd --version | head -1))"
exec chroot . /lib/systemd/systemd --system --show-status=no --log-target=kmsg \
	--log-level=notice </dev/console >/dev/console 2>&1
