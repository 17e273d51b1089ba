/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The live view's c key on a kernel function with a tracepoint that
 * carries its caller (kfree, kmem_cache_free): the tracepoint enabled in
 * likelytop's own tracefs instance while the callers screen is open, its
 * records drained and counted at each refresh, the instance removed when
 * the screen is left, at exit and on errors (callers_trace.c).
 */
#ifndef LIKELYTOP_CALLERS_KLIVE_H
#define LIKELYTOP_CALLERS_KLIVE_H

#include <stdbool.h>
#include <stddef.h>

/* Start counting fn's callers: 0, or -errno with why (one line). */
int lt_klive_start(const char *fn, char *why, size_t whysize);
/* Is fn the one being counted? */
bool lt_klive_running(const char *fn);
/* Read what the buffer holds and describe the counts since the start as
 * lines of text (malloc'ed; NULL without memory). */
char *lt_klive_text(void);
/* Stop and remove the instance (nothing when not started). */
void lt_klive_stop(void);

#endif
