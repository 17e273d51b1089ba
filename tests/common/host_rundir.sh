#!/bin/bash
# host_rundir.sh save FILE | check FILE: the host's /run/rgctl before and
# after the whole ctest run (the fixture host_rundir: every test requires
# it, so "save" runs first and "check" last).  Every test runs with
# RGCTL_RUNDIR pointing into the build tree (tests/CMakeLists.txt); "check"
# fails, listing the difference, when anything in /run/rgctl was made,
# changed or removed meanwhile.
#
# Not compared: owned.* files, the registry of rgctl versions before issue
# 24, which this rgctl never opens (grep owner.c); other checkouts' older
# test runs on this machine still write them.
set -u
DIR=${HOST_RUNDIR:-/run/rgctl}
snapshot() {
	[ -e "$DIR" ] || { echo "(no $DIR)"; return; }
	stat -c 'dir %F %a %u:%g' -- "$DIR"
	find "$DIR" -mindepth 1 ! -name 'owned.*' -printf '%P\n' 2>/dev/null | LC_ALL=C sort |
	while IFS= read -r f; do
		p="$DIR/$f"
		if [ -f "$p" ] && [ ! -L "$p" ]; then
			printf '%s %s %s\n' "$f" "$(stat -c '%F %a %u:%g %s %Y' -- "$p")" \
				"$(sha256sum <"$p" | cut -c1-64)"
		else
			printf '%s %s\n' "$f" "$(stat -c '%F %a %u:%g' -- "$p")"
		fi
	done
}
case "${1:-}" in
save)
	mkdir -p "$(dirname "$2")" && snapshot >"$2" || exit 1
	echo "saved the state of $DIR ($(wc -l <"$2") lines) in $2"
	;;
check)
	[ -f "$2" ] || { echo "no snapshot $2 (the fixture's setup did not run)"; exit 1; }
	if ! diff -u "$2" <(snapshot); then
		echo "FAIL: $DIR changed during the test run (tests must use \$RGCTL_RUNDIR)"
		exit 1
	fi
	echo "ok: $DIR is as it was before the run"
	;;
*)
	echo "usage: host_rundir.sh save|check FILE" >&2
	exit 2
	;;
esac
