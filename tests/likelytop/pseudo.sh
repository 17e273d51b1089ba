# likelytop on files whose stat never changes while their content does, as
# procfs, tracefs and debugfs files behave (size 0, a fixed mtime): every
# refresh must read the new content, in batch mode and in the live view.
# The files come from pseudofs (FUSE), whose k-th open of NAME serves
# SRC/NAME.k, so each snapshot's counts are known exactly.
. "$(dirname "$0")/../cli/lib.sh"
bin=$(tool_path likelytop)
pfs="$BUILD_DIR/tests/likelytop/pseudofs"
[ "${WITH_FUSE:-ON}" = ON ] || skip_test "pseudofs needs libfuse3 (built with WITH_FUSE=OFF)"
[ -x "$pfs" ] || skip_test "pseudofs was not built"
require_root "mounts a FUSE file system"
[ -c /dev/fuse ] || skip_test "no /dev/fuse on this machine"
command -v jq >/dev/null || skip_test "jq is not installed (scripts/deps.sh installs it)"
. "$SRC_DIR/tests/common/fuse.sh"
reap_dead_fuse pseudofs
tmp=$(mktemp -d)
mnt="$tmp/mnt"
sock="likelytop-pseudo-$$"
cleanup() {
	tmux -L "$sock" kill-server 2>/dev/null
	if mountpoint -q "$mnt"; then
		fusermount3 -u "$mnt" 2>/dev/null || umount -l "$mnt"
	fi
	[ -n "${fspid:-}" ] && wait "$fspid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
mkdir -p "$tmp/src" "$mnt"

# Snapshot k: counts grow by k times a per-site step, in each format.
for k in 1 2 3 4 5 6; do
	{
		printf 'Likely Profiling Results\n'
		printf ' --------------------------------------------------------------------\n'
		printf '[+- ] Type | # True | # False | Function:Filename@Line\n'
		printf '+unlikely |%9u|%9u\t%s()@:%s@%d\n' $((k * 84)) $((k * 67)) kfree mm/slab.c 3380
		printf ' likely   |%9u|%9u\t%s()@:%s@%d\n' $((k * 100)) $((k * 2)) schedule kernel/sched.c 2900
	} >"$tmp/src/likely_prof.$k"
	{
		printf ' correct incorrect  %%        Function                  File              Line\n'
		printf ' ------- ---------  -        --------                  ----              ----\n'
		printf '%8u %9u %3u %-30s %-20s %5u\n' $((k * 1000)) $((k * 3000)) 75 rb_next rbtree.c 466
		printf '%8u %9u %3u %-30s %-20s %5u\n' $((k * 10)) 0 0 kfree slab.c 3380
	} >"$tmp/src/branch_annotated.$k"
	{
		printf '   miss      hit    %%        Function                  File              Line\n'
		printf ' ------- ---------  -        --------                  ----              ----\n'
		printf '%8u %8u %3u %-30s %-20s %5u\n' $((k * 300)) $((k * 100)) 75 do_thing thing.c 10
	} >"$tmp/src/branch_all.$k"
done
"$pfs" "$tmp/src" "$mnt" -f -s 2>"$tmp/pfs.err" &
fspid=$!
for i in $(seq 50); do mountpoint -q "$mnt" && break; sleep 0.1; done
mountpoint -q "$mnt" || skip_test "cannot mount pseudofs: $(cat "$tmp/pfs.err")"

# The premise: the stat of a file says nothing of its content.  (This
# reads snapshot 1 of likely_prof: likelytop's first read gets snapshot 2.)
s1=$(stat -c '%s %Y %Z %i' "$mnt/likely_prof")
cat "$mnt/likely_prof" | cmp -s - "$tmp/src/likely_prof.1" && ok || fail "pseudofs: first open is not snapshot 1"
s2=$(stat -c '%s %Y %Z %i' "$mnt/likely_prof")
expect_match "$s1" '^0 ' "pseudofs reports size 0"
[ "$s1" = "$s2" ] && ok || fail "pseudofs stat changed: $s1 -> $s2"

# batch FILE JQ-PER-ROW EXPECTED: three snapshots 0.2 s apart; each row of
# snapshot k (1-based) must hold snapshot k's counts.
batch() {
	local file=$1 expr=$2 want=$3 got
	run "$bin" -b -n 3 -d 0.2 -f "$mnt/$file" --format json
	expect_rc 0 "$file: -b -n 3"
	got=$(printf '%s\n' "$out" | jq -r "sort_by(.line) | map($expr) | join(\" \")" | tr '\n' '|')
	[ "$got" = "$want" ] && ok || fail "$file: counts per snapshot '$got', expected '$want'"
}
batch likely_prof '"\(.correct)/\(.incorrect)"' \
	'200/4 134/168|300/6 201/252|400/8 268/336|'
batch branch_annotated '"\(.correct)/\(.incorrect)"' \
	'1000/3000 10/0|2000/6000 20/0|3000/9000 30/0|'
batch branch_all '"\(.correct)/\(.incorrect)"' '300/100|600/200|900/300|'

# Rates: a delta of exactly one step in 0.2 s (a wide window, this machine
# is shared): rb_next's incorrect count moves 3000 a snapshot.
run "$bin" -b -n 2 -d 0.2 -f "$mnt/branch_annotated" --format csv
expect_rc 0 "csv with rates"
rate=$(printf '%s\n' "$out" | awk -F, '$1 == 2 && $7 == "rb_next" { print $10 }')
awk -v r="${rate:-0}" 'BEGIN { exit !(r >= 3000 / 0.6 && r <= 3000 / 0.19) }' && ok ||
	fail "rb_next rate '$rate', expected about 15000/s (3000 in 0.2 s)"

# The live view, through tmux: it must move on to the last snapshot.
if [ "${WITH_NCURSES:-ON}" = ON ] && command -v tmux >/dev/null; then
	cat >"$tmp/live.sh" <<EOS
$(printf '%q ' "$bin" -d 0.2 -f "$mnt/branch_all")
sleep 30
EOS
	tmux -L "$sock" new-session -d -s live -x 132 -y 20 "bash '$tmp/live.sh'"
	seen=no
	for i in $(seq 60); do
		if tmux -L "$sock" capture-pane -p -t live | grep -Eq '(^|[^0-9])1800 +600([^0-9]|$)'; then
			seen=yes
			break
		fi
		sleep 0.1
	done
	[ $seen = yes ] && ok || {
		fail "live view did not reach snapshot 6 (600 taken, 1800 not taken):"
		tmux -L "$sock" capture-pane -p -t live | sed 's/^/    | /'
	}
	tmux -L "$sock" send-keys -t live q
else
	echo "live view part skipped: needs ncurses and tmux"
fi
finish
