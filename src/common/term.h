/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The tools' live views on a terminal (ncurses): start and restore it,
 * NO_COLOR, keys translated to tui.h's codes, resizes, text that never
 * wraps nor reaches the terminal as control bytes, names through the
 * one escaper, and the event loop over a timer, signals and the keyboard.
 * A view keeps its state and key table to itself (tui.h: no curses).
 */
#ifndef TOOL_TERM_H
#define TOOL_TERM_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/signalfd.h>

#include "esc.h"
#include "tui.h"

/*
 * Take the terminal (once; restored at exit too): the locale's character
 * set, cbreak, no echo, keypad, non-blocking reads, no cursor; colour
 * unless NO_COLOR is set or the terminal has none, colour pair i + 1
 * being fg[i] on the default background.
 */
void term_start(const short *fg, size_t nfg);
/* Give the terminal back as it was (idempotent). */
void term_stop(void);
/* Whether the locale's character set is UTF-8; whether colour is on. */
bool term_utf8(void);
bool term_color(void);
/* Highlight on or off: colour pair, or mono's attributes without colour. */
void term_hl(int pair, attr_t mono, bool on);

/* The next key as a tui.h code or a byte; TERM_NO_KEY when none waits. */
#define TERM_NO_KEY (-1)
int term_key(void);
/* The terminal's size again (after SIGWINCH). */
void term_resize(void);

/* printf at (y, x), clipped to the screen's width: long text never wraps,
 * a tab goes to the next stop, and invalid UTF-8 or a control byte is
 * U+FFFD ('?' outside UTF-8). */
__attribute__((format(printf, 3, 4)))
void term_put(int y, int x, const char *fmt, ...);
/* line at row y losing whole words at its end (the separator sep before
 * them too) until it fits. */
void term_put_words(int y, char *line, const char *sep);
/* Display columns of s as term_put() shows it. */
int term_cols(const char *s);
/*
 * name from character `from` in at most width columns into buf (size at
 * least 4 * width + 8): a name cut on either side is marked there with an
 * ellipsis ('~' outside UTF-8).  Returns the columns used.
 */
int term_clip(char *buf, size_t size, const char *name, size_t from, int width);

/* A name (a function, a file, a group) as every output of the tools
 * shows it: tool_esc()'s \xNN, every byte >= 0x80 too outside UTF-8; a
 * long one cut with "...".  Alive until the end of the enclosing block. */
#define TERM_NAME_SIZE TOOL_ESC_SIZE(320)
#define TERM_NAME(s) tool_esc_to((char[TERM_NAME_SIZE]){ 0 }, TERM_NAME_SIZE, (s), \
				 term_utf8() ? 0 : TOOL_ESC_ASCII)

/* The event loop: each callback returns true to end it. */
struct term_loop {
	int tfd;		/* a timerfd: tick() on each expiry (-1: none) */
	int sfd;		/* a signalfd (-1: none) */
	void *ctx;
	bool (*tick)(void *ctx);
	bool (*signal)(void *ctx, const struct signalfd_siginfo *si);
	bool (*key)(void *ctx, int key);	/* each key waiting */
};
/* Until a callback says so, the keyboard closes or epoll fails: 0, or
 * -errno when the loop could not be set up. */
int term_run(const struct term_loop *l);

#endif
