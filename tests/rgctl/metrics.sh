# rgctl stats --format openmetrics and --textfile DIR (issue 29 item 5), on
# the host's cgroup v1: groups named with quotes, backslashes, braces,
# '=' and ',' as labels, escaped; the values those of the table; every
# family written together across groups; --textfile DIR/rgctl.prom checked
# by `promtool check metrics`, replaced atomically, never written through a
# symlink, left as it was on failure; -R takes the groups below, skipping
# (and saying) names rgctl does not take; usage errors exit 2.
. "$(dirname "$0")/common.sh"
require_root "creates groups in the cgroup v1 hierarchies"
# promtool: on PATH, or where scripts/deps.sh puts it (as tests/likelytop/metrics.sh)
PROMTOOL=$(command -v promtool || echo /var/cache/kattr-deps/promtool)
[ -x "$PROMTOOL" ] ||
	skip_test "promtool is not installed (Debian's prometheus package; scripts/deps.sh fetches it)"
promtool() { command "$PROMTOOL" "$@"; }
CPU=$(mount_of cgroup cpu)
ACCT=$(mount_of cgroup cpuacct)
MEM=$(mount_of cgroup memory)
PIDS=$(mount_of cgroup pids)
[ -n "$CPU" ] && [ -n "$ACCT" ] && [ -n "$MEM" ] ||
	skip_test "needs cgroup v1 cpu, cpuacct and memory hierarchies (cgroup v2: tests/vm/stats.sh)"
for h in "$CPU" "$ACCT" "$MEM"; do use_hierarchy "$h"; done
T=$(mktemp -d /tmp/rgctl-metrics.XXXXXX)
CLEANUPS+=("rm -rf '$T'")
r() { run "$RG" --backend cgroup1 --root "$CPU" "$@"; }
valid_utf8() { iconv -f UTF-8 -t UTF-8 >/dev/null 2>&1; }
# om_parse: OpenMetrics text on stdin, parsed strictly; a line per sample,
# "sample|labels as JSON|value" (the labels decoded)
om_parse() {
	/usr/bin/python3 -c '
import sys, json
from prometheus_client.openmetrics.parser import text_string_to_metric_families
for f in text_string_to_metric_families(sys.stdin.buffer.read().decode("utf-8")):
    for s in f.samples:
        print("%s|%s|%r" % (s.name, json.dumps(s.labels, sort_keys=True), s.value))'
}
have_om=0
/usr/bin/python3 -c 'import prometheus_client.openmetrics.parser' 2>/dev/null && have_om=1 ||
	echo "note: python3-prometheus-client is not installed: the OpenMetrics output is checked without its parser"

Q="$G/q\"uote" B="$G/back\\slash" O="$G/a{b}=c,d"
r create "$G" "$G/plain" "$Q" "$B" "$O"
expect_rc 0 "create the groups"
sleep 300 &
SPAWNED+=($!)
r attach "$G/plain" "$!"
expect_rc 0 "attach a sleeper to $G/plain"
sleep 300 &
SPAWNED+=($!)
r attach "$Q" "$!"

# 1. --format openmetrics: OpenMetrics 1.0, one family at a time
r stats --format openmetrics "$G/plain" "$Q" "$B" "$O" "$G/plain"
expect_rc 0 "--format openmetrics, five groups (one twice)"
printf '%s\n' "$out" | valid_utf8 && ok || fail "openmetrics: not valid UTF-8"
expect_eq "$(printf '%s\n' "$out" | tail -1)" "# EOF" "openmetrics: ends with # EOF"
expect_eq "$(printf '%s\n' "$out" | grep -c '^# TYPE rgctl_cpu_usage_seconds counter$')" 1 \
	"openmetrics: one cpu usage family for every group"
expect_match "$out" $'# UNIT rgctl_cpu_usage_seconds seconds\n' "openmetrics: the unit said"
expect_match "$out" $'# TYPE rgctl_memory_current_bytes gauge\n' "memory current: a gauge in bytes"
expect_eq "$(printf '%s\n' "$out" | grep -c '^rgctl_cpu_usage_seconds_total{')" 4 \
	"openmetrics: one sample per group (the one named twice once)"
printf '%s\n' "$out" | grep -qF "rgctl_cpu_usage_seconds_total{group=\"$G/q\\\"uote\"} " && ok ||
	fail "openmetrics: the quote escaped: $out"
printf '%s\n' "$out" | grep -qF "rgctl_cpu_usage_seconds_total{group=\"$G/back\\\\slash\"} " && ok ||
	fail "openmetrics: the backslash escaped: $out"
# the families of one resource together: no name comes back after another
expect_eq "$(printf '%s\n' "$out" | grep -v '^#' | sed 's/{.*//' | uniq | sort | uniq -d)" "" \
	"openmetrics: each family's samples together"
if [ $have_om = 1 ]; then
	parsed=$(printf '%s\n' "$out" | om_parse 2>&1)
	[ $? = 0 ] && ok || fail "openmetrics: the parser refused it: $parsed"
	for g in "$Q" "$B" "$O"; do
		want=$(N="$g" /usr/bin/python3 -c 'import json, os; print(json.dumps({"group": os.environ["N"]}))')
		printf '%s\n' "$parsed" | grep -qF "rgctl_cpu_usage_seconds_total|$want|" && ok ||
			fail "openmetrics: the label does not parse back to '$g': $parsed"
	done
fi

# 2. the values are the table's: a sleeper's group is still
# check_values GROUP: the figures of stats -r and the metrics agree (read
# again, up to 3 times, if a figure moved between the two reads)
metric_of() {	# metric_of RESOURCE FIGURE: the metric and the divisor
	case "$1 $2" in
	"cpu usage_usec") echo "rgctl_cpu_usage_seconds_total 1000000" ;;
	"cpu nr_throttled") echo "rgctl_cpu_nr_throttled_total 1" ;;
	"memory current") echo "rgctl_memory_current_bytes 1" ;;
	"memory events.oom_kill") echo "rgctl_memory_events_oom_kill_total 1" ;;
	"pids current") echo "rgctl_pids_current 1" ;;
	esac
}
check_values() {
	local try table metrics res fig val m div got bad n
	for try in 1 2 3; do
		table=$("$RG" -b cgroup1 --root "$CPU" stats -r -n -o resource,figure,value "$1" 2>/dev/null)
		metrics=$("$RG" -b cgroup1 --root "$CPU" stats --format openmetrics "$1" 2>/dev/null)
		bad="" n=0
		while read -r res fig val; do
			read -r m div <<<"$(metric_of "$res" "$fig")"
			[ -n "$m" ] || continue
			n=$((n + 1))
			got=$(printf '%s\n' "$metrics" | awk -v m="$m" '$1 ~ "^" m "[{]" { print $2 }')
			awk -v a="$got" -v b="$val" -v d="$div" \
				'BEGIN { x = a * d - b; exit !(a != "" && x < 0.5 && x > -0.5) }' ||
				bad+=" $res/$fig: table $val, metric '$got'"
		done <<<"$table"
		[ -z "$bad" ] && break
	done
	[ -z "$bad" ] && ok || fail "values of $1 differ:$bad"
	[ "$n" -ge 4 ] && ok || fail "values of $1: only $n figures compared: $table"
}
check_values "$G/plain"
check_values "$Q"
if [ -n "$PIDS" ] && [ -d "$PIDS/$G/plain" ]; then
	r stats --format openmetrics "$G/plain"
	expect_match "$out" $'\nrgctl_pids_current{group="'"$G"'/plain"} 1\n' "pids current: the sleeper"
fi

# 3. --textfile DIR: Prometheus' text format, checked by promtool
mkdir "$T/tf"
r stats --textfile "$T/tf" "$G/plain" "$Q" "$B" "$O"
expect_rc 0 "--textfile"
expect_eq "$out" "" "--textfile: nothing on standard output"
expect_eq "$(ls -A "$T/tf")" "rgctl.prom" "--textfile: one file, no temporary left"
run promtool check metrics <"$T/tf/rgctl.prom"
expect_rc 0 "promtool check metrics (--textfile): $out $err"
grep -qx '# TYPE rgctl_cpu_usage_seconds_total counter' "$T/tf/rgctl.prom" && ok ||
	fail "--textfile: TYPE names the sample: $(head -20 "$T/tf/rgctl.prom")"
grep -q '^# EOF' "$T/tf/rgctl.prom" && fail "--textfile: # EOF in Prometheus' format" || ok
grep -qF "group=\"$G/a{b}=c,d\"" "$T/tf/rgctl.prom" && ok || fail "--textfile: braces, '=' and ',' as they are"
# replaced, not rewritten: a reader holding the old file keeps it whole
exec 3<"$T/tf/rgctl.prom"
old=$(stat -c %i "$T/tf/rgctl.prom")
r stats --textfile "$T/tf" "$G/plain"
expect_rc 0 "--textfile again"
[ "$(stat -c %i "$T/tf/rgctl.prom")" != "$old" ] && ok || fail "--textfile: written in place, not renamed"
expect_match "$(cat <&3)" "group=\"$G/a\{b\}" "--textfile: the old file, still open, is intact"
exec 3<&-
# a failure leaves the file as it was
cp "$T/tf/rgctl.prom" "$T/before"
r stats --textfile "$T/tf" "$G/plain" "$G/none"
expect_rc 1 "--textfile with a group that does not exist"
cmp -s "$T/tf/rgctl.prom" "$T/before" && ok || fail "--textfile: a failed run changed the file"
expect_eq "$(ls -A "$T/tf")" "rgctl.prom" "--textfile: no temporary left after a failure"
# never through a symlink: not at the name, not as the directory
echo keep >"$T/target"
rm "$T/tf/rgctl.prom"
ln -s "$T/target" "$T/tf/rgctl.prom"
r stats --textfile "$T/tf" "$G/plain"
expect_rc 1 "--textfile over a symlink"
expect_match "$err" "rgctl.prom': something other than a regular file" "--textfile over a symlink: said"
expect_eq "$(cat "$T/target")" keep "--textfile: the symlink's target unchanged"
ln -s "$T/tf" "$T/link"
r stats --textfile "$T/link" "$G/plain"
expect_rc 1 "--textfile DIR a symlink"
expect_match "$err" "not a directory \(a symbolic link is not followed\)" "--textfile DIR a symlink: said"
mkdir "$T/tf2"
ln -s "$T/tf2" "$T/link2"
for sl in / //; do	# with trailing slashes too (outfile.h)
	r stats --textfile "$T/link2$sl" "$G/plain"
	expect_rc 1 "--textfile DIR$sl a symlink"
	expect_eq "$(ls -A "$T/tf2")" "" "--textfile DIR$sl a symlink: nothing written through it"
done
r stats --textfile "$T/none" "$G/plain"
expect_rc 1 "--textfile DIR missing"
expect_match "$err" "cannot use '.*/none' for --textfile" "--textfile DIR missing: said"

# 4. -R: the groups below too; names rgctl does not take skipped, said
mkdir "$CPU/$G/sp ace" "$CPU/$G/$(printf 'utf\303\251')"
r stats --format openmetrics -R "$G"
expect_rc 0 "--format openmetrics -R"
for g in "$G" "$G/plain" "$Q" "$B" "$O"; do
	esc=$(printf '%s' "$g" | sed 's/\\/\\\\/g; s/"/\\"/g')
	printf '%s\n' "$out" | grep -qF "rgctl_cpu_usage_seconds_total{group=\"$esc\"} " && ok ||
		fail "-R: no sample for '$g'"
done
expect_match "$err" "note: 2 group\(s\) below skipped" "-R: the names rgctl does not take said"
mkdir "$T/tf2"
r stats -R --textfile "$T/tf2" "$G"
expect_rc 0 "--textfile -R"
run promtool check metrics <"$T/tf2/rgctl.prom"
expect_rc 0 "promtool check metrics (-R): $out $err"
expect_eq "$(grep -c '^rgctl_cpu_usage_seconds_total{' "$T/tf2/rgctl.prom")" 5 "--textfile -R: the 5 groups"

# 5. usage errors (exit 2)
for o in "--format bogus" "--format openmetrics --json" "--format openmetrics -o value" \
	"--format openmetrics -n" "--format openmetrics -r" "--format openmetrics -i 1" \
	"--textfile $T/tf --format openmetrics" "--textfile $T/tf --format text" "-R"; do
	r stats $o "$G/plain"
	expect_rc 2 "stats $o"
done
r --json stats --format openmetrics "$G/plain"
expect_rc 2 "--json stats --format openmetrics"
r stats --textfile "" "$G/plain"
expect_rc 2 "--textfile ''"
r stats "$G/plain" "$Q"
expect_rc 2 "two groups without --format openmetrics"
expect_match "$err" "several with --format openmetrics or --textfile" "two groups: said"
r stats --format text "$G/plain"
expect_rc 0 "--format text: the table"
expect_match "$out" '^RESOURCE +FIGURE' "--format text: the table's header"
finish
