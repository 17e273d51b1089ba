// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Controller delegation (cgroup v2, backends with rg_ops.delegates): which
 * groups' cgroup.subtree_control enable a controller for their children,
 * enabling one along a path and taking it back.  Written for any controller
 * ("cpu", "memory", "io", "pids", "cpuset"); the kattr_rg_cpu_* calls are
 * these with "cpu".
 */
#include <dirent.h>
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

/* ---- a controller along a path ----------------------------------------- */

#define SUBTREE_CONTROL	"cgroup.subtree_control"

void kattr_rg_cpu_path_free(struct kattr_rg_cpu_path *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++)
		free(p->groups[i]);
	free(p->groups);
	free(p->failed);
	memset(p, 0, sizeof(*p));
}

static int path_add(struct kattr_rg_cpu_path *p, const char *group)
{
	char **tmp = realloc(p->groups, (p->n + 1) * sizeof(*tmp));

	if (!tmp)
		return -ENOMEM;
	p->groups = tmp;
	p->groups[p->n] = strdup(group);
	if (!p->groups[p->n])
		return -ENOMEM;
	p->n++;
	return 0;
}

/* Write "+ctl" (sign '+') or "-ctl" to group's cgroup.subtree_control. */
int kattr_rg_ctl_write(struct kattr_rg *rg, const char *group, char sign,
		     const char *ctl)
{
	char path[PATH_MAX], word[64];
	int ret = rg_gpath(path, sizeof(path), group, SUBTREE_CONTROL);

	if (ret < 0)
		return ret;
	ret = snprintf(word, sizeof(word), "%c%s", sign, ctl);
	if (ret < 0 || (size_t)ret >= sizeof(word))
		return -ENAMETOOLONG;
	return kattr_write_str(rg->m, path, word);
}

/* 1 when ctl is enabled in group's cgroup.subtree_control, 0 when not (or
 * when the group does not exist), -errno. */
static int ctl_enabled_in(struct kattr_rg *rg, const char *group,
			  const char *ctl)
{
	char path[PATH_MAX];
	int ret = rg_gpath(path, sizeof(path), group, SUBTREE_CONTROL);

	if (ret < 0)
		return ret;
	ret = rg_file_has_word(rg->m, path, ctl);
	return ret == -ENOENT ? 0 : ret;
}

/*
 * Wait out another process enabling ctl in group's parent.  The kernel sets
 * the parent's cgroup.subtree_control before it creates the children's
 * ctl.* files, under cgroup_mutex, so a reader can see ctl enabled while
 * the child's file (cpu.weight) is not there yet.  Writing "+ctl" where it
 * is already enabled changes nothing but takes the same mutex, so when it
 * returns the files are there.  1 when a retry may succeed (ctl is enabled
 * in the parent), 0 when not (or the backend does not delegate), -errno.
 */
int rg_ctl_settle(struct kattr_rg *rg, const char *group, const char *ctl)
{
	char parent[PATH_MAX], *slash;
	size_t len = strlen(group);
	int ret;

	if (!rg->ops->delegates || kattr_rg_name_is_root(group))
		return 0;
	if (len >= sizeof(parent))
		return -ENAMETOOLONG;
	memcpy(parent, group, len + 1);
	while (len && parent[len - 1] == '/')
		parent[--len] = '\0';
	slash = strrchr(parent, '/');
	if (slash)
		*slash = '\0';
	else
		parent[0] = '\0';	/* the root */
	ret = ctl_enabled_in(rg, parent, ctl);
	if (ret <= 0)
		return ret;
	ret = kattr_rg_ctl_write(rg, parent, '+', ctl);
	return ret < 0 ? ret : 1;
}

int rg_ctl_missing(struct kattr_rg *rg, const char *group, const char *ctl,
		   struct kattr_rg_cpu_path *out)
{
	char name[PATH_MAX];
	bool lacking = false;
	size_t len;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = kattr_rg_name_check(group, true, NULL);
	if (ret < 0)
		return ret;
	if (!rg->ops->delegates || kattr_rg_name_is_root(group))
		return 0;
	len = strlen(group);
	if (len >= sizeof(name))
		return -ENAMETOOLONG;
	memcpy(name, group, len + 1);
	/* The root, then each parent: name up to each '/'. */
	for (size_t i = 0; i < len && ret == 0; i++) {
		const char *anc = "/";

		if (i > 0) {
			if (name[i] != '/')
				continue;
			name[i] = '\0';
			anc = name;
		}
		/* Below a group without ctl none can have it. */
		if (!lacking) {
			ret = ctl_enabled_in(rg, anc, ctl);
			lacking = ret == 0;
		}
		if (ret >= 0 && lacking)
			ret = path_add(out, anc);
		else if (ret > 0)
			ret = 0;
		if (i > 0)
			name[i] = '/';
	}
	if (ret < 0)
		kattr_rg_cpu_path_free(out);
	return ret < 0 ? ret : 0;
}

int rg_ctl_undo_from(struct kattr_rg *rg, const char *ctl,
		     struct kattr_rg_cpu_path *done, size_t start)
{
	int first = 0;

	while (done->n > start) {
		char *g = done->groups[--done->n];
		int ret = kattr_rg_ctl_write(rg, g, '-', ctl);

		if (ret < 0 && first == 0)
			first = ret;
		free(g);
	}
	return first;
}

int rg_ctl_enable(struct kattr_rg *rg, const char *group, const char *ctl,
		  struct kattr_rg_cpu_path *done)
{
	struct kattr_rg_cpu_path miss;
	size_t start = done->n;
	int ret;

	if (!rg->ops->delegates)
		return 0;
	ret = rg_ctl_missing(rg, group, ctl, &miss);
	if (ret < 0)
		return ret;
	for (size_t i = 0; i < miss.n && ret == 0; i++) {
		ret = kattr_rg_ctl_write(rg, miss.groups[i], '+', ctl);
		if (ret == 0) {
			ret = path_add(done, miss.groups[i]);
			if (ret < 0)	/* cannot remember it: take it back */
				kattr_rg_ctl_write(rg, miss.groups[i], '-', ctl);
		}
		if (ret < 0) {
			free(done->failed);
			done->failed = strdup(miss.groups[i]);
		}
	}
	if (ret < 0)
		rg_ctl_undo_from(rg, ctl, done, start);
	kattr_rg_cpu_path_free(&miss);
	return ret;
}

/* ---- the cpu controller (the exported calls) ---------------------------- */

int kattr_rg_cpu_missing(struct kattr_rg *rg, const char *group,
			 struct kattr_rg_cpu_path *out)
{
	return rg_ctl_missing(rg, group, "cpu", out);
}

int kattr_rg_cpu_undo(struct kattr_rg *rg, struct kattr_rg_cpu_path *done)
{
	int ret = rg_ctl_undo_from(rg, "cpu", done, 0);

	free(done->groups);
	done->groups = NULL;
	return ret;
}

int kattr_rg_cpu_enable(struct kattr_rg *rg, const char *group,
			struct kattr_rg_cpu_path *done)
{
	if (!rg->ops->delegates)
		return 0;
	if (!rg->has_shares)
		return -EOPNOTSUPP;
	return rg_ctl_enable(rg, group, "cpu", done);
}

/* ---- a group's controllers for its children ------------------------------ */

/* group's cgroup.subtree_control, its words one space apart. */
int kattr_rg_ctl_read(struct kattr_rg *rg, const char *group, char **words)
{
	char path[PATH_MAX], *text, *save, *tok, *o;
	int ret = rg_gpath(path, sizeof(path), group, SUBTREE_CONTROL);

	if (ret < 0)
		return ret;
	ret = kattr_read_alloc(rg->m, path, &text, NULL);
	if (ret < 0)
		return ret;
	o = text;
	for (tok = strtok_r(text, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save)) {
		size_t n = strlen(tok);

		if (o != text)
			*o++ = ' ';
		memmove(o, tok, n);
		o += n;
	}
	*o = '\0';
	*words = text;
	return 0;
}

bool kattr_rg_delegates(const struct kattr_rg *rg)
{
	return rg->ops->delegates;
}

/* ---- a group's files, where controllers are delegated ------------------- */

int rg_settle(struct kattr_rg *rg, const char *group, const char *file)
{
	char ctl[64];
	size_t len = strcspn(file, ".");

	if (!rg->ops->delegates || len >= sizeof(ctl))
		return 0;
	memcpy(ctl, file, len);
	ctl[len] = '\0';
	return rg_ctl_settle(rg, group, ctl);
}

int rg_group_write(struct kattr_rg *rg, const char *group, const char *file,
		   const char *value)
{
	char path[PATH_MAX];
	int ret = rg_gpath(path, sizeof(path), group, file);

	if (ret < 0)
		return ret;
	ret = kattr_write_str(rg->m, path, value);
	if (ret == -ENOENT && rg_settle(rg, group, file) > 0)
		ret = kattr_write_str(rg->m, path, value);
	return ret;
}
