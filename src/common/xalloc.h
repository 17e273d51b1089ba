/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Allocation for the tools (not the library, which returns -ENOMEM):
 * out of memory is "prog: out of memory" and exit 1, in one place.
 */
#ifndef SUITE_XALLOC_H
#define SUITE_XALLOC_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "tool.h"

__attribute__((noreturn)) static inline void xalloc_die(void)
{
	tool_die(EXIT_FAIL, "out of memory");
}

static inline void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		xalloc_die();
	return p;
}

static inline void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		xalloc_die();
	return p;
}

/* realloc(p, n * size), the product checked. */
static inline void *xreallocarray(void *p, size_t n, size_t size)
{
	size_t bytes = n * size;
	void *q = NULL;

	if (!size || n <= SIZE_MAX / size)
		q = realloc(p, bytes ? bytes : 1);
	if (!q)
		xalloc_die();
	return q;
}

static inline char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		xalloc_die();
	return p;
}

/*
 * The growing array: makes room for one more element after *n in *v
 * (capacity *cap, doubled as needed, from 8).
 */
#define XGROW(v, n, cap)							\
	do {								\
		if ((n) >= (cap)) {					\
			(cap) = (cap) ? (cap) * 2 : 8;			\
			(v) = xreallocarray((v), (cap), sizeof(*(v)));	\
		}							\
	} while (0)

#endif
