// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * apply and dump for a group's resources (rgctl.conf(5): memory_max =
 * "1G"; ...): a step's changes as text (the planner, which finds them, is
 * the library's: kattr_rgplan_res_build()), and what dump writes (every
 * setting that differs from a new group's).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kattr/rgconf.h"
#include "kattr/rgplan.h"
#include "kattr/rgres.h"
#include "rgctl.h"
#include "rgctl_res.h"
#include "xalloc.h"

void rgctl_res_change_text(const struct kattr_rgplan_res *ch, char *buf,
			   size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < ch->n && len < size; i++) {
		char w[1024], o[1024];

		kattr_rgres_text(&ch->want[i], w, sizeof(w));
		kattr_rgres_text(&ch->old[i], o, sizeof(o));
		len += (size_t)snprintf(buf + len, size - len, "%s%s=%s", i ? ", " : "",
					ch->want[i].res->key, w);
		if (!ch->fresh && len < size && !ch->old[i].unset)
			len += (size_t)snprintf(buf + len, size - len, " (was %s)", o);
	}
}

/* What a new group has: the kernel's default, or its parent's (cpuset). */
static bool is_default(struct kattr_rg *rg, const char *group,
		       const struct kattr_rgres *r, const char *text)
{
	char parent[4096], *slash, ptext[1024];
	struct kattr_rgres_group *pg;
	struct kattr_rgres_value *v;
	size_t n;
	bool same_as_parent = false;

	if (strcmp(text, r->def) == 0 || strcmp(text, "-") == 0)
		return true;
	/* cgroup v1: the soft limit starts unlimited */
	if (kattr_rg_backend_of(rg) == KATTR_RG_CGROUP1 &&
	    strcmp(r->key, "memory.low") == 0 && strcmp(text, "max") == 0)
		return true;
	if (r->type != KATTR_RGRES_LIST)
		return false;
	snprintf(parent, sizeof(parent), "%s", group);
	slash = strrchr(parent, '/');
	if (slash)
		*slash = '\0';
	else
		snprintf(parent, sizeof(parent), "/");
	if (kattr_rgres_open(rg, parent, &pg) < 0)
		return false;
	if (kattr_rgres_get(pg, r, &v, &n) == 0) {
		same_as_parent = n == 1 && kattr_rgres_text(v, ptext, sizeof(ptext)) == 0 &&
				 strcmp(ptext, text) == 0;
		free(v);
	}
	kattr_rgres_close(pg);
	return same_as_parent;
}

void rgctl_res_dump(struct kattr_rg *rg, const char *group, char ***res,
		    size_t *n)
{
	struct kattr_rgres_group *g;
	const struct kattr_rgres *t;
	size_t nt;

	*res = NULL;
	*n = 0;
	if (kattr_rgres_open(rg, group, &g) < 0)
		return;
	t = kattr_rgres_table(&nt);
	for (size_t i = 0; i < nt; i++) {
		struct kattr_rgres_value *v;
		size_t nv;

		/* cpu.weight is dumped as shares, its short form */
		if (!strcmp(t[i].key, "cpu.weight") ||
		    kattr_rgres_get(g, &t[i], &v, &nv) < 0)
			continue;	/* not here: nothing to say */
		for (size_t k = 0; k < nv; k++) {
			char text[1024];

			kattr_rgres_text(&v[k], text, sizeof(text));
			if (t[i].type != KATTR_RGRES_IO_MAX &&
			    is_default(rg, group, &t[i], text))
				continue;
			*res = xreallocarray(*res, *n + 1, sizeof(**res));
			if (asprintf(&(*res)[*n], "%s=%s", t[i].key, text) < 0)
				xalloc_die();
			(*n)++;
		}
		free(v);
	}
	kattr_rgres_close(g);
}
