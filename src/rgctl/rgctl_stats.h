/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rgctl stats: its options, shared by cmd_stats.c and cmd_delay.c (--delay). */
#ifndef RGCTL_STATS_H
#define RGCTL_STATS_H

#include <getopt.h>
#include <stdio.h>

#include "openmetrics.h"

#include "rgctl.h"

enum { OPT_STATS_DELAY = OPT_CMD_FIRST + 8, OPT_STATS_FORMAT = OPT_CMD_FIRST + 13,
       OPT_STATS_TEXTFILE = OPT_CMD_FIRST + 14 };

extern const struct option rgctl_stats_opts[];
extern const char *const rgctl_stats_help[];
void rgctl_stats_help_more(void);

/* --format openmetrics, --textfile (stats_om.c): one group's figures. */
struct rgctl_om_group {
	const char *group;
	const struct kattr_rg_stat *v;
	size_t n;
};
/*
 * The metric name of figure s into buf (room size, at least 32): see
 * stats_om.c; *unit "seconds", "bytes", "ratio" or NULL, *div what the
 * value is divided by.  -ENODATA for a figure without a value.
 */
int rgctl_om_metric(const struct kattr_rg_stat *s, char *buf, size_t size,
		    const char **unit, double *div);
/* The groups' figures as metrics in dialect d; 0, or -errno of the
 * writer (write errors: ferror(fp)). */
int rgctl_stats_om_write(FILE *fp, enum tool_om_dialect d,
			 const struct rgctl_om_group *g, size_t ng);

#endif
