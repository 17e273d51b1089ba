// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * callers_sprog N GO_FILE: sdiff(x), hinted unlikely(x < 0) on a signed
 * int, called 8N times from one caller, every 8th time with a negative
 * value (N wrong).  It prints its pid, then waits (at most 60 s) until
 * GO_FILE exists, so that a uprobe can attach first
 * (tests/likelytop/callers_uprobe.sh: a signed argument's condition).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "likely_prof.h"

#if defined(__has_attribute) && __has_attribute(noipa)
# define NOIPA __attribute__((noipa))
#else
# define NOIPA __attribute__((noinline))
#endif

static volatile long sink;

NOIPA int sdiff(int x);
int sdiff(int x)
{
	if (unlikely(x < 0))
		return -x;
	return x;
}

NOIPA static void caller(long n)
{
	for (long i = 0; i < 8 * n; i++)
		sink += sdiff(i % 8 == 0 ? (int)(-i - 1) : (int)i);
}

int main(int argc, char **argv)
{
	struct timespec pause = { 0, 10 * 1000 * 1000 };
	long n = argc > 1 ? atol(argv[1]) : 1000;

	printf("%d\n", (int)getpid());
	fflush(stdout);
	for (int i = 0; argc > 2 && i < 6000 && access(argv[2], F_OK) != 0; i++)
		nanosleep(&pause, NULL);
	caller(n);
	return 0;
}
