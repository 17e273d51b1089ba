/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Branch-hint profiles: /proc/likely_prof (and the user-space profiles
 * written in the same format), tracefs trace_stat/branch_annotated and
 * trace_stat/branch_all, parsed into one entry type; snapshots diffed
 * (deltas, rates, counter wrap), sorted and filtered.
 *
 * Every function here is pure: no I/O, no printing, no exit.
 */
#ifndef KATTR_PROFILE_H
#define KATTR_PROFILE_H

/* Inside lib/, only a layer that uses profile/ includes this: a call up the
 * layers fails to compile (lib/CMakeLists.txt sets KATTR_USES_*). */
#if defined(KATTR_BUILDING_LIB) && !defined(KATTR_USES_PROFILE)
#error "lib/: this layer does not use profile/ (a layer uses only the layers below it: lib/README)"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kattr/kattr.h"

#ifdef __cplusplus
extern "C" {
#endif

enum kattr_profile_format {
	KATTR_PROFILE_FMT_UNKNOWN = 0,
	KATTR_PROFILE_FMT_LIKELY_PROF,	/* /proc/likely_prof, user-space profiles */
	KATTR_PROFILE_FMT_ANNOTATED,	/* tracefs trace_stat/branch_annotated */
	KATTR_PROFILE_FMT_ALL,		/* tracefs trace_stat/branch_all */
};

enum kattr_profile_hint {
	KATTR_PROFILE_HINT_NONE = 0,	/* branch_all: a plain if, no hint */
	KATTR_PROFILE_HINT_LIKELY,
	KATTR_PROFILE_HINT_UNLIKELY,
	/* branch_annotated: a likely() or an unlikely(), the kernel does
	 * not say which; correct/incorrect are still exact. */
	KATTR_PROFILE_HINT_ANNOTATED,
};

/*
 * One profiled site.  For a hinted site correct/incorrect count how often
 * the hint was right/wrong (likely(): correct = # True; unlikely():
 * correct = # False).  For KATTR_PROFILE_HINT_NONE (branch_all) there is no
 * hint: correct counts "not taken" and incorrect counts "taken", in the
 * kernel's miss/hit order, so kattr_profile_entry_pct() is the taken rate.
 */
struct kattr_profile_entry {
	enum kattr_profile_hint hint;
	bool has_constant;	/* the source records constant evaluations */
	bool has_rate;		/* delta/rate are valid (see kattr_profile_diff) */
	bool reset;		/* a counter went down since the previous
				 * snapshot: no rate for this interval */
	uint64_t correct;
	uint64_t incorrect;
	uint64_t constant;
	uint64_t d_correct;	/* since the previous snapshot */
	uint64_t d_incorrect;
	double rate;		/* d_incorrect per second */
	const char *function;	/* owned by the profile */
	const char *file;
	unsigned int line;
};

struct kattr_profile_priv;

struct kattr_profile {
	enum kattr_profile_format format;
	bool has_header;	/* a header line of a known format was seen */
	unsigned int counter_bits;	/* 32 (likely_prof) or 64: wrap width */
	size_t n;		/* entries */
	struct kattr_profile_entry *entries;
	size_t rows;		/* non-header, non-blank lines seen */
	size_t bad_rows;	/* of those, skipped as malformed */
	/* The library's own: the text the names point into, what the next
	 * snapshot's parse and the diff need.  A profile is made by the
	 * parse functions and freed with kattr_profile_free(); it is never
	 * copied (kattr_profile_rebase_into() makes rebased entries). */
	struct kattr_profile_priv *priv;
};

/* Largest input kattr_profile_parse() accepts (-EFBIG beyond). */
#define KATTR_PROFILE_MAX_INPUT	KATTR_READ_MAX

/*
 * Parse len bytes of text (need not be NUL-terminated; may hold any
 * bytes) in the format fmt, or detected from the header line (else from
 * the first row's shape) when fmt is KATTR_PROFILE_FMT_UNKNOWN.  Malformed
 * rows are skipped and counted in bad_rows.  Returns 0 with *out set
 * (free with kattr_profile_free()), even when rows were skipped;
 * -ENODATA when there is neither a known header nor a valid row (empty
 * input, garbage), -ENOMEM, -EFBIG.
 */
int kattr_profile_parse(const char *text, size_t len,
				  enum kattr_profile_format fmt,
				  struct kattr_profile **out);
/*
 * The same on a malloc'ed buffer of at least len + 1 bytes, parsed in
 * place: the profile takes it over (it is freed on error too).  Saves a
 * copy of large snapshots.
 */
int kattr_profile_parse_buf(char *buf, size_t len,
				      enum kattr_profile_format fmt,
				      struct kattr_profile **out);
/*
 * The same, for the next snapshot of the source prev was parsed from
 * (prev may be NULL): the result is what kattr_profile_parse_buf() gives
 * with KATTR_PROFILE_FMT_UNKNOWN, only faster when most sites are where they
 * were (a live view re-reading 200,000 sites a second).  Rows naming the
 * same site as prev's row at the same place counted from the end are
 * compared with it instead of re-validated, and when every site of prev
 * lines up, kattr_profile_diff(prev, *out) needs no name comparison.
 */
int kattr_profile_parse_next(const struct kattr_profile *prev,
				       char *buf, size_t len,
				       struct kattr_profile **out);
void kattr_profile_free(struct kattr_profile *p);

const char *kattr_profile_format_name(enum kattr_profile_format f);
/* "likely", "unlikely", "annotated", "none". */
const char *kattr_profile_hint_name(enum kattr_profile_hint h);

/* correct + incorrect (saturating). */
uint64_t kattr_profile_entry_total(const struct kattr_profile_entry *e);
/* incorrect * 100 / total, or -1 when the site was never evaluated. */
double kattr_profile_entry_pct(const struct kattr_profile_entry *e);
/* A hinted site whose hint was wrong more often than right. */
bool kattr_profile_entry_is_wrong(const struct kattr_profile_entry *e);
/*
 * How many entries of p kattr_profile_entry_is_wrong() says yes to, counted
 * as p was parsed (kattr_profile_rebase() counts again): a live view's
 * "N wrong hints" without a pass over 200,000 entries.
 */
size_t kattr_profile_wrong(const struct kattr_profile *p);

/*
 * Fill d_correct, d_incorrect, rate and has_rate of every entry of cur
 * from prev, taken seconds earlier (seconds > 0).  Sites new in cur count
 * from zero.  A site whose counter went down (only a 32-bit counter
 * wraps, by less than 2^31 a step) gets reset set and has_rate cleared,
 * its deltas being its counts since the reset.  When prev is NULL or of
 * another format, has_rate and reset are cleared everywhere.  -ENOMEM,
 * -EINVAL.
 */
int kattr_profile_diff(const struct kattr_profile *prev,
				 struct kattr_profile *cur, double seconds);

/*
 * kattr_profile_parse_next(prev, buf, len, out), then
 * kattr_profile_diff(prev, *out, seconds): the same result, in one pass
 * over the rows where the sites line up (a live view's refresh).  buf is
 * taken over, freed on error too.  The errors of both.
 */
int kattr_profile_parse_diff(const struct kattr_profile *prev,
				       char *buf, size_t len, double seconds,
				       struct kattr_profile **out);

/*
 * kattr_profile_parse_diff(prev, ...) (with prev NULL or seconds 0:
 * kattr_profile_parse_next() and kattr_profile_diff(NULL, ...), no
 * rates), for a live view: the same entries, but kept in compact sites
 * (40 bytes a site, 56 with rates, instead of 80), the names in the text
 * as it came.  Its entries field stays NULL until kattr_profile_entries()
 * makes the entries; read them with kattr_profile_entry_get(), rank them with
 * kattr_profile_top(); kattr_profile_diff(), _rebase*(), _match() and
 * kattr_profile_select() take it only once its entries are made.  It can be
 * the prev of any parse.  Errors as kattr_profile_parse_diff()'s.
 */
int kattr_profile_parse_live(const struct kattr_profile *prev,
				       char *buf, size_t len, double seconds,
				       struct kattr_profile **out);
/* Entry i (< p->n) of p into *e: of a live profile, made from its site. */
void kattr_profile_entry_get(const struct kattr_profile *p, size_t i,
				   struct kattr_profile_entry *e);
/* A live profile's entries made (p->entries; from then on they are what
 * counts).  0 when p has them; -ENOMEM. */
int kattr_profile_entries(struct kattr_profile *p);
/*
 * The source did not change: every site with a rate gets deltas and rate
 * 0, a reset one too, those with no rate yet keep none.  True when that
 * changed anything.  Entries or a live profile's sites.
 */
bool kattr_profile_zero_rates(struct kattr_profile *p);
/*
 * Make cur's counts relative to base (counts since base was taken): the
 * kernel cannot reset its counters.  Sites absent from base keep their
 * counts.  -ENOMEM.
 */
int kattr_profile_rebase(const struct kattr_profile *base,
				   struct kattr_profile *cur);
/*
 * The same into out (cur->n entries; may be cur->entries): cur's entries
 * with counts relative to base, cur left as it is (a view keeping the raw
 * snapshot for the next diff).  cur may be a live profile
 * (kattr_profile_parse_live()) whose entries are not made; base's are.
 * -ENOMEM (out then holds cur's counts).
 */
int kattr_profile_rebase_into(const struct kattr_profile *base,
					const struct kattr_profile *cur,
					struct kattr_profile_entry *out);

enum kattr_profile_sort {
	KATTR_PROFILE_SORT_INCORRECT = 0,
	KATTR_PROFILE_SORT_CORRECT,
	KATTR_PROFILE_SORT_PERCENT,
	KATTR_PROFILE_SORT_TOTAL,
	KATTR_PROFILE_SORT_RATE,
	KATTR_PROFILE_SORT_FUNCTION,
	KATTR_PROFILE_SORT_FILE,
	KATTR_PROFILE_SORT_COUNT_
};

/* Sort key names as the tools spell them; -EINVAL for an unknown name. */
int kattr_profile_sort_parse(const char *name, enum kattr_profile_sort *key);
const char *kattr_profile_sort_name(enum kattr_profile_sort key);

/*
 * Order the first k entries (0: all) of the n pointers in v: numbers
 * descending, names ascending (their natural order), reversed when reverse
 * is true; ties are broken by function, file, line and hint, so the order
 * is total and stable across refreshes.  Sites never evaluated sort last
 * by percent.  The others follow in no particular order.  A live view
 * showing 40 rows of 200,000 sites pays O(n log k), mostly one integer
 * compare per entry.
 */
void kattr_profile_sort_top(const struct kattr_profile_entry **v, size_t n,
				   enum kattr_profile_sort key, bool reverse,
				   size_t k);

struct kattr_profile_filter {
	const char *substr;	/* in function or file; NULL or "": any */
	uint64_t min_total;	/* correct + incorrect at least this */
	bool wrong_only;	/* kattr_profile_entry_is_wrong() */
};

/*
 * Put pointers to the entries of p that match f (NULL: all) into v
 * (p->n elements) and return how many.
 */
size_t kattr_profile_select(const struct kattr_profile *p,
				   const struct kattr_profile_filter *f,
				   const struct kattr_profile_entry **v);
/* The same on the n entries at entries (v: n elements). */
size_t kattr_profile_select_entries(const struct kattr_profile_entry *entries,
					   size_t n,
					   const struct kattr_profile_filter *f,
					   const struct kattr_profile_entry **v);
/*
 * The indexes of p's first k sites (k > 0) among those matching f (NULL:
 * all), in kattr_profile_sort_top()'s order, into idx[0..min(k, *matched));
 * *matched: how many match.  No entry is made but for ties and the k
 * kept.  -ENOMEM.
 */
int kattr_profile_top(const struct kattr_profile *p,
				const struct kattr_profile_filter *f,
				enum kattr_profile_sort key, bool reverse, size_t k,
				size_t *idx, size_t *matched);

/*
 * A profile read once (a batch pass): what kattr_profile_parse_buf()
 * gives, kept in 32 bytes a site instead of a struct kattr_profile_entry's
 * 80, selected and sorted through an index of 8 bytes a site, and handed
 * out one entry at a time.  A 200,000-site snapshot and its order take
 * 8 MB besides the text instead of 24.  Never diffed: no entry has a rate.
 */
struct kattr_profile_table_priv;

struct kattr_profile_table {
	enum kattr_profile_format format;
	bool has_header;
	unsigned int counter_bits;
	size_t n;		/* sites */
	size_t rows;		/* as in struct kattr_profile */
	size_t bad_rows;
	size_t shown;		/* sites kattr_profile_table_entry() hands out:
				 * n, or those kattr_profile_table_order() kept */
	struct kattr_profile_table_priv *priv;
};

/* kattr_profile_parse_buf() into a table (buf taken over; freed on error
 * too).  The same errors. */
int kattr_profile_table_parse_buf(char *buf, size_t len,
					 enum kattr_profile_format fmt,
					 struct kattr_profile_table **out);
/*
 * Keep the sites matching f (NULL: all) in the order kattr_profile_sort_top()
 * gives them with k = 0 (the same order, ties included); t->shown says how
 * many.  -ENOMEM (the order is then the input's, unfiltered).
 */
int kattr_profile_table_order(struct kattr_profile_table *t,
				     const struct kattr_profile_filter *f,
				     enum kattr_profile_sort key, bool reverse);
/*
 * The i-th site shown (i < t->shown) into *e, as kattr_profile_parse_buf()
 * makes its entry (names pointing into the table).  Reading them in turn
 * is the fast way: the sites a few places ahead are fetched meanwhile.
 */
void kattr_profile_table_entry(const struct kattr_profile_table *t,
				      size_t i, struct kattr_profile_entry *e);
void kattr_profile_table_free(struct kattr_profile_table *t);

#ifdef __cplusplus
}
#endif

#endif /* KATTR_PROFILE_H */
