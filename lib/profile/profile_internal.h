/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Private to lib/profile/: what its four parts share.
 *   scan.c   byte scanning (line counts, name checks); the word-at-a-time
 *            primitives below are inline, the parsers' inner loops
 *   parse.c  rows, headers and snapshots into struct kattr_profile
 *   diff.c   matching sites between snapshots: deltas, rates, rebase
 *   sort.c   sort keys, the top-k heap, filters
 *   profile.c the profile's life and its entries' derived values
 */
#ifndef KATTR_PROFILE_INTERNAL_H
#define KATTR_PROFILE_INTERNAL_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "kattr/profile.h"
#include "kattr/private_profile.h"
#include "likely_prof.h"

/* ---- byte scanning (scan.c and these inline primitives) --------------- */

static inline bool is_blank(char c)
{
	/* ' ', '\t', or '\v' '\f' '\r' (11 to 13) */
	return c == ' ' || c == '\t' || (unsigned char)(c - '\v') <= '\r' - '\v';
}

static inline char *skip_blank(char *s)
{
	while (is_blank(*s))
		s++;
	return s;
}

#define ONES	0x0101010101010101ULL
#define HIGHS	0x8080808080808080ULL

static inline uint64_t load8(const char *p)
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

/* Sixteen bytes at a time (GCC vectors: SSE2 on x86-64, NEON on arm64). */
typedef unsigned char u8x16 __attribute__((vector_size(16)));
typedef uint64_t u64x2 __attribute__((vector_size(16)));

/*
 * The n (<= 32) bytes before a are those before b: two 16-byte windows
 * ending at each (32 bytes readable before both), the bytes before the n
 * masked off.  No loop and no branch whatever n is (a loop's exit costs
 * a misprediction a name when names' lengths vary).
 */
static inline __attribute__((always_inline)) bool
same_before(const char *a, const char *b, size_t n)
{
	/* 0xff from byte 32 on: loaded at n, the last n of 32 bytes */
	static const unsigned char last_n[64] = {
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
		255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
		255, 255, 255, 255, 255, 255, 255, 255,
	};
	u8x16 a0, a1, b0, b1, m0, m1;
	u64x2 x;

	memcpy(&a0, a - 32, 16);
	memcpy(&a1, a - 16, 16);
	memcpy(&b0, b - 32, 16);
	memcpy(&b1, b - 16, 16);
	memcpy(&m0, last_n + n, 16);
	memcpy(&m1, last_n + n + 16, 16);
	x = (u64x2)(((a0 ^ b0) & m0) | ((a1 ^ b1) & m1));
	return (x[0] | x[1]) == 0;
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
static inline unsigned int lead_digits8(uint64_t w)
{
	uint64_t t = w - ONES * '0';
	/* a byte is no digit when it was below '0' (its subtraction
	 * borrowed) or is above '9'; borrows only spoil later bytes */
	uint64_t bad = (t | (t + ONES * (0x80 - 10))) & HIGHS;

	return bad ? (unsigned int)__builtin_ctzll(bad) / 8 : 8;
}

/* The value of the n leading digits (1..8) of w. */
static inline uint64_t value8(uint64_t w, unsigned int n)
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

/* The bytes of w equal to c: their high bits (exact, no borrow). */
static inline uint64_t word_eq(uint64_t w, unsigned char c)
{
	uint64_t z = w ^ (ONES * c);

	return ~(((z & ~HIGHS) + ~HIGHS) | z) & HIGHS;
}

/*
 * Eight bytes w of a right-aligned number field: spaces, then at least
 * one digit, to the last byte.  Its value in *v, its spaces (high bits)
 * in *sp.  What skip_pad() and parse_u64() read there when a delimiter
 * follows, without a loop or a branch a byte.
 */
static inline __attribute__((always_inline)) bool
padded_word(uint64_t w, uint64_t *v, uint64_t *sp)
{
	uint64_t x = w ^ (ONES * '0');
	/* the bytes no digit (exact: no borrow), and the spaces */
	uint64_t nd = (((x & ~HIGHS) + ONES * (0x80 - 10)) | x) & HIGHS;
	uint64_t s = word_eq(w, ' ');

	/* every other byte a space, the last a digit, no space after a
	 * digit (the digits' bits moved a byte up are all digits') */
	if ((nd ^ s) | (nd >> 63) | (((s ^ HIGHS) << 8) & s))
		return false;
	*v = value8(w | (ONES * 0x10), 8);	/* the spaces as '0's */
	*sp = s;
	return true;
}

/*
 * A "%9u" field at p (nine bytes readable): padded_word() on its last
 * eight, its first a space or (no space after it) a digit.  False for
 * anything else (a tab, a wider number: the caller takes the token walk).
 */
static inline __attribute__((always_inline)) bool
padded9(const char *p, uint64_t *v)
{
	uint64_t sp;

	if (!padded_word(load8(p + 1), v, &sp))
		return false;
	if (p[0] == ' ')
		return true;
	if (p[0] < '0' || p[0] > '9' || sp)
		return false;
	*v += (uint64_t)(p[0] - '0') * 100000000u;
	return true;
}

/* Word-at-a-time scans: eight bytes per step for the names, which are
 * most of a row's bytes (200,000 rows a second in a live view). */
/* A byte of w is below n (n <= 128): exact as a yes/no answer. */
static inline bool word_has_less(uint64_t w, unsigned int n)
{
	return ((w - ONES * n) & ~w & HIGHS) != 0;
}

static inline bool word_has(uint64_t w, unsigned char c)
{
	return word_has_less(w ^ (ONES * c), 1);
}

/* Control bytes (and DEL) in a name are refused: names are printed to
 * terminals (a profile written by any user must not send escape sequences
 * to a root terminal).  has_below_or_del() and name_end() check. */

/* A byte below lim (lim <= 128) or a DEL in [s, s + n)?  lim 0x20: a
 * control byte; lim 0x21: a control byte or a blank. */
bool has_below_or_del(const char *s, size_t n, unsigned char lim);
/* The end of the name token at s: the first blank or NUL after it; NULL
 * when a control byte or DEL comes first (names reach terminals).  Word
 * reads stay below eol. */
char *name_end(char *s, const char *eol);
/* A line number (< 2^31) at *s. */
bool parse_line_no(char **s, const char *end, unsigned int *line);
/* The text's '\n' count, and whether it holds a NUL. */
size_t count_lines(const char *s, size_t n, bool *nul);

/* ---- the profile's private part (parse.c fills it, diff.c reads it) --- */

/*
 * Private to the library: what the parse of the next snapshot needs of a
 * row, kept apart from the entries (a quarter of their size: the parse
 * then streams through this, not through the entries).
 */
struct site {
	uint64_t correct;	/* the counts, for the next snapshot's diff
				 * (kattr_profile_parse_diff()): 16 bytes
				 * read a row instead of an entry's 80 */
	uint64_t incorrect;
	uint32_t func;		/* the function's offset in the text
				 * (KATTR_PROFILE_MAX_INPUT < 4 GiB) */
	uint32_t function;	/* strlen(function) */
	uint32_t file_at;	/* the file's offset from the function */
	uint32_t file;		/* strlen(file) */
	uint32_t line;		/* the line, | SITE_LIKELY for likely() */
	uint16_t flags;		/* a live profile's (SITE_HAS_RATE,
				 * SITE_RESET): the entry's has_rate and
				 * reset (in the padding: still 40 bytes) */
	uint16_t tail;		/* the row's bytes from the file's end to
				 * its end (the '\n', or the text's NUL),
				 * the line and any blanks: 1 to SITE_TAIL_MAX,
				 * 0 when not known (likely_run()) */
};
#define SITE_TAIL_MAX	32u
#define SITE_LIKELY	0x80000000u	/* lines are < 2^31 */
#define SITE_HAS_RATE	1u
#define SITE_RESET	2u

/* A live profile's deltas of a site (kattr_profile_parse_live()). */
struct site_delta {
	uint64_t d_correct;
	uint64_t d_incorrect;
};

static inline uint32_t site_line(const struct kattr_profile_entry *e)
{
	return e->line | (e->hint == KATTR_PROFILE_HINT_LIKELY ? SITE_LIKELY : 0);
}

struct kattr_profile_priv {
	char *text;		/* the parsed copy of the input: the entries
				 * point into it */
	uint64_t id;		/* unique per parsed profile, never 0 */
	uint64_t aligned_to;	/* id of the profile whose entry i - aligned_k
				 * is the same site as entry i, for every
				 * i >= aligned_k (and no other): 0 if none */
	size_t aligned_k;
	/*
	 * A chain of snapshots, each aligned to the one before (a live
	 * view's, one after the other): chain is the id of its first, and
	 * snapshot j's entry i is the first's entry i - chain_k (new sites in
	 * front), so any two of one chain line up, chain_k apart (a view's
	 * zero base and its latest snapshot).  A snapshot's first aligned
	 * successor continues its chain (chained set), any other starts one:
	 * siblings never share a chain.
	 */
	uint64_t chain;
	size_t chain_k;
	bool chained;
	/* id of the profile the parse diffed every row of this one against
	 * but the aligned_k fresh ones in front (kattr_profile_parse_diff()),
	 * or 0 */
	uint64_t diffed_from;
	size_t wrong;		/* kattr_profile_wrong() */
	size_t lines;		/* lines in the input */
	uint64_t max_count;	/* >= every correct and incorrect count */
	struct site *sites;	/* per entry */
	/* A table (kattr_profile_table_parse_buf()): the entries are NULL,
	 * each row goes into tsites instead (and tconst, branch_annotated's
	 * constant counts, allocated at its first row). */
	bool compact;
	struct tsite *tsites;
	uint64_t *tconst;
	/* A live profile (kattr_profile_parse_live()): until
	 * kattr_profile_entries() makes them, the entries are NULL and each
	 * is read from its site (sites, flags), deltas (NULL: all zero),
	 * tconst (branch_annotated's constants) and seconds (the rates'
	 * interval). */
	bool lazy;
	struct site_delta *deltas;
	double seconds;
};

/*
 * A table's site: counts, the names' offsets in the text, the line (and
 * SITE_LIKELY); the hint follows from the format.  32 bytes.
 */
struct tsite {
	uint64_t correct;
	uint64_t incorrect;
	uint32_t func;
	uint32_t file;
	uint32_t line;
};

/* Site i of p (a table's profile) as kattr_profile_parse_buf() makes
 * its entry. */
static inline void tsite_entry(const struct kattr_profile *p, size_t i,
			       struct kattr_profile_entry *e)
{
	const struct kattr_profile_priv *pv = p->priv;
	const struct tsite *t = &pv->tsites[i];
	bool annotated = p->format == KATTR_PROFILE_FMT_ANNOTATED;

	e->correct = t->correct;
	e->incorrect = t->incorrect;
	e->function = pv->text + t->func;
	e->file = pv->text + t->file;
	e->line = t->line & ~SITE_LIKELY;
	if (p->format == KATTR_PROFILE_FMT_LIKELY_PROF)
		e->hint = t->line & SITE_LIKELY ? KATTR_PROFILE_HINT_LIKELY :
						 KATTR_PROFILE_HINT_UNLIKELY;
	else
		e->hint = annotated ? KATTR_PROFILE_HINT_ANNOTATED :
				      KATTR_PROFILE_HINT_NONE;
	e->constant = annotated ? pv->tconst[i] : 0;
	e->has_constant = annotated;
	e->has_rate = false;
	e->reset = false;
	e->d_correct = e->d_incorrect = 0;
	e->rate = 0;
}

/* b - a, or b with *reset set when the counter went down (see kattr_profile_diff()). */
static inline uint64_t counter_step(uint64_t a, uint64_t b, unsigned int bits,
				    bool *reset)
{
	/* /proc/likely_prof's counters are 32-bit and not atomic: one can
	 * wrap between two reads.  Every other source counts in 64 bits
	 * (unsigned long in tracefs, uint64_t in user space) and does not
	 * wrap in practice.  A step back of more than half the range is
	 * no wrap (4,293,137,540 events in a second), it is a reset.
	 * Without a branch: counts that go up or down at random (a
	 * rewritten file, a reset) cost a misprediction each otherwise. */
	uint64_t step = b - a, wrapped = step + (1ull << 32);
	bool down = b < a;
	bool wrap = bits == 32 && (a | b) <= UINT32_MAX &&
		    wrapped < (1ull << 31);
	uint64_t back = wrap ? wrapped : b;

	*reset |= down & !wrap;
	return down ? back : step;
}

/* parse.c: buf (len + 1 bytes, taken over) parsed after prev (NULL:
 * none), into entries or (compact) a table's sites; seconds > 0: rows
 * diffed against prev's on the way (priv->diffed_from says if all were). */
int prof_parse_buf(char *buf, size_t len, enum kattr_profile_format fmt,
		   const struct kattr_profile *prev, bool compact, bool lazy,
		   double seconds, struct kattr_profile **out);
/* live.c: entry i of p, from its entries or (a live profile) its site. */
void prof_entry(const struct kattr_profile *p, size_t i,
		struct kattr_profile_entry *e);
/* diff.c: kattr_profile_parse_diff()'s rows new in front, counted from
 * zero (entries or a live profile's sites). */
void prof_diff_fresh(struct kattr_profile *p, size_t k, double seconds);
/* profile.c: kattr_profile_wrong()'s count made again (counts changed). */
void prof_count_wrong(struct kattr_profile *p);
/* sort.c: the tie-break and key of kattr_profile_sort_top(), for table.c. */
int prof_cmp_entries(const struct kattr_profile_entry *a,
		     const struct kattr_profile_entry *b,
		     enum kattr_profile_sort key, int dir);
uint64_t prof_num_key(const struct kattr_profile_entry *e,
		      enum kattr_profile_sort key);

#endif /* KATTR_PROFILE_INTERNAL_H */
