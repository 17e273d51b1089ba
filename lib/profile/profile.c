// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Branch-hint profiles: the profile's life and its entries' derived
 * values.  The work is done by scan.c (bytes), parse.c (rows and
 * snapshots), diff.c (sites matched between snapshots) and sort.c (order
 * and filters); profile_internal.h is what they share.  Nothing here does
 * I/O.
 */
#include <stdlib.h>

#include "profile_internal.h"

void kattr_profile_free(struct kattr_profile *p)
{
	if (!p)
		return;
	if (p->priv) {
		free(p->priv->sites);
		free(p->priv->tsites);
		free(p->priv->tconst);
		free(p->priv->deltas);
		free(p->priv->text);
	}
	free(p->priv);
	free(p->entries);
	free(p);
}

static const char *const format_names[] = {
	[KATTR_PROFILE_FMT_UNKNOWN] = "unknown",
	[KATTR_PROFILE_FMT_LIKELY_PROF] = "likely_prof",
	[KATTR_PROFILE_FMT_ANNOTATED] = "branch_annotated",
	[KATTR_PROFILE_FMT_ALL] = "branch_all",
};

static const char *const hint_names[] = {
	[KATTR_PROFILE_HINT_NONE] = "none",
	[KATTR_PROFILE_HINT_LIKELY] = "likely",
	[KATTR_PROFILE_HINT_UNLIKELY] = "unlikely",
	[KATTR_PROFILE_HINT_ANNOTATED] = "annotated",
};

#define NAME_OF(names, v, other) \
	((size_t)(v) < sizeof(names) / sizeof(*(names)) ? (names)[v] : (other))

const char *kattr_profile_format_name(enum kattr_profile_format f)
{
	return NAME_OF(format_names, f, "unknown");
}

const char *kattr_profile_hint_name(enum kattr_profile_hint h)
{
	return NAME_OF(hint_names, h, "none");
}

uint64_t kattr_profile_entry_total(const struct kattr_profile_entry *e)
{
	uint64_t t = e->correct + e->incorrect;

	return t < e->correct ? UINT64_MAX : t;
}

double kattr_profile_entry_pct(const struct kattr_profile_entry *e)
{
	double t = (double)e->correct + (double)e->incorrect;

	if (!e->correct && !e->incorrect)
		return -1;
	return (double)e->incorrect * 100.0 / t;
}

bool kattr_profile_entry_is_wrong(const struct kattr_profile_entry *e)
{
	return e->hint != KATTR_PROFILE_HINT_NONE && e->incorrect > e->correct;
}

size_t kattr_profile_wrong(const struct kattr_profile *p)
{
	return p->priv->wrong;
}

void prof_count_wrong(struct kattr_profile *p)
{
	size_t wrong = 0;

	for (size_t i = 0; i < p->n; i++)
		wrong += kattr_profile_entry_is_wrong(&p->entries[i]);
	p->priv->wrong = wrong;
}
