/* SPDX-License-Identifier: GPL-2.0-or-later */
/* likelytop batch output: text (like top -b), CSV and JSON (json-c). */
#ifndef LIKELYTOP_OUTPUT_H
#define LIKELYTOP_OUTPUT_H

#include <stdio.h>

#include "kattr/profile.h"

enum lt_out_format { LT_OUT_TEXT, LT_OUT_CSV, LT_OUT_JSON };

struct lt_out_meta {
	const char *source;	/* source name */
	enum kattr_prof_format format;
	unsigned long iteration;	/* from 1 */
	size_t sites;		/* before filtering */
	size_t bad_rows;
	double time;		/* wall clock, seconds */
};

int lt_out_parse(const char *name, enum lt_out_format *f);
/* Write one iteration's rows; -errno of a failed write (-EPIPE, -ENOSPC,
 * -EBADF; -EIO if unknown), -ENOMEM. */
int lt_out_write(FILE *fp, enum lt_out_format f, const struct lt_out_meta *meta,
		 const struct kattr_prof_entry *const *rows, size_t n);

/* "12.5" (one decimal) for a percent, "-" when never evaluated. */
void lt_fmt_pct(char *buf, size_t size, double pct);
/* A count in at most width characters: 123456, 1.2M, 45G. */
void lt_fmt_count(char *buf, size_t size, uint64_t v, int width);
/* A rate per second in at most 7 characters: 99999.9, 123.4K, 5.0M. */
void lt_fmt_rate(char *buf, size_t size, double rate);

#endif
