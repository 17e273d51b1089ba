// SPDX-License-Identifier: GPL-2.0-or-later
/* likelytop key bindings: a table of handlers returning what to redo. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"

const enum kattr_profile_sort lt_sort_columns[] = {
	KATTR_PROFILE_SORT_CORRECT, KATTR_PROFILE_SORT_INCORRECT,
	KATTR_PROFILE_SORT_PERCENT, KATTR_PROFILE_SORT_RATE,
	KATTR_PROFILE_SORT_FUNCTION, KATTR_PROFILE_SORT_FILE,
};
const size_t lt_sort_ncolumns = sizeof(lt_sort_columns) / sizeof(lt_sort_columns[0]);

void lt_ui_init(struct lt_ui *ui, enum kattr_profile_sort sort, bool reverse)
{
	const enum lt_column_id *d;

	memset(ui, 0, sizeof(*ui));
	ui->sort = sort;
	ui->reverse = reverse;
	ui->list.page = 1;
	ui->delay = 2;
	d = lt_out_columns_default(&ui->ncols);
	memcpy(ui->cols, d, sizeof(ui->cols[0]) * ui->ncols);
}

bool lt_column_sort(enum lt_column_id c, enum kattr_profile_sort *key)
{
	switch (c) {
	case LT_COL_CORRECT: *key = KATTR_PROFILE_SORT_CORRECT; return true;
	case LT_COL_INCORRECT: *key = KATTR_PROFILE_SORT_INCORRECT; return true;
	case LT_COL_MISS: *key = KATTR_PROFILE_SORT_PERCENT; return true;
	case LT_COL_RATE: *key = KATTR_PROFILE_SORT_RATE; return true;
	case LT_COL_FUNCTION: *key = KATTR_PROFILE_SORT_FUNCTION; return true;
	case LT_COL_LOCATION: case LT_COL_FILE:
		*key = KATTR_PROFILE_SORT_FILE;
		return true;
	default:
		return false;
	}
}

bool lt_parse_delay(const char *s, double *delay)
{
	return tool_parse_seconds(s, LT_DELAY_MIN, LT_DELAY_MAX, delay);
}

static size_t column_of(enum kattr_profile_sort k)
{
	for (size_t i = 0; i < lt_sort_ncolumns; i++)
		if (lt_sort_columns[i] == k)
			return i;
	return 1;	/* total has no column: start from incorrect */
}

static unsigned int k_quit(struct lt_ui *ui, int key)
{
	(void)ui; (void)key;
	return LT_REDO_QUIT;
}

static unsigned int k_sort_left(struct lt_ui *ui, int key)
{
	size_t c = column_of(ui->sort);

	(void)key;
	if (ui->sort != KATTR_PROFILE_SORT_TOTAL && c > 0)
		c--;
	ui->sort = lt_sort_columns[c];
	return LT_REDO_SORT | LT_REDO_DRAW;
}

static unsigned int k_sort_right(struct lt_ui *ui, int key)
{
	size_t c = column_of(ui->sort);

	(void)key;
	if (ui->sort != KATTR_PROFILE_SORT_TOTAL && c + 1 < lt_sort_ncolumns)
		c++;
	ui->sort = lt_sort_columns[c];
	return LT_REDO_SORT | LT_REDO_DRAW;
}

static unsigned int k_reverse(struct lt_ui *ui, int key)
{
	(void)key;
	ui->reverse = !ui->reverse;
	return LT_REDO_SORT | LT_REDO_DRAW;
}

/* w: only the wrong hints (--wrong-only), or all sites again. */
static unsigned int k_wrong_only(struct lt_ui *ui, int key)
{
	(void)key;
	ui->wrong_only = !ui->wrong_only;
	ui->list.sel = ui->list.top = 0;
	return LT_REDO_SORT | LT_REDO_DRAW;
}

/* m: type a minimum total (--min-total; 0 or empty: none). */
static unsigned int k_min_total(struct lt_ui *ui, int key)
{
	(void)key;
	tui_edit_start(&ui->edit, LT_EDIT_MIN, NULL);
	return LT_REDO_DRAW;
}

static unsigned int k_filter(struct lt_ui *ui, int key)
{
	(void)key;
	tui_edit_start(&ui->edit, LT_EDIT_FILTER, ui->filter);
	return LT_REDO_DRAW;
}

/* d, s (as in top): type a new delay. */
static unsigned int k_delay(struct lt_ui *ui, int key)
{
	(void)key;
	tui_edit_start(&ui->edit, LT_EDIT_DELAY, NULL);
	return LT_REDO_DRAW;
}

/* f: the field chooser (as top's f), or back from it. */
static unsigned int k_fields(struct lt_ui *ui, int key)
{
	(void)key;
	ui->screen = ui->screen == LT_SCREEN_FIELDS ? LT_SCREEN_LIST :
		     LT_SCREEN_FIELDS;
	return LT_REDO_DRAW;
}

/* Space or d on the field chooser: show or hide the field (one stays). */
static void toggle_field(struct lt_ui *ui, enum lt_column_id c)
{
	size_t k = 0, at;

	for (size_t i = 0; i < ui->ncols; i++)
		if (ui->cols[i] != c)
			ui->cols[k++] = ui->cols[i];
	if (k < ui->ncols) {	/* it was shown: hidden now */
		if (k) {
			ui->ncols = k;
		} else {
			ui->note = "at least one column stays";
		}
		return;
	}
	if (ui->ncols >= LT_COL_MAX)
		return;
	/* shown again where the table puts it */
	for (at = 0; at < ui->ncols && ui->cols[at] < c; at++)
		;
	memmove(ui->cols + at + 1, ui->cols + at,
		(ui->ncols - at) * sizeof(ui->cols[0]));
	ui->cols[at] = c;
	ui->ncols++;
}

static unsigned int fields_key(struct lt_ui *ui, int key)
{
	switch (key) {
	case TUI_KEY_UP: case 'k':
		if (ui->field)
			ui->field--;
		return LT_REDO_DRAW;
	case TUI_KEY_DOWN: case 'j':
		if (ui->field + 1 < LT_COL_COUNT)
			ui->field++;
		return LT_REDO_DRAW;
	case ' ': case 'd': case TUI_KEY_ENTER: case '\n': case '\r':
		toggle_field(ui, (enum lt_column_id)ui->field);
		return LT_REDO_DRAW;
	case 'f': case 'F': case 'q': case TUI_KEY_ESC: case TUI_KEY_F10:
		ui->screen = LT_SCREEN_LIST;
		return LT_REDO_DRAW;
	case 'h': case '?': case TUI_KEY_F1:
		ui->screen = LT_SCREEN_HELP;
		return LT_REDO_DRAW;
	case TUI_KEY_RESIZE:
		return LT_REDO_RESIZE | LT_REDO_DRAW;
	}
	return LT_REDO_NONE;
}

/* Left, Right: scroll the columns that do not fit, then the names. */
static unsigned int k_hscroll(struct lt_ui *ui, int key)
{
	if (key == TUI_KEY_RIGHT)
		ui->hscroll += LT_HSCROLL_STEP;
	else if (ui->hscroll == 0)
		return LT_REDO_NONE;
	else
		ui->hscroll = ui->hscroll > LT_HSCROLL_STEP ?
			      ui->hscroll - LT_HSCROLL_STEP : 0;
	return LT_REDO_DRAW;
}

static unsigned int k_freeze(struct lt_ui *ui, int key)
{
	(void)key;
	ui->frozen = !ui->frozen;
	return LT_REDO_DRAW;
}

static unsigned int k_zero(struct lt_ui *ui, int key)
{
	(void)ui; (void)key;
	return LT_REDO_ZERO | LT_REDO_SORT | LT_REDO_DRAW;
}

static unsigned int k_refresh(struct lt_ui *ui, int key)
{
	(void)ui; (void)key;
	return LT_REDO_COLLECT | LT_REDO_SORT | LT_REDO_DRAW;
}

static unsigned int k_help(struct lt_ui *ui, int key)
{
	(void)key;
	ui->screen = ui->screen == LT_SCREEN_HELP ? LT_SCREEN_LIST : LT_SCREEN_HELP;
	return LT_REDO_DRAW;
}

/* A screen about the selected site (it gets pinned), or back from it. */
static unsigned int site_screen(struct lt_ui *ui, enum lt_screen screen)
{
	if (ui->screen == screen) {
		ui->screen = LT_SCREEN_LIST;
		return LT_REDO_DRAW;
	}
	if (!ui->list.nrows)
		return LT_REDO_NONE;
	ui->screen = screen;
	return LT_REDO_PIN | LT_REDO_DRAW;
}

static unsigned int k_detail(struct lt_ui *ui, int key)
{
	(void)key;
	return site_screen(ui, LT_SCREEN_DETAIL);
}

/* p: the patch likelytop suggests for the selected site (suggest.c). */
static unsigned int k_suggest(struct lt_ui *ui, int key)
{
	(void)key;
	return site_screen(ui, LT_SCREEN_SUGGEST);
}

/* c: the callers of the selected site's function (view.c says where
 * there are none to be had). */
static unsigned int k_callers(struct lt_ui *ui, int key)
{
	(void)key;
	return site_screen(ui, LT_SCREEN_CALLERS);
}

static unsigned int k_back(struct lt_ui *ui, int key)
{
	(void)key;
	if (ui->screen == LT_SCREEN_LIST && !ui->filter[0])
		return LT_REDO_NONE;
	if (ui->screen == LT_SCREEN_LIST) {	/* Esc clears the filter */
		ui->filter[0] = '\0';
		return LT_REDO_SORT | LT_REDO_DRAW;
	}
	ui->screen = LT_SCREEN_LIST;
	return LT_REDO_DRAW;
}

static unsigned int k_move(struct lt_ui *ui, int key)
{
	tui_list_move(&ui->list, key);
	return LT_REDO_DRAW;
}

static unsigned int k_resize(struct lt_ui *ui, int key)
{
	(void)ui; (void)key;
	return LT_REDO_RESIZE | LT_REDO_DRAW;
}

struct lt_binding {
	int key;
	unsigned int (*fn)(struct lt_ui *ui, int key);
};

static const struct lt_binding bindings[] = {
	{ 'q', k_quit }, { '<', k_sort_left }, { '>', k_sort_right },
	{ 'R', k_reverse }, { 'I', k_reverse }, { '/', k_filter },
	{ 'f', k_fields }, { 'F', k_fields }, { 'Z', k_freeze },
	{ 'z', k_zero },
	{ ' ', k_refresh }, { 'h', k_help }, { '?', k_help },
	{ TUI_KEY_ENTER, k_detail }, { '\n', k_detail }, { '\r', k_detail },
	{ TUI_KEY_ESC, k_back }, { TUI_KEY_UP, k_move }, { TUI_KEY_DOWN, k_move },
	{ 'k', k_move }, { 'j', k_move }, { TUI_KEY_PGUP, k_move },
	{ TUI_KEY_PGDN, k_move }, { TUI_KEY_HOME, k_move }, { TUI_KEY_END, k_move },
	{ 'g', k_move }, { 'G', k_move }, { TUI_KEY_RESIZE, k_resize },
	{ 'd', k_delay }, { 's', k_delay }, { TUI_KEY_LEFT, k_hscroll },
	{ TUI_KEY_RIGHT, k_hscroll }, { TUI_KEY_F1, k_help }, { TUI_KEY_F3, k_filter },
	{ TUI_KEY_F6, k_sort_right }, { TUI_KEY_F10, k_quit }, { 'p', k_suggest },
	{ 'w', k_wrong_only }, { 'm', k_min_total }, { 'c', k_callers },
};

const char *const lt_help_lines[] = {
	"q F10      quit",
	"< > F6     sort by the column left / right of the current one",
	"R I        reverse the sort order",
	"/ F3       filter: sites whose function or file contains the text",
	"           (Enter applies, Esc cancels, an empty filter shows all)",
	"Esc        clear the filter; leave help or details",
	"Z          freeze / thaw the display (no reading; htop's Z)",
	"f F        choose the columns (as -o; top's f): Up Down move,",
	"           space toggles, f or Esc goes back",
	"d s        change the delay between refreshes (0.05 to 86400 s)",
	"Left Right scroll sideways: the columns that do not fit, then names",
	"z          zero: show counts since now (the kernel cannot reset);",
	"           z again shows the totals",
	"w          only the sites whose hint is wrong (--wrong-only), or all",
	"m          only sites evaluated at least N times (--min-total; 0: all)",
	"space      refresh now",
	"Enter      details of the selected site (Enter or Esc to go back)",
	"p          the patch suggested for the selected site (-S SRCDIR)",
	"c          callers of the selected site, with how often each went",
	"           against the hint, live: a program built with",
	"           -DLIKELY_PROF_CALLERS (-p), or this kernel's function",
	"           (its tracepoint or a kprobe, the hint from -S; traced",
	"           while shown); else the status line says why (c or Esc",
	"           to go back)",
	"Up Down PgUp PgDn Home End (j k g G)   move the selection",
	"h ? F1     this help (any key leaves it)",
	NULL,
};

/* Enter after m: a count (empty: 0, none). */
static unsigned int min_total_typed(struct lt_ui *ui)
{
	const char *t = ui->edit.text;
	char *end;
	unsigned long long v;

	errno = 0;
	v = t[0] ? strtoull(t, &end, 10) : 0;
	if (t[0] && (errno || *end || t[0] < '0' || t[0] > '9')) {
		ui->note = "invalid minimum total: give a count of evaluations";
		return LT_REDO_DRAW;
	}
	ui->note = NULL;
	ui->min_total = v;
	ui->list.sel = ui->list.top = 0;
	return LT_REDO_SORT | LT_REDO_DRAW;
}

/* Enter: the line typed takes effect. */
static unsigned int typed(struct lt_ui *ui)
{
	switch (ui->edit.what) {
	case LT_EDIT_MIN:
		return min_total_typed(ui);
	case LT_EDIT_DELAY:
		if (!lt_parse_delay(ui->edit.text, &ui->delay)) {
			ui->note = "invalid delay: give seconds between 0.05 and 86400";
			return LT_REDO_DRAW;
		}
		ui->note = NULL;
		return LT_REDO_DELAY | LT_REDO_DRAW;
	default:
		strcpy(ui->filter, ui->edit.text);
		ui->list.sel = ui->list.top = 0;
		return LT_REDO_SORT | LT_REDO_DRAW;
	}
}

/* Typing a line: printable bytes, Backspace, Enter applies, Esc cancels. */
static unsigned int edit_key(struct lt_ui *ui, int key)
{
	switch (tui_edit_key(&ui->edit, key)) {
	case TUI_EDIT_DONE:
		return typed(ui);
	case TUI_EDIT_CANCEL: case TUI_EDIT_CHANGED:
		return LT_REDO_DRAW;
	case TUI_EDIT_RESIZE:
		return k_resize(ui, key);
	default:
		return LT_REDO_NONE;
	}
}

unsigned int lt_ui_key(struct lt_ui *ui, int key)
{
	if (ui->edit.on)
		return edit_key(ui, key);
	ui->note = NULL;	/* shown until the next key */
	if (ui->screen == LT_SCREEN_FIELDS)
		return fields_key(ui, key);
	if (ui->screen == LT_SCREEN_HELP && key != 'q' && key != TUI_KEY_F10 &&
	    key != TUI_KEY_RESIZE) {
		ui->screen = LT_SCREEN_LIST;
		return LT_REDO_DRAW;
	}
	for (size_t i = 0; i < sizeof(bindings) / sizeof(bindings[0]); i++)
		if (bindings[i].key == key)
			return bindings[i].fn(ui, key);
	return LT_REDO_NONE;
}
