// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A plan's record of cgroup.subtree_control (backends that delegate
 * controllers): saved before its run, restored by its undo.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "kattr/private_rgconf.h"

/* ---- cgroup.subtree_control before a plan's run ------------------------ */

int kattr_rgplan_sc_add(struct kattr_rgplan *p, const char *group, const char *words)
{
	struct kattr_rgplan_sc *v = realloc(p->sc, (p->nsc + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	p->sc = v;
	v = &v[p->nsc];
	v->group = strdup(group);
	v->words = strdup(words);
	if (!v->group || !v->words) {
		free(v->group);
		free(v->words);
		return -ENOMEM;
	}
	p->nsc++;
	return 0;
}

static bool sc_has(const struct kattr_rgplan *p, const char *group)
{
	for (size_t k = p->nsc; k-- > 0;)	/* the latest first: steps go in order */
		if (strcmp(p->sc[k].group, group) == 0)
			return true;
	return false;
}

/* The existing groups above group, the root first, each recorded once. */
static int sc_save_above(struct kattr_rg *rg, struct kattr_rgplan *p, const char *group)
{
	char name[PATH_MAX];
	size_t len = strlen(group);
	int ret = 0;

	if (len >= sizeof(name))
		return -ENAMETOOLONG;
	memcpy(name, group, len + 1);
	while (len && name[len - 1] == '/')
		name[--len] = '\0';
	for (size_t i = 0; i < len && ret == 0; i++) {
		const char *anc = "/";
		char *words;

		if (i > 0) {
			if (name[i] != '/')
				continue;
			name[i] = '\0';
			anc = name[0] == '/' ? name + 1 : name;
			if (!*anc)
				anc = "/";
		}
		if (!sc_has(p, anc)) {
			ret = kattr_rg_ctl_read(rg, anc, &words);
			if (ret == -ENOENT)
				ret = 1;	/* nor any below it */
			else if (ret == 0) {
				ret = kattr_rgplan_sc_add(p, anc, words);
				free(words);
			}
		}
		if (i > 0)
			name[i] = '/';
	}
	return ret < 0 ? ret : 0;
}

int kattr_rgplan_sc_save(struct kattr_rg *rg, struct kattr_rgplan *p)
{
	int ret = 0;

	if (!kattr_rg_delegates(rg))
		return 0;
	for (size_t i = 0; i < p->n && ret == 0; i++)
		if (!kattr_rg_name_is_root(p->v[i].group))
			ret = sc_save_above(rg, p, p->v[i].group);
	return ret;
}

static bool has_word(const char *words, const char *w)
{
	size_t n = strlen(w);

	for (const char *s = words; (s = strstr(s, w)); s += n)
		if ((s == words || s[-1] == ' ') && (s[n] == ' ' || s[n] == '\0'))
			return true;
	return false;
}

int kattr_rgplan_sc_restore(struct kattr_rg *rg, const struct kattr_rgplan *p,
			    size_t *failed)
{
	int first = 0;

	for (size_t k = p->nsc; k-- > 0;) {
		char *now = NULL, *save, *tok;
		int ret = kattr_rg_ctl_read(rg, p->sc[k].group, &now);

		if (ret == -ENOENT)
			continue;
		for (tok = ret < 0 ? NULL : strtok_r(now, " ", &save); tok;
		     tok = strtok_r(NULL, " ", &save)) {
			int w = has_word(p->sc[k].words, tok) ? 0 :
				kattr_rg_ctl_write(rg, p->sc[k].group, '-', tok);

			if (w < 0 && ret == 0)
				ret = w;
		}
		free(now);
		if (ret < 0 && first == 0) {
			first = ret;
			if (failed)
				*failed = k;
		}
	}
	return first;
}
