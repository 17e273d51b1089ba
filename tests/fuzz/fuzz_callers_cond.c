// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * likelytop --callers' hint condition parser on arbitrary text: what it
 * accepts is a set of sorted, disjoint spans whose filter text fits, and
 * whose negation is its exact complement (checked at every span's edges).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "callers_cond.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_edges(const struct lt_cond *c, const struct lt_cond *neg)
{
	for (size_t i = 0; i < c->nspan; i++) {
		/* keys to values: the sign bit flipped back where signed */
		const uint64_t x = c->sign ? UINT64_C(1) << 63 : 0;
		const uint64_t v[4] = { c->span[i].lo ^ x, c->span[i].hi ^ x,
					(c->span[i].lo - 1) ^ x, (c->span[i].hi + 1) ^ x };

		if (c->span[i].lo > c->span[i].hi ||
		    (i && c->span[i].lo <= c->span[i - 1].hi))
			abort();
		for (int k = 0; k < 4; k++)
			if (lt_cond_true(c, v[k]) == lt_cond_true(neg, v[k]))
				abort();
	}
}

/* The input parsed with flags: the sets and their filter consistent. */
static void one(const uint8_t *data, size_t size, unsigned int flags)
{
	struct lt_cond c, neg;
	char why[256], f[600];

	if (lt_cond_parse((const char *)data, size, flags, &c, why, sizeof(why)) < 0) {
		if (!why[0] || !memchr(why, '\0', sizeof(why)))
			abort();
		return;
	}
	if (c.nspan > LT_COND_SPANS || !c.var[0] || c.sign != !!(flags & LT_COND_SIGNED))
		abort();
	neg = c;
	lt_cond_negate(&neg);
	check_edges(&c, &neg);
	check_edges(&neg, &c);
	lt_cond_negate(&neg);
	if (neg.nspan != c.nspan || memcmp(neg.span, c.span, c.nspan * sizeof(c.span[0])))
		abort();
	if (lt_cond_filter(&c, "ptr", f, sizeof(f)) < 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	one(data, size, 0);
	one(data, size, LT_COND_SIGNED);
	return 0;
}
