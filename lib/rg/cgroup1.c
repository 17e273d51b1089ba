// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The cgroup v1 backend: the hierarchy with the cpu controller (cpu.shares),
 * tasks moved one thread at a time through tasks (cgroup.procs for whole
 * processes), cpuacct either co-mounted or on a hierarchy of its own.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kattr/rg.h"
#include "kattr/private_rg.h"
#include "rg_internal.h"

/* Searching: only a hierarchy with cpu. */
static bool cgroup1_mount_ok(const struct mnt_found *f)
{
	return kattr_opt_has(f->super_opts, "cpu");
}

/* The root's hierarchy, and the others a group spans (hier.c), from the
 * one mount table of the open. */
static int cgroup1_open(struct kattr_rg *rg, const struct mnt_found *f,
			const char *root, const struct mnt_table *t)
{
	int ret = rg_cgroup_open(rg, f, root);

	if (ret < 0)
		return ret;
	rg->ctrls = rg_v1_controllers(f->super_opts);
	if (!rg->ctrls)
		return -ENOMEM;
	rg->has_shares = kattr_opt_has(rg->ctrls, "cpu");
	return rg_hier_init(rg, f, t);
}

/* Threads one by one (tasks): v1 lets a process's threads differ. */
static int cgroup1_evacuate(struct kattr_rg *rg, const char *group)
{
	return rg_cgroup_evacuate(rg, group, 0, false);
}

/* The figures, each from its controller's hierarchy (rgstats.c). */
static int cgroup1_stats(struct kattr_rg *rg, const char *group,
			 struct kattr_rg_stat **v, size_t *n)
{
	return rg_stats_figures(rg, group, v, n);
}

const struct rg_ops rg_cgroup1_ops = {
	.id = KATTR_RG_CGROUP1,
	.fstype = "cgroup",
	.magic = KATTR_MAGIC_CGROUP1, .shares_file = "cpu.shares",
	.tasks_file = "tasks", .procs_file = "cgroup.procs",
	.attach_task = "tasks", .attach_proc = "cgroup.procs",
	.mount_ok = cgroup1_mount_ok,
	.open = cgroup1_open,
	.mkdir = rg_v1_mkdir,
	.mkdir_parent = rg_v1_mkdir_parent,
	.evacuate = cgroup1_evacuate,
	.rmdir = rg_v1_rmdir,
	.attach = rg_attach_pid,
	.span_open = rg_v1_span_open,
	.span_attach = rg_v1_span_attach,
	.span_missing = rg_v1_missing,
	.span_disagree = rg_v1_disagree,
	.members = rg_members_read,
	.shares_read = rg_cgroup_shares_read,
	.stats = cgroup1_stats,
	.whereis = rg_cgroup_whereis,
};
