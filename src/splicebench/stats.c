// SPDX-License-Identifier: GPL-2.0-or-later
/* splicebench: statistics over runs.  Pure functions, unit-tested. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int sb_stats_compute(const double *v, int n, struct sb_stats *st)
{
	double *s;

	if (n < 1)
		return -EINVAL;
	s = malloc(sizeof(*s) * (size_t)n);
	if (!s)
		return -ENOMEM;
	memcpy(s, v, sizeof(*s) * (size_t)n);
	qsort(s, (size_t)n, sizeof(*s), cmp_double);
	st->n = n;
	st->min = s[0];
	st->max = s[n - 1];
	st->median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	st->spread = st->median > 0 ? (st->max - st->min) / st->median : 0;
	free(s);
	return 0;
}

double sb_cpu_s_per_gb(double cpu_seconds, uint64_t bytes)
{
	return bytes ? cpu_seconds / ((double)bytes / 1e9) : 0;
}

double sb_gbps(uint64_t bytes, double seconds)
{
	return seconds > 0 ? (double)bytes / 1e9 / seconds : 0;
}
