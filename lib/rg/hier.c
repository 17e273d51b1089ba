// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * cgroup v1: the hierarchies a group spans.  Each controller rgctl manages
 * (cpu, cpuacct, memory, pids, blkio, and cpuset once a key needs it) is
 * mounted on a hierarchy of its own or with others; a group is the
 * directory at the same place below each of them.  They are found in the
 * mount table read once at open (rg.c), hier[0] being the root's own, and
 * each is opened at the root's place on first use.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kattr/rg.h"
#include "kattr/private_rg.h"
#include "rg_internal.h"

/* The controllers a group spans, in order; cpuset is not made by create
 * (an empty cpuset refuses every task) but is moved into where it is. */
static const struct {
	const char *ctrl;
	bool span;
} managed[] = {
	{ "cpu", true }, { "cpuacct", true }, { "memory", true },
	{ "pids", true }, { "blkio", true }, { "cpuset", false },
};
#define NMANAGED (sizeof(managed) / sizeof(*managed))

char *rg_v1_controllers(const char *opts)
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

/* Which of the managed controllers ctrls has: a bit each; *span: any that
 * create makes groups in. */
static unsigned int managed_bits(const char *ctrls, bool *span)
{
	unsigned int bits = 0;

	*span = false;
	for (size_t i = 0; i < NMANAGED; i++) {
		if (!kattr_opt_has(ctrls, managed[i].ctrl))
			continue;
		bits |= 1u << i;
		*span = *span || managed[i].span;
	}
	return bits;
}

static int hier_add(struct kattr_rg *rg, const char *point, const char *mroot,
		    char *ctrls, bool span)
{
	struct rg_hier *h = &rg->hier[rg->nhier];

	h->point = strdup(point);
	h->mroot = strdup(mroot);
	h->ctrls = ctrls;
	h->span = span;
	rg->nhier++;
	return h->point && h->mroot && h->ctrls ? 0 : -ENOMEM;
}

int rg_hier_init(struct kattr_rg *rg, const struct mnt_found *own,
		 const struct mnt_table *t)
{
	unsigned int seen;
	bool span;
	int ret;

	seen = managed_bits(rg->ctrls, &span);
	ret = hier_add(rg, own->mount_point, own->root, strdup(rg->ctrls), true);
	if (ret < 0)
		return ret;
	rg->hier[0].m = rg->m;
	rg->hier[0].tried = true;
	/* A root on a hierarchy of none of them (a named one, "none,name=x")
	 * is a tree of its own: it spans nothing (the same path elsewhere
	 * is another tree, the machine's own). */
	if (!seen)
		return 0;
	for (size_t i = 0; t && i < t->n && rg->nhier < RG_MAX_HIER; i++) {
		const struct mnt_found *f = &t->v[i];
		unsigned int bits;
		char *ctrls;

		if (strcmp(f->fstype, "cgroup") != 0)
			continue;
		ctrls = rg_v1_controllers(f->super_opts);
		if (!ctrls)
			return -ENOMEM;
		bits = managed_bits(ctrls, &span);
		/* none of ours, or a hierarchy already found (a second mount
		 * of it, or one sharing a controller: the first wins) */
		if (!bits || (bits & seen)) {
			free(ctrls);
			continue;
		}
		seen |= bits;
		ret = hier_add(rg, f->mount_point, f->root, ctrls, span);
		if (ret < 0)
			return ret;
	}
	return 0;
}

void rg_hier_free(struct kattr_rg *rg)
{
	for (size_t i = 0; i < rg->nhier; i++) {
		struct rg_hier *h = &rg->hier[i];

		if (h->m != rg->m)
			kattr_mount_close(h->m);
		kattr_mount_close(h->top);
		free(h->point);
		free(h->mroot);
		free(h->ctrls);
	}
	rg->nhier = 0;
}

int rg_hier_find(const struct kattr_rg *rg, const char *ctrl)
{
	for (size_t i = 0; i < rg->nhier; i++)
		if (kattr_opt_has(rg->hier[i].ctrls, ctrl))
			return (int)i;
	return -ENODEV;
}

int rg_hier_at(struct kattr_rg *rg, size_t i, struct kattr_mount **m)
{
	struct rg_hier *h = &rg->hier[i];
	char path[PATH_MAX];
	int n;

	if (!h->tried) {
		h->tried = true;
		n = snprintf(path, sizeof(path), "%s%s",
			     strcmp(h->point, "/") ? h->point : "", rg->sub);
		if (n < 0 || (size_t)n >= sizeof(path))
			h->err = -ENAMETOOLONG;
		else
			h->err = kattr_mount_open_at(rg->root, path[0] ? path : "/",
						     KATTR_MAGIC_CGROUP1, 0, &h->m);
		if (h->err == -ENOTDIR)
			h->err = -ENOENT;
	}
	*m = h->m;
	return h->err;
}

int rg_hier_mount(struct kattr_rg *rg, const char *ctrl,
		  struct kattr_mount **m)
{
	int i, ret;

	if (rg->ops->id != KATTR_RG_CGROUP1) {
		*m = rg->m;
		return 0;
	}
	i = rg_hier_find(rg, ctrl);
	if (i < 0)
		return i;
	ret = rg_hier_at(rg, (size_t)i, m);
	return ret == -ENOENT ? -ENODEV : ret;
}

/* ---- a task's place in each hierarchy ---------------------------------------- */

int rg_group_below(const char *path, const char *prefix, char **group)
{
	size_t plen = strlen(prefix);

	*group = NULL;
	if (strncmp(path, prefix, plen) != 0 ||
	    (path[plen] != '/' && path[plen] != '\0'))
		return 0;	/* outside the part of the tree we manage */
	*group = strdup(path[plen] && path[plen + 1] ? path + plen + 1 : "/");
	return *group ? 0 : -ENOMEM;
}

void kattr_rg_places_free(struct kattr_rg_place *v, size_t n)
{
	for (size_t i = 0; v && i < n; i++) {
		free(v[i].hier);
		free(v[i].group);
		free(v[i].path);
	}
	free(v);
}

/* Whether hierarchy i is compared: the spanned ones, and a cpuset where
 * the task's group (named by hierarchy 0) has a directory. */
static bool place_compared(struct kattr_rg *rg, size_t i, const char *group)
{
	struct kattr_mount *m;
	char path[PATH_MAX];
	struct stat st;

	if (i == 0 || rg->hier[i].span)
		return true;
	return group && rg_hier_at(rg, i, &m) == 0 &&
	       rg_gpath(path, sizeof(path), group, NULL) == 0 &&
	       kattr_stat(m, path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Hierarchy i's place of a task from text, its /proc/PID/cgroup. */
static int place_of(struct kattr_rg *rg, size_t i, const char *text,
		    struct kattr_rg_place *p)
{
	const struct rg_hier *h = &rg->hier[i];
	char *prefix;
	int ret;

	p->hier = strdup(h->ctrls[0] ? h->ctrls : h->point);
	if (!p->hier)
		return -ENOMEM;
	ret = kattr_rg_parse_proc_cgroup(text, h->ctrls, &p->path);
	if (ret == -ENOENT)
		return 0;	/* not in this hierarchy: nowhere */
	if (ret < 0)
		return ret == -EINVAL ? -EBADMSG : ret;
	if (i == 0)
		prefix = strdup(rg->prefix);
	else if (asprintf(&prefix, "%s%s", strcmp(h->mroot, "/") ? h->mroot : "",
			  rg->sub) < 0)
		prefix = NULL;
	if (!prefix)
		return -ENOMEM;
	if (strcmp(prefix, "/") == 0)
		prefix[0] = '\0';
	ret = rg_group_below(p->path, prefix, &p->group);
	free(prefix);
	return ret;
}

/* cgroup v1: one read of /proc/PID/cgroup, a place per hierarchy. */
static int places_v1(struct kattr_rg *rg, pid_t pid, struct kattr_rg_place *v,
		     size_t *n)
{
	char rel[64], *text;
	int ret;

	snprintf(rel, sizeof(rel), "/proc/%d/cgroup", (int)pid);
	ret = kattr_root_file_read(rg->root, rel, &text, NULL);
	if (ret < 0)
		return ret == -ENOENT ? -ESRCH : ret;
	for (size_t i = 0; ret == 0 && i < rg->nhier; i++) {
		if (!place_compared(rg, i, *n ? v[0].group : NULL))
			continue;
		ret = place_of(rg, i, text, &v[(*n)++]);
		if (ret == 0 && i == 0 && !v[0].group)
			ret = -ENOENT;	/* outside the root: as kattr_rg_whereis() */
	}
	free(text);
	return ret;
}

int kattr_rg_whereis_each(struct kattr_rg *rg, pid_t pid,
			  struct kattr_rg_place **out, size_t *nout)
{
	struct kattr_rg_place *v;
	size_t n = 0;
	int ret, differ = 0;

	*out = NULL;
	*nout = 0;
	if (pid <= 0)
		return -EINVAL;
	v = calloc(rg->nhier ? rg->nhier : 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	if (rg->ops->id == KATTR_RG_CGROUP1 && rg->nhier) {
		ret = places_v1(rg, pid, v, &n);
	} else {
		n = 1;
		v[0].hier = strdup(kattr_rg_backend_name(rg->ops->id));
		ret = v[0].hier ? rg->ops->whereis(rg, pid, &v[0].group) : -ENOMEM;
	}
	if (ret < 0) {
		kattr_rg_places_free(v, n);
		return ret;
	}
	for (size_t i = 1; i < n; i++)
		differ += !v[i].group || strcmp(v[i].group, v[0].group) != 0;
	*out = v;
	*nout = n;
	return differ;
}

/* ---- the hierarchies, for the apply engine's save and restore ------------- */

size_t kattr_rg_hier_count(const struct kattr_rg *rg)
{
	return rg->ops->id == KATTR_RG_CGROUP1 && rg->nhier ? rg->nhier : 1;
}

const char *kattr_rg_hier_name(const struct kattr_rg *rg, size_t i)
{
	if (rg->ops->id != KATTR_RG_CGROUP1 || i >= rg->nhier)
		return kattr_rg_backend_name(rg->ops->id);
	return rg->hier[i].ctrls;
}

int kattr_rg_hier_index(const struct kattr_rg *rg, const char *name)
{
	if (rg->ops->id != KATTR_RG_CGROUP1)
		return -ENODEV;
	for (size_t i = 0; i < rg->nhier; i++)
		if (strcmp(rg->hier[i].ctrls, name) == 0)
			return (int)i;
	return -ENODEV;
}

int kattr_rg_hier_place(struct kattr_rg *rg, size_t i, struct kattr_mount **m)
{
	*m = NULL;
	if (i == 0 || rg->ops->id != KATTR_RG_CGROUP1) {
		*m = rg->m;
		return 0;
	}
	if (i >= rg->nhier)
		return -ENODEV;
	return rg_hier_at(rg, i, m);
}
