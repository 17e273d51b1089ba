// SPDX-License-Identifier: GPL-2.0-or-later
/* The command table: add a command by adding its file and one line here. */
#include "rgctl.h"

extern const struct rgctl_cmd rgctl_cmd_list, rgctl_cmd_create,
	rgctl_cmd_delete, rgctl_cmd_shares, rgctl_cmd_attach,
	rgctl_cmd_members, rgctl_cmd_stats, rgctl_cmd_exec, rgctl_cmd_whereis;
/* issue 4 (classify, apply, delay): stats_delay wraps stats and adds --delay. */
extern const struct rgctl_cmd rgctl_cmd_stats_delay, rgctl_cmd_apply,
	rgctl_cmd_dump, rgctl_cmd_classify;
/* issue 26: a group's resources by key */
extern const struct rgctl_cmd rgctl_cmd_set, rgctl_cmd_get;
/* issue 27: the live view (rgctl-top) */
extern const struct rgctl_cmd rgctl_cmd_top;

const struct rgctl_cmd *const rgctl_commands[] = {
	&rgctl_cmd_list,
	&rgctl_cmd_create,
	&rgctl_cmd_delete,
	&rgctl_cmd_shares,
	&rgctl_cmd_set,
	&rgctl_cmd_get,
	&rgctl_cmd_attach,
	&rgctl_cmd_members,
	&rgctl_cmd_stats_delay,
	&rgctl_cmd_top,
	&rgctl_cmd_exec,
	&rgctl_cmd_whereis,
	&rgctl_cmd_apply,
	&rgctl_cmd_dump,
	&rgctl_cmd_classify,
	&rgctl_cmd_help_cmd,
	NULL,
};
