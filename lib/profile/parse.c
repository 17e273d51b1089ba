// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Parsing /proc/likely_prof, tracefs branch_annotated and branch_all
 * snapshots into struct kattr_profile: rows, header lines, whole texts.
 *
 * Each row format has two parsers: the full one (likely_row(),
 * trace_row()), which finds the end of the line and checks every token,
 * and a fast one for a live view's next snapshot (likely_row_again(),
 * trace_row_again()), which reads a row as "the same site as the previous
 * snapshot's row at this place, with new counts", comparing the names
 * with last time's bytes instead of scanning them.
 *
 * The invariant: each fast parser accepts exactly the rows its full parser
 * accepts that name that very site, with the same entry (else it answers
 * -EAGAIN and the full parser decides), so kattr_profile_parse_next() gives
 * what kattr_profile_parse_buf() gives.  The full parsers are checked
 * against the plain byte-at-a-time reference parsers in
 * tests/lib/profile/ref_likely_row.h and ref_trace_row.h (unit tests and
 * the fuzz targets tests/fuzz/fuzz_prof_likely_row.c and
 * fuzz_prof_trace_row.c); the fast ones against the full ones by
 * tests/fuzz/fuzz_profile_next.c and test_profile.c's
 * parse_next_same_as_parse.
 */
#include <stdlib.h>

#include "profile_internal.h"

static const char LIKELY_TITLE[] = "Likely Profiling Results";

static uint64_t next_id(void)
{
	static uint64_t id;

	return __atomic_add_fetch(&id, 1, __ATOMIC_RELAXED);
}

/* A site's tail: the bytes from the end of the file's name (end_of_file)
 * to the row's end (eol), if few enough for likely_run(), else 0. */
static inline uint16_t row_tail(const char *end_of_file, const char *eol)
{
	size_t t = (size_t)(eol - end_of_file);

	return t <= SITE_TAIL_MAX ? (uint16_t)t : 0;
}

/* A likely_prof row's entry (but its line): # True t, # False f. */
static inline void likely_entry(struct kattr_profile_entry *e, bool likely,
				uint64_t t, uint64_t f, const char *func,
				const char *file)
{
	e->function = func;
	e->file = file;
	e->hint = likely ? KATTR_PROFILE_HINT_LIKELY : KATTR_PROFILE_HINT_UNLIKELY;
	e->correct = likely ? t : f;
	e->incorrect = likely ? f : t;
	e->constant = 0;
	e->has_constant = false;
	e->has_rate = false;
	e->reset = false;
	e->d_correct = e->d_incorrect = 0;
	e->rate = 0;
}

/*
 * " unlikely |        0|        3\ttcp_sacktag_write_queue()@:net/ipv4/tcp_input.c@1215"
 * flag, type, |%9u|%9u (# True, # False), TAB, func()@:file@line.  The
 * flag is not trusted (the 2006 kernel compared the counts as signed
 * ints); wrongness is computed from the counts.  The function runs to the
 * first "()@:" and holds no blank or control byte; the file runs to the
 * last '@' and holds no control byte.
 *
 * line ends (NUL) at eol; base is the start of its text (for site).  A row
 * naming the same site as last time takes likely_row_again() instead.
 */
static int likely_row(char *line, char *eol, const char *base,
		      struct kattr_profile_entry *e, struct site *site)
{
	uint64_t t, f;
	char *p = line, *func, *sep, *file, *at;
	bool likely;

	if (unlikely(*p != '+' && *p != '-' && *p != ' '))
		return -EINVAL;
	p++;
	/* fixed-length compares (one word each) when the line is long
	 * enough, which a valid row always is */
	if (eol - p >= 8 ? !memcmp(p, "unlikely", 8) : !strncmp(p, "unlikely", 8)) {
		likely = false;
		p += 8;
	} else if (eol - p >= 8 ? !memcmp(p, "likely", 6) : !strncmp(p, "likely", 6)) {
		likely = true;
		p += 6;
	} else {
		return -EINVAL;
	}
	p = skip_pad(p, eol);
	if (*p++ != '|')
		return -EINVAL;
	p = skip_pad(p, eol);
	if (!parse_u64(&p, eol, &t))
		return -EINVAL;
	if (*p++ != '|')
		return -EINVAL;
	p = skip_pad(p, eol);
	if (!parse_u64(&p, eol, &f))
		return -EINVAL;
	if (*p != '\t' && *p != ' ')
		return -EINVAL;
	p = skip_blank(p);
	func = p;
	for (sep = func; (sep = memchr(sep, '(', (size_t)(eol - sep))); sep++)
		if (sep[1] == ')' && sep[2] == '@' && sep[3] == ':')
			break;
	if (!sep || sep == func ||
	    has_below_or_del(func, (size_t)(sep - func), 0x21))
		return -EINVAL;
	file = sep + 4;
	at = memrchr(file, '@', (size_t)(eol - file));
	if (!at || at == file || has_below_or_del(file, (size_t)(at - file), 0x20))
		return -EINVAL;
	p = at + 1;
	if (!parse_line_no(&p, eol, &e->line))
		return -EINVAL;
	/* Trailing blanks (a CR from a copied file) are harmless. */
	if (*skip_blank(p))
		return -EINVAL;
	site->tail = row_tail(at, eol);
	*sep = '\0';
	*at = '\0';
	site->func = (uint32_t)(func - base);
	site->function = (uint32_t)(sep - func);
	site->file_at = site->function + 4;
	site->file = (uint32_t)(at - file);
	likely_entry(e, likely, t, f, func, file);
	site->line = site_line(e);
	return 0;
}

/*
 * The same site as last (in the text last_text) again, in the row at line, with
 * new counts: the common case of a live view, parsed without first finding
 * the end of the line.  Every byte up to the '\n' (or end, the NUL at
 * the end of the text) is accounted for, so a row this accepts is one
 * likely_row() accepts, with the same result.  *eolp is the '\n' or end.
 * -EAGAIN when the row is anything else: likely_row() then decides.
 */
/* What a fast parser found: the counts in the row's order, where the
 * names start, the line's end. */
struct again {
	uint64_t a, b, c;	/* # True, # False / the trace counts */
	char *func, *file, *eol;
};

static inline __attribute__((always_inline)) int
likely_row_again(char *line, char *end, const char *last_text,
		 const struct site *last, struct again *r)
{
	bool likely = last->line & SITE_LIKELY;
	size_t hl = likely ? 6 : 8;
	char *p = line, *func, *sep, *at;
	uint64_t t, f, ln;

	if (end - p < 32 || (*p != '+' && *p != '-' && *p != ' ') ||
	    !word_is(p + 1, likely ? "likely\0\0" : "unlikely", hl))
		return -EAGAIN;
	/* The layout the writers print ("%-9s|%9u|%9u\t"), counts below
	 * 10^9: both counts at their places, no blank skipped byte by byte
	 * (a third of this parse, perf).  Anything else: the token walk. */
	if (word_is(p + 3, likely ? "kely   |" : "likely |", 8) &&
	    padded9(p + 11, &t) && p[20] == '|' && padded9(p + 21, &f) &&
	    (p[30] == '\t' || p[30] == ' ')) {
		p += 30;
	} else {
		p = skip_pad(p + 1 + hl, end);
		if (*p++ != '|')
			return -EAGAIN;
		p = skip_pad(p, end);
		if (!parse_u64(&p, end, &t) || *p++ != '|')
			return -EAGAIN;
		p = skip_pad(p, end);
		if (!parse_u64(&p, end, &f) || (*p != '\t' && *p != ' '))
			return -EAGAIN;
	}
	func = skip_blank(p);
	if ((size_t)(end - func) < (size_t)last->function + 4 + last->file + 2)
		return -EAGAIN;
	sep = func + last->function;
	at = sep + 4 + last->file;
	last_text += last->func;
	/* ("()@:" in one word: at least 8 bytes from sep are the row's) */
	if (!same_bytes(func, last_text, last->function) ||
	    !word_is(sep, "()@:\0\0\0\0", 4) ||
	    !same_bytes(sep + 4, last_text + last->file_at, last->file) ||
	    *at != '@')
		return -EAGAIN;
	p = at + 1;
	if (!parse_u64(&p, end, &ln) || ln != (last->line & ~SITE_LIKELY))
		return -EAGAIN;
	if (is_blank(*p))
		p = skip_blank(p);
	if (*p != '\n' && p != end)
		return -EAGAIN;
	*p = '\0';
	*sep = '\0';
	*at = '\0';
	r->a = t;
	r->b = f;
	r->c = 0;
	r->func = func;
	r->file = sep + 4;
	r->eol = p;
	return 0;
}

int kattr_profile_parse_likely_row(char *line, struct kattr_profile_entry *e)
{
	struct site site;

	return likely_row(line, line + strlen(line), line, e, &site);
}

/* A trace row's entry (but its line). */
static void trace_entry(struct kattr_profile_entry *e, bool all, uint64_t a,
			uint64_t b, uint64_t c, const char *func, const char *file)
{
	e->function = func;
	e->file = file;
	e->hint = all ? KATTR_PROFILE_HINT_NONE : KATTR_PROFILE_HINT_ANNOTATED;
	e->correct = a;
	e->incorrect = b;
	e->constant = c;
	e->has_constant = !all;
	e->has_rate = false;
	e->reset = false;
	e->d_correct = e->d_incorrect = 0;
	e->rate = 0;
}

/*
 * The number tokens that open a trace row at *s, each with a blank after
 * it: correct[/constant] (a '/' only in branch_annotated), incorrect, and
 * a percent (<= 100) or X (never evaluated, so no counts).  *s moves past
 * them; end bounds the word reads.
 */
static inline __attribute__((always_inline)) bool
trace_counts(char **s, const char *end, bool all, uint64_t *a, uint64_t *b,
	     uint64_t *c)
{
	char *p = skip_pad(*s, end);
	uint64_t pct;

	*c = 0;
	if (!parse_u64(&p, end, a))
		return false;
	if (*p == '/') {
		if (all)
			return false;
		p++;
		if (!parse_u64(&p, end, c))
			return false;
	}
	if (!is_blank(*p))
		return false;
	p = skip_pad(p, end);
	if (!parse_u64(&p, end, b) || !is_blank(*p))
		return false;
	p = skip_pad(p, end);
	if (*p == 'X' && is_blank(p[1])) {
		/* the counts would be made up */
		if (*a || *b)
			return false;
		p++;
	} else if (!parse_u64(&p, end, &pct) || pct > 100 || !is_blank(*p)) {
		return false;
	}
	*s = p;
	return true;
}

/*
 * One pass over a trace row (NUL at eol): six blank-separated tokens, the
 * way tests/lib/profile/ref_trace_row.h splits and checks them.
 */
static int trace_row(char *line, char *eol, bool all, const char *base,
		     struct kattr_profile_entry *e, struct site *site)
{
	char *p = line, *func, *fend, *file, *lend;
	uint64_t a, b, c;

	if (!trace_counts(&p, eol, all, &a, &b, &c))
		return -EINVAL;
	func = skip_pad(p, eol);
	fend = name_end(func, eol);
	if (!fend || fend == func)
		return -EINVAL;
	file = skip_pad(fend, eol);
	lend = name_end(file, eol);
	if (!lend || lend == file)
		return -EINVAL;
	p = skip_pad(lend, eol);
	if (!parse_line_no(&p, eol, &e->line) || *skip_blank(p))
		return -EINVAL;
	*fend = '\0';
	*lend = '\0';
	trace_entry(e, all, a, b, c, func, file);
	site->func = (uint32_t)(func - base);
	site->function = (uint32_t)(fend - func);
	site->file_at = (uint32_t)(file - func);
	site->file = (uint32_t)(lend - file);
	site->line = e->line;
	site->tail = row_tail(lend, eol);
	return 0;
}

/*
 * "%8lu %8lu %3ld %-30.30s %-20.20s %d": correct[/constant] incorrect
 * percent|X function file line, split on blanks (wide numbers push the
 * columns right).  For branch_all the first two are miss and hit.
 */
int kattr_profile_parse_trace_row(char *line, bool all,
			       struct kattr_profile_entry *e)
{
	struct site site;

	return trace_row(line, line + strlen(line), all, line, e, &site);
}

/*
 * The same trace site as last (in the text last_text) again, as
 * likely_row_again() does for likely_prof: blank-separated tokens, each digits or the very
 * bytes of last time's names, up to the '\n' (or end).  A row this
 * accepts is one trace_row() accepts, with the same result.
 */
static inline __attribute__((always_inline)) int
trace_row_again(char *line, char *end, bool all, const char *last_text,
		const struct site *last, struct again *r)
{
	char *p = line, *func, *file;
	uint64_t a, b, c, ln;

	if (!trace_counts(&p, end, all, &a, &b, &c))
		return -EAGAIN;
	func = skip_pad(p, end);
	last_text += last->func;
	if ((size_t)(end - func) <= last->function ||
	    !same_bytes(func, last_text, last->function) ||
	    !is_blank(func[last->function]))
		return -EAGAIN;
	file = skip_pad(func + last->function, end);
	if ((size_t)(end - file) <= last->file ||
	    !same_bytes(file, last_text + last->file_at, last->file) ||
	    !is_blank(file[last->file]))
		return -EAGAIN;
	p = skip_pad(file + last->file, end);
	if (!parse_u64(&p, end, &ln) || ln != last->line)
		return -EAGAIN;
	if (is_blank(*p))
		p = skip_blank(p);
	if (*p != '\n' && p != end)
		return -EAGAIN;
	*p = '\0';
	func[last->function] = '\0';
	file[last->file] = '\0';
	r->a = a;
	r->b = b;
	r->c = c;
	r->func = func;
	r->file = file;
	r->eol = p;
	return 0;
}

static bool is_dash_line(const char *s)
{
	bool dash = false;

	for (; *s; s++) {
		if (*s == '-')
			dash = true;
		else if (!is_blank(*s))
			return false;
	}
	return dash;
}

static bool starts_word(const char *s, const char *w)
{
	size_t n = strlen(w);

	s = (const char *)skip_blank((char *)s);
	return !strncmp(s, w, n) && (is_blank(s[n]) || !s[n]);
}

/* A header line of a known format, or UNKNOWN. */
static enum kattr_profile_format header_format(const char *line)
{
	if (!strncmp(line, LIKELY_TITLE, sizeof(LIKELY_TITLE) - 1) ||
	    !strncmp(line, "[+- ] Type", 10))
		return KATTR_PROFILE_FMT_LIKELY_PROF;
	if (starts_word(line, "correct") && strstr(line, "incorrect"))
		return KATTR_PROFILE_FMT_ANNOTATED;
	if (starts_word(line, "miss") && strstr(line, "hit"))
		return KATTR_PROFILE_FMT_ALL;
	return KATTR_PROFILE_FMT_UNKNOWN;
}

/* Guess a headerless row's format from its shape. */
static enum kattr_profile_format row_format(const char *line)
{
	if (strchr(line, '|') && strstr(line, "()@:"))
		return KATTR_PROFILE_FMT_LIKELY_PROF;
	return KATTR_PROFILE_FMT_ANNOTATED;
}

static bool is_row_start(const char *s)
{
	const char *t = skip_blank((char *)s);

	if (*t >= '0' && *t <= '9')
		return true;
	return (s[0] == ' ' || s[0] == '+' || s[0] == '-') &&
	       (s[1] == 'l' || s[1] == 'u');
}

/*
 * What parse_lines() carries from line to line.  prev, when given, is the
 * previous snapshot of the same source: its rows are expected at the same
 * place counted from the end (/proc/likely_prof lists new sites first;
 * other sources keep their order), which lets unchanged names be compared
 * instead of scanned, and records whether every site lines up for
 * kattr_profile_match().
 */
struct parse_state {
	struct kattr_profile *p;
	const struct kattr_profile *prev;	/* NULL: none to follow */
	char *end;		/* the NUL after the text */
	bool nuls;		/* the text holds a NUL: no row is taken as
				 * the same site again */
	size_t fresh;		/* rows expected in front of prev's */
	size_t same;		/* rows taken as prev's row again */
	uint64_t max_count;	/* an upper bound: the OR of all counts */
	bool enomem;		/* a table's row found no room */
	char *w;		/* a table's: where the next row's names go */
	/* kattr_profile_parse_diff(): each row taken again gets its deltas
	 * and rate against prev's at once (seconds > 0), in prev's counter
	 * width (down: a count went down, which the width decides). */
	double seconds;
	unsigned int bits;
	bool down;
	size_t wrong;		/* rows whose hint is wrong */
	/* A live profile's row: parsed here, kept in its site (lazy_put()) */
	struct kattr_profile_entry scratch;
	/* After a previous snapshot the lines are counted only when a row is
	 * not found again (count_rest()): till then the room is prev's line
	 * count (every row found again takes one of prev's), fresh is 0, and
	 * whether the text holds a NUL is not known (the fast parsers accept
	 * no NUL; parse_line() checks its lines).  broken: rows were found
	 * again at another offset than fresh's, no alignment. */
	bool counted;
	bool broken;
};

/* Row e's deltas against o, prev's row for the same site, while both are
 * at hand: what kattr_profile_diff() gives in the width st->bits. */
static inline void diff_again(struct parse_state *st,
			      struct kattr_profile_entry *e, const struct site *o)
{
	bool reset = false;

	if (unlikely(e->correct < o->correct || e->incorrect < o->incorrect))
		st->down = true;
	e->d_correct = counter_step(o->correct, e->correct, st->bits, &reset);
	e->d_incorrect = counter_step(o->incorrect, e->incorrect, st->bits,
				      &reset);
	e->reset = reset;
	e->has_rate = !reset;
	e->rate = reset ? 0 : (double)e->d_incorrect / st->seconds;
}

/* The counter width of a parsed profile (32: /proc/likely_prof's, unless
 * a count is wider). */
static unsigned int counter_bits(enum kattr_profile_format fmt, uint64_t max)
{
	return fmt == KATTR_PROFILE_FMT_LIKELY_PROF && max <= UINT32_MAX ? 32 : 64;
}

/* kattr_profile_entry_is_wrong(), inline (a call a row was 1% of a live
 * view's refresh, perf). */
static inline bool entry_is_wrong(const struct kattr_profile_entry *e)
{
	return e->hint != KATTR_PROFILE_HINT_NONE && e->incorrect > e->correct;
}

/*
 * A live profile's row (e, parsed into st->scratch) kept in its site: the
 * flags, the deltas (when there are) and branch_annotated's constant.
 * -ENOMEM (and st->enomem set) when the constants find no room.
 */
static int lazy_put(struct parse_state *st, const struct kattr_profile_entry *e,
		    struct site *site)
{
	struct kattr_profile_priv *pv = st->p->priv;
	size_t i = st->p->n;

	site->flags = (e->has_rate ? SITE_HAS_RATE : 0) |
		      (e->reset ? SITE_RESET : 0);
	if (pv->deltas) {
		pv->deltas[i].d_correct = e->d_correct;
		pv->deltas[i].d_incorrect = e->d_incorrect;
	}
	if (st->p->format == KATTR_PROFILE_FMT_ANNOTATED) {
		if (!pv->tconst &&
		    !(pv->tconst = malloc(pv->lines * sizeof(*pv->tconst)))) {
			st->enomem = true;
			return -ENOMEM;
		}
		pv->tconst[i] = e->constant;
	}
	return 0;
}

/*
 * A live profile's row found again (r): its site and deltas written as
 * row_again() makes them through an entry (lazy_put()), without one.
 */
static inline __attribute__((always_inline)) int
live_again(struct parse_state *st, const struct again *r, struct site *site,
	   const struct site *last)
{
	struct kattr_profile *p = st->p;
	struct kattr_profile_priv *pv = p->priv;
	/* likely(): correct is # True; unlikely(): # False */
	bool swap = p->format == KATTR_PROFILE_FMT_LIKELY_PROF &&
		    !(last->line & SITE_LIKELY);
	uint64_t c = swap ? r->b : r->a, i = swap ? r->a : r->b;
	bool reset = false;

	*site = *last;
	site->func = (uint32_t)(r->func - pv->text);
	site->file_at = (uint32_t)(r->file - r->func);
	site->tail = row_tail(r->file + last->file, r->eol);
	site->correct = c;
	site->incorrect = i;
	site->flags = 0;
	if (p->format == KATTR_PROFILE_FMT_ANNOTATED) {
		if (!pv->tconst &&
		    !(pv->tconst = malloc(pv->lines * sizeof(*pv->tconst)))) {
			st->enomem = true;
			return -ENOMEM;
		}
		pv->tconst[p->n] = r->c;
	}
	if (st->seconds > 0) {	/* diff_again() */
		if (unlikely(c < last->correct || i < last->incorrect))
			st->down = true;
		pv->deltas[p->n].d_correct = counter_step(last->correct, c,
							  st->bits, &reset);
		pv->deltas[p->n].d_incorrect = counter_step(last->incorrect, i,
							    st->bits, &reset);
		site->flags = reset ? SITE_RESET : SITE_HAS_RATE;
	}
	st->wrong += p->format != KATTR_PROFILE_FMT_ALL && i > c;
	st->max_count |= c | i;
	return 0;
}

/* What likely_run() and trace_run() carry from row to row: in registers,
 * as the stores to sites and deltas could alias the parse state's. */
struct run {
	const struct site *last;	/* prev's site of the row */
	struct site *site;		/* the row's */
	struct site_delta *d;		/* its deltas, or NULL (no rates) */
	uint64_t max_count;
	size_t wrong;
	unsigned int bits;
	bool down;
};

/* The row (its function at func) taken as r->last's site again with the
 * counts c, i (correct, incorrect): its site and deltas as live_again()
 * writes them; wrong: whether a wrong hint counts. */
static inline __attribute__((always_inline)) void
run_take(struct run *r, const char *text, const char *func, uint64_t c,
	 uint64_t i, bool wrong)
{
	const struct site *last = r->last;
	struct site *site = r->site;
	bool reset = false;

	*site = *last;
	site->func = (uint32_t)(func - text);
	site->correct = c;
	site->incorrect = i;
	site->flags = 0;
	if (r->d) {	/* diff_again() */
		r->down |= c < last->correct || i < last->incorrect;
		r->d->d_correct = counter_step(last->correct, c, r->bits, &reset);
		r->d->d_incorrect = counter_step(last->incorrect, i, r->bits,
						 &reset);
		site->flags = reset ? SITE_RESET : SITE_HAS_RATE;
		r->d++;
	}
	r->wrong += wrong && i > c;
	r->max_count |= c | i;
	r->last++;
	r->site++;
}

static inline void run_start(struct run *r, const struct parse_state *st)
{
	struct kattr_profile_priv *pv = st->p->priv;

	r->last = st->prev->priv->sites + (st->p->n - st->fresh);
	r->site = pv->sites + st->p->n;
	r->d = pv->deltas ? pv->deltas + st->p->n : NULL;
	r->max_count = st->max_count;
	r->wrong = st->wrong;
	r->bits = st->bits;
	r->down = false;
}

/* The rows a run took (taken) into the parse state. */
static size_t run_end(struct parse_state *st, const struct run *r, size_t taken)
{
	st->down |= r->down;
	st->max_count = r->max_count;
	st->wrong = r->wrong;
	st->same += taken;
	st->p->rows += taken;
	st->p->n += taken;
	return taken;
}

/*
 * A likely_prof row's counts after its flag and type (s[1] on, 32 bytes
 * readable): in the layout the writers print ("%-9s|%9u|%9u\t", counts
 * below 10^9) read in place, else by the token walk; where the function
 * starts, or NULL.  What likely_row() reads there.
 */
static inline __attribute__((always_inline)) char *
likely_counts(char *s, const char *end, bool likely, uint64_t *t, uint64_t *f)
{
	char *p;

	if (load8(s + 3) == load8(likely ? "kely   |" : "likely |") &&
	    padded9(s + 11, t) && s[20] == '|' && padded9(s + 21, f) &&
	    (s[30] == '\t' || s[30] == ' '))
		return s + 31;
	p = skip_pad(s + (likely ? 7 : 9), end);
	if (*p++ != '|')
		return NULL;
	p = skip_pad(p, end);
	if (!parse_u64(&p, end, t) || *p++ != '|')
		return NULL;
	p = skip_pad(p, end);
	if (!parse_u64(&p, end, f) || (*p != '\t' && *p != ' '))
		return NULL;
	return skip_blank(p);
}

/*
 * A live view's usual rows, one after the other: each the site of prev's
 * row at the same place (its counts by likely_counts()), with the very
 * bytes of last time's names, line and trailing blanks, which prev's site
 * measures (function, file, tail): three windows compared (same_before())
 * instead of a token walk, no loop and no branch a byte.  A row taken
 * here is one likely_row_again() takes, into the same site: every byte of
 * it is checked, the flag and type, the counts, a separator, and the rest
 * equal to a row likely_row() or a fast parser took (the first "()@:" and
 * the last '@' in the same places, the line's digits the same).  Stops at
 * the first other row (row_again() and parse_line() decide it); returns
 * the rows taken, *sp past them.
 */
static size_t likely_run(struct parse_state *st, char **sp)
{
	const struct kattr_profile *prev = st->prev;
	const char *ptext = prev->priv->text, *end = st->end;
	const char *text = st->p->priv->text;
	const struct site *lend = prev->priv->sites + prev->n;
	size_t taken = 0;
	char *s = *sp;
	struct run r;

	for (run_start(&r, st); r.last < lend; taken++) {
		const struct site *last = r.last;
		bool likely = last->line & SITE_LIKELY;
		size_t fl = last->function, fi = last->file, tl = last->tail;
		/* prev's function, and where this row's is */
		const char *pf = ptext + last->func;
		char *func, *sep, *at;
		uint64_t t, f;

		if (end - s < 32 || (*s != '+' && *s != '-' && *s != ' ') ||
		    !word_is(s + 1, likely ? "likely\0\0" : "unlikely",
			     likely ? 6 : 8) ||
		    !(func = likely_counts(s, end, likely, &t, &f)))
			break;
		sep = func + fl;
		at = sep + 4 + fi;
		if (!tl || fl - 1 >= 32 || last->func + fl < 32 ||
		    sep - text < 32 || (size_t)(end - func) < fl + 4 + fi + tl ||
		    !same_before(sep, pf + fl, fl) || *sep != '(' ||
		    !(fi + 3 <= 32 ? same_before(at, pf + fl + 4 + fi, fi + 3) :
		      same_bytes(sep + 1, pf + fl + 1, fi + 3)) ||
		    *at != '@' || !same_before(at + tl, pf + fl + 4 + fi + tl, tl - 1) ||
		    (at[tl] != '\n' && at + tl != end))
			break;
		*sep = '\0';
		*at = '\0';
		at[tl] = '\0';
		/* likely(): correct is # True; unlikely(): # False */
		run_take(&r, text, func, likely ? t : f, likely ? f : t, true);
		s = at + tl + 1;
	}
	*sp = s;
	return run_end(st, &r, taken);
}

/* The n (<= 64) bytes before a are those before b (64 bytes readable
 * before both): same_before() twice (the second on 0 bytes when n <= 32),
 * no branch on n. */
static inline __attribute__((always_inline)) bool
same_before64(const char *a, const char *b, size_t n)
{
	size_t hi = n > 32 ? n - 32 : 0;

	return same_before(a, b, n - hi) && same_before(a - 32, b - 32, hi);
}

/*
 * A trace row's counts in the kernel's layout ("%8lu %8lu %3ld "): what
 * trace_counts() reads there, but X (never evaluated).  The percent's
 * field is read as eight bytes, its three and five spaces.
 */
static inline __attribute__((always_inline)) bool
trace_layout(const char *s, const char *end, uint64_t *a, uint64_t *b)
{
	uint64_t pct, sp;

	return end - s >= 24 && s[8] == ' ' && s[17] == ' ' && s[21] == ' ' &&
	       padded_word(load8(s), a, &sp) &&
	       padded_word(load8(s + 9), b, &sp) &&
	       padded_word((load8(s + 13) & ~0xffffffffffULL) |
			   (ONES * ' ' & 0xffffffffffULL), &pct, &sp) &&
	       pct <= 100;
}

/*
 * likely_run() for tracefs rows ("%8lu %8lu %3ld %-30.30s %-20.20s %d"):
 * the counts read as trace_row() reads them (trace_layout(), else
 * trace_counts()), then the
 * function, the blanks and the file, the blanks and the line compared
 * with prev's bytes in windows (the lengths from prev's site: function,
 * file_at, file, tail), a blank after each name.  A row taken here is one
 * trace_row_again() takes, into the same site.
 */
static size_t trace_run(struct parse_state *st, char **sp)
{
	const struct kattr_profile *prev = st->prev;
	struct kattr_profile_priv *pv = st->p->priv;
	const char *ptext = prev->priv->text, *end = st->end;
	const struct site *lend = prev->priv->sites + prev->n;
	bool all = st->p->format == KATTR_PROFILE_FMT_ALL;
	size_t taken = 0;
	char *s = *sp;
	struct run r;

	if (!all && !pv->tconst &&
	    !(pv->tconst = malloc(pv->lines * sizeof(*pv->tconst))))
		return 0;	/* (parse_line() finds no room either) */
	for (run_start(&r, st); r.last < lend; taken++) {
		const struct site *last = r.last;
		size_t fl = last->function, fa = last->file_at;
		size_t fe = fa + last->file, tl = last->tail;
		const char *pf = ptext + last->func;
		uint64_t a, b, c;
		char *p = s, *func, *eol;

		if (!trace_layout(s, end, &a, &b)) {
			if (!trace_counts(&p, end, all, &a, &b, &c))
				break;
		} else {
			p = s + 21;
			c = 0;
		}
		func = skip_pad(p, end);
		eol = func + fe + tl;
		if (!tl || fl - 1 >= 32 || fe - fl - 1 >= 64 ||
		    last->func + fl < 32 || last->func + fe < 64 ||
		    func - pv->text < 32 || (size_t)(end - func) < fe + tl ||
		    !same_before(func + fl, pf + fl, fl) || !is_blank(func[fl]) ||
		    !same_before64(func + fe, pf + fe, fe - fl - 1) ||
		    !is_blank(func[fe]) ||
		    !same_before(eol, pf + fe + tl, tl - 1) ||
		    (*eol != '\n' && eol != end))
			break;
		func[fl] = '\0';
		func[fe] = '\0';
		*eol = '\0';
		if (!all)
			pv->tconst[st->p->n + taken] = c;
		run_take(&r, pv->text, func, a, b, !all);
		s = eol + 1;
	}
	*sp = s;
	return run_end(st, &r, taken);
}

/* The row at s is the site of prev's row at the same place from the end,
 * with new counts: parsed as such, *eol set.  Else false. */
static bool row_again(struct parse_state *st, char *s, char **eol)
{
	struct kattr_profile *p = st->p;
	const struct kattr_profile *prev = st->prev;
	size_t at = p->n - st->fresh;	/* the same row in prev */
	struct kattr_profile_entry *e;
	const struct site *last;
	struct site *site;
	struct again r;
	int ret;

	if (!prev || st->nuls || p->format != prev->format ||
	    p->n < st->fresh || at >= prev->n)
		return false;
	site = &p->priv->sites[p->n];
	last = &prev->priv->sites[at];
	if (p->format == KATTR_PROFILE_FMT_LIKELY_PROF)
		ret = likely_row_again(s, st->end, prev->priv->text, last, &r);
	else
		ret = trace_row_again(s, st->end,
				      p->format == KATTR_PROFILE_FMT_ALL,
				      prev->priv->text, last, &r);
	if (ret < 0)
		return false;
	*eol = r.eol;
	if (p->priv->lazy) {
		if (live_again(st, &r, site, last) < 0)
			return false;	/* (parse_line() finds no room either) */
	} else {
		e = &p->entries[p->n];
		if (p->format == KATTR_PROFILE_FMT_LIKELY_PROF)
			likely_entry(e, last->line & SITE_LIKELY, r.a, r.b,
				     r.func, r.file);
		else
			trace_entry(e, p->format == KATTR_PROFILE_FMT_ALL, r.a, r.b,
				    r.c, r.func, r.file);
		e->line = last->line & ~SITE_LIKELY;
		*site = *last;
		site->func = (uint32_t)(r.func - p->priv->text);
		site->file_at = (uint32_t)(r.file - r.func);
		site->tail = row_tail(r.file + last->file, r.eol);
		site->correct = e->correct;
		site->incorrect = e->incorrect;
		if (st->seconds > 0)
			diff_again(st, e, last);
		st->wrong += entry_is_wrong(e);
		st->max_count |= e->correct | e->incorrect;
	}
	p->rows++;
	st->same++;
	p->n++;
	return true;
}

/* A line (not a row) that says the format or underlines a header: taken
 * into p and skipped. */
static bool header_line(struct kattr_profile *p, const char *s)
{
	enum kattr_profile_format hf;

	/* Rows start with a number or a flag and a type: only other lines
	 * can be headers. */
	if (unlikely(!is_row_start(s))) {
		hf = header_format(s);
		if (hf != KATTR_PROFILE_FMT_UNKNOWN &&
		    (p->format == KATTR_PROFILE_FMT_UNKNOWN || p->format == hf)) {
			p->format = hf;
			p->has_header = true;
			return true;
		}
		return is_dash_line(s) && p->has_header;
	}
	return false;
}

/*
 * A table's row: e and site into the table's site p->n, its names moved
 * down to st->w (behind the last row's: never past this row's start, so
 * no byte not yet parsed is touched), so that the text can shrink to its
 * names after the parse.  -ENOMEM (and st->enomem set) when
 * branch_annotated's constants find no room.
 */
static int tsite_put(struct parse_state *st, const struct kattr_profile_entry *e,
		     const struct site *site)
{
	struct kattr_profile_priv *pv = st->p->priv;
	struct tsite *t = &pv->tsites[st->p->n];

	if (st->p->format == KATTR_PROFILE_FMT_ANNOTATED) {
		if (!pv->tconst &&
		    !(pv->tconst = malloc(pv->lines * sizeof(*pv->tconst)))) {
			st->enomem = true;
			return -ENOMEM;
		}
		pv->tconst[st->p->n] = e->constant;
	}
	t->correct = e->correct;
	t->incorrect = e->incorrect;
	t->line = site->line;
	t->func = (uint32_t)(st->w - pv->text);
	memmove(st->w, e->function, site->function + 1);
	st->w += site->function + 1;
	t->file = (uint32_t)(st->w - pv->text);
	memmove(st->w, e->file, site->file + 1);
	st->w += site->file + 1;
	return 0;
}

/* The line at s, in full (its '\n' made a NUL): a row, a header, a blank
 * or binary line.  Returns its end. */
static char *parse_line(struct parse_state *st, char *s)
{
	struct kattr_profile *p = st->p;
	struct kattr_profile_entry *e = p->entries ? &p->entries[p->n] : &st->scratch;
	char *nl = memchr(s, '\n', (size_t)(st->end - s));
	char *eol = nl ? nl : st->end;
	struct site scratch, *site;
	int ret;

	*eol = '\0';
	/* A NUL in the line: binary. */
	if (unlikely(st->nuls || !st->counted) && strlen(s) != (size_t)(eol - s)) {
		p->rows++;
		p->bad_rows++;
		return eol;
	}
	if (!*skip_blank(s) || header_line(p, s))
		return eol;
	if (p->format == KATTR_PROFILE_FMT_UNKNOWN)
		p->format = row_format(s);
	p->rows++;
	/* (not counted as the same site: no alignment) */
	site = p->priv->sites ? &p->priv->sites[p->n] : &scratch;
	if (p->format == KATTR_PROFILE_FMT_LIKELY_PROF)
		ret = likely_row(s, eol, p->priv->text, e, site);
	else
		ret = trace_row(s, eol, p->format == KATTR_PROFILE_FMT_ALL,
				p->priv->text, e, site);
	if (unlikely(ret < 0)) {
		p->bad_rows++;
		return eol;
	}
	if (p->priv->compact && tsite_put(st, e, site) < 0)
		return eol;
	if (p->priv->lazy && lazy_put(st, e, site) < 0)
		return eol;
	site->correct = e->correct;
	site->incorrect = e->incorrect;
	st->wrong += entry_is_wrong(e);
	st->max_count |= e->correct | e->incorrect;
	p->n++;
	return eol;
}

/*
 * A profile parsed without a previous one (a batch pass, a live view's
 * first read) keeps no sites: 4 MB not written for 200,000 rows that may
 * never be read again.  The next snapshot's parse makes them here, from
 * the entries, once.
 */
static int make_sites(const struct kattr_profile *prev)
{
	struct kattr_profile_priv *pv = prev->priv;
	struct site *sites;

	if (pv->sites)
		return 0;
	sites = malloc((prev->n ? prev->n : 1) * sizeof(*sites));
	if (!sites)
		return -ENOMEM;
	for (size_t i = 0; i < prev->n; i++) {
		const struct kattr_profile_entry *e = &prev->entries[i];

		sites[i].correct = e->correct;
		sites[i].incorrect = e->incorrect;
		sites[i].func = (uint32_t)(e->function - pv->text);
		sites[i].function = (uint32_t)strlen(e->function);
		sites[i].file_at = (uint32_t)(e->file - e->function);
		sites[i].file = (uint32_t)strlen(e->file);
		sites[i].line = prev->format == KATTR_PROFILE_FMT_LIKELY_PROF ?
				site_line(e) : e->line;
		sites[i].flags = 0;
		sites[i].tail = 0;	/* not known: no likely_run() */
	}
	pv->sites = sites;
	return 0;
}

/* A table's text cut to its first n bytes (the names moved there): on
 * the heap, the rest is free for the order that follows. */
static void shrink_text(struct kattr_profile_priv *own, size_t n)
{
	char *t = realloc(own->text, n + 1);

	if (t)
		own->text = t;
}

/* Room for cap rows in every per-row array of p (pv->lines: the room
 * until the parse ends).  -ENOMEM. */
static int grow(struct kattr_profile *p, size_t cap)
{
	struct kattr_profile_priv *pv = p->priv;
	void *t;

#define GROW(v) do {							\
		if (v) {						\
			t = realloc((v), cap * sizeof(*(v)));		\
			if (!t)						\
				return -ENOMEM;				\
			(v) = t;					\
		}							\
	} while (0)
	GROW(p->entries);
	GROW(pv->sites);
	GROW(pv->deltas);
	GROW(pv->tconst);
#undef GROW
	pv->lines = cap;
	return 0;
}

/* The lines from s on counted (seen before it): the room made exact, the
 * rows new in front known (the line counts' difference) and whether a
 * NUL follows.  -ENOMEM. */
static int count_rest(struct parse_state *st, char *s, size_t seen)
{
	struct kattr_profile_priv *own = st->p->priv;
	size_t cap = seen + count_lines(s, (size_t)(st->end - s), &st->nuls) + 1;

	st->counted = true;
	if (cap > own->lines && grow(st->p, cap) < 0)
		return -ENOMEM;
	if (cap < st->prev->priv->lines) {	/* rows gone: no alignment */
		st->prev = NULL;
		return 0;
	}
	if (st->p->n && cap - st->prev->priv->lines != st->fresh)
		st->broken = true;	/* rows found at another offset */
	st->fresh = cap - st->prev->priv->lines;
	return 0;
}

/* The arrays of p for cap rows (prev: the previous snapshot or NULL). */
static int make_room(struct kattr_profile *p, size_t cap,
		     const struct kattr_profile *prev, double seconds)
{
	struct kattr_profile_priv *own = p->priv;

	own->lines = cap;
	if (own->compact)	/* a table's sites (never a next snapshot) */
		own->tsites = malloc(cap * sizeof(*own->tsites));
	else if (!own->lazy)
		p->entries = malloc(cap * sizeof(*p->entries));
	if (!p->entries && !own->tsites && !own->lazy)
		return -ENOMEM;
	/* Sites only where a next snapshot is likely: after a previous one,
	 * or in a live profile (where they are the entries). */
	if (prev || own->lazy) {
		own->sites = malloc(cap * sizeof(*own->sites));
		if (!own->sites || (prev && make_sites(prev) < 0))
			return -ENOMEM;
	}
	if (own->lazy && seconds > 0) {
		own->deltas = malloc(cap * sizeof(*own->deltas));
		if (!own->deltas)
			return -ENOMEM;
	}
	return 0;
}

/* Every site of prev is here, in order, behind the fresh ones: say so
 * (and whether every row was diffed on the way). */
static void set_aligned(struct parse_state *st, const struct kattr_profile *prev,
			double seconds)
{
	struct kattr_profile *p = st->p;
	struct kattr_profile_priv *own = p->priv;

	if (!st->prev || st->broken || p->n != prev->n + st->fresh ||
	    st->same != prev->n)
		return;
	own->aligned_to = prev->priv->id;
	own->aligned_k = st->fresh;
	if (!__atomic_exchange_n(&prev->priv->chained, true, __ATOMIC_RELAXED)) {
		own->chain = prev->priv->chain;
		own->chain_k = prev->priv->chain_k + st->fresh;
	}
	/* every row of prev diffed (but the fresh), in the width
	 * kattr_profile_diff() takes: the wider of the two */
	if (seconds > 0 && (!st->down || prev->counter_bits >=
			    counter_bits(p->format, st->max_count)))
		own->diffed_from = prev->priv->id;
}

/* Parse the len bytes of p's text, after prev (may be NULL); with
 * seconds > 0, diffed against it on the way where that is sure. */
static int parse_lines(struct kattr_profile *p, size_t len,
		       const struct kattr_profile *prev, double seconds)
{
	struct kattr_profile_priv *own = p->priv;
	struct parse_state st = { .p = p, .end = own->text + len, .w = own->text,
				  .seconds = seconds,
				  .bits = prev ? prev->counter_bits : 64 };
	bool ends_nl = len && own->text[len - 1] == '\n';
	size_t cap, seen = 0;
	char *s, *eol;

	own->seconds = seconds;
	/* Without a previous snapshot one scan counts the lines and finds out
	 * whether any can hold a NUL (binary); after one, its line count is
	 * the room until a row is not found again (count_rest()). */
	st.counted = !prev;
	cap = prev ? prev->priv->lines : count_lines(own->text, len, &st.nuls) + 1;
	if (make_room(p, cap, prev, seconds) < 0)
		return -ENOMEM;
	st.prev = prev;
	for (s = own->text; s < st.end; s = eol + 1, seen++) {
		/* A live view's rows in the kernel's layout, in a run. */
		if (own->lazy && st.prev && !st.nuls && p->n >= st.fresh &&
		    p->format == prev->format &&
		    p->format != KATTR_PROFILE_FMT_UNKNOWN) {
			seen += p->format == KATTR_PROFILE_FMT_LIKELY_PROF ?
				likely_run(&st, &s) : trace_run(&st, &s);
			if (s >= st.end)
				break;
		}
		/* The same site again: no line end to find first. */
		if (row_again(&st, s, &eol))
			continue;
		if (!st.counted && is_row_start(s)) {
			if (count_rest(&st, s, seen) < 0)
				return -ENOMEM;
			if (row_again(&st, s, &eol))
				continue;
		}
		eol = parse_line(&st, s);
	}
	set_aligned(&st, prev, seconds);
	/* the line count, for the next snapshot's fresh rows */
	own->lines = seen - (len && !ends_nl) + 1;
	own->max_count = st.max_count;
	own->wrong = st.wrong;
	if (own->compact)	/* a table's text: its names only */
		shrink_text(own, (size_t)(st.w - own->text));
	return st.enomem ? -ENOMEM : 0;
}

int prof_parse_buf(char *buf, size_t len, enum kattr_profile_format fmt,
		   const struct kattr_profile *prev, bool compact, bool lazy,
		   double seconds, struct kattr_profile **out)
{
	struct kattr_profile *p;
	int ret;

	if (len > KATTR_PROFILE_MAX_INPUT) {
		free(buf);
		return -EFBIG;
	}
	p = calloc(1, sizeof(*p));
	if (!p || !(p->priv = calloc(1, sizeof(*p->priv)))) {
		free(p);
		free(buf);
		return -ENOMEM;
	}
	p->priv->id = next_id();
	p->priv->chain = p->priv->id;	/* its own, unless aligned */
	p->priv->text = buf;
	p->priv->compact = compact;
	p->priv->lazy = lazy;
	buf[len] = '\0';
	p->format = fmt;
	if (compact || (prev && prev->format != fmt && fmt != KATTR_PROFILE_FMT_UNKNOWN))
		prev = NULL;
	ret = parse_lines(p, len, prev, prev ? seconds : 0);
	if (ret < 0)
		goto out_free;
	if (!p->has_header && !p->n) {
		ret = -ENODATA;
		goto out_free;
	}
	p->counter_bits = counter_bits(p->format, p->priv->max_count);
	*out = p;
	return 0;
out_free:
	kattr_profile_free(p);
	return ret;
}

int kattr_profile_parse_buf(char *buf, size_t len, enum kattr_profile_format fmt,
			    struct kattr_profile **out)
{
	return prof_parse_buf(buf, len, fmt, NULL, false, false, 0, out);
}

int kattr_profile_parse_next(const struct kattr_profile *prev, char *buf,
			     size_t len, struct kattr_profile **out)
{
	return prof_parse_buf(buf, len, KATTR_PROFILE_FMT_UNKNOWN, prev, false,
			      false, 0, out);
}

int kattr_profile_parse(const char *text, size_t len,
			enum kattr_profile_format fmt, struct kattr_profile **out)
{
	char *buf;

	if (len > KATTR_PROFILE_MAX_INPUT)
		return -EFBIG;
	buf = malloc(len + 1);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, text, len);
	return kattr_profile_parse_buf(buf, len, fmt, out);
}
