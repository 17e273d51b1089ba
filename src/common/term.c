// SPDX-License-Identifier: GPL-2.0-or-later
/* The live views' terminal (term.h), for likelytop and rgctl top. */
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <wchar.h>

#include "term.h"
#include "tool.h"

static bool curses_on;
static bool screen_utf8;	/* the locale's codeset is UTF-8 */
static bool screen_color;

/*
 * The next character of s as the screen may show it: *len bytes of s
 * make it, *out (*outlen bytes) is what to draw, and the result is its
 * columns.  Names reach it already escaped (TERM_NAME(): the escapes of
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
void term_put(int y, int x, const char *fmt, ...)
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

/* name from character `from` (the horizontal scroll): see term.h. */
int term_clip(char *buf, size_t size, const char *name, size_t from, int width)
{
	const char *mark = screen_utf8 ? "\xe2\x80\xa6" : "~", *out;
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


int term_cols(const char *s)
{
	const char *out;
	size_t len, outlen;
	int w = 0;

	for (; *s; s += len)
		w += screen_char(s, &len, &out, &outlen);
	return w;
}

void term_put_words(int y, char *line, const char *sep)
{
	while (term_cols(line) > COLS) {
		char *sp = NULL;

		for (char *q = strstr(line, sep); q; q = strstr(q + 1, sep))
			sp = q;
		if (!sp)
			break;
		while (sp > line && strchr(" |-,", sp[-1]))
			sp--;
		*sp = '\0';
	}
	term_put(y, 0, "%s", line);
	clrtoeol();
}

bool term_utf8(void)
{
	return screen_utf8;
}

bool term_color(void)
{
	return screen_color;
}

void term_hl(int pair, attr_t mono, bool on)
{
	attr_t a = screen_color ? (attr_t)COLOR_PAIR(pair) : mono;

	if (on)
		attron(a);
	else
		attroff(a);
}

void term_stop(void)
{
	if (curses_on) {
		curses_on = false;
		endwin();
	}
}

void term_start(const short *fg, size_t nfg)
{
	const char *nc = getenv("NO_COLOR");

	if (curses_on)
		return;
	setlocale(LC_ALL, "");
	screen_utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8");
	set_escdelay(25);
	initscr();
	curses_on = true;
	atexit(term_stop);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	curs_set(0);
	screen_color = has_colors() && !(nc && *nc);
	if (screen_color) {
		start_color();
		use_default_colors();
		for (size_t i = 0; i < nfg; i++)
			init_pair((short)(i + 1), fg[i], -1);
	}
}

int term_key(void)
{
	int ch = getch();

	switch (ch) {
	case ERR: return TERM_NO_KEY;
	case KEY_UP: return TUI_KEY_UP;
	case KEY_DOWN: return TUI_KEY_DOWN;
	case KEY_PPAGE: return TUI_KEY_PGUP;
	case KEY_NPAGE: return TUI_KEY_PGDN;
	case KEY_HOME: return TUI_KEY_HOME;
	case KEY_END: return TUI_KEY_END;
	case KEY_BACKSPACE: return TUI_KEY_BACKSPACE;
	case KEY_LEFT: return TUI_KEY_LEFT;
	case KEY_RIGHT: return TUI_KEY_RIGHT;
	case KEY_F(1): return TUI_KEY_F1;
	case KEY_F(3): return TUI_KEY_F3;
	case KEY_F(6): return TUI_KEY_F6;
	case KEY_F(10): return TUI_KEY_F10;
	case KEY_ENTER: case '\n': case '\r': return TUI_KEY_ENTER;
	case 27: return TUI_KEY_ESC;
	/* resizeterm() queues KEY_RESIZE; SIGWINCH already did the work */
	case KEY_RESIZE: return term_key();
	default: return ch;
	}
}

void term_resize(void)
{
	struct winsize ws;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row && ws.ws_col)
		resizeterm(ws.ws_row, ws.ws_col);
}

static int watch(int ep, int fd)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.fd = fd };

	return fd < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) == 0 ? 0 : -errno;
}

/* One ready descriptor: true to end the loop. */
static bool ready(const struct term_loop *l, const struct epoll_event *e)
{
	int fd = e->data.fd, key;

	if (fd == l->tfd) {
		uint64_t ticks;

		return read(fd, &ticks, sizeof(ticks)) > 0 && l->tick(l->ctx);
	}
	if (fd == l->sfd) {
		struct signalfd_siginfo si;

		while (read(fd, &si, sizeof(si)) == sizeof(si))
			if (l->signal(l->ctx, &si))
				return true;
		return false;
	}
	if (e->events & (EPOLLHUP | EPOLLERR))
		return true;
	while ((key = term_key()) != TERM_NO_KEY)
		if (l->key(l->ctx, key))
			return true;
	return false;
}

int term_run(const struct term_loop *l)
{
	int ep = epoll_create1(EPOLL_CLOEXEC), ret;
	bool quit = false;

	if (ep < 0)
		return -errno;
	ret = watch(ep, l->tfd);
	if (!ret)
		ret = watch(ep, l->sfd);
	if (!ret)
		ret = watch(ep, STDIN_FILENO);
	while (!ret && !quit) {
		struct epoll_event evs[3];
		int n = epoll_wait(ep, evs, 3, -1);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		for (int i = 0; i < n && !quit; i++)
			quit = ready(l, &evs[i]);
	}
	close(ep);
	return ret;
}
