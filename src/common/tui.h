/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the tools' live views share, without a terminal (term.h draws):
 * the key codes a view's key table sees, the selection of a list that
 * scrolls by pages, and the one-line editor of a filter or a number.
 * No curses here, so each tool's whole key logic is unit-tested.
 */
#ifndef TOOL_TUI_H
#define TOOL_TUI_H

#include <stdbool.h>
#include <stddef.h>

/* Keys other than plain bytes, as term_key() translates them. */
enum tui_key {
	TUI_KEY_UP = 0x1000,
	TUI_KEY_DOWN,
	TUI_KEY_PGUP,
	TUI_KEY_PGDN,
	TUI_KEY_HOME,
	TUI_KEY_END,
	TUI_KEY_BACKSPACE,
	TUI_KEY_ENTER,
	TUI_KEY_ESC,
	TUI_KEY_RESIZE,
	TUI_KEY_LEFT,
	TUI_KEY_RIGHT,
	TUI_KEY_F1,		/* htop's function keys: help */
	TUI_KEY_F3,		/* search (filter) */
	TUI_KEY_F6,		/* sort by the next column */
	TUI_KEY_F10,		/* quit */
};

/* A list shown a page at a time: the selected row stays on the page. */
struct tui_list {
	size_t sel;		/* selected row */
	size_t top;		/* first row shown */
	size_t nrows;		/* rows (set by the caller) */
	size_t page;		/* rows per screen (set by the caller) */
};

/* Keep sel within nrows and visible between top and top + page; a page
 * that grew, or a list that shrank, is filled from above. */
void tui_list_clamp(struct tui_list *l);
/* Up Down PgUp PgDn Home End (k j g G) move the selection; false for any
 * other key. */
bool tui_list_move(struct tui_list *l, int key);

/* A line being typed (a filter, a delay, a count). */
#define TUI_EDIT_MAX 128
struct tui_edit {
	bool on;		/* typing */
	int what;		/* the caller's: what is typed */
	char text[TUI_EDIT_MAX];
};

enum tui_edit_result {
	TUI_EDIT_IGNORED,	/* not a key the line takes */
	TUI_EDIT_CHANGED,	/* a byte added or removed: draw again */
	TUI_EDIT_DONE,		/* Enter: text holds the line */
	TUI_EDIT_CANCEL,	/* Esc */
	TUI_EDIT_RESIZE,	/* the terminal changed size meanwhile */
};

/* Start typing what, from init (NULL: empty). */
void tui_edit_start(struct tui_edit *e, int what, const char *init);
/* Printable ASCII, Backspace, Enter, Esc. */
enum tui_edit_result tui_edit_key(struct tui_edit *e, int key);

/* Seconds typed at a prompt: tool_parse_seconds() (tool.h). */
#include "tool.h"

#endif
