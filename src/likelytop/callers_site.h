/* SPDX-License-Identifier: GPL-2.0-or-later */
/* likelytop --callers: SITE (a function, or FILE:LINE of a hint) resolved. */
#ifndef LIKELYTOP_CALLERS_SITE_H
#define LIKELYTOP_CALLERS_SITE_H

#include <stdbool.h>

#include "callers_cond.h"

struct lt_site {
	char function[128];
	const char *sys, *event;	/* the tracepoint carrying call_site
					 * (NULL: none known, a kprobe) */
	const char *field;		/* its field holding the tested argument */
	unsigned int argpos;		/* kprobe: the tested argument, 1..6 */
	char argtype[8];		/* kprobe: its fetch type ("x64") */
	char params[512];		/* the function's parameters, from
					 * the source ("": not read) */
	char hint[256];			/* "unlikely(...)" as in the source ("": none) */
	char hint_from[512];		/* where the hint text came from */
	bool likely;			/* a likely() hint */
	bool split;			/* cond is a test on the argument */
	struct lt_cond cond;		/* the values that go against the hint */
	char why[512];			/* !split: why not */
};

/*
 * Resolve site: FILE:LINE (the hint there, read from srcdir or the
 * current directory; its function the one whose body holds the line) or
 * a function name; condition (may be NULL) replaces the hint's text.
 * A function with no tracepoint known to carry its caller gets sys NULL
 * (a kprobe's) and argpos: the tested variable's place among the
 * parameters in the source, or N for a variable named argN (0 and the
 * split unknown when neither says).  0, or -errno with s->why saying why
 * (exit 1).
 */
int lt_site_resolve(struct lt_site *s, const char *site, const char *srcdir,
		    const char *condition);

/*
 * The same for a user-space function (no tracepoint; sys, event and
 * field stay NULL): FILE:LINE read from srcdir (only with one), else a
 * function name.
 */
int lt_site_resolve_user(struct lt_site *s, const char *site, const char *srcdir,
			 const char *condition);

/*
 * The tested argument is signed (its event field says "signed:1"): the
 * condition read again, its values compared as signed numbers (x < 0
 * true for -1; the filter writes -100, not 0xffffffffffffff9c, which the
 * kernel refuses on a signed field).
 */
void lt_site_signed(struct lt_site *s);

#endif
