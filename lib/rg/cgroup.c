// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What cgroup v1 and cgroup v2 share: a root's place in its hierarchy (as
 * /proc/PID/cgroup names it), moving a group's tasks out before rmdir,
 * shares as one number, and a task's group from /proc/PID/cgroup.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kattr/rg.h"
#include "kattr/private_rg.h"
#include "rg_internal.h"

int rg_cgroup_open(struct kattr_rg *rg, const struct mnt_found *f,
		   const char *root)
{
	size_t mlen;
	int ret;

	ret = kattr_mount_open_at(rg->root, root, rg->ops->magic, 0, &rg->m);
	if (ret < 0)
		return ret;
	/* Where root lies within the hierarchy, as /proc/PID/cgroup says. */
	mlen = strcmp(f->mount_point, "/") ? strlen(f->mount_point) : 0;
	rg->sub = strdup(root + mlen);
	if (!rg->sub)
		return -ENOMEM;
	if (strcmp(rg->sub, "/") == 0)
		rg->sub[0] = '\0';
	if (asprintf(&rg->prefix, "%s%s", strcmp(f->root, "/") ? f->root : "",
		     root + mlen) < 0) {
		rg->prefix = NULL;
		return -ENOMEM;
	}
	if (strcmp(rg->prefix, "/") == 0)
		rg->prefix[0] = '\0';
	return 0;
}

/* The group above group ("/" above a top-level group), in place. */
static void up_one(char *group)
{
	char *slash = strrchr(group, '/');

	if (slash && slash != group)
		*slash = '\0';
	else
		strcpy(group, "/");
}

/*
 * Move every task of group to its parent (rmdir would fail).  On cgroup v2
 * (climb) a parent with a controller enabled for children that have
 * processes may hold none itself (EBUSY): the tasks go to the nearest
 * ancestor that takes them, at worst the hierarchy's root.
 */
int rg_cgroup_evacuate(struct kattr_rg *rg, const char *group,
		       unsigned int flags, bool climb)
{
	struct kattr_rg_target *t;
	char parent[PATH_MAX];
	pid_t *pids;
	size_t n, i = 0;
	int ret;

	snprintf(parent, sizeof(parent), "%s", group);
	up_one(parent);
	ret = rg_read_pids(rg, group, flags ? rg->ops->procs_file :
			   rg->ops->tasks_file, &pids, &n);
	if (ret < 0)
		return ret;
	for (; n; up_one(parent)) {
		ret = rg_target_open(rg, parent, flags, &t);
		if (ret < 0)
			break;
		for (; i < n && ret == 0; i++) {
			ret = kattr_rg_target_attach(t, pids[i]);
			if (ret == -ESRCH)	/* it exited meanwhile */
				ret = 0;
		}
		kattr_rg_target_close(t);
		if (ret != -EBUSY || !climb || !strcmp(parent, "/"))
			break;
		i--;			/* that task again, one level up */
	}
	free(pids);
	return ret;
}

/* cpu.shares or cpu.weight: one number, res "cpu". */
int rg_cgroup_shares_read(struct kattr_rg *rg, const char *group,
			  const char *path, struct kattr_rg_share **out,
			  size_t *n)
{
	struct kattr_rg_share *s;
	uint64_t v;
	int ret;

	ret = kattr_read_u64(rg->m, path, &v);
	if (ret == -ENOENT && rg_settle(rg, group, rg->ops->shares_file) > 0)
		ret = kattr_read_u64(rg->m, path, &v);
	if (ret == -ENOENT)
		return -EOPNOTSUPP;	/* v2 root, or cpu not enabled here */
	if (ret == -EINVAL || ret == -ERANGE)
		ret = -EBADMSG;		/* not a number */
	if (ret < 0)
		return ret;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	strcpy(s->res, "cpu");
	s->value = (long long)v;
	*out = s;
	*n = 1;
	return 0;
}

/* /proc/PID/cgroup: the line of this hierarchy (v1: by its controllers). */
int rg_cgroup_whereis(struct kattr_rg *rg, pid_t pid, char **group)
{
	char rel[64], *text, *path;
	int ret;

	snprintf(rel, sizeof(rel), "/proc/%d/cgroup", (int)pid);
	ret = kattr_root_file_read(rg->root, rel, &text, NULL);
	if (ret == -ENOENT)
		return -ESRCH;
	if (ret < 0)
		return ret;
	ret = kattr_rg_parse_proc_cgroup(text, rg->ctrls, &path);
	free(text);
	if (ret == -EINVAL)
		ret = -EBADMSG;
	if (ret < 0)
		return ret;
	ret = rg_group_below(path, rg->prefix, group);
	free(path);
	if (ret == 0 && !*group)
		return -ENOENT;	/* outside the part of the tree we manage */
	return ret;
}
