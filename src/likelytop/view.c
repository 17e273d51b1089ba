// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * likelytop's live view (ncurses).  It only draws the model and turns
 * terminal input into keys for lt_ui_key(); reading is lt_collect()'s.
 * The terminal is restored on every exit path: quit, signals (read from
 * the signalfd, never in a handler) and tool_die() (atexit).
 */
#include "config.h"

#if WITH_NCURSES
#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include "callers_klive.h"
#include "callers_user.h"
#include "keys.h"
#include "layout.h"
#include "likelytop.h"
#include "term.h"
#include "tool.h"

enum { PAIR_HEAD = 1, PAIR_WRONG, PAIR_STATUS };

struct view {
	struct lt_app *app;
	struct lt_ui ui;
	/* The site shown in details (copied: snapshots come and go). */
	char *pin_function, *pin_file;
	unsigned int pin_line;
	enum kattr_profile_hint pin_hint;
};

/* Rows the screen can reach without another sort: what is shown, the
 * selection, and a page of slack.  Beyond, draw_list() sorts them all. */
static size_t rows_needed(const struct view *v)
{
	size_t page = LINES > 0 ? (size_t)LINES : 24;
	size_t end = v->ui.list.top > v->ui.list.sel ? v->ui.list.top : v->ui.list.sel;

	return end + 2 * page;
}

static void select_rows_k(struct view *v, size_t k)
{
	struct lt_app *a = v->app;
	struct kattr_profile_filter f = {
		.substr = v->ui.filter, .min_total = v->ui.min_total,
		.wrong_only = v->ui.wrong_only,
	};

	if (lt_model_select(&a->model, &f, v->ui.sort, v->ui.reverse, k) < 0)
		snprintf(a->status, sizeof(a->status), "out of memory");
	v->ui.list.nrows = a->model.nrows;
	tui_list_clamp(&v->ui.list);
}

static void select_rows(struct view *v)
{
	select_rows_k(v, rows_needed(v));
}

static const struct kattr_profile_entry *pinned(struct view *v)
{
	if (!v->pin_function)
		return NULL;
	return lt_model_find(&v->app->model, v->pin_function, v->pin_file,
			     v->pin_line, v->pin_hint);
}

static void pin(struct view *v)
{
	const struct kattr_profile_entry *e;

	if (v->ui.list.sel >= v->app->model.nrows)
		return;
	if (v->ui.list.sel >= v->app->model.sorted)	/* past the sorted head */
		select_rows_k(v, 0);
	e = v->app->model.rows[v->ui.list.sel];
	free(v->pin_function);
	free(v->pin_file);
	v->pin_function = strdup(e->function);
	v->pin_file = strdup(e->file);
	v->pin_line = e->line;
	v->pin_hint = e->hint;
}

static void collect(struct view *v)
{
	struct lt_app *a = v->app;

	if (a->child_gone)
		return;
	if (lt_collect(a) != 1)
		select_rows(v);
	lt_model_record(&a->model, (size_t)LINES, pinned(v));
}

static void draw_header(struct view *v)
{
	struct lt_app *a = v->app;
	char tbuf[16], line[1024];
	time_t t = time(NULL);
	struct tm tm;
	size_t wrong = a->model.wrong, o;
	const struct lt_shown *p = &a->model.shown;

	localtime_r(&t, &tm);
	strftime(tbuf, sizeof(tbuf), "%H:%M:%S", &tm);
	snprintf(line, sizeof(line), "likelytop - %s - %s (%s)", tbuf, TERM_NAME(a->src.name),
		 kattr_profile_format_name(p->format));
	term_put_words(0, line, " ");
	o = (size_t)snprintf(line, sizeof(line),
		"%zu sites, %zu shown, %zu wrong hint%s | sort: %s%s | every %gs%s%s",
		p->n, a->model.nrows, wrong, wrong == 1 ? "" : "s",
		kattr_profile_sort_name(v->ui.sort),
		v->ui.reverse ? " (reversed)" : "", a->o.delay,
		v->ui.frozen ? " | FROZEN" : "",
		a->model.base ? " | zeroed" : "");
	/* the filters in force (w, m, /), as the options would give them */
	if (v->ui.wrong_only && o < sizeof(line))
		o += (size_t)snprintf(line + o, sizeof(line) - o, " | wrong only");
	if (v->ui.min_total && o < sizeof(line))
		o += (size_t)snprintf(line + o, sizeof(line) - o, " | min total %llu",
				      (unsigned long long)v->ui.min_total);
	if (v->ui.filter[0] && o < sizeof(line))
		snprintf(line + o, sizeof(line) - o, " | filter: %s", v->ui.filter);
	term_put_words(1, line, " ");
	move(2, 0);
	clrtoeol();
	if (!a->status[0] && !a->child_gone && v->ui.sort == KATTR_PROFILE_SORT_RATE &&
	    !v->ui.reverse && a->model.nrows &&
	    (!a->model.rows[0]->has_rate || a->model.rows[0]->rate == 0)) {
		/* the highest rate is none or 0: the order is the tie-break */
		term_put(2, 0, "no rate yet (-): sorted by function and file until the counts move");
	} else if (a->status[0] || a->child_gone) {
		term_hl(PAIR_STATUS, A_BOLD, true);
		term_put(2, 0, "%s", a->status);
		term_hl(PAIR_STATUS, A_BOLD, false);
	}
}

static int max_int(int a, int b)
{
	return a > b ? a : b;
}

/* A count in width columns: whole if it fits, else 1.2M. */
static int count_cols(uint64_t v, int width)
{
	char buf[32];

	lt_fmt_count(buf, sizeof(buf), v, width);
	return (int)strlen(buf);
}

static void rate_text(char *buf, size_t size, const struct kattr_profile_entry *e)
{
	if (e->reset)	/* a counter went down: a restart, no rate */
		snprintf(buf, size, "reset");
	else if (e->has_rate)
		lt_fmt_rate(buf, size, e->rate);
	else
		snprintf(buf, size, "-");
}

/* What the columns of rows [from, to) need: in full (wide) and shortened
 * (narrow); titles are never cut. */
static void measure_rows(struct view *v, size_t from, size_t to, int *wide,
			 int *narrow)
{
	const struct lt_model *m = &v->app->model;
	bool all = m->shown.format == KATTR_PROFILE_FMT_ALL;
	uint64_t mc = 0, mi = 0, mk = 0, ml = 0;
	int fn = 0, file = 0, loc = 0, rate = 0, hint = 0;
	char buf[32];

	for (size_t r = from; r < to && r < m->nrows; r++) {
		const struct kattr_profile_entry *e = m->rows[r];
		int f = term_cols(TERM_NAME(e->file));

		mc = e->correct > mc ? e->correct : mc;
		mi = e->incorrect > mi ? e->incorrect : mi;
		mk = e->has_constant && e->constant > mk ? e->constant : mk;
		ml = e->line > ml ? e->line : ml;
		rate_text(buf, sizeof(buf), e);
		rate = max_int(rate, (int)strlen(buf));
		hint = max_int(hint, (int)strlen(kattr_profile_hint_name(e->hint)));
		fn = max_int(fn, term_cols(TERM_NAME(e->function)));
		file = max_int(file, f);
		loc = max_int(loc, f + 1 + snprintf(buf, sizeof(buf), "%u", e->line));
	}
	for (int c = 0; c < LT_COL_COUNT; c++)
		wide[c] = narrow[c] = (int)strlen(lt_out_column_title((enum lt_column_id)c, all));
#define NEED(c, w, nw) (wide[c] = max_int(wide[c], (w)), narrow[c] = max_int(narrow[c], (nw)))
	NEED(LT_COL_HINT, hint, hint);
	NEED(LT_COL_CORRECT, count_cols(mc, 20), count_cols(mc, 5));
	NEED(LT_COL_INCORRECT, count_cols(mi, 20), count_cols(mi, 5));
	NEED(LT_COL_CONSTANT, count_cols(mk, 20), count_cols(mk, 5));
	NEED(LT_COL_LINE, count_cols(ml, 20), count_cols(ml, 5));
	NEED(LT_COL_MISS, 5, 5);
	NEED(LT_COL_RATE, rate, rate);
	NEED(LT_COL_FUNCTION, fn < LT_FUNCTION_MAX ? fn : LT_FUNCTION_MAX,
	     fn < LT_FUNCTION_MIN ? fn : LT_FUNCTION_MIN);
	NEED(LT_COL_FILE, file, file < LT_LOCATION_MIN ? file : LT_LOCATION_MIN);
	NEED(LT_COL_LOCATION, loc, loc < LT_LOCATION_MIN ? loc : LT_LOCATION_MIN);
#undef NEED
}

/* The column layout for the rows on screen (layout.c). */
static void lay_out(struct view *v, struct lt_layout *l)
{
	int wide[LT_COL_COUNT], narrow[LT_COL_COUNT];
	size_t page = LINES > 5 ? (size_t)LINES - 5 : 1;

	measure_rows(v, v->ui.list.top, v->ui.list.top + page, wide, narrow);
	lt_layout(l, v->ui.cols, v->ui.ncols, wide, narrow, COLS, v->ui.hscroll);
}

/* Column titles, over the layout; the sort column is marked, columns
 * scrolled off either side by '<' and '>' at the edges. */
static void draw_titles(struct view *v, int y, const struct lt_layout *l)
{
	bool all = v->app->model.shown.format == KATTR_PROFILE_FMT_ALL;

	attron(A_REVERSE);
	move(y, 0);
	for (int i = 0; i < COLS; i++)
		mvaddch(y, i, ' ');
	for (size_t i = 0; i < l->n; i++) {
		const char *t = lt_out_column_title(l->id[i], all);
		enum kattr_profile_sort key;
		bool s = lt_column_sort(l->id[i], &key) && key == v->ui.sort;

		if (s)
			attron(A_BOLD | A_UNDERLINE);
		if (lt_out_column_right(l->id[i]))
			term_put(y, l->x[i], "%*s", l->width[i], t);
		else
			term_put(y, l->x[i], "%s", t);
		if (s)
			attroff(A_BOLD | A_UNDERLINE);
	}
	attroff(A_REVERSE);
}

/* One cell of e, as wide as its column, into buf. */
static void cell(struct view *v, char *buf, size_t size,
		 const struct kattr_profile_entry *e, enum lt_column_id c, int width,
		 size_t from)
{
	char tmp[320];
	uint64_t n;

	switch (c) {
	case LT_COL_MARK:
		snprintf(buf, size, "%c", kattr_profile_entry_is_wrong(e) ? '!' : ' ');
		return;
	case LT_COL_HINT:
		snprintf(buf, size, "%s", kattr_profile_hint_name(e->hint));
		return;
	case LT_COL_MISS:
		lt_fmt_pct(tmp, sizeof(tmp), kattr_profile_entry_pct(e));
		break;
	case LT_COL_RATE:
		rate_text(tmp, sizeof(tmp), e);
		break;
	case LT_COL_FUNCTION:
		term_clip(buf, size, TERM_NAME(e->function), from, width);
		return;
	case LT_COL_FILE:
		term_clip(buf, size, TERM_NAME(e->file), from, width);
		return;
	case LT_COL_LOCATION: {
		char loc[TERM_NAME_SIZE + 16];

		snprintf(loc, sizeof(loc), "%s:%u", TERM_NAME(e->file), e->line);
		term_clip(buf, size, loc, from, width);
		return;
	}
	case LT_COL_CONSTANT:
		if (!e->has_constant) {
			snprintf(tmp, sizeof(tmp), "-");
			break;
		}
		/* fall through */
	default:
		n = c == LT_COL_CORRECT ? e->correct : c == LT_COL_INCORRECT ?
		    e->incorrect : c == LT_COL_LINE ? e->line : e->constant;
		lt_fmt_count(tmp, sizeof(tmp), n, width);
	}
	snprintf(buf, size, "%*s", width, tmp);
}

static void draw_row(struct view *v, int y, const struct kattr_profile_entry *e,
		     bool selected, const struct lt_layout *l)
{
	char buf[4 * 512 + 8];
	bool wrong = kattr_profile_entry_is_wrong(e);

	if (selected)
		attron(A_REVERSE);
	if (wrong)
		term_hl(PAIR_WRONG, A_BOLD, true);
	move(y, 0);
	clrtoeol();
	if (selected)	/* the selection bar spans the line */
		for (int i = 0; i < COLS; i++)
			mvaddch(y, i, ' ');
	for (size_t i = 0; i < l->n; i++) {
		int width = l->width[i];

		if (width > 512)
			width = 512;
		cell(v, buf, sizeof(buf), e, l->id[i], width, l->name_from);
		term_put(y, l->x[i], "%s", buf);
	}
	if (wrong)
		term_hl(PAIR_WRONG, A_BOLD, false);
	if (selected)
		attroff(A_REVERSE);
}

static void draw_list(struct view *v)
{
	struct lt_model *m = &v->app->model;
	int y0 = 4, rows = LINES - y0 - 1;
	struct lt_layout l;

	v->ui.list.page = rows > 0 ? (size_t)rows : 1;
	v->ui.list.nrows = m->nrows;
	tui_list_clamp(&v->ui.list);
	if (v->ui.list.top + v->ui.list.page > m->sorted && m->sorted < m->nrows)
		select_rows_k(v, 0);	/* scrolled past the sorted head */
	lay_out(v, &l);
	draw_titles(v, y0 - 1, &l);
	for (int i = 0; i < rows; i++) {
		size_t r = v->ui.list.top + (size_t)i;

		if (r < m->nrows) {
			draw_row(v, y0 + i, m->rows[r], r == v->ui.list.sel, &l);
		} else {
			move(y0 + i, 0);
			clrtoeol();
		}
	}
	if (!m->nrows && rows > 0)
		term_put(y0, 2, v->ui.filter[0] ? "no site matches the filter" :
			 "no site profiled yet");
}

static void draw_help(struct view *v)
{
	(void)v;
	term_put(3, 0, "Keys:");
	clrtoeol();
	for (int i = 0; lt_help_lines[i] && 4 + i < LINES - 1; i++) {
		term_put(4 + i, 2, "%s", lt_help_lines[i]);
		clrtoeol();
	}
}

/* f: every column, shown ones checked, the cursor on ui.field. */
static void draw_fields(struct view *v)
{
	bool all = v->app->model.shown.format == KATTR_PROFILE_FMT_ALL;

	term_put(3, 0, "Columns (as -o): Up Down move, space toggles, f or Esc: back");
	clrtoeol();
	int rows = LINES - 5 > 1 ? LINES - 5 : 1;
	int first = (int)v->ui.field >= rows ? (int)v->ui.field - rows + 1 : 0;

	for (int c = first; c < LT_COL_COUNT && 4 + c - first < LINES - 1; c++) {
		bool on = false;
		int y = 4 + c - first;

		for (size_t i = 0; i < v->ui.ncols; i++)
			on |= v->ui.cols[i] == (enum lt_column_id)c;
		if ((size_t)c == v->ui.field)
			attron(A_REVERSE);
		term_put(y, 0, "%c [%c] %-10s %s", (size_t)c == v->ui.field ? '>' : ' ',
		    on ? 'x' : ' ', lt_out_column_title((enum lt_column_id)c, all),
		    lt_out_column_help((enum lt_column_id)c));
		if ((size_t)c == v->ui.field)
			attroff(A_REVERSE);
		clrtoeol();
	}
}

/* A few lines around file:line under -S DIR, opened beneath DIR. */
static void draw_source(struct view *v, int y, const struct kattr_profile_entry *e)
{
	const char *dir = v->app->o.srcdir, *rel = e->file;
	struct kattr_mount *m;
	char line[512];
	unsigned int n = 0;
	FILE *fp;
	int fd;

	while (*rel == '/')
		rel++;
	if (kattr_dir_open(dir, &m) < 0) {
		term_put(y, 2, "source: cannot open %s", dir);
		return;
	}
	fd = kattr_open(m, rel, O_RDONLY);
	kattr_mount_close(m);
	if (fd < 0) {
		term_put(y, 2, "source: %s not found under %s: %s", TERM_NAME(rel), dir,
			 lt_strerror(fd));
		return;
	}
	fp = fdopen(fd, "r");
	if (!fp) {
		close(fd);
		return;
	}
	term_put(y++, 2, "source (%s/%s):", dir, TERM_NAME(rel));
	while (fgets(line, sizeof(line), fp) && y < LINES - 1) {
		n++;
		line[strcspn(line, "\n")] = '\0';
		if (n + 2 >= e->line && n <= e->line + 2) {
			if (n == e->line)
				attron(A_BOLD);
			term_put(y++, 2, "%c%6u  %.*s", n == e->line ? '>' : ' ',
				 n, COLS > 12 ? COLS - 12 : 0, line);
			if (n == e->line)
				attroff(A_BOLD);
		}
		if (n > e->line + 2)
			break;
	}
	fclose(fp);
}

/* The pinned site left the profile: say so on line y. */
static void draw_gone(struct view *v, int y)
{
	term_put(y, 0, "%s (%s:%u) is no longer in the profile",
	    v->pin_function ? TERM_NAME(v->pin_function) : "?",
	    v->pin_file ? TERM_NAME(v->pin_file) : "?", v->pin_line);
}

static void draw_detail(struct view *v)
{
	const struct kattr_profile_entry *e = pinned(v);
	const struct lt_hist *h;
	char pct[16], spark[3 * LT_HIST_LEN + 1];
	float vals[LT_HIST_LEN];
	int y = 3;

	if (!e) {
		draw_gone(v, y);
		return;
	}
	lt_fmt_pct(pct, sizeof(pct), kattr_profile_entry_pct(e));
	term_put(y++, 0, "%s()  %s:%u", TERM_NAME(e->function), TERM_NAME(e->file), e->line);
	term_put(y++, 2, "hint        %s%s", kattr_profile_hint_name(e->hint),
		 kattr_profile_entry_is_wrong(e) ? "  (wrong more often than right)" : "");
	term_put(y++, 2, "%-11s %llu", e->hint == KATTR_PROFILE_HINT_NONE ?
		 "not taken" : "correct", (unsigned long long)e->correct);
	term_put(y++, 2, "%-11s %llu", e->hint == KATTR_PROFILE_HINT_NONE ?
		 "taken" : "incorrect", (unsigned long long)e->incorrect);
	term_put(y++, 2, "total       %llu",
		 (unsigned long long)kattr_profile_entry_total(e));
	term_put(y++, 2, "%-11s %s", e->hint == KATTR_PROFILE_HINT_NONE ?
		 "taken %" : "miss %", pct);
	if (e->has_constant)
		term_put(y++, 2, "constant    %llu", (unsigned long long)e->constant);
	if (e->reset)
		term_put(y++, 2, "last delta  counters went down (reset): no rate for this refresh");
	else if (e->has_rate)
		term_put(y++, 2, "last delta  +%llu correct, +%llu incorrect, %.1f/s",
			 (unsigned long long)e->d_correct,
			 (unsigned long long)e->d_incorrect, e->rate);
	h = lt_model_history(&v->app->model, e);
	if (h && h->n) {
		for (unsigned int i = 0; i < h->n; i++)
			vals[i] = h->rate[(h->head + LT_HIST_LEN - h->n + i) % LT_HIST_LEN];
		lt_sparkline(vals, h->n, term_utf8(), spark);
		term_put(y++, 2, "rate        %s (last %u refreshes)", spark, h->n);
	} else if (!e->has_rate && !e->reset) {
		term_put(y++, 2, "rate        - (no rate yet: the counts have not changed)");
	} else {
		term_put(y++, 2, "rate        (history starts with the next refresh)");
	}
	y++;
	if (v->app->o.srcdir)
		draw_source(v, y, e);
	else
		term_put(y, 2, "(give -S SRCDIR to see the source line)");
}

/* text's lines from row y down to the status line, and free it. */
static void draw_lines(int y, char *text)
{
	char *p, *nl;

	for (p = text; *p && y < LINES - 1; p = nl ? nl + 1 : p + strlen(p)) {
		nl = strchr(p, '\n');
		term_put(y++, 0, "%.*s", (int)(nl ? nl - p : (long)strlen(p)), p);
	}
	free(text);
}

/* p: the suggested patch of the pinned site, or why there is none. */
static void draw_suggest(struct view *v)
{
	/* (every site's entry: a site's rows are summed) */
	int made = lt_model_entries(&v->app->model);
	const struct kattr_profile_entry *e = made < 0 ? NULL : pinned(v);
	char *text;
	int y = 3;

	if (!e) {
		draw_gone(v, y);
		return;
	}
	term_put(y++, 0, "suggested patch for %s()  %s:%u  (p or Esc: back)",
	    TERM_NAME(e->function), TERM_NAME(e->file), e->line);
	text = lt_suggest_text(v->app, e);
	if (!text) {
		term_put(y, 2, "out of memory");
		return;
	}
	draw_lines(y, text);
}

/*
 * c: where the callers come from.  A user-space program's own counts
 * (PID.callers); else this machine's kernel, the function traced as
 * batch --callers traces it (its tracepoint or a kprobe event; the hint
 * read from -S where given) while the screen is open.  When
 * neither can be had, the status line says why and the list stays.
 */
static void callers_open(struct view *v)
{
	static char why[1100];
	const struct kattr_profile_entry *e;
	struct lt_klive_site ks;

	if (v->ui.screen != LT_SCREEN_CALLERS) {
		lt_klive_stop();
		return;
	}
	e = pinned(v);
	if (v->app->src.kind == LT_SRC_USER || !e || lt_klive_running(e->function))
		return;
	ks.function = e->function;
	ks.file = e->file;
	ks.line = e->line;
	ks.srcdir = v->app->o.srcdir;
	ks.mechanism = v->app->o.mechanism;
	if (lt_klive_start(&ks, why, sizeof(why)) < 0) {
		v->ui.note = why;
		v->ui.screen = LT_SCREEN_LIST;
	}
}

/* c: the callers of the pinned site, read again at each refresh. */
static void draw_callers(struct view *v)
{
	const struct kattr_profile_entry *e = pinned(v);
	char path[PATH_MAX], *text;
	int y = 3;

	if (!e) {
		draw_gone(v, y);
		return;
	}
	term_put(y++, 0, "callers of %s()  %s:%u  (c or Esc: back)",
	    TERM_NAME(e->function), TERM_NAME(e->file), e->line);
	y++;
	if (v->app->src.kind == LT_SRC_USER) {
		snprintf(path, sizeof(path), "%s.callers", v->app->src.path);
		text = lt_ucallers_site_text(path, e->function, e->file, e->line);
	} else {
		text = lt_klive_text();
	}
	if (!text) {
		term_put(y, 2, "out of memory");
		return;
	}
	draw_lines(y, text);
}

static void draw(struct view *v)
{
	erase();
	draw_header(v);
	switch (v->ui.screen) {
	case LT_SCREEN_HELP:
		draw_help(v);
		break;
	case LT_SCREEN_DETAIL:
		draw_detail(v);
		break;
	case LT_SCREEN_SUGGEST:
		draw_suggest(v);
		break;
	case LT_SCREEN_FIELDS:
		draw_fields(v);
		break;
	case LT_SCREEN_CALLERS:
		draw_callers(v);
		break;
	default:
		draw_list(v);
	}
	if (v->ui.edit.on && v->ui.edit.what == LT_EDIT_MIN)
		term_put(LINES - 1, 0, "minimum total (now %llu, 0: all): %s",
		    (unsigned long long)v->ui.min_total, v->ui.edit.text);
	else if (v->ui.edit.on && v->ui.edit.what == LT_EDIT_DELAY)
		term_put(LINES - 1, 0, "delay in seconds (now %g): %s", v->app->o.delay,
		    v->ui.edit.text);
	else if (v->ui.edit.on)
		term_put(LINES - 1, 0, "filter (function or file): %s", v->ui.edit.text);
	else if (v->ui.note)
		term_put(LINES - 1, 0, "%s", v->ui.note);
	else {
		char keys[] = "q quit  h help  f fields  < > sort  R reverse  / filter  w wrong  m min  d delay  Z freeze  z zero  Enter  p  c";

		term_put_words(LINES - 1, keys, "  ");
	}
	clrtoeol();
	refresh();
}

static unsigned int apply(struct view *v, unsigned int redo)
{
	struct lt_app *a = v->app;

	if (redo & LT_REDO_RESIZE) {
		term_resize();
		clear();
	}
	if (redo & LT_REDO_ZERO) {
		/* a toggle: counts since now, then the totals again */
		if (a->model.base)
			lt_model_unzero(&a->model);
		else
			lt_model_zero(&a->model, lt_now());
		redo |= LT_REDO_SORT;
	}
	if (redo & LT_REDO_COLLECT) {
		collect(v);
		lt_arm_timer(a);
	} else if (redo & LT_REDO_SORT) {
		select_rows(v);
	}
	if (redo & LT_REDO_DELAY) {
		a->o.delay = v->ui.delay;
		lt_arm_timer(a);
	}
	if (redo & LT_REDO_PIN)
		pin(v);
	callers_open(v);
	if (redo & (LT_REDO_DRAW | LT_REDO_COLLECT | LT_REDO_SORT))
		draw(v);
	return redo;
}

/* A signal from the loop's signalfd: true to quit. */
static bool on_signal(void *ctx, const struct signalfd_siginfo *si)
{
	struct view *v = ctx;
	struct lt_app *a = v->app;

	switch (si->ssi_signo) {
	case SIGWINCH:
		apply(v, LT_REDO_RESIZE | LT_REDO_DRAW);
		return false;
	case SIGCHLD:
		if (lt_source_child_done(&a->src) && !a->child_gone) {
			collect(v);
			a->child_gone = true;
			snprintf(a->status, sizeof(a->status),
				 "%s exited: final snapshot (q to quit)",
				 TERM_NAME(a->o.exec_argv[0]));
			draw(v);
		}
		return false;
	default:
		return true;
	}
}

/* The refresh timer. */
static bool on_tick(void *ctx)
{
	struct view *v = ctx;

	if (!v->ui.frozen && !v->app->child_gone) {
		collect(v);
		draw(v);
	}
	return false;
}

static bool on_key(void *ctx, int key)
{
	struct view *v = ctx;

	return apply(v, lt_ui_key(&v->ui, key)) & LT_REDO_QUIT;
}

int lt_view_run(struct lt_app *a)
{
	static const short fg[] = {
		[PAIR_HEAD - 1] = COLOR_CYAN, [PAIR_WRONG - 1] = COLOR_RED,
		[PAIR_STATUS - 1] = COLOR_YELLOW,
	};
	struct view v = { .app = a };
	struct term_loop loop = {
		.tfd = a->tfd, .sfd = a->sfd, .ctx = &v,
		.tick = on_tick, .signal = on_signal, .key = on_key,
	};
	int ret;

	/* snapshots in compact sites, entries made for the rows drawn */
	a->model.lazy = true;

	lt_ui_init(&v.ui, a->o.sort, a->o.reverse);
	v.ui.delay = a->o.delay;
	v.ui.wrong_only = a->o.wrong_only;
	v.ui.min_total = a->o.min_total;
	if (a->o.filter)
		snprintf(v.ui.filter, sizeof(v.ui.filter), "%s", a->o.filter);
	if (a->o.ncols) {	/* -o, --output-all: the f key starts there */
		memcpy(v.ui.cols, a->o.cols, a->o.ncols * sizeof(a->o.cols[0]));
		v.ui.ncols = a->o.ncols;
	}
	term_start(fg, sizeof(fg) / sizeof(fg[0]));
	/* No typeahead check while drawing: ncurses then flushed and polled
	 * stdin every few lines, 100 writes and 10 polls a refresh (strace). */
	typeahead(-1);
	collect(&v);
	draw(&v);
	lt_arm_timer(a);
	ret = term_run(&loop);
	lt_klive_stop();
	term_stop();
	free(v.pin_function);
	free(v.pin_file);
	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot set up the event loop: %s", lt_strerror(-ret));
	return EXIT_OK;
}
#else
#include "likelytop.h"
#include "tool.h"

int lt_view_run(struct lt_app *a)
{
	(void)a;
	tool_warn("the live view needs ncurses, and this build has none (built with WITH_NCURSES=OFF); use -b for batch output");
	return EXIT_FAIL;
}
#endif
