// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The cgroup v2 backend: cpu.weight where every group above enables cpu in
 * its cgroup.subtree_control (ctl.c), whole processes moved through
 * cgroup.procs, threads listed by cgroup.threads, and the no-internal-
 * processes rule that makes moving tasks out of a group climb.
 */
#include <errno.h>
#include <stdbool.h>

#include "kattr/rg.h"
#include "kattr/private_rg.h"
#include "rg_internal.h"

static int cgroup2_open(struct kattr_rg *rg, const struct mnt_found *f,
			const char *root, const struct mnt_table *t)
{
	int ret = rg_cgroup_open(rg, f, root);

	(void)t;
	if (ret < 0)
		return ret;
	/* cpu available here; enabled below it or not (cpu.weight exists
	 * only where every group above enables it). */
	rg->has_shares = rg_file_has_word(rg->m, "cgroup.controllers",
					  "cpu") > 0 ||
			 rg_file_has_word(rg->m, "cgroup.subtree_control",
					  "cpu") > 0;
	return 0;
}

/* Whole processes; a parent that may hold none (EBUSY): the next one up. */
static int cgroup2_evacuate(struct kattr_rg *rg, const char *group)
{
	return rg_cgroup_evacuate(rg, group, KATTR_RG_THREADS, true);
}

/* The figures: cpu.stat, memory.*, io.stat, pids.*, PSI (rgstats.c). */
static int cgroup2_stats(struct kattr_rg *rg, const char *group,
			 struct kattr_rg_stat **v, size_t *n)
{
	return rg_stats_figures(rg, group, v, n);
}

const struct rg_ops rg_cgroup2_ops = {
	.id = KATTR_RG_CGROUP2,
	.fstype = "cgroup2",
	.magic = KATTR_MAGIC_CGROUP2, .shares_file = "cpu.weight",
	.tasks_file = "cgroup.threads", .procs_file = "cgroup.procs",
	.attach_task = "cgroup.procs", .attach_proc = "cgroup.procs",
	.delegates = true,
	.open = cgroup2_open,
	.evacuate = cgroup2_evacuate,
	.attach = rg_attach_pid,
	.members = rg_members_read,
	.shares_read = rg_cgroup_shares_read,
	.stats = cgroup2_stats,
	.whereis = rg_cgroup_whereis,
};
