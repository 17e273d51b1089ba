// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * callers_prog N [GO_FILE [ROUNDS]]: a hinted function, hinted(p) with
 * unlikely(!p), called from three places at known, different rates of
 * the unlikely case (NULL):
 *   caller_a: 3N calls, 1 in 100 NULL  (3N/100 wrong)
 *   caller_b: 2N calls, 1 in 4 NULL    (2N/4 wrong)
 *   caller_c:  N calls, 3 in 5 NULL    (3N/5 wrong)
 * Built with LIKELY_PROF and LIKELY_PROF_CALLERS (tests/likelytop/callers_user.sh).
 * With GO_FILE, it waits (at most 60 s) until that file exists before
 * calling, so that a tracer can attach first; it prints its pid first.
 * With ROUNDS, it calls ROUNDS times, waiting for GO_FILE.1, GO_FILE.2,
 * ... before each (the live view's test).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "likely_prof.h"

static volatile long sink;

/* noipa (GCC): neither inlined nor cloned, so each caller calls the
 * symbol; clang has no such attribute and clones nothing here */
#if defined(__has_attribute) && __has_attribute(noipa)
# define NOIPA __attribute__((noipa))
#else
# define NOIPA __attribute__((noinline))
#endif

/* on the declaration: the definition's line is read for its name */
NOIPA int hinted(const char *p);
int hinted(const char *p)
{
	if (unlikely(!p))
		return 0;
	sink += *p;
	return 1;
}

NOIPA static void caller_a(long n)
{
	for (long i = 0; i < 3 * n; i++)
		hinted(i % 100 == 0 ? NULL : "a");
}

NOIPA static void caller_b(long n)
{
	for (long i = 0; i < 2 * n; i++)
		hinted(i % 4 == 0 ? NULL : "b");
}

NOIPA static void caller_c(long n)
{
	for (long i = 0; i < n; i++)
		hinted(i % 5 < 3 ? NULL : "c");
}

static void wait_for(const char *path)
{
	struct timespec pause = { 0, 10 * 1000 * 1000 };

	for (int i = 0; i < 6000 && access(path, F_OK) != 0; i++)
		nanosleep(&pause, NULL);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;
	int rounds = argc > 3 ? atoi(argv[3]) : 0;
	char go[4096];

	if (argc > 2) {
		printf("%d\n", (int)getpid());
		fflush(stdout);
	}
	for (int r = 1; r <= (rounds > 0 ? rounds : 1); r++) {
		if (argc > 3)
			snprintf(go, sizeof(go), "%s.%d", argv[2], r);
		if (argc > 2)
			wait_for(argc > 3 ? go : argv[2]);
		caller_a(n);
		caller_b(n);
		caller_c(n);
	}
	return 0;
}
