# Standard output closed (>&-), full (>/dev/full) or left by its reader
# (| head, | true): one message naming the cause, or none when the reader
# left; exit status 1 as the man pages say.  Usage: stdout.sh TOOL
. "$(dirname "$0")/lib.sh"
tool=$1
bin=$(tool_path "$tool")
[ -x "$bin" ] || { echo "FAIL: $bin not built"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# commands of this tool that write to standard output
cmds=("$bin --help")
case $tool in
likelytop)
	lp=$SRC_DIR/tests/likelytop/data/likely_prof.txt
	for f in text csv json; do cmds+=("$bin -b -f $lp --format $f"); done ;;
splicebench)
	# one format: all three are written at the end, the same way (and
	# each run takes seconds: the memcpy baseline)
	cmds+=("$bin --mode copy --size 64K --runs 1 --total 1M --format json") ;;
rgctl)
	cpu=$(awk '{ for (i = 7; i <= NF; i++) if ($i == "-") break
		if ($(i + 1) == "cgroup" && $(i + 3) ~ /(^|,)cpu(,|$)/) { print $5; exit } }' /proc/self/mountinfo)
	if [ "$(id -u)" = 0 ] && [ -n "$cpu" ]; then
		cmds+=("$bin -b cgroup1 --root $cpu list" "$bin -b cgroup1 --root $cpu --json list")
	else
		echo "note: rgctl list not tried (needs root and a cgroup v1 cpu mount)"
	fi ;;
esac

for c in "${cmds[@]}"; do
	run sh -c "$c >&-"
	expect_rc 1 "$c >&-"
	expect_eq() { [ "$1" = "$2" ] && ok || fail "$3: got '${1:0:300}', expected '$2'"; }
	expect_eq "$err" "$tool: write error on standard output: bad file descriptor" "$c >&-"
	run sh -c "$c >/dev/full"
	expect_rc 1 "$c >/dev/full"
	expect_eq "$err" "$tool: write error on standard output: no space left on device" "$c >/dev/full"
	# the reader left before anything was written (the writer starts
	# 0.3 s after it): status 1, no message
	# (not death by SIGPIPE, 141), also when SIGPIPE is ignored already
	for pre in "" "trap '' PIPE;"; do
		bash -c "$pre { sleep 0.3; $c; } 2>'$tmp/err' | (exec 0<&-; sleep 1); echo \${PIPESTATUS[0]} >'$tmp/rc'"
		expect_eq "$(cat "$tmp/rc")" 1 "$pre $c | (reader gone): status"
		expect_eq "$(cat "$tmp/err")" "" "$pre $c | (reader gone): stderr"
		bash -c "$pre $c 2>'$tmp/err' | head -c 1 >/dev/null"
		expect_eq "$(cat "$tmp/err")" "" "$pre $c | head -c 1: stderr"
	done
done

# What rgctl exec runs gets SIGPIPE back: 'yes' ends when its reader does.
if [ "$tool" = rgctl ] && [ "$(id -u)" = 0 ] && [ -n "$cpu" ]; then
	bash -c "timeout 20 $bin -b cgroup1 --root $cpu exec / -- yes | head -c 1 >/dev/null; echo \${PIPESTATUS[0]} >'$tmp/rc'"
	expect_eq "$(cat "$tmp/rc")" 141 "rgctl exec / -- yes | head: killed by SIGPIPE"
fi

# A flush failed earlier and its cause was not kept: still named.
lost=$BUILD_DIR/tests/cli/stdout_lost
if [ "$tool" = rgctl ]; then
	run sh -c "'$lost' >/dev/full"
	expect_rc 1 "stdout_lost >/dev/full"
	expect_eq "$err" "stdout_lost: write error on standard output: no space left on device" "stdout_lost >/dev/full"
	run sh -c "'$lost' >&-"
	expect_eq "$err" "stdout_lost: write error on standard output: bad file descriptor" "stdout_lost >&-"
	bash -c "{ sleep 0.3; '$lost'; } 2>'$tmp/err' | (exec 0<&-; sleep 1); echo \${PIPESTATUS[0]} >'$tmp/rc'"
	expect_eq "$(cat "$tmp/rc")" 1 "stdout_lost | (reader gone): status"
	expect_eq "$(cat "$tmp/err")" "" "stdout_lost | (reader gone): stderr"
fi
finish
