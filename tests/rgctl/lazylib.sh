# What an rgctl call maps (issue 24 item 4): libsmartcols and libmnl are
# not in rgctl's NEEDED (src/rgctl/lazylib.c loads them in the commands
# that call them), json-c and libconfig neither where their Debian archives
# exist (linked in, except under the sanitizers); a command that prints no
# table loads no libsmartcols, one that does loads it and prints the table;
# a libsmartcols that cannot be loaded is one clear message, exit 1.
# Captured tree (--sysroot): no root needed.
. "$(dirname "$0")/common.sh"
command -v readelf >/dev/null || skip_test "readelf is not installed (binutils)"
T=$(mktemp -d /tmp/rgctl-lazylib.XXXXXX)
CLEANUPS+=("rm -rf '$T'")
C=$T/sys/fs/cgroup/cpu
mkdir -p "$T/proc/self" "$C/db"
cat >"$T/proc/self/mountinfo" <<MI
23 1 0:21 / / rw - ext4 /dev/sda1 rw
31 23 0:28 / /sys/fs/cgroup rw - tmpfs tmpfs rw
32 31 0:29 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu
MI
for d in "" /db; do echo 1024 >"$C$d/cpu.shares"; : >"$C$d/tasks"; done

needed=$(readelf -d "$RG" | awk '/\(NEEDED\)/ { print $NF }' | tr -d '[]')
for l in libsmartcols libmnl; do
	case " $(echo $needed) " in
	*" $l.so"*) fail "rgctl's NEEDED has $l: every call maps it ($needed)" ;;
	*) ok ;;
	esac
done
libdir=$(pkg-config --variable=libdir json-c 2>/dev/null)
case "${SANITIZE:-OFF}" in
ON|1|TRUE|YES|on|true) ;;
*)
	for l in libjson-c libconfig; do
		[ "$l" = libconfig ] && [ "${WITH_LIBCONFIG:-ON}" != ON ] && continue
		[ -n "$libdir" ] && [ -e "$libdir/$l.a" ] || continue
		case " $(echo $needed) " in
		*" $l.so"*) fail "rgctl's NEEDED has $l although $libdir/$l.a exists ($needed)" ;;
		*) ok ;;
		esac
	done ;;
esac

# glibc's loader says which objects it loads (LD_DEBUG=files, on stderr)
loads() { LD_DEBUG=files "$@" 2>&1 >/dev/null | grep -c 'file=libsmartcols'; }
expect_eq "$(loads "$RG" --sysroot "$T" -b cgroup1 shares db)" 0 \
	"shares (no table) loads libsmartcols"
run env LC_ALL=C "$RG" --sysroot "$T" -b cgroup1 list
expect_rc 0 "list"
expect_match "$out" '^GROUP +TASKS +SHARES' "list's table"
expect_match "$out" 'db +0 +1024' "list's table: db"
[ "$(loads "$RG" --sysroot "$T" -b cgroup1 list)" -ge 1 ] && ok ||
	fail "list did not load libsmartcols (LD_DEBUG=files)"

# a libsmartcols that cannot be loaded (an empty file first in the path):
# a command without a table does not notice; list says what it could not
# load and why, exit 1
mkdir -p "$T/lib"
: >"$T/lib/libsmartcols.so.1"
run env LD_LIBRARY_PATH="$T/lib" "$RG" --sysroot "$T" -b cgroup1 shares db
expect_rc 0 "shares with a broken libsmartcols"
expect_eq "$out" 1024 "shares with a broken libsmartcols: output"
run env LD_LIBRARY_PATH="$T/lib" "$RG" --sysroot "$T" -b cgroup1 list
expect_rc 1 "list with a broken libsmartcols"
expect_match "$err" '^rgctl: cannot load libsmartcols\.so\.1 \(table output\): .+' \
	"list with a broken libsmartcols: message"
expect_eq "$out" "" "list with a broken libsmartcols: stdout"
finish
