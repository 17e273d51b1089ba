/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A tool's output columns, one table per table a tool prints: what -o LIST
 * and --output-all take, what --help lists, and what the table is built
 * from (header, width hint, libsmartcols flags, the JSON type of --json),
 * as util-linux's libsmartcols users keep one infos[] table (lsblk,
 * findmnt).  rgctl (list, get, stats, top, members), likelytop and
 * splicebench all go through it; the error messages stay each tool's.
 */
#ifndef TOOL_COLUMNS_H
#define TOOL_COLUMNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The libsmartcols flags the tools use, for code that does not include
 * libsmartcols' header (columns.c checks that they agree). */
#define TOOL_COL_TREE	(1 << 1)	/* SCOLS_FL_TREE */
#define TOOL_COL_RIGHT	(1 << 2)	/* SCOLS_FL_RIGHT */

struct tool_column {
	const char *name;	/* the -o name (any case) and the header */
	double whint;		/* width hint: columns, or a fraction of the terminal */
	int flags;		/* SCOLS_FL_* */
	const char *help;	/* --help's line */
	int json_type;		/* SCOLS_JSON_* (0: string) */
	const char *title;	/* a header other than name (splicebench's
				 * lower case; likelytop's for branch_all
				 * profiles), or NULL */
	const char *alias;	/* an older -o name still taken, or NULL */
};

/* How --help lists the columns: "%s%*s%s%s\n" with indent, width (< 0:
 * left-aligned), the name, gap, then the help and the suffixes flags ask. */
#define TOOL_COLS_HELP_ALIAS	0x1	/* " (also ALIAS)" */
#define TOOL_COLS_HELP_DEFAULT	0x2	/* " (not shown by default)" */
#define TOOL_COLS_HELP_PERIOD	0x4	/* "." at the end */
/* -o takes a column's title as a name too (likelytop). */
#define TOOL_COLS_MATCH_TITLE	0x8

struct tool_columns {
	const struct tool_column *col;
	int n;
	const int *def;		/* the default columns, in order */
	size_t ndef;
	size_t max;		/* ids in one list at most (repeats allowed) */
	const char *help_indent, *help_gap;
	int help_width;
	unsigned int flags;	/* TOOL_COLS_* */
};

/*
 * -o LIST: comma-separated names, "+LIST" the default columns and then
 * LIST.  The ids go into cols (room t->max), their count into *n.  0, or
 * -EINVAL for a name no column has (*bad, *badlen: the word, which is
 * empty for an empty list, a trailing or a doubled ','), -E2BIG past
 * t->max (*bad: the word that did not fit).
 */
int tool_columns_parse(const struct tool_columns *t, const char *list,
		       int *cols, size_t *n, const char **bad, size_t *badlen);
/* --output-all: every column in table order; returns the count. */
size_t tool_columns_all(const struct tool_columns *t, int *cols);
/* The defaults into cols; returns their count. */
size_t tool_columns_default(const struct tool_columns *t, int *cols);
/* The header of column c: its title if it has one and title, else name. */
const char *tool_column_header(const struct tool_columns *t, int c, bool title);
/* --help's list of the columns, one a line. */
void tool_columns_help(FILE *fp, const struct tool_columns *t);

#endif
