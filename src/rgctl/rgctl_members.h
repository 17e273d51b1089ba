/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rgctl members -o (members_out.c), called by cmd_task.c. */
#ifndef RGCTL_MEMBERS_H
#define RGCTL_MEMBERS_H

#include <stdbool.h>
#include <sys/types.h>

#include "rgctl.h"

/* --help: the columns. */
void rgctl_members_columns_help(void);
/* The members pids[0..n) with the columns of list (-o: PID, COMM, ARGS),
 * as a table or JSON. */
void rgctl_members_table(const struct rgctl_cmd *cmd, const char *list,
			 const char *group, bool tasks, bool json,
			 const pid_t *pids, size_t n);

#endif
