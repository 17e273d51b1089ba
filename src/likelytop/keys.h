/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * likelytop's interactive state and key bindings, without a terminal:
 * a key goes through a table to a handler that changes struct lt_ui and
 * returns what the caller must redo (htop's way), so the whole key and
 * sort logic is unit-tested.
 */
#ifndef LIKELYTOP_KEYS_H
#define LIKELYTOP_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kattr/profile.h"
#include "output.h"
#include "tui.h"

/* What to redo after a key. */
enum lt_redo {
	LT_REDO_NONE = 0,
	LT_REDO_DRAW = 1 << 0,		/* draw again */
	LT_REDO_SORT = 1 << 1,		/* select, filter and sort again */
	LT_REDO_COLLECT = 1 << 2,	/* read the source now */
	LT_REDO_ZERO = 1 << 3,		/* counts since now */
	LT_REDO_PIN = 1 << 4,		/* remember the selected site */
	LT_REDO_RESIZE = 1 << 5,	/* the terminal changed size */
	LT_REDO_QUIT = 1 << 6,
	LT_REDO_DELAY = 1 << 7,		/* ui->delay changed: re-arm the timer */
};

#define LT_FILTER_MAX TUI_EDIT_MAX
/* The refresh delay's range, for -d and the d/s keys. */
#define LT_DELAY_MIN 0.05
#define LT_DELAY_MAX 86400.0
/* Columns the Left and Right keys scroll the names by. */
#define LT_HSCROLL_STEP 8

enum lt_screen {
	LT_SCREEN_LIST = 0, LT_SCREEN_HELP, LT_SCREEN_DETAIL,
	LT_SCREEN_SUGGEST,	/* p: the suggested patch of the selected site */
	LT_SCREEN_FIELDS,	/* f: the columns (top's f, htop's F2) */
	LT_SCREEN_CALLERS,	/* c: the callers of the selected site */
};

/* What is being typed. */
enum lt_edit { LT_EDIT_FILTER, LT_EDIT_DELAY, LT_EDIT_MIN };

struct lt_ui {
	enum kattr_profile_sort sort;
	bool reverse;
	bool frozen;
	enum lt_screen screen;
	struct tui_edit edit;		/* typing after '/', 'd' or 'm':
					 * edit.what is an enum lt_edit */
	bool wrong_only;		/* w: only sites with a wrong hint */
	uint64_t min_total;		/* m: only sites evaluated this often */
	char filter[LT_FILTER_MAX];	/* in force */
	double delay;			/* seconds between refreshes */
	const char *note;		/* a message for the status line, or NULL */
	size_t hscroll;		/* Right presses times LT_HSCROLL_STEP:
				 * columns, then names, scroll */
	enum lt_column_id cols[LT_COL_MAX];	/* shown (-o, f) */
	size_t ncols;
	size_t field;			/* f: the field under the cursor */
	struct tui_list list;		/* the rows after filtering */
};

/* Sort by incorrect, or reversed; the default columns. */
void lt_ui_init(struct lt_ui *ui, enum kattr_profile_sort sort, bool reverse);
/* The sort key column c sorts by, or false if none. */
bool lt_column_sort(enum lt_column_id c, enum kattr_profile_sort *key);
/* Seconds between LT_DELAY_MIN and LT_DELAY_MAX, the whole string. */
bool lt_parse_delay(const char *s, double *delay);
/* Handle one key; returns a mask of enum lt_redo. */
unsigned int lt_ui_key(struct lt_ui *ui, int key);
/* The sort keys '<' and '>' walk through, in column order. */
extern const enum kattr_profile_sort lt_sort_columns[];
extern const size_t lt_sort_ncolumns;

/* One help line per binding, for the help screen (NULL-terminated). */
extern const char *const lt_help_lines[];

#endif
