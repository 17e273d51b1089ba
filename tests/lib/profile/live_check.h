/* A live profile (kattr_profile_parse_live()) against the profile it
 * stands for: its entries (kattr_profile_entry_get()) must be those of the
 * same text parsed by kattr_profile_parse_buf() and diffed by
 * kattr_profile_diff() against the previous snapshot, every field; its
 * first k sites (kattr_profile_top()) those kattr_profile_sort_top() puts
 * first, for every key, both directions, a few k and filters; and
 * kattr_profile_zero_rates() must do to it what it does to the entries.
 * Shared by test_profile.c and tests/fuzz/fuzz_profile_next.c. */
#ifndef LIVE_CHECK_H
#define LIVE_CHECK_H

#include <stdlib.h>
#include <string.h>

#include "kattr/profile.h"
#include "kattr/private.h"
#include "ref_likely_row.h"

static inline bool live_same_entry(const struct kattr_profile_entry *a,
				   const struct kattr_profile_entry *b)
{
	return ref_same_entry(a, b) && a->has_rate == b->has_rate &&
	       a->reset == b->reset && a->d_correct == b->d_correct &&
	       a->d_incorrect == b->d_incorrect && a->rate == b->rate;
}

/* Every entry of live against ref's (ref has entries); NULL or what
 * differs. */
static inline const char *live_check_entries(const struct kattr_profile *live,
					     const struct kattr_profile *ref)
{
	struct kattr_profile_entry e;
	size_t wrong = 0;

	if (live->n != ref->n || live->rows != ref->rows ||
	    live->bad_rows != ref->bad_rows || live->format != ref->format ||
	    live->counter_bits != ref->counter_bits)
		return "the profile's counts differ";
	for (size_t i = 0; i < live->n; i++) {
		kattr_profile_entry_get(live, i, &e);
		if (!live_same_entry(&e, &ref->entries[i]))
			return "an entry differs";
		wrong += kattr_profile_entry_is_wrong(&e);
	}
	if (kattr_profile_wrong(live) != wrong)
		return "the wrong hints are miscounted";
	return NULL;
}

/* a and b tie under key's order: the same site, the same key (rows of
 * one site, as likely(a) && likely(b) make, may come in either order) */
static inline bool live_same_rank(const struct kattr_profile_entry *a,
				  const struct kattr_profile_entry *b,
				  enum kattr_profile_sort key)
{
	if (a->line != b->line || a->hint != b->hint ||
	    strcmp(a->function, b->function) || strcmp(a->file, b->file))
		return false;
	switch (key) {
	case KATTR_PROFILE_SORT_INCORRECT:
		return a->incorrect == b->incorrect;
	case KATTR_PROFILE_SORT_CORRECT:
		return a->correct == b->correct;
	case KATTR_PROFILE_SORT_TOTAL:
		return kattr_profile_entry_total(a) == kattr_profile_entry_total(b);
	case KATTR_PROFILE_SORT_PERCENT:
		return kattr_profile_entry_pct(a) == kattr_profile_entry_pct(b);
	case KATTR_PROFILE_SORT_RATE:
		return (a->has_rate ? a->rate : 0) == (b->has_rate ? b->rate : 0);
	default:
		return true;
	}
}

/* live's first k by key against kattr_profile_sort_top() on ref's entries
 * (v: ref->n + 1 pointers, idx: as many indexes). */
static inline const char *live_check_top(const struct kattr_profile *live,
					 const struct kattr_profile *ref,
					 const struct kattr_profile_filter *f,
					 enum kattr_profile_sort key, bool reverse,
					 size_t k, const struct kattr_profile_entry **v,
					 size_t *idx)
{
	struct kattr_profile_entry e;
	size_t m, n, kept;

	if (kattr_profile_top(live, f, key, reverse, k, idx, &m) < 0)
		return "kattr_profile_top() failed";
	n = kattr_profile_select(ref, f, v);
	if (m != n)
		return "a filter kept other sites";
	kattr_profile_sort_top(v, n, key, reverse, k);
	kept = k < n ? k : n;
	for (size_t i = 0; i < kept; i++) {
		kattr_profile_entry_get(live, idx[i], &e);
		if (!live_same_entry(&e, v[i]) && !live_same_rank(&e, v[i], key))
			return "the first k differ";
	}
	return NULL;
}

/* Every check on live against ref (both the same snapshot). */
static inline const char *live_check(struct kattr_profile *live,
				     struct kattr_profile *ref)
{
	static const size_t ks[] = { 1, 2, 3, 40 };
	struct kattr_profile_filter fs[3] = { { 0 } };
	const struct kattr_profile_entry **v;
	const char *why = live_check_entries(live, ref);
	size_t *idx;

	fs[1].min_total = 2;
	fs[2].wrong_only = true;
	fs[2].substr = "a";
	v = malloc((ref->n + 1) * sizeof(*v));
	idx = malloc((ref->n + 41) * sizeof(*idx));
	if (!v || !idx)
		why = why ? why : "out of memory";
	for (int key = 0; !why && key < KATTR_PROFILE_SORT_COUNT_; key++)
		for (int r = 0; !why && r < 2; r++)
			for (size_t j = 0; !why && j < 4; j++)
				why = live_check_top(live, ref, j == 3 ? &fs[r + 1] :
						     j ? &fs[0] : NULL,
						     (enum kattr_profile_sort)key,
						     r, ks[j], v, idx);
	free(v);
	free(idx);
	return why;
}

/* kattr_profile_zero_rates() on both: the same answer, the same entries
 * after. */
static inline const char *live_check_zero(struct kattr_profile *live,
					  struct kattr_profile *ref)
{
	bool a = kattr_profile_zero_rates(live), b = kattr_profile_zero_rates(ref);

	if (a != b)
		return "zero_rates() answered otherwise";
	return live_check_entries(live, ref);
}

#endif
