/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * likelytop --callers --uprobe: a uprobe event on a user-space function,
 * group likelytop_PID (likelytop's pid), defined in uprobe_events (which
 * is global: the definition is the one thing written outside the
 * instance) and enabled only in likelytop's own instance.  It records the
 * return address from the stack at the function's entry (call_site) and,
 * when the hint tests an argument, that argument's register (arg).
 * Removed at the end; groups whose run was killed (no instance
 * likelytop-PID left once the stale instances are swept) are removed by
 * the next run.
 */
#ifndef LIKELYTOP_CALLERS_UPROBE_H
#define LIKELYTOP_CALLERS_UPROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "callers_trace.h"

#define LT_UPROBE_GROUP "likelytop_"

struct lt_uprobe {
	struct lt_trace *t;
	char group[32], event[64];
	bool made;
};

/* Remove the uprobe events of killed runs; the number removed. */
unsigned int lt_uprobe_sweep(struct lt_trace *t);
/*
 * Define the event on path:off (file offset) for function fn: argno 1 to
 * 6 the argument fetched (bits 8 to 64, signed or not), 0 none.
 * 0 or -errno with why.
 */
int lt_uprobe_make(struct lt_uprobe *u, struct lt_trace *t, const char *path,
		   uint64_t off, const char *fn, int argno, int bits, bool sign,
		   char *why, size_t whysize);
/* Disable it in the instance and remove its definition. */
void lt_uprobe_remove(struct lt_uprobe *u);

#endif
