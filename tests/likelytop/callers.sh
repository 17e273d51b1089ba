# likelytop --callers on this machine's kernel (root, tracefs, kmem:kfree):
# - agreement: `--callers kfree -b -n 1 -d 3 -J` against an independent
#   count of the same tracepoint in two tracefs instances of this test's
#   own (one unfiltered: calls; one with the kernel's filter ptr <= 16:
#   wrong), symbolised by the kernel (%pS), cut to the window likelytop
#   reports (CLOCK_MONOTONIC, read before it enables and after it
#   disables; both instances use trace_clock mono).  Tolerance: the
#   independent count may exceed likelytop's only by events recorded
#   between likelytop's clock reads and its enable/disable writes, at
#   most 5 per counter plus 0.1%; likelytop never counts more.
# - tracefs as it was (instances; the global instance's enabled events,
#   kmem filters and triggers, tracing_on, tracer, clock, buffer size)
#   after a normal run, SIGINT, SIGTERM, a closed pipe, and SIGKILL plus
#   the next run, which removes the killed run's instance (and one named after a live
#   pid that holds no lock), never a live run's.
# Runs in a mount namespace of its own with tracefs mounted there when the
# host has none at /sys/kernel/tracing (the host's mount table unchanged).
. "$(dirname "$0")/../cli/lib.sh"
LT=$(tool_path likelytop)
require_root "tracefs instances"
grep -qw tracefs /proc/filesystems || skip_test "no tracefs in this kernel"
command -v jq >/dev/null || skip_test "jq is not installed (scripts/deps.sh installs it)"
T=/sys/kernel/tracing
if [ -z "${LT_CALLERS_NS:-}" ]; then
	command -v unshare >/dev/null || skip_test "no unshare(1)"
	if [ "$(stat -f -c %T $T 2>/dev/null)" != tracefs ]; then
		# the tool's own private mount: the host's mounts stay as they are
		before=$(awk '{print $5, $9}' /proc/self/mountinfo | sort)
		run "$LT" --callers kfree -b -n 1 -d 0.2 --format csv
		if [ "$rc" = 0 ]; then
			after=$(awk '{print $5, $9}' /proc/self/mountinfo | sort)
			expect_eq "$after" "$before" "mount table after a run that mounted tracefs privately"
			expect_match "$out" '^iteration,caller,module,calls,wrong' "CSV header"
		elif ! grep -q "kmem:kfree" <<<"$err"; then
			fail "run with tracefs unmounted: rc $rc: $err"
		fi
	fi
	LT_CALLERS_NS=1 T_FAILS=$T_FAILS T_CHECKS=$T_CHECKS exec unshare -m --propagation private bash "$0"
fi
if [ "$(stat -f -c %T $T 2>/dev/null)" != tracefs ]; then
	mount -t tracefs nodev $T || skip_test "cannot mount tracefs on $T"
fi
[ -e $T/events/kmem/kfree/format ] || skip_test "no kmem:kfree tracepoint"
tmp=$(mktemp -d)
mine=()
cleanup() {
	for i in "${mine[@]}"; do
		[ -d "$T/instances/$i" ] && rmdir "$T/instances/$i"
	done
	rm -rf "$tmp"
}
trap cleanup EXIT

state() {	# what must be as it was
	ls $T/instances
	echo "set_event: $(cat $T/set_event)"
	for e in kfree kmem_cache_free; do
		echo "$e: $(cat $T/events/kmem/$e/enable) $(cat $T/events/kmem/$e/filter) $(cat $T/events/kmem/$e/trigger | grep -v '^#')"
	done
	cat $T/tracing_on $T/current_tracer $T/trace_clock $T/buffer_size_kb
}
state0=$(state)
check_state() { expect_eq "$(state)" "$state0" "tracefs after $1"; }

# ---- agreement ----
mkinst() {	# mkinst NAME FILTER
	mkdir "$T/instances/$1" && mine+=("$1")
	echo mono >"$T/instances/$1/trace_clock"
	echo 16384 >"$T/instances/$1/buffer_size_kb"
	echo 0 >"$T/instances/$1/options/overwrite"
	[ -z "$2" ] || echo "$2" >"$T/instances/$1/events/kmem/kfree/filter"
}
mkinst "ltcheck-calls-$$" ""
mkinst "ltcheck-wrong-$$" "ptr <= 16"
for i in "ltcheck-calls-$$" "ltcheck-wrong-$$"; do echo 1 >"$T/instances/$i/events/kmem/kfree/enable"; done
# NULL frees: each exec frees its bprm and VMAs (kfree(NULL) from
# vm_area_free and free_bprm on this kind of kernel)
( end=$((SECONDS + 4)); while [ $SECONDS -lt $end ]; do /bin/true; done ) &
gen=$!
"$LT" --callers kfree -b -n 1 -d 3 -J >"$tmp/out.json" 2>"$tmp/err"
rc=$?
wait $gen
for i in "ltcheck-calls-$$" "ltcheck-wrong-$$"; do echo 0 >"$T/instances/$i/events/kmem/kfree/enable"; done
expect_rc 0 "--callers kfree -b -n 1 -d 3 -J"
lost=0
for i in "ltcheck-calls-$$" "ltcheck-wrong-$$"; do
	lost=$((lost + $(awk '/^(overrun|dropped events):/ {s += $NF} END {print s + 0}' "$T"/instances/"$i"/per_cpu/cpu*/stats)))
done
[ "$lost" = 0 ] || skip_test "the independent count lost $lost events (machine too busy)"
start=$(jq -r .start "$tmp/out.json") end=$(jq -r .end "$tmp/out.json")
# "   task-PID [CPU] FLAGS TS: kfree: call_site=SYM+0xOFF/0xSIZE ptr=..."
indep() {	# indep INSTANCE: "caller count" lines in the window, sorted
	awk -v s="$start" -v e="$end" '
		/ kfree: call_site=/ {
			for (i = 1; i <= NF; i++) if ($i == "kfree:") break
			ts = $(i - 1); sub(/:$/, "", ts)
			if (ts + 0 < s + 0 || ts + 0 > e + 0) next
			c = $(i + 1); sub(/^call_site=/, "", c); sub(/\/0x[0-9a-f]+/, "", c)
			n[c]++
		}
		END { for (c in n) print c, n[c] }' "$T/instances/$1/trace" | sort
}
indep "ltcheck-calls-$$" >"$tmp/calls.indep"
indep "ltcheck-wrong-$$" >"$tmp/wrong.indep"
jq -r '.callers[] | "\(.caller) \(.calls)"' "$tmp/out.json" | sort >"$tmp/calls.lt"
jq -r '.callers[] | select(.wrong > 0) | "\(.caller) \(.wrong)"' "$tmp/out.json" | sort >"$tmp/wrong.lt"
compare() {	# compare calls|wrong
	local verdict
	verdict=$(join -a1 -a2 -e 0 -o 0,1.2,2.2 "$tmp/$1.lt" "$tmp/$1.indep" | awk '
		{ lt += $2; ind += $3; if ($2 > $3) more = more " " $1 " (" $2 " > " $3 ")" }
		END {
			d = ind - lt
			printf "likelytop %d, independent %d, difference %d\n", lt, ind, d
			if (more != "") print "MORE:" more
			else if (d > 5 + ind / 1000) print "TOO FEW"
			else print "AGREE"
		}')
	echo "$1: $verdict" | head -1
	case $verdict in
	*AGREE) ok ;;
	*) fail "$1 per caller: $verdict"; join -a1 -a2 -e 0 -o 0,1.2,2.2 "$tmp/$1.lt" "$tmp/$1.indep" | awk '$2 != $3' | head -10 ;;
	esac
}
compare calls
compare wrong
nwrong=$(jq '.wrong' "$tmp/out.json")
expect_match "$nwrong" '^[1-9][0-9]*$' "some NULL frees counted (the exec loop makes them)"
expect_eq "$(jq '[.callers[].wrong] | . == (sort | reverse)' "$tmp/out.json")" true "callers sorted by wrong"
expect_eq "$(jq '.calls >= ([.callers[].calls] | add) and .wrong == ([.callers[].wrong] | add)' "$tmp/out.json")" true "totals add up"
expect_eq "$(jq -r '.site.wrong_when' "$tmp/out.json")" "ptr <= 16" "kfree's hint as a filter"
for i in "ltcheck-calls-$$" "ltcheck-wrong-$$"; do rmdir "$T/instances/$i"; done
mine=()
check_state "a run"

# ---- signals ----
wait_instance() {	# wait_instance PID: until instances/likelytop-PID is enabled (10 s)
	for _ in $(seq 200); do
		[ "$(cat "$T/instances/likelytop-$1/events/kmem/kfree/enable" 2>/dev/null)" = 1 ] && return 0
		sleep 0.05
	done
	return 1
}
for sig in INT TERM; do
	"$LT" --callers kfree -b -n 0 -d 1 >"$tmp/sig.out" 2>&1 &
	pid=$!
	wait_instance $pid || fail "SIG$sig: no instance likelytop-$pid"
	kill -$sig $pid
	wait $pid
	rc=$?
	expect_rc 0 "likelytop --callers after SIG$sig"
	check_state "SIG$sig"
done
# a live run, whose instance must survive the sweeps of the runs after it
"$LT" --callers kfree -b -n 0 -d 1 >/dev/null 2>&1 &
live=$!
wait_instance $live || fail "no instance likelytop-$live"
"$LT" --callers kfree -b -n 0 -d 1 >/dev/null 2>&1 &
killed=$!
wait_instance $killed || fail "SIGKILL: no instance likelytop-$killed"
kill -KILL $killed
wait $killed 2>/dev/null
[ -d "$T/instances/likelytop-$killed" ] && ok || fail "SIGKILL left no instance (the test proves nothing)"
# an instance named after a live pid (1) that nobody locks: a reused pid
mkdir "$T/instances/likelytop-1"
run "$LT" --callers kfree -b -n 1 -d 0.2
expect_rc 0 "the run after SIGKILL"
expect_match "$err" "removed 2 tracefs instances left by killed runs" "the sweep says what it removed"
[ -d "$T/instances/likelytop-$killed" ] && fail "the killed run's instance is still there"
[ -d "$T/instances/likelytop-1" ] && { fail "the unlocked likelytop-1 is still there"; rmdir "$T/instances/likelytop-1"; }
[ -d "$T/instances/likelytop-$live" ] && ok || fail "the sweep removed a live run's instance"
kill -INT $live
wait $live
check_state "SIGKILL and the next run"

# a reader that leaves (| head -1): exit 1, no message, no instance left
"$LT" --callers kfree -b -n 3 -d 0.3 2>"$tmp/pipe.err" | head -1 >/dev/null
expect_eq "${PIPESTATUS[0]}:$(cat "$tmp/pipe.err")" "1:" "a closed pipe"
check_state "a closed pipe"

# ---- usage and refusals ----
run "$LT" --callers kfree
expect_rc 2 "--callers without -b"
run "$LT" --condition '!p' -b
expect_rc 2 "--condition without --callers"
run "$LT" --callers kfree -b --mechanism sometimes
expect_rc 2 "--mechanism: not auto, hist or stream"
run "$LT" -b --mechanism stream
expect_rc 2 "--mechanism in batch without --callers"
# --mechanism: stream where the kernel has hist triggers too; hist only
# where it has them (this host's Debian 6.18 has none)
run "$LT" --callers kfree -b -n 1 -d 0.2 --mechanism stream -J
expect_rc 0 "--mechanism stream"
expect_eq "$(jq -r .site.mechanism <<<"$out")" "tracepoint+stream" "streamed"
run "$LT" --callers kfree -b -n 1 -d 0.2 --mechanism hist -J
if [ -e "$T/events/kmem/kfree/hist" ]; then
	expect_rc 0 "--mechanism hist"
	expect_eq "$(jq -r .site.mechanism <<<"$out")" "tracepoint+hist" "in the kernel"
else
	expect_rc 1 "--mechanism hist without hist triggers"
	expect_match "$err" "--mechanism hist: this kernel has no hist triggers" "says why"
fi
run "$LT" --callers no_such_function_xyz -b
expect_rc 1 "an unknown function"
expect_match "$err" "no_such_function_xyz: no tracepoint that records its caller" "says why"
run "$LT" --callers kfree -b -n 1 -d 0.2 --condition 'p->x == 1' -J
expect_rc 0 "a condition that is no test on the argument"
expect_eq "$(jq -c '[.wrong, .site.wrong_when, (.site.unknown_why | test("reads into"))]' <<<"$out")" '[null,null,true]' "split unknown, said so"
# SITE as FILE:LINE: the hint read from a source tree, the function the
# one whose definition holds the line; or the function from a profile
mkdir -p "$tmp/src/mm"
printf 'void kfree(const void *objp)\n{\n\tif (unlikely(!objp))\n\t\treturn;\n}\n' >"$tmp/src/mm/slab.c"
run "$LT" --callers mm/slab.c:3 -S "$tmp/src" -b -n 1 -d 0.2 -J
expect_rc 0 "--callers FILE:LINE -S"
expect_eq "$(jq -c '[.site.function, .site.hint, .site.hint_from, .site.wrong_when]' <<<"$out")" \
	'["kfree","unlikely(!objp)","mm/slab.c:3","ptr == 0"]' "the hint read from the source"
run "$LT" --callers mm/slab.c:2 -S "$tmp/src" -b
expect_rc 1 "FILE:LINE without a hint"
expect_match "$err" "no likely\(\) or unlikely\(\) on that line" "says why"
ln -s "$tmp/src/mm/slab.c" "$tmp/src/link.c"
run "$LT" --callers link.c:3 -S "$tmp/src" -b
expect_rc 1 "FILE:LINE through a symbolic link"
if [ -e "$SRC_DIR/tests/data/linux-6.1/likely_prof.xz" ] && command -v xz >/dev/null; then
	xz -dc "$SRC_DIR/tests/data/linux-6.1/likely_prof.xz" >"$tmp/lp"
	run "$LT" --callers slab_common.c:977 -f "$tmp/lp" -b -n 1 -d 0.2 -J
	expect_rc 0 "--callers FILE:LINE -f PROFILE"
	expect_eq "$(jq -c '[.site.function, .wrong, (.site.unknown_why | test("-S SRCDIR"))]' <<<"$out")" \
		'["kfree",null,true]' "the function from the profile, the split unknown without the source"
	run "$LT" --callers slab_common.c:1 -f "$tmp/lp" -b
	expect_rc 1 "a site the profile does not have"
fi
check_state "the refusals"
finish
