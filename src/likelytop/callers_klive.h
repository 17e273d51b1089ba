/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The live view's c key on a kernel function: traced as batch --callers
 * traces it (callers_kern.h: its tracepoint, or a kprobe event of
 * likelytop's own; the in-kernel histogram, or streamed), only while the
 * callers screen is open, the counts read at each refresh; the triggers,
 * instance and kprobe event removed when the screen is left, at exit
 * (also on SIGINT and SIGTERM, which end the view) and on errors.
 */
#ifndef LIKELYTOP_CALLERS_KLIVE_H
#define LIKELYTOP_CALLERS_KLIVE_H

#include <stdbool.h>
#include <stddef.h>

/* The selected row. */
struct lt_klive_site {
	const char *function;
	const char *file;	/* its hint's place (NULL: not known) */
	unsigned int line;
	const char *srcdir;	/* -S: the hint read there (NULL: none) */
	int mechanism;		/* --mechanism: enum lt_mech */
};

/* Start counting the callers: 0, or -errno with why (one line). */
int lt_klive_start(const struct lt_klive_site *s, char *why, size_t whysize);
/* Is fn the one being counted? */
bool lt_klive_running(const char *fn);
/* Read what came in and describe the counts since the start as lines of
 * text (malloc'ed; NULL without memory). */
char *lt_klive_text(void);
/* Stop and leave tracefs as found (nothing when not started). */
void lt_klive_stop(void);

#endif
