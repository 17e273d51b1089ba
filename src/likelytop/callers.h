/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * likelytop --callers SITE: who calls a hinted function, how often, and
 * how often against the hint (callers.c; the condition callers_cond.c,
 * the tracefs instance callers_trace.c, the ring buffer callers_rb.c,
 * the symbols callers_ksym.c).
 */
#ifndef LIKELYTOP_CALLERS_H
#define LIKELYTOP_CALLERS_H

struct lt_app;

/* Batch mode: snapshots of the callers; returns the exit status. */
int lt_callers_run(struct lt_app *app);

#endif
