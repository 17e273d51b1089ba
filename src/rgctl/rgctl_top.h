/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rgctl top: its options and columns, shared by rgctl (cmd_top.c checks
 * the line, opens the hierarchy and execs the view) and rgctl-top
 * (src/rgtop: the view, batch and live), which rgctl execs so that rgctl
 * itself never maps ncurses.
 */
#ifndef RGCTL_TOP_H
#define RGCTL_TOP_H

#include <getopt.h>

#include "rgctl.h"

enum top_col {
	TC_GROUP, TC_TASKS, TC_CPU, TC_WEIGHT, TC_EXPECT, TC_SHARE,
	TC_MEM, TC_MEMHIGH, TC_MEMMAX, TC_OOM, TC_IOR, TC_IOW,
	TC_PIDS, TC_PIDSMAX, TC_PIDSEV, TC_THROTTLED,
	TC_PSICPU, TC_PSIMEM, TC_PSIIO,
	TC_N
};
extern const struct tool_column rgctl_top_columns[TC_N];
/* -o, --help: the table above with its defaults. */
extern const struct tool_columns rgctl_top_table;
/* Each column's key in JSON ("cpu_pct"). */
extern const char *const rgctl_top_json_keys[TC_N];
extern const int rgctl_top_default_cols[];
extern const size_t rgctl_top_ndefault;

enum { OPT_TOP_OUTPUT_ALL = OPT_CMD_FIRST + 16 };
/* -b -n -d as systemd-cgtop has them; -b is --batch here, not --backend */
#define RGCTL_TOP_SHORTOPTS "bn:d:o:s:F"
extern const struct option rgctl_top_opts[];
extern const char *const rgctl_top_help[];

/* Sort keys: a column, or systemd-cgtop's letters p t c m i. */
int rgctl_top_sort_key(const char *arg);

/* Where rgctl finds rgctl-top: next to itself (the build tree), else here. */
#define RGCTL_TOP_NAME "rgctl-top"

#endif
