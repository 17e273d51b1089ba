# likely_prof.h: the suite profiles its own hints.  The suite is built again
# with -DLIKELY_PROF=ON (in $B-prof); a profiled likelytop sorts a large
# /proc/likely_prof-style profile and writes its own profile in that same
# format; the ordinary likelytop then shows which of its own likely()/
# unlikely() hints were right, and follows a profiled likelytop with --exec.
LP_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
LP_B="$B-prof"
LP_T="$LP_B/tour"
LT="$B/src/likelytop/likelytop"
if "$LT" --help | grep -q -- '--exec'; then
	lp_targets="likelytop"
else
	lp_targets="test_lib_mountinfo"	# this likelytop does not read profiles yet
fi
shstep "likely_prof.h: build the suite with its own hints profiled (-DLIKELY_PROF=ON, in $LP_B)" \
	"cmake -S '$LP_TOP' -B '$LP_B' -DLIKELY_PROF=ON >'$LP_B.log' 2>&1 &&
		cmake --build '$LP_B' --target $lp_targets -j2 >>'$LP_B.log' 2>&1 && echo built ||
		{ tail -20 '$LP_B.log'; exit 1; }"
rm -rf "$LP_T"
mkdir -p "$LP_T/prof"
if [ "$lp_targets" = likelytop ]; then
	awk -v n=50000 -v seed=1 -f "$LP_TOP/bench/likelytop/gen_profile.awk" >"$LP_T/kernel.txt"
	shstep "likely_prof.h: the profiled likelytop sorts a 50,000-site profile (its own profile goes to \$LIKELY_PROF_DIR/<pid>)" \
		"LIKELY_PROF_DIR='$LP_T/prof' '$LP_B/src/likelytop/likelytop' -b -f '$LP_T/kernel.txt' --format csv | wc -l; ls '$LP_T/prof'"
	shstep "likely_prof.h: likelytop on likelytop's own profile: which of its hints were right" \
		"'$LT' -b -f '$LP_T/prof/'[0-9]*"
	shstep "likely_prof.h: likelytop --exec follows a profiled likelytop (2 snapshots, then the final one)" \
		"'$LT' -b -n 2 -d 0.5 --exec -- '$LP_B/src/likelytop/likelytop' -b -n 4 -d 0.2 -f '$LP_T/kernel.txt' --format csv 2>/dev/null"
else
	shstep "likely_prof.h: libkattr's mountinfo parser, profiled, in the /proc/likely_prof format" \
		"LIKELY_PROF_DIR='$LP_T/prof' '$LP_B/tests/lib/core/test_lib_mountinfo' >/dev/null 2>&1 && cat '$LP_T/prof/'[0-9]*"
fi
