// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Sites matched between two snapshots of a profile: counter deltas (with
 * 32-bit wrap), rates, and counts rebased on an earlier snapshot.
 */
#include <stdlib.h>

#include "profile_internal.h"

uint64_t kattr_profile_counter_delta(uint64_t a, uint64_t b, unsigned int bits)
{
	bool reset = false;

	return counter_step(a, b, bits, &reset);
}

static uint64_t hash_str(uint64_t h, const char *s)
{
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

static uint64_t entry_hash(const struct kattr_profile_entry *e)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	h = hash_str(h, e->function);
	h ^= 0xff;
	h = hash_str(h, e->file);
	h ^= (uint64_t)e->line * 0x9e3779b97f4a7c15ULL + (uint64_t)e->hint;
	h *= 0x100000001b3ULL;
	return h ^ (h >> 29);
}

static bool same_site(const struct kattr_profile_entry *a,
		      const struct kattr_profile_entry *b)
{
	return a->line == b->line && a->hint == b->hint &&
	       !strcmp(a->function, b->function) && !strcmp(a->file, b->file);
}

/*
 * Are cur's sites prev's, in the same order, behind *k new ones (new
 * sites in front: /proc/likely_prof lists the newest first; tracefs and
 * rewritten user-space files keep their order)?  The common case, matched
 * without hashing: kattr_profile_parse_next() records it when it finds
 * every row of prev again, else the sites are compared.
 */
/* in_order() as the parses recorded it (no entry compared). */
static bool aligned(const struct kattr_profile *prev,
		    const struct kattr_profile *cur, size_t *k)
{
	if (cur->priv && prev->priv && cur->priv->aligned_to == prev->priv->id) {
		*k = cur->priv->aligned_k;
		return true;
	}
	/* prev earlier in cur's chain (a zero base): as well */
	if (cur->priv && prev->priv && cur->priv->chain == prev->priv->chain &&
	    cur->priv->chain_k >= prev->priv->chain_k) {
		*k = cur->priv->chain_k - prev->priv->chain_k;
		return true;
	}
	return false;
}

static bool in_order(const struct kattr_profile *prev,
		     const struct kattr_profile *cur, size_t *k)
{
	if (aligned(prev, cur, k))
		return true;
	if (cur->n < prev->n)
		return false;
	*k = cur->n - prev->n;
	for (size_t i = 0; i < prev->n; i++)
		if (!same_site(&prev->entries[i], &cur->entries[i + *k]))
			return false;
	return true;
}

/* e's deltas and rate against o, the same site in the previous snapshot
 * (NULL: a new site, all of its counts are new). */
static inline __attribute__((always_inline)) void
diff_one(struct kattr_profile_entry *e, const struct kattr_profile_entry *o,
	 unsigned int bits, double seconds)
{
	bool reset = false;

	if (!o) {
		e->d_correct = e->correct;
		e->d_incorrect = e->incorrect;
	} else {
		e->d_correct = counter_step(o->correct, e->correct, bits, &reset);
		e->d_incorrect = counter_step(o->incorrect, e->incorrect, bits,
					      &reset);
	}
	e->reset = reset;
	e->has_rate = !reset;
	e->rate = reset ? 0 : (double)e->d_incorrect / seconds;
}

/*
 * idx (all SIZE_MAX) for sites that moved: a hash of prev's.  Two sites on
 * one line (likely(a) && likely(b)) share a key: the k-th of them in cur
 * matches the k-th in prev.
 */
static int match_by_hash(const struct kattr_profile *prev,
			 const struct kattr_profile *cur, size_t *idx)
{
	size_t size = 16, mask, *slot;
	bool *used;

	while (size < prev->n * 2)
		size *= 2;
	mask = size - 1;
	slot = malloc(size * sizeof(*slot));
	used = calloc(prev->n ? prev->n : 1, sizeof(*used));
	if (!slot || !used) {
		free(slot);
		free(used);
		return -ENOMEM;
	}
	for (size_t i = 0; i < size; i++)
		slot[i] = SIZE_MAX;
	for (size_t i = 0; i < prev->n; i++) {
		size_t h = (size_t)entry_hash(&prev->entries[i]) & mask;

		while (slot[h] != SIZE_MAX)
			h = (h + 1) & mask;
		slot[h] = i;
	}
	for (size_t i = 0; i < cur->n; i++) {
		const struct kattr_profile_entry *e = &cur->entries[i];
		size_t h = (size_t)entry_hash(e) & mask;

		for (; slot[h] != SIZE_MAX; h = (h + 1) & mask) {
			size_t j = slot[h];

			if (!used[j] && same_site(&prev->entries[j], e)) {
				used[j] = true;
				idx[i] = j;
				break;
			}
		}
	}
	free(slot);
	free(used);
	return 0;
}

int kattr_profile_match(const struct kattr_profile *prev,
			const struct kattr_profile *cur, size_t *idx)
{
	size_t k;

	for (size_t i = 0; i < cur->n; i++)
		idx[i] = SIZE_MAX;
	if (!prev || !prev->n || !cur->n)
		return 0;
	if (in_order(prev, cur, &k)) {
		for (size_t i = k; i < cur->n; i++)
			idx[i] = i - k;
		return 0;
	}
	return match_by_hash(prev, cur, idx);
}

int kattr_profile_diff(const struct kattr_profile *prev,
		       struct kattr_profile *cur, double seconds)
{
	unsigned int bits;
	size_t *idx, k;
	int ret;

	if (prev && !(seconds > 0))
		return -EINVAL;
	if (!prev || prev->format != cur->format) {
		for (size_t i = 0; i < cur->n; i++) {
			cur->entries[i].has_rate = false;
			cur->entries[i].reset = false;
			cur->entries[i].d_correct = cur->entries[i].d_incorrect = 0;
			cur->entries[i].rate = 0;
		}
		return 0;
	}
	bits = cur->counter_bits > prev->counter_bits ? cur->counter_bits :
	       prev->counter_bits;
	/* The usual case of a live view: no index to build. */
	if (in_order(prev, cur, &k)) {
		for (size_t i = 0; i < k; i++)		/* new sites in front */
			diff_one(&cur->entries[i], NULL, bits, seconds);
		for (size_t i = k; i < cur->n; i++)
			diff_one(&cur->entries[i], &prev->entries[i - k], bits,
				 seconds);
		return 0;
	}
	idx = malloc((cur->n ? cur->n : 1) * sizeof(*idx));
	if (!idx)
		return -ENOMEM;
	for (size_t i = 0; i < cur->n; i++)
		idx[i] = SIZE_MAX;
	ret = match_by_hash(prev, cur, idx);
	if (ret == 0)
		for (size_t i = 0; i < cur->n; i++)
			diff_one(&cur->entries[i],
				 idx[i] == SIZE_MAX ? NULL : &prev->entries[idx[i]],
				 bits, seconds);
	free(idx);
	return ret;
}

void prof_diff_fresh(struct kattr_profile *p, size_t k, double seconds)
{
	struct kattr_profile_priv *pv = p->priv;

	if (p->entries) {
		for (size_t i = 0; i < k; i++)
			diff_one(&p->entries[i], NULL, 64, seconds);
		return;
	}
	for (size_t i = 0; i < k; i++) {	/* a live profile's */
		pv->deltas[i].d_correct = pv->sites[i].correct;
		pv->deltas[i].d_incorrect = pv->sites[i].incorrect;
		pv->sites[i].flags = SITE_HAS_RATE;
	}
}

/*
 * kattr_profile_diff(prev, p, seconds) of a live profile p: its entries
 * made, and prev's for the while (when it is a live profile too).
 */
static int diff_live(const struct kattr_profile *prev, struct kattr_profile *p,
		     double seconds)
{
	struct kattr_profile tmp;
	int ret;

	if (!prev || prev->format != p->format)
		return 0;	/* no rates: the sites say none */
	ret = kattr_profile_entries(p);
	if (ret < 0 || prev->entries)
		return ret < 0 ? ret : kattr_profile_diff(prev, p, seconds);
	tmp = *prev;
	tmp.entries = malloc((prev->n ? prev->n : 1) * sizeof(*tmp.entries));
	if (!tmp.entries)
		return -ENOMEM;
	for (size_t i = 0; i < prev->n; i++)
		prof_entry(prev, i, &tmp.entries[i]);
	ret = kattr_profile_diff(&tmp, p, seconds);
	free(tmp.entries);
	return ret;
}

/* kattr_profile_parse_diff(), into entries or (lazy) a live profile. */
static int parse_diff(const struct kattr_profile *prev, char *buf, size_t len,
		      double seconds, bool lazy, struct kattr_profile **out)
{
	struct kattr_profile *p;
	int ret;

	if (prev && !(seconds > 0)) {
		free(buf);
		return -EINVAL;
	}
	ret = prof_parse_buf(buf, len, KATTR_PROFILE_FMT_UNKNOWN, prev, false,
			     lazy, seconds, &p);
	if (ret < 0)
		return ret;
	if (prev && prev->format == p->format &&
	    p->priv->diffed_from == prev->priv->id) {
		/* the rows new in front: counted from zero */
		prof_diff_fresh(p, p->priv->aligned_k, seconds);
	} else {
		ret = lazy ? diff_live(prev, p, seconds) :
			     kattr_profile_diff(prev, p, seconds);
		if (ret < 0) {
			kattr_profile_free(p);
			return ret;
		}
	}
	*out = p;
	return 0;
}

int kattr_profile_parse_diff(const struct kattr_profile *prev, char *buf,
			     size_t len, double seconds,
			     struct kattr_profile **out)
{
	return parse_diff(prev, buf, len, seconds, false, out);
}

int kattr_profile_parse_live(const struct kattr_profile *prev, char *buf,
			     size_t len, double seconds,
			     struct kattr_profile **out)
{
	if (!prev || !(seconds > 0))	/* parse_next() and diff(NULL) */
		return prof_parse_buf(buf, len, KATTR_PROFILE_FMT_UNKNOWN, prev,
				      false, true, 0, out);
	return parse_diff(prev, buf, len, seconds, true, out);
}

/* e's counts since o, the same site in the base. */
static inline void rebase_one(struct kattr_profile_entry *e,
			      const struct kattr_profile_entry *o, unsigned int bits)
{
	e->correct = kattr_profile_counter_delta(o->correct, e->correct, bits);
	e->incorrect = kattr_profile_counter_delta(o->incorrect, e->incorrect, bits);
	e->constant = kattr_profile_counter_delta(o->constant, e->constant, 64);
}

int kattr_profile_rebase_into(const struct kattr_profile *base,
			      const struct kattr_profile *cur,
			      struct kattr_profile_entry *out)
{
	struct kattr_profile made;
	unsigned int bits;
	size_t *idx, k;
	int ret;

	if (!cur->entries && base && base->format == cur->format &&
	    base->n && aligned(base, cur, &k) && k <= cur->n) {
		/* a live view's zero base, the usual case: each entry made
		 * and rebased in one pass over out */
		bits = cur->counter_bits > base->counter_bits ?
		       cur->counter_bits : base->counter_bits;
		for (size_t i = 0; i < cur->n; i++) {
			prof_entry(cur, i, &out[i]);
			if (i >= k)
				rebase_one(&out[i], &base->entries[i - k], bits);
		}
		return 0;
	}
	if (!cur->entries) {	/* a live profile's: made into out */
		for (size_t i = 0; i < cur->n; i++)
			prof_entry(cur, i, &out[i]);
		made = *cur;
		made.entries = out;	/* (matched before they are rebased) */
		cur = &made;
	} else if (out != cur->entries && cur->n) {
		memcpy(out, cur->entries, cur->n * sizeof(*out));
	}
	if (!base || base->format != cur->format)
		return 0;
	bits = cur->counter_bits > base->counter_bits ? cur->counter_bits :
	       base->counter_bits;
	/* The usual case of a live view's zero base: no index to build. */
	if (base->n && cur->n && in_order(base, cur, &k)) {
		for (size_t i = k; i < cur->n; i++)
			rebase_one(&out[i], &base->entries[i - k], bits);
		return 0;
	}
	idx = malloc((cur->n ? cur->n : 1) * sizeof(*idx));
	if (!idx)
		return -ENOMEM;
	ret = kattr_profile_match(base, cur, idx);
	for (size_t i = 0; ret == 0 && i < cur->n; i++)
		if (idx[i] != SIZE_MAX)
			rebase_one(&out[i], &base->entries[idx[i]], bits);
	free(idx);
	return ret;
}

int kattr_profile_rebase(const struct kattr_profile *base,
			 struct kattr_profile *cur)
{
	/* The sites' counts are the parsed ones: made again from the
	 * entries for the next kattr_profile_parse_diff(). */
	int ret;

	if (cur->priv) {
		free(cur->priv->sites);
		cur->priv->sites = NULL;
	}
	ret = kattr_profile_rebase_into(base, cur, cur->entries);
	if (cur->priv)
		prof_count_wrong(cur);
	return ret;
}
