# likelytop's live view driven through tmux (send-keys, capture-pane):
# default sort, sort column keys, reverse, filter, details, help, zero,
# quit and a signal both restoring the terminal, NO_COLOR, resize, --exec;
# at 120x40, 80x20 and 50x10 FUNCTION and a location stay on screen, whole
# titles, Right reaching every column; the field chooser (f), -o; "no rate
# yet" shown as batch shows it.  Nothing sleeps a fixed time: every check
# polls the pane, with a bound.
. "$(dirname "$0")/../cli/lib.sh"
bin=$(tool_path likelytop)
here="$SRC_DIR/tests/likelytop"
lp="$here/data/likely_prof.txt"

if [ "${WITH_NCURSES:-ON}" = OFF ]; then
	run "$bin" -f "$lp"
	expect_rc 1 "live view without ncurses"
	expect_match "$err" "live view needs ncurses.*WITH_NCURSES=OFF.*use -b" "no-ncurses message"
	run "$bin" -b -f "$lp"
	expect_rc 0 "batch mode still works without ncurses"
	finish
fi
command -v tmux >/dev/null || skip_test "tmux is not installed (scripts/deps.sh installs it)"
tmp=$(mktemp -d)
TMUX_SOCK="likelytop-test-$$"
WAIT_TENTHS=50
. "$SRC_DIR/tests/cli/tmux.sh"
cleanup() { tmux_stop; rm -rf "$tmp"; }
trap cleanup EXIT
mkdir -p "$tmp/lpdir"

# start NAME ARGS...: run likelytop in a 132x30 pane (W, H: another size),
# recording the tty settings before and after, and the exit status (the
# tmux server keeps the environment it started with: pass ours).
start() {
	local name=$1
	shift
	tmux_start "$name" "${W:-132}" "${H:-30}" \
		"export LIKELY_PROF_DIR='${LIKELY_PROF_DIR:-$tmp/lpdir}' TMPDIR='${TMPDIR:-/tmp}'" \
		"$bin" "$@"
}
row() { screen "$1" | sed -n "$(( $2 + 4 ))p"; }	# data row N (1-based)
titles() { screen "$1" | sed -n 4p; }
# wait_row NAME N REGEX what: poll data row N for up to 5 s
wait_row() {
	local i
	for i in $(seq 50); do
		row "$1" "$2" | grep -Eq -- "$3" && { ok; return 0; }
		sleep 0.1
	done
	fail "$4: row $2 '$(row "$1" "$2")' does not match /$3/"
	return 1
}
start a -f "$lp" -d 0.5
wait_for a "likelytop - .*likely_prof.txt \(likely_prof\)" "title" || finish
wait_for a "6 sites, 6 shown, 3 wrong hints \| sort: incorrect" "summary line"
wait_row a 1 "^! +unlikely +67321 +84123 +55\.5 .* kfree +mm/slab\.c:3380" "default sort: incorrect, kfree first"
keys a '>'
wait_for a "sort: percent" "> moves the sort right"
wait_row a 1 "audit_free" "by percent: audit_free (100%) first"
keys a R
wait_for a "sort: percent \(reversed\)" "R reverses"
wait_row a 1 "tcp_sacktag_write_queue" "reversed: 0% first"
keys a R '<' '<'
wait_for a "sort: correct \|" "< moves the sort left"
wait_row a 1 "schedule" "by correct: schedule first"
keys a / s c h e d Enter
wait_for a "1 shown.*filter: sched" "filter applied"
wait_row a 1 "schedule +kernel/sched\.c:2911" "filter keeps schedule"
wait_row a 2 "^ *$" "filter: no second row"
keys a Enter
wait_for a "schedule\(\)  kernel/sched\.c:2911" "details of the selected site"
wait_for a "hint +likely" "details: hint"
wait_for a "correct +900000" "details: counters"
keys a Escape
wait_for a "FUNCTION" "Esc leaves the details"
keys a Escape
wait_for a "6 shown" "Esc clears the filter"
keys a h
wait_for a "^Keys:" "help screen"
keys a x
wait_for a "FUNCTION" "any key leaves help"
keys a z
wait_for a "\| zeroed" "z zeroes"
wait_row a 1 " 0 +0 +- " "zeroed counts are 0 on a static file"
keys a z
wait_for a "6 shown, 3 wrong hints \| sort: correct \| every [0-9.]+s *$" "z again: totals (not zeroed)"
wait_row a 1 "900000 +12 " "z again: the totals are back"
keys a w
wait_for a "3 shown, 3 wrong hints.*\| wrong only" "w: wrong hints only"
keys a w m 1 0 0 0 0 0 Enter
wait_for a "\| min total 100000" "m: minimum total in the status line"
expect_match "$(screen a | grep -c 'shown')" "1" "one summary line"
keys a m Enter
wait_for a "6 shown" "m, empty: all sites again"
keys a f
wait_for a "Columns \(as -o\)" "f: the field chooser (not freeze)"
screen a | grep -q FROZEN && fail "f froze the display" || ok
keys a Down Down Down Down
wait_for a "^> \[x\] MISS%" "f: the cursor on MISS%"
keys a " "
wait_for a "^> \[ \] MISS%" "f: space hides MISS%"
keys a Down Down
wait_for a "^> \[ \] CONSTANT" "f: the cursor on CONSTANT"
keys a " "
wait_for a "^> \[x\] CONSTANT" "f: space shows CONSTANT"
keys a f
wait_for a "^MARK +HINT +CORRECT +INCORRECT +WRONG/s +CONSTANT +FUNCTION +LOCATION" "f: the columns chosen"
keys a h
wait_for a "f F +choose the columns" "help: the f key"
keys a x
wait_for a "FUNCTION" "help left"
keys a Z
wait_for a "FROZEN" "Z freezes"
keys a q
wait_exit a 0

# Any terminal: at 120x40, 80x20 and 50x10 every row shows its FUNCTION
# and a location (cut with a mark if need be), the titles are whole names,
# and Right reaches every column (the ones that do not fit scroll in).
titles_known='^(MARK|HINT|CORRECT|INCORRECT|MISS%|WRONG/s|FUNCTION|LOCATION)$'
for size in 120x40 80x20 50x10; do
	n=sz${size%x*}
	W=${size%x*} H=${size#*x} start "$n" -d 0.5 -f "$lp"
	wait_for "$n" "FUNCTION +LOCATION" "$size: FUNCTION and LOCATION titles" || continue
	for r in 1 2 3 4 5; do
		wait_row "$n" "$r" "[a-z_0-9]+(…|~)? +[a-z0-9]+/[a-z0-9/._:]*(…|~)?$" "$size: row $r has a function and a location"
	done
	wait_row "$n" 1 " kfree +mm/sl" "$size: kfree's row"
	[ "$(screen "$n" | sed 's/…/./g' | awk 'length > w { w = length } END { print w + 0 }')" -le "${size%x*}" ] && ok ||
		fail "$size: a line wider than the pane"
	seen=" $(titles "$n" | xargs) "
	bad=$(titles "$n" | tr -s ' ' '\n' | grep -v '^$' | grep -Ev "$titles_known")
	[ -z "$bad" ] && ok || fail "$size: a title cut: $bad in '$(titles "$n")'"
	for i in $(seq 8); do
		all=1
		for t in MARK HINT CORRECT INCORRECT 'MISS%' WRONG/s FUNCTION LOCATION; do
			case $seen in *" $t "*) ;; *) all=0 ;; esac
		done
		[ $all = 1 ] && break
		before=$(titles "$n")
		keys "$n" Right
		for j in $(seq 30); do [ "$(titles "$n")" != "$before" ] && break; sleep 0.1; done
		bad=$(titles "$n" | tr -s ' ' '\n' | grep -v '^$' | grep -Ev "$titles_known")
		[ -z "$bad" ] || fail "$size: a title cut after Right: $bad"
		titles "$n" | grep -q "FUNCTION +LOCATION" || titles "$n" | grep -Eq "FUNCTION +LOCATION" ||
			fail "$size: FUNCTION or LOCATION scrolled off: $(titles "$n")"
		seen="$seen$(titles "$n" | xargs) "
	done
	[ $all = 1 ] && ok || fail "$size: Right never showed every column (saw:$seen)"
	keys "$n" q
	wait_exit "$n" 0
done
# the header's last word is whole at 50 columns (the file name is dropped)
W=50 H=10 start hd -f "$lp"
wait_for hd "^likelytop - [0-9:]+ *$" "50 columns: the title line loses whole words"
wait_for hd "^q quit  h help  f fields  < > sort  R reverse *$" "50 columns: the key line loses whole keys"
keys hd q
wait_exit hd 0

# -o in the live view: those columns, in that order (old names accepted).
start o -f "$lp" -o function,miss,hint,file:line
wait_for o "^FUNCTION +MISS% +HINT +LOCATION *$" "-o in the live view"
keys o q
wait_exit o 0

# "No rate yet": a file that never changes shows - in batch and live,
# never 0.0, however many refreshes pass.
cp "$lp" "$tmp/static"
run "$bin" -b -n 3 -d 0.1 -f "$tmp/static" -o function,wrong/s --noheadings
expect_rc 0 "batch on a static file"
batch_rates=$(printf '%s\n' "$out" | awk 'NF == 2 { print $1, $2 }' | sort -u)
expect_eq "$(printf '%s\n' "$batch_rates" | awk '{ print $2 }' | sort -u)" "-" "batch: no rate yet is -"
start nr -d 0.1 -f "$tmp/static" -o function,wrong/s
wait_for nr "^FUNCTION +WRONG/s" "live on a static file"
t0=$(screen nr | sed -n 1p)
for i in $(seq 50); do [ "$(screen nr | sed -n 1p)" != "$t0" ] && break; sleep 0.1; done
[ "$(screen nr | sed -n 1p)" != "$t0" ] && ok || fail "the clock did not move in 5 s"
live_rates=$(screen nr | sed -n '5,10p' | awk 'NF == 2 { print $1, $2 }' | sort -u)
expect_eq "$live_rates" "$batch_rates" "live shows what batch shows for no rate yet (at least 10 refreshes)"
keys nr '>' '>'
wait_for nr "sort: rate" "sorted by rate"
wait_for nr "no rate yet \(-\): sorted by function and file" "sorting by WRONG/s without a rate says so"
keys nr q
wait_exit nr 0

# Details with -S: the source line, opened beneath the directory only.
mkdir -p "$tmp/src/mm" "$tmp/elsewhere"
{ seq 3379 | sed 's/^/line /'; printf '\tif (unlikely(!objp))\n\t\treturn;\n'; } >"$tmp/src/mm/slab.c"
printf 'secret\n' >"$tmp/elsewhere/auditsc.c"
ln -s "$tmp/elsewhere" "$tmp/src/kernel"
cp "$lp" "$tmp/lps"
start s -d 0.3 -S "$tmp/src" -f "$tmp/lps"
wait_for s "FUNCTION" "-S run"
keys s Enter
wait_for s ">  3380 +if \(unlikely\(!objp\)\)" "details: the source line of kfree"
wait_for s "rate +- \(no rate yet" "details: no rate yet while the file does not change"
sed 's/84123/94123/' "$lp" >"$tmp/lps.new" && mv "$tmp/lps.new" "$tmp/lps"
wait_for s "rate .* \(last [0-9]+ refreshes\)" "details: rate sparkline once the counts move"
keys s Escape
wait_for s "^MARK +HINT" "details left"
keys s Down Down Enter
wait_for s "audit_free\(\)" "details of audit_free"
wait_for s "source: kernel/auditsc.c not found under $tmp/src" "-S does not follow a symlink out"
screen s | grep -q secret && fail "-S followed a symlink" || ok
keys s q
wait_exit s 0

# -S as typed, relative to the working directory (it was opened beneath
# the sysroot and refused: "source: cannot open src").
(cd "$tmp" && start sr -d 0.3 -S src -f "$tmp/lps")
wait_for sr "FUNCTION" "-S relative run"
keys sr Enter
wait_for sr ">  3380 +if \(unlikely\(!objp\)\)" "-S relative: the source line of kfree"
keys sr q
wait_exit sr 0

# Scrolled to the end, the window grows and the profile shrinks: the page
# stays full (rows above come back), never a page of blank lines.
many() {	# many N: a profile of N sites, site k wrong k times
	printf 'Likely Profiling Results\n'
	for k in $(seq "$1"); do
		printf ' unlikely |%9u|%9u\tfn_%03d()@:a.c@%d\n' "$k" 1000 "$k" "$k"
	done
}
nrows() { screen "$1" | grep -c ' fn_[0-9][0-9][0-9] '; }
many 60 >"$tmp/many"
T new-session -d -s grow -x 132 -y 20 "$(printf '%q ' "$bin" -d 0.2 -f "$tmp/many"); sleep 30"
wait_for grow "60 sites" "60-site profile"
keys grow End
wait_for grow "fn_001 " "End shows the last row"
small=$(nrows grow)
T resize-window -t grow -x 132 -y 40 2>/dev/null || T resize-pane -t grow -x 132 -y 40
for i in $(seq 50); do
	big=$(nrows grow)
	[ "$big" -ge $((small + 15)) ] && break
	sleep 0.1
done
[ "$big" -ge $((small + 15)) ] && ok ||
	fail "window grown from 20 to 40 lines: $big rows shown (were $small):"
screen grow | grep -q ' fn_001 ' && ok || fail "grown window: the selected last row is gone"
many 5 >"$tmp/many.new" && mv "$tmp/many.new" "$tmp/many"
wait_for grow "5 sites, 5 shown" "the profile shrank to 5 sites"
[ "$(nrows grow)" = 5 ] && ok || fail "shrunk profile: $(nrows grow) rows shown, expected 5"
keys grow q

# Long names: cut with a marker, scrolled sideways with Right and Left;
# d changes the delay (a bad one is refused); rates scaled; F10 quits.
long_prof() {	# long_prof WRONG: one site with a long name, wrong WRONG times
	printf 'Likely Profiling Results\n'
	printf ' likely   |%9u|%9u\t%s()@:%s@%d\n' 5 "$1" \
		a_function_name_that_is_much_longer_than_the_column_ends_here_z \
		drivers/some/deep/directory/file_name.c 77
}
long_prof 1000 >"$tmp/long"
start w -d 0.3 -f "$tmp/long"
wait_for w " a_function_name_that_is_mu(…|~) " "a long name is cut with a marker"
screen w | grep -q "ends_here_z" && fail "the whole long name fits in the column?" || ok
keys w Right Right Right Right Right
wait_for w "(…|~)much_longer|(…|~)[a-z_]*ends_here_z" "Right scrolls the name"
keys w Left Left Left Left Left
wait_for w " a_function_name_that_is_mu(…|~) " "Left scrolls back"
keys w d 0 . 0 1 Enter
wait_for w "invalid delay: give seconds between 0.05 and 86400" "d refuses 0.01"
keys w s 1 . 5 Enter
wait_for w "every 1.5s" "s sets the delay"
long_prof 900001000 >"$tmp/long.new" && mv "$tmp/long.new" "$tmp/long"
wait_for w " [0-9.]+[KMG] +(…|~)?a_function" "a large rate is scaled"
keys w F10
wait_exit w 0

# A signal ends it cleanly too.
start b -f "$lp"
wait_for b "FUNCTION" "second run"
pid=$(pgrep -f "^$bin -f $lp$" | head -1)
[ -n "$pid" ] && kill -TERM "$pid"
wait_exit b 0

# Colours unless NO_COLOR; resize redraws.
start c -f "$lp"
wait_for c "FUNCTION" "colour run"
T capture-pane -e -p -t c | grep -q $'\e\\[31m' && ok || fail "wrong hints are red"
T resize-window -t c -x 100 -y 20 2>/dev/null || T resize-pane -t c -x 100 -y 20
for i in $(seq 50); do
	screen c | sed -n 20p | grep -q "q quit" && break
	sleep 0.1
done
screen c | sed -n 20p | grep -q "q quit" && ok || fail "resize: the key line is not on the last row: $(screen c | tail -3)"
keys c q
wait_exit c 0
T kill-session -t c 2>/dev/null
cat >"$tmp/nc.sh" <<EOS
NO_COLOR=1 $(printf '%q ' "$bin" -f "$lp")
EOS
T new-session -d -s e -x 132 -y 30 "bash '$tmp/nc.sh'; sleep 30"
wait_for e "FUNCTION" "NO_COLOR run"
T capture-pane -e -p -t e | grep -q $'\e\\[3[0-7]m' && fail "NO_COLOR: colours used" || ok
keys e q

# A counter that goes down (a restarted program): "reset", never a rate.
printf 'Likely Profiling Results\n-likely   |     1000|  1829768\tgone_down()@:b.c@2\n' >"$tmp/reset"
start r -d 0.3 -f "$tmp/reset"
wait_for r "gone_down" "reset: the first snapshot"
printf 'Likely Profiling Results\n-likely   |        3|       12\tgone_down()@:b.c@2\n' >"$tmp/reset.new"
mv "$tmp/reset.new" "$tmp/reset"
wait_for r " reset +gone_down" "live view: a counter that went down shows reset"
keys r q
wait_exit r 0

# Names are bytes: invalid UTF-8, control characters (the parser drops
# rows with C0 ones; C1 pass) and backslashes are shown as \xNN, as the
# batch formats write them (one escaper: distinct and reversible), never
# raw; valid UTF-8 stays, and a cut never splits a character.
{
	printf 'Likely Profiling Results\n'
	printf -- '-likely   |        1|      900\tbad\377name()@:src/\303\251t\303\251.c@7\n'
	printf -- '-likely   |        1|      800\tc1name()@:c1\302\233x.c@8\n'
	printf -- '-likely   |        1|      700\t%s()@:w.c@9\n' "$(printf 'l\303\251ng%.0s' $(seq 12))"
	printf -- '-likely   |        1|      600\tback\\slash()@:b\\s.c@3\n'
} >"$tmp/names"
cat >"$tmp/u.sh" <<EOS
LC_ALL=C.UTF-8 $(printf '%q ' "$bin" -f "$tmp/names")
EOS
T -u new-session -d -s u -x 132 -y 30 "bash '$tmp/u.sh'; sleep 30"
wait_for u "FUNCTION" "names run"
wait_row u 1 'bad\\xffname +src/été\.c:7$' "invalid UTF-8 shown as \\xff, valid UTF-8 kept"
expect_match "$(row u 2)" 'c1name +c1\\xc2\\x9bx\.c:8$' "a C1 control (CSI) shown as \\xc2\\x9b"
expect_match "$(row u 4)" 'back\\x5cslash +b\\x5cs\.c:3$' "a backslash shown as \\x5c"
T capture-pane -e -p -t u | grep -q $'\xc2\x9b' && fail "the name's C1 control reached the terminal" || ok
expect_match "$(row u 3)" "(léng){6}lé… w\.c:9$" "a long name cut at a character, by columns"
screen u | iconv -f UTF-8 -t UTF-8 >/dev/null 2>&1 && ok || fail "the screen is not valid UTF-8"
keys u Enter
wait_for u 'bad\\xffname\(\)  src/été\.c:7' "details: \\xff"
keys u q
T kill-session -t u 2>/dev/null

# -p PID: the view says when the profiled process is gone.
export LIKELY_PROF_DIR="$tmp/prof"
"$here/fake_writer.sh" 6 0.2 &
wp=$!
for i in $(seq 50); do [ -f "$tmp/prof/$wp" ] && break; sleep 0.1; done
start p -d 0.3 -p "$wp"
wait_for p "pid $wp .* \(likely_prof\)" "-p PID title"
wait_for p "fake_main" "-p PID rows"
wait "$wp"
wait_for p "process $wp has exited: this is its last snapshot" "-p PID: the process exited"
keys p q
wait_exit p 0

# --exec: the final snapshot stays on screen once the command exits.
# an existing directory: a -DLIKELY_PROF=ON likelytop writes its own
# profile there instead of a complaint onto the screen
export LIKELY_PROF_DIR="$tmp/lpdir" TMPDIR="$tmp"
start g -d 0.2 --exec -- "$here/fake_writer.sh" 3 0.1
wait_for g "fake_writer.sh exited: final snapshot" "--exec: final snapshot"
wait_for g "kfree +mm/slab\.c:3380" "--exec: the command's profile"
wait_for g "likelytop - .*fake_writer.sh \(pid [0-9]+\)" "--exec title" || true
gdir=$(ls -d "$tmp"/likelytop.* 2>/dev/null)
[ -n "$gdir" ] && ok || fail "--exec: no private directory under \$TMPDIR"
keys g q
wait_exit g 0
[ -z "$(ls -d "$tmp"/likelytop.* 2>/dev/null)" ] && ok || fail "--exec left its directory"
finish
