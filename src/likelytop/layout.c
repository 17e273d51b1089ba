// SPDX-License-Identifier: GPL-2.0-or-later
/* The live view's columns on a terminal of any width (layout.h). */
#include <string.h>

#include "keys.h"
#include "layout.h"

bool lt_layout_is_name(enum lt_column_id c)
{
	return c == LT_COL_FUNCTION || c == LT_COL_LOCATION || c == LT_COL_FILE;
}

/* The location is cut last: it takes what is left. */
static bool cut_last(enum lt_column_id c)
{
	return c == LT_COL_LOCATION || c == LT_COL_FILE;
}

/* Columns used by the shown ones, a blank between two. */
static int used(const int *w, const bool *show, size_t n)
{
	int sum = 0, k = 0;

	for (size_t i = 0; i < n; i++)
		if (show[i]) {
			sum += w[i];
			k++;
		}
	return k ? sum + k - 1 : 0;
}

/*
 * Too wide even shortened: the columns before the names scroll.  The
 * first `steps` of them (at most as many as it takes to show the last)
 * are off to the left, then as many as fit, the rest off to the right.
 */
static size_t scroll_columns(struct lt_layout *l, const enum lt_column_id *cols,
			     size_t n, const int *w, bool *show, int screen,
			     size_t steps)
{
	int room = screen + 1, suffix = 0;	/* n columns, n - 1 blanks */
	size_t ndata = 0, s = 0, k = 0;

	for (size_t i = 0; i < n; i++)
		if (lt_layout_is_name(cols[i]))
			room -= w[i] + 1;
		else
			ndata++;
	/* the fewest columns to scroll off for the last to show */
	l->col_steps = ndata;
	for (size_t i = n; i-- > 0;) {
		if (lt_layout_is_name(cols[i]))
			continue;
		suffix += w[i] + 1;
		if (suffix > room)
			break;
		l->col_steps--;
	}
	s = steps < l->col_steps ? steps : l->col_steps;
	for (size_t i = 0; i < n; i++) {
		if (lt_layout_is_name(cols[i]))
			continue;
		if (k++ < s) {
			show[i] = false;
			l->skipped++;
		} else if (room >= w[i] + 1 && !l->hidden) {
			room -= w[i] + 1;
		} else {
			show[i] = false;
			l->hidden++;
		}
	}
	return s;
}

/* What is left over goes to the location, then to the function. */
static void spread(const enum lt_column_id *cols, size_t n, const int *wide,
		   int *w, const bool *show, int screen)
{
	int left = screen - used(w, show, n);

	for (int pass = 0; pass < 2 && left > 0; pass++)
		for (size_t i = 0; i < n && left > 0; i++) {
			int more;

			if (!show[i] || !lt_layout_is_name(cols[i]) ||
			    cut_last(cols[i]) != !pass)
				continue;
			more = wide[cols[i]] - w[i];
			if (more > left)
				more = left;
			if (more > 0) {
				w[i] += more;
				left -= more;
			}
		}
}

void lt_layout(struct lt_layout *l, const enum lt_column_id *cols, size_t n,
	       const int *wide, const int *narrow, int screen_cols,
	       size_t hscroll)
{
	size_t steps = hscroll / LT_HSCROLL_STEP, s = 0;
	int w[LT_COL_MAX], x = 0;
	bool show[LT_COL_MAX];

	memset(l, 0, sizeof(*l));
	if (n > LT_COL_MAX)
		n = LT_COL_MAX;
	for (size_t i = 0; i < n; i++) {
		w[i] = wide[cols[i]];
		show[i] = true;
	}
	if (used(w, show, n) > screen_cols) {	/* numbers first */
		l->compact = true;
		for (size_t i = 0; i < n; i++)
			if (!lt_layout_is_name(cols[i]))
				w[i] = narrow[cols[i]];
	}
	/* then the function, then the location (spread() gives them back
	 * what is left, the location first) */
	for (int last = 0; last < 2; last++)
		if (used(w, show, n) > screen_cols)
			for (size_t i = 0; i < n; i++)
				if (lt_layout_is_name(cols[i]) &&
				    cut_last(cols[i]) == last)
					w[i] = narrow[cols[i]];
	if (used(w, show, n) > screen_cols)	/* then columns scroll */
		s = scroll_columns(l, cols, n, w, show, screen_cols, steps);
	l->name_from = (steps - s) * LT_HSCROLL_STEP +
		       hscroll % LT_HSCROLL_STEP;
	spread(cols, n, wide, w, show, screen_cols);
	for (size_t i = 0; i < n; i++) {
		if (!show[i])
			continue;
		l->id[l->n] = cols[i];
		l->x[l->n] = x;
		l->width[l->n] = w[i];
		l->n++;
		x += w[i] + 1;
	}
}
