/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * likelytop --callers: a hint's condition, read from its source text, as
 * a set of values of one argument (a pointer or an integer, in 64 bits):
 * !p, p == NULL, ZERO_OR_NULL_PTR(p), IS_ERR(p), IS_ERR_OR_NULL(p),
 * x == C, x != C, x < C, x <= C, x > C, x >= C, a bare x, their
 * negations and likely()/unlikely() around them.  Values are 64-bit
 * numbers compared as unsigned (pointers, unsigned types: -1 is
 * 0xffffffffffffffff, and x < 0 is never true) or, with LT_COND_SIGNED,
 * as signed (int, long: x < 0 holds for -1; the value of a narrower
 * field sign-extended, as lt_rb_field_get() gives it).  Pure: no I/O.
 */
#ifndef LIKELYTOP_CALLERS_COND_H
#define LIKELYTOP_CALLERS_COND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LT_COND_VAR_MAX 64
#define LT_COND_SPANS 4

#define LT_COND_SIGNED 1u	/* lt_cond_parse(): the argument is signed */

/*
 * A closed interval of keys, in unsigned 64-bit order: a key is the
 * value itself, or for a signed condition the value with its sign bit
 * flipped (which turns signed order into unsigned order).
 */
struct lt_span {
	uint64_t lo, hi;
};

/* The values for which the condition is true: a union of spans. */
struct lt_cond {
	char var[LT_COND_VAR_MAX];	/* the argument tested */
	bool sign;			/* compared as signed numbers */
	struct lt_span span[LT_COND_SPANS];
	size_t nspan;
};

/*
 * Parse the condition text (len bytes, not NUL-terminated), with or
 * without an outer likely()/unlikely(); flags: 0 or LT_COND_SIGNED.  0,
 * or -EINVAL with why (size whysize) saying what is not a test on one
 * argument.
 */
int lt_cond_parse(const char *text, size_t len, unsigned int flags,
		  struct lt_cond *c, char *why, size_t whysize);
/* Is v (sign-extended to 64 bits where signed) in the set? */
bool lt_cond_true(const struct lt_cond *c, uint64_t v);
/* Replace the set by its complement. */
void lt_cond_negate(struct lt_cond *c);
/*
 * The set as an ftrace event filter on field ("ptr <= 16"; "x <= -1"
 * when signed: the kernel compares a signed field as signed); an empty
 * set is "field == 0 && field == 1" (never true), the full set "".  0 or
 * -ENOSPC.
 */
int lt_cond_filter(const struct lt_cond *c, const char *field, char *buf,
		   size_t size);

#endif
