# Sourced by the shell tests that mount a FUSE file system of their own.
#
# reap_dead_fuse TYPE: lazily unmount every fuse.TYPE mount whose daemon has
# gone (the mount point answers ENOTCONN), as a test killed with SIGKILL
# leaves behind (its trap never ran).  Live mounts, other tests' included,
# are left alone.  Says what it unmounted.
reap_dead_fuse() {
	local mp
	[ "$(id -u)" = 0 ] || return 0
	while read -r mp; do
		stat -- "$mp" >/dev/null 2>&1 && continue
		case $(LC_ALL=C stat -- "$mp" 2>&1) in
		*"not connected"*)
			umount -l -- "$mp" 2>/dev/null &&
				echo "note: unmounted a dead fuse.$1 mount on $mp (left by a killed test)"
			;;
		esac
	done < <(awk -v t="fuse.$1" '{ for (i = 7; i <= NF; i++) if ($i == "-") break }
		$(i + 1) == t { print $5 }' /proc/self/mountinfo)
}
