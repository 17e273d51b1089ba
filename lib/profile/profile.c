// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Branch-hint profiles: parse /proc/likely_prof, tracefs branch_annotated
 * and branch_all into struct kattr_prof_entry; diff, sort, filter.
 * Nothing here does I/O.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kattr/profile.h"
#include "kattr/private.h"
#include "likely_prof.h"

static const char LIKELY_TITLE[] = "Likely Profiling Results";

static bool is_blank(char c)
{
	/* ' ', '\t', or '\v' '\f' '\r' (11 to 13) */
	return c == ' ' || c == '\t' || (unsigned char)(c - '\v') <= '\r' - '\v';
}

/* Control bytes (and DEL) in a name are refused: names are printed to
 * terminals (a profile written by any user must not send escape sequences
 * to a root terminal).  has_below_or_del() and name_end() check. */

static char *skip_blank(char *s)
{
	while (is_blank(*s))
		s++;
	return s;
}

#define ONES	0x0101010101010101ULL
#define HIGHS	0x8080808080808080ULL

static uint64_t load8(const char *p)
{
	uint64_t w;

	memcpy(&w, p, sizeof(w));
	return w;
}

/* The first n (<= 8) bytes of the word at p are those of the string
 * w (8 bytes readable at p). */
static inline bool word_is(const char *p, const char *w, unsigned int n)
{
	uint64_t mask = n == 8 ? ~0ULL : (1ULL << (8 * n)) - 1;

	return ((load8(p) ^ load8(w)) & mask) == 0;
}

/* memcmp() == 0 for the short names of a row, inline: words, the last
 * one overlapping (no call, no byte loop). */
static inline bool same_bytes(const char *a, const char *b, size_t n)
{
	size_t i;

	if (n < 8) {
		for (i = 0; i < n; i++)
			if (a[i] != b[i])
				return false;
		return true;
	}
	for (i = 0; i + 8 < n; i += 8)
		if (load8(a + i) != load8(b + i))
			return false;
	return load8(a + n - 8) == load8(b + n - 8);
}

/* skip_blank() for the "%9u" padding: eight spaces a step, then the
 * byte loop for whatever else may follow (end bounds the reads). */
static inline __attribute__((always_inline)) char *
skip_pad(char *s, const char *end)
{
	while (end - s >= 8) {
		uint64_t w = load8(s) ^ (ONES * ' ');

		if (w) {
			s += __builtin_ctzll(w) / 8;
			break;
		}
		s += 8;
	}
	return skip_blank(s);
}

/* How many of the 8 bytes of w (little-endian) lead as decimal digits. */
static unsigned int lead_digits8(uint64_t w)
{
	uint64_t t = w - ONES * '0';
	/* a byte is no digit when it was below '0' (its subtraction
	 * borrowed) or is above '9'; borrows only spoil later bytes */
	uint64_t bad = (t | (t + ONES * (0x80 - 10))) & HIGHS;

	return bad ? (unsigned int)__builtin_ctzll(bad) / 8 : 8;
}

/* The value of the n leading digits (1..8) of w. */
static uint64_t value8(uint64_t w, unsigned int n)
{
	w = (w & (ONES * 0x0f)) << (8 * (8 - n));	/* zeros in front */
	w = (w * 10 + (w >> 8)) & 0x00ff00ff00ff00ffULL;
	w = (w * 100 + (w >> 16)) & 0x0000ffff0000ffffULL;
	return (w * 10000 + (w >> 32)) & 0xffffffffULL;
}

/* Decimal digits at *s into *v; at least one, no overflow.  end bounds
 * the word-at-a-time reads (the digits end before it, at a NUL at the
 * latest). */
static inline __attribute__((always_inline)) bool
parse_u64(char **s, const char *end, uint64_t *v)
{
	char *p = *s;
	uint64_t x = 0;
	size_t n = 0;

	if (end - p >= 8) {
		uint64_t w = load8(p);
		unsigned int d = lead_digits8(w);

		if (d == 0)
			return false;
		x = value8(w, d);
		n = d;
		if (d < 8)
			goto done;
	}
	/* Up to 19 digits cannot overflow: check only longer numbers. */
	for (; p[n] >= '0' && p[n] <= '9'; n++)
		if (n < 19)
			x = x * 10 + (unsigned int)(p[n] - '0');
	if (unlikely(n == 0))
		return false;
	if (unlikely(n > 19)) {
		x = 0;
		for (size_t i = 0; i < n; i++) {
			unsigned int d = (unsigned int)(p[i] - '0');

			if (x > (UINT64_MAX - d) / 10)
				return false;
			x = x * 10 + d;
		}
	}
done:
	*s = p + n;
	*v = x;
	return true;
}

static bool parse_line_no(char **s, const char *end, unsigned int *line)
{
	uint64_t v;

	if (!parse_u64(s, end, &v) || v > 0x7fffffffu)
		return false;
	*line = (unsigned int)v;
	return true;
}

/* Word-at-a-time scans: eight bytes per step for the names, which are
 * most of a row's bytes (200,000 rows a second in a live view). */
/* A byte of w is below n (n <= 128): exact as a yes/no answer. */
static bool word_has_less(uint64_t w, unsigned int n)
{
	return ((w - ONES * n) & ~w & HIGHS) != 0;
}

static bool word_has(uint64_t w, unsigned char c)
{
	return word_has_less(w ^ (ONES * c), 1);
}

/* A byte below lim (lim <= 128) or a DEL in [s, s + n)?  lim 0x20: a
 * control byte; lim 0x21: a control byte or a blank. */
static bool has_below_or_del(const char *s, size_t n, unsigned char lim)
{
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t w = load8(s + i);

		if (word_has_less(w, lim) || word_has(w, 0x7f))
			return true;
	}
	for (; i < n; i++)
		if ((unsigned char)s[i] < lim || s[i] == 0x7f)
			return true;
	return false;
}

/*
 * Private to the library: what the parse of the next snapshot needs of a
 * row, kept apart from the entries (a quarter of their size: the parse
 * then streams through this, not through the entries).
 */
struct site {
	uint32_t func;		/* the function's offset in the text
				 * (KATTR_PROF_MAX_INPUT < 4 GiB) */
	uint32_t function;	/* strlen(function) */
	uint32_t file_at;	/* the file's offset from the function */
	uint32_t file;		/* strlen(file) */
	uint32_t line;		/* the line, | SITE_LIKELY for likely() */
};
#define SITE_LIKELY	0x80000000u	/* lines are < 2^31 */

static uint32_t site_line(const struct kattr_prof_entry *e)
{
	return e->line | (e->hint == KATTR_PROF_HINT_LIKELY ? SITE_LIKELY : 0);
}

struct prof_priv {
	uint64_t id;		/* unique per parsed profile, never 0 */
	uint64_t aligned_to;	/* id of the profile whose entry i - aligned_k
				 * is the same site as entry i, for every
				 * i >= aligned_k (and no other): 0 if none */
	size_t aligned_k;
	size_t lines;		/* lines in the input */
	uint64_t max_count;	/* >= every correct and incorrect count */
	struct site *sites;	/* per entry */
};

static uint64_t next_id(void)
{
	static uint64_t id;

	return __atomic_add_fetch(&id, 1, __ATOMIC_RELAXED);
}

/* A likely_prof row's entry (but its line): # True t, # False f. */
static inline void likely_entry(struct kattr_prof_entry *e, bool likely,
				uint64_t t, uint64_t f, const char *func,
				const char *file)
{
	e->function = func;
	e->file = file;
	e->hint = likely ? KATTR_PROF_HINT_LIKELY : KATTR_PROF_HINT_UNLIKELY;
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
 * line ends (NUL) at eol; base is the start of its text (for sl).  A row
 * naming the same site as last time takes likely_row_again() instead.
 */
static int likely_row(char *line, char *eol, const char *base,
		      struct kattr_prof_entry *e, struct site *sl)
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
	*sep = '\0';
	*at = '\0';
	sl->func = (uint32_t)(func - base);
	sl->function = (uint32_t)(sep - func);
	sl->file_at = sl->function + 4;
	sl->file = (uint32_t)(at - file);
	likely_entry(e, likely, t, f, func, file);
	sl->line = site_line(e);
	return 0;
}

/*
 * The same site as ps (in the text pt) again, in the row at line, with
 * new counts: the common case of a live view, parsed without first finding
 * the end of the line.  Every byte up to the '\n' (or end, the NUL at
 * the end of the text) is accounted for, so a row this accepts is one
 * likely_row() accepts, with the same result.  *eolp is the '\n' or end.
 * -EAGAIN when the row is anything else: likely_row() then decides.
 */
static int likely_row_again(char *line, char *end, const char *base,
			    struct kattr_prof_entry *e, struct site *sl,
			    const char *pt, const struct site *ps, char **eolp)
{
	bool likely = ps->line & SITE_LIKELY;
	size_t hl = likely ? 6 : 8;
	char *p = line, *func, *sep, *at;
	uint64_t t, f, ln;

	if (end - p < 32 || (*p != '+' && *p != '-' && *p != ' ') ||
	    !word_is(p + 1, likely ? "likely\0\0" : "unlikely", hl))
		return -EAGAIN;
	p = skip_pad(p + 1 + hl, end);
	if (*p++ != '|')
		return -EAGAIN;
	p = skip_pad(p, end);
	if (!parse_u64(&p, end, &t) || *p++ != '|')
		return -EAGAIN;
	p = skip_pad(p, end);
	if (!parse_u64(&p, end, &f) || (*p != '\t' && *p != ' '))
		return -EAGAIN;
	func = skip_blank(p);
	if ((size_t)(end - func) < (size_t)ps->function + 4 + ps->file + 2)
		return -EAGAIN;
	sep = func + ps->function;
	at = sep + 4 + ps->file;
	pt += ps->func;
	if (!same_bytes(func, pt, ps->function) || !same_bytes(sep, "()@:", 4) ||
	    !same_bytes(sep + 4, pt + ps->file_at, ps->file) || *at != '@')
		return -EAGAIN;
	p = at + 1;
	if (!parse_u64(&p, end, &ln) || ln != (ps->line & ~SITE_LIKELY))
		return -EAGAIN;
	p = skip_blank(p);
	if (*p != '\n' && p != end)
		return -EAGAIN;
	*p = '\0';
	*eolp = p;
	*sep = '\0';
	*at = '\0';
	*sl = *ps;
	sl->func = (uint32_t)(func - base);
	e->line = (unsigned int)ln;
	likely_entry(e, likely, t, f, func, sep + 4);
	return 0;
}

int kattr_prof_parse_likely_row(char *line, struct kattr_prof_entry *e)
{
	struct site sl;

	return likely_row(line, line + strlen(line), line, e, &sl);
}

/* The end of the name token at s: the first blank or NUL after it; NULL
 * when a control byte or DEL comes first (names reach terminals).  Word
 * reads stay below eol. */
static char *name_end(char *s, const char *eol)
{
	while (eol - s >= 8) {
		uint64_t w = load8(s);

		if (word_has_less(w, 0x21) || word_has(w, 0x7f))
			break;
		s += 8;
	}
	for (;; s++) {
		unsigned char c = (unsigned char)*s;

		if (c > 0x20 && c != 0x7f)
			continue;
		return c == 0 || is_blank((char)c) ? s : NULL;
	}
}

/* A trace row's entry (but its line). */
static void trace_entry(struct kattr_prof_entry *e, bool all, uint64_t a,
			uint64_t b, uint64_t c, const char *func, const char *file)
{
	e->function = func;
	e->file = file;
	e->hint = all ? KATTR_PROF_HINT_NONE : KATTR_PROF_HINT_ANNOTATED;
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
		     struct kattr_prof_entry *e, struct site *sl)
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
	sl->func = (uint32_t)(func - base);
	sl->function = (uint32_t)(fend - func);
	sl->file_at = (uint32_t)(file - func);
	sl->file = (uint32_t)(lend - file);
	sl->line = e->line;
	return 0;
}

/*
 * "%8lu %8lu %3ld %-30.30s %-20.20s %d": correct[/constant] incorrect
 * percent|X function file line, split on blanks (wide numbers push the
 * columns right).  For branch_all the first two are miss and hit.
 */
int kattr_prof_parse_trace_row(char *line, bool all,
			       struct kattr_prof_entry *e)
{
	struct site sl;

	return trace_row(line, line + strlen(line), all, line, e, &sl);
}

/*
 * The same trace site as ps (in the text pt) again, as likely_row_again()
 * does for likely_prof: blank-separated tokens, each digits or the very
 * bytes of last time's names, up to the '\n' (or end).  A row this
 * accepts is one trace_row() accepts, with the same result.
 */
static int trace_row_again(char *line, char *end, bool all, const char *base,
			   struct kattr_prof_entry *e, struct site *sl,
			   const char *pt, const struct site *ps, char **eolp)
{
	char *p = line, *func, *file;
	uint64_t a, b, c, ln;

	if (!trace_counts(&p, end, all, &a, &b, &c))
		return -EAGAIN;
	func = skip_pad(p, end);
	pt += ps->func;
	if ((size_t)(end - func) <= ps->function ||
	    !same_bytes(func, pt, ps->function) || !is_blank(func[ps->function]))
		return -EAGAIN;
	file = skip_pad(func + ps->function, end);
	if ((size_t)(end - file) <= ps->file ||
	    !same_bytes(file, pt + ps->file_at, ps->file) || !is_blank(file[ps->file]))
		return -EAGAIN;
	p = skip_pad(file + ps->file, end);
	if (!parse_u64(&p, end, &ln) || ln != ps->line)
		return -EAGAIN;
	p = skip_blank(p);
	if (*p != '\n' && p != end)
		return -EAGAIN;
	*p = '\0';
	*eolp = p;
	func[ps->function] = '\0';
	file[ps->file] = '\0';
	*sl = *ps;
	sl->func = (uint32_t)(func - base);
	sl->file_at = (uint32_t)(file - func);
	e->line = (unsigned int)ln;
	trace_entry(e, all, a, b, c, func, file);
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
static enum kattr_prof_format header_format(const char *line)
{
	if (!strncmp(line, LIKELY_TITLE, sizeof(LIKELY_TITLE) - 1) ||
	    !strncmp(line, "[+- ] Type", 10))
		return KATTR_PROF_FMT_LIKELY_PROF;
	if (starts_word(line, "correct") && strstr(line, "incorrect"))
		return KATTR_PROF_FMT_ANNOTATED;
	if (starts_word(line, "miss") && strstr(line, "hit"))
		return KATTR_PROF_FMT_ALL;
	return KATTR_PROF_FMT_UNKNOWN;
}

/* Guess a headerless row's format from its shape. */
static enum kattr_prof_format row_format(const char *line)
{
	if (strchr(line, '|') && strstr(line, "()@:"))
		return KATTR_PROF_FMT_LIKELY_PROF;
	return KATTR_PROF_FMT_ANNOTATED;
}

static bool is_row_start(const char *s)
{
	const char *t = skip_blank((char *)s);

	if (*t >= '0' && *t <= '9')
		return true;
	return (s[0] == ' ' || s[0] == '+' || s[0] == '-') &&
	       (s[1] == 'l' || s[1] == 'u');
}

static struct prof_priv *priv(const struct kattr_profile *p)
{
	return p->priv;
}

/* One pass over the text: its '\n' count, and whether it holds a NUL.
 * Sixteen bytes a step (GCC vectors: SSE2 on x86-64, NEON on arm64). */
typedef unsigned char u8x16 __attribute__((vector_size(16)));

static size_t count_lines(const char *s, size_t n, bool *nul)
{
	const u8x16 zero = { 0 }, nl = zero + '\n';
	u8x16 zeros = zero;
	size_t i = 0, count = 0;
	unsigned int j;

	while (n - i >= 16) {
		/* byte counters: at most 255 steps before they are summed */
		size_t stop = n - i >= 16 * 255 ? i + 16 * 255 : n - 15;
		u8x16 acc = zero;

		for (; i < stop; i += 16) {
			u8x16 w;

			memcpy(&w, s + i, sizeof(w));
			acc -= (u8x16)(w == nl);
			zeros |= (u8x16)(w == zero);
		}
		for (j = 0; j < 16; j++)
			count += acc[j];
	}
	for (; i < n; i++) {
		count += s[i] == '\n';
		zeros[0] |= s[i] == '\0';
	}
	*nul = false;
	for (j = 0; j < 16; j++)
		*nul = *nul || zeros[j];
	return count;
}

/*
 * Parse p->text.  prev, when given, is the previous snapshot of the same
 * source: its rows are expected at the same place counted from the end
 * (/proc/likely_prof lists new sites first; other sources keep their
 * order), which lets unchanged names be compared instead of scanned, and
 * records whether every site lines up for kattr_profile_match().
 */
static int parse_lines(struct kattr_profile *p, size_t len,
		       const struct kattr_profile *prev)
{
	struct prof_priv *pp = priv(p);
	const struct prof_priv *qp = prev ? priv(prev) : NULL;
	char *s = p->text, *end = p->text + len;
	/* One scan counts the lines and finds out whether any can hold a
	 * NUL (binary). */
	bool nuls;
	size_t cap = count_lines(s, len, &nuls) + 1, k = 0, same_n = 0;
	uint64_t max_count = 0;	/* an upper bound: the OR of all counts */

	pp->lines = cap;
	p->entries = malloc(cap * sizeof(*p->entries));
	pp->sites = malloc(cap * sizeof(*pp->sites));
	if (!p->entries || !pp->sites)
		return -ENOMEM;
	if (qp && (!qp->sites || cap < qp->lines))
		qp = NULL;
	if (qp)
		k = cap - qp->lines;	/* new rows in front, if all goes well */
	while (s < end) {
		struct kattr_prof_entry *e = &p->entries[p->n];
		size_t j = p->n - k;	/* the same row in prev */
		enum kattr_prof_format hf;
		char *nl, *eol;
		int ret;

		/* The same site again: no line end to find first. */
		if (qp && !nuls && p->format == prev->format &&
		    p->n >= k && j < prev->n &&
		    (p->format == KATTR_PROF_FMT_LIKELY_PROF ?
		     likely_row_again(s, end, p->text, e, &pp->sites[p->n],
				      prev->text, &qp->sites[j], &eol) :
		     trace_row_again(s, end, p->format == KATTR_PROF_FMT_ALL,
				     p->text, e, &pp->sites[p->n], prev->text,
				     &qp->sites[j], &eol)) == 0) {
			p->rows++;
			same_n++;
			max_count |= e->correct | e->incorrect;
			p->n++;
			s = eol + 1;
			continue;
		}
		nl = memchr(s, '\n', (size_t)(end - s));
		eol = nl ? nl : end;
		*eol = '\0';
		if (unlikely(nuls) && strlen(s) != (size_t)(eol - s)) {	/* binary */
			p->rows++;
			p->bad_rows++;
			goto next;
		}
		if (!*skip_blank(s))
			goto next;
		/* Rows start with a number or a flag and a type: only other
		 * lines can be headers. */
		if (unlikely(!is_row_start(s))) {
			hf = header_format(s);
			if (hf != KATTR_PROF_FMT_UNKNOWN &&
			    (p->format == KATTR_PROF_FMT_UNKNOWN || p->format == hf)) {
				p->format = hf;
				p->has_header = true;
				goto next;
			}
			if (is_dash_line(s) && p->has_header)
				goto next;
		}
		if (p->format == KATTR_PROF_FMT_UNKNOWN)
			p->format = row_format(s);
		p->rows++;
		/* (not counted as the same site: no alignment) */
		if (p->format == KATTR_PROF_FMT_LIKELY_PROF)
			ret = likely_row(s, eol, p->text, e, &pp->sites[p->n]);
		else
			ret = trace_row(s, eol, p->format == KATTR_PROF_FMT_ALL, p->text,
					e, &pp->sites[p->n]);
		if (unlikely(ret < 0)) {
			p->bad_rows++;
			goto next;
		}
		max_count |= e->correct | e->incorrect;
		p->n++;
next:
		s = eol + 1;
	}
	/* Every site of prev is here, in order, behind k new ones. */
	if (qp && p->n == prev->n + k && same_n == prev->n) {
		pp->aligned_to = qp->id;
		pp->aligned_k = k;
	}
	pp->max_count = max_count;
	return 0;
}

static int parse_buf(char *buf, size_t len, enum kattr_prof_format fmt,
		     const struct kattr_profile *prev, struct kattr_profile **out)
{
	struct kattr_profile *p;
	int ret;

	if (len > KATTR_PROF_MAX_INPUT) {
		free(buf);
		return -EFBIG;
	}
	p = calloc(1, sizeof(*p));
	if (!p || !(p->priv = calloc(1, sizeof(struct prof_priv)))) {
		free(p);
		free(buf);
		return -ENOMEM;
	}
	priv(p)->id = next_id();
	p->text = buf;
	p->text[len] = '\0';
	p->format = fmt;
	if (prev && prev->format != fmt && fmt != KATTR_PROF_FMT_UNKNOWN)
		prev = NULL;
	ret = parse_lines(p, len, prev);
	if (ret < 0)
		goto out_free;
	if (!p->has_header && !p->n) {
		ret = -ENODATA;
		goto out_free;
	}
	p->counter_bits = 64;
	if (p->format == KATTR_PROF_FMT_LIKELY_PROF && priv(p)->max_count <= UINT32_MAX)
		p->counter_bits = 32;
	*out = p;
	return 0;
out_free:
	kattr_profile_free(p);
	return ret;
}

int kattr_profile_parse_buf(char *buf, size_t len, enum kattr_prof_format fmt,
			    struct kattr_profile **out)
{
	return parse_buf(buf, len, fmt, NULL, out);
}

int kattr_profile_parse_next(const struct kattr_profile *prev, char *buf,
			     size_t len, struct kattr_profile **out)
{
	return parse_buf(buf, len, KATTR_PROF_FMT_UNKNOWN, prev, out);
}

int kattr_profile_parse(const char *text, size_t len,
			enum kattr_prof_format fmt, struct kattr_profile **out)
{
	char *buf;

	if (len > KATTR_PROF_MAX_INPUT)
		return -EFBIG;
	buf = malloc(len + 1);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, text, len);
	return kattr_profile_parse_buf(buf, len, fmt, out);
}

void kattr_profile_free(struct kattr_profile *p)
{
	if (!p)
		return;
	if (p->priv)
		free(priv(p)->sites);
	free(p->priv);
	free(p->entries);
	free(p->text);
	free(p);
}

const char *kattr_prof_format_name(enum kattr_prof_format f)
{
	switch (f) {
	case KATTR_PROF_FMT_LIKELY_PROF:
		return "likely_prof";
	case KATTR_PROF_FMT_ANNOTATED:
		return "branch_annotated";
	case KATTR_PROF_FMT_ALL:
		return "branch_all";
	default:
		return "unknown";
	}
}

const char *kattr_prof_hint_name(enum kattr_prof_hint h)
{
	switch (h) {
	case KATTR_PROF_HINT_LIKELY:
		return "likely";
	case KATTR_PROF_HINT_UNLIKELY:
		return "unlikely";
	case KATTR_PROF_HINT_ANNOTATED:
		return "annotated";
	default:
		return "none";
	}
}

uint64_t kattr_prof_entry_total(const struct kattr_prof_entry *e)
{
	uint64_t t = e->correct + e->incorrect;

	return t < e->correct ? UINT64_MAX : t;
}

double kattr_prof_entry_pct(const struct kattr_prof_entry *e)
{
	double t = (double)e->correct + (double)e->incorrect;

	if (!e->correct && !e->incorrect)
		return -1;
	return (double)e->incorrect * 100.0 / t;
}

bool kattr_prof_entry_is_wrong(const struct kattr_prof_entry *e)
{
	return e->hint != KATTR_PROF_HINT_NONE && e->incorrect > e->correct;
}

/* b - a, or b with *reset set when the counter went down (see the header). */
static inline uint64_t counter_step(uint64_t a, uint64_t b, unsigned int bits,
				    bool *reset)
{
	uint64_t wrapped;

	if (b >= a)
		return b - a;
	/* /proc/likely_prof's counters are 32-bit and not atomic: one can
	 * wrap between two reads.  Every other source counts in 64 bits
	 * (unsigned long in tracefs, uint64_t in user space) and does not
	 * wrap in practice.  A step back of more than half the range is
	 * no wrap (4,293,137,540 events in a second), it is a reset. */
	if (bits == 32 && a <= UINT32_MAX && b <= UINT32_MAX) {
		wrapped = (uint64_t)UINT32_MAX - a + 1 + b;
		if (wrapped < (1ull << 31))
			return wrapped;
	}
	*reset = true;
	return b;
}

uint64_t kattr_prof_counter_delta(uint64_t a, uint64_t b, unsigned int bits)
{
	bool reset = false;

	return counter_step(a, b, bits, &reset);
}

/* ---- matching sites between snapshots -------------------------------- */

static uint64_t hash_str(uint64_t h, const char *s)
{
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

static uint64_t entry_hash(const struct kattr_prof_entry *e)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	h = hash_str(h, e->function);
	h ^= 0xff;
	h = hash_str(h, e->file);
	h ^= (uint64_t)e->line * 0x9e3779b97f4a7c15ULL + (uint64_t)e->hint;
	h *= 0x100000001b3ULL;
	return h ^ (h >> 29);
}

static bool same_site(const struct kattr_prof_entry *a,
		      const struct kattr_prof_entry *b)
{
	return a->line == b->line && a->hint == b->hint &&
	       !strcmp(a->function, b->function) && !strcmp(a->file, b->file);
}

/*
 * The common case without hashing: the sites come in the same order as
 * last time (tracefs, a rewritten user-space file), with new ones in front
 * (/proc/likely_prof lists the newest first).
 */
static bool match_aligned(const struct kattr_profile *prev,
			  const struct kattr_profile *cur, size_t *idx)
{
	size_t k;

	if (cur->n < prev->n)
		return false;
	k = cur->n - prev->n;
	for (size_t i = 0; i < prev->n; i++)
		if (!same_site(&prev->entries[i], &cur->entries[i + k]))
			return false;
	for (size_t i = 0; i < prev->n; i++)
		idx[i + k] = i;
	return true;
}

/* Is every entry i >= k of cur the same site as prev's entry i - k (what
 * kattr_profile_parse_next() found)?  *k is then set. */
static bool aligned(const struct kattr_profile *prev,
		    const struct kattr_profile *cur, size_t *k)
{
	if (!cur->priv || !prev->priv || priv(cur)->aligned_to != priv(prev)->id)
		return false;
	*k = priv(cur)->aligned_k;
	return true;
}

/* e's deltas and rate against o, the same site in the previous snapshot
 * (NULL: a new site, all of its counts are new). */
static void diff_one(struct kattr_prof_entry *e, const struct kattr_prof_entry *o,
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

int kattr_profile_match(const struct kattr_profile *prev,
			const struct kattr_profile *cur, size_t *idx)
{
	size_t size = 16, mask, *slot, k;
	bool *used;

	for (size_t i = 0; i < cur->n; i++)
		idx[i] = SIZE_MAX;
	if (!prev || !prev->n || !cur->n)
		return 0;
	if (aligned(prev, cur, &k)) {
		for (size_t i = k; i < cur->n; i++)
			idx[i] = i - k;
		return 0;
	}
	if (match_aligned(prev, cur, idx))
		return 0;
	while (size < prev->n * 2)
		size *= 2;
	mask = size - 1;
	slot = malloc(size * sizeof(*slot));
	used = calloc(prev->n, sizeof(*used));
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
	/* Two sites on one line (likely(a) && likely(b)) share a key: the
	 * k-th of them in cur matches the k-th in prev. */
	for (size_t i = 0; i < cur->n; i++) {
		const struct kattr_prof_entry *e = &cur->entries[i];
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
	/* The usual case of a live view: no matching to do. */
	if (aligned(prev, cur, &k)) {
		for (size_t i = 0; i < cur->n; i++)
			diff_one(&cur->entries[i], i >= k ? &prev->entries[i - k] : NULL,
				 bits, seconds);
		return 0;
	}
	idx = malloc((cur->n ? cur->n : 1) * sizeof(*idx));
	if (!idx)
		return -ENOMEM;
	ret = kattr_profile_match(prev, cur, idx);
	if (ret == 0)
		for (size_t i = 0; i < cur->n; i++)
			diff_one(&cur->entries[i],
				 idx[i] == SIZE_MAX ? NULL : &prev->entries[idx[i]],
				 bits, seconds);
	free(idx);
	return ret;
}

int kattr_profile_rebase(const struct kattr_profile *base,
			 struct kattr_profile *cur)
{
	size_t *idx;
	int ret;

	if (!base || base->format != cur->format)
		return 0;
	idx = malloc((cur->n ? cur->n : 1) * sizeof(*idx));
	if (!idx)
		return -ENOMEM;
	ret = kattr_profile_match(base, cur, idx);
	if (ret == 0) {
		unsigned int bits = cur->counter_bits > base->counter_bits ?
				    cur->counter_bits : base->counter_bits;

		for (size_t i = 0; i < cur->n; i++) {
			struct kattr_prof_entry *e = &cur->entries[i];
			const struct kattr_prof_entry *o;

			if (idx[i] == SIZE_MAX)
				continue;
			o = &base->entries[idx[i]];
			e->correct = kattr_prof_counter_delta(o->correct,
							      e->correct, bits);
			e->incorrect = kattr_prof_counter_delta(o->incorrect,
								e->incorrect, bits);
			e->constant = kattr_prof_counter_delta(o->constant,
							       e->constant, 64);
		}
	}
	free(idx);
	return ret;
}

/* ---- sorting and filtering -------------------------------------------- */

static const char *const sort_names[KATTR_PROF_SORT_COUNT_] = {
	[KATTR_PROF_SORT_INCORRECT] = "incorrect",
	[KATTR_PROF_SORT_CORRECT] = "correct",
	[KATTR_PROF_SORT_PERCENT] = "percent",
	[KATTR_PROF_SORT_TOTAL] = "total",
	[KATTR_PROF_SORT_RATE] = "rate",
	[KATTR_PROF_SORT_FUNCTION] = "function",
	[KATTR_PROF_SORT_FILE] = "file",
};

int kattr_prof_sort_parse(const char *name, enum kattr_prof_sort *key)
{
	for (int i = 0; i < KATTR_PROF_SORT_COUNT_; i++) {
		if (!strcmp(name, sort_names[i])) {
			*key = (enum kattr_prof_sort)i;
			return 0;
		}
	}
	return -EINVAL;
}

const char *kattr_prof_sort_name(enum kattr_prof_sort key)
{
	return (unsigned int)key < KATTR_PROF_SORT_COUNT_ ? sort_names[key] : "?";
}

#define CMP(a, b) (((a) > (b)) - ((a) < (b)))

static int cmp_site(const struct kattr_prof_entry *a,
		    const struct kattr_prof_entry *b)
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
	enum kattr_prof_sort key;
	int dir;
};

/* Ascending order of the key's natural direction. */
static int cmp_key(const struct kattr_prof_entry *a,
		   const struct kattr_prof_entry *b, enum kattr_prof_sort key)
{
	switch (key) {
	case KATTR_PROF_SORT_INCORRECT:
		return -CMP(a->incorrect, b->incorrect);
	case KATTR_PROF_SORT_CORRECT:
		return -CMP(a->correct, b->correct);
	case KATTR_PROF_SORT_PERCENT:
		return -CMP(kattr_prof_entry_pct(a), kattr_prof_entry_pct(b));
	case KATTR_PROF_SORT_TOTAL:
		return -CMP(kattr_prof_entry_total(a), kattr_prof_entry_total(b));
	case KATTR_PROF_SORT_RATE: {
		double ra = a->has_rate ? a->rate : 0, rb = b->has_rate ? b->rate : 0;

		return -CMP(ra, rb);
	}
	case KATTR_PROF_SORT_FUNCTION:
		return strcmp(a->function, b->function);
	case KATTR_PROF_SORT_FILE: {
		int c = strcmp(a->file, b->file);

		return c ? c : CMP(a->line, b->line);
	}
	default:
		return 0;
	}
}

static int cmp_entries(const void *pa, const void *pb, void *arg)
{
	const struct kattr_prof_entry *a = *(const struct kattr_prof_entry *const *)pa;
	const struct kattr_prof_entry *b = *(const struct kattr_prof_entry *const *)pb;
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
	const struct kattr_prof_entry *e;
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

static uint64_t num_key(const struct kattr_prof_entry *e, enum kattr_prof_sort key)
{
	switch (key) {
	case KATTR_PROF_SORT_INCORRECT:
		return e->incorrect;
	case KATTR_PROF_SORT_CORRECT:
		return e->correct;
	case KATTR_PROF_SORT_TOTAL:
		return kattr_prof_entry_total(e);
	case KATTR_PROF_SORT_PERCENT:
		return dbl_key(kattr_prof_entry_pct(e));
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
static bool is_name_key(enum kattr_prof_sort key)
{
	return key == KATTR_PROF_SORT_FUNCTION || key == KATTR_PROF_SORT_FILE;
}

/* A heap member: the key pair and where the entry sits in the input. */
struct heaped {
	struct keyed kv;
	size_t at;
};

static void keyed_fill(struct keyed *kv, const struct kattr_prof_entry *e,
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

/* Restore the heap (the worst of the k kept on top) below slot i. */
static void sift_down(struct heaped *h, size_t k, size_t i,
		      struct sort_ctx *ctx)
{
	for (;;) {
		size_t c = 2 * i + 1, w = i;
		struct heaped t;

		if (c < k && heap_cmp(&h[c], &h[w], ctx) > 0)
			w = c;
		if (c + 1 < k && heap_cmp(&h[c + 1], &h[w], ctx) > 0)
			w = c + 1;
		if (w == i)
			return;
		t = h[i];
		h[i] = h[w];
		h[w] = t;
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
static int sort_few(const struct kattr_prof_entry **v, size_t n, size_t k,
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
		sift_down(h, k, i, ctx);
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
		sift_down(h, k, 0, ctx);
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

void kattr_prof_sort_top(const struct kattr_prof_entry **v, size_t n,
			 enum kattr_prof_sort key, bool reverse, size_t k)
{
	struct sort_ctx ctx = { key, reverse ? -1 : 1 };
	struct keyed *kv = NULL;

	if (n < 2)
		return;
	if (k && k < n && sort_few(v, n, k, &ctx) == 0)
		return;
	/* All of them (or no memory for a heap): one sort of everything,
	 * on key pairs when there is memory for them. */
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

void kattr_prof_sort(const struct kattr_prof_entry **v, size_t n,
		     enum kattr_prof_sort key, bool reverse)
{
	kattr_prof_sort_top(v, n, key, reverse, 0);
}

bool kattr_prof_filter_match(const struct kattr_prof_filter *f,
			     const struct kattr_prof_entry *e)
{
	if (!f)
		return true;
	if (f->wrong_only && !kattr_prof_entry_is_wrong(e))
		return false;
	if (f->min_total && kattr_prof_entry_total(e) < f->min_total)
		return false;
	if (f->substr && *f->substr && !strstr(e->function, f->substr) &&
	    !strstr(e->file, f->substr))
		return false;
	return true;
}

size_t kattr_prof_select(const struct kattr_profile *p,
			 const struct kattr_prof_filter *f,
			 const struct kattr_prof_entry **v)
{
	size_t n = 0;

	if (!f || (!f->wrong_only && !f->min_total && (!f->substr || !*f->substr))) {
		for (size_t i = 0; i < p->n; i++)	/* no filter: all */
			v[i] = &p->entries[i];
		return p->n;
	}
	for (size_t i = 0; i < p->n; i++)
		if (kattr_prof_filter_match(f, &p->entries[i]))
			v[n++] = &p->entries[i];
	return n;
}
