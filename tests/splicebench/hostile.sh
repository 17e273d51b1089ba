# splicebench against planted files and SIGINT: --plot and --consumer
# file:PATH never write through a symlink, into a device node or a FIFO,
# never remove what splicebench did not create, and a failed gnuplot
# leaves the old plot as it was; SIGINT prints the points measured so far
# and exits 130.
. "$(dirname "$0")/../cli/lib.sh"
bin=$(tool_path splicebench)
command -v jq >/dev/null || skip_test "jq is not installed (apt-get install jq)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
small=(--mode copy --size 64K --total 1M --runs 2)
mkdir "$tmp/bin"
PATH_ORIG=$PATH

# fake_gnuplot BEHAVIOUR: a gnuplot that fails, draws, or draws after
# planting something where the plot goes ($PLANT_AT, $PLANT_KIND).
fake_gnuplot() {
	cat >"$tmp/bin/gnuplot" <<EOF
#!/bin/sh
cat >/dev/null
case "$1" in
fail) echo "gnuplot: fake failure" >&2; exit 1 ;;
draw) echo '<svg>fake</svg>'; exit 0 ;;
plant)
	rm -f "\$PLANT_AT"
	case "\$PLANT_KIND" in
	symlink) ln -s "$tmp/victim" "\$PLANT_AT" ;;
	fifo) mkfifo "\$PLANT_AT" ;;
	device) mknod "\$PLANT_AT" c 1 3 ;;
	esac
	echo '<svg>fake</svg>'; exit 0 ;;
esac
EOF
	chmod +x "$tmp/bin/gnuplot"
}
victim() { printf 'precious\n' >"$tmp/victim"; }
victim_ok() { [ "$(cat "$tmp/victim")" = precious ] && ok || fail "$1: the symlink's target was written: $(head -c 80 "$tmp/victim")"; }
no_tmp_left() {	# no_tmp_left DIR what: only the expected names remain
	local left
	left=$(ls -A "$1" | grep '^\.' || true)
	[ -z "$left" ] && ok || fail "$2: temporary files left: $left"
}
can_mknod=yes
mknod "$tmp/probe" c 1 3 2>/dev/null && rm -f "$tmp/probe" || can_mknod=no
kinds="symlink fifo directory"
[ "$can_mknod" = yes ] && kinds="$kinds device" || echo "note: no mknod here (not root?): device-node cases not run"

# plant KIND PATH
plant() {
	case $1 in
	symlink) victim; ln -s "$tmp/victim" "$2" ;;
	fifo) mkfifo "$2" ;;
	directory) mkdir "$2" ;;
	device) mknod "$2" c 1 3 ;;
	esac
}
is_kind() {	# is_kind KIND PATH: the planted object is still there, unchanged
	case $1 in
	symlink) [ -L "$2" ] && [ "$(readlink "$2")" = "$tmp/victim" ] ;;
	fifo) [ -p "$2" ] ;;
	directory) [ -d "$2" ] && [ ! -L "$2" ] && [ -z "$(ls -A "$2")" ] ;;
	device) [ -c "$2" ] && [ "$(stat -c %t,%T "$2")" = 1,3 ] ;;
	esac
}

# --- 1. --plot onto a planted object: refused before measuring, untouched ------
for gp in fail draw; do
	fake_gnuplot $gp
	for kind in $kinds; do
		d=$tmp/plot-$gp-$kind; mkdir "$d"
		plant $kind "$d/p.svg"
		run timeout 60 env PATH="$tmp/bin:$PATH_ORIG" "$bin" "${small[@]}" --plot "$d/p.svg"
		expect_rc 1 "--plot onto a $kind (gnuplot $gp)"
		expect_match "$err" "refusing --plot $d/p.svg: it is a" "--plot $kind: says what it is"
		is_kind $kind "$d/p.svg" && ok || fail "--plot $kind (gnuplot $gp): the planted $kind was changed: $(ls -la "$d")"
		[ $kind = symlink ] && victim_ok "--plot $kind"
		[ -z "$out" ] && ok || fail "--plot $kind: measured anyway"
		no_tmp_left "$d" "--plot $kind"
	done
done

# --- 2. gnuplot fails over an existing plot: the old plot stays --------------------
fake_gnuplot fail
d=$tmp/keep; mkdir "$d"
printf 'old plot\n' >"$d/p.svg"
run env PATH="$tmp/bin:$PATH_ORIG" "$bin" "${small[@]}" --plot "$d/p.svg"
expect_rc 1 "gnuplot fails"
expect_match "$err" "gnuplot failed.*unchanged" "gnuplot failure message"
[ "$(cat "$d/p.svg")" = "old plot" ] && ok || fail "a failed gnuplot changed the old plot: $(head -c 80 "$d/p.svg")"
no_tmp_left "$d" "gnuplot fails"
# ... and a new plot replaces it when gnuplot succeeds, with the umask's mode
fake_gnuplot draw
run sh -c "umask 027; PATH='$tmp/bin:$PATH_ORIG' exec '$bin' --mode copy --size 64K --total 1M --runs 2 --plot '$d/p.svg'"
expect_rc 0 "gnuplot draws"
[ "$(cat "$d/p.svg")" = "<svg>fake</svg>" ] && ok || fail "the plot was not replaced: $(cat "$d/p.svg")"
[ "$(stat -c %a "$d/p.svg")" = 640 ] && ok || fail "plot mode $(stat -c %a "$d/p.svg"), expected 640 (umask 027)"
no_tmp_left "$d" "gnuplot draws"

# --- 3. something planted while gnuplot runs: refused at the rename, untouched ---
fake_gnuplot plant
for kind in $kinds; do
	[ $kind = directory ] && continue
	d=$tmp/race-$kind; mkdir "$d"
	[ $kind = symlink ] && victim
	run timeout 60 env PATH="$tmp/bin:$PATH_ORIG" PLANT_AT="$d/p.svg" PLANT_KIND=$kind \
		"$bin" "${small[@]}" --plot "$d/p.svg"
	expect_rc 1 "a $kind planted during the plot"
	expect_match "$err" "refusing to draw $d/p.svg: it is a" "planted $kind: refused"
	is_kind $kind "$d/p.svg" && ok || fail "planted $kind: changed: $(ls -la "$d")"
	[ $kind = symlink ] && victim_ok "planted $kind"
	no_tmp_left "$d" "planted $kind"
done

# --- 4. --consumer file: onto a planted object: refused at once, untouched -------
for kind in $kinds; do
	d=$tmp/cons-$kind; mkdir "$d"
	plant $kind "$d/out"
	run timeout 20 "$bin" "${small[@]}" --consumer "file:$d/out"
	expect_rc 1 "--consumer file: onto a $kind"
	expect_match "$err" "refusing $d/out: it is a" "--consumer file: $kind: says what it is"
	is_kind $kind "$d/out" && ok || fail "--consumer file: $kind: changed: $(ls -la "$d")"
	[ $kind = symlink ] && victim_ok "--consumer file: $kind"
done
# a FIFO with a reader is refused too (not only an unopened one)
d=$tmp/cons-fifo-read; mkdir "$d"; mkfifo "$d/out"
cat "$d/out" >"$tmp/fifo-got" &
rd=$!
run timeout 20 "$bin" "${small[@]}" --consumer "file:$d/out"
expect_rc 1 "--consumer file: a FIFO being read"
kill $rd 2>/dev/null; wait $rd 2>/dev/null
[ ! -s "$tmp/fifo-got" ] && ok || fail "--consumer file: data went into the FIFO"

# --- 5. SIGINT: the points measured so far, said, exit 130 ---------------------
# Many short runs into a file: once the file has data the points are
# running (the memcpy baseline before them takes seconds on a busy
# machine), and SIGINT lands in the middle of the rounds.
long=(--mode copy,vmsplice --size 16K,64K --total 8M --runs 1000)
for fmt in table json; do
	rm -f "$tmp/sink"
	"$bin" "${long[@]}" --consumer "file:$tmp/sink" --format $fmt >"$tmp/int.out" 2>"$tmp/int.err" &
	sb=$!
	for _ in $(seq 1 600); do
		[ -s "$tmp/sink" ] && break
		sleep 0.1
	done
	sleep 2
	kill -INT $sb
	t0=$(date +%s)
	wait $sb
	rc=$?
	expect_rc 130 "SIGINT ($fmt)"
	[ $(( $(date +%s) - t0 )) -le 10 ] && ok || fail "SIGINT ($fmt): took more than 10 s to stop"
	err=$(cat "$tmp/int.err")
	expect_match "$err" "interrupted: [0-9]+ of 4 points measured" "SIGINT ($fmt): said"
	if [ $fmt = json ]; then
		[ "$(jq -r .interrupted "$tmp/int.out")" = true ] && ok || fail "SIGINT json: no interrupted: true"
		n=$(jq '[.results[] | select(.runs >= 1 and .runs < 1000 and .median_gbps > 0)] | length' "$tmp/int.out")
		[ "$n" -ge 1 ] && ok || fail "SIGINT json: no point with its finished runs: $(cat "$tmp/int.out")"
	else
		expect_match "$(cat "$tmp/int.out")" "INTERRUPTED" "SIGINT table: marked"
		awk '$1 ~ /^(copy|vmsplice)$/ && $6 >= 1 && $6 < 1000 && $7 > 0' "$tmp/int.out" | grep -q . && ok ||
			fail "SIGINT table: no measured point: $(cat "$tmp/int.out")"
	fi
done
# SIGINT before any point ran (during the memcpy baseline): still a report
"$bin" "${long[@]}" --format json >"$tmp/int0.out" 2>"$tmp/int0.err" &
sb=$!
sleep 0.3
kill -INT $sb
wait $sb
rc=$?
expect_rc 130 "SIGINT during the baseline"
[ "$(jq -r '.interrupted' "$tmp/int0.out")" = true ] && ok || fail "SIGINT early: JSON $(head -c 300 "$tmp/int0.out")"
# a second SIGINT ends at once
"$bin" "${long[@]}" >/dev/null 2>&1 &
sb=$!
sleep 1
kill -INT $sb; sleep 0.2; kill -INT $sb 2>/dev/null
wait $sb
rc=$?
[ "$rc" = 130 ] && ok || fail "second SIGINT: exit status $rc, expected 130"
finish
