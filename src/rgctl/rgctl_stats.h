/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rgctl stats: its options, shared by cmd_stats.c and cmd_delay.c (--delay). */
#ifndef RGCTL_STATS_H
#define RGCTL_STATS_H

#include <getopt.h>

#include "rgctl.h"

enum { OPT_STATS_DELAY = OPT_CMD_FIRST + 8 };

extern const struct option rgctl_stats_opts[];
extern const char *const rgctl_stats_help[];
void rgctl_stats_help_more(void);

#endif
