# likelytop's metrics: --format openmetrics (OpenMetrics 1.0, checked by
# the Python client's strict parser where it is installed) and --textfile
# DIR (Prometheus' text format for node_exporter, checked by `promtool
# check metrics`): names with quotes, backslashes and invalid UTF-8 as
# labels, sites of one line merged into one series, the file replaced
# atomically each snapshot and never written through a symlink.
. "$(dirname "$0")/../cli/lib.sh"
bin=$(tool_path likelytop)
# promtool: on PATH, or where scripts/deps.sh puts it (taken out of
# Debian's prometheus package, whose daemon is not installed)
PROMTOOL=$(command -v promtool || echo /var/cache/kattr-deps/promtool)
[ -x "$PROMTOOL" ] ||
	skip_test "promtool is not installed (Debian's prometheus package; scripts/deps.sh fetches it)"
promtool() { command "$PROMTOOL" "$@"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
valid_utf8() { iconv -f UTF-8 -t UTF-8 >/dev/null 2>&1; }
# om_parse: the OpenMetrics text on stdin, parsed strictly; prints
# "family|sample|labels as JSON|value" per sample (the labels decoded).
om_parse() {
	/usr/bin/python3 -c '
import sys, json
from prometheus_client.openmetrics.parser import text_string_to_metric_families
for f in text_string_to_metric_families(sys.stdin.buffer.read().decode("utf-8")):
    for s in f.samples:
        print("%s|%s|%s|%d" % (f.name, s.name, json.dumps(s.labels, sort_keys=True), s.value))'
}
have_om=0
/usr/bin/python3 -c 'import prometheus_client.openmetrics.parser' 2>/dev/null && have_om=1 ||
	echo "note: python3-prometheus-client is not installed: the OpenMetrics output is checked without its parser"

{
	printf 'Likely Profiling Results\n'
	printf ' likely   |        7|        2\tq"uote()@:a\\b.c@1\n'
	printf ' likely   |        3|        4\tbad\377name()@:x\300\257.c@2\n'
	printf ' unlikely |        5|        6\t`touch${IFS}F`()@:c.c@3\n'
	# two sites of one line and hint (two likely() on a line): one series
	printf ' likely   |       10|        1\ttwice()@:d.c@4\n'
	printf ' likely   |       20|        2\ttwice()@:d.c@4\n'
} >"$tmp/prof"

# 1. --format openmetrics
run "$bin" -b -f "$tmp/prof" --format openmetrics
expect_rc 0 "--format openmetrics"
printf '%s\n' "$out" | valid_utf8 && ok || fail "openmetrics: not valid UTF-8"
expect_eq "$(printf '%s\n' "$out" | tail -1)" "# EOF" "openmetrics: ends with # EOF"
expect_eq "$(printf '%s\n' "$out" | grep -c '^# TYPE likelytop_branch_\(in\)\?correct counter$')" 2 \
	"openmetrics: two counter families"
expect_eq "$(printf '%s\n' "$out" | grep -c '^likelytop_branch_correct_total{')" 4 \
	"openmetrics: one sample per series (d.c:4 merged)"
printf '%s\n' "$out" | grep -qF 'likelytop_branch_correct_total{function="twice",file="d.c",line="4",hint="likely"} 30' &&
	ok || fail "openmetrics: merged site: $out"
printf '%s\n' "$out" | grep -qF 'function="q\"uote",file="a\\b.c"' && ok ||
	fail "openmetrics: quote and backslash escaped: $out"
printf '%s\n' "$out" | grep -qF "$(printf 'function="bad\357\277\275name",file="x\357\277\275\357\277\275.c"')" &&
	ok || fail "openmetrics: invalid bytes as U+FFFD: $out"
if [ $have_om = 1 ]; then
	parsed=$(printf '%s\n' "$out" | om_parse 2>&1)
	[ $? = 0 ] && ok || fail "openmetrics: the parser refused it: $parsed"
	printf '%s\n' "$parsed" | grep -qxF 'likelytop_branch_incorrect|likelytop_branch_incorrect_total|{"file": "a\\b.c", "function": "q\"uote", "hint": "likely", "line": "1"}|2' &&
		ok || fail "openmetrics: labels do not parse back to the names: $parsed"
	expect_eq "$(printf '%s\n' "$parsed" | wc -l)" 8 "openmetrics: 8 samples parsed"
fi
[ -e F ] && fail "a name ran as a command" || ok
run "$bin" -b -f "$tmp/prof" --format openmetrics --noheadings
expect_rc 2 "--format openmetrics --noheadings"
run "$bin" -b -f "$tmp/prof" --format openmetrics -o FUNCTION
expect_rc 2 "--format openmetrics -o"
run "$bin" -f "$tmp/prof" --format openmetrics
expect_rc 2 "--format openmetrics without --batch"
# Each format's profile: the same two families, accepted.
for f in "$SRC_DIR"/tests/likelytop/data/*.txt; do
	run "$bin" -b -f "$f" --format openmetrics
	expect_rc 0 "openmetrics of ${f##*/}"
	if [ $have_om = 1 ]; then
		printf '%s\n' "$out" | om_parse >/dev/null 2>&1 && ok ||
			fail "openmetrics of ${f##*/}: refused by the parser: $out"
	fi
done

# 2. --textfile DIR: Prometheus' text format, checked by promtool
mkdir "$tmp/tf"
run "$bin" -b -f "$tmp/prof" --textfile "$tmp/tf"
expect_rc 0 "--textfile"
expect_eq "$out" "" "--textfile: nothing on standard output"
expect_eq "$(ls -A "$tmp/tf")" "likelytop.prom" "--textfile: one file, no temporary left"
run promtool check metrics <"$tmp/tf/likelytop.prom"
expect_rc 0 "promtool check metrics (--textfile): $out"
grep -qx '# TYPE likelytop_branch_incorrect_total counter' "$tmp/tf/likelytop.prom" && ok ||
	fail "--textfile: TYPE names the sample: $(cat "$tmp/tf/likelytop.prom")"
grep -q '^# EOF' "$tmp/tf/likelytop.prom" && fail "--textfile: # EOF in Prometheus' format" || ok
for f in "$SRC_DIR"/tests/likelytop/data/*.txt; do
	"$bin" -b -f "$f" --textfile "$tmp/tf" &&
		promtool check metrics <"$tmp/tf/likelytop.prom" >/dev/null 2>&1 && ok ||
		fail "promtool check metrics refused the metrics of ${f##*/}: $(cat "$tmp/tf/likelytop.prom")"
done
# Replaced, not rewritten: a reader holding the old file keeps it whole.
exec 3<"$tmp/tf/likelytop.prom"
old=$(stat -c %i "$tmp/tf/likelytop.prom")
"$bin" -b -f "$tmp/prof" --textfile "$tmp/tf" || fail "--textfile again"
[ "$(stat -c %i "$tmp/tf/likelytop.prom")" != "$old" ] && ok || fail "--textfile: written in place, not renamed"
expect_match "$(cat <&3)" '^# HELP' "--textfile: the old file, still open, is intact"
exec 3<&-
# -n 2: each snapshot replaces the file.
run "$bin" -b -n 2 -d 0.1 -f "$tmp/prof" --textfile "$tmp/tf"
expect_rc 0 "--textfile -n 2"
expect_eq "$(ls -A "$tmp/tf")" "likelytop.prom" "--textfile -n 2: one file"
# Never through a symlink: not at the name, not as the directory.
echo keep >"$tmp/target"
rm "$tmp/tf/likelytop.prom"
ln -s "$tmp/target" "$tmp/tf/likelytop.prom"
run "$bin" -b -f "$tmp/prof" --textfile "$tmp/tf"
expect_rc 1 "--textfile over a symlink"
expect_match "$err" "likelytop.prom': something other than a regular file" "--textfile over a symlink: said"
expect_eq "$(cat "$tmp/target")" keep "--textfile: the symlink's target unchanged"
[ -L "$tmp/tf/likelytop.prom" ] && ok || fail "--textfile: the symlink was replaced"
ln -s "$tmp/tf" "$tmp/link"
run "$bin" -b -f "$tmp/prof" --textfile "$tmp/link"
expect_rc 1 "--textfile DIR a symlink"
expect_match "$err" "not a directory \(a symbolic link is not followed\)" "--textfile DIR a symlink: said"
# with trailing slashes too (issue 41 item 3): the target directory's
# file untouched
ln -sfn "$tmp/tf2" "$tmp/link2"
mkdir "$tmp/tf2"
for sl in / //; do
	run "$bin" -b -f "$tmp/prof" --textfile "$tmp/link2$sl"
	expect_rc 1 "--textfile DIR$sl a symlink"
	expect_match "$err" "not a directory \(a symbolic link is not followed\)" "--textfile DIR$sl a symlink: said"
	expect_eq "$(ls -A "$tmp/tf2")" "" "--textfile DIR$sl a symlink: nothing written through it"
done
run "$bin" -b -f "$tmp/prof" --textfile "$tmp/tf2//"
expect_rc 0 "--textfile DIR// (a directory)"
expect_eq "$(ls -A "$tmp/tf2")" "likelytop.prom" "--textfile DIR//: written"
run "$bin" -b -f "$tmp/prof" --textfile "$tmp/none"
expect_rc 1 "--textfile DIR missing"
expect_match "$err" "cannot use '.*/none' for --textfile: no such file or directory" "--textfile DIR missing: said"
# Usage errors.
for o in "--format csv" "--json" "--noheadings" "-o FUNCTION" "--raw"; do
	run "$bin" -b -f "$tmp/prof" --textfile "$tmp/tf" $o
	expect_rc 2 "--textfile $o"
done
run "$bin" -f "$tmp/prof" --textfile "$tmp/tf"
expect_rc 2 "--textfile without --batch"
run "$bin" -b -f "$tmp/prof" --textfile ""
expect_rc 2 "--textfile ''"
finish
