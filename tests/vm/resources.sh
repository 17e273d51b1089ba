#!/bin/bash
# rgctl set, get, create --set, dump and apply on the guest's cgroup v2 with
# every controller a key needs (cpu, cpuset, memory, io, pids), the disk
# scripts/vm.sh gives (/dev/vda) and swap on it (tests/vm/init.sh):
#  - every key set, read back from the kernel's own file and with get,
#    dumped and applied from the dump with 0 changes; bad values refused
#    with exit 2 and nothing written;
#  - what the kernel enforces: memory.max (an allocation past it is
#    OOM-killed, the same one outside is not), memory.swap.max (swap lets
#    an allocation past memory.max live; a swap limit does not), pids.max
#    (the 21st fork fails with EAGAIN), cpu.max (a busy loop gets 40-60%
#    of a CPU), cpuset.cpus (the affinity of a task in the group).
# Every exec costs under TCG and this test runs in every CI run: it reads
# files with bash's builtins and says where its guest time goes (phase).
t_start=${EPOCHREALTIME/./}
phase() { local ms=$(((${EPOCHREALTIME/./} - t_start) / 1000)); printf '%3d.%d s: %s\n' $((ms / 1000)) $((ms % 1000 / 100)) "$*"; }
. "$(dirname "$0")/lib.sh"
RES=$BUILD_DIR/tests/rgctl/res_helper
[ -x "$RES" ] || { echo "FAIL: $RES not built"; exit 1; }
W=$(mktemp -d)
CLEANUPS+=("rm -rf '$W'")
# x CMD...: sets rc, out, err as run does, without its mktemp, cat and rm;
# r: rgctl
x() { "$@" >"$W/o" 2>"$W/e"; rc=$?; out=$(<"$W/o"); err=$(<"$W/e"); }
r() { x "$RG" --backend cgroup2 "$@"; }
# expect_match, with bash's own regex (ERE) instead of a grep
expect_match() { [[ $1 =~ $2 ]] && ok || fail "$3: '${1:0:300}' does not match /$2/"; }
# field VAR FILE KEY: the value after KEY (a word) on FILE's line for it
field() {
	local k v
	printf -v "$1" %s ""
	while read -r k v; do [ "$k" = "$3" ] && { printf -v "$1" %s "$v"; return; }; done <"$2"
}
read -r ctls <"$U/cgroup.controllers"
for c in cpu cpuset memory io pids; do
	[[ " $ctls " == *" $c "* ]] ||
		{ echo "FAIL: the guest kernel has no $c controller (kernel/config.fragment)"; exit 1; }
done
[ -b /dev/vda ] || { echo "FAIL: no /dev/vda in the guest (scripts/vm.sh's disk)"; exit 1; }
[[ $(</proc/swaps) == *$'\n/dev/vda '* ]] || { echo "FAIL: no swap on /dev/vda (tests/vm/init.sh)"; exit 1; }
DEV=$(</sys/block/vda/dev)	# MAJ:MIN
# what rgctl enables in the root's cgroup.subtree_control is disabled again
root_ctl=$(<"$U/cgroup.subtree_control")
restore_root() {
	local c
	for c in $(<"$U/cgroup.subtree_control"); do
		[[ " $root_ctl " == *" $c "* ]] || echo "-$c" >"$U/cgroup.subtree_control" 2>/dev/null
	done
}
CLEANUPS+=(restore_root)
phase "set up"

# --- every key: set, read back, get -----------------------------------------
A=$U/$G/all
r create "$G/all" -p
expect_rc 0 "create $G/all"
# before set enables them: get says which controllers are off for the
# group, once each, instead of leaving their keys out unsaid
if [[ " $(<"$U/$G/cgroup.subtree_control") " != *" memory "* ]]; then
	r get "$G/all"
	expect_rc 0 "get of a group whose controllers are off"
	expect_match "$err" "the memory controller is not enabled for '$G/all' \\(cgroup.subtree_control above it\\)" "get: memory off said"
	n=$(grep -c "the memory controller" "$W/e")
	[ "$n" = 1 ] && ok || fail "get: memory off said $n times, want once"
fi
r set "$G/all" cpu.weight=300 cpu.max=50% cpuset.cpus=0 cpuset.mems=0 \
	memory.min=8M memory.low=16M memory.high=96M memory.max=128M \
	memory.swap.max=32M io.weight=300 "io.max=/dev/vda rbps=1M wiops=100" pids.max=50
expect_rc 0 "set of every key"
for c in cpu cpuset memory io pids; do
	expect_match "$err" "enabled $c in " "set says it enabled $c"
done
files="cpu.weight cpu.max cpuset.cpus cpuset.mems memory.min memory.low memory.high
	memory.max memory.swap.max io.weight io.max pids.max"
kernel() { local f; for f in $files; do echo "$f: $(<"$A/$f")"; done; }
expect_eq "$(kernel)" "cpu.weight: 300
cpu.max: 50000 100000
cpuset.cpus: 0
cpuset.mems: 0
memory.min: 8388608
memory.low: 16777216
memory.high: 100663296
memory.max: 134217728
memory.swap.max: 33554432
io.weight: default 300
io.max: $DEV rbps=1048576 wbps=max riops=max wiops=100
pids.max: 50" "the kernel's files after set"
# pressure stall information (CONFIG_PSI), for rgctl stats
for f in cpu.pressure memory.pressure io.pressure; do
	line=
	read -r line <"$A/$f"
	expect_match "$line" '^some avg10=[0-9.]+ avg60=[0-9.]+ avg300=[0-9.]+ total=[0-9]+$' "$f"
done
[ -e "$A/io.bfq.weight" ] && echo "note: the guest has io.bfq.weight too" ||
	echo "note: the guest's I/O weight file is io.weight (iocost; no BFQ)"
r get "$G/all" -n -r
expect_rc 0 "get"
expect_eq "$out" "cpu.weight 300
cpu.max 50%
cpuset.cpus 0
cpuset.mems 0
memory.min 8M
memory.low 16M
memory.high 96M
memory.max 128M
memory.swap.max 32M
io.weight 300
io.max $DEV\\x20rbps=1M\\x20wiops=100
pids.max 50" "get reads back what set wrote (-r escapes the spaces)"
r get "$G/all" MemorySwapMax io.weight -o VALUE,FILE -n -r
expect_eq "$out" "32M $A/memory.swap.max
300 $A/io.weight" "get KEY..., by alias, with the files"
# io.max by MAJ:MIN and by systemd's names: only the limits given change
r set "$G/all" "io.max=$DEV wbps=2M riops=max" "IOReadIOPSMax=/dev/vda 500"
expect_rc 0 "io.max by MAJ:MIN and IOReadIOPSMax"
expect_eq "$(<"$A/io.max")" "$DEV rbps=1048576 wbps=2097152 riops=500 wiops=100" "io.max by MAJ:MIN"
r get "$G/all" io.max -o VALUE -n
expect_eq "$out" "$DEV rbps=1M wbps=2M riops=500 wiops=100" "io.max read back"
r set "$G/all" "io.max=/dev/vda riops=max"
expect_eq "$(<"$A/io.max")" "$DEV rbps=1048576 wbps=2097152 riops=max wiops=100" "io.max riops back to max"
# create --set: made with its values, by key and by systemd name
r create "$G/new" --set MemoryMax=64M --set TasksMax=20 --set AllowedCPUs=0 --set IOWeight=50
expect_rc 0 "create --set"
expect_eq "$(cat "$U/$G/new/memory.max" "$U/$G/new/pids.max" "$U/$G/new/cpuset.cpus" "$U/$G/new/io.weight")" \
	"67108864
20
0
default 50" "create --set values"

# cpu.max with its own period, and max with one
r set "$G/new" cpu.max=20ms/50ms
expect_eq "$(<"$U/$G/new/cpu.max")" "20000 50000" "cpu.max 20ms/50ms"
r set "$G/new" CPUQuota=max/50ms
expect_eq "$(<"$U/$G/new/cpu.max")" "max 50000" "cpu.max max/50ms"
r get "$G/new" cpu.max -o VALUE -n
expect_eq "$out" "max/50ms" "cpu.max max/50ms read back"
# a write the kernel refuses (io.max on a character device's numbers): the
# values before it put back, the controllers enabled for it disabled again
r create "$G/p/c" -p
r set "$G/p/c" pids.max=5 "io.max=1:3 rbps=1M"
expect_rc 1 "io.max on 1:3 (/dev/null)"
expect_match "$err" "io.max.*nothing was changed" "the refused write's message"
expect_eq "$(<"$U/$G/p/cgroup.subtree_control")" "" "the controllers enabled for it disabled again"
# --dry-run: says what it would enable and set, changes nothing
r set "$G/p/c" --dry-run pids.max=5 memory.max=1G
expect_rc 0 "--dry-run"
expect_match "$err" "would enable pids in $U/$G/p/cgroup.subtree_control" "--dry-run: would enable"
expect_match "$out" "would set memory.max=1G" "--dry-run: would set"
expect_eq "$(<"$U/$G/p/cgroup.subtree_control")" "" "--dry-run enabled nothing"
# io.weight alone: io enabled for it (the file appears only then; it was
# refused as "no weight file")
r set "$G/p/c" io.weight=200
expect_rc 0 "io.weight where io is not enabled yet"
expect_eq "$(<"$U/$G/p/c/io.weight")" "default 200" "io.weight once io is enabled"
phase "bad values"
# --- bad values: exit 2, nothing written ------------------------------------
before=$(kernel)
# out of range: past the possible CPUs (rgctl's bound; the kernel's is
# the online ones)
last_cpu=$(awk -F'[-,]' '{ print $NF }' /sys/devices/system/cpu/possible)
echo "note: CPUs possible $(</sys/devices/system/cpu/possible), online $(</sys/devices/system/cpu/online)"
for kv in pids.max=-1 memory.max=18446744073709551616 memory.max=1GB memory.high=101% \
	"cpu.max=$((100 * (last_cpu + 1) + 1))%" "cpuset.cpus=0-$((last_cpu + 1))" cpuset.mems=1 \
	io.weight=10001 "io.max=$DEV rbps=0"; do
	r set "$G/all" pids.max=7 "$kv"
	expect_rc 2 "set '$kv'"
	expect_match "$err" "invalid value" "set '$kv' says why"
done
r set "$G/all" pids.max=7 memroy.swap.max=1G
expect_rc 2 "an unknown key"
expect_match "$err" "did you mean 'memory.swap.max'" "did-you-mean"
r create "$G/bad" --set pids.max=7 --set memory.max=1GB
expect_rc 2 "create --set with a bad value"
[ ! -d "$U/$G/bad" ] && ok || fail "create with a bad --set made the group"
expect_eq "$(kernel)" "$before" "nothing written for bad values"

phase "dump"
# --- dump, and apply of the dump: 0 changes ---------------------------------
if [ "${WITH_LIBCONFIG:-ON}" = OFF ]; then
	echo "note: rgctl built without libconfig: dump and apply not checked"
else
	R=(--backend cgroup2 --root "$U/$G")
	x "$RG" "${R[@]}" dump
	expect_rc 0 "dump"
	printf '%s\n' "$out" >"$W/dump.conf"
	line=$(grep 'name = "all";' "$W/dump.conf")
	for k in 'shares = 300' 'cpu_max = "50%"' 'cpuset_cpus = "0"' 'cpuset_mems = "0"' \
		'memory_min = "8M"' 'memory_low = "16M"' 'memory_high = "96M"' 'memory_max = "128M"' \
		'memory_swap_max = "32M"' 'io_weight = "300"' "io_max = \"$DEV rbps=1M wbps=2M wiops=100\"" \
		'pids_max = "50"'; do
		[[ $line == *"$k"* ]] && ok || fail "dump's line for all has no '$k': $line"
	done
	x "$RG" "${R[@]}" apply "$W/dump.conf"
	expect_rc 0 "apply of the dump"
	expect_eq "$out" "0 changes" "apply of the dump changes nothing"
	expect_eq "$(kernel)" "$before" "the files after applying the dump"
	sed -i 's/memory_max = "128M"/memory_max = "112M"/' "$W/dump.conf"
	x "$RG" "${R[@]}" apply "$W/dump.conf"
	expect_match "$out" $'^set all memory.max=112M \\(was 128M\\)\n1 change$' "apply of one change"
	expect_eq "$(<"$A/memory.max")" 117440512 "memory.max after apply"
	# a new group's resources from a file, below a root with no controller
	# enabled for its children: enabled by apply, then nothing left to do
	cat >"$W/new.conf" <<-CONF
	backend = "cgroup2";
	groups = ( { name = "f"; cpu_max = "20%"; memory_max = "64M"; memory_swap_max = "0";
	             io_max = "$DEV wbps=1M"; pids_max = "10"; } );
	CONF
	R=(--backend cgroup2 --root "$U/$G/p")
	x "$RG" "${R[@]}" apply "$W/new.conf"
	expect_rc 0 "apply of a new group with resources"
	expect_eq "$(cat "$U/$G/p/f/cpu.max" "$U/$G/p/f/memory.max" "$U/$G/p/f/memory.swap.max" \
		"$U/$G/p/f/io.max" "$U/$G/p/f/pids.max" 2>&1)" "20000 100000
67108864
0
$DEV rbps=max wbps=1048576 riops=max wiops=max
10" "the new group's files"
	x "$RG" "${R[@]}" apply "$W/new.conf"
	expect_eq "$out" "0 changes" "apply of the new group again"
	x "$RG" "${R[@]}" dump
	printf '%s\n' "$out" >"$W/dump2.conf"
	x "$RG" "${R[@]}" apply "$W/dump2.conf"
	expect_eq "$out" "0 changes" "apply of its dump"
fi

phase "enforcement"
# --- enforcement ---------------------------------------------------------------
# memory.max=64M: 256 MiB in the group is OOM-killed, outside it is not.
# memory.swap.max=0 keeps the group out of the swap (else it would swap
# its way there more slowly, the same end).
r create "$G/oom" --set memory.max=64M --set memory.swap.max=0
expect_rc 0 "create oom"
kills() { local n; field n "$1" "${2:-oom_kill}"; echo "$n"; }
k0=$(kills "$U/$G/oom/memory.events")
r exec "$G/oom" -- "$RES" alloc 256
expect_rc 137 "256 MiB in a 64M group: killed (SIGKILL)"
expect_eq "$(kills "$U/$G/oom/memory.events")" $((k0 + 1)) "memory.events oom_kill +1"
x "$RES" alloc 256
expect_rc 0 "256 MiB outside the group"
expect_eq "$out" "touched 256 MiB" "the allocation outside completed"
expect_eq "$(kills "$U/$G/oom/memory.events")" $((k0 + 1)) "no OOM kill in the group for the one outside"

phase "memory.swap.max"
# memory.swap.max: 28 MiB in a 16M group lives on swap; with swap.max=4M not
r create "$G/swap" --set memory.max=16M
r exec "$G/swap" -- "$RES" alloc 28
expect_rc 0 "28 MiB in a 16M group with swap"
expect_eq "$(kills "$U/$G/swap/memory.events")" 0 "no OOM kill with swap"
r set "$G/swap" memory.swap.max=4M
expect_eq "$(<"$U/$G/swap/memory.swap.max")" 4194304 "memory.swap.max 4M"
r exec "$G/swap" -- "$RES" alloc 28
expect_rc 137 "28 MiB in a 16M group with 4M of swap: killed"
expect_match "$(kills "$U/$G/swap/memory.swap.events" max)" '^[1-9]' "memory.swap.events max counted"

phase "pids.max=20"
# pids.max=20: the group's 21st fork (the helper is the 1st) fails, EAGAIN
r create "$G/pids" --set TasksMax=20
r exec "$G/pids" -- "$RES" forks 40
expect_rc 0 "forks helper"
expect_eq "$out" "forked 19: EAGAIN" "20 tasks, then EAGAIN"
expect_eq "$(kills "$U/$G/pids/pids.events" max)" 1 "pids.events max +1"

phase "cpuset.cpus=0"
# cpuset.cpus=0: a task in the group runs on CPU 0 only; a change moves it
cpu=$(($(nproc) - 1))	# the last online CPU
r create "$G/pin" --set cpuset.cpus=0
expect_rc 0 "create pin"
"$RG" --backend cgroup2 exec "$G/pin" -- sleep 300 &
SPAWNED+=($!)
pid=
for ((i = 0; i < 100; i++)); do read -r pid <"$U/$G/pin/cgroup.procs"; [ -z "$pid" ] || break; sleep 0.1; done
if [ -z "$pid" ]; then
	fail "no task in $G/pin after 10 s"
else
	field allowed "/proc/$pid/status" Cpus_allowed_list:
	expect_eq "$allowed" 0 "Cpus_allowed_list in cpuset.cpus=0"
	expect_match "$(taskset -p "$pid")" 'current affinity mask: 1$' "taskset -p"
	if [ "$cpu" -ge 1 ]; then
		r set "$G/pin" cpuset.cpus=1
		field allowed "/proc/$pid/status" Cpus_allowed_list:
		expect_eq "$allowed" 1 "cpuset.cpus=1 moves the task"
	fi
fi
kill "${SPAWNED[-1]}"	# rgctl exec: its sleep ends too

phase "cpu.max=50%"
# cpu.max=50%: a busy loop gets 40-60% of a CPU over 5 s; an unlimited one
# on the other CPU at the same time shows what the guest had to give.  The
# loops run until killed, and the window opens once both are in their
# groups (starting them took longer than a fixed lead under load)
SECS=${VM_CPU_MAX_SECS:-5}
r create "$G/half" --set cpu.max=50% --set cpuset.cpus=0
expect_rc 0 "create half"
r create "$G/full" --set cpuset.cpus="$cpu"
expect_rc 0 "create full"
spinners=()
for g in half full; do
	"$RG" --backend cgroup2 exec "$G/$g" -- "$HELPER" spin 120 &
	SPAWNED+=($!) spinners+=($!)
done
usec() { field "$1" "$U/$G/$2/cpu.stat" usage_usec; }
for ((i = 0; i < 200; i++)); do
	read -r ph <"$U/$G/half/cgroup.procs"; read -r pf <"$U/$G/full/cgroup.procs"
	[ -n "$ph" ] && [ -n "$pf" ] && break
	sleep 0.1
done
usec a0 half; usec b0 full; t0=${EPOCHREALTIME/./}
sleep "$SECS"
usec a1 half; usec b1 full; t1=${EPOCHREALTIME/./}
kill "${spinners[@]}"
wait "${spinners[@]}" 2>/dev/null
share=$(((a1 - a0) * 1000 / (t1 - t0))) ref=$(((b1 - b0) * 1000 / (t1 - t0)))
echo "cpu.max=50%: $share/1000 of a CPU over $SECS s (the unlimited loop: $ref/1000)"
echo "cpu.max 50% -> $share/1000 of a CPU (unlimited: $ref/1000)" >"$VM_OUT/cpu-max-figure"
[ -n "$ph" ] && [ -n "$pf" ] && [ "$share" -ge 400 ] && [ "$share" -le 600 ] && ok ||
	fail "cpu.max=50%: the loop got $share/1000 of a CPU (want 400-600; the unlimited one got $ref/1000; both started: ${ph:-no} ${pf:-no})"

# the groups, in one exec (the cleanup's cg_remove takes one per file)
r delete "$G" -R
expect_rc 0 "delete -R"
phase "end"
finish
