#!/bin/bash
# owner.sh cgroup1|cgroup2|rgcs: which groups count as rgctl's (issue 24),
# under attack.  cgroup1: a named hierarchy this test mounts (the group's
# own xattr trusted.rgctl); cgroup2: a subtree of the v2 hierarchy, seen
# also through a second mount of it (tests/vm/owner.sh runs this in the
# guest); rgcs: the RGCS emulator (no xattrs: the sealed registry in
# $RGCTL_RUNDIR).  A foreign group (made by mkdir) must never
# be marked by dump, deleted by apply --prune, or claimed after rgctl's
# delete, whatever was done around it:
#   - a group rmdir'd and remade by mkdir under the same name;
#   - a group renamed by another tool (cgroup v1 allows rename(2)), and a
#     foreign group renamed to the name of rgctl's;
#   - the hierarchy unmounted and mounted again (same device numbers,
#     inode numbers starting again), with the old marks left in place;
#   - a registry (or an xattr) written by hand.
# Positive controls: what rgctl made is marked and pruned.
. "$(dirname "$0")/common.sh"
BACKEND=${1:-cgroup1}
require_root "mounts a hierarchy and writes to it"
case "${WITH_LIBCONFIG:-ON}" in OFF|0) skip_test "built with WITH_LIBCONFIG=OFF: no apply/dump";; esac
WORK=$(mktemp -d "${TMPDIR:-/tmp}"/rgctl-owner.XXXXXX)
export RGCTL_RUNDIR="$WORK/run"
D=$WORK/mnt
mkdir "$D"
CLEANUPS+=('unmount_all; rm -rf "$WORK"')

if [ "$BACKEND" = cgroup1 ]; then
	NAME=rgtown$$
	mount_h() { mount -t cgroup -o "none,name=$NAME" "$NAME" "$D"; }
	# remove the groups (plain rmdir, as any admin may), so that the
	# next mount makes a new hierarchy rather than finding this one
	unmount_h() {
		local i k
		find "$D" -mindepth 1 -depth -type d -exec rmdir {} + 2>/dev/null
		# the umount destroys the hierarchy only once no child group is
		# left, dying ones included (they go after an RCU grace period):
		# until /proc/self/cgroup no longer lists it, mount and umount
		# again (bounded)
		for ((k = 0; k < 20; k++)); do
			umount "$D" || return 1
			for ((i = 0; i < 10; i++)); do
				grep -q ":name=$NAME:" /proc/self/cgroup || return 0
				sleep 0.05
			done
			mount_h || return 1
		done
		umount "$D"
		echo "# note: hierarchy $NAME still there after 20 umounts"
	}
	unmount_all() { mountpoint -q "$D" && unmount_h; }
	mount_h || skip_test "cannot mount a named cgroup v1 hierarchy here"
	ROOT=$D
	setfattr -n trusted.rgctl.probe -v 1 "$ROOT" 2>/dev/null && setfattr -x trusted.rgctl.probe "$ROOT" ||
		skip_test "no trusted.* xattrs on cgroup v1 here"
elif [ "$BACKEND" = cgroup2 ]; then
	V2=$(mount_of cgroup2)
	[ -n "$V2" ] || skip_test "no cgroup v2 hierarchy mounted"
	ROOT=$V2/rgtown.$$
	mkdir "$ROOT" 2>/dev/null || skip_test "cannot create a group under $V2"
	# one v2 hierarchy per kernel: "remount" is a second mount of it
	mount_h() { mount -t cgroup2 none "$D"; }
	unmount_h() { umount "$D"; }
	unmount_all() { mountpoint -q "$D" && umount "$D"; cg_remove "$V2" "$ROOT"; }
	setfattr -n trusted.rgctl.probe -v 1 "$ROOT" 2>/dev/null && setfattr -x trusted.rgctl.probe "$ROOT" ||
		skip_test "no trusted.* xattrs on cgroup v2 here"
else
	. "$SRC_DIR/tests/rgcsfs/lib.sh"
	mount_h() { rgcsfs_start "$D"; }
	unmount_h() { rgcsfs_stop "$D"; }
	unmount_all() { rgcsfs_stop "$D"; }
	mount_h || exit $?
	ROOT=$D/res_groups
fi
R=(--root "$ROOT")
printf 'groups = ( );\n' >"$WORK/empty.conf"

# marked G: whether dump says "made by rgctl" for G
marked() {
	"$RG" "${R[@]}" dump 2>/dev/null | grep -q "{ name = \"$1\";.*# made by rgctl"
}
expect_mine() { if marked "$1"; then ok; else fail "$2: '$1' is not rgctl's"; fi; }
expect_foreign() { if marked "$1"; then fail "$2: '$1' (not made by rgctl) shown as rgctl's"; else ok; fi; }
# prune: apply --prune of a file with no groups; every group named must stay
prune_keeps() {
	local g
	run "$RG" "${R[@]}" apply --prune "$WORK/empty.conf"
	for g in "$@"; do
		[ -d "$ROOT/$g" ] && ok || fail "apply --prune deleted '$g', which rgctl did not make"
	done
}

# --- baseline: what rgctl makes is its, what mkdir makes is not ----------
run "$RG" "${R[@]}" create -p own/sub
expect_rc 0 "create -p"
mkdir "$ROOT/foreign"
expect_mine own "baseline"
expect_mine own/sub "baseline (a parent made by -p too)"
expect_foreign foreign "baseline"
if [ "$BACKEND" != rgcs ]; then
	v=$(getfattr --only-values -n trusted.rgctl "$ROOT/own/sub" 2>/dev/null)
	expect_match "$v" $'^rgctl-owner 1\nname=own/sub\nuid=0\npid=[0-9]+\ntime=[0-9]+\ncmd=create\n$' "the xattr says who, when, what"
	# (the run-state directory itself is made: it holds the runs' journals)
	compgen -G "$RGCTL_RUNDIR/marks.*" >/dev/null && fail "a registry was written on a hierarchy with xattrs" || ok
else
	ls "$RGCTL_RUNDIR"/marks.* >/dev/null 2>&1 && ok || fail "no registry on the emulator"
fi
prune_keeps foreign
[ -d "$ROOT/own" ] && fail "apply --prune kept 'own', which rgctl made" || ok

# --- rmdir + mkdir under the same name ------------------------------------
"$RG" "${R[@]}" create again >/dev/null
rmdir "$ROOT/again" && mkdir "$ROOT/again"
expect_foreign again "rmdir + mkdir"
prune_keeps again foreign

# --- rgctl's delete forgets; the name remade by mkdir is not rgctl's -------
"$RG" "${R[@]}" create del >/dev/null
run "$RG" "${R[@]}" delete del
expect_rc 0 "delete"
mkdir "$ROOT/del"
expect_foreign del "delete, then mkdir"
prune_keeps del

# --- rename by another tool -----------------------------------------------
"$RG" "${R[@]}" create mv1 >/dev/null
if mv "$ROOT/mv1" "$ROOT/mv1.renamed" 2>/dev/null; then
	expect_foreign mv1.renamed "renamed away"
	mkdir "$ROOT/mv2"
	mv "$ROOT/mv2" "$ROOT/mv1"		# a foreign group takes rgctl's name
	expect_foreign mv1 "foreign group renamed to rgctl's name"
	prune_keeps mv1 mv1.renamed
else
	# cgroup v2, RGCS (configfs, the emulator): rename(2) is refused
	[ "$BACKEND" != cgroup1 ] && ok || fail "rename refused on $BACKEND"
	"$RG" "${R[@]}" delete mv1 >/dev/null
fi

# --- hand-written marks ------------------------------------------------------
if [ "$BACKEND" != rgcs ]; then
	mkdir "$ROOT/forged1" "$ROOT/forged2" "$ROOT/forged3"
	setfattr -n trusted.rgctl -v 1 "$ROOT/forged1"		# the old mark
	setfattr -n trusted.rgctl -v $'rgctl-owner 1\nname=other\nuid=0\n' "$ROOT/forged2"
	setfattr -n user.rgctl -v $'rgctl-owner 1\nname=forged3\nuid=0\n' "$ROOT/forged3"
	# an old-style registry (inode numbers) claiming every group
	mkdir -p "$RGCTL_RUNDIR"
	dev=$(stat -c '%Hd-%Ld' "$ROOT")
	for g in foreign again del forged1 forged2 forged3; do
		echo "$(stat -c %i "$ROOT/$g") $g"
	done >"$RGCTL_RUNDIR/owned.$dev"
	expect_foreign forged1 "xattr '1' (the old mark)"
	expect_foreign forged2 "xattr naming another group"
	expect_foreign forged3 "user.rgctl, as root"
	expect_foreign foreign "an old owned.MAJ-MIN file"
	prune_keeps forged1 forged2 forged3 foreign again del
else
	mkdir "$ROOT/forged1" "$ROOT/forged2"
	"$RG" "${R[@]}" create real >/dev/null
	f=$(ls "$RGCTL_RUNDIR"/marks.*)
	line=$(grep " real\$" "$f")
	ino1=$(stat -c %i "$ROOT/forged1")
	cp "$f" "$WORK/saved"
	{
		echo "$ino1 ${line#* }"		# the inode changed
		echo "$(stat -c %i "$ROOT/forged2") ${line#* }" | sed 's/ real$/ forged2/'	# both
		echo "$(stat -c %i "$ROOT/forged2") 00000000000000000000000000000000 forged2"
		echo "$ino1 forged1"		# an old-style line
	} >>"$f"
	expect_foreign forged1 "registry line with its inode changed by hand"
	expect_foreign forged2 "registry line with its name changed by hand"
	expect_mine real "the line rgctl wrote"
	prune_keeps forged1 forged2 foreign again del
	[ -d "$ROOT/real" ] && fail "prune kept 'real', which rgctl made" || ok
	# a world-writable registry, or one owned by another user, is refused
	"$RG" "${R[@]}" create real2 >/dev/null
	f=$(ls "$RGCTL_RUNDIR"/marks.*)
	chmod 0666 "$f"
	expect_foreign real2 "a world-writable registry"
	chmod 0600 "$f"
	expect_mine real2 "the registry once private again"
fi

if [ "$BACKEND" = cgroup2 ]; then
	# rgctl's groups remade by mkdir; and a second mount of the hierarchy
	# sees the same marks (they are the groups')
	"$RG" "${R[@]}" create -p h/a >/dev/null
	"$RG" "${R[@]}" create h2 >/dev/null
	rmdir "$ROOT/h/a" "$ROOT/h" && mkdir -p "$ROOT/h/a"
	expect_foreign h "rmdir + mkdir -p"
	expect_foreign h/a "rmdir + mkdir -p"
	mount_h || { fail "cannot mount cgroup v2 a second time"; finish; }
	R=(--root "$D/${ROOT#"$V2"/}")
	expect_mine h2 "through a second mount"
	expect_foreign h/a "through a second mount"
	prune_keeps h h/a foreign again del
	[ -d "$ROOT/h2" ] && fail "prune through a second mount kept h2, which rgctl made" || ok
	unmount_h
	finish
fi

# --- the issue's case: unmounted, mounted again, same names -------------------
# On a fresh mount rgctl makes h, h/a, h2; the groups go (rmdir), the
# hierarchy is unmounted and mounted again, and mkdir makes the same names
# in the same order: the same device and inode numbers.
[ "$BACKEND" = rgcs ] && rmdir "$ROOT"/*/ 2>/dev/null
unmount_h
mount_h || exit $?
"$RG" "${R[@]}" create -p h/a >/dev/null
"$RG" "${R[@]}" create h2 >/dev/null
ino_before=$(stat -c '%d %i' "$ROOT/h/a")
[ "$BACKEND" = rgcs ] && cp "$(ls "$RGCTL_RUNDIR"/marks.*)" "$WORK/before-remount"
unmount_h
mount_h || exit $?
mkdir -p "$ROOT/h/a" "$ROOT/h2"
ino_after=$(stat -c '%d %i' "$ROOT/h/a")
if [ "$ino_before" = "$ino_after" ]; then
	echo "# the new mount reused device and inode numbers ($ino_after)"
else
	echo "# note: the new mount did not reuse device and inode ($ino_before, now $ino_after)"
fi
if [ "$BACKEND" = rgcs ]; then
	# the old registry put back in place, and its header set to the new
	# mount's identity: neither claims the new groups
	"$RG" "${R[@]}" create probe >/dev/null
	f=$(ls "$RGCTL_RUNDIR"/marks.*)
	hdr=$(head -1 "$f")
	expect_foreign h "remount (after a write)"
	cp "$WORK/before-remount" "$f"
	expect_foreign h/a "remount, old registry put back"
	{ echo "$hdr"; tail -n +2 "$WORK/before-remount"; } >"$f"
	expect_foreign h/a "remount, old lines under the new header"
	expect_foreign h2 "remount, old lines under the new header"
	rmdir "$ROOT/probe"
fi
expect_foreign h "remount"
expect_foreign h/a "remount"
expect_foreign h2 "remount"
prune_keeps h h/a h2
finish
