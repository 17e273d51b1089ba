// SPDX-License-Identifier: GPL-2.0-or-later
/* likelytop's model: snapshots, rates, zero base, selection, history. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

void lt_model_init(struct lt_model *m)
{
	memset(m, 0, sizeof(*m));
}

static void drop_shown(struct lt_model *m)
{
	if (m->shown_owns)
		free(m->shown.entries);
	memset(&m->shown, 0, sizeof(m->shown));
	m->shown_owns = false;
	m->wrong = 0;
	m->nrows = 0;
}

void lt_model_free(struct lt_model *m)
{
	drop_shown(m);
	if (m->base != m->raw)
		kattr_profile_free(m->base);
	kattr_profile_free(m->raw);
	free(m->rows);
	free(m->top);
	free(m->top_idx);
	kattr_profile_table_free(m->table);
	for (size_t i = 0; i < LT_HIST_SITES; i++) {
		free(m->hist[i].function);
		free(m->hist[i].file);
	}
	memset(m, 0, sizeof(*m));
}

/* shown = raw, rebased on base when there is one. */
static int make_shown_entries(struct lt_model *m)
{
	int ret;

	drop_shown(m);
	if (!m->raw)
		return 0;
	m->shown.format = m->raw->format;
	m->shown.n = m->raw->n;
	m->shown.entries = m->raw->entries;	/* lazy: NULL */
	if (!m->base)
		return 0;
	/* zeroed: the rebase takes the base's entries (the latest snapshot's
	 * are made into the copy) */
	if ((ret = kattr_profile_entries(m->base)) < 0) {
		m->shown.n = 0;
		return ret;
	}
	m->shown.entries = malloc((m->raw->n ? m->raw->n : 1) *
				  sizeof(*m->shown.entries));
	if (!m->shown.entries) {
		m->shown.n = 0;
		return -ENOMEM;
	}
	m->shown_owns = true;
	return kattr_profile_rebase_into(m->base, m->raw, m->shown.entries);
}

/* ... and the wrong hints among them counted once per snapshot. */
static int make_shown(struct lt_model *m)
{
	int ret = make_shown_entries(m);	/* (wrong zeroed) */

	const struct kattr_profile_entry *e = m->shown.entries;
	size_t wrong = 0;

	if (m->shown.format == KATTR_PROFILE_FMT_ALL)	/* no hints: none wrong */
		return ret;
	if (!m->shown_owns) {	/* the snapshot's own entries: counted */
		m->wrong = kattr_profile_wrong(m->raw);
		return ret;
	}
	/* kattr_profile_entry_is_wrong() inline: a call a site was a twentieth
	 * of a live view's refresh of 200,000 sites (perf) */
	for (size_t i = 0; i < m->shown.n; i++)
		wrong += e[i].hint != KATTR_PROFILE_HINT_NONE &&
			 e[i].incorrect > e[i].correct;
	m->wrong = wrong;
	return ret;
}

/* lt_model_update() of a compact model: the snapshot into a table. */
static int update_table(struct lt_model *m, char *buf, size_t len,
			size_t *bad)
{
	struct kattr_profile_table *t;
	int ret = kattr_profile_table_parse_buf(buf, len, KATTR_PROFILE_FMT_UNKNOWN,
					     &t);

	if (ret < 0)
		return ret;
	if (bad)
		*bad = t->bad_rows;
	if (!t->n && t->bad_rows) {	/* a header and garbage: nothing parses */
		kattr_profile_table_free(t);
		return -EBADMSG;
	}
	kattr_profile_table_free(m->table);
	m->table = t;
	m->shown.format = t->format;
	m->shown.n = t->n;
	m->generation++;
	return 0;
}

int lt_model_update(struct lt_model *m, char *buf, size_t len,
		    double now, size_t *bad)
{
	struct kattr_profile *p;
	int ret;

	if (m->compact)
		return update_table(m, buf, len, bad);

	/* The previous snapshot makes the parse and the diff cheaper, and
	 * both are one pass over the rows.  (A 64-bit source's counter_bits
	 * is set below, for the next diff: this one has the previous
	 * snapshot's 64 already.) */
	if (m->lazy)
		ret = kattr_profile_parse_live(m->raw, buf, len,
					       m->raw && now > m->t_raw ?
					       now - m->t_raw : 0, &p);
	else if (m->raw && now > m->t_raw)
		ret = kattr_profile_parse_diff(m->raw, buf, len, now - m->t_raw, &p);
	else
		ret = kattr_profile_parse_next(m->raw, buf, len, &p);
	if (ret == 0 && !m->lazy && (!m->raw || !(now > m->t_raw)) &&
	    (ret = kattr_profile_diff(NULL, p, 0)) < 0)
		kattr_profile_free(p);
	if (ret < 0)
		return ret;
	if (bad)
		*bad = p->bad_rows;
	if (!p->n && p->bad_rows) {	/* a header and garbage: nothing parses */
		kattr_profile_free(p);
		return -EBADMSG;
	}
	if (m->counters64)
		p->counter_bits = 64;
	m->format_changed = m->raw && m->raw->format != p->format;
	drop_shown(m);
	if (m->format_changed && m->base) {	/* the base means nothing now */
		if (m->base != m->raw)
			kattr_profile_free(m->base);
		m->base = NULL;
	}
	if (m->raw != m->base)
		kattr_profile_free(m->raw);
	m->raw = p;
	m->t_raw = now;
	m->generation++;
	return make_shown(m);
}

static bool zero_rates(struct kattr_profile_entry *entries, size_t n)
{
	bool changed = false;

	for (size_t i = 0; i < n; i++) {
		struct kattr_profile_entry *e = &entries[i];

		if (e->has_rate && !e->d_correct && !e->d_incorrect)
			continue;
		/* never two different snapshots: no rate yet, as in batch
		 * (a static file is not one that stopped) */
		if (!e->has_rate && !e->reset)
			continue;
		changed = true;
		e->has_rate = true;
		e->reset = false;
		e->d_correct = e->d_incorrect = 0;
		e->rate = 0;
	}
	return changed;
}

bool lt_model_unchanged(struct lt_model *m, double now)
{
	bool changed;

	if (!m->raw || !(now > m->t_raw))
		return false;
	changed = kattr_profile_zero_rates(m->raw);
	if (m->shown_owns)
		changed |= zero_rates(m->shown.entries, m->shown.n);
	m->t_raw = now;
	m->generation++;
	return changed;
}

int lt_model_zero(struct lt_model *m, double now)
{
	if (!m->raw)
		return 0;
	drop_shown(m);
	if (m->base && m->base != m->raw)
		kattr_profile_free(m->base);
	m->base = m->raw;
	m->t_base = now;
	return make_shown(m);
}

int lt_model_unzero(struct lt_model *m)
{
	if (!m->base)
		return 0;
	drop_shown(m);
	if (m->base != m->raw)
		kattr_profile_free(m->base);
	m->base = NULL;
	return make_shown(m);
}

int lt_model_entries(struct lt_model *m)
{
	int ret;

	if (m->shown.entries || !m->raw)
		return 0;
	ret = kattr_profile_entries(m->raw);	/* shown is raw (no base) */
	if (ret == 0)
		m->shown.entries = m->raw->entries;
	return ret;
}

/* lt_model_select() of a live model's first k rows: entries made for
 * them only. */
static int select_top(struct lt_model *m, const struct kattr_profile_filter *f,
		      enum kattr_profile_sort key, bool reverse, size_t k)
{
	size_t matched;
	int ret;

	if (k > m->top_cap) {
		struct kattr_profile_entry *t = realloc(m->top, k * sizeof(*t));
		size_t *x;

		if (t)
			m->top = t;
		x = t ? realloc(m->top_idx, k * sizeof(*x)) : NULL;
		if (!x)
			return -ENOMEM;
		m->top_idx = x;
		m->top_cap = k;
	}
	ret = kattr_profile_top(m->raw, f, key, reverse, k, m->top_idx,
				&matched);
	if (ret < 0)
		return ret;
	m->nrows = matched;
	m->sorted = k < matched ? k : matched;
	for (size_t i = 0; i < m->sorted; i++) {
		kattr_profile_entry_get(m->raw, m->top_idx[i], &m->top[i]);
		m->rows[i] = &m->top[i];
	}
	return 0;
}

int lt_model_select(struct lt_model *m, const struct kattr_profile_filter *f,
		    enum kattr_profile_sort key, bool reverse, size_t k)
{
	int ret;

	if (m->shown.n > m->rows_cap) {
		const struct kattr_profile_entry **r;

		r = realloc(m->rows, m->shown.n * sizeof(*r));
		if (!r)
			return -ENOMEM;
		m->rows = r;
		m->rows_cap = m->shown.n;
	}
	m->nrows = 0;
	if (!m->shown.entries && m->shown.n && k && k < m->shown.n)
		return select_top(m, f, key, reverse, k);
	if ((ret = lt_model_entries(m)) < 0)
		return ret;
	if (m->shown.n)
		m->nrows = kattr_profile_select_entries(m->shown.entries, m->shown.n,
						     f, m->rows);
	kattr_profile_sort_top(m->rows, m->nrows, key, reverse, k);
	m->sorted = k && k < m->nrows ? k : m->nrows;
	return 0;
}

static bool hist_is(const struct lt_hist *h, const struct kattr_profile_entry *e)
{
	return h->function && h->line == e->line && h->hint == e->hint &&
	       !strcmp(h->function, e->function) && !strcmp(h->file, e->file);
}

const struct lt_hist *lt_model_history(const struct lt_model *m,
				       const struct kattr_profile_entry *e)
{
	for (size_t i = 0; i < LT_HIST_SITES; i++)
		if (hist_is(&m->hist[i], e))
			return &m->hist[i];
	return NULL;
}

static void record_one(struct lt_model *m, const struct kattr_profile_entry *e)
{
	struct lt_hist *h = (struct lt_hist *)lt_model_history(m, e);

	if (!e->has_rate)
		return;
	if (!h) {		/* the least recently used slot */
		h = &m->hist[0];
		for (size_t i = 1; i < LT_HIST_SITES && h->function; i++)
			if (!m->hist[i].function || m->hist[i].used < h->used)
				h = &m->hist[i];
		free(h->function);
		free(h->file);
		memset(h, 0, sizeof(*h));
		h->function = strdup(e->function);
		h->file = strdup(e->file);
		if (!h->function || !h->file) {
			free(h->function);
			free(h->file);
			h->function = h->file = NULL;
			return;
		}
		h->line = e->line;
		h->hint = e->hint;
	}
	if (h->used == m->generation)
		return;
	h->used = m->generation;
	h->rate[h->head] = (float)e->rate;
	h->head = (h->head + 1) % LT_HIST_LEN;
	if (h->n < LT_HIST_LEN)
		h->n++;
}

void lt_model_record(struct lt_model *m, size_t n,
		     const struct kattr_profile_entry *pin)
{
	if (n > m->sorted)	/* rows beyond are not in order (not set) */
		n = m->sorted;
	if (n > LT_HIST_SITES / 2)
		n = LT_HIST_SITES / 2;
	if (pin)
		record_one(m, pin);
	for (size_t i = 0; i < n; i++)
		record_one(m, m->rows[i]);
}

const struct kattr_profile_entry *lt_model_find(const struct lt_model *m,
					     const char *function,
					     const char *file, unsigned int line,
					     enum kattr_profile_hint hint)
{
	struct lt_model *mm = (struct lt_model *)m;	/* found: a cache */

	for (size_t i = 0; !m->shown.entries && i < m->shown.n; i++) {
		struct kattr_profile_entry *e = &mm->found;

		kattr_profile_entry_get(m->raw, i, e);
		if (e->line == line && e->hint == hint &&
		    !strcmp(e->function, function) && !strcmp(e->file, file))
			return e;
	}
	for (size_t i = 0; m->shown.entries && i < m->shown.n; i++) {
		const struct kattr_profile_entry *e = &m->shown.entries[i];

		if (e->line == line && e->hint == hint &&
		    !strcmp(e->function, function) && !strcmp(e->file, file))
			return e;
	}
	return NULL;
}

void lt_sparkline(const float *v, size_t n, bool utf8, char *out)
{
	static const char *const bars[] = {
		"\u2581", "\u2582", "\u2583", "\u2584",
		"\u2585", "\u2586", "\u2587", "\u2588",
	};
	static const char ascii[] = "_.-=+*#@";
	float max = 0;

	for (size_t i = 0; i < n; i++)
		if (v[i] > max)
			max = v[i];
	for (size_t i = 0; i < n; i++) {
		int lvl = max > 0 ? (int)(v[i] / max * 7.0f + 0.5f) : 0;

		if (lvl < 0)
			lvl = 0;
		if (lvl > 7)
			lvl = 7;
		if (utf8) {
			memcpy(out, bars[lvl], 3);
			out += 3;
		} else {
			*out++ = ascii[lvl];
		}
	}
	*out = '\0';
}
