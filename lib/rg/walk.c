// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The generic tree walker: every group below one, parents first, by name,
 * skipping groups removed while it walks.
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

int rg_child_groups(struct kattr_rg *rg, const char *group,
			struct kattr_dirent **ents, size_t *n)
{
	char path[PATH_MAX];
	size_t w = 0;
	int ret;

	ret = rg_gpath(path, sizeof(path), group, NULL);
	if (ret < 0)
		return ret;
	ret = kattr_list(rg->m, path, ents, n);
	if (ret < 0)
		return ret;
	for (size_t i = 0; i < *n; i++) {
		if ((*ents)[i].type == DT_DIR)
			(*ents)[w++] = (*ents)[i];
		else
			free((*ents)[i].name);
	}
	*n = w;
	return 0;
}

/* ---- walking the tree ------------------------------------------------ */
/*
 * Whether err, met on a group below the start of a walk, means the group
 * was removed meanwhile: its directory or a file every group has is gone
 * (ENOENT), or was removed while open (cgroup: ENODEV; FUSE: ESTALE).  A
 * group of the same name may already have been made again: the one we
 * were reading is gone all the same.
 */
bool kattr_rg_group_gone(int err)
{
	return err == -ENOENT || err == -ENODEV || err == -ESTALE;
}

/* One group on the walk's stack: its child groups and the next one. */
struct walk_level {
	struct kattr_dirent *kids;
	size_t n, next;
	size_t len;		/* length of the group's name */
	unsigned int again;	/* times its children were listed again */
};

struct walk {
	struct kattr_rg *rg;
	walk_cb pre, post;
	void *data;
	struct walk_level *st;
	size_t depth, cap;
	char *name;		/* the current group ("" is the root) */
	size_t name_cap;
};

static int walk_name(struct walk *w, size_t at, const char *kid)
{
	size_t klen = strlen(kid), need = at + 1 + klen + 1;
	char *tmp;

	if (need > w->name_cap) {
		tmp = realloc(w->name, need * 2);
		if (!tmp)
			return -ENOMEM;
		w->name = tmp;
		w->name_cap = need * 2;
	}
	if (at)
		w->name[at++] = '/';
	memcpy(w->name + at, kid, klen + 1);
	return 0;
}

/* Visit w->name: pre, then push it with its children. */
static int walk_enter(struct walk *w)
{
	struct walk_level *lv, *tmp;
	int ret = 0;

	if (w->pre)
		ret = w->pre(w->rg, w->name, (unsigned int)w->depth, w->data);
	if (ret == WALK_GONE)
		return 0;
	if (ret != 0)
		return ret;
	if (w->depth == w->cap) {
		w->cap = w->cap ? w->cap * 2 : 16;
		tmp = realloc(w->st, w->cap * sizeof(*tmp));
		if (!tmp)
			return -ENOMEM;
		w->st = tmp;
	}
	lv = &w->st[w->depth];
	memset(lv, 0, sizeof(*lv));
	lv->len = strlen(w->name);
	ret = rg_child_groups(w->rg, w->name, &lv->kids, &lv->n);
	if (ret < 0 && w->depth && kattr_rg_group_gone(ret))
		return 0;	/* removed while we walked: skipped */
	if (ret < 0)
		return ret;
	w->depth++;
	return 0;
}

/*
 * Visit group and every group below it, parents first and by name: pre
 * before a group's children, post after them.  Iterative, so any depth
 * whose names fit in PATH_MAX is walked; a group removed meanwhile is
 * skipped with what is below it.
 */
int rg_walk_tree(struct kattr_rg *rg, const char *group, walk_cb pre,
		     walk_cb post, void *data)
{
	struct walk w = { .rg = rg, .pre = pre, .post = post, .data = data };
	int ret;

	ret = walk_name(&w, 0, kattr_rg_name_is_root(group) ? "" : group);
	if (ret == 0)
		ret = walk_enter(&w);
	while (ret == 0 && w.depth) {
		struct walk_level *lv = &w.st[w.depth - 1];

		if (lv->next < lv->n) {
			ret = walk_name(&w, lv->len, lv->kids[lv->next++].name);
			if (ret == 0)
				ret = walk_enter(&w);
			continue;
		}
		w.name[lv->len] = '\0';
		ret = post ? post(rg, w.name, (unsigned int)w.depth - 1, data) : 0;
		if (ret == WALK_AGAIN && lv->again++ < 64) {
			kattr_list_free(lv->kids, lv->n);
			lv->kids = NULL;
			lv->n = lv->next = 0;
			ret = rg_child_groups(rg, w.name, &lv->kids, &lv->n);
			if (ret < 0 && kattr_rg_group_gone(ret))
				ret = WALK_GONE;
			if (ret != WALK_GONE)
				continue;
		}
		if (ret == WALK_AGAIN)
			ret = -EBUSY;	/* children keep appearing */
		if (ret == WALK_GONE)
			ret = 0;
		kattr_list_free(lv->kids, lv->n);
		w.depth--;
		if (w.depth)
			w.name[w.st[w.depth - 1].len] = '\0';
	}
	while (w.depth--)
		kattr_list_free(w.st[w.depth].kids, w.st[w.depth].n);
	free(w.st);
	free(w.name);
	return ret;
}
