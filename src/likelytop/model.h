/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * likelytop's model: the snapshots read so far, rates between them, the
 * zero base, the rows selected for display, and a short rate history per
 * watched site.  It is fed bytes and never reads or draws.
 */
#ifndef LIKELYTOP_MODEL_H
#define LIKELYTOP_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "kattr/profile.h"

#define LT_HIST_LEN 60
#define LT_HIST_SITES 64

struct lt_hist {
	char *function;		/* NULL: free slot */
	char *file;
	unsigned int line;
	enum kattr_profile_hint hint;
	float rate[LT_HIST_LEN];	/* ring */
	unsigned int n, head;
	unsigned long used;	/* generation last recorded */
};

/* What is displayed: the latest snapshot's entries, or a copy of them
 * rebased on the zero base.  In a live model (lazy) with no zero base,
 * entries is NULL until lt_model_entries() makes them: the n sites are
 * the raw snapshot's, read with kattr_profile_entry_get(). */
struct lt_shown {
	enum kattr_profile_format format;
	size_t n;
	struct kattr_profile_entry *entries;
};

struct lt_model {
	struct kattr_profile *raw;	/* latest snapshot, raw counts */
	struct kattr_profile *base;	/* zero base, or NULL */
	struct lt_shown shown;		/* what is displayed */
	bool shown_owns;		/* shown.entries is a copy */
	size_t wrong;			/* sites in shown with a wrong hint */
	double t_raw;			/* when raw was read (seconds) */
	double t_base;
	unsigned long generation;	/* snapshots taken */
	enum kattr_profile_format prev_format;
	bool format_changed;		/* the last update changed format */
	bool counters64;		/* the source counts in 64 bits (user
					 * space): a decrease is a reset */
	const struct kattr_profile_entry **rows;	/* selected and sorted */
	size_t nrows;
	size_t sorted;			/* rows[0..sorted) are in order */
	size_t rows_cap;
	struct lt_hist hist[LT_HIST_SITES];
	/* A batch pass of one snapshot: lt_model_update() parses into a
	 * table instead (a third of the memory; no rates, nothing above
	 * but shown.format and shown.n is filled). */
	bool compact;
	struct kattr_profile_table *table;
	/* A live view's model: each snapshot parsed into compact sites
	 * (kattr_profile_parse_live()); lt_model_select() with k > 0 makes
	 * entries for the k first rows only (top), rows[sorted..nrows) are
	 * then not set.  Zeroed, the snapshots' entries are made. */
	bool lazy;
	struct kattr_profile_entry *top;
	size_t *top_idx;
	size_t top_cap;
	struct kattr_profile_entry found;	/* lt_model_find()'s, lazy */
};

void lt_model_init(struct lt_model *m);
void lt_model_free(struct lt_model *m);
/*
 * A new snapshot (buf: malloc'ed, len + 1 bytes, taken over) read at time
 * now: parse, diff against the previous one,
 * rebase on the zero base.  On a parse error (-ENODATA: nothing parses;
 * -EBADMSG: rows, every one malformed) the previous snapshot stays.
 * *bad (if not NULL) gets the skipped rows.
 */
int lt_model_update(struct lt_model *m, char *buf, size_t len,
		    double now, size_t *bad);
/*
 * The source did not change since the last snapshot (at time now): every
 * delta and rate is zero, but for the sites that have no rate yet (the
 * source never changed since they appeared): they keep none, as batch
 * output shows them.  Returns true when that changed anything shown.
 */
bool lt_model_unchanged(struct lt_model *m, double now);
/* Counts from now on (z); the display is rebased at once. */
int lt_model_zero(struct lt_model *m, double now);
/* Totals again (z a second time): the zero base is dropped. */
int lt_model_unzero(struct lt_model *m);
/*
 * Fill rows from shown with filter f, sorted; with k > 0 only the first k
 * rows are in order (m->sorted says how many are).  -ENOMEM.
 */
int lt_model_select(struct lt_model *m, const struct kattr_profile_filter *f,
		    enum kattr_profile_sort key, bool reverse, size_t k);
/* shown.entries made (a live model's, for a pass over every site).
 * -ENOMEM. */
int lt_model_entries(struct lt_model *m);
/* Record the rates of the first n rows (and of pin, if not NULL). */
void lt_model_record(struct lt_model *m, size_t n,
		     const struct kattr_profile_entry *pin);
/* The history of a site, or NULL. */
const struct lt_hist *lt_model_history(const struct lt_model *m,
				       const struct kattr_profile_entry *e);
/* The displayed entry that is the same site as the history slot h. */
const struct kattr_profile_entry *lt_model_find(const struct lt_model *m,
					     const char *function,
					     const char *file, unsigned int line,
					     enum kattr_profile_hint hint);

/*
 * Draw values v[0..n) (oldest first) as a sparkline of n cells into out
 * (size >= 3 * n + 1 bytes in UTF-8, n + 1 in ASCII).
 */
void lt_sparkline(const float *v, size_t n, bool utf8, char *out);

#endif
