// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * cgroup v2 controller delegation: which groups' cgroup.subtree_control
 * enable a controller for their children, enabling it along a path and
 * taking it back.
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
#include "kattr/private.h"
#include "internal.h"
#include "rg_internal.h"

/* ---- cgroup v2: the cpu controller along a path ------------------------- */

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

static int cpu_path_add(struct kattr_rg_cpu_path *p, const char *group)
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

/* 1 when cpu is enabled in group's cgroup.subtree_control, 0 when not (or
 * when the group does not exist), -errno. */
static int cpu_enabled_in(struct kattr_rg *rg, const char *group)
{
	char path[PATH_MAX];
	int ret = rg_gpath(path, sizeof(path), group, "cgroup.subtree_control");

	if (ret < 0)
		return ret;
	ret = rg_file_has_word(rg->m, path, "cpu");
	return ret == -ENOENT ? 0 : ret;
}

/*
 * cgroup v2: wait out another process enabling cpu in group's parent.  The
 * kernel sets the parent's cgroup.subtree_control before it creates the
 * children's cpu.* files, under cgroup_mutex, so a reader can see "cpu"
 * enabled while the child's cpu.weight is not there yet.  Writing "+cpu"
 * where it is already enabled changes nothing but takes the same mutex, so
 * when it returns the files are there.  1 when a retry may succeed (cpu is
 * enabled in the parent), 0 when not, -errno.
 */
int rg_cpu_settle(struct kattr_rg *rg, const char *group)
{
	char parent[PATH_MAX], path[PATH_MAX], *slash;
	size_t len = strlen(group);
	int ret;

	if (rg->be->id != KATTR_RG_CGROUP2 || kattr_rg_name_is_root(group))
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
	ret = cpu_enabled_in(rg, parent);
	if (ret <= 0)
		return ret;
	ret = rg_gpath(path, sizeof(path), parent, "cgroup.subtree_control");
	if (ret == 0)
		ret = kattr_write_str(rg->m, path, "+cpu");
	return ret < 0 ? ret : 1;
}

int kattr_rg_cpu_missing(struct kattr_rg *rg, const char *group,
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
	if (rg->be->id != KATTR_RG_CGROUP2 || kattr_rg_name_is_root(group))
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
		/* Below a group without cpu none can have it. */
		if (!lacking) {
			ret = cpu_enabled_in(rg, anc);
			lacking = ret == 0;
		}
		if (ret >= 0 && lacking)
			ret = cpu_path_add(out, anc);
		else if (ret > 0)
			ret = 0;
		if (i > 0)
			name[i] = '/';
	}
	if (ret < 0)
		kattr_rg_cpu_path_free(out);
	return ret < 0 ? ret : 0;
}

/* Disable cpu in done's groups from the last down to index start. */
int rg_cpu_undo_from(struct kattr_rg *rg, struct kattr_rg_cpu_path *done,
			 size_t start)
{
	int first = 0;

	while (done->n > start) {
		char path[PATH_MAX], *g = done->groups[--done->n];
		int ret = rg_gpath(path, sizeof(path), g, "cgroup.subtree_control");

		if (ret == 0)
			ret = kattr_write_str(rg->m, path, "-cpu");
		if (ret < 0 && first == 0)
			first = ret;
		free(g);
	}
	return first;
}

int kattr_rg_cpu_undo(struct kattr_rg *rg, struct kattr_rg_cpu_path *done)
{
	int ret = rg_cpu_undo_from(rg, done, 0);

	free(done->groups);
	done->groups = NULL;
	return ret;
}

int kattr_rg_cpu_enable(struct kattr_rg *rg, const char *group,
			struct kattr_rg_cpu_path *done)
{
	struct kattr_rg_cpu_path miss;
	size_t start = done->n;
	int ret;

	if (rg->be->id != KATTR_RG_CGROUP2)
		return 0;
	if (!rg->has_shares)
		return -EOPNOTSUPP;
	ret = kattr_rg_cpu_missing(rg, group, &miss);
	if (ret < 0)
		return ret;
	for (size_t i = 0; i < miss.n && ret == 0; i++) {
		char path[PATH_MAX];

		ret = rg_gpath(path, sizeof(path), miss.groups[i],
			    "cgroup.subtree_control");
		if (ret == 0)
			ret = kattr_write_str(rg->m, path, "+cpu");
		if (ret == 0) {
			ret = cpu_path_add(done, miss.groups[i]);
			if (ret < 0)	/* cannot remember it: take it back */
				kattr_write_str(rg->m, path, "-cpu");
		}
		if (ret < 0) {
			free(done->failed);
			done->failed = strdup(miss.groups[i]);
		}
	}
	if (ret < 0)
		rg_cpu_undo_from(rg, done, start);
	kattr_rg_cpu_path_free(&miss);
	return ret;
}
