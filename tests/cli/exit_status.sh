# One exit-status rule for the three tools (issue 14, item 4): 2 for a usage
# error (an unknown option, a missing argument, an invalid value), with a
# message that starts with the tool's short name, never the path it was run
# by; 1 when the operation fails.  Usage: exit_status.sh TOOL
. "$(dirname "$0")/lib.sh"
tool=$1
bin=$(tool_path "$tool")
[ -x "$bin" ] || { echo "FAIL: $bin not built"; exit 1; }
T=$(mktemp -d /tmp/exit-status.XXXXXX)
trap 'rm -rf "$T"' EXIT

value_error() {	# value_error WHAT MESSAGE-REGEX: exit 2, "TOOL: " first, no path
	expect_rc 2 "$1"
	expect_match "$err" "^$tool( [a-z]+)?: $2" "$1: message"
	case "$err" in
	*"$bin"*|*/"$tool":*) fail "$1: the message names the tool by its path: $err" ;;
	*) ok ;;
	esac
	[ -z "$out" ] && ok || fail "$1 wrote to stdout"
}
usage_error() {	# usage_error WHAT MESSAGE-REGEX: the same, and the --help hint
	value_error "$@"
	expect_match "$err" "Try '$tool( [a-z]+)? --help' for more information" "$1: hint"
}
failed() {	# failed WHAT MESSAGE-REGEX: exit 1, "TOOL: " first
	expect_rc 1 "$1"
	expect_match "$err" "^$tool: $2" "$1: message"
}

case $tool in
rgctl)
	# a captured tree: cgroup v1 cpu with group db, and an empty one
	mkdir -p "$T/proc/self" "$T/sys/fs/cgroup/cpu/db" "$T/none/proc/self"
	printf '32 1 0:29 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n' >"$T/proc/self/mountinfo"
	echo 1024 >"$T/sys/fs/cgroup/cpu/cpu.shares"; : >"$T/sys/fs/cgroup/cpu/tasks"
	echo 1024 >"$T/sys/fs/cgroup/cpu/db/cpu.shares"; : >"$T/sys/fs/cgroup/cpu/db/tasks"
	: >"$T/none/proc/self/mountinfo"
	r() { run "$bin" --sysroot "$T" "$@"; }
	r --bogus list;		usage_error "--bogus" "unknown or ambiguous option '--bogus'"
	r -Q list;		usage_error "-Q" "unknown option '-Q'"
	r list --bogus;		usage_error "list --bogus" "unknown or ambiguous option '--bogus'"
	r list -Q;		usage_error "list -Q" "unknown option '-Q'"
	r list --raw=yes;	usage_error "list --raw=yes" "option '--raw' takes no argument"
	r --backend;		usage_error "--backend (missing)" "option '--backend' needs an argument"
	r list -b;		usage_error "list -b (missing)" "option '-b' needs an argument"
	r create db/x --shares;	usage_error "create --shares (missing)" "option '--shares' needs an argument"
	r shares db abc;	value_error "shares db abc" "invalid shares 'abc' for cgroup1: not a decimal integer"
	r shares db -5;		value_error "shares db -5" "invalid shares '-5' for cgroup1: out of range"
	r create db/x --shares 1; value_error "create --shares 1" "invalid shares '1' for cgroup1: out of range"
	r whereis 0x10;		value_error "whereis 0x10" "invalid pid '0x10'"
	r attach db 1 abc;	value_error "attach db 1 abc" "invalid pid 'abc'"
	r create ../x;		value_error "create ../x" "invalid group name '../x'"
	r -b cgroup3 list;	usage_error "-b cgroup3" "unknown backend 'cgroup3'"
	r list -o bogus;	usage_error "list -o bogus" "unknown column 'bogus'"
	r nosuch;		usage_error "unknown command" "unknown command 'nosuch'"
	r;			usage_error "no command" "no command given"
	r shares;		usage_error "shares without GROUP" "give GROUP"
	[ "$(cat "$T/sys/fs/cgroup/cpu/db/cpu.shares")" = 1024 ] && ok || fail "a usage error changed the shares"
	[ ! -e "$T/sys/fs/cgroup/cpu/db/x" ] && ok || fail "a usage error created a group"
	r shares nosuch 100;	failed "shares of a missing group" "cannot set the shares of 'nosuch': no such group"
	r list nosuch;		failed "list of a missing group" "cannot list 'nosuch': no such group"
	run "$bin" --sysroot "$T/none" list
	failed "no hierarchy" "no RGCS, cgroup v2 or cgroup v1 cpu hierarchy is mounted"
	;;
likelytop)
	run "$bin" --bogus;	usage_error "--bogus" "unknown or ambiguous option '--bogus'"
	run "$bin" -Q;		usage_error "-Q" "unknown option '-Q'"
	run "$bin" -bQ;		usage_error "-bQ" "unknown option '-Q'"
	run "$bin" --batch=1;	usage_error "--batch=1" "option '--batch' takes no argument"
	run "$bin" -d;		usage_error "-d (missing)" "option '-d' needs an argument"
	run "$bin" -b --sort;	usage_error "--sort (missing)" "option '--sort' needs an argument"
	run "$bin" -d 0.01;	usage_error "-d 0.01" "invalid delay '0.01'"
	run "$bin" -b -n x;	usage_error "-n x" "invalid iteration count 'x'"
	run "$bin" -b --sort bogus; usage_error "--sort bogus" "unknown sort key 'bogus'"
	run "$bin" -b extra;	usage_error "an extra operand" "unexpected argument 'extra'"
	run "$bin" -b -f "$T/missing"
	failed "a missing profile" "cannot read $T/missing"
	printf 'not a profile\n' >"$T/garbage"
	run "$bin" -b -f "$T/garbage"
	expect_rc 1 "a file that is not a profile"
	;;
splicebench)
	run "$bin" --bogus;	usage_error "--bogus" "unknown or ambiguous option '--bogus'"
	run "$bin" -Q;		usage_error "-Q" "unknown option '-Q'"
	run "$bin" --quick=1;	usage_error "--quick=1" "option '--quick' takes no argument"
	run "$bin" --runs;	usage_error "--runs (missing)" "option '--runs' needs an argument"
	run "$bin" --runs 0;	usage_error "--runs 0" "invalid --runs '0'"
	run "$bin" --size 8;	usage_error "--size 8" "a chunk size must be between 16 and 1G"
	run "$bin" --format xml; usage_error "--format xml" "invalid --format 'xml'"
	run "$bin" extra;	usage_error "an extra operand" "unexpected argument 'extra'"
	ncpu=$(nproc --all)
	run "$bin" --size 4K --total 1M --runs 1 --pin 0,$((ncpu + 3))
	failed "--pin to a CPU that is not there" "cannot pin the consumer to CPU $((ncpu + 3))"
	;;
*)
	echo "FAIL: unknown tool $tool"; exit 1 ;;
esac
finish
