/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Finding likely()/unlikely() calls in C source text, and the edit that
 * removes or flips one.  Pure: the text comes in as bytes (any bytes),
 * nothing is read, printed or exited; likelytop --suggest and its live
 * view's p key build their patches on it (suggest.c).
 */
#ifndef LIKELYTOP_HINTSCAN_H
#define LIKELYTOP_HINTSCAN_H

#include <stdbool.h>
#include <stddef.h>

enum lt_hint_kind { LT_HINT_ANY = 0, LT_HINT_LIKELY, LT_HINT_UNLIKELY };

/* One call: the name "likely"/"unlikely", its '(' and the matching ')'. */
struct lt_hint_call {
	enum lt_hint_kind kind;
	unsigned int line;	/* of the name (GCC's __LINE__ for it) */
	unsigned int end_line;	/* of the closing parenthesis */
	size_t name;		/* offsets into the text */
	size_t open;
	size_t close;		/* SIZE_MAX: never closed */
	bool in_define;		/* on a preprocessor line (#define ...) */
};

/*
 * Every likely( and unlikely( of text outside comments, string and
 * character constants, nested ones included, in text order.  *calls is
 * malloc'ed (NULL when *n is 0).  0 or -ENOMEM.
 */
int lt_hint_scan(const char *text, size_t len, struct lt_hint_call **calls,
		 size_t *n);

enum lt_locate {
	LT_LOC_OK = 0,
	LT_LOC_NO_LINE,		/* the file is shorter than line */
	LT_LOC_NONE,		/* no hint at line, no macro call either */
	LT_LOC_MACRO,		/* no hint at line, but a call that may hide one */
	LT_LOC_SEVERAL,		/* more than one hint of that kind at line */
	LT_LOC_KIND,		/* only hints of the other kind at line */
	LT_LOC_DEFINE,		/* the hint is in a #define */
	LT_LOC_UNBALANCED,	/* its parentheses never close */
};

/*
 * The call of kind (LT_HINT_ANY: either) the profile puts at line: one
 * whose name is on that line, else one spanning it (a call split over
 * lines, as older compilers report the closing line).  Two candidates
 * (two hints on a line, a hint nested in another) are never picked
 * from.  On LT_LOC_OK *idx is the call's index; on LT_LOC_MACRO, name
 * (size namesize) gets the first called name on the line.
 */
enum lt_locate lt_hint_locate(const char *text, size_t len,
			      const struct lt_hint_call *calls, size_t n,
			      unsigned int line, enum lt_hint_kind kind,
			      size_t *idx, char *name, size_t namesize);
/* A short English reason for a result other than LT_LOC_OK. */
const char *lt_locate_reason(enum lt_locate r);

/*
 * The edit: the lines c->line..c->end_line of text rewritten with the
 * hint removed (flip false: unlikely(x) -> x, parenthesised when the
 * context needs it) or flipped (unlikely( <-> likely().  *out (malloc'ed,
 * NUL-terminated, *outlen bytes) holds exactly as many lines, each with
 * its newline; *first is the offset of the first line, *last_end the
 * offset after the last.  0, -EINVAL (an unclosed call, a NUL byte in
 * those lines), -ENOMEM.
 */
int lt_hint_edit(const char *text, size_t len, const struct lt_hint_call *c,
		 bool flip, char **out, size_t *outlen, size_t *first,
		 size_t *last_end);

#endif
