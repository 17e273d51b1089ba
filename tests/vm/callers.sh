#!/bin/bash
# likelytop --callers on the guest's 6.1 kernel, which has hist triggers
# and kprobe events (kernel/config.fragment), so the in-kernel histogram is
# the mechanism (the host's tests/likelytop/callers.sh covers streaming):
# (a) `--callers kfree -b -n 1 -d 3 -J` through the histogram agrees,
#     caller by caller, with an independent count of kmem:kfree taken in
#     two tracefs instances of this test's own (all calls; `ptr <= 16`,
#     the wrong ones), read as text and cut to the window likelytop
#     reports (CLOCK_MONOTONIC read before its first and after its last
#     reading of the hist file; trace_clock mono).  Tolerance: likelytop
#     never counts more; the independent count may exceed it only by the
#     events it saw in the window's first and last 50 ms (the skew of the
#     two windows' start and stop: a hist file's reading under TCG),
#     per counter.  The JSON is kept as a
#     capture (captures/kfree_callers.json, for tests/data/linux-6.1).
# (b) __d_alloc, which has no tracepoint, through a kprobe event with the
#     hint read from its definition's lines (fs/dcache.c:1788 of 6.1:
#     `unlikely(!name)`, the 2nd argument): totals agree with a second
#     kprobe of this test's own (the same filter, text in its own
#     instance, the same window and tolerance), and the wrong ones come
#     from the tmpfs mounts the test makes meanwhile (d_make_root:
#     __d_alloc(sb, NULL)), no more than it made; --condition
#     'unlikely(!arg2)' names the same argument.
# (d) the same __d_alloc case with --mechanism stream: the kprobe without
#     hist triggers, streamed from trace_pipe_raw and counted in likelytop,
#     against the same independent count and tolerance.
# (e) a signed argument: `dfd == -100` on an int, fetched as s32 (signed:1
#     in its format), compared as signed and written `arg == -100`, which
#     the kernel takes: counted in the kernel, agreeing with a kprobe of
#     this test's own.  Then a hist trigger the kernel refuses (made so
#     by tests/likelytop/no_hist.c, preloaded: every filtered hist trigger
#     written is refused with EINVAL): likelytop falls back to streaming
#     with a note, the counts agree again; --mechanism hist fails instead.
# (f) the live view's c key (tmux) on __d_alloc with -S: the kprobe, the
#     filter from the source, d_make_root's NULL names counted live; Esc
#     and SIGTERM leave tracefs as it was.
# (c) tracefs as it was (instances, kprobe_events, dynamic_events, the
#     events' enable, filter and trigger, tracing_on, tracer, clock,
#     buffer) after each run, SIGINT, and a SIGKILLed kprobe run followed
#     by a new run, which removes the killed run's instance and probe.
# Then bench/likelytop/callers_cost.sh (5 rounds of 2 s): the histogram's
# cost to a kfree storm beside the untraced storm, printed, not checked.
. "$(dirname "$0")/lib.sh"
LT=$(tool_path likelytop)
T=$(mount_of tracefs)
[ -n "$T" ] || T=/sys/kernel/tracing
command -v jq >/dev/null || skip_test "no jq"
for f in kprobe_events events/kmem/kfree/hist; do
	[ -e "$T/$f" ] || { fail "no $T/$f: the guest kernel lacks kprobe events or hist triggers (kernel/config.fragment)"; finish; }
done
tmp=$(mktemp -d)
mine=()
CLEANUPS+=("cleanup_callers")
cleanup_callers() {
	local i
	for i in "${mine[@]}"; do
		case $i in
		kp:*) echo "-:${i#kp:}" >>"$T/kprobe_events" ;;
		*) [ -d "$T/instances/$i" ] && rmdir "$T/instances/$i" ;;
		esac
	done
	mountpoint -q "$tmp/mnt" && umount "$tmp/mnt"
	rm -rf "$tmp"
}
cd "$tmp" || exit 1

state() {	# what must be as it was
	ls "$T/instances"
	echo "kprobe_events: $(cat "$T/kprobe_events")"
	echo "dynamic_events: $(cat "$T/dynamic_events")"
	echo "set_event: $(cat "$T/set_event")"
	for e in kmem/kfree kmem/kmem_cache_free; do
		echo "$e: $(cat "$T/events/$e/enable") $(cat "$T/events/$e/filter") $(grep -v '^#' "$T/events/$e/trigger")"
	done
	cat "$T/tracing_on" "$T/current_tracer" "$T/trace_clock"
	# the global buffer is allocated at its full size on the first event
	# enabled anywhere (the kernel's "7 (expanded: 1408)" before): the
	# size must stay, not that note
	sed 's/ (expanded: [0-9]*)//' "$T/buffer_size_kb"
}
state0=$(state)
check_state() { expect_eq "$(state)" "$state0" "tracefs after $1"; }

mkinst() {	# mkinst NAME EVENT FILTER: enabled, text in the instance's trace
	mkdir "$T/instances/$1" && mine+=("$1")
	echo mono >"$T/instances/$1/trace_clock"
	echo 8192 >"$T/instances/$1/buffer_size_kb"
	echo 0 >"$T/instances/$1/options/overwrite"
	[ -z "$3" ] || echo "$3" >"$T/instances/$1/events/$2/filter"
	echo 1 >"$T/instances/$1/events/$2/enable"
}
lost() {	# lost INSTANCE...: events the instances dropped
	local i n=0
	for i; do
		n=$((n + $(awk '/^(overrun|dropped events):/ {s += $NF} END {print s + 0}' "$T"/instances/"$i"/per_cpu/cpu*/stats)))
	done
	echo $n
}
# "   task-PID [CPU] FLAGS TS: EVENT: call_site=SYM+0xOFF/0xSIZE ...": per
# caller counts in [start, end], and the counts in its first and last 50 ms
indep() {	# indep INSTANCE EVENT START END
	awk -v ev="$2:" -v s="$3" -v e="$4" '
		{
			for (i = 1; i <= NF; i++) if ($i == ev) break
			if (i > NF) next
			ts = $(i - 1); sub(/:$/, "", ts)
			if (ts + 0 < s + 0 || ts + 0 > e + 0) next
			if (ts + 0 < s + 0.05 || ts + 0 > e - 0.05) edge++
			c = $(i + 1); sub(/^call_site=/, "", c); sub(/\/0x[0-9a-f]+$/, "", c)
			n[c]++
		}
		END { for (c in n) print c, n[c]; print "@edge", edge + 0 }' "$T/instances/$1/trace" | sort
}
compare() {	# compare NAME LT_FILE INDEP_FILE: per caller
	local verdict
	verdict=$(join -a1 -a2 -e 0 -o 0,1.2,2.2 "$2" "$3" | awk '
		$1 == "@edge" { edge = $3; next }
		{ lt += $2; ind += $3; if ($2 > $3) more = more " " $1 " (" $2 " > " $3 ")" }
		END {
			d = ind - lt
			printf "likelytop %d, independent %d, difference %d, allowed %d\n", lt, ind, d, edge
			if (more != "") print "MORE:" more
			else if (d > edge) print "TOO FEW"
			else print "AGREE"
		}')
	echo "$1: $(head -1 <<<"$verdict")"
	case $verdict in
	*AGREE) ok ;;
	*) fail "$1: $(tail -1 <<<"$verdict")"; join -a1 -a2 -e 0 -o 0,1.2,2.2 "$2" "$3" | awk '$2 != $3' | head -10 ;;
	esac
}

# ---- (a) kfree through the histogram ----
mkinst "ltcheck-calls-$$" kmem/kfree ""
mkinst "ltcheck-wrong-$$" kmem/kfree "ptr <= 16"
# NULL frees: each exec frees VMAs and its bprm (vm_area_free, free_bprm)
( end=$((SECONDS + 5)); while [ $SECONDS -lt $end ]; do /bin/true; done ) &
gen=$!
SPAWNED+=($gen)
"$LT" --callers kfree -b -n 1 -d 3 -J >a.json 2>a.err
rc=$?
wait $gen
for i in "ltcheck-calls-$$" "ltcheck-wrong-$$"; do echo 0 >"$T/instances/$i/events/kmem/kfree/enable"; done
expect_rc 0 "--callers kfree -b -n 1 -d 3 -J"
cat a.err
expect_eq "$(jq -r .site.mechanism a.json)" "tracepoint+hist" "the histogram is the mechanism where the kernel has it"
n=$(lost "ltcheck-calls-$$" "ltcheck-wrong-$$")
if [ "$n" = 0 ]; then
	start=$(jq -r .start a.json) end=$(jq -r .end a.json)
	indep "ltcheck-calls-$$" kfree "$start" "$end" >calls.indep
	indep "ltcheck-wrong-$$" kfree "$start" "$end" >wrong.indep
	{ jq -r '.callers[] | "\(.caller) \(.calls)"' a.json; echo "@edge 0"; } | sort >calls.lt
	{ jq -r '.callers[] | select(.wrong > 0) | "\(.caller) \(.wrong)"' a.json; echo "@edge 0"; } | sort >wrong.lt
	compare "kfree calls per caller" calls.lt calls.indep
	compare "kfree wrong per caller" wrong.lt wrong.indep
else
	fail "the independent count lost $n events (its buffers are too small for this guest)"
fi
expect_match "$(jq .wrong a.json)" '^[1-9][0-9]*$' "NULL frees counted (the exec loop makes them)"
expect_eq "$(jq '.calls >= ([.callers[].calls] | add) and .wrong == ([.callers[].wrong] | add) and .lost == 0' a.json)" true "totals add up, nothing dropped"
jq -c '{calls, wrong, top: [.callers[:5][] | [.caller, .calls, .wrong]]}' a.json
cp a.json "$VM_OUT/captures/kfree_callers.json" 2>/dev/null
for i in "ltcheck-calls-$$" "ltcheck-wrong-$$"; do rmdir "$T/instances/$i"; done
mine=()
check_state "the kfree run"

# ---- (b) a function without a tracepoint: a kprobe event ----
# 6.1's fs/dcache.c: __d_alloc defined at line 1770, its hint at 1788
mkdir -p src/fs mnt
{
	for ((l = 1; l < 1770; l++)); do echo; done
	echo 'static struct dentry *__d_alloc(struct super_block *sb, const struct qstr *name)'
	echo '{'
	for ((l = 1772; l < 1788; l++)); do echo; done
	printf '\tif (unlikely(!name)) {\n\t\tx();\n\t}\n}\n'
} >src/fs/dcache.c
echo "p:ltcheck_$$/d_alloc __d_alloc call_site=\$stack0:x64 name=\$arg2:x64" >>"$T/kprobe_events" &&
	mine+=("kp:ltcheck_$$/d_alloc")
# totals_agree JSON EVENT CALLS_INST WRONG_INST CALLS_NAME WRONG_NAME:
# likelytop's totals against the two instances of this test's own, in the
# window JSON reports (they print addresses, likelytop names them)
totals_agree() {
	local j=$1 ev=$2 n start end i
	n=$(lost "$3" "$4")
	[ "$n" = 0 ] && ok || fail "$5: the independent count lost $n events"
	start=$(jq -r .start "$j") end=$(jq -r .end "$j")
	for i in 3 4; do
		indep "${!i}" "$ev" "$start" "$end" |
			awk '$1 == "@edge" { e = $2; next } { s += $2 } END { print "total", s + 0; print "@edge", e + 0 }' >"t$i.indep"
	done
	printf 'total %s\n@edge 0\n' "$(jq .calls "$j")" >t3.lt
	printf 'total %s\n@edge 0\n' "$(jq .wrong "$j")" >t4.lt
	compare "$5" t3.lt t3.indep
	compare "$6" t4.lt t4.indep
}
kprobe_case() {	# kprobe_case MECH: --mechanism MECH against the second kprobe
	local mech=$1 n start end dmr mounts
	mkinst "ltcheck-kp-$$" "ltcheck_$$/d_alloc" ""
	mkinst "ltcheck-kpw-$$" "ltcheck_$$/d_alloc" "name == 0"
	# tmpfs mounts (each: d_make_root, __d_alloc(sb, NULL)) while it runs
	rm -f stop mounts
	( n=0; while [ ! -e stop ]; do mount -t tmpfs ltcheck mnt && umount mnt && n=$((n + 1)); done; echo $n >mounts ) &
	gen=$!
	SPAWNED+=($gen)
	"$LT" --callers fs/dcache.c:1788 -S src --mechanism "$mech" -b -n 1 -d 3 -J >b.json 2>b.err
	rc=$?
	touch stop
	wait $gen
	mounts=$(cat mounts)
	for i in "ltcheck-kp-$$" "ltcheck-kpw-$$"; do echo 0 >"$T/instances/$i/events/ltcheck_$$/d_alloc/enable"; done
	expect_rc 0 "--callers fs/dcache.c:1788 -S src --mechanism $mech (a kprobe event)"
	cat b.err
	expect_eq "$(jq -c '[.site.function, .site.mechanism, .site.hint, .site.wrong_when, .lost]' b.json)" \
		'["__d_alloc","kprobe+'"$mech"'","unlikely(!name)","arg == 0",0]' "$mech: the site, its mechanism, the filter, nothing lost"
	expect_match "$(jq -r .site.probe b.json)" '^p:likelytop_[0-9]+/__d_alloc __d_alloc call_site=\$stack0:x64 arg=\$arg2:x64$' "the kprobe fetches the 2nd argument"
	totals_agree b.json d_alloc "ltcheck-kp-$$" "ltcheck-kpw-$$" "__d_alloc calls ($mech)" "__d_alloc wrong, name NULL ($mech)"
	dmr=$(jq '[.callers[] | select(.caller | startswith("d_make_root+")) | .wrong] | add // 0' b.json)
	echo "$mech: tmpfs mounts: $mounts; wrong from d_make_root: $dmr (of $(jq .wrong b.json))"
	[ "$dmr" -gt 0 ] && [ "$dmr" -le "$mounts" ] && ok || fail "$mech: d_make_root's NULL names: $dmr, mounts $mounts"
	jq -c '{calls, wrong, top: [.callers[:5][] | [.caller, .calls, .wrong]]}' b.json
	for i in "ltcheck-kp-$$" "ltcheck-kpw-$$"; do rmdir "$T/instances/$i"; done
	mine=("kp:ltcheck_$$/d_alloc")
}
kprobe_case hist
# (d) the same kprobe without hist triggers: streamed from trace_pipe_raw
# and counted in likelytop, against the same independent count
kprobe_case stream
echo "-:ltcheck_$$/d_alloc" >>"$T/kprobe_events"
mine=()
check_state "the kprobe run"
run "$LT" --callers __d_alloc --condition 'unlikely(!arg2)' -b -n 1 -d 0.5 -J
expect_rc 0 "--callers __d_alloc --condition 'unlikely(!arg2)'"
expect_match "$(jq -r '[.site.probe, .site.wrong_when] | join(" ")' <<<"$out")" 'arg=\$arg2:x64 arg == 0$' "argN names the argument"
run "$LT" --callers __d_alloc --condition 'unlikely(!name)' -b -n 1 -d 0.5 -J
expect_rc 0 "--callers __d_alloc without the source"
expect_match "$(jq -r '[.site.mechanism, .site.probe, .site.unknown_why] | join(" ")' <<<"$out")" '^kprobe\+hist .*call_site=\$stack0:x64 which argument' "calls only, and why"
run "$LT" --callers no_such_function_xyz -b -n 1 -d 0.2
expect_rc 1 "a function kprobes cannot reach"
expect_match "$err" "cannot add the kprobe event" "says why"
check_state "the kprobe refusals"

# ---- (e) a signed argument; a hist trigger the kernel refuses ----
# do_filp_open(int dfd, ...) of 6.1's fs/namei.c with a hint of this test's
# own, `unlikely(dfd == -100)` (AT_FDCWD, where exec's opens are).  Counts
# against a kprobe of this test's own (`dfd == -100` on the same field).
{
	echo 'struct file *do_filp_open(int dfd, struct filename *pathname, const struct open_flags *op)'
	echo '{'
	printf '\tif (unlikely(dfd == -100))\n\t\tx();\n}\n'
} >src/fs/namei.c
echo "p:ltcheck_$$/filp do_filp_open call_site=\$stack0:x64 dfd=\$arg1:s32" >>"$T/kprobe_events" &&
	mine+=("kp:ltcheck_$$/filp")
NO_HIST=$BUILD_DIR/tests/likelytop/lt_no_hist.so
[ -r "$NO_HIST" ] || fail "no $NO_HIST (the build's test shim)"
filp_case() {	# filp_case NAME MECHANISM [PRELOAD]: one window against the kprobe
	local name=$1 mech=$2 pre=${3:-} i n
	mkinst "ltcheck-fc-$$" "ltcheck_$$/filp" ""
	mkinst "ltcheck-fw-$$" "ltcheck_$$/filp" "dfd == -100"
	( end=$((SECONDS + 5)); while [ $SECONDS -lt $end ]; do /bin/true; done ) &
	gen=$!
	SPAWNED+=($gen)
	LD_PRELOAD=$pre "$LT" --callers fs/namei.c:3 -S src -b -n 1 -d 3 -J >e.json 2>e.err
	rc=$?
	wait $gen
	for i in "ltcheck-fc-$$" "ltcheck-fw-$$"; do echo 0 >"$T/instances/$i/events/ltcheck_$$/filp/enable"; done
	expect_rc 0 "--callers fs/namei.c:3 ($name)"
	cat e.err
	expect_eq "$(jq -c '[.site.mechanism, .site.wrong_when, .lost]' e.json)" \
		"[\"$mech\",\"arg == -100\",0]" "$name: the mechanism, the filter as the kernel takes it on a signed field, nothing lost"
	expect_match "$(jq -r .site.probe e.json)" 'arg=\$arg1:s32$' "$name: dfd fetched as s32"
	totals_agree e.json filp "ltcheck-fc-$$" "ltcheck-fw-$$" "do_filp_open calls ($name)" "do_filp_open wrong, dfd == -100 ($name)"
	expect_match "$(jq .wrong e.json)" '^[1-9][0-9]*$' "$name: opens at AT_FDCWD counted as wrong"
	jq -c '{calls, wrong, top: [.callers[:5][] | [.caller, .calls, .wrong]]}' e.json
	for i in "ltcheck-fc-$$" "ltcheck-fw-$$"; do rmdir "$T/instances/$i"; done
	mine=("kp:ltcheck_$$/filp")
}
filp_case "a signed argument" kprobe+hist
expect_eq "$(jq -r '.site.note // ""' e.json)" "" "a signed argument: no note (nothing refused)"
filp_case "the histogram refused" kprobe+stream "$NO_HIST"
expect_match "$(jq -r .site.note e.json)" '^the kernel refused the histogram \(.*refused .* if arg == -100.*\): every call streamed' "site.note says why"
expect_match "$(cat e.err)" "note: the kernel refused the histogram" "and standard error"
echo "-:ltcheck_$$/filp" >>"$T/kprobe_events"
mine=()
check_state "the refused histogram"
LD_PRELOAD=$NO_HIST run "$LT" --callers fs/namei.c:3 -S src --mechanism hist -b -n 1 -d 0.5 -J
expect_rc 1 "--mechanism hist where the kernel refuses the trigger"
expect_match "$err" "trigger refused '.* if arg == -100'" "says what the kernel refused"
check_state "--mechanism hist refused"

# ---- (f) the live view's c key on a function without a tracepoint ----
# A profile with __d_alloc's hint (fs/dcache.c:1788) and -S src: c traces
# it with the kprobe batch uses (the 2nd argument), counted in the kernel;
# the tmpfs mounts' NULL names show as d_make_root's wrong calls; Esc, and
# then SIGTERM on a second opening, leave tracefs as it was.
if [ "${WITH_NCURSES:-ON}" != OFF ] && command -v tmux >/dev/null; then
	sock=vmcallers$$
	V() { tmux -L "$sock" "$@"; }
	CLEANUPS+=("tmux -L $sock kill-server 2>/dev/null")
	printf 'Likely Profiling Results\n --------------------------------------------------------------------\n[+- ] Type | # True | # False | Function:Filename@Line\n unlikely |        5|       20\t__d_alloc()@:fs/dcache.c@1788\n' >prof
	printf 'cd %q; %q -d 0.5 -f prof -S src; echo $? >live.rc; sleep 60\n' "$tmp" "$LT" >live.sh
	V new-session -d -s lt -x 160 -y 40 "bash $tmp/live.sh"
	onscreen() {	# onscreen REGEX what: poll the pane for up to 30 s
		local i
		for i in $(seq 300); do
			V capture-pane -p -t lt | grep -Eq -- "$1" && { ok; return 0; }
			sleep 0.1
		done
		fail "$2: /$1/ not on screen:"
		V capture-pane -p -t lt | sed 's/^/    | /'
		return 1
	}
	onscreen "__d_alloc" "the live view's list"
	V send-keys -t lt c
	onscreen 'kprobe \(caller \$stack0, name \$arg2:x64\), counted in the kernel' "c: __d_alloc through a kprobe on its 2nd argument, in the kernel"
	onscreen 'wrong when arg == 0' "c: the hint's filter from -S"
	grep -q '^p:likelytop_[0-9]*/__d_alloc __d_alloc call_site=\$stack0:x64 arg=\$arg2:x64$' "$T/kprobe_events" && ok ||
		fail "c: no kprobe of likelytop's: $(cat "$T/kprobe_events")"
	rm -f stop
	( n=0; while [ ! -e stop ]; do mount -t tmpfs ltcheck mnt && umount mnt && n=$((n + 1)); done; echo $n >mounts ) &
	gen=$!
	SPAWNED+=($gen)
	onscreen '^ +[0-9]+ +[1-9][0-9]* +[0-9.]+  d_make_root\+0x' "c: d_make_root's NULL names counted live"
	touch stop
	wait $gen
	V capture-pane -p -t lt | sed -n '4,12p'
	V send-keys -t lt Escape
	onscreen "FUNCTION" "Esc goes back"
	wait_until 20 "! grep -q likelytop_ $T/kprobe_events && ! ls $T/instances | grep -q '^likelytop-'" && ok ||
		fail "the probe or instance is left after the screen: $(cat "$T/kprobe_events"; ls "$T/instances")"
	check_state "the c key's screen left"
	V send-keys -t lt c
	onscreen 'kprobe \(caller' "c again"
	lpid=$(ls "$T/instances" | sed -n 's/^likelytop-//p' | head -1)
	[ -n "$lpid" ] && kill -TERM "$lpid"
	wait_until 20 "[ -s live.rc ]" && ok || fail "SIGTERM did not end the live view"
	expect_eq "$(cat live.rc 2>/dev/null)" 0 "the live view's status after SIGTERM"
	check_state "SIGTERM on the c key's screen"
else
	echo "SKIP (f): no tmux or no ncurses in this build"
fi

# ---- (c) SIGINT, SIGKILL and the next run ----
wait_trigger() {	# wait_trigger PID: until likelytop-PID's kprobe has its trigger
	for _ in $(seq 200); do
		grep -q '^hist:' "$T/instances/likelytop-$1/events/likelytop_$1/__d_alloc/trigger" 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}
"$LT" --callers __d_alloc --condition 'unlikely(!arg2)' -b -n 0 -d 1 >/dev/null 2>&1 &
pid=$!
wait_trigger $pid || fail "SIGINT: no trigger in likelytop-$pid"
kill -INT $pid
wait $pid
expect_eq "$?" 0 "exit after SIGINT"
check_state "SIGINT"
"$LT" --callers __d_alloc --condition 'unlikely(!arg2)' -b -n 0 -d 1 >/dev/null 2>&1 &
pid=$!
wait_trigger $pid || fail "SIGKILL: no trigger in likelytop-$pid"
kill -KILL $pid
wait $pid 2>/dev/null
grep -q "likelytop_$pid/" "$T/kprobe_events" && [ -d "$T/instances/likelytop-$pid" ] && ok ||
	fail "SIGKILL left no probe or instance (the test proves nothing)"
run "$LT" --callers kfree -b -n 1 -d 0.2
expect_rc 0 "the run after SIGKILL"
expect_match "$err" "removed 1 tracefs instance left by killed runs" "the sweep removed the instance"
expect_match "$err" "removed 1 kprobe event left by killed runs" "the sweep removed the probe"
check_state "SIGKILL and the next run"

# ---- the cost, side by side (no check: TCG's figures, for the man page) ----
if [ -x "$BUILD_DIR/bench/likelytop/kfree_storm" ] && [ -x /usr/bin/time ]; then
	bash "$SRC_DIR/bench/likelytop/callers_cost.sh" "$BUILD_DIR" 5 2 2>&1 | sed 's/^/bench: /'
	check_state "the cost benchmark"
fi
finish
