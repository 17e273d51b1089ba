// SPDX-License-Identifier: LGPL-2.1-or-later
/* A plan's steps (kattr/rgplan.h): added, freed; what the planner, the
 * engine and the journal share. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kattr/private_rgconf.h"

/* ---- the plan ------------------------------------------------------------ */

int kattr_rgplan_add(struct kattr_rgplan *p, enum kattr_rgplan_kind kind,
		     const char *group, struct kattr_rgplan_step **out)
{
	struct kattr_rgplan_step *s;
	char *g = strdup(group);

	if (!g || kattr_grow((void **)&p->v, &p->cap, p->n, sizeof(*p->v)) < 0) {
		free(g);
		return -ENOMEM;
	}
	s = &p->v[p->n++];
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->group = g;
	if (out)
		*out = s;
	return 0;
}

void kattr_rgplan_res_free(struct kattr_rgplan_res *r)
{
	free(r->want);
	free(r->old);
	memset(r, 0, sizeof(*r));
}

void kattr_rgplan_free(struct kattr_rgplan *p)
{
	for (size_t i = 0; i < p->n; i++) {
		struct kattr_rgplan_step *s = &p->v[i];

		free(s->group);
		free(s->want);
		free(s->old);
		for (size_t k = 0; k < s->nattrs; k++) {
			free(s->attrs[k].file);
			free(s->attrs[k].value);
			free(s->attrs[k].hier);
		}
		free(s->attrs);
		free(s->tids);
		for (size_t k = 0; k < s->nplaces; k++) {
			free(s->places[k].hier);
			free(s->places[k].tids);
		}
		free(s->places);
		free(s->enable);
		kattr_rg_cpu_path_free(&s->done);
		kattr_rgplan_res_free(&s->res);
	}
	for (size_t k = 0; k < p->nsc; k++) {
		free(p->sc[k].group);
		free(p->sc[k].words);
	}
	free(p->sc);
	free(p->v);
	memset(p, 0, sizeof(*p));
}
