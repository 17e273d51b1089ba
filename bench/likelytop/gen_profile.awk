# gen_profile.awk -v n=200000 -v seed=1 [-v fmt=all]: a /proc/likely_prof
# snapshot with n sites, shaped like a large kernel's (long paths, skewed
# counts), or with fmt=all the tracefs branch_all of such a kernel
# (CONFIG_PROFILE_ALL_BRANCHES: "%8lu %8lu %3ld %-30.30s %-20.20s %d").
# The sites (names, hints) depend only on n; seed changes only the counts,
# so two seeds are two snapshots of one program.
BEGIN {
	srand(seed);
	split("kernel mm fs net drivers arch/x86 block security sound crypto", top, " ");
	if (fmt == "all") {
		print "   miss      hit    %        Function                  File              Line";
		print " ------- ---------  -        --------                  ----              ----";
		for (i = 0; i < n; i++) {
			miss = int(rand() * 100000);
			hit = int(rand() * 4294967295 * (rand() < 0.05 ? 1 : 0.0001));
			printf "%8u %8u %3d %-30.30s %-20.20s %d\n", miss, hit,
			       miss + hit ? int(hit * 100 / (miss + hit)) : 0,
			       sprintf("fn_%d_%x", i, i * 2654435761 % 65536),
			       sprintf("file_%d.c", i % 1013), 1 + i % 4000;
		}
		exit;
	}
	print "Likely Profiling Results";
	print " --------------------------------------------------------------------";
	print "[+- ] Type | # True | # False | Function:Filename@Line";
	for (i = 0; i < n; i++) {
		hi = int(rand() * 4294967295 * (rand() < 0.05 ? 1 : 0.0001));
		lo = int(rand() * 100000);
		h = (i * 2654435761) % 4294967296;
		likely = h % 2;
		wrong = (int(h / 2) % 5) == 0;
		t = likely ? (wrong ? lo : hi) : (wrong ? hi : lo);
		f = likely ? (wrong ? hi : lo) : (wrong ? lo : hi);
		flag = " ";
		if (!likely && t > f) flag = "+";
		if (likely && t < f) flag = "-";
		printf "%s%s|%9u|%9u\tfn_%d_%x()@:%s/sub%d/file_%d.c@%d\n", flag,
		       likely ? "likely   " : "unlikely ", t, f, i, i * 2654435761 % 65536,
		       top[i % 10 + 1], i % 97, i % 1013, 1 + i % 4000;
	}
}
