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

/* The controllers of a v1 hierarchy, from its super options. */
static char *v1_controllers(const char *opts)
{
	static const char *const not_ctrl[] = {
		"rw", "ro", "noprefix", "clone_children", "xattr",
		"cpuset_v2_mode", "favordynmods", "nofavordynmods", "none",
	};
	char *out = calloc(1, strlen(opts) + 1), *w = out;
	const char *p = opts;

	if (!out)
		return NULL;
	while (*p) {
		const char *c = strchr(p, ',');
		size_t len = c ? (size_t)(c - p) : strlen(p);
		bool skip = len == 0 || (len > 14 && !strncmp(p, "release_agent=", 14));

		for (size_t i = 0; !skip && i < sizeof(not_ctrl) / sizeof(*not_ctrl); i++)
			skip = strlen(not_ctrl[i]) == len && !strncmp(p, not_ctrl[i], len);
		if (!skip) {
			if (w != out)
				*w++ = ',';
			memcpy(w, p, len);
			w += len;
		}
		p += len + (c ? 1 : 0);
	}
	*w = '\0';
	return out;
}

/* Searching: only a hierarchy with cpu. */
static bool cgroup1_mount_ok(const struct mnt_found *f)
{
	return kattr_opt_has(f->super_opts, "cpu");
}

static int cgroup1_open(struct kattr_rg *rg, const struct mnt_found *f,
			const char *root)
{
	struct kattr_mount *a;
	int ret = rg_cgroup_open(rg, f, root);

	if (ret < 0)
		return ret;
	rg->ctrls = v1_controllers(f->super_opts);
	if (!rg->ctrls)
		return -ENOMEM;
	rg->has_shares = kattr_opt_has(rg->ctrls, "cpu");
	rg->acct_comounted = kattr_opt_has(rg->ctrls, "cpuacct");
	if (!rg->acct_comounted &&
	    kattr_mount_find("cgroup", "cpuacct", KATTR_MAGIC_CGROUP1, 0,
			     &a) == 0)
		rg->acct = a;
	return 0;
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
	.evacuate = cgroup1_evacuate,
	.attach = rg_attach_pid,
	.members = rg_members_read,
	.shares_read = rg_cgroup_shares_read,
	.stats = cgroup1_stats,
	.whereis = rg_cgroup_whereis,
};
