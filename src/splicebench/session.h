/* SPDX-License-Identifier: GPL-2.0-or-later */
/* splicebench: around the measurement (session.c). */
#ifndef SPLICEBENCH_SESSION_H
#define SPLICEBENCH_SESSION_H

#include <stdbool.h>

#include "kattr/sysfacts.h"
#include "sb.h"

/* --pin checked against the CPUs this process may use (exit 2 or 1). */
void sb_check_pin(const struct sb_config *cfg);
/* --quick without --pin: both sides on one CPU (two with --busy). */
void sb_quick_pin(struct sb_config *cfg);
/* --pipe-size against pipe-max-size; the kernel's default pipe size. */
void sb_check_pipe_size(struct sb_config *cfg, const struct kattr_sysfacts *f,
			int *pipe_default);
/* --plot FILE: a target that is not a regular file is refused, now. */
void sb_check_plot_target(const char *path);
/* SIGINT: the run in progress finishes, then the report. */
void sb_catch_sigint(void);
/* Every point of the plan into rep; how many failed. */
int sb_run_all(struct sb_report *rep, struct sb_config *cfg);
/* What --huge got, said on stderr. */
void sb_report_huge(const struct sb_report *rep);
/* Corrupted data that verify found, said per point: whether any. */
bool sb_report_corruption(const struct sb_report *rep);

#endif
