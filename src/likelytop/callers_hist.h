/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * likelytop --callers: the in-kernel histogram (CONFIG_HIST_TRIGGERS).
 * Two hist triggers on the event in likelytop's own instance, keyed on
 * the caller and counting hits: one on every call, one with the hint's
 * "wrong" filter (none when the split is unknown or every call is
 * wrong); both read from the event's hist file, cumulative since they
 * were set (callers.c takes deltas), and removed with the instance.
 */
#ifndef LIKELYTOP_CALLERS_HIST_H
#define LIKELYTOP_CALLERS_HIST_H

#include <stddef.h>
#include <stdint.h>

struct lt_trace;

/* One histogram's entry: the key (the caller's address) and hits. */
typedef void (*lt_hist_entry_fn)(uint64_t addr, uint64_t hits, int which,
				 void *arg);

/*
 * Parse a hist file's text (len bytes): each histogram's entries to fn
 * with which 0 (the trigger without a filter: calls) or 1 (the one with
 * " if ": wrong); *dropped (may be NULL) gets the sum of the
 * histograms' Dropped: lines.  Returns how many histograms it saw, or
 * -EINVAL when an entry line does not parse.  Pure: no I/O.
 */
int lt_hist_parse(const char *text, size_t len, const char *key,
		  lt_hist_entry_fn fn, void *arg, uint64_t *dropped);

/*
 * Set the triggers on t's prepared event (key: the caller's field;
 * wrong: the filter, NULL for none): calls, then wrong.  The event is
 * not enabled: the triggers enable it soft (tracefs shows "0*"), so no
 * record reaches the ring buffer.  0, or -errno (-ENOENT: this
 * kernel has no hist triggers) with why; on failure nothing is left set.
 */
int lt_hist_start(struct lt_trace *t, const char *key, const char *wrong,
		  char *why, size_t whysize);
/* Read the event's hist file into fn (see lt_hist_parse). */
int lt_hist_read(struct lt_trace *t, lt_hist_entry_fn fn, void *arg,
		 uint64_t *dropped);
/* Remove the triggers lt_hist_start set (idempotent). */
void lt_hist_stop(struct lt_trace *t);

#endif
