/* libFuzzer: kattr_profile_parse_next() against kattr_profile_parse_buf().
 * The input is two snapshots separated by a line "%%" (without one, the
 * second is the first with every digit advanced: the sites line up).  The
 * second snapshot parsed after the first must give the same entries as
 * parsed alone, and matching it to the first the same pairs; parsed and
 * diffed in one pass (kattr_profile_parse_diff()), the same entries as
 * parsed alone and diffed; parsed live (kattr_profile_parse_live(), after
 * the first parsed live), the same entries, first k and zeroed rates
 * (tests/lib/profile/live_check.h), and the first again parsed live
 * after that (its sites from the fast parsers: likely_run()'s tails). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kattr/profile.h"
#include "kattr/private.h"
#include "../lib/profile/ref_likely_row.h"
#include "../lib/profile/live_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *dup_n(const char *s, size_t n)
{
	char *b = malloc(n + 1);

	if (b)
		memcpy(b, s, n);
	return b;
}

/* The first snapshot again, parsed live after lb (the second, parsed
 * live: its sites from the fast parsers, likely_run()'s tails among them)
 * against it parsed alone and diffed against ref (the second). */
static void check_live_back(const char *text, size_t alen,
			    const struct kattr_profile *lb,
			    struct kattr_profile *ref)
{
	struct kattr_profile *lc = NULL, *ref2 = NULL;
	char *t1 = dup_n(text, alen), *t2 = dup_n(text, alen);

	if (!t1 || !t2) {
		free(t1);
		free(t2);
		return;
	}
	if (kattr_profile_parse_buf(t1, alen, 0, &ref2) < 0) {
		free(t2);
		return;
	}
	if (kattr_profile_diff(ref, ref2, 2) < 0 ||
	    kattr_profile_parse_live(lb, t2, alen, 2, &lc) < 0)
		abort();
	if (live_check(lc, ref2) || live_check_zero(lc, ref2))
		abort();
	kattr_profile_free(lc);
	kattr_profile_free(ref2);
}

/* The first snapshot and the second parsed live against a (the first
 * parsed) and the second parsed and diffed. */
static void check_live(const char *text, size_t alen,
		       struct kattr_profile *a, const char *b, size_t blen)
{
	struct kattr_profile *la = NULL, *lb = NULL, *ref = NULL;
	char *t1 = dup_n(text, alen), *t2 = dup_n(b, blen), *t3 = dup_n(b, blen);

	if (!t1 || !t2 || !t3) {
		free(t1);
		free(t2);
		free(t3);
		return;
	}
	if (kattr_profile_parse_live(NULL, t1, alen, 0, &la) < 0)
		abort();	/* a parsed: so does this */
	if (live_check(la, a) || live_check_zero(la, a))
		abort();
	if (kattr_profile_parse_buf(t2, blen, 0, &ref) < 0) {
		free(t3);
		kattr_profile_free(la);
		return;
	}
	if (kattr_profile_diff(a, ref, 0.5) < 0 ||
	    kattr_profile_parse_live(la, t3, blen, 0.5, &lb) < 0)
		abort();
	if (live_check(lb, ref) || live_check_zero(lb, ref))
		abort();
	check_live_back(text, alen, lb, ref);
	kattr_profile_free(lb);
	kattr_profile_free(ref);
	kattr_profile_free(la);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data, *split;
	struct kattr_profile *a = NULL, *fast = NULL, *slow = NULL;
	size_t alen = size, blen;
	char *b1, *b2, *b3;
	size_t *i1, *i2;
	int r1, r2;

	split = memmem(text, size, "\n%%\n", 4);
	if (split)
		alen = (size_t)(split - text) + 1;
	if (kattr_profile_parse(text, alen, 0, &a) < 0)
		return 0;
	if (split) {
		blen = size - alen - 3;
		b1 = dup_n(split + 4, blen);
	} else {
		blen = size;
		b1 = dup_n(text, size);
		for (size_t i = 0; b1 && i < size; i++)
			if (b1[i] >= '0' && b1[i] <= '8')
				b1[i]++;
	}
	b2 = b1 ? dup_n(b1, blen) : NULL;
	b3 = b1 ? dup_n(b1, blen) : NULL;
	if (b1 && size <= (1 << 16))	/* (many orders: keep a run fast) */
		check_live(text, alen, a, b1, blen);
	if (!b1 || !b2 || !b3) {
		free(b1);
		free(b2);
		free(b3);
		kattr_profile_free(a);
		return 0;
	}
	r1 = kattr_profile_parse_next(a, b1, blen, &fast);
	r2 = kattr_profile_parse_buf(b2, blen, 0, &slow);
	if (r1 != r2)
		abort();
	if (r1 == 0) {
		if (fast->n != slow->n || fast->rows != slow->rows ||
		    fast->bad_rows != slow->bad_rows || fast->format != slow->format ||
		    fast->counter_bits != slow->counter_bits)
			abort();
		for (size_t i = 0; i < fast->n; i++)
			if (!ref_same_entry(&fast->entries[i], &slow->entries[i]))
				abort();
		i1 = malloc((fast->n + 1) * sizeof(*i1));
		i2 = malloc((fast->n + 1) * sizeof(*i2));
		if (i1 && i2 && kattr_profile_match(a, fast, i1) == 0 &&
		    kattr_profile_match(a, slow, i2) == 0 &&
		    memcmp(i1, i2, fast->n * sizeof(*i1)))
			abort();	/* the shortcut paired other sites */
		free(i1);
		free(i2);
		kattr_profile_free(fast);
		/* parsed and diffed in one pass: the same as slow diffed */
		if (b3 && kattr_profile_diff(a, slow, 0.5) == 0) {
			r1 = kattr_profile_parse_diff(a, b3, blen, 0.5, &fast);
			b3 = NULL;	/* taken over */
			if (r1 < 0)
				abort();
			size_t wrong = 0;

			for (size_t i = 0; i < fast->n; i++) {
				const struct kattr_profile_entry *f = &fast->entries[i];
				const struct kattr_profile_entry *s = &slow->entries[i];

				if (!ref_same_entry(f, s) || f->has_rate != s->has_rate ||
				    f->reset != s->reset || f->d_correct != s->d_correct ||
				    f->d_incorrect != s->d_incorrect || f->rate != s->rate)
					abort();
				wrong += kattr_profile_entry_is_wrong(f);
			}
			if (fast->n != slow->n || kattr_profile_wrong(fast) != wrong)
				abort();
			kattr_profile_free(fast);
		}
		kattr_profile_free(slow);
	}
	free(b3);
	kattr_profile_free(a);
	return 0;
}
