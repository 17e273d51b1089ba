// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A live profile (kattr_profile_parse_live()): a live view's snapshot,
 * parsed and diffed into its 40-byte sites (and 16 bytes of deltas)
 * instead of 80-byte entries, read one entry at a time, its first k
 * sites in order without an entry made for the others.  The entries are
 * made on demand (kattr_profile_entries()); every function here reads
 * either kind.  tests/lib/profile and tests/fuzz/fuzz_profile_next.c
 * compare it with kattr_profile_parse_diff() and kattr_profile_sort_top().
 */
#include <stdlib.h>

#include "profile_internal.h"

void prof_entry(const struct kattr_profile *p, size_t i,
		struct kattr_profile_entry *e)
{
	const struct kattr_profile_priv *pv = p->priv;
	const struct site *s;
	bool annotated = p->format == KATTR_PROFILE_FMT_ANNOTATED;

	if (p->entries) {
		*e = p->entries[i];
		return;
	}
	s = &pv->sites[i];
	e->function = pv->text + s->func;
	e->file = pv->text + s->func + s->file_at;
	e->correct = s->correct;
	e->incorrect = s->incorrect;
	if (p->format == KATTR_PROFILE_FMT_LIKELY_PROF) {
		e->line = s->line & ~SITE_LIKELY;
		e->hint = s->line & SITE_LIKELY ? KATTR_PROFILE_HINT_LIKELY :
						 KATTR_PROFILE_HINT_UNLIKELY;
	} else {
		e->line = s->line;
		e->hint = annotated ? KATTR_PROFILE_HINT_ANNOTATED :
				      KATTR_PROFILE_HINT_NONE;
	}
	e->constant = annotated ? pv->tconst[i] : 0;
	e->has_constant = annotated;
	e->has_rate = s->flags & SITE_HAS_RATE;
	e->reset = s->flags & SITE_RESET;
	e->d_correct = pv->deltas ? pv->deltas[i].d_correct : 0;
	e->d_incorrect = pv->deltas ? pv->deltas[i].d_incorrect : 0;
	/* as kattr_profile_diff() divides; zeroed deltas are rate 0 */
	e->rate = e->has_rate && e->d_incorrect ?
		  (double)e->d_incorrect / pv->seconds : 0;
}

void kattr_profile_entry_get(const struct kattr_profile *p, size_t i,
			 struct kattr_profile_entry *e)
{
	prof_entry(p, i, e);
}

int kattr_profile_entries(struct kattr_profile *p)
{
	struct kattr_profile_entry *v;

	if (p->entries)
		return 0;
	v = malloc((p->n ? p->n : 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < p->n; i++)
		prof_entry(p, i, &v[i]);
	p->entries = v;
	return 0;
}

/* An entry's zero_rates() step: true when it changed. */
static bool zero_one(struct kattr_profile_entry *e)
{
	if (e->has_rate && !e->d_correct && !e->d_incorrect)
		return false;
	/* never two different snapshots: no rate yet, as in batch (a
	 * static file is not one that stopped) */
	if (!e->has_rate && !e->reset)
		return false;
	e->has_rate = true;
	e->reset = false;
	e->d_correct = e->d_incorrect = 0;
	e->rate = 0;
	return true;
}

bool kattr_profile_zero_rates(struct kattr_profile *p)
{
	struct kattr_profile_priv *pv = p->priv;
	bool changed = false;

	if (p->entries) {
		for (size_t i = 0; i < p->n; i++)
			changed |= zero_one(&p->entries[i]);
		return changed;
	}
	for (size_t i = 0; i < p->n; i++) {
		struct site *s = &pv->sites[i];
		bool moved = pv->deltas && (pv->deltas[i].d_correct ||
					    pv->deltas[i].d_incorrect);

		if ((s->flags & SITE_HAS_RATE) && !moved)
			continue;
		if (!(s->flags & (SITE_HAS_RATE | SITE_RESET)))
			continue;
		changed = true;
		s->flags = SITE_HAS_RATE;
		if (pv->deltas)
			pv->deltas[i].d_correct = pv->deltas[i].d_incorrect = 0;
	}
	return changed;
}
