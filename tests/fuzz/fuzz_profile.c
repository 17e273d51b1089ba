/* libFuzzer: a whole profile in any format, then diff, rebase, sort and
 * filter against the same input parsed again; every entry must be sane. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kattr/profile.h"
#include "kattr/private.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kattr_profile *a = NULL, *b = NULL;
	const struct kattr_profile_entry **v;
	struct kattr_profile_filter f = { .substr = "a", .min_total = 1 };

	if (kattr_profile_parse((const char *)data, size, 0, &a) < 0)
		return 0;
	if (a->n > a->rows || a->bad_rows > a->rows)
		abort();
	if (kattr_profile_parse((const char *)data, size, a->format, &b) < 0)
		abort();	/* same input, same format: must parse again */
	if (b->n != a->n)
		abort();
	if (kattr_profile_diff(a, b, 1.0) < 0)
		abort();
	for (size_t i = 0; i < b->n; i++)
		if (b->entries[i].d_correct || b->entries[i].d_incorrect ||
		    !b->entries[i].function[0] || !b->entries[i].file[0])
			abort();
	(void)kattr_profile_rebase(a, b);
	v = malloc((b->n ? b->n : 1) * sizeof(*v));
	if (v) {
		size_t n = kattr_profile_select(b, &f, v);

		for (int k = 0; k < KATTR_PROFILE_SORT_COUNT_; k++)
			kattr_profile_sort(v, n, (enum kattr_profile_sort)k, k & 1);
		free(v);
	}
	kattr_profile_free(a);
	kattr_profile_free(b);
	return 0;
}
