/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * likelytop --callers: a hint's condition, read from its source text, as
 * a set of values of one argument (a pointer or an integer, in 64 bits):
 * !p, p == NULL, ZERO_OR_NULL_PTR(p), IS_ERR(p), IS_ERR_OR_NULL(p),
 * x == C, x != C, x < C, x <= C, x > C, x >= C, a bare x, their
 * negations and likely()/unlikely() around them.  Values compare as
 * unsigned 64-bit numbers (pointers do; -1 is 0xffffffffffffffff).
 * Pure: no I/O.
 */
#ifndef LIKELYTOP_CALLERS_COND_H
#define LIKELYTOP_CALLERS_COND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LT_COND_VAR_MAX 64
#define LT_COND_SPANS 4

/* A closed interval of values, unsigned 64-bit order. */
struct lt_span {
	uint64_t lo, hi;
};

/* The values for which the condition is true: a union of spans. */
struct lt_cond {
	char var[LT_COND_VAR_MAX];	/* the argument tested */
	struct lt_span span[LT_COND_SPANS];
	size_t nspan;
};

/*
 * Parse the condition text (len bytes, not NUL-terminated), with or
 * without an outer likely()/unlikely().  0, or -EINVAL with why (size
 * whysize) saying what is not a test on one argument.
 */
int lt_cond_parse(const char *text, size_t len, struct lt_cond *c,
		  char *why, size_t whysize);
/* Is v in the set? */
bool lt_cond_true(const struct lt_cond *c, uint64_t v);
/* Replace the set by its complement. */
void lt_cond_negate(struct lt_cond *c);
/*
 * The set as an ftrace event filter on field ("ptr <= 16"); an empty set
 * is "field == 0 && field == 1" (never true), the full set "".  0 or
 * -ENOSPC.
 */
int lt_cond_filter(const struct lt_cond *c, const char *field, char *buf,
		   size_t size);

#endif
