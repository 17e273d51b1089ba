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
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include "layout.h"
#include "likelytop.h"
#include "esc.h"
#include "tool.h"

enum { PAIR_HEAD = 1, PAIR_WRONG, PAIR_STATUS };

struct view {
	struct lt_app *app;
	struct lt_ui ui;
	bool color;
	bool utf8;
	/* The site shown in details (copied: snapshots come and go). */
	char *pin_function, *pin_file;
	unsigned int pin_line;
	enum kattr_prof_hint pin_hint;
};

static bool curses_on;
static bool screen_utf8;	/* the locale's codeset is UTF-8 */

/* A name (function, file) as every output shows it: invalid UTF-8,
 * control bytes and backslashes as \xNN (tool_esc()), every byte >= 0x80
 * too outside a UTF-8 locale; a long one cut with "...". */
#define NAME_SIZE TOOL_ESC_SIZE(320)
#define NAME(s) tool_esc_to((char[NAME_SIZE]){ 0 }, NAME_SIZE, (s), \
			    screen_utf8 ? 0 : TOOL_ESC_ASCII)

/*
 * The next character of s as the screen may show it: *len bytes of s
 * make it, *out (*outlen bytes) is what to draw, and the result is its
 * columns.  Names reach it already escaped (NAME() below: the escapes of
 * the batch formats); for any other text (a source line) invalid UTF-8
 * becomes U+FFFD, and so do control characters (C0, DEL, C1), which the
 * terminal would obey or ncurses draw as ^X; outside a UTF-8 locale,
 * anything but printable ASCII is '?'.
 */
static int screen_char(const char *s, size_t *len, const char **out,
		       size_t *outlen)
{
	const char *bad = screen_utf8 ? "\xef\xbf\xbd" : "?";
	size_t n = tool_utf8_seq(s);
	unsigned char c = (unsigned char)s[0];
	wchar_t wc;
	int w = 1;

	*len = n ? n : 1;
	*out = s;
	*outlen = n;
	if (n == 1 && c >= 0x20 && c != 0x7f)
		return 1;
	if (n > 1 && screen_utf8 && !(c == 0xc2 && (unsigned char)s[1] < 0xa0)) {
		mbstate_t st = { 0 };

		if (mbrtowc(&wc, s, n, &st) == n) {
			w = wcwidth(wc);
			if (w >= 0)
				return w;	/* 0: a combining mark */
		}
	}
	*out = bad;
	*outlen = strlen(bad);
	return 1;
}

/*
 * s as the screen may show it (screen_char()), from column x to the
 * screen's edge, into buf; a tab (source lines have them) becomes the
 * spaces to the next tab stop.
 */
static void screen_str(char *buf, size_t size, const char *s, int x)
{
	size_t w = 0, len, outlen;
	const char *out;

	while (*s) {
		if (*s == '\t') {
			out = "        ";
			outlen = (size_t)(8 - x % 8);
			len = 1;
			x += (int)outlen;
		} else {
			x += screen_char(s, &len, &out, &outlen);
		}
		if (x > COLS || w + outlen + 1 > size)
			break;
		memcpy(buf + w, out, outlen);
		w += outlen;
		s += len;
	}
	buf[w] = '\0';
}

/* mvprintw clipped to the screen width: long names never wrap, and
 * nothing but printable characters reaches the terminal. */
__attribute__((format(printf, 3, 4)))
static void put(int y, int x, const char *fmt, ...)
{
	char buf[1024], shown[8 * sizeof(buf)];
	va_list ap;

	if (y < 0 || y >= LINES || x >= COLS)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	screen_str(shown, sizeof(shown), buf, x);
	mvaddnstr(y, x, shown, -1);
}

static void restore_terminal(void)
{
	if (curses_on) {
		curses_on = false;
		endwin();
	}
}

static int translate(int ch)
{
	switch (ch) {
	case KEY_UP: return LT_KEY_UP;
	case KEY_DOWN: return LT_KEY_DOWN;
	case KEY_PPAGE: return LT_KEY_PGUP;
	case KEY_NPAGE: return LT_KEY_PGDN;
	case KEY_HOME: return LT_KEY_HOME;
	case KEY_END: return LT_KEY_END;
	case KEY_BACKSPACE: return LT_KEY_BACKSPACE;
	case KEY_LEFT: return LT_KEY_LEFT;
	case KEY_RIGHT: return LT_KEY_RIGHT;
	case KEY_F(1): return LT_KEY_F1;
	case KEY_F(3): return LT_KEY_F3;
	case KEY_F(6): return LT_KEY_F6;
	case KEY_F(10): return LT_KEY_F10;
	case KEY_ENTER: case '\n': case '\r': return LT_KEY_ENTER;
	case 27: return LT_KEY_ESC;
	/* resizeterm() queues KEY_RESIZE; SIGWINCH already did the work */
	case KEY_RESIZE: return -1;
	default: return ch;
	}
}

/* Rows the screen can reach without another sort: what is shown, the
 * selection, and a page of slack.  Beyond, draw_list() sorts them all. */
static size_t rows_needed(const struct view *v)
{
	size_t page = LINES > 0 ? (size_t)LINES : 24;
	size_t end = v->ui.top > v->ui.sel ? v->ui.top : v->ui.sel;

	return end + 2 * page;
}

static void select_rows_k(struct view *v, size_t k)
{
	struct lt_app *a = v->app;
	struct kattr_prof_filter f = {
		.substr = v->ui.filter, .min_total = v->ui.min_total,
		.wrong_only = v->ui.wrong_only,
	};

	if (lt_model_select(&a->model, &f, v->ui.sort, v->ui.reverse, k) < 0)
		snprintf(a->status, sizeof(a->status), "out of memory");
	v->ui.nrows = a->model.nrows;
	lt_ui_clamp(&v->ui);
}

static void select_rows(struct view *v)
{
	select_rows_k(v, rows_needed(v));
}

static const struct kattr_prof_entry *pinned(struct view *v)
{
	if (!v->pin_function)
		return NULL;
	return lt_model_find(&v->app->model, v->pin_function, v->pin_file,
			     v->pin_line, v->pin_hint);
}

static void pin(struct view *v)
{
	const struct kattr_prof_entry *e;

	if (v->ui.sel >= v->app->model.nrows)
		return;
	e = v->app->model.rows[v->ui.sel];
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

static void hl_on(struct view *v, int pair, attr_t mono)
{
	if (v->color)
		attron(COLOR_PAIR(pair));
	else
		attron(mono);
}

static void hl_off(struct view *v, int pair, attr_t mono)
{
	if (v->color)
		attroff(COLOR_PAIR(pair));
	else
		attroff(mono);
}

/* Display columns of name as the screen shows it (screen_char()). */
static int name_cols(const char *name)
{
	const char *out;
	size_t len, outlen;
	int w = 0;

	for (; *name; name += len)
		w += screen_char(name, &len, &out, &outlen);
	return w;
}

/* A header line too wide for the screen loses whole words at its end
 * (and the separator before them), never half of one; sep is what
 * separates them (the key line: two blanks). */
static void put_words(int y, char *line, const char *sep)
{
	while (name_cols(line) > COLS) {
		char *sp = NULL;

		for (char *q = strstr(line, sep); q; q = strstr(q + 1, sep))
			sp = q;
		if (!sp)
			break;
		while (sp > line && strchr(" |-,", sp[-1]))
			sp--;
		*sp = '\0';
	}
	put(y, 0, "%s", line);
	clrtoeol();
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
	snprintf(line, sizeof(line), "likelytop - %s - %s (%s)", tbuf, a->src.name,
		 kattr_prof_format_name(p->format));
	put_words(0, line, " ");
	o = (size_t)snprintf(line, sizeof(line),
		"%zu sites, %zu shown, %zu wrong hint%s | sort: %s%s | every %gs%s%s",
		p->n, a->model.nrows, wrong, wrong == 1 ? "" : "s",
		kattr_prof_sort_name(v->ui.sort),
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
	put_words(1, line, " ");
	move(2, 0);
	clrtoeol();
	if (!a->status[0] && !a->child_gone && v->ui.sort == KATTR_PROF_SORT_RATE &&
	    !v->ui.reverse && a->model.nrows &&
	    (!a->model.rows[0]->has_rate || a->model.rows[0]->rate == 0)) {
		/* the highest rate is none or 0: the order is the tie-break */
		put(2, 0, "no rate yet (-): sorted by function and file until the counts move");
	} else if (a->status[0] || a->child_gone) {
		hl_on(v, PAIR_STATUS, A_BOLD);
		put(2, 0, "%s", a->status);
		hl_off(v, PAIR_STATUS, A_BOLD);
	}
}

/*
 * name from character `from` (the horizontal scroll) in at most width
 * columns, as the screen may show it (screen_char()): a name cut on either
 * side is marked there with an ellipsis ("..." is one column in UTF-8,
 * '~' otherwise).  Returns the columns used.
 */
static int clip_name(char *buf, size_t size, const char *name, size_t from,
		     int width, bool utf8)
{
	const char *mark = utf8 ? "\xe2\x80\xa6" : "~", *out;
	size_t nchars = 0, w = 0, len, outlen;
	int cols = 0, total = 0;

	buf[0] = '\0';
	if (width < 2 || size < 4 * (size_t)width + 8)
		return 0;
	for (const char *p = name; *p; p += len, nchars++)
		total += screen_char(p, &len, &out, &outlen);
	if (from >= nchars)
		from = nchars ? nchars - 1 : 0;
	for (size_t i = 0; i < from; i++, name += len)
		total -= screen_char(name, &len, &out, &outlen);
	if (from) {
		w = (size_t)sprintf(buf, "%s", mark);
		cols = 1;
	}
	while (*name) {
		int c = screen_char(name, &len, &out, &outlen);

		/* the last column is the mark's when more follows */
		if (cols + c > width || (cols + total > width && cols + c > width - 1)) {
			w += (size_t)sprintf(buf + w, "%s", mark);
			return cols + 1;
		}
		memcpy(buf + w, out, outlen);
		w += outlen;
		buf[w] = '\0';
		cols += c;
		total -= c;
		name += len;
	}
	return cols;
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

static void rate_text(char *buf, size_t size, const struct kattr_prof_entry *e)
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
	bool all = m->shown.format == KATTR_PROF_FMT_ALL;
	uint64_t mc = 0, mi = 0, mk = 0, ml = 0;
	int fn = 0, file = 0, loc = 0, rate = 0, hint = 0;
	char buf[32];

	for (size_t r = from; r < to && r < m->nrows; r++) {
		const struct kattr_prof_entry *e = m->rows[r];
		int f = name_cols(NAME(e->file));

		mc = e->correct > mc ? e->correct : mc;
		mi = e->incorrect > mi ? e->incorrect : mi;
		mk = e->has_constant && e->constant > mk ? e->constant : mk;
		ml = e->line > ml ? e->line : ml;
		rate_text(buf, sizeof(buf), e);
		rate = max_int(rate, (int)strlen(buf));
		hint = max_int(hint, (int)strlen(kattr_prof_hint_name(e->hint)));
		fn = max_int(fn, name_cols(NAME(e->function)));
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

	measure_rows(v, v->ui.top, v->ui.top + page, wide, narrow);
	lt_layout(l, v->ui.cols, v->ui.ncols, wide, narrow, COLS, v->ui.hscroll);
}

/* Column titles, over the layout; the sort column is marked, columns
 * scrolled off either side by '<' and '>' at the edges. */
static void draw_titles(struct view *v, int y, const struct lt_layout *l)
{
	bool all = v->app->model.shown.format == KATTR_PROF_FMT_ALL;

	attron(A_REVERSE);
	move(y, 0);
	for (int i = 0; i < COLS; i++)
		mvaddch(y, i, ' ');
	for (size_t i = 0; i < l->n; i++) {
		const char *t = lt_out_column_title(l->id[i], all);
		enum kattr_prof_sort key;
		bool s = lt_column_sort(l->id[i], &key) && key == v->ui.sort;

		if (s)
			attron(A_BOLD | A_UNDERLINE);
		if (lt_out_column_right(l->id[i]))
			put(y, l->x[i], "%*s", l->width[i], t);
		else
			put(y, l->x[i], "%s", t);
		if (s)
			attroff(A_BOLD | A_UNDERLINE);
	}
	attroff(A_REVERSE);
}

/* One cell of e, as wide as its column, into buf. */
static void cell(struct view *v, char *buf, size_t size,
		 const struct kattr_prof_entry *e, enum lt_column_id c, int width,
		 size_t from)
{
	char tmp[320];
	uint64_t n;

	switch (c) {
	case LT_COL_MARK:
		snprintf(buf, size, "%c", kattr_prof_entry_is_wrong(e) ? '!' : ' ');
		return;
	case LT_COL_HINT:
		snprintf(buf, size, "%s", kattr_prof_hint_name(e->hint));
		return;
	case LT_COL_MISS:
		lt_fmt_pct(tmp, sizeof(tmp), kattr_prof_entry_pct(e));
		break;
	case LT_COL_RATE:
		rate_text(tmp, sizeof(tmp), e);
		break;
	case LT_COL_FUNCTION:
		clip_name(buf, size, NAME(e->function), from, width, v->utf8);
		return;
	case LT_COL_FILE:
		clip_name(buf, size, NAME(e->file), from, width, v->utf8);
		return;
	case LT_COL_LOCATION: {
		char loc[NAME_SIZE + 16];

		snprintf(loc, sizeof(loc), "%s:%u", NAME(e->file), e->line);
		clip_name(buf, size, loc, from, width, v->utf8);
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

static void draw_row(struct view *v, int y, const struct kattr_prof_entry *e,
		     bool selected, const struct lt_layout *l)
{
	char buf[4 * 512 + 8];
	bool wrong = kattr_prof_entry_is_wrong(e);

	if (selected)
		attron(A_REVERSE);
	if (wrong)
		hl_on(v, PAIR_WRONG, A_BOLD);
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
		put(y, l->x[i], "%s", buf);
	}
	if (wrong)
		hl_off(v, PAIR_WRONG, A_BOLD);
	if (selected)
		attroff(A_REVERSE);
}

static void draw_list(struct view *v)
{
	struct lt_model *m = &v->app->model;
	int y0 = 4, rows = LINES - y0 - 1;
	struct lt_layout l;

	v->ui.page = rows > 0 ? (size_t)rows : 1;
	v->ui.nrows = m->nrows;
	lt_ui_clamp(&v->ui);
	if (v->ui.top + v->ui.page > m->sorted && m->sorted < m->nrows)
		select_rows_k(v, 0);	/* scrolled past the sorted head */
	lay_out(v, &l);
	draw_titles(v, y0 - 1, &l);
	for (int i = 0; i < rows; i++) {
		size_t r = v->ui.top + (size_t)i;

		if (r < m->nrows) {
			draw_row(v, y0 + i, m->rows[r], r == v->ui.sel, &l);
		} else {
			move(y0 + i, 0);
			clrtoeol();
		}
	}
	if (!m->nrows && rows > 0)
		put(y0, 2, v->ui.filter[0] ? "no site matches the filter" :
			 "no site profiled yet");
}

static void draw_help(struct view *v)
{
	(void)v;
	put(3, 0, "Keys:");
	clrtoeol();
	for (int i = 0; lt_help_lines[i] && 4 + i < LINES - 1; i++) {
		put(4 + i, 2, "%s", lt_help_lines[i]);
		clrtoeol();
	}
}

/* f: every column, shown ones checked, the cursor on ui.field. */
static void draw_fields(struct view *v)
{
	bool all = v->app->model.shown.format == KATTR_PROF_FMT_ALL;

	put(3, 0, "Columns (as -o): Up Down move, space toggles, f or Esc: back");
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
		put(y, 0, "%c [%c] %-10s %s", (size_t)c == v->ui.field ? '>' : ' ',
		    on ? 'x' : ' ', lt_out_column_title((enum lt_column_id)c, all),
		    lt_out_column_help((enum lt_column_id)c));
		if ((size_t)c == v->ui.field)
			attroff(A_REVERSE);
		clrtoeol();
	}
}

/* A few lines around file:line under -S DIR, opened beneath DIR. */
static void draw_source(struct view *v, int y, const struct kattr_prof_entry *e)
{
	const char *dir = v->app->o.srcdir, *rel = e->file;
	struct kattr_mount *m;
	char line[512];
	unsigned int n = 0;
	FILE *fp;
	int fd;

	while (*rel == '/')
		rel++;
	if (kattr_mount_open(dir, 0, KATTR_MOUNT_HOST_DIR, &m) < 0) {
		put(y, 2, "source: cannot open %s", dir);
		return;
	}
	fd = kattr_open(m, rel, O_RDONLY);
	kattr_mount_close(m);
	if (fd < 0) {
		put(y, 2, "source: %s not found under %s: %s", NAME(rel), dir,
			 lt_strerror(fd));
		return;
	}
	fp = fdopen(fd, "r");
	if (!fp) {
		close(fd);
		return;
	}
	put(y++, 2, "source (%s/%s):", dir, NAME(rel));
	while (fgets(line, sizeof(line), fp) && y < LINES - 1) {
		n++;
		line[strcspn(line, "\n")] = '\0';
		if (n + 2 >= e->line && n <= e->line + 2) {
			if (n == e->line)
				attron(A_BOLD);
			put(y++, 2, "%c%6u  %.*s", n == e->line ? '>' : ' ',
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
	put(y, 0, "%s (%s:%u) is no longer in the profile",
	    v->pin_function ? NAME(v->pin_function) : "?",
	    v->pin_file ? NAME(v->pin_file) : "?", v->pin_line);
}

static void draw_detail(struct view *v)
{
	const struct kattr_prof_entry *e = pinned(v);
	const struct lt_hist *h;
	char pct[16], spark[3 * LT_HIST_LEN + 1];
	float vals[LT_HIST_LEN];
	int y = 3;

	if (!e) {
		draw_gone(v, y);
		return;
	}
	lt_fmt_pct(pct, sizeof(pct), kattr_prof_entry_pct(e));
	put(y++, 0, "%s()  %s:%u", NAME(e->function), NAME(e->file), e->line);
	put(y++, 2, "hint        %s%s", kattr_prof_hint_name(e->hint),
		 kattr_prof_entry_is_wrong(e) ? "  (wrong more often than right)" : "");
	put(y++, 2, "%-11s %llu", e->hint == KATTR_PROF_HINT_NONE ?
		 "not taken" : "correct", (unsigned long long)e->correct);
	put(y++, 2, "%-11s %llu", e->hint == KATTR_PROF_HINT_NONE ?
		 "taken" : "incorrect", (unsigned long long)e->incorrect);
	put(y++, 2, "total       %llu",
		 (unsigned long long)kattr_prof_entry_total(e));
	put(y++, 2, "%-11s %s", e->hint == KATTR_PROF_HINT_NONE ?
		 "taken %" : "miss %", pct);
	if (e->has_constant)
		put(y++, 2, "constant    %llu", (unsigned long long)e->constant);
	if (e->reset)
		put(y++, 2, "last delta  counters went down (reset): no rate for this refresh");
	else if (e->has_rate)
		put(y++, 2, "last delta  +%llu correct, +%llu incorrect, %.1f/s",
			 (unsigned long long)e->d_correct,
			 (unsigned long long)e->d_incorrect, e->rate);
	h = lt_model_history(&v->app->model, e);
	if (h && h->n) {
		for (unsigned int i = 0; i < h->n; i++)
			vals[i] = h->rate[(h->head + LT_HIST_LEN - h->n + i) % LT_HIST_LEN];
		lt_sparkline(vals, h->n, v->utf8, spark);
		put(y++, 2, "rate        %s (last %u refreshes)", spark, h->n);
	} else if (!e->has_rate && !e->reset) {
		put(y++, 2, "rate        - (no rate yet: the counts have not changed)");
	} else {
		put(y++, 2, "rate        (history starts with the next refresh)");
	}
	y++;
	if (v->app->o.srcdir)
		draw_source(v, y, e);
	else
		put(y, 2, "(give -S SRCDIR to see the source line)");
}

/* p: the suggested patch of the pinned site, or why there is none. */
static void draw_suggest(struct view *v)
{
	const struct kattr_prof_entry *e = pinned(v);
	char *text, *p, *nl;
	int y = 3;

	if (!e) {
		draw_gone(v, y);
		return;
	}
	put(y++, 0, "suggested patch for %s()  %s:%u  (p or Esc: back)",
	    NAME(e->function), NAME(e->file), e->line);
	text = lt_suggest_text(v->app, e);
	if (!text) {
		put(y, 2, "out of memory");
		return;
	}
	for (p = text; *p && y < LINES - 1; p = nl ? nl + 1 : p + strlen(p)) {
		nl = strchr(p, '\n');
		put(y++, 0, "%.*s", (int)(nl ? nl - p : (long)strlen(p)), p);
	}
	free(text);
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
	default:
		draw_list(v);
	}
	if (v->ui.editing && v->ui.editing_min)
		put(LINES - 1, 0, "minimum total (now %llu, 0: all): %s",
		    (unsigned long long)v->ui.min_total, v->ui.edit);
	else if (v->ui.editing && v->ui.editing_delay)
		put(LINES - 1, 0, "delay in seconds (now %g): %s", v->app->o.delay,
		    v->ui.edit);
	else if (v->ui.editing)
		put(LINES - 1, 0, "filter (function or file): %s", v->ui.edit);
	else if (v->ui.note)
		put(LINES - 1, 0, "%s", v->ui.note);
	else {
		char keys[] = "q quit  h help  f fields  < > sort  R reverse  / filter  w wrong  m min  d delay  Z freeze  z zero  Enter  p";

		put_words(LINES - 1, keys, "  ");
	}
	clrtoeol();
	refresh();
}

static void resize(void)
{
	struct winsize ws;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row && ws.ws_col)
		resizeterm(ws.ws_row, ws.ws_col);
}

static unsigned int apply(struct view *v, unsigned int redo)
{
	struct lt_app *a = v->app;

	if (redo & LT_REDO_RESIZE) {
		resize();
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
	if (redo & (LT_REDO_DRAW | LT_REDO_COLLECT | LT_REDO_SORT))
		draw(v);
	return redo;
}

static bool on_signals(struct view *v)
{
	struct signalfd_siginfo si;
	struct lt_app *a = v->app;
	bool quit = false;

	while (read(a->sfd, &si, sizeof(si)) == sizeof(si)) {
		switch (si.ssi_signo) {
		case SIGWINCH:
			apply(v, LT_REDO_RESIZE | LT_REDO_DRAW);
			break;
		case SIGCHLD:
			if (lt_source_child_done(&a->src) && !a->child_gone) {
				collect(v);
				a->child_gone = true;
				snprintf(a->status, sizeof(a->status),
					 "%s exited: final snapshot (q to quit)",
					 a->o.exec_argv[0]);
				draw(v);
			}
			break;
		default:
			quit = true;
		}
	}
	return quit;
}

static void start_curses(struct view *v)
{
	const char *nc = getenv("NO_COLOR");

	setlocale(LC_ALL, "");
	v->utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8");
	screen_utf8 = v->utf8;
	set_escdelay(25);
	initscr();
	curses_on = true;
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	curs_set(0);
	v->color = has_colors() && !(nc && *nc);
	if (v->color) {
		start_color();
		use_default_colors();
		init_pair(PAIR_HEAD, COLOR_CYAN, -1);
		init_pair(PAIR_WRONG, COLOR_RED, -1);
		init_pair(PAIR_STATUS, COLOR_YELLOW, -1);
	}
}

int lt_view_run(struct lt_app *a)
{
	struct view v = { .app = a };
	struct epoll_event ev;
	int ep;
	bool quit = false;

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
	ep = epoll_create1(EPOLL_CLOEXEC);
	if (ep < 0)
		tool_die(EXIT_FAIL, "cannot set up the event loop: %s", lt_strerror(errno));
	ev.events = EPOLLIN;
	ev.data.fd = a->tfd;
	epoll_ctl(ep, EPOLL_CTL_ADD, a->tfd, &ev);
	ev.data.fd = a->sfd;
	epoll_ctl(ep, EPOLL_CTL_ADD, a->sfd, &ev);
	ev.data.fd = STDIN_FILENO;
	epoll_ctl(ep, EPOLL_CTL_ADD, STDIN_FILENO, &ev);

	atexit(restore_terminal);
	start_curses(&v);
	collect(&v);
	draw(&v);
	lt_arm_timer(a);
	while (!quit) {
		struct epoll_event evs[3];
		int n = epoll_wait(ep, evs, 3, -1);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		for (int i = 0; i < n && !quit; i++) {
			int fd = evs[i].data.fd;

			if (fd == a->tfd) {
				uint64_t ticks;

				if (read(a->tfd, &ticks, sizeof(ticks)) > 0 &&
				    !v.ui.frozen && !a->child_gone) {
					collect(&v);
					draw(&v);
				}
			} else if (fd == a->sfd) {
				quit = on_signals(&v);
			} else {
				int ch;

				if (evs[i].events & (EPOLLHUP | EPOLLERR))
					quit = true;
				while (!quit && (ch = getch()) != ERR)
					if (apply(&v, lt_ui_key(&v.ui, translate(ch))) &
					    LT_REDO_QUIT)
						quit = true;
			}
		}
	}
	restore_terminal();
	close(ep);
	free(v.pin_function);
	free(v.pin_file);
	return EXIT_OK;
}
#endif
