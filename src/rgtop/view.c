// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rgctl top's live view (ncurses through term.h): the groups in tree
 * order or flat, the columns of -o, a details pane for the selected
 * group (every setting as rgctl get shows it, its enforcement counters,
 * its processes with their command lines), help.  Keys are ui.c's; the
 * screen is drawn whole into curses' buffer and refresh() sends only the
 * cells that changed.  The terminal is restored on every way out.
 */
#include "config.h"

#include <stdio.h>

#include "kattr/private_core.h"
#include "rgtop.h"
#include "tool.h"

#if !WITH_NCURSES
int top_live(struct model *m, struct top_opts *o)
{
	(void)m;
	(void)o;
	tool_die(EXIT_FAIL, "the live view needs ncurses: built without it (WITH_NCURSES=OFF); use -b for snapshots");
}
#else
#include <curses.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "kattr/kattr.h"
#include "kattr/rgres.h"
#include "term.h"
#include "ui.h"
#include "xalloc.h"

enum { PAIR_HEAD = 1, PAIR_STATUS, PAIR_OFF };

struct view {
	struct model *m;
	struct top_opts *o;
	struct top_ui ui;
	size_t *ord, nord;
	char *sel_path;		/* the selection follows its group */
	int tfd, sfd;
	unsigned long reads;
	int gone;		/* the watched group went: exit 1 */
};

static void arm(struct view *v)
{
	long long ns = (long long)(v->ui.delay * 1e9);
	struct itimerspec its = {
		.it_value = { (time_t)(ns / 1000000000), (long)(ns % 1000000000) },
	};

	its.it_interval = its.it_value;
	timerfd_settime(v->tfd, 0, &its, NULL);
}

static void reorder(struct view *v)
{
	free(v->ord);
	v->nord = model_order(v->m, v->ui.sort, v->ui.flat, v->ui.filter, &v->ord);
	v->ui.list.nrows = v->nord;
	if (v->sel_path)
		for (size_t i = 0; i < v->nord; i++)
			if (strcmp(v->m->g[v->ord[i]]->path, v->sel_path) == 0)
				v->ui.list.sel = i;
	tui_list_clamp(&v->ui.list);
}

static void remember_sel(struct view *v)
{
	free(v->sel_path);
	v->sel_path = v->ui.list.sel < v->nord ?
		      xstrdup(v->m->g[v->ord[v->ui.list.sel]]->path) : NULL;
}

/* ---- the list ---------------------------------------------------------- */

static void draw_header(struct view *v)
{
	char line[1024], tbuf[16];
	time_t t = time(NULL);
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(tbuf, sizeof(tbuf), "%H:%M:%S", &tm);
	snprintf(line, sizeof(line), "rgctl top - %s - %s %s - %zu groups, %zu shown - every %gs%s",
		 tbuf, v->o->backend, TERM_NAME(v->o->root), v->m->n, v->nord,
		 v->ui.delay, v->ui.paused ? " - PAUSED" : "");
	term_put_words(0, line, " - ");
	snprintf(line, sizeof(line), "sort: %s%s%s%s", rgctl_top_columns[v->ui.sort].name,
		 v->ui.flat ? " (flat)" : " (tree)", v->ui.filter[0] ? " | filter: " : "",
		 v->ui.filter[0] ? TERM_NAME(v->ui.filter) : "");
	term_put(1, 0, "%s", line);
	clrtoeol();
	if (!v->reads) {
		term_hl(PAIR_STATUS, A_BOLD, true);
		term_put(1, COLS > 40 ? COLS - 36 : 0, "rates after the first %gs", v->ui.delay);
		term_hl(PAIR_STATUS, A_BOLD, false);
	}
}

/* The widths of the columns; GROUP takes what is left (at least 12). */
static void widths(const struct view *v, int *w)
{
	int used = 0, gi = -1;

	for (size_t k = 0; k < v->o->ncols; k++) {
		int c = v->o->cols[k];

		w[k] = (int)strlen(rgctl_top_columns[c].name);
		if (c == TC_GROUP) {
			gi = (int)k;
			continue;
		}
		if (w[k] < (int)rgctl_top_columns[c].whint)
			w[k] = (int)rgctl_top_columns[c].whint;
		used += w[k] + 1;
	}
	if (gi >= 0) {
		int need = 5;

		for (size_t i = 0; i < v->nord; i++) {
			const struct tgroup *g = v->m->g[v->ord[i]];
			int c = v->ui.flat || !g->depth ? term_cols(TERM_NAME(g->path)) :
				(int)(2 * g->depth) + term_cols(TERM_NAME(g->name));

			need = c > need ? c : need;
		}
		/* its names first, up to half the screen: the columns past
		 * the right edge are cut (narrow the list with -o) */
		w[gi] = COLS - used - 1;
		if (w[gi] < need)
			w[gi] = need < COLS / 2 ? need : COLS / 2;
		if (w[gi] > need)
			w[gi] = need;
		if (w[gi] < 12)
			w[gi] = 12;
	}
}

static void draw_row(struct view *v, int y, const struct tgroup *g, const int *w)
{
	char cell[64], name[4 * 256 + 8], ind[130];
	int x = 0;

	for (size_t k = 0; k < v->o->ncols && x < COLS; k++) {
		int c = v->o->cols[k];

		if (c == TC_GROUP) {
			int d = v->ui.flat ? 0 : (int)(2 * g->depth);

			d = d > 128 ? 128 : d;
			memset(ind, ' ', (size_t)d);
			ind[d] = '\0';
			term_clip(name, sizeof(name),
				  TERM_NAME(v->ui.flat || !g->depth ? g->path : g->name),
				  0, w[k] - d > 2 ? w[k] - d : 2);
			term_put(y, x, "%s%-*s", ind, w[k] - d, name);
		} else {
			top_cell(g, c, false, cell, sizeof(cell));
			term_put(y, x, "%*s", w[k], cell);
		}
		x += w[k] + 1;
	}
}

static void draw_list(struct view *v)
{
	int w[TC_N * 4], x = 0, first = 3;

	widths(v, w);
	term_hl(PAIR_HEAD, A_REVERSE, true);
	move(2, 0);
	clrtoeol();
	for (size_t k = 0; k < v->o->ncols && x < COLS; k++) {
		int c = v->o->cols[k];

		term_put(2, x, c == TC_GROUP ? "%-*s" : "%*s", w[k], rgctl_top_columns[c].name);
		x += w[k] + 1;
	}
	term_hl(PAIR_HEAD, A_REVERSE, false);
	v->ui.list.page = LINES > first + 1 ? (size_t)(LINES - first - 1) : 1;
	tui_list_clamp(&v->ui.list);
	for (size_t r = v->ui.list.top; r < v->nord && (int)(r - v->ui.list.top) + first < LINES - 1; r++) {
		int y = first + (int)(r - v->ui.list.top);
		bool sel = r == v->ui.list.sel;

		if (sel)
			attron(A_REVERSE);
		move(y, 0);
		clrtoeol();
		if (sel)
			mvhline(y, 0, ' ', COLS);
		draw_row(v, y, v->m->g[v->ord[r]], w);
		if (sel)
			attroff(A_REVERSE);
	}
	if (!v->nord)
		term_put(first, 0, v->ui.filter[0] ? "no group's path has '%s'" : "no groups",
			 TERM_NAME(v->ui.filter));
}

/* ---- the details pane -------------------------------------------------- */

/* Every setting, as rgctl get shows it; from row y, returns the next. */
static int draw_settings(struct view *v, const struct tgroup *g, int y)
{
	struct kattr_rgres_group *rg;
	const struct kattr_rgres *tab;
	size_t ntab, k = 0;
	int half = COLS >= 90 ? COLS / 2 : 0;

	term_put(y++, 0, "settings (rgctl get)");
	if (kattr_rgres_open(v->m->rg, g->path[1] ? g->path + 1 : "/", &rg) < 0)
		return term_put(y, 2, "cannot read them"), y + 1;
	tab = kattr_rgres_table(&ntab);
	for (size_t i = 0; i < ntab && y < LINES - 1; i++) {
		struct kattr_rgres_value *val;
		char text[256] = "";
		size_t n;

		if (kattr_rgres_get(rg, &tab[i], &val, &n) < 0)
			continue;	/* none on this backend, or not here */
		if (n == 0)
			snprintf(text, sizeof(text), "max");
		for (size_t j = 0, len = 0; j < n && len < sizeof(text); j++) {
			char one[128];

			kattr_rgres_text(&val[j], one, sizeof(one));
			len += (size_t)snprintf(text + len, sizeof(text) - len, "%s%s",
						j ? "; " : "", one);
		}
		free(val);
		term_put(y, 2 + (int)(k % 2) * half, "%-22s %s", tab[i].key, text);
		k++;
		if (!half || k % 2 == 0)
			y++;
	}
	kattr_rgres_close(rg);
	return y + (half && k % 2 ? 1 : 0);
}

static bool is_enforcement(const struct kattr_rg_stat *s)
{
	return s->has_value && !s->absent &&
	       (strstr(s->key, "throttled") || strncmp(s->key, "events.", 7) == 0);
}

/* throttled time, memory.events, pids.events: the limits at work. */
static int draw_counters(struct view *v, const struct tgroup *g, int y)
{
	struct kattr_rg_stat *st = NULL;
	size_t n = 0, shown = 0;

	term_put(y++, 0, "enforcement counters");
	if (kattr_rg_stats(v->m->rg, g->path[1] ? g->path + 1 : "/", &st, &n) < 0) {
		kattr_rg_stats_free(st, n);
		return term_put(y, 2, "cannot read them"), y + 1;
	}
	for (size_t i = 0; i < n && y < LINES - 1; i++) {
		if (!is_enforcement(&st[i]))
			continue;
		term_put(y++, 2, "%-7s %-22s %lld%s", st[i].res, st[i].key, st[i].value,
			 st[i].file ? "" : "");
		shown++;
	}
	if (!shown)
		term_put(y++, 2, "none here");
	kattr_rg_stats_free(st, n);
	return y;
}

/* A process's command line, NULs as spaces; [comm] for a kernel thread. */
static void cmdline(pid_t pid, char *buf, size_t size)
{
	char path[64], *text = NULL;
	size_t len = 0;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	if (kattr_root_file_read(tool_root(), path, &text, &len) == 0 && len) {
		for (size_t i = 0; i + 1 < len; i++)
			if (!text[i])
				text[i] = ' ';
		snprintf(buf, size, "%s", text);
		free(text);
		return;
	}
	free(text);
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	if (kattr_root_file_read(tool_root(), path, &text, &len) == 0) {
		text[strcspn(text, "\n")] = '\0';
		snprintf(buf, size, "[%s]", text);
	} else {
		snprintf(buf, size, "(gone)");
	}
	free(text);
}

static int draw_procs(struct view *v, const struct tgroup *g, int y)
{
	pid_t *pids = NULL;
	size_t n = 0;
	char cmd[1024];

	if (kattr_rg_members(v->m->rg, g->path[1] ? g->path + 1 : "/", 0, &pids, &n) < 0) {
		term_put(y++, 0, "processes: cannot list them");
		return y;
	}
	term_put(y++, 0, "processes (%zu)", n);
	for (size_t i = 0; i < n && y < LINES - 1; i++) {
		cmdline(pids[i], cmd, sizeof(cmd));
		term_put(y++, 2, "%7d  %s", (int)pids[i], TERM_NAME(cmd));
	}
	free(pids);
	return y;
}

static void draw_detail(struct view *v)
{
	const struct tgroup *g = v->ui.list.sel < v->nord ? v->m->g[v->ord[v->ui.list.sel]] : NULL;
	char cpu[32], share[32], expect[32];
	int y = 2;

	if (!g) {
		term_put(y, 0, "no group selected (Esc: back)");
		return;
	}
	top_cell(g, TC_CPU, false, cpu, sizeof(cpu));
	top_cell(g, TC_EXPECT, false, expect, sizeof(expect));
	top_cell(g, TC_SHARE, false, share, sizeof(share));
	term_hl(PAIR_HEAD, A_BOLD, true);
	term_put(y++, 0, "%s  CPU %s%%  expected share %s%%  got %s%%  (Esc: back)",
		 TERM_NAME(g->path), cpu, expect, share);
	term_hl(PAIR_HEAD, A_BOLD, false);
	y = draw_settings(v, g, y);
	y = draw_counters(v, g, y + (y < LINES - 2));
	draw_procs(v, g, y + (y < LINES - 2));
}

static void draw_help(void)
{
	static const char *const lines[] = {
		"rgctl top: keys",
		"  q F10        quit",
		"  ? h F1       this help (any of them again, or Esc: back)",
		"  Up Down j k  select a group; PgUp PgDn Home End g G",
		"  Enter Right  details: its settings, enforcement counters, processes",
		"  / F3         filter by path (typed text applies at once; Esc clears)",
		"  t c m i      sort by tasks, CPU, memory, I/O read (systemd-cgtop's)",
		"  o            order by path;  < > F6  the previous or next column",
		"  F            flat list, or tree",
		"  d            delay in seconds",
		"  p Space      pause and resume reading",
		"",
		"EXPECT: the share of its siblings' CPU time its weight promises (its weight",
		"over those of the siblings using CPU); SHARE: the share it got.  OOMKILL and",
		"PIDSEV count since top started; - is a figure this group or kernel lacks.",
	};

	for (size_t i = 0; i < sizeof(lines) / sizeof(*lines) && (int)i + 2 < LINES - 1; i++)
		term_put((int)i + 2, 0, "%s", lines[i]);
}

static void draw(struct view *v)
{
	erase();
	draw_header(v);
	if (v->ui.screen == TOP_HELP)
		draw_help();
	else if (v->ui.screen == TOP_DETAIL)
		draw_detail(v);
	else
		draw_list(v);
	if (v->ui.edit.on)
		term_put(LINES - 1, 0, "%s: %s", v->ui.edit.what == TOP_EDIT_FILTER ?
			 "filter (path has)" : "delay in seconds", v->ui.edit.text);
	else if (v->ui.note)
		term_put(LINES - 1, 0, "%s", v->ui.note);
	else {
		char keys[] = "q quit  ? help  Enter details  / filter  t c m i sort  F flat  d delay  p pause";

		term_put_words(LINES - 1, keys, "  ");
	}
	clrtoeol();
	refresh();
}

/* ---- the loop ---------------------------------------------------------- */

static void read_now(struct view *v)
{
	int ret = model_update(v->m);

	if (ret < 0) {
		v->gone = ret;
		return;
	}
	v->reads++;
	reorder(v);
}

static bool on_tick(void *ctx)
{
	struct view *v = ctx;

	if (v->ui.paused)
		return false;
	read_now(v);
	if (v->gone)
		return true;
	if (v->o->iterations && v->reads >= v->o->iterations)
		return true;
	draw(v);
	return false;
}

static bool on_signal(void *ctx, const struct signalfd_siginfo *si)
{
	struct view *v = ctx;

	if (si->ssi_signo != SIGWINCH)
		return true;
	term_resize();
	clear();
	draw(v);
	return false;
}

static bool on_key(void *ctx, int key)
{
	struct view *v = ctx;
	unsigned int redo = top_ui_key(&v->ui, key);

	if (redo & TOP_REDO_QUIT)
		return true;
	if (redo & TOP_REDO_RESIZE) {
		term_resize();
		clear();
	}
	if (redo & TOP_REDO_DELAY)
		arm(v);
	if (redo & TOP_REDO_SORT)
		reorder(v);
	else
		tui_list_clamp(&v->ui.list);
	remember_sel(v);
	if (redo & TOP_REDO_READ) {
		read_now(v);
		if (v->gone)
			return true;
	}
	if (redo)
		draw(v);
	return false;
}

int top_live(struct model *m, struct top_opts *o)
{
	static const short fg[] = {
		[PAIR_HEAD - 1] = COLOR_CYAN, [PAIR_STATUS - 1] = COLOR_YELLOW,
		[PAIR_OFF - 1] = COLOR_RED,
	};
	struct view v = { .m = m, .o = o };
	struct term_loop loop = { .ctx = &v, .tick = on_tick, .signal = on_signal,
				  .key = on_key };
	sigset_t set;
	int ret;

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		tool_die(EXIT_USAGE, "the live view needs a terminal: use -b for snapshots");
	top_ui_init(&v.ui, o->sort, o->flat, o->delay);
	sigemptyset(&set);
	sigaddset(&set, SIGWINCH);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, NULL);
	v.sfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	v.tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (v.sfd < 0 || v.tfd < 0)
		tool_die(EXIT_FAIL, "cannot set up the view: %s", tool_strerror(errno));
	loop.tfd = v.tfd;
	loop.sfd = v.sfd;
	term_start(fg, sizeof(fg) / sizeof(fg[0]));
	reorder(&v);
	draw(&v);
	arm(&v);
	ret = term_run(&loop);
	term_stop();
	free(v.ord);
	free(v.sel_path);
	close(v.tfd);
	close(v.sfd);
	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot set up the event loop: %s", tool_strerror(ret));
	if (v.gone)
		tool_die(EXIT_FAIL, "cannot watch '%s': %s", TOOL_Q(o->group),
			 v.gone == -ENOENT ? "the group is gone" : tool_strerror(v.gone));
	return EXIT_OK;
}
#endif
