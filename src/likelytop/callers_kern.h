/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The callers of a kernel function, counted: what batch --callers
 * (callers.c) and the live view's c key (callers_klive.c) share.  The
 * site's own tracepoint, or a kprobe event of likelytop's own where it
 * has none (callers_kprobe.h), in likelytop's tracefs instance
 * (callers_trace.h); counted in the kernel by two hist triggers where it
 * has them (callers_hist.h), else every record streamed from
 * trace_pipe_raw and classified here by the tested argument's value.  A
 * hist trigger the kernel refuses (a filter it does not take) falls back
 * to streaming, with a note.
 */
#ifndef LIKELYTOP_CALLERS_KERN_H
#define LIKELYTOP_CALLERS_KERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "callers_ksym.h"
#include "callers_site.h"
#include "callers_trace.h"

/* --mechanism: how the calls are counted */
enum lt_mech {
	LT_MECH_AUTO,		/* the histogram where the kernel has it */
	LT_MECH_HIST,		/* the histogram, or fail */
	LT_MECH_STREAM,		/* streamed and counted in likelytop */
};

struct lt_kcaller {
	uint64_t addr, calls, wrong;
};

struct lt_kcounts {
	struct lt_kcaller *slot;	/* open addressing, addr 0: empty */
	size_t cap, n;
	uint64_t calls, wrong, zero;	/* zero: call_site 0 records */
	bool oom;			/* a caller not counted: no memory */
};

struct lt_kern {
	struct lt_site site;		/* resolved by the caller */
	struct lt_trace trace;
	struct lt_ksyms ksyms;
	struct lt_kcounts c;		/* since the start or the last reset */
	enum lt_mech mech;
	bool hist, all_wrong;
	/* the in-kernel histogram: cumulative, and at the last reading */
	struct lt_kcounts cum, prev;
	uint64_t dropped;
	double start;			/* lt_now() just before the enable, or
					 * before the histograms' first reading */
	char note[640];			/* the histogram refused: why ("": not) */
};

/*
 * With k->site resolved: /proc/kallsyms read, tracefs opened, a kprobe
 * event made when the site has no tracepoint, the event's format read
 * (and the readers opened when streaming).  0, or -errno with why; call
 * lt_kern_close() either way.
 */
int lt_kern_open(struct lt_kern *k, enum lt_mech mech, char *why, size_t whysize);
/* Start counting: the histograms set (a refusal falls back to streaming,
 * k->note says why) or the event enabled.  0, or -errno with why. */
int lt_kern_start(struct lt_kern *k, char *why, size_t whysize);
/* Streaming: disable the event (before the last collect). */
void lt_kern_stop(struct lt_kern *k);
/* Add what came since the last call to k->c: the ring buffer read, or
 * (hist true) the histograms.  0 or -errno. */
int lt_kern_collect(struct lt_kern *k, bool hist);
/* Events lost so far (the histograms' Dropped, or the ring buffer's). */
uint64_t lt_kern_lost(struct lt_kern *k);
/* Zero k->c. */
void lt_kern_reset(struct lt_kern *k);
/* k->c's callers sorted by wrong, then calls (malloc'ed, k->c.n of
 * them; NULL without memory). */
struct lt_kcaller *lt_kern_sorted(const struct lt_kern *k);
/* The mechanism in a word ("kprobe+hist") and in a sentence. */
const char *lt_kern_mechanism(const struct lt_kern *k);
const char *lt_kern_mechanism_text(const struct lt_kern *k, char *buf, size_t size);
/* The text table's header line, and one line for a caller. */
void lt_kern_print_head(FILE *f);
void lt_kern_print_row(FILE *f, const struct lt_kern *k, const struct lt_kcaller *v);
/* The "hint: ..." line and a blank one. */
void lt_kern_print_hint(FILE *f, const struct lt_kern *k);
/* Everything removed (tracefs as found), the memory freed. */
void lt_kern_close(struct lt_kern *k);

#endif
