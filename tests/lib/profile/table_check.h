/* kattr_profile_table_*() against the profile they stand for: the same text
 * parsed by kattr_profile_parse_buf() must give the same sites, and
 * kattr_profile_table_order() the order kattr_profile_select() and the reference
 * sort kattr_profile_sort_ref() give, for every key, direction and a few
 * filters.  Shared by test_profile.c and tests/fuzz/fuzz_prof_table.c. */
#ifndef TABLE_CHECK_H
#define TABLE_CHECK_H

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kattr/profile.h"
#include "kattr/private.h"
#include "ref_likely_row.h"

static inline bool table_same_site(const struct kattr_profile_entry *a,
				   const struct kattr_profile_entry *b)
{
	return a->line == b->line && a->hint == b->hint &&
	       !strcmp(a->function, b->function) && !strcmp(a->file, b->file);
}

/* t's order against p's entries selected by f and sorted by the reference:
 * the same site at each place (entries tied under the reference order are
 * the same site with the same key), the same counts when the key is one. */
static inline const char *table_check_order(struct kattr_profile_table *t,
					    const struct kattr_profile *p,
					    const struct kattr_profile_filter *f,
					    const struct kattr_profile_entry **v)
{
	for (int key = 0; key < KATTR_PROFILE_SORT_COUNT_; key++) {
		for (int rev = 0; rev < 2; rev++) {
			size_t n = kattr_profile_select(p, f, v);
			bool named = key == KATTR_PROFILE_SORT_FUNCTION ||
				     key == KATTR_PROFILE_SORT_FILE;

			if (kattr_profile_table_order(t, f, (enum kattr_profile_sort)key, rev) < 0)
				return "kattr_profile_table_order() failed";
			if (t->shown != n)
				return "another number of sites selected";
			kattr_profile_sort_ref(v, n, (enum kattr_profile_sort)key, rev);
			for (size_t i = 0; i < n; i++) {
				struct kattr_profile_entry e;

				kattr_profile_table_entry(t, i, &e);
				if (!table_same_site(&e, v[i]) ||
				    (!named && (e.correct != v[i]->correct ||
						e.incorrect != v[i]->incorrect)))
					return "another order than the reference sort's";
			}
		}
	}
	return NULL;
}

/* NULL when the len bytes at text give the same as a table and as a
 * profile, else what differs. */
static inline const char *table_check(const char *text, size_t len)
{
	static const struct kattr_profile_filter filters[] = {
		{ .substr = "a", .min_total = 1 }, { .wrong_only = true },
	};
	struct kattr_profile *p = NULL;
	struct kattr_profile_table *t = NULL;
	const struct kattr_profile_entry **v;
	const char *why = NULL;
	char *b1 = malloc(len + 1), *b2 = malloc(len + 1);
	int r1, r2;

	if (!b1 || !b2) {
		free(b1);
		free(b2);
		return NULL;	/* no memory: nothing to compare */
	}
	memcpy(b1, text, len);
	memcpy(b2, text, len);
	r1 = kattr_profile_parse_buf(b1, len, 0, &p);
	r2 = kattr_profile_table_parse_buf(b2, len, 0, &t);
	if (r1 != r2 || r1 < 0) {
		kattr_profile_free(p);
		kattr_profile_table_free(t);
		return r1 != r2 ? "another return value" : NULL;
	}
	if (t->format != p->format || t->has_header != p->has_header ||
	    t->counter_bits != p->counter_bits || t->n != p->n ||
	    t->shown != p->n || t->rows != p->rows || t->bad_rows != p->bad_rows)
		why = "another profile";
	for (size_t i = 0; !why && i < p->n; i++) {
		struct kattr_profile_entry e;

		kattr_profile_table_entry(t, i, &e);
		if (!ref_same_entry(&e, &p->entries[i]) || e.has_rate ||
		    e.reset || e.d_correct || e.d_incorrect || e.rate != 0 ||
		    e.has_rate != p->entries[i].has_rate)
			why = "another entry";
	}
	v = malloc((p->n ? p->n : 1) * sizeof(*v));
	if (!why && v) {
		why = table_check_order(t, p, NULL, v);
		for (size_t k = 0; !why && k < sizeof(filters) / sizeof(*filters); k++)
			why = table_check_order(t, p, &filters[k], v);
	}
	free(v);
	kattr_profile_free(p);
	kattr_profile_table_free(t);
	return why;
}

#endif
