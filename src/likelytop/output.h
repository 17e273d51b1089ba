/* SPDX-License-Identifier: GPL-2.0-or-later */
/* likelytop batch output: text (like top -b), CSV and JSON. */
#ifndef LIKELYTOP_OUTPUT_H
#define LIKELYTOP_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "kattr/profile.h"

/* LT_OUT_PROM: Prometheus' text format, for --textfile (node_exporter). */
enum lt_out_format { LT_OUT_TEXT, LT_OUT_CSV, LT_OUT_JSON, LT_OUT_OPENMETRICS,
		     LT_OUT_PROM };

/* Text columns (-o): see columns[] in output.c. */
enum lt_column_id {
	LT_COL_MARK, LT_COL_HINT, LT_COL_CORRECT, LT_COL_INCORRECT, LT_COL_MISS,
	LT_COL_RATE, LT_COL_CONSTANT, LT_COL_FUNCTION, LT_COL_LOCATION,
	LT_COL_FILE, LT_COL_LINE, LT_COL_COUNT
};
#define LT_COL_MAX 64		/* columns in one -o list (repeats allowed) */

struct lt_out_meta {
	const char *source;	/* source name */
	enum kattr_profile_format format;
	unsigned long iteration;	/* from 1 */
	size_t sites;		/* before filtering */
	size_t bad_rows;
	double time;		/* wall clock, seconds */
	/* Text: the columns (ncols 0: the default ones), --raw, and
	 * --noheadings (text and CSV). */
	const enum lt_column_id *cols;
	size_t ncols;
	bool raw, noheadings;
};

int lt_out_parse(const char *name, enum lt_out_format *f);
/* Write one iteration's rows; -errno of a failed write (-EPIPE, -ENOSPC,
 * -EBADF; -EIO if unknown), -ENOMEM. */
int lt_out_write(FILE *fp, enum lt_out_format f, const struct lt_out_meta *meta,
		 const struct kattr_profile_entry *const *rows, size_t n);
/* The same for a table's sites shown, in its order (a batch pass); text,
 * CSV and JSON only (-EINVAL for the metrics formats). */
int lt_out_write_table(FILE *fp, enum lt_out_format f,
		       const struct lt_out_meta *meta,
		       const struct kattr_profile_table *t);

/*
 * -o LIST: comma-separated column names (any case), "+LIST" for the
 * default ones and LIST.  0, or -EINVAL (unknown name) / -E2BIG (more
 * than LT_COL_MAX) with *bad, *badlen the name at fault.
 */
int lt_out_columns_parse(const char *list, enum lt_column_id *cols,
			 size_t *n, const char **bad, size_t *badlen);
/* A column's title (its -o name; branch_all profiles: what the counts
 * are), whether it is right-aligned, its help line. */
const char *lt_out_column_title(enum lt_column_id c, bool branch_all);
bool lt_out_column_right(enum lt_column_id c);
const char *lt_out_column_help(enum lt_column_id c);
/* The default columns (-o not given). */
const enum lt_column_id *lt_out_columns_default(size_t *n);
/* --output-all: every column, in table order; returns the count. */
size_t lt_out_columns_all(enum lt_column_id *cols);
/* The column list for --help: one line per column. */
void lt_out_columns_help(FILE *fp);

/* "12.5" (one decimal) for a percent, "-" when never evaluated. */
void lt_fmt_pct(char *buf, size_t size, double pct);
/* A count in at most width characters: 123456, 1.2M, 45G. */
void lt_fmt_count(char *buf, size_t size, uint64_t v, int width);
/* A rate per second in at most 7 characters: 99999.9, 123.4K, 5.0M. */
void lt_fmt_rate(char *buf, size_t size, double rate);

#endif
