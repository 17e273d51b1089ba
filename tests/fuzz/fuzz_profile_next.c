/* libFuzzer: kattr_profile_parse_next() against kattr_profile_parse_buf().
 * The input is two snapshots separated by a line "%%" (without one, the
 * second is the first with every digit advanced: the sites line up).  The
 * second snapshot parsed after the first must give the same entries as
 * parsed alone, and matching it to the first the same pairs; parsed and
 * diffed in one pass (kattr_profile_parse_diff()), the same entries as
 * parsed alone and diffed. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kattr/profile.h"
#include "kattr/private.h"
#include "../lib/profile/ref_likely_row.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *dup_n(const char *s, size_t n)
{
	char *b = malloc(n + 1);

	if (b)
		memcpy(b, s, n);
	return b;
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
				const struct kattr_prof_entry *f = &fast->entries[i];
				const struct kattr_prof_entry *s = &slow->entries[i];

				if (!ref_same_entry(f, s) || f->has_rate != s->has_rate ||
				    f->reset != s->reset || f->d_correct != s->d_correct ||
				    f->d_incorrect != s->d_incorrect || f->rate != s->rate)
					abort();
				wrong += kattr_prof_entry_is_wrong(f);
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
