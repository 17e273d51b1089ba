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
#include "kattr/private.h"
#include "internal.h"
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

/* cpu.stat, and cpuacct.usage as key "usage" of res "cpuacct". */
static int cgroup1_stats(struct kattr_rg *rg, const char *group,
			 struct kattr_rg_stat **v, size_t *n)
{
	struct kattr_mount *am = NULL;
	char path[PATH_MAX], *text, *line;
	int ret = rg_stats_file(rg->m, group, "cpu.stat", "cpu", v, n);

	if (ret == -ENOENT)
		ret = 0;	/* a v1 hierarchy without cpu */
	if (ret < 0 || rg_hier_mount(rg, "cpuacct", &am) < 0)
		return ret;
	ret = rg_gpath(path, sizeof(path), group, "cpuacct.usage");
	if (ret < 0 || kattr_read_alloc(am, path, &text, NULL) < 0)
		return ret;
	if (asprintf(&line, "usage %s", text) < 0) {
		ret = -ENOMEM;
	} else {
		ret = kattr_rg_parse_keyed(line, "cpuacct", v, n);
		free(line);
	}
	free(text);
	return ret;
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
