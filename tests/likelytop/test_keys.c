/* likelytop's key table and model, without a terminal: every binding
 * returns what to redo; sort column walk; filter editing; selection;
 * zero; history and sparkline. */
#include "testutil.h"
#include <errno.h>
#include "keys.h"
#include "layout.h"
#include "model.h"
#include "output.h"

static void quit_and_unknown(void **state)
{
	struct lt_ui ui;

	(void)state;
	lt_ui_init(&ui, KATTR_PROFILE_SORT_INCORRECT, false);
	assert_int_equal(lt_ui_key(&ui, 'q'), LT_REDO_QUIT);
	assert_int_equal(lt_ui_key(&ui, 'x'), LT_REDO_NONE);
	assert_true(lt_ui_key(&ui, ' ') & LT_REDO_COLLECT);
	assert_true(lt_ui_key(&ui, 'z') & LT_REDO_ZERO);
	assert_true(lt_ui_key(&ui, TUI_KEY_RESIZE) & LT_REDO_RESIZE);
}

static void sort_columns(void **state)
{
	struct lt_ui ui;

	(void)state;
	lt_ui_init(&ui, KATTR_PROFILE_SORT_INCORRECT, false);
	assert_true(lt_ui_key(&ui, '>') & LT_REDO_SORT);
	assert_int_equal(ui.sort, KATTR_PROFILE_SORT_PERCENT);
	lt_ui_key(&ui, '>');
	assert_int_equal(ui.sort, KATTR_PROFILE_SORT_RATE);
	lt_ui_key(&ui, '>');
	lt_ui_key(&ui, '>');
	assert_int_equal(ui.sort, KATTR_PROFILE_SORT_FILE);
	lt_ui_key(&ui, '>');		/* stops at the last column */
	assert_int_equal(ui.sort, KATTR_PROFILE_SORT_FILE);
	for (int i = 0; i < 10; i++)
		lt_ui_key(&ui, '<');
	assert_int_equal(ui.sort, KATTR_PROFILE_SORT_CORRECT);
	assert_false(ui.reverse);
	assert_true(lt_ui_key(&ui, 'R') & LT_REDO_SORT);
	assert_true(ui.reverse);
	lt_ui_key(&ui, 'I');
	assert_false(ui.reverse);
	/* total has no column: the walk starts from incorrect */
	lt_ui_init(&ui, KATTR_PROFILE_SORT_TOTAL, false);
	lt_ui_key(&ui, '>');
	assert_int_equal(ui.sort, KATTR_PROFILE_SORT_INCORRECT);
}

static void filter_editing(void **state)
{
	struct lt_ui ui;

	(void)state;
	lt_ui_init(&ui, KATTR_PROFILE_SORT_INCORRECT, false);
	lt_ui_key(&ui, '/');
	assert_true(ui.edit.on);
	/* While typing, bindings do not fire: 'q' is a letter. */
	assert_int_equal(lt_ui_key(&ui, 'q'), LT_REDO_DRAW);
	lt_ui_key(&ui, 'x');
	lt_ui_key(&ui, TUI_KEY_BACKSPACE);
	lt_ui_key(&ui, 'k');
	assert_string_equal(ui.edit.text, "qk");
	assert_string_equal(ui.filter, "");
	assert_true(lt_ui_key(&ui, TUI_KEY_ENTER) & LT_REDO_SORT);
	assert_false(ui.edit.on);
	assert_string_equal(ui.filter, "qk");
	/* Esc while typing keeps the old filter */
	lt_ui_key(&ui, '/');
	lt_ui_key(&ui, 'z');
	lt_ui_key(&ui, TUI_KEY_ESC);
	assert_string_equal(ui.filter, "qk");
	/* Esc in the list clears it */
	assert_true(lt_ui_key(&ui, TUI_KEY_ESC) & LT_REDO_SORT);
	assert_string_equal(ui.filter, "");
	/* The filter cannot overflow. */
	lt_ui_key(&ui, '/');
	for (int i = 0; i < 500; i++)
		lt_ui_key(&ui, 'a');
	assert_int_equal(strlen(ui.edit.text), LT_FILTER_MAX - 1);
}

static void screens_and_freeze(void **state)
{
	struct lt_ui ui;

	(void)state;
	lt_ui_init(&ui, KATTR_PROFILE_SORT_INCORRECT, false);
	lt_ui_key(&ui, 'Z');
	assert_true(ui.frozen);
	lt_ui_key(&ui, 'Z');
	assert_false(ui.frozen);
	lt_ui_key(&ui, 'h');
	assert_int_equal(ui.screen, LT_SCREEN_HELP);
	lt_ui_key(&ui, 'x');		/* any key leaves help */
	assert_int_equal(ui.screen, LT_SCREEN_LIST);
	lt_ui_key(&ui, '?');
	assert_int_equal(lt_ui_key(&ui, 'q'), LT_REDO_QUIT);
	ui.screen = LT_SCREEN_LIST;
	/* Enter with no rows does nothing; with rows it pins the site. */
	assert_int_equal(lt_ui_key(&ui, TUI_KEY_ENTER), LT_REDO_NONE);
	ui.list.nrows = 3;
	assert_true(lt_ui_key(&ui, TUI_KEY_ENTER) & LT_REDO_PIN);
	assert_int_equal(ui.screen, LT_SCREEN_DETAIL);
	lt_ui_key(&ui, TUI_KEY_ESC);
	assert_int_equal(ui.screen, LT_SCREEN_LIST);
}

static void selection(void **state)
{
	struct lt_ui ui;

	(void)state;
	lt_ui_init(&ui, KATTR_PROFILE_SORT_INCORRECT, false);
	ui.list.nrows = 100;
	ui.list.page = 10;
	lt_ui_key(&ui, TUI_KEY_UP);
	assert_int_equal(ui.list.sel, 0);
	lt_ui_key(&ui, TUI_KEY_DOWN);
	lt_ui_key(&ui, 'j');
	assert_int_equal(ui.list.sel, 2);
	lt_ui_key(&ui, TUI_KEY_PGDN);
	assert_int_equal(ui.list.sel, 12);
	assert_int_equal(ui.list.top, 3);		/* scrolled to keep it visible */
	lt_ui_key(&ui, TUI_KEY_END);
	assert_int_equal(ui.list.sel, 99);
	assert_int_equal(ui.list.top, 90);
	lt_ui_key(&ui, TUI_KEY_PGUP);
	assert_int_equal(ui.list.sel, 89);
	lt_ui_key(&ui, TUI_KEY_HOME);
	assert_int_equal(ui.list.sel, 0);
	assert_int_equal(ui.list.top, 0);
	ui.list.sel = 50;
	ui.list.nrows = 5;		/* the filter shrank the list */
	tui_list_clamp(&ui.list);
	assert_int_equal(ui.list.sel, 4);
	assert_int_equal(ui.list.top, 0);
}

/* Every page size, list length and position: after a clamp the selection
 * is on the page and the page is as full as the list allows. */
static void clamp_keeps_the_page_full(void **state)
{
	(void)state;
	for (size_t page = 1; page <= 12; page++)
		for (size_t nrows = 0; nrows <= 30; nrows++)
			for (size_t sel = 0; sel <= 32; sel++)
				for (size_t top = 0; top <= 32; top++) {
					struct lt_ui ui = { .list = { .page = page, .nrows = nrows,
								      .sel = sel, .top = top } };
					size_t shown;

					tui_list_clamp(&ui.list);
					if (!nrows) {
						assert_int_equal(ui.list.sel, 0);
						assert_int_equal(ui.list.top, 0);
						continue;
					}
					assert_true(ui.list.sel < nrows);
					assert_true(ui.list.top <= ui.list.sel);
					assert_true(ui.list.sel < ui.list.top + page);
					shown = nrows - ui.list.top < page ? nrows - ui.list.top : page;
					assert_int_equal(shown, nrows < page ? nrows : page);
					if (sel < nrows && sel >= top && sel < top + page &&
					    top + page <= nrows)
						assert_int_equal(ui.list.top, top);	/* nothing moved */
				}
}

/* The window grew back after scrolling to the end: rows above come back. */
static void clamp_after_the_window_grows(void **state)
{
	struct lt_ui ui = { .list = { .page = 10, .nrows = 100, .sel = 99, .top = 90 } };

	(void)state;
	ui.list.page = 30;
	tui_list_clamp(&ui.list);
	assert_int_equal(ui.list.top, 70);
	assert_int_equal(ui.list.sel, 99);
	ui.list.nrows = 40;		/* the profile shrank */
	tui_list_clamp(&ui.list);
	assert_int_equal(ui.list.sel, 39);
	assert_int_equal(ui.list.top, 10);
}

static void type(struct lt_ui *ui, const char *s)
{
	while (*s)
		lt_ui_key(ui, *s++);
}

/* d and s (as in top) ask for a delay; only a valid one is taken. */
static void delay_keys(void **state)
{
	struct lt_ui ui;

	(void)state;
	lt_ui_init(&ui, KATTR_PROFILE_SORT_INCORRECT, false);
	ui.delay = 2;
	assert_int_equal(lt_ui_key(&ui, 'd'), LT_REDO_DRAW);
	assert_true(ui.edit.on && ui.edit.what == LT_EDIT_DELAY);
	type(&ui, "0.5");
	assert_int_equal(lt_ui_key(&ui, TUI_KEY_ENTER), LT_REDO_DELAY | LT_REDO_DRAW);
	assert_false(ui.edit.on);
	assert_true(ui.delay == 0.5);
	assert_null(ui.note);
	assert_string_equal(ui.filter, "");		/* not a filter */
	for (size_t i = 0; i < 5; i++) {
		static const char *const bad[] = { "0.01", "abc", "", "1e9", "2s" };

		lt_ui_key(&ui, 's');
		type(&ui, bad[i]);
		assert_int_equal(lt_ui_key(&ui, '\r') & LT_REDO_DELAY, 0);
		assert_true(ui.delay == 0.5);
		assert_non_null(ui.note);
		assert_non_null(strstr(ui.note, "0.05 and 86400"));
	}
	lt_ui_key(&ui, 'j');
	assert_null(ui.note);			/* the next key clears it */
	lt_ui_key(&ui, 'd');
	type(&ui, "7");
	assert_int_equal(lt_ui_key(&ui, TUI_KEY_ESC), LT_REDO_DRAW);
	assert_true(ui.delay == 0.5);		/* Esc cancels */
	lt_ui_key(&ui, '/');
	assert_false(ui.edit.what == LT_EDIT_DELAY);		/* a filter again after it */
	type(&ui, "ab");
	lt_ui_key(&ui, TUI_KEY_ENTER);
	assert_string_equal(ui.filter, "ab");
	assert_true(ui.delay == 0.5);
}

/* F1, F3, F6, F10 as in htop; Left and Right scroll the names. */
static void htop_keys(void **state)
{
	struct lt_ui ui;

	(void)state;
	lt_ui_init(&ui, KATTR_PROFILE_SORT_INCORRECT, false);
	lt_ui_key(&ui, TUI_KEY_F1);
	assert_int_equal(ui.screen, LT_SCREEN_HELP);
	assert_int_equal(lt_ui_key(&ui, TUI_KEY_F10), LT_REDO_QUIT);
	ui.screen = LT_SCREEN_LIST;
	lt_ui_key(&ui, TUI_KEY_F3);
	assert_true(ui.edit.on && ui.edit.what != LT_EDIT_DELAY);
	lt_ui_key(&ui, TUI_KEY_ESC);
	assert_int_equal(lt_ui_key(&ui, TUI_KEY_F6), LT_REDO_SORT | LT_REDO_DRAW);
	assert_int_equal(ui.sort, KATTR_PROFILE_SORT_PERCENT);
	assert_int_equal(lt_ui_key(&ui, TUI_KEY_LEFT), LT_REDO_NONE);
	lt_ui_key(&ui, TUI_KEY_RIGHT);
	lt_ui_key(&ui, TUI_KEY_RIGHT);
	assert_int_equal(ui.hscroll, 2 * LT_HSCROLL_STEP);
	lt_ui_key(&ui, TUI_KEY_LEFT);
	assert_int_equal(ui.hscroll, LT_HSCROLL_STEP);
	lt_ui_key(&ui, TUI_KEY_LEFT);
	assert_int_equal(ui.hscroll, 0);
	assert_int_equal(lt_ui_key(&ui, TUI_KEY_F10), LT_REDO_QUIT);
}

static void rate_units(void **state)
{
	static const struct { double r; const char *s; } t[] = {
		{ 0, "0.0" }, { 12.34, "12.3" }, { 99999.9, "99999.9" },
		{ 99999.96, "100.0K" }, { 123456, "123.5K" }, { 999949, "999.9K" },
		{ 999950, "1.0M" }, { 5e6, "5.0M" }, { 7.25e9, "7.2G" },
		{ 3e18, "3.0E" }, { 3e24, "3000000.0E" },
	};
	char buf[32];

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		lt_fmt_rate(buf, sizeof(buf), t[i].r);
		assert_string_equal(buf, t[i].s);
	}
}

static const char SNAP1[] =
	"Likely Profiling Results\n"
	"+unlikely |      100|       10\tkfree()@:mm/slab.c@3380\n"
	" likely   |       50|        1\tmain_loop()@:a.c@7\n";
static const char SNAP2[] =
	"Likely Profiling Results\n"
	"+unlikely |      300|       20\tkfree()@:mm/slab.c@3380\n"
	" likely   |       90|        1\tmain_loop()@:a.c@7\n";

/* w and m: the live view's --wrong-only and --min-total. */
static void wrong_only_and_min_total(void **state)
{
	struct lt_ui ui;

	(void)state;
	lt_ui_init(&ui, KATTR_PROFILE_SORT_INCORRECT, false);
	assert_true(lt_ui_key(&ui, 'w') & LT_REDO_SORT);
	assert_true(ui.wrong_only);
	lt_ui_key(&ui, 'w');
	assert_false(ui.wrong_only);
	lt_ui_key(&ui, 'm');
	assert_true(ui.edit.on && ui.edit.what == LT_EDIT_MIN);
	lt_ui_key(&ui, '5');
	lt_ui_key(&ui, '0');
	assert_true(lt_ui_key(&ui, TUI_KEY_ENTER) & LT_REDO_SORT);
	assert_int_equal(ui.min_total, 50);
	lt_ui_key(&ui, 'm');
	lt_ui_key(&ui, 'x');
	lt_ui_key(&ui, TUI_KEY_ENTER);
	assert_non_null(ui.note);
	assert_int_equal(ui.min_total, 50);
	lt_ui_key(&ui, 'm');
	lt_ui_key(&ui, TUI_KEY_ENTER);	/* empty: all sites */
	assert_int_equal(ui.min_total, 0);
}

static void model_zero_and_history(void **state)
{
	struct lt_model m;
	const struct lt_hist *h;

	(void)state;
	lt_model_init(&m);
	assert_int_equal(lt_model_update(&m, strdup(SNAP1), strlen(SNAP1), 10.0, NULL), 0);
	assert_int_equal(lt_model_select(&m, NULL, KATTR_PROFILE_SORT_INCORRECT, false, 0), 0);
	assert_int_equal(m.nrows, 2);
	assert_string_equal(m.rows[0]->function, "kfree");
	assert_false(m.rows[0]->has_rate);
	assert_int_equal(lt_model_zero(&m, 10.0), 0);
	assert_int_equal(m.shown.entries[0].incorrect, 0);
	assert_int_equal(lt_model_update(&m, strdup(SNAP2), strlen(SNAP2), 12.0, NULL), 0);
	lt_model_select(&m, NULL, KATTR_PROFILE_SORT_INCORRECT, false, 0);
	/* counts since z: kfree +200 wrong, main_loop +0 wrong */
	assert_string_equal(m.rows[0]->function, "kfree");
	assert_int_equal(m.rows[0]->incorrect, 200);
	assert_int_equal(m.rows[0]->correct, 10);
	assert_true(m.rows[0]->rate > 99.9 && m.rows[0]->rate < 100.1);
	lt_model_record(&m, 2, NULL);
	h = lt_model_history(&m, m.rows[0]);
	assert_non_null(h);
	assert_int_equal(h->n, 1);
	assert_true(h->rate[0] > 99.9f);
	/* Recording twice for one snapshot adds nothing. */
	lt_model_record(&m, 2, NULL);
	assert_int_equal(h->n, 1);
	/* z again: the totals (kfree's 200 since z are 67521 in all). */
	assert_int_equal(lt_model_unzero(&m), 0);
	assert_null(m.base);
	lt_model_select(&m, NULL, KATTR_PROFILE_SORT_INCORRECT, false, 0);
	assert_true(m.rows[0]->incorrect > 200);
	/* A snapshot that does not parse keeps the previous one. */
	assert_int_equal(lt_model_update(&m, strdup("junk\n"), 5, 13.0, NULL), -ENODATA);
	assert_int_equal(m.shown.n, 2);
	lt_model_free(&m);
}

/* An unchanged source: a site without a rate keeps none ("-", as batch
 * shows it), one with a rate gets 0. */
static void model_unchanged_no_rate(void **state)
{
	struct lt_model m;

	(void)state;
	lt_model_init(&m);
	assert_int_equal(lt_model_update(&m, strdup(SNAP1), strlen(SNAP1), 10.0, NULL), 0);
	lt_model_unchanged(&m, 11.0);
	lt_model_unchanged(&m, 12.0);
	lt_model_select(&m, NULL, KATTR_PROFILE_SORT_INCORRECT, false, 0);
	for (size_t i = 0; i < m.nrows; i++)
		assert_false(m.rows[i]->has_rate);
	assert_int_equal(lt_model_update(&m, strdup(SNAP2), strlen(SNAP2), 13.0, NULL), 0);
	lt_model_select(&m, NULL, KATTR_PROFILE_SORT_INCORRECT, false, 0);
	assert_true(m.rows[0]->has_rate && m.rows[0]->rate > 0);
	assert_true(lt_model_unchanged(&m, 14.0));
	lt_model_select(&m, NULL, KATTR_PROFILE_SORT_INCORRECT, false, 0);
	assert_true(m.rows[0]->has_rate);
	assert_true(m.rows[0]->rate == 0);
	lt_model_free(&m);
}

static void sparkline(void **state)
{
	float v[4] = { 0, 1, 2, 4 };
	char out[64];

	(void)state;
	lt_sparkline(v, 4, false, out);
	assert_string_equal(out, "_-+@");
	lt_sparkline(v, 4, true, out);
	assert_int_equal(strlen(out), 12);
	v[3] = 0;
	v[1] = v[2] = 0;
	lt_sparkline(v, 4, false, out);
	assert_string_equal(out, "____");
}


/* f: the field chooser (top's f) shows and hides columns; freeze is Z. */
static void field_chooser(void **state)
{
	struct lt_ui ui;
	size_t n;

	(void)state;
	lt_ui_init(&ui, KATTR_PROFILE_SORT_INCORRECT, false);
	lt_out_columns_default(&n);
	assert_int_equal(ui.ncols, n);
	assert_true(lt_ui_key(&ui, 'f') & LT_REDO_DRAW);
	assert_int_equal(ui.screen, LT_SCREEN_FIELDS);
	assert_false(ui.frozen);
	/* down to MISS%, hide it */
	for (int i = 0; i < LT_COL_MISS; i++)
		lt_ui_key(&ui, TUI_KEY_DOWN);
	lt_ui_key(&ui, ' ');
	assert_int_equal(ui.ncols, n - 1);
	for (size_t i = 0; i < ui.ncols; i++)
		assert_int_not_equal(ui.cols[i], LT_COL_MISS);
	/* CONSTANT (not a default) shown where the table puts it */
	lt_ui_key(&ui, TUI_KEY_DOWN);
	lt_ui_key(&ui, TUI_KEY_DOWN);
	assert_int_equal(ui.field, LT_COL_CONSTANT);
	lt_ui_key(&ui, ' ');
	assert_int_equal(ui.ncols, n);
	assert_int_equal(ui.cols[4], LT_COL_RATE);
	assert_int_equal(ui.cols[5], LT_COL_CONSTANT);
	assert_int_equal(ui.cols[6], LT_COL_FUNCTION);
	/* q leaves the chooser, not likelytop */
	assert_false(lt_ui_key(&ui, 'q') & LT_REDO_QUIT);
	assert_int_equal(ui.screen, LT_SCREEN_LIST);
	lt_ui_key(&ui, 'f');
	lt_ui_key(&ui, TUI_KEY_ESC);
	assert_int_equal(ui.screen, LT_SCREEN_LIST);
	/* the last column stays */
	ui.ncols = 1;
	ui.cols[0] = LT_COL_FUNCTION;
	lt_ui_key(&ui, 'f');
	ui.field = LT_COL_FUNCTION;
	lt_ui_key(&ui, ' ');
	assert_int_equal(ui.ncols, 1);
	assert_non_null(ui.note);
}

/* Widths of the default columns as the view measures a small profile. */
static void layout_widths(int *wide, int *narrow)
{
	static const int w[LT_COL_COUNT] = { 4, 8, 7, 9, 5, 7, 8, 23, 28, 24, 4 };
	static const int nw[LT_COL_COUNT] = { 4, 8, 7, 9, 5, 7, 8, 12, 14, 14, 4 };

	memcpy(wide, w, sizeof(w));
	memcpy(narrow, nw, sizeof(nw));
}

static bool laid_out(const struct lt_layout *l, enum lt_column_id c)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->id[i] == c)
			return true;
	return false;
}

/* Wide: everything, the location gets the rest.  Narrow: FUNCTION and a
 * location stay, numbers go first, Right reaches every column. */
static void layout_narrow(void **state)
{
	int wide[LT_COL_COUNT], narrow[LT_COL_COUNT];
	enum lt_column_id cols[LT_COL_MAX];
	const enum lt_column_id *d;
	struct lt_layout l;
	size_t n;
	bool seen[LT_COL_COUNT] = { false };

	(void)state;
	layout_widths(wide, narrow);
	d = lt_out_columns_default(&n);
	memcpy(cols, d, n * sizeof(*d));
	lt_layout(&l, cols, n, wide, narrow, 120, 0);
	assert_int_equal(l.n, n);
	assert_int_equal(l.col_steps, 0);
	assert_int_equal(l.x[n - 1] + l.width[n - 1], 4 + 8 + 7 + 9 + 5 + 7 + 23 + 28 + 7);
	/* 80: the function is cut before the location */
	lt_layout(&l, cols, n, wide, narrow, 80, 0);
	assert_int_equal(l.n, n);
	assert_int_equal(l.width[n - 2], 12);
	assert_int_equal(l.width[n - 1], 80 - l.x[n - 1]);
	for (int cols_w = 80; cols_w >= 30; cols_w -= 10) {
		lt_layout(&l, cols, n, wide, narrow, cols_w, 0);
		assert_true(laid_out(&l, LT_COL_FUNCTION));
		assert_true(laid_out(&l, LT_COL_LOCATION));
		assert_true(l.x[l.n - 1] + l.width[l.n - 1] <= cols_w);
		for (size_t i = 0; i < l.n; i++)	/* titles never cut */
			assert_true(l.width[i] >= (int)strlen(lt_out_column_title(l.id[i], false)));
	}
	/* 50 columns: some columns are off; Right brings each */
	lt_layout(&l, cols, n, wide, narrow, 50, 0);
	assert_true(l.hidden > 0);
	assert_true(l.col_steps > 0);
	for (size_t s = 0; s <= l.col_steps; s++) {
		struct lt_layout k;

		lt_layout(&k, cols, n, wide, narrow, 50, s * LT_HSCROLL_STEP);
		for (size_t i = 0; i < k.n; i++)
			seen[k.id[i]] = true;
		assert_int_equal(k.name_from, 0);
	}
	for (size_t i = 0; i < n; i++)
		assert_true(seen[cols[i]]);
	/* past the columns, Right scrolls the names */
	lt_layout(&l, cols, n, wide, narrow, 50, (l.col_steps + 2) * LT_HSCROLL_STEP);
	assert_int_equal(l.name_from, 2 * LT_HSCROLL_STEP);
	assert_int_equal(l.hidden, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(quit_and_unknown),
		cmocka_unit_test(sort_columns),
		cmocka_unit_test(filter_editing),
		cmocka_unit_test(screens_and_freeze),
		cmocka_unit_test(selection),
		cmocka_unit_test(clamp_keeps_the_page_full),
		cmocka_unit_test(clamp_after_the_window_grows),
		cmocka_unit_test(delay_keys),
		cmocka_unit_test(htop_keys),
		cmocka_unit_test(rate_units),
		cmocka_unit_test(model_zero_and_history),
		cmocka_unit_test(wrong_only_and_min_total),
		cmocka_unit_test(sparkline),
		cmocka_unit_test(field_chooser),
		cmocka_unit_test(model_unchanged_no_rate),
		cmocka_unit_test(layout_narrow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
