# likelytop against hostile input and surroundings: counters that go down
# (a restarted program, a replaced file) in every source format and every
# output format, names of invalid UTF-8 and control bytes, a header of
# garbage, a reader that leaves, a closed or full standard output, and a
# -p profile that is a symlink, FIFO or directory.
. "$(dirname "$0")/../cli/lib.sh"
bin=$(tool_path likelytop)
command -v jq >/dev/null || skip_test "jq is not installed (scripts/deps.sh installs it)"
tmp=$(mktemp -d)
bg=
cleanup() {
	[ -z "$bg" ] || kill "$bg" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
tab=$(printf '\t')
valid_utf8() { iconv -f UTF-8 -t UTF-8 >/dev/null 2>&1; }

# profile FORMAT G_INCORRECT F_INCORRECT: a profile of two sites g and f
profile() {
	case $1 in
	likely_prof)
		printf 'Likely Profiling Results\n --------------------------------------------------------------------\n[+- ] Type | # True | # False | Function:Filename@Line\n'
		printf -- '-likely   |%9s|%9s\tg()@:b.c@2\n' 1000 "$2"
		printf ' likely   |%9s|%9s\tf()@:a.c@1\n' 5000 "$3" ;;
	annotated)
		printf ' correct incorrect  %%        Function                  File              Line\n ------- ---------  -        --------                  ----              ----\n'
		printf '%8s %8s  50 g                          b.c                  2\n' 1000 "$2"
		printf '%8s %8s  50 f                          a.c                  1\n' 5000 "$3" ;;
	all)
		printf '   miss      hit    %%        Function                  File              Line\n ------- ---------  -        --------                  ----              ----\n'
		printf '%8s %8s  50 g                          b.c                  2\n' 1000 "$2"
		printf '%8s %8s  50 f                          a.c                  1\n' 5000 "$3" ;;
	esac
}

# run_swapped FILE NEW CMD...: run CMD (likelytop -n 2) and replace FILE by
# NEW once the first snapshot is out, well before the second read; sets
# $rc $out $err.
run_swapped() {
	local f=$1 new=$2 p
	shift 2
	rm -f "$tmp/sw.out"	# not the last run's: poll this run's output
	"$@" >"$tmp/sw.out" 2>"$tmp/sw.err" &
	p=$!
	for _ in $(seq 1 400); do [ -s "$tmp/sw.out" ] && break; sleep 0.05; done
	mv "$new" "$f"
	wait $p
	rc=$?
	out=$(cat "$tmp/sw.out") err=$(cat "$tmp/sw.err")
}

# --- 1. a counter that goes down is a reset, never a rate ----------------------
# g goes from 1,829,768 down to 12 (the program restarted); f goes up by 10.
for fmt in likely_prof annotated all; do
	for ofmt in json csv text; do
		f=$tmp/p-$fmt-$ofmt
		profile $fmt 1829768 100 >"$f"
		profile $fmt 12 110 >"$f.new"
		run_swapped "$f" "$f.new" "$bin" -b -n 2 -d 1 -f "$f" --format $ofmt
		expect_rc 0 "reset $fmt $ofmt"
		case $ofmt in
		json)
			second=$(printf '%s\n' "$out" | sed -n 2p)
			[ "$(printf '%s' "$second" | jq -c '.[] | select(.function == "g") | [.reset, has("rate")]')" = '[true,false]' ] && ok ||
				fail "reset $fmt json: g should be reset with no rate: $second"
			[ "$(printf '%s' "$second" | jq -c '.[] | select(.function == "f") | [has("reset"), .rate > 0, .rate < 1000]')" = '[false,true,true]' ] && ok ||
				fail "reset $fmt json: f should have a small rate: $second" ;;
		csv)
			[ "$(printf '%s\n' "$out" | awk -F, '$1 == 2 && $7 == "g" { print $10 "|" $11 }')" = "|1" ] && ok ||
				fail "reset $fmt csv: g should be reset with no rate: $out"
			[ "$(printf '%s\n' "$out" | awk -F, '$1 == 2 && $7 == "f" { print ($10 > 0 && $10 < 1000) "|" $11 }')" = "1|" ] && ok ||
				fail "reset $fmt csv: f should have a small rate: $out" ;;
		text)
			expect_match "$(printf '%s\n' "$out" | awk '/^$/ { n++ } n >= 3' | grep -E ' g +b.c:2$')" ' reset +g +b\.c:2$' "reset $fmt text"
			printf '%s\n' "$out" | grep -Eq '[0-9]{7,}\.[0-9]' && fail "reset $fmt text: a huge rate: $out" || ok ;;
		esac
	done
done

# A user-space profile (-p) counts in 64 bits: 3,000,000,000 -> 5 is a
# restart, not a 32-bit wrap of 1,294,967,301.
mkdir -p "$tmp/prof"
sleep 30 &
bg=$!
profile likely_prof 3000000000 7 >"$tmp/prof/$bg"
profile likely_prof 5 9 >"$tmp/prof/.n"
run_swapped "$tmp/prof/$bg" "$tmp/prof/.n" env LIKELY_PROF_DIR="$tmp/prof" "$bin" -b -n 2 -d 1 -p "$bg" --format json
expect_rc 0 "-p reset"
[ "$(printf '%s\n' "$out" | sed -n 2p | jq -c '.[] | select(.function == "g") | [.reset, has("rate")]')" = '[true,false]' ] && ok ||
	fail "-p: 3e9 -> 5 should be a reset: $out"
# ... while /proc/likely_prof's 32-bit counters do wrap (a small step over 2^32).
profile likely_prof 4294967290 7 >"$tmp/wrap"
profile likely_prof 5 9 >"$tmp/wrap.n"
run_swapped "$tmp/wrap" "$tmp/wrap.n" "$bin" -b -n 2 -d 1 -f "$tmp/wrap" --format csv
d=$(printf '%s\n' "$out" | awk -F, '$1 == 2 && $7 == "g" { print $11 "|" ($10 > 5 && $10 < 15) }')
[ "$d" = "|1" ] && ok || fail "32-bit wrap of 11 events in 1 s: $out"

# --- 2. names of any bytes: every format stays well-formed -----------------------
# (The parser refuses control bytes and blanks in names; tests/likelytop/
# test_output.c renders those too.)
{
	printf 'Likely Profiling Results\n'
	printf ' likely   |        1|        2\tbad\377name()@:a,"b\300\257.c@1\n'
	printf ' likely   |        3|        4\t\342\202\254ok()@:\355\240\200x\302\233.c@2\n'
	printf ' likely   |        5|        6\tcut\342\202()@:y\360\237.c@3\n'
} >"$tmp/names"
run "$bin" -b -f "$tmp/names" --format json
expect_rc 0 "hostile names json"
printf '%s\n' "$out" | valid_utf8 && ok || fail "json output is not valid UTF-8"
[ "$(printf '%s' "$out" | jq length)" = 3 ] && ok || fail "json: three rows: $out"
[ "$(printf '%s' "$out" | jq -r '.[] | select(.line == 2) | .function')" = "€ok()" ] ||
	[ "$(printf '%s' "$out" | jq -r '.[] | select(.line == 2) | .function')" = "€ok" ] && ok ||
	fail "json: valid UTF-8 kept: $out"
run "$bin" -b -f "$tmp/names" --format csv
printf '%s\n' "$out" | valid_utf8 && ok || fail "csv output is not valid UTF-8"
[ "$(printf '%s\n' "$out" | wc -l)" = 4 ] && ok || fail "csv: 4 lines: $out"
printf '%s' "$out" | grep -qF "$(printf ',"a,""b\357\277\275\357\277\275.c",1,')" && ok ||
	fail "csv: quoted, U+FFFD for invalid bytes: $out"
# a file name with an escape sequence and a newline, shown in the summary
odd="$tmp/$(printf 'x\033]0;owned\007\ny')"
cp "$tmp/names" "$odd"
run "$bin" -b -f "$odd"
expect_rc 0 "text, odd file name"
printf '%s\n' "$out" | valid_utf8 && ok || fail "text output is not valid UTF-8"
printf '%s\n' "$out" | LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" && fail "text output has control bytes" || ok
expect_match "$out" 'bad\\xffname +a,"b\\xc0\\xaf\.c:1$' "text: \\xNN for invalid bytes"
expect_match "$out" 'x\\x1b\]0;owned\\x07\\x0ay \(likely_prof\)' "text: the source's control bytes escaped"
[ "$(printf '%s\n' "$out" | wc -l)" = 6 ] && ok || fail "text: one line per row: $out"
# a backslash is escaped too: a name holding the text "\xff" never prints
# as the name holding the byte 0xff (issue 24)
{
	printf 'Likely Profiling Results\n'
	printf ' likely   |        1|        2\tbs\\xffx()@:f.c@1\n'
	printf ' likely   |        3|        4\tbs\377x()@:f.c@2\n'
	printf ' likely   |        5|        6\tbs\376x()@:f\\g.c@3\n'
} >"$tmp/bs"
for raw in "" --raw; do
	run "$bin" -b -f "$tmp/bs" $raw -o function,location --noheadings
	expect_rc 0 "backslash names $raw"
	expect_eq "$(printf '%s\n' "$out" | tr -s ' ')" "$(printf '%s\n' \
		'bs\xfex f\x5cg.c:3' 'bs\xffx f.c:2' 'bs\x5cxffx f.c:1')" \
		"backslash names $raw: distinct escapes"
	# each decodes back to its name ('printf %b' reads \xNN)
	names=$(printf '%s\n' "$out" | awk '{print $1}')
	[ "$(printf '%b\n' $names | od -An -tx1)" = \
	  "$(printf 'bs\376x\nbs\377x\nbs\\xffx\n' | od -An -tx1)" ] && ok ||
		fail "backslash names $raw: do not decode back: $names"
done
run "$bin" -b -f "$tmp/bs" --format json
expect_eq "$(printf '%s' "$out" | jq -r '.[] | select(.line == 1) | .function')" 'bs\xffx' \
	"json: a backslash is a backslash"
run "$bin" -b -f "$tmp/bs" --format csv
expect_match "$out" ',f\\g\.c,3,' "csv: a backslash is a backslash"

# --- 3. a header and garbage: nothing parses, exit 1 -----------------------------
for fmt in likely_prof annotated all; do
	profile $fmt 1 1 | head -"$([ $fmt = likely_prof ] && echo 3 || echo 2)" >"$tmp/g-$fmt"
	run "$bin" -b -f "$tmp/g-$fmt" --format json
	expect_rc 0 "$fmt: a header alone is an empty profile"
	[ "$out" = "[]" ] && ok || fail "$fmt header alone: $out"
	printf 'garbage\n1 2 3\n%s\n' "$(head -c 300 /dev/urandom | tr -d '\n\0')" >>"$tmp/g-$fmt"
	run "$bin" -b -f "$tmp/g-$fmt" --format json
	expect_rc 1 "$fmt: header plus garbage"
	[ -z "$out" ] && ok || fail "$fmt header plus garbage printed: $out"
	expect_match "$err" "g-$fmt: no valid rows: all 3 rows are malformed" "$fmt garbage message"
done

# --- 4. the reader leaves; standard output closed or full ------------------------
big=$tmp/big
{ printf 'Likely Profiling Results\n'; for i in $(seq 1 3000); do printf ' likely   |%9d|%9d\tf%d()@:a.c@%d\n' $i $((i * 3)) $i $i; done; } >"$big"
for fmt in text csv json; do
	for n in 1 100 5000 70000; do
		"$bin" -b -n 3 -d 0.05 -f "$big" --format $fmt 2>"$tmp/pipe.err" | head -c $n >/dev/null
		[ -s "$tmp/pipe.err" ] && fail "| head -c $n ($fmt): $(cat "$tmp/pipe.err")" || ok
	done
done
run sh -c "'$bin' -b -f '$big' >&-"
expect_rc 1 "closed stdout"
[ "$err" = "likelytop: write error on standard output: bad file descriptor" ] && ok || fail "closed stdout: '$err'"
run sh -c "'$bin' -b -n 2 -d 0.05 -f '$big' --format json >/dev/full"
expect_rc 1 "full stdout"
[ "$err" = "likelytop: write error on standard output: no space left on device" ] && ok || fail "full stdout: '$err'"

# --- 5. -p: a profile that is not a regular file is named for what it is ---------
sleep 30 &
p2=$!
for kind in symlink fifo directory; do
	d=$tmp/np-$kind; mkdir "$d"
	case $kind in
	symlink) profile likely_prof 1 1 >"$tmp/real"; ln -s "$tmp/real" "$d/$p2"; what="a symbolic link" ;;
	fifo) mkfifo "$d/$p2"; what="a FIFO" ;;
	directory) mkdir "$d/$p2"; what="a directory" ;;
	esac
	run timeout 10 env LIKELY_PROF_DIR="$d" "$bin" -b -p $p2
	expect_rc 1 "-p $kind"
	[ "$err" = "likelytop: $d/$p2 is $what, not a regular file: refused (a profile is a file the profiled process writes)" ] && ok ||
		fail "-p $kind: '$err'"
done
kill $p2
finish
