// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A profile read once (a batch pass over 200,000 sites): parsed by
 * parse.c into 32-byte sites instead of entries, selected and ordered
 * through an index of 8 bytes a site, and handed out one entry at a
 * time.  The order is kattr_profile_sort_top()'s (tests/lib/profile and
 * tests/fuzz/fuzz_prof_table.c compare the two).
 */
#include <stdlib.h>

#include "profile_internal.h"

struct kattr_profile_table_priv {
	struct kattr_profile *p;	/* entries NULL: p->priv->tsites */
	/* After kattr_profile_table_order(): the sites shown, in order, each
	 * a site index (low 32 bits) under its key's top bits. */
	uint64_t *ord;
};

int kattr_profile_table_parse_buf(char *buf, size_t len,
			       enum kattr_profile_format fmt,
			       struct kattr_profile_table **out)
{
	struct kattr_profile_table *t = calloc(1, sizeof(*t));
	struct kattr_profile *p;
	int ret;

	if (!t || !(t->priv = calloc(1, sizeof(*t->priv)))) {
		free(t);
		free(buf);
		return -ENOMEM;
	}
	ret = prof_parse_buf(buf, len, fmt, NULL, true, false, 0, &p);
	if (ret < 0) {
		free(t->priv);
		free(t);
		return ret;
	}
	t->priv->p = p;
	t->format = p->format;
	t->has_header = p->has_header;
	t->counter_bits = p->counter_bits;
	t->n = t->shown = p->n;
	t->rows = p->rows;
	t->bad_rows = p->bad_rows;
	*out = t;
	return 0;
}

void kattr_profile_table_free(struct kattr_profile_table *t)
{
	if (!t)
		return;
	if (t->priv) {
		kattr_profile_free(t->priv->p);
		free(t->priv->ord);
	}
	free(t->priv);
	free(t);
}

static bool no_filter(const struct kattr_profile_filter *f)
{
	return !f || (!f->wrong_only && !f->min_total &&
		      (!f->substr || !*f->substr));
}

/* The site indexes that pass f into ord; returns how many. */
static size_t table_select(const struct kattr_profile *p,
			   const struct kattr_profile_filter *f, uint64_t *ord)
{
	struct kattr_profile_entry e;
	size_t m = 0;

	for (size_t i = 0; i < p->n; i++) {
		if (!no_filter(f)) {
			tsite_entry(p, i, &e);
			if (!kattr_profile_filter_match(f, &e))
				continue;
		}
		ord[m++] = i;
	}
	return m;
}

/* Order of two index words by the reference comparison of their sites. */
struct table_ctx {
	const struct kattr_profile *p;
	enum kattr_profile_sort key;
	int dir;
};

static int cmp_ord(const void *pa, const void *pb, void *arg)
{
	const struct table_ctx *c = arg;
	struct kattr_profile_entry a, b;

	tsite_entry(c->p, (uint32_t)*(const uint64_t *)pa, &a);
	tsite_entry(c->p, (uint32_t)*(const uint64_t *)pb, &b);
	return prof_cmp_entries(&a, &b, c->key, c->dir);
}

/* A run of index words with the same top bits: insertion for the usual
 * few, qsort_r for long runs (a rate of 0 everywhere: all of them). */
static void sort_run(uint64_t *v, size_t n, struct table_ctx *c)
{
	if (n > 16) {
		qsort_r(v, n, sizeof(*v), cmp_ord, c);
		return;
	}
	for (size_t i = 1; i < n; i++) {
		uint64_t t = v[i];
		size_t j = i;

		for (; j > 0 && cmp_ord(&v[j - 1], &t, c) > 0; j--)
			v[j] = v[j - 1];
		v[j] = t;
	}
}

/*
 * LSD radix passes over the top 32 bits of the n words (a byte a pass,
 * bytes every word shares skipped), stable; tmp has n words.  Returns
 * where the sorted words are (v or tmp).
 */
static uint64_t *radix_top(uint64_t *v, uint64_t *tmp, size_t n)
{
	size_t count[4][256] = { { 0 } };
	uint64_t *src = v, *dst = tmp, *t;

	for (size_t i = 0; i < n; i++)
		for (int b = 0; b < 4; b++)
			count[b][(v[i] >> (32 + 8 * b)) & 0xff]++;
	for (int b = 0; b < 4; b++) {
		size_t sum = 0, *c = count[b];
		unsigned int sh = 32 + 8 * (unsigned int)b;

		if (c[(src[0] >> sh) & 0xff] == n)
			continue;	/* one value of this byte: nothing moves */
		for (int d = 0; d < 256; d++) {
			size_t x = c[d];

			c[d] = sum;
			sum += x;
		}
		for (size_t i = 0; i < n; i++)
			dst[c[(src[i] >> sh) & 0xff]++] = src[i];
		t = src;
		src = dst;
		dst = t;
	}
	return src;
}

/*
 * The m selected index words by a numeric key: each gets the key's top 32
 * significant bits above it (in the wanted order: inverted for numbers
 * descending), radix passes order them, and each run of equal top bits is
 * ordered by the full comparison.  Counts below 2^32 are whole keys: the
 * runs are ties.  -ENOMEM.
 */
static int order_numeric(uint64_t **ordp, size_t m, struct table_ctx *c)
{
	uint64_t *ord = *ordp, *tmp, *r, maxk = 0;
	struct kattr_profile_entry e;
	unsigned int shift = 0;
	size_t i, j;

	for (i = 0; i < m; i++) {
		tsite_entry(c->p, (uint32_t)ord[i], &e);
		if (prof_num_key(&e, c->key) > maxk)
			maxk = prof_num_key(&e, c->key);
	}
	if (maxk >> 32)
		shift = 64 - (unsigned int)__builtin_clzll(maxk) - 32;
	for (i = 0; i < m; i++) {
		uint32_t k;

		tsite_entry(c->p, (uint32_t)ord[i], &e);
		k = (uint32_t)(prof_num_key(&e, c->key) >> shift);
		ord[i] = (uint64_t)(c->dir > 0 ? ~k : k) << 32 | (uint32_t)ord[i];
	}
	tmp = malloc((m ? m : 1) * sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	r = radix_top(ord, tmp, m);
	if (r != ord) {		/* keep the sorted words, free the other */
		free(ord);
		*ordp = ord = r;
	} else {
		free(tmp);
	}
	for (i = 0; i < m; i = j) {
		for (j = i + 1; j < m && ord[j] >> 32 == ord[i] >> 32; j++)
			;
		if (j - i > 1)
			sort_run(ord + i, j - i, c);
	}
	return 0;
}

static bool is_name(enum kattr_profile_sort key)
{
	return key == KATTR_PROFILE_SORT_FUNCTION || key == KATTR_PROFILE_SORT_FILE;
}

int kattr_profile_table_order(struct kattr_profile_table *t,
			   const struct kattr_profile_filter *f,
			   enum kattr_profile_sort key, bool reverse)
{
	struct kattr_profile_table_priv *pv = t->priv;
	struct table_ctx c = { pv->p, key, reverse ? -1 : 1 };
	size_t m;

	free(pv->ord);
	t->shown = t->n;
	pv->ord = malloc((t->n ? t->n : 1) * sizeof(*pv->ord));
	if (!pv->ord)
		return -ENOMEM;
	m = table_select(pv->p, f, pv->ord);
	if (m < 2) {
		t->shown = m;
		return 0;
	}
	if (is_name(key))
		qsort_r(pv->ord, m, sizeof(*pv->ord), cmp_ord, &c);
	else if (order_numeric(&pv->ord, m, &c) < 0) {
		free(pv->ord);
		pv->ord = NULL;
		return -ENOMEM;
	}
	t->shown = m;
	return 0;
}

void kattr_profile_table_entry(const struct kattr_profile_table *t, size_t i,
			    struct kattr_profile_entry *e)
{
	const struct kattr_profile_table_priv *pv = t->priv;
	const struct kattr_profile *p = pv->p;
	const uint64_t *ord = pv->ord;

	if (!ord) {
		tsite_entry(p, i, e);
		return;
	}
	/* The order is scattered over the sites: fetch the site 16 rows
	 * ahead and its names 8 rows ahead. */
	if (i + 16 < t->shown)
		__builtin_prefetch(&p->priv->tsites[(uint32_t)ord[i + 16]]);
	if (i + 8 < t->shown) {
		const struct tsite *s = &p->priv->tsites[(uint32_t)ord[i + 8]];

		__builtin_prefetch(p->priv->text + s->func);
		__builtin_prefetch(p->priv->text + s->file);
	}
	tsite_entry(p, (uint32_t)ord[i], e);
}
