/* SPDX-License-Identifier: GPL-2.0-or-later */
/* splicebench: statistics over runs (stats.c, pure). */
#ifndef SPLICEBENCH_STATS_H
#define SPLICEBENCH_STATS_H

#include <stdint.h>

struct sb_stats {
	double median, min, max;
	double spread;		/* (max - min) / median, 0 when median is 0 */
	int n;
};
/* Sort a copy of v[0..n) and fill *st.  -EINVAL when n < 1. */
int sb_stats_compute(const double *v, int n, struct sb_stats *st);
/* CPU seconds per GB (10^9 bytes); 0 when no bytes moved. */
double sb_cpu_s_per_gb(double cpu_seconds, uint64_t bytes);
/* GB/s (10^9 bytes per second); 0 when the time is not positive. */
double sb_gbps(uint64_t bytes, double seconds);

#endif
