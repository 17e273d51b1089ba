// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * cgroup v1: a group is one directory in each hierarchy a group spans
 * (hier.c), as cgcreate -g cpu,cpuacct,memory:/g makes it.  create makes
 * it in every hierarchy or in none; delete removes it from each, moving
 * its tasks up in each; a task moves into every hierarchy where the group
 * is, or is moved back where it was (from /proc/PID/cgroup) in those it
 * had already entered.  hier[0], the root's own hierarchy, is the primary:
 * a group exists when its directory is there, and its tasks are listed
 * from there.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kattr/rg.h"
#include "kattr/private_rg.h"
#include "rg_internal.h"

/* Hierarchy i at the root's place, or NULL (the root is not there). */
static struct kattr_mount *hier_m(struct kattr_rg *rg, size_t i)
{
	struct kattr_mount *m;

	return rg_hier_at(rg, i, &m) == 0 ? m : NULL;
}

static bool has_dir(struct kattr_mount *m, const char *group)
{
	char path[PATH_MAX];
	struct stat st;

	return rg_gpath(path, sizeof(path), group, NULL) == 0 &&
	       kattr_stat(m, path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The hierarchy's name in messages: its controllers. */
static const char *hier_name(const struct kattr_rg *rg, size_t i)
{
	return rg->hier[i].ctrls[0] ? rg->hier[i].ctrls : rg->hier[i].point;
}

static int peer_failed(struct kattr_rg *rg, size_t i, const char *name,
		       int err, struct kattr_why *r)
{
	if (err == -ENOENT)
		return rg_reason(r, KATTR_RG_WHY_PARENT, -ENXIO,
				 "its parent group has no directory in the %s hierarchy (%s)",
				 hier_name(rg, i), rg->hier[i].point);
	if (err == -EEXIST)
		return rg_reason(r, KATTR_RG_WHY_ATTR, err,
				 "an attribute file of that name is in the %s hierarchy (not a group)",
				 hier_name(rg, i));
	if (err == -ENOTDIR)
		return rg_reason(r, KATTR_RG_WHY_ATTR_ABOVE, err,
				 "a component of the name is an attribute file in the %s hierarchy",
				 hier_name(rg, i));
	return rg_reason(r, KATTR_RG_WHY_HIER, err,
			 "cannot make '%s' in the %s hierarchy (%s): %s", name,
			 hier_name(rg, i), rg->hier[i].point, strerror(-err));
}

/*
 * Make name in every other hierarchy a group spans where it lacks it.  A
 * parent missing there (a group another tool made in some hierarchies
 * only) is made too: a component at a time, each recorded in *made only
 * for name itself; parents made here are removed again on failure.
 */
static int peers_fill(struct kattr_rg *rg, const char *name,
		      unsigned int *made, struct kattr_why *r)
{
	for (size_t i = 1; i < rg->nhier; i++) {
		struct kattr_mount *m = hier_m(rg, i);
		int ret;

		if (!m || !rg->hier[i].span)
			continue;
		ret = rg_mkdir_in(rg, i, m, name);
		if (ret == -EEXIST && has_dir(m, name))
			continue;	/* made by another tool: adopted */
		if (ret == 0) {
			*made |= 1u << i;
			continue;
		}
		rg_rmdir_made(rg, name, *made);
		*made = 0;
		return peer_failed(rg, i, name, ret, r);
	}
	return 0;
}

int rg_v1_mkdir(struct kattr_rg *rg, const char *name, bool fill,
		unsigned int *made, struct kattr_why *r)
{
	int own = rg_mkdir_in(rg, 0, rg->m, name), ret;

	if (own == 0)
		*made |= 1u;
	else if (own != -EEXIST || !fill)
		return own;
	ret = peers_fill(rg, name, made, r);
	return ret < 0 ? ret : own;
}

int rg_v1_mkdir_parent(struct kattr_rg *rg, const char *name,
		       unsigned int *made, struct kattr_why *r)
{
	if (!has_dir(rg->m, name))
		return 0;	/* the group's own mkdir says it is missing */
	return peers_fill(rg, name, made, r);
}

/* Move every task of group in m to its parent there (v1: tasks). */
static int evacuate_in(struct kattr_mount *m, const char *group)
{
	char path[PATH_MAX], up[PATH_MAX], *text, *slash;
	pid_t *pids;
	size_t n;
	int fd, ret;

	if (rg_gpath(path, sizeof(path), group, "tasks") < 0 ||
	    rg_gpath(up, sizeof(up), group, NULL) < 0)
		return -ENAMETOOLONG;
	slash = strrchr(up, '/');
	if (slash)
		strcpy(slash, "/tasks");
	else
		strcpy(up, "tasks");
	ret = kattr_read_alloc(m, path, &text, NULL);
	if (ret < 0)
		return ret;
	ret = kattr_rg_parse_pids(text, &pids, &n);
	free(text);
	if (ret < 0 || n == 0)
		return ret == -EINVAL ? -EBADMSG : ret;
	fd = kattr_open(m, up, O_WRONLY);
	for (size_t i = 0; fd >= 0 && i < n && ret == 0; i++) {
		ret = rg_attach_pid(fd, pids[i], 0);
		if (ret == -ESRCH)
			ret = 0;
	}
	if (fd < 0)
		ret = fd;
	else
		close(fd);
	free(pids);
	return ret;
}

/*
 * Remove group's directory in m, tasks moved up.  Directories below it
 * there are no groups (rg->m has none below group when this is called,
 * the walk removing children first): what is left of groups another tool
 * deleted from rg->m's hierarchy only; they go first, the same way.
 */
static int rmdir_in(struct kattr_mount *m, const char *group)
{
	struct kattr_dirent *ents;
	char path[PATH_MAX];
	size_t n;
	int ret = rg_gpath(path, sizeof(path), group, NULL);

	if (ret < 0)
		return ret;
	ret = kattr_list(m, path, &ents, &n);
	if (ret < 0)
		return kattr_rg_group_gone(ret) ? 0 : ret;
	for (size_t i = 0; ret == 0 && i < n; i++) {
		char kid[PATH_MAX];

		if (ents[i].type != DT_DIR)
			continue;
		if (snprintf(kid, sizeof(kid), "%s/%s", path,
			     ents[i].name) >= (int)sizeof(kid))
			ret = -ENAMETOOLONG;
		else
			ret = rmdir_in(m, kid);
	}
	kattr_list_free(ents, n);
	if (ret == 0)
		ret = evacuate_in(m, group);
	if (ret == 0 || kattr_rg_group_gone(ret))
		ret = kattr_rmdir(m, group);
	return ret == -ENOENT ? 0 : ret;
}

/* The other hierarchies first (tasks moved up in each), rg->m's last:
 * until that is gone the group still exists and delete can be retried. */
int rg_v1_rmdir(struct kattr_rg *rg, const char *group)
{
	for (size_t i = 1; i < rg->nhier; i++) {
		struct kattr_mount *m = hier_m(rg, i);
		int ret;

		if (!m || !has_dir(m, group))
			continue;
		ret = rmdir_in(m, group);
		if (ret < 0)
			return ret;
	}
	return kattr_rmdir(rg->m, group);
}

/* ---- attach ---------------------------------------------------------------- */

int rg_v1_span_open(struct kattr_rg_target *t, const char *group)
{
	struct kattr_rg *rg = t->rg;
	const char *file = t->each_thread ? "tasks" : rg_target_file(rg, t->flags);
	char path[PATH_MAX];
	int ret = rg_gpath(path, sizeof(path), group, file);

	if (ret < 0)
		return ret;
	for (size_t i = 1; i < rg->nhier; i++) {
		struct kattr_mount *m = hier_m(rg, i);
		int fd;

		if (!m || !has_dir(m, group))
			continue;	/* the group lacks it: as it is */
		fd = kattr_open(m, path, O_WRONLY);
		if (fd < 0)
			return fd;
		t->span_fd[t->nspan] = fd;
		t->span_hier[t->nspan++] = (unsigned char)i;
	}
	return 0;
}

/* Where pid is in each hierarchy t moves it in ([0]: rg->m's), from
 * /proc/PID/cgroup. */
static int where_now(const struct kattr_rg_target *t, pid_t pid,
		     char *old[RG_MAX_HIER + 1])
{
	char rel[64], *text;
	int ret;

	snprintf(rel, sizeof(rel), "/proc/%d/cgroup", (int)pid);
	ret = kattr_root_file_read(t->rg->root, rel, &text, NULL);
	if (ret < 0)
		return ret == -ENOENT ? -ESRCH : ret;
	for (size_t k = 0; k <= t->nspan && ret == 0; k++) {
		size_t i = k ? t->span_hier[k - 1] : 0;

		ret = kattr_rg_parse_proc_cgroup(text, t->rg->hier[i].ctrls,
						 &old[k]);
	}
	free(text);
	return ret == -EINVAL ? -EBADMSG : ret;
}

/* Move pid back to path (absolute in hierarchy i, as /proc says). */
static int move_back(const struct kattr_rg_target *t, size_t i, pid_t pid,
		     const char *path)
{
	struct rg_hier *h = &t->rg->hier[i];
	const char *file = t->each_thread ? "tasks" :
			   rg_target_file(t->rg, t->flags);
	size_t rl = strcmp(h->mroot, "/") ? strlen(h->mroot) : 0;
	char rel[PATH_MAX];
	int fd, ret;

	if (strncmp(path, h->mroot, rl) != 0)
		return -EXDEV;	/* outside what that mount shows */
	path += rl;
	while (*path == '/')
		path++;
	if (!h->top) {
		ret = kattr_mount_open_at(t->rg->root, h->point, KATTR_MAGIC_CGROUP1, 0, &h->top);
		if (ret < 0)
			return ret;
	}
	if (snprintf(rel, sizeof(rel), "%s%s%s", path, *path ? "/" : "",
		     file) >= (int)sizeof(rel))
		return -ENAMETOOLONG;
	fd = kattr_open(h->top, rel, O_WRONLY);
	if (fd < 0)
		return fd;
	ret = rg_target_write(t, fd, pid);
	close(fd);
	return ret;
}

int rg_v1_span_attach(struct kattr_rg_target *t, pid_t pid)
{
	char *old[RG_MAX_HIER + 1] = { 0 };
	size_t k = 0;
	int ret = where_now(t, pid, old);

	if (ret == 0)
		ret = rg_target_write(t, t->fd, pid);
	for (; ret == 0 && k < t->nspan; k++)
		ret = rg_target_write(t, t->span_fd[k], pid);
	if (ret < 0 && k > 0) {
		/* k-1 failed: put it back in rg->m's and the ones before */
		for (size_t j = k; j-- > 0;)
			move_back(t, j ? t->span_hier[j - 1] : 0, pid, old[j]);
	}
	for (size_t j = 0; j <= t->nspan; j++)
		free(old[j]);
	return ret;
}

/* ---- the group's places, compared ------------------------------------------ */

static void name_add(char *buf, size_t size, const char *name)
{
	size_t len = strlen(buf);

	if (len < size)
		snprintf(buf + len, size - len, "%s%s", len ? ", " : "", name);
}

int rg_v1_missing(struct kattr_rg *rg, const char *group, char *buf,
		  size_t size)
{
	int n = 0;

	if (size)
		buf[0] = '\0';
	for (size_t i = 1; i < rg->nhier; i++) {
		struct kattr_mount *m = hier_m(rg, i);

		if (!m || !rg->hier[i].span || has_dir(m, group))
			continue;
		name_add(buf, size, hier_name(rg, i));
		n++;
	}
	return n;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

/* The sorted tasks of group in m. */
static int tasks_in(struct kattr_mount *m, const char *group, pid_t **v,
		    size_t *n)
{
	char path[PATH_MAX], *text;
	int ret = rg_gpath(path, sizeof(path), group, "tasks");

	if (ret == 0)
		ret = kattr_read_alloc(m, path, &text, NULL);
	if (ret < 0)
		return ret;
	ret = kattr_rg_parse_pids(text, v, n);
	free(text);
	if (ret == 0)
		qsort(*v, *n, sizeof(**v), cmp_pid);
	return ret == -EINVAL ? -EBADMSG : ret;
}

int rg_v1_disagree(struct kattr_rg *rg, const char *group, char *buf,
		   size_t size)
{
	pid_t *own, *v;
	size_t nown, n;
	int ret = tasks_in(rg->m, group, &own, &nown), count = 0;

	if (size)
		buf[0] = '\0';
	if (ret < 0)
		return ret;
	for (size_t i = 1; i < rg->nhier; i++) {
		struct kattr_mount *m = hier_m(rg, i);

		if (!m || !has_dir(m, group) || tasks_in(m, group, &v, &n) < 0)
			continue;
		if (n != nown || (n && memcmp(v, own, n * sizeof(*v)) != 0)) {
			name_add(buf, size, hier_name(rg, i));
			count++;
		}
		free(v);
	}
	free(own);
	return count;
}
