// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The RGCS backend: the 2006 configfs interface (res_groups), or its FUSE
 * emulator (fuse.rgcsfs).  Groups nest at most KATTR_RG_RGCS_DEPTH deep,
 * rmdir moves a group's members to its parent, one members file lists and
 * takes tasks, shares are per controller (res=), and a task's group is in
 * /proc/PID/task/TID/res_group (rgcs-abi.md).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kattr/rg.h"
#include "kattr/private_rg.h"
#include "rg_internal.h"

#define RGCSFS_FSTYPE	"fuse.rgcsfs"

/* The res_groups directory: root itself, or res_groups below it. */
static int rgcs_open(struct kattr_rg *rg, const struct mnt_found *f,
		     const char *root, const struct mnt_table *t)
{
	unsigned long magic = rg->ops->magic;
	const char *base = strrchr(root, '/');
	char dir[PATH_MAX];
	int ret;

	(void)t;
	if (strcmp(f->fstype, RGCSFS_FSTYPE) == 0)
		magic = KATTR_MAGIC_FUSE;
	base = base ? base + 1 : root;
	if (strcmp(base, "res_groups") == 0)
		ret = snprintf(dir, sizeof(dir), "%s", root);
	else
		ret = snprintf(dir, sizeof(dir), "%s%sres_groups", root,
			       strcmp(root, "/") ? "/" : "");
	if (ret < 0 || (size_t)ret >= sizeof(dir))
		return -ENAMETOOLONG;
	ret = kattr_mount_open_at(rg->root, dir, magic, 0, &rg->m);
	if (ret == -ENOENT || ret == -ENOTDIR)
		ret = -EMEDIUMTYPE;	/* no res_groups there */
	if (ret < 0)
		return ret;
	rg->has_shares = true;
	return 0;
}

static int rgcs_create_check(const struct kattr_rg *rg, const char *group,
			     struct kattr_why *r)
{
	unsigned int depth = kattr_rg_name_depth(group);

	(void)rg;
	if (depth > KATTR_RG_RGCS_DEPTH)
		return rg_reason(r, KATTR_RG_WHY_DEPTH, -EMLINK,
				 "it would be %u levels deep; RGCS groups nest at most %d levels below the root",
				 depth, KATTR_RG_RGCS_DEPTH);
	return 0;
}

static int rgcs_mkdir(struct kattr_rg *rg, const char *name, bool fill,
		      unsigned int *made, struct kattr_why *r)
{
	int ret = rg_mkdir_in(rg, 0, rg->m, name);

	(void)fill;
	(void)r;
	if (ret == 0)
		*made = 1u;
	return ret == -ENOMEM ? -EMLINK : ret;	/* too deep */
}

/* ---- tasks ---------------------------------------------------------------- */

/* A task's group as /proc/PID/task/TID/res_group says ("/db"). */
static int res_group_of(const struct kattr_root *root, pid_t pid, pid_t tid,
			char **text)
{
	char rel[96];
	size_t len;
	int ret;

	snprintf(rel, sizeof(rel), "/proc/%d/task/%d/res_group", (int)pid, (int)tid);
	ret = kattr_root_file_read(root, rel, text, &len);
	if (ret < 0)
		return ret;
	while (len && (*text)[len - 1] == '\n')
		(*text)[--len] = '\0';
	return 0;
}

struct members_scan {
	const struct kattr_root *root;
	const char *want;	/* "/db" */
	struct kattr_pid_vec found;
};

/* One process of /proc: its threads in the group wanted. */
static int members_cb(pid_t pid, void *data)
{
	struct members_scan *ms = data;
	pid_t *tids;
	size_t ntids;
	int ret = 0;

	if (kattr_proc_tids(ms->root, pid, &tids, &ntids) < 0)
		return 0;
	for (size_t i = 0; i < ntids && ret == 0; i++) {
		char *text;

		if (res_group_of(ms->root, pid, tids[i], &text) < 0)
			continue;
		if (strcmp(text, ms->want) == 0)
			ret = kattr_pid_vec_add(tids[i], &ms->found);
		free(text);
	}
	free(tids);
	return ret;
}

/* Scan /proc/PID/task/TID/res_group for the tasks of group. */
static int members_from_proc(const struct kattr_root *root, const char *group,
			     pid_t **out, size_t *nout)
{
	char want[PATH_MAX], *text;
	struct members_scan ms = { .root = root, .want = want };
	int ret;

	if (kattr_root_file_read(root, "/proc/self/res_group", &text, NULL) < 0)
		return -ENOSPC;		/* no other way to list them */
	free(text);
	snprintf(want, sizeof(want), "/%s", kattr_rg_name_is_root(group) ? "" : group);
	ret = kattr_proc_foreach_at(root, 0, members_cb, &ms);
	if (ret < 0) {
		free(ms.found.v);
		return ret;
	}
	*out = ms.found.v;
	*nout = ms.found.n;
	return 0;
}

/* The members file, or /proc when it is longer than one page. */
static int rgcs_members(struct kattr_rg *rg, const char *group,
			unsigned int flags, pid_t **pids, size_t *n)
{
	int ret = rg_members_read(rg, group, flags, pids, n);

	if (ret == -ENOSPC)
		ret = members_from_proc(rg->root, group, pids, n);
	return ret;
}

/* ---- shares and stats ------------------------------------------------------ */

static int rgcs_shares_read(struct kattr_rg *rg, const char *group,
			    const char *path, struct kattr_rg_share **out,
			    size_t *n)
{
	char *text;
	int ret;

	(void)group;
	ret = kattr_read_alloc(rg->m, path, &text, NULL);
	if (ret < 0)
		return ret;
	ret = kattr_rg_parse_rgcs_shares(text, out, n);
	free(text);
	return ret == -EINVAL ? -EBADMSG : ret;
}

static int rgcs_stats(struct kattr_rg *rg, const char *group,
		      struct kattr_rg_stat **v, size_t *n)
{
	char *text;
	int ret = rg_group_read(rg, group, "stats", &text);

	if (ret < 0)
		return ret;
	ret = kattr_rg_parse_rgcs_stats(text, v, n);
	free(text);
	return ret;
}

/* ---- whereis ------------------------------------------------------------- */

struct find_task {
	pid_t pid;
	char *group;
	int unreadable;		/* the first error reading a members list */
};

static int find_task_cb(struct kattr_rg *rg, const char *group,
			unsigned int depth, void *data)
{
	struct find_task *ft = data;
	pid_t *pids;
	size_t n;
	bool hit;

	int ret;

	if (depth == 0)
		return 0;	/* the root lists only tasks moved back to it */
	ret = rg_read_pids(rg, group, rg->ops->tasks_file, &pids, &n);
	if (ret < 0 && kattr_rg_group_gone(ret))
		return WALK_GONE;
	if (ret < 0) {
		/* It may be in there: unless it is found elsewhere, the
		 * answer is "cannot tell", never the root. */
		if (!ft->unreadable)
			ft->unreadable = ret;
		return 0;
	}
	hit = kattr_pid_in(pids, n, ft->pid);
	free(pids);
	if (!hit)
		return 0;
	ft->group = strdup(group);
	return ft->group ? WALK_STOP : -ENOMEM;
}

static int rgcs_whereis(struct kattr_rg *rg, pid_t pid, char **group)
{
	struct find_task ft = { .pid = pid };
	char rel[96], *text;
	int ret;

	ret = res_group_of(rg->root, pid, pid, &text);
	if (ret == 0) {
		if (text[0] != '/') {
			free(text);
			return -EBADMSG;
		}
		*group = strdup(text[1] ? text + 1 : "/");
		free(text);
		return *group ? 0 : -ENOMEM;
	}
	/* No /proc/PID/res_group (an emulator): look in every group. */
	snprintf(rel, sizeof(rel), "/proc/%d/task/%d", (int)pid, (int)pid);
	ret = kattr_root_open_path(rg->root, rel, O_PATH);
	if (ret < 0)
		return ret == -ENOENT ? -ESRCH : ret;
	close(ret);
	ret = rg_walk_tree(rg, "/", find_task_cb, NULL, &ft);
	if (ret < 0)
		return ret;
	if (!ft.group && ft.unreadable)
		return ft.unreadable;	/* -ENOSPC: a list past one page */
	*group = ft.group ? ft.group : strdup("/");
	return *group ? 0 : -ENOMEM;
}

const struct rg_ops rg_rgcs_ops = {
	.id = KATTR_RG_RGCS,
	.fstype = "configfs", .fstype_alt = RGCSFS_FSTYPE,
	.magic = KATTR_MAGIC_CONFIGFS, .shares_file = "shares",
	.tasks_file = "members", .procs_file = "members",
	.attach_task = "members", .attach_proc = "members",
	.takes_res = true,
	.open = rgcs_open,
	.create_check = rgcs_create_check,
	.mkdir = rgcs_mkdir,
	.attach = rg_attach_pid,	/* KATTR_RG_THREADS: each thread (rg_target_open()) */
	.members = rgcs_members,
	.shares_read = rgcs_shares_read,
	.stats = rgcs_stats,
	.whereis = rgcs_whereis,
};
