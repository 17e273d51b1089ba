/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The live view's columns on a terminal of any width, without a terminal:
 * numbers shrink first (counts shortened with K, M, G), then the function
 * name is cut, then the location (or file), both with an ellipsis; then
 * the columns before the names scroll off to the right of the last one
 * shown.
 * FUNCTION and the location stay on screen; Right reaches every column
 * (the columns first, then the names, by LT_HSCROLL_STEP characters).
 */
#ifndef LIKELYTOP_LAYOUT_H
#define LIKELYTOP_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>

#include "output.h"

/* FUNCTION's widest (names longer are cut with a mark) and narrowest. */
#define LT_FUNCTION_MAX 27
#define LT_FUNCTION_MIN 12
/* The location's narrowest, before columns scroll off instead. */
#define LT_LOCATION_MIN 14

struct lt_layout {
	size_t n;			/* columns on screen */
	enum lt_column_id id[LT_COL_MAX];
	int x[LT_COL_MAX], width[LT_COL_MAX];
	bool compact;			/* counts shortened */
	size_t skipped;			/* columns off to the left */
	size_t hidden;			/* columns off to the right */
	size_t name_from;		/* names shown from this character */
	size_t col_steps;		/* Right presses that move columns */
};

/* Whether a column is a name (cut with a mark, kept on screen). */
bool lt_layout_is_name(enum lt_column_id c);

/*
 * Lay out cols[0..n) on a screen screen_cols wide: wide[c] is the width
 * column c needs in full (title and cells), narrow[c] with its counts
 * shortened (names: their narrowest).  hscroll: Right presses times
 * LT_HSCROLL_STEP (keys.c).
 */
void lt_layout(struct lt_layout *l, const enum lt_column_id *cols, size_t n,
	       const int *wide, const int *narrow, int screen_cols,
	       size_t hscroll);

#endif
