# rgctl(8)'s EXAMPLES run as written on the backend each names (none named:
# cgroup v1), with their shown output checked.  Only three things change:
# the hierarchy is given with --root (a wrapper named rgctl first in PATH),
# the group names get this run's unique prefix, and the processes are
# sleeps of this test (4242, $(pidof mysqld)); `make -j8` becomes `true`.
# A backend this machine lacks is skipped with the reason, the others run.
. "$(dirname "$0")/common.sh"
. "$SRC_DIR/tests/rgcsfs/lib.sh"
require_root "creates groups in the cgroup hierarchies and mounts the RGCS emulator"
command -v jq >/dev/null || skip_test "jq is not installed"
page="$SRC_DIR/man/rgctl.8"
tmp=$(mktemp -d)
CLEANUPS+=("rm -rf '$tmp'")

# The examples, one per line: "BLOCK<TAB>cmd<TAB>COMMAND" or
# "BLOCK<TAB>out<TAB>LINE" (what the command before it prints).
awk '/^\.SH EXAMPLES/ { e = 1; next } e && /^\.SH/ { exit }
	e && /^\.EX/ { b++; on = 1; next } e && /^\.EE/ { on = 0; next }
	on && /^# / { print b "\tcmd\t" substr($0, 3); next }
	on { print b "\tout\t" $0 }' "$page" |
	sed 's/\\-/-/g; s/\\e/\\/g' >"$tmp/examples"
[ "$(grep -c '	cmd	rgctl' "$tmp/examples")" -ge 10 ] && ok ||
	fail "rgctl(8) EXAMPLES: $(grep -c '	cmd	' "$tmp/examples") commands found"

spawn 2
pid=${PIDS[0]}
# backend_of BLOCK: the backend its commands name (cgroup1 if none)
backend_of() {
	local c
	c=$(awk -F'\t' -v b="$1" '$1 == b && $2 == "cmd"' "$tmp/examples")
	case "$c" in
	*"-b cgroup2"* | *"--backend cgroup2"*) echo cgroup2 ;;
	*"-b rgcs"* | *"--backend rgcs"*) echo rgcs ;;
	*) echo cgroup1 ;;
	esac
}
# run_block BLOCK ROOT: every command of BLOCK, its output checked
run_block() {
	local b=$1 root=$2 kind what line cmd="" got=""
	mkdir -p "$tmp/bin"
	printf '#!/bin/sh\nexec "%s" --root "%s" "$@"\n' "$RG" "$root" >"$tmp/bin/rgctl"
	chmod +x "$tmp/bin/rgctl"
	check_out() {
		[ -n "$cmd" ] || return 0
		# runs of blanks squeezed: the test's group names are longer
		# than the page's, and tables widen to fit them
		[ "$(printf '%s' "$got" | tr -s ' ')" = "$(printf '%s' "$want" | tr -s ' ')" ] && ok ||
			fail "rgctl(8) example '$cmd': printed '$got', the page shows '$want'"
	}
	want=""
	while IFS=$'\t' read -r blk kind line; do
		[ "$blk" = "$b" ] || continue
		if [ "$kind" = out ]; then
			want+="${want:+$'\n'}$(printf '%s' "$line" | sed "s/\bdb\b/$G-db/g")"
			continue
		fi
		[ -n "$want" ] && check_out
		want=""
		cmd=$(printf '%s' "$line" | sed -E "s/\bdb\b/$G-db/g; s/\bbuild\b/$G-build/g;
			s/\b4242\b/$pid/g; s/\\\$\(pidof mysqld\)/$pid/g; s/make -j8/true/")
		got=$(PATH="$tmp/bin:$PATH" bash -c "$cmd" 2>"$tmp/err")
		rc=$?
		[ "$rc" = 0 ] && ok || fail "rgctl(8) example '$cmd' on $(backend_of "$b"): status $rc: $(cat "$tmp/err")"
	done <"$tmp/examples"
	[ -n "$want" ] && check_out
	want=""
}

for b in $(cut -f1 "$tmp/examples" | sort -un); do
	case "$(backend_of "$b")" in
	cgroup1)
		root=$(mount_of cgroup cpu)
		if [ -z "$root" ]; then
			echo "note: no cgroup v1 cpu hierarchy here: example block $b not run"
			continue
		fi
		use_hierarchy "$root"
		CLEANUPS+=("cg_remove '$root' '$root/$G-db'")
		run_block "$b" "$root" ;;
	cgroup2)
		root=$(mount_of cgroup2)
		if [ -z "$root" ] || ! mkdir "$root/$G-build.probe" 2>/dev/null; then
			echo "note: no writable cgroup v2 hierarchy here: example block $b not run"
			continue
		fi
		rmdir "$root/$G-build.probe"
		CLEANUPS+=("cg_remove '$root' '$root/$G-build'")
		run_block "$b" "$root" ;;
	rgcs)
		mnt=$(mktemp -d /tmp/rgctl-man.XXXXXX)
		CLEANUPS+=("rgcsfs_stop '$mnt'; rmdir '$mnt'")
		if ! rgcsfs_start "$mnt"; then
			echo "note: example block $b (RGCS) not run: $RGCSFS_WHY"
			continue
		fi
		run_block "$b" "$mnt/res_groups" ;;
	esac
done
finish
