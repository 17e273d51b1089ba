/* SPDX-License-Identifier: GPL-2.0-or-later */
/* splicebench: the reports (output/: table.c, csv.c, json.c, plot.c) and the
 * progress line (progress.c). */
#ifndef SPLICEBENCH_OUTPUT_H
#define SPLICEBENCH_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "sb.h"

enum sb_format { SB_TABLE, SB_CSV, SB_JSON };

/* The results table's columns (-o); see columns[] in output/table.c. */
enum sb_column {
	SB_COL_MODE, SB_COL_SIZE, SB_COL_PIPE, SB_COL_HUGE, SB_COL_BUSY,
	SB_COL_RUNS, SB_COL_GBPS, SB_COL_MIN, SB_COL_MAX, SB_COL_SPREAD,
	SB_COL_CPU_PROD, SB_COL_CPU_CONS, SB_COL_NOTE, SB_COL_CPU,
	SB_COL_BYTES, SB_COL_CHUNKS, SB_COL_CORRUPT, SB_COL_COUNT
};
#define SB_COLS_MAX	64

struct sb_table_opts {
	enum sb_column cols[SB_COLS_MAX];
	int ncols;			/* 0: the default columns */
	bool noheadings, raw;		/* rows only; raw: no alignment */
};

/* -o LIST ("+LIST": the default ones, then LIST).  0, or -EINVAL /
 * -E2BIG with *bad, *badlen the name at fault. */
int sb_columns_parse(const char *list, struct sb_table_opts *t,
		     const char **bad, size_t *badlen);
/* --output-all */
void sb_columns_all(struct sb_table_opts *t);
/* The column list for --help. */
void sb_columns_help(FILE *fp);

/* t: the table's columns and form (NULL: the default table). */
int sb_output(const struct sb_report *rep, enum sb_format fmt,
	      const struct sb_table_opts *t);
/* Progress on stderr (cfg->progress): what is being measured, runs done
 * of total, and an estimate of the time left; sb_progress_end() clears
 * the line. */
void sb_progress(const char *what, int done, int total, double elapsed);
void sb_progress_end(void);
/* Warn about every point whose spread is above SB_SPREAD_WARN. */
void sb_warn_spread(const struct sb_report *rep);
/* The CSV and JSON reports into fp (fuzzed by tests/fuzz/fuzz_sb_output.c):
 * RFC 4180 with one field count, valid UTF-8, no "nan". */
void sb_output_csv(FILE *fp, const struct sb_report *rep);
void sb_output_json(FILE *fp, const struct sb_report *rep);
/* The text table into fp (t as for sb_output); what the system says (CPU
 * model, kernel release...) escaped as tool_esc() does (esc.h): one line
 * per line, valid UTF-8, no control bytes. */
void sb_output_text(FILE *fp, const struct sb_report *rep,
		    const struct sb_table_opts *t);
/* Draw rep with gnuplot into path (.svg or .png).  0 or -errno, with a
 * message printed. */
int sb_plot(const struct sb_report *rep, const char *path);

#endif
