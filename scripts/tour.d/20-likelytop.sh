# likelytop: which likely()/unlikely() hints are wrong.  Stock kernels have
# no branch profiler, so the tour shows what likelytop says about that, the
# 2006 kfree story from a saved /proc/likely_prof, and a profiled user-space
# program run under --exec (a stand-in that writes the same format).
LT="$B/src/likelytop/likelytop"
LTDATA="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/tests/likelytop"
shstep "likelytop: what this machine offers (a stock kernel has no branch profiler)" \
	"'$LT' -b || true"
step "likelytop: a saved /proc/likely_prof; kfree's unlikely(!objp) is wrong 55% of the time" \
	"$LT" -b -f "$LTDATA/data/likely_prof.txt"
shstep "likelytop: only the wrong hints, as JSON, for a script" \
	"'$LT' -b -f '$LTDATA/data/likely_prof.txt' --wrong-only --format json | jq -c '.[] | {function, miss_pct}'"
step "likelytop: a profiled program under --exec, two snapshots a second apart and the final one" \
	"$LT" -b -n 2 -d 1 --format csv --exec -- "$LTDATA/fake_writer.sh" 12 0.2
