# splicebench's report: the results table's columns (-o, +LIST,
# --output-all, -n, -r) against golden output where it is deterministic;
# the raw samples, version, command line and timestamp in CSV and JSON;
# progress on stderr only on a terminal (through script(1)'s pty) and not
# with --quiet; the plot's KiB/MiB ticks and its key.
. "$(dirname "$0")/../cli/lib.sh"
bin=$(tool_path splicebench)
golden="$SRC_DIR/tests/splicebench/golden"
command -v jq >/dev/null || skip_test "jq is not installed (scripts/deps.sh installs it)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
small=(--mode copy,vmsplice --size 4K,64K --total 1M --runs 3)

# golden NAME ARGS...: splicebench ARGS... stdout equals golden/NAME
golden() {
	local name=$1
	shift
	run "$bin" "$@"
	expect_rc 0 "$name: splicebench $*"
	# The results table only: the lines around it measure the machine.
	if printf '%s' "$out" | grep -q '^memcpy baseline'; then
		printf '%s\n' "$out" | sed -n '/^mode /,/^$/p'
	else
		printf '%s\n' "$out"
	fi >"$tmp/$name"
	[ "${KATTR_GOLDEN_UPDATE:-}" = 1 ] && cp "$tmp/$name" "$golden/$name"
	if diff -u "$golden/$name" "$tmp/$name" >"$tmp/diff"; then ok; else
		fail "$name: splicebench $* differs from golden/$name:
$(cat "$tmp/diff")"
	fi
}
# Only the columns that do not vary from run to run.
golden columns.txt "${small[@]}" -o mode,size,pipe,huge,busy,runs
golden noheadings.txt "${small[@]}" -o MODE,Size,runs -n
golden raw.txt "${small[@]}" -o mode,size,huge,busy,runs --raw
golden raw-noheadings.txt "${small[@]}" -o mode,size -r -n

# The default columns, and + adds to them; --output-all has them all.
run "$bin" "${small[@]}" -n -o +bytes
expect_match "$out" '^copy +4K +64K +no +no +3 +[0-9]+\.[0-9]{2} .* 1048576$' "-o +bytes appends BYTES"
run "$bin" "${small[@]}" --output-all
first=$(printf '%s\n' "$out" | grep '^mode ')
expect_match "$first" '^mode +size +pipe +huge +busy +runs +GB/s +min +max +spread +cpu-prod +cpu-cons +note +cpu +bytes +chunks +corrupt$' "--output-all titles"
expect_match "$out" "memcpy baseline" "--output-all keeps the report around the table"
run "$bin" "${small[@]}" -r
[ "$(printf '%s\n' "$out" | head -1)" = "mode size pipe huge busy runs GB/s min max spread cpu-prod cpu-cons note" ] && ok ||
	fail "-r: the first line is the titles, one space apart: $(printf '%s\n' "$out" | head -1)"
[ "$(printf '%s\n' "$out" | wc -l)" = 5 ] && ok || fail "-r: titles and 4 rows only: $out"

# Usage errors: status 2 and one message.
usage() {	# usage REGEX ARGS...
	local re=$1
	shift
	run "$bin" "$@"
	expect_rc 2 "splicebench $*"
	expect_match "$err" "$re" "splicebench $*: message"
}
usage "unknown column 'speed'" -o mode,speed
usage "unknown column ''" -o mode,
usage "CSV and JSON always carry every field" --format csv -o mode
usage "CSV and JSON always carry every field" --format json -n
run "$bin" --help
for c in MODE SIZE PIPE HUGE BUSY RUNS GBPS MIN MAX SPREAD CPU-PROD CPU-CONS NOTE CPU BYTES CHUNKS CORRUPT; do
	expect_match "$out" "^ +$c  " "--help lists column $c"
done

# JSON: the samples in run order, the invocation.
run "$bin" "${small[@]}" --format json
expect_rc 0 "json"
printf '%s' "$out" >"$tmp/j"
[ "$(jq '[.results[] | (.samples_gbps | length) == .runs and (.samples_seconds | length) == .runs] | all' "$tmp/j")" = true ] && ok ||
	fail "json: samples_gbps and samples_seconds have one value per run"
[ "$(jq '[.results[] | (.samples_gbps | min) == .min_gbps and (.samples_gbps | max) == .max_gbps and (.samples_gbps | sort | .[1]) == .median_gbps] | all' "$tmp/j")" = true ] && ok ||
	fail "json: min, max and median are those of the samples: $(jq -c '[.results[] | [.min_gbps, .median_gbps, .max_gbps, .samples_gbps]]' "$tmp/j")"
[ "$(jq '[.baseline[] | (.samples_gbps | length) == .runs] | all' "$tmp/j")" = true ] && ok || fail "json: baseline samples"
[ "$(jq -r '.version' "$tmp/j")" = "$("$bin" --version | awk '{ print $NF }')" ] && ok || fail "json version: $(jq -r .version "$tmp/j")"
[ "$(jq -r '.command' "$tmp/j")" = "$bin ${small[*]} --format json" ] && ok || fail "json command: $(jq -r .command "$tmp/j")"
ts=$(jq -r '.timestamp' "$tmp/j")
expect_match "$ts" '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$' "json timestamp is ISO 8601 UTC"
age=$(( $(date +%s) - $(date -d "$ts" +%s) ))
[ "$age" -ge 0 ] && [ "$age" -lt 600 ] && ok || fail "json timestamp $ts is not now"
[ "$(jq '.spread_warn' "$tmp/j")" = 0.5 ] && ok || fail "json spread_warn: $(jq .spread_warn "$tmp/j")"
[ "$(jq '[.results[] | (.wide_spread == (.spread > 0.5))] | all' "$tmp/j")" = true ] && ok || fail "json wide_spread disagrees with spread"
# A command line with a quote and a blank reads back quoted as a shell would.
run "$bin" --mode copy --size 4K --total 64K --runs 1 --format json --plot "$tmp/it's a.svg"
[ "$(printf '%s' "$out" | jq -r '.command')" = "$bin --mode copy --size 4K --total 64K --runs 1 --format json --plot '$tmp/it'\\''s a.svg'" ] && ok ||
	fail "json command quoting: $(printf '%s' "$out" | jq -r '.command')"

# CSV: the samples ';'-separated, as many as runs; the invocation.
run "$bin" "${small[@]}" --format csv
expect_rc 0 "csv"
bad=$(printf '%s\n' "$out" | awk 'NR > 1 && $1 ~ /^(copy|vmsplice),/' | awk -F, '{
	n = split($21, s, ";"); if (n != $7) print }')
[ -z "$bad" ] && ok || fail "csv: samples_gbps does not have runs values: $bad"
expect_match "$(printf '%s\n' "$out" | sed -n 4p)" ",(true|false),[0-9][^,]*,\"$bin --mode copy,vmsplice --size 4K,64K --total 1M --runs 3 --format csv\",[0-9T:-]+Z$" "csv: version, quoted command, timestamp"

# Progress: on a terminal only (script gives the pty), never with --quiet,
# never when stderr is not a terminal.
if command -v script >/dev/null; then
	script -qec "$(printf '%q ' "$bin" "${small[@]}" --runs 5 -o mode)" /dev/null >"$tmp/tty" 2>&1
	tr '\r' '\n' <"$tmp/tty" >"$tmp/tty.lines"
	grep -Eq '^splicebench: (copy|vmsplice) (4K|64K), run [0-9] of 5, [0-9]+ of 24 runs done \([0-9]+%\)' "$tmp/tty.lines" && ok ||
		fail "no progress line on a terminal: $(head -c 600 "$tmp/tty.lines")"
	grep -Eq ', ETA [0-9]+:[0-9]{2}' "$tmp/tty.lines" && ok || fail "progress has no ETA: $(head -c 600 "$tmp/tty.lines")"
	grep -q 'memcpy baseline' "$tmp/tty.lines" && ok || fail "progress does not say the baseline is measured"
	script -qec "$(printf '%q ' "$bin" "${small[@]}" -q -o mode)" /dev/null >"$tmp/tty" 2>&1
	grep -q 'runs done' "$tmp/tty" && fail "--quiet still shows progress" || ok
	script -qec "$(printf '%q ' "$bin" "${small[@]}" -o mode) 2>$(printf '%q' "$tmp/err")" /dev/null >/dev/null 2>&1
	grep -q 'runs done' "$tmp/err" && fail "progress written to a non-terminal stderr" || ok
	grep -q $'\033' "$tmp/err" && fail "escape sequences in a non-terminal stderr" || ok
else
	skip_test "script (util-linux) is not installed: the progress needs a terminal to test"
fi

# The plot: a tick at each size in KiB/MiB, one key entry per mode, the
# baseline labelled on its line and not in the key.
if command -v gnuplot >/dev/null; then
	run "$bin" --size 4K,64K,1M --total 2M --runs 2 --plot "$tmp/p.svg" -q
	expect_rc 0 "--plot"
	for t in "4 KiB" "64 KiB" "1 MiB"; do
		grep -q ">$t<" "$tmp/p.svg" && ok || fail "--plot: no tick '$t'"
	done
	grep -q '>4096<\|KiBB\|>4KB<' "$tmp/p.svg" && fail "--plot: a tick in bytes or KB" || ok
	grep -Eq '>memcpy from RAM: [0-9]+\.[0-9]{2} GB/s<' "$tmp/p.svg" && ok || fail "--plot: the baseline has no label of its own"
	[ "$(grep -c '>memcpy from RAM' "$tmp/p.svg")" = 1 ] && ok || fail "--plot: the baseline is in the key too"
	grep -Eq '>fresh pages \(fault\+zero\+drop, no pipe\): [0-9]+\.[0-9]{2} GB/s<' "$tmp/p.svg" &&
		ok || fail "--plot: no fresh-page baseline"
else
	echo "note: gnuplot is not installed; the plot is not checked"
fi
finish
