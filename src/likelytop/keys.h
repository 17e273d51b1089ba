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

/* Keys other than plain bytes, as the view translates them. */
enum {
	LT_KEY_UP = 0x1000,
	LT_KEY_DOWN,
	LT_KEY_PGUP,
	LT_KEY_PGDN,
	LT_KEY_HOME,
	LT_KEY_END,
	LT_KEY_BACKSPACE,
	LT_KEY_ENTER,
	LT_KEY_ESC,
	LT_KEY_RESIZE,
	LT_KEY_LEFT,
	LT_KEY_RIGHT,
	LT_KEY_F1,		/* htop's function keys: help */
	LT_KEY_F3,		/* search (filter) */
	LT_KEY_F6,		/* sort by the next column */
	LT_KEY_F10,		/* quit */
};

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

#define LT_FILTER_MAX 128
/* The refresh delay's range, for -d and the d/s keys. */
#define LT_DELAY_MIN 0.05
#define LT_DELAY_MAX 86400.0
/* Columns the Left and Right keys scroll the names by. */
#define LT_HSCROLL_STEP 8

enum lt_screen {
	LT_SCREEN_LIST = 0, LT_SCREEN_HELP, LT_SCREEN_DETAIL,
	LT_SCREEN_SUGGEST,	/* p: the suggested patch of the selected site */
	LT_SCREEN_FIELDS,	/* f: the columns (top's f, htop's F2) */
};

struct lt_ui {
	enum kattr_prof_sort sort;
	bool reverse;
	bool frozen;
	enum lt_screen screen;
	bool editing;			/* typing after '/' or 'd' */
	bool editing_delay;		/* what is typed is a delay */
	bool editing_min;		/* what is typed is a minimum total */
	bool wrong_only;		/* w: only sites with a wrong hint */
	uint64_t min_total;		/* m: only sites evaluated this often */
	char filter[LT_FILTER_MAX];	/* in force */
	char edit[LT_FILTER_MAX];	/* being typed */
	double delay;			/* seconds between refreshes */
	const char *note;		/* a message for the status line, or NULL */
	size_t hscroll;		/* Right presses times LT_HSCROLL_STEP:
				 * columns, then names, scroll */
	enum lt_column_id cols[LT_COL_MAX];	/* shown (-o, f) */
	size_t ncols;
	size_t field;			/* f: the field under the cursor */
	size_t sel;			/* selected row */
	size_t top;			/* first row shown */
	size_t nrows;			/* rows after filtering (set by the caller) */
	size_t page;			/* rows per screen (set by the caller) */
};

/* Sort by incorrect, or reversed; the default columns. */
void lt_ui_init(struct lt_ui *ui, enum kattr_prof_sort sort, bool reverse);
/* The sort key column c sorts by, or false if none. */
bool lt_column_sort(enum lt_column_id c, enum kattr_prof_sort *key);
/* Seconds between LT_DELAY_MIN and LT_DELAY_MAX, the whole string. */
bool lt_parse_delay(const char *s, double *delay);
/* Handle one key; returns a mask of enum lt_redo. */
unsigned int lt_ui_key(struct lt_ui *ui, int key);
/* Keep sel within nrows and visible between top and top + page. */
void lt_ui_clamp(struct lt_ui *ui);
/* The sort keys '<' and '>' walk through, in column order. */
extern const enum kattr_prof_sort lt_sort_columns[];
extern const size_t lt_sort_ncolumns;

/* One help line per binding, for the help screen (NULL-terminated). */
extern const char *const lt_help_lines[];

#endif
