/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * likelytop --callers on a function without a tracepoint that records
 * its caller: a kprobe event (CONFIG_KPROBE_EVENTS) of likelytop's own,
 * group likelytop_PID, on the function's entry, fetching the return
 * address ($stack0 on x86_64 at entry: the caller) as call_site and the
 * tested argument ($argN) as arg.  kprobe_events is global: the probe is
 * enabled only in likelytop's instance, removed after the instance, and
 * the next run removes the groups of killed runs (the instance
 * likelytop-PID gone and PID gone, or the group still there 200 ms
 * later).
 */
#ifndef LIKELYTOP_CALLERS_KPROBE_H
#define LIKELYTOP_CALLERS_KPROBE_H

#include <stdbool.h>
#include <stddef.h>

#define LT_KPROBE_GROUP "likelytop_"

struct lt_trace;

/* Has this kernel kprobe events (tracefs kprobe_events)? */
bool lt_kprobe_available(struct lt_trace *t);
/*
 * Add the probe on fn (argpos 1..6, 0: no argument; argtype a fetch
 * type such as "x64", "u32", "s32"); t->ksys and t->kevent name it.
 * 0 or -errno with why.
 */
int lt_kprobe_create(struct lt_trace *t, const char *fn, unsigned int argpos,
		     const char *argtype, char *why, size_t whysize);
/* Remove our probe (after the instance: a probe in use cannot go). */
void lt_kprobe_remove(struct lt_trace *t);
/* Remove the probe groups killed runs left; their count in t. */
void lt_kprobe_remove_stale(struct lt_trace *t);

#endif
