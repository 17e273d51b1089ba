// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Profile entries in order (by a numeric key on compact key pairs, by a
 * name, or only the first k through a heap) and filtered.
 */
#include <stdlib.h>

#include "profile_internal.h"

static const char *const sort_names[KATTR_PROFILE_SORT_COUNT_] = {
	[KATTR_PROFILE_SORT_INCORRECT] = "incorrect",
	[KATTR_PROFILE_SORT_CORRECT] = "correct",
	[KATTR_PROFILE_SORT_PERCENT] = "percent",
	[KATTR_PROFILE_SORT_TOTAL] = "total",
	[KATTR_PROFILE_SORT_RATE] = "rate",
	[KATTR_PROFILE_SORT_FUNCTION] = "function",
	[KATTR_PROFILE_SORT_FILE] = "file",
};

int kattr_profile_sort_parse(const char *name, enum kattr_profile_sort *key)
{
	for (int i = 0; i < KATTR_PROFILE_SORT_COUNT_; i++) {
		if (!strcmp(name, sort_names[i])) {
			*key = (enum kattr_profile_sort)i;
			return 0;
		}
	}
	return -EINVAL;
}

const char *kattr_profile_sort_name(enum kattr_profile_sort key)
{
	return (unsigned int)key < KATTR_PROFILE_SORT_COUNT_ ? sort_names[key] : "?";
}

#define CMP(a, b) (((a) > (b)) - ((a) < (b)))

static int cmp_site(const struct kattr_profile_entry *a,
		    const struct kattr_profile_entry *b)
{
	int c = strcmp(a->function, b->function);

	if (!c)
		c = strcmp(a->file, b->file);
	if (!c)
		c = CMP(a->line, b->line);
	if (!c)
		c = CMP(a->hint, b->hint);
	return c;
}

struct sort_ctx {
	enum kattr_profile_sort key;
	int dir;
};

/* Ascending order of the key's natural direction. */
static int cmp_key(const struct kattr_profile_entry *a,
		   const struct kattr_profile_entry *b, enum kattr_profile_sort key)
{
	switch (key) {
	case KATTR_PROFILE_SORT_INCORRECT:
		return -CMP(a->incorrect, b->incorrect);
	case KATTR_PROFILE_SORT_CORRECT:
		return -CMP(a->correct, b->correct);
	case KATTR_PROFILE_SORT_PERCENT:
		return -CMP(kattr_profile_entry_pct(a), kattr_profile_entry_pct(b));
	case KATTR_PROFILE_SORT_TOTAL:
		return -CMP(kattr_profile_entry_total(a), kattr_profile_entry_total(b));
	case KATTR_PROFILE_SORT_RATE: {
		double ra = a->has_rate ? a->rate : 0, rb = b->has_rate ? b->rate : 0;

		return -CMP(ra, rb);
	}
	case KATTR_PROFILE_SORT_FUNCTION:
		return strcmp(a->function, b->function);
	case KATTR_PROFILE_SORT_FILE: {
		int c = strcmp(a->file, b->file);

		return c ? c : CMP(a->line, b->line);
	}
	default:
		return 0;
	}
}

static int cmp_entries(const void *pa, const void *pb, void *arg)
{
	const struct kattr_profile_entry *a = *(const struct kattr_profile_entry *const *)pa;
	const struct kattr_profile_entry *b = *(const struct kattr_profile_entry *const *)pb;
	const struct sort_ctx *ctx = arg;
	int c = cmp_key(a, b, ctx->key);

	if (!c)
		c = cmp_site(a, b);
	return c * ctx->dir;
}

/* Numeric keys are sorted as compact (key, entry) pairs: comparing them
 * touches no entry unless two keys tie (cache-friendly on 200,000 sites). */
struct keyed {
	uint64_t k;
	uint64_t k2;	/* the function's first 8 bytes, big-endian: most
			 * ties are broken without touching the entry */
	const struct kattr_profile_entry *e;
};

static uint64_t name_key(const char *s)
{
	uint64_t k = 0;
	int i = 0;

	for (; i < 8 && s[i]; i++)
		k = k << 8 | (unsigned char)s[i];
	return k << (8 * (8 - i));
}

/* Order-preserving map of a double >= 0 (or -1: never evaluated, least). */
static uint64_t dbl_key(double d)
{
	uint64_t u;

	if (!(d >= 0))
		return 0;
	memcpy(&u, &d, sizeof(u));
	return u + 1;
}

static inline __attribute__((always_inline)) uint64_t
num_key(const struct kattr_profile_entry *e, enum kattr_profile_sort key)
{
	switch (key) {
	case KATTR_PROFILE_SORT_INCORRECT:
		return e->incorrect;
	case KATTR_PROFILE_SORT_CORRECT:
		return e->correct;
	case KATTR_PROFILE_SORT_TOTAL:
		return kattr_profile_entry_total(e);
	case KATTR_PROFILE_SORT_PERCENT:
		return dbl_key(kattr_profile_entry_pct(e));
	default:
		return dbl_key(e->has_rate ? e->rate : 0);
	}
}

static int cmp_keyed(const void *pa, const void *pb, void *arg)
{
	const struct keyed *a = pa, *b = pb;
	const struct sort_ctx *ctx = arg;
	int c = -CMP(a->k, b->k);	/* numbers: descending */

	if (!c)
		c = CMP(a->k2, b->k2);
	if (!c)
		c = cmp_site(a->e, b->e);
	return c * ctx->dir;
}

/* Sorted by a name: no numeric key pairs. */
static bool is_name_key(enum kattr_profile_sort key)
{
	return key == KATTR_PROFILE_SORT_FUNCTION || key == KATTR_PROFILE_SORT_FILE;
}

/* A heap member: the key pair and where the entry sits in the input. */
struct heaped {
	struct keyed kv;
	size_t at;
};
_Static_assert(sizeof(struct heaped) <= 64, "heap_sift()'s swap room");

static void keyed_fill(struct keyed *kv, const struct kattr_profile_entry *e,
		       const struct sort_ctx *ctx)
{
	bool named = is_name_key(ctx->key);

	kv->k = named ? 0 : num_key(e, ctx->key);
	kv->k2 = named ? 0 : name_key(e->function);
	kv->e = e;
}

static int heap_cmp(const struct heaped *a, const struct heaped *b,
		    struct sort_ctx *ctx)
{
	if (is_name_key(ctx->key))
		return cmp_entries(&a->kv.e, &b->kv.e, ctx);
	return cmp_keyed(&a->kv, &b->kv, ctx);
}

/*
 * Restore the heap of k members of size bytes (the worst of the k kept on
 * top, by cmp: qsort_r()'s) below slot i.  One sift-down for both heaps,
 * sort_few()'s and kattr_profile_top()'s: a few hundred sifts a refresh,
 * the calls through cmp cost nothing measurable.
 */
static void heap_sift(void *base, size_t size, size_t k, size_t i,
		      int (*cmp)(const void *, const void *, void *), void *ctx)
{
	char *h = base;
	unsigned char t[64];

	for (;;) {
		size_t c = 2 * i + 1, w = i;

		if (c < k && cmp(h + c * size, h + w * size, ctx) > 0)
			w = c;
		if (c + 1 < k && cmp(h + (c + 1) * size, h + w * size, ctx) > 0)
			w = c + 1;
		if (w == i)
			return;
		memcpy(t, h + i * size, size);
		memcpy(h + i * size, h + w * size, size);
		memcpy(h + w * size, t, size);
		i = w;
	}
}

static int cmp_heaped(const void *a, const void *b, void *ctx)
{
	return heap_cmp(a, b, ctx);
}

/*
 * The k first of n (a screenful of 200,000 sites, say): one pass keeping
 * the k best in a heap, worst on top.  Most entries cost one comparison of
 * their numeric key with the top's, without touching their name.
 * O(n log k); the others keep their relative order.
 */
static int sort_few(const struct kattr_profile_entry **v, size_t n, size_t k,
		    struct sort_ctx *ctx)
{
	bool named = is_name_key(ctx->key);
	struct heaped *h = malloc(k * sizeof(*h)), c;
	size_t j;

	if (!h)
		return -ENOMEM;
	for (size_t i = 0; i < k; i++) {
		keyed_fill(&h[i].kv, v[i], ctx);
		h[i].at = i;
	}
	for (size_t i = k / 2; i-- > 0;)
		heap_sift(h, sizeof(*h), k, i, cmp_heaped, ctx);
	for (size_t i = k; i < n; i++) {
		if (!named) {
			int q = -CMP(num_key(v[i], ctx->key), h[0].kv.k) * ctx->dir;

			if (q > 0)
				continue;	/* worse than the worst kept */
		}
		keyed_fill(&c.kv, v[i], ctx);
		c.at = i;
		if (heap_cmp(&c, &h[0], ctx) >= 0)
			continue;
		h[0] = c;
		heap_sift(h, sizeof(*h), k, 0, cmp_heaped, ctx);
	}
	qsort_r(h, k, sizeof(*h), cmp_heaped, ctx);
	/* The kept ones first, in order; the others behind, in input order. */
	for (size_t i = 0; i < k; i++)
		v[h[i].at] = NULL;
	j = n;
	for (size_t i = n; i-- > 0;)
		if (v[i])
			v[--j] = v[i];
	for (size_t i = 0; i < k; i++)
		v[i] = h[i].kv.e;
	free(h);
	return 0;
}

/* A key and its entry: what the radix passes move (16 bytes). */
struct kpair {
	uint64_t k;
	const struct kattr_profile_entry *e;
};

/* Ties of the numeric key: by the function's first bytes, then the site
 * (cmp_keyed() without the key), in the direction asked. */
static int cmp_tie(const struct kpair *a, const struct kpair *b, int dir)
{
	uint64_t ka = name_key(a->e->function), kb = name_key(b->e->function);
	int c = CMP(ka, kb);

	if (!c)
		c = cmp_site(a->e, b->e);
	return c * dir;
}

static int cmp_kpair_tie(const void *pa, const void *pb, void *arg)
{
	return cmp_tie(pa, pb, *(const int *)arg);
}

/* Order a run of equal keys: insertion for the usual few, qsort_r for
 * long runs (a rate of 0 everywhere: the whole profile). */
static void sort_ties(struct kpair *v, size_t n, int dir)
{
	if (n > 16) {
		qsort_r(v, n, sizeof(*v), cmp_kpair_tie, &dir);
		return;
	}
	for (size_t i = 1; i < n; i++) {
		struct kpair t = v[i];
		size_t j = i;

		for (; j > 0 && cmp_tie(&v[j - 1], &t, dir) > 0; j--)
			v[j] = v[j - 1];
		v[j] = t;
	}
}

/*
 * LSD radix sort of the pairs on k ascending, a byte a pass, skipping the
 * bytes every key shares (counts below 2^32: four passes).  Stable; tmp
 * has n pairs.  Returns where the sorted pairs are (v or tmp).
 */
static struct kpair *radix_pairs(struct kpair *v, struct kpair *tmp, size_t n)
{
	size_t count[8][256] = { { 0 } };	/* 16 KiB: no static state */
	struct kpair *src = v, *dst = tmp, *t;

	for (size_t i = 0; i < n; i++) {
		uint64_t k = v[i].k;

		for (int b = 0; b < 8; b++)
			count[b][(k >> (8 * b)) & 0xff]++;
	}
	for (int b = 0; b < 8; b++) {
		size_t sum = 0, *c = count[b];

		if (c[(src[0].k >> (8 * b)) & 0xff] == n)
			continue;	/* one value of this byte: nothing moves */
		for (int d = 0; d < 256; d++) {
			size_t x = c[d];

			c[d] = sum;
			sum += x;
		}
		for (size_t i = 0; i < n; i++)
			dst[c[(src[i].k >> (8 * b)) & 0xff]++] = src[i];
		t = src;
		src = dst;
		dst = t;
	}
	return src;
}

/*
 * Every entry by a numeric key: the same order as qsort_r(cmp_entries),
 * in O(n) passes.  Keys are mapped so that the wanted order is ascending
 * (descending numbers: ~k), then each run of equal keys is ordered by
 * the tie-break.  -ENOMEM.
 */
static int sort_radix(const struct kattr_profile_entry **v, size_t n,
		      const struct sort_ctx *ctx)
{
	struct kpair *a = malloc(2 * n * sizeof(*a)), *r;
	size_t i, j;

	if (!a)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		uint64_t k = num_key(v[i], ctx->key);

		a[i].k = ctx->dir > 0 ? ~k : k;
		a[i].e = v[i];
	}
	r = radix_pairs(a, a + n, n);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && r[j].k == r[i].k; j++)
			;
		if (j - i > 1)
			sort_ties(r + i, j - i, ctx->dir);
	}
	for (i = 0; i < n; i++)
		v[i] = r[i].e;
	free(a);
	return 0;
}

void kattr_profile_sort_top(const struct kattr_profile_entry **v, size_t n,
			 enum kattr_profile_sort key, bool reverse, size_t k)
{
	struct sort_ctx ctx = { key, reverse ? -1 : 1 };
	struct keyed *kv = NULL;

	if (n < 2)
		return;
	if (k && k < n && sort_few(v, n, k, &ctx) == 0)
		return;
	/* All of them: by a numeric key, radix passes (200,000 sites in a
	 * batch pass); by a name, or without memory, one comparison sort. */
	if (!is_name_key(key) && sort_radix(v, n, &ctx) == 0)
		return;
	if (!is_name_key(key))
		kv = malloc(n * sizeof(*kv));
	if (!kv) {
		qsort_r(v, n, sizeof(*v), cmp_entries, &ctx);
		return;
	}
	for (size_t i = 0; i < n; i++)
		keyed_fill(&kv[i], v[i], &ctx);
	qsort_r(kv, n, sizeof(*kv), cmp_keyed, &ctx);
	for (size_t i = 0; i < n; i++)
		v[i] = kv[i].e;
	free(kv);
}

/* The reference order (tests): one comparison sort of everything. */
void kattr_profile_sort_ref(const struct kattr_profile_entry **v, size_t n,
			 enum kattr_profile_sort key, bool reverse)
{
	struct sort_ctx ctx = { key, reverse ? -1 : 1 };

	qsort_r(v, n, sizeof(*v), cmp_entries, &ctx);
}

void kattr_profile_sort(const struct kattr_profile_entry **v, size_t n,
		     enum kattr_profile_sort key, bool reverse)
{
	kattr_profile_sort_top(v, n, key, reverse, 0);
}

bool kattr_profile_filter_match(const struct kattr_profile_filter *f,
			     const struct kattr_profile_entry *e)
{
	if (!f)
		return true;
	if (f->wrong_only && !kattr_profile_entry_is_wrong(e))
		return false;
	if (f->min_total && kattr_profile_entry_total(e) < f->min_total)
		return false;
	if (f->substr && *f->substr && !strstr(e->function, f->substr) &&
	    !strstr(e->file, f->substr))
		return false;
	return true;
}

size_t kattr_profile_select_entries(const struct kattr_profile_entry *entries,
				size_t n, const struct kattr_profile_filter *f,
				const struct kattr_profile_entry **v)
{
	size_t k = 0;

	if (!f || (!f->wrong_only && !f->min_total && (!f->substr || !*f->substr))) {
		for (size_t i = 0; i < n; i++)	/* no filter: all */
			v[i] = &entries[i];
		return n;
	}
	for (size_t i = 0; i < n; i++)
		if (kattr_profile_filter_match(f, &entries[i]))
			v[k++] = &entries[i];
	return k;
}

size_t kattr_profile_select(const struct kattr_profile *p,
			 const struct kattr_profile_filter *f,
			 const struct kattr_profile_entry **v)
{
	return kattr_profile_select_entries(p->entries, p->n, f, v);
}

int prof_cmp_entries(const struct kattr_profile_entry *a,
		     const struct kattr_profile_entry *b,
		     enum kattr_profile_sort key, int dir)
{
	struct sort_ctx ctx = { key, dir };

	return cmp_entries(&a, &b, &ctx);
}

uint64_t prof_num_key(const struct kattr_profile_entry *e,
		      enum kattr_profile_sort key)
{
	return num_key(e, key);
}

/* ---- the first k sites of a profile, entries or a live one's sites ---- */

/* A heap member of kattr_profile_top(): key pair and site index. */
struct topped {
	uint64_t k;
	uint64_t k2;
	size_t i;
};
_Static_assert(sizeof(struct topped) <= 64, "heap_sift()'s swap room");

struct top_ctx {
	const struct kattr_profile *p;
	struct sort_ctx s;
};

/* The numeric key of site i without making its entry (num_key() on the
 * fields it reads, the rate as prof_entry() makes it). */
static inline __attribute__((always_inline)) uint64_t
site_key(const struct kattr_profile *p, size_t i, enum kattr_profile_sort key)
{
	const struct kattr_profile_priv *pv = p->priv;
	const struct site *s;
	struct kattr_profile_entry e;
	uint64_t d;

	if (p->entries)
		return num_key(&p->entries[i], key);
	s = &pv->sites[i];
	switch (key) {
	case KATTR_PROFILE_SORT_INCORRECT:
		return s->incorrect;
	case KATTR_PROFILE_SORT_CORRECT:
		return s->correct;
	case KATTR_PROFILE_SORT_TOTAL:
		return s->correct + s->incorrect < s->correct ? UINT64_MAX :
		       s->correct + s->incorrect;
	case KATTR_PROFILE_SORT_PERCENT:
		e.correct = s->correct;
		e.incorrect = s->incorrect;
		return dbl_key(kattr_profile_entry_pct(&e));
	default:
		d = pv->deltas ? pv->deltas[i].d_incorrect : 0;
		return dbl_key((s->flags & SITE_HAS_RATE) && d ?
			       (double)d / pv->seconds : 0);
	}
}

static void topped_fill(struct topped *t, size_t i, const struct top_ctx *c)
{
	struct kattr_profile_entry e;
	bool named = is_name_key(c->s.key);

	t->i = i;
	t->k = named ? 0 : site_key(c->p, i, c->s.key);
	if (!named) {
		prof_entry(c->p, i, &e);
		t->k2 = name_key(e.function);
	} else {
		t->k2 = 0;
	}
}

/* heap_cmp()'s order: cmp_keyed() (numbers), cmp_entries() (names). */
static int topped_cmp(const void *pa, const void *pb, void *arg)
{
	const struct topped *a = pa, *b = pb;
	struct top_ctx *c = arg;
	struct kattr_profile_entry ea, eb;
	const struct kattr_profile_entry *pea = &ea, *peb = &eb;
	int r = 0;

	if (!is_name_key(c->s.key)) {
		r = -CMP(a->k, b->k);
		if (!r)
			r = CMP(a->k2, b->k2);
		if (r)
			return r * c->s.dir;
	}
	prof_entry(c->p, a->i, &ea);
	prof_entry(c->p, b->i, &eb);
	if (!is_name_key(c->s.key))
		return cmp_site(&ea, &eb) * c->s.dir;
	return cmp_entries(&pea, &peb, &c->s);
}

/* One site into the heap h of *nh (<= k) kept, worst on top. */
static void top_offer(struct topped *h, size_t *nh, size_t k, size_t i,
		      struct top_ctx *c)
{
	struct topped t;

	if (*nh < k) {
		topped_fill(&h[(*nh)++], i, c);
		if (*nh == k)
			for (size_t j = k / 2; j-- > 0;)
				heap_sift(h, sizeof(*h), k, j, topped_cmp, c);
		return;
	}
	/* most sites: one compare of the numeric key with the worst kept */
	if (!is_name_key(c->s.key) &&
	    -CMP(site_key(c->p, i, c->s.key), h[0].k) * c->s.dir > 0)
		return;
	topped_fill(&t, i, c);
	if (topped_cmp(&t, &h[0], c) >= 0)
		return;
	h[0] = t;
	heap_sift(h, sizeof(*h), k, 0, topped_cmp, c);
}

/* Ordered by a count, no filter, a live profile's sites (the live view's
 * default): the heap's test on the counts read straight off the sites. */
static int top_counts(const struct kattr_profile *p, enum kattr_profile_sort key,
		      bool reverse, size_t k, size_t *idx, size_t *matched,
		      struct topped *h, struct top_ctx *c)
{
	const struct site *sv = p->priv->sites;
	bool inc = key == KATTR_PROFILE_SORT_INCORRECT;
	size_t nh = 0, i = 0;

	for (; i < p->n && nh < k; i++)
		top_offer(h, &nh, k, i, c);
	for (; i < p->n; i++) {
		uint64_t x = inc ? sv[i].incorrect : sv[i].correct;

		if (reverse ? x > h[0].k : x < h[0].k)
			continue;
		top_offer(h, &nh, k, i, c);
	}
	qsort_r(h, nh, sizeof(*h), topped_cmp, c);
	for (i = 0; i < nh; i++)
		idx[i] = h[i].i;
	free(h);
	*matched = p->n;
	return 0;
}

int kattr_profile_top(const struct kattr_profile *p,
		      const struct kattr_profile_filter *f,
		      enum kattr_profile_sort key, bool reverse, size_t k,
		      size_t *idx, size_t *matched)
{
	struct top_ctx c = { p, { key, reverse ? -1 : 1 } };
	bool all = !f || (!f->wrong_only && !f->min_total &&
			  (!f->substr || !*f->substr));
	struct topped *h;
	struct kattr_profile_entry e;
	size_t nh = 0, m = 0;

	*matched = 0;
	if (!k)
		return 0;
	h = malloc(k * sizeof(*h));
	if (!h)
		return -ENOMEM;
	if (all && !p->entries && (key == KATTR_PROFILE_SORT_INCORRECT ||
				   key == KATTR_PROFILE_SORT_CORRECT))
		return top_counts(p, key, reverse, k, idx, matched, h, &c);
	for (size_t i = 0; i < p->n; i++) {
		if (!all) {
			prof_entry(p, i, &e);
			if (!kattr_profile_filter_match(f, &e))
				continue;
		} else if (nh == k && !is_name_key(key)) {
			/* the usual case, top_offer()'s first test inline:
			 * one key compare a site */
			uint64_t x = site_key(p, i, key);

			if (reverse ? x > h[0].k : x < h[0].k) {
				m++;
				continue;
			}
		}
		m++;
		top_offer(h, &nh, k, i, &c);
	}
	qsort_r(h, nh, sizeof(*h), topped_cmp, &c);
	for (size_t i = 0; i < nh; i++)
		idx[i] = h[i].i;
	free(h);
	*matched = m;
	return 0;
}
