// SPDX-License-Identifier: GPL-2.0-or-later
/* rgctl top's key table (ui.h): no curses here. */
#include <stdio.h>
#include <string.h>

#include "ui.h"

void top_ui_init(struct top_ui *u, int sort, bool flat, double delay)
{
	memset(u, 0, sizeof(*u));
	u->sort = sort;
	u->flat = flat;
	u->delay = delay;
}

/* A line being typed: the filter (each key applies it) or the delay. */
static unsigned int edit_key(struct top_ui *u, int key)
{
	enum tui_edit_result r = tui_edit_key(&u->edit, key);
	double d;

	switch (r) {
	case TUI_EDIT_RESIZE:
		return TOP_REDO_RESIZE | TOP_REDO_DRAW;
	case TUI_EDIT_IGNORED:
		return 0;
	case TUI_EDIT_CANCEL:
		return TOP_REDO_DRAW;
	case TUI_EDIT_CHANGED:
	case TUI_EDIT_DONE:
		break;
	}
	if (u->edit.what == TOP_EDIT_FILTER) {
		snprintf(u->filter, sizeof(u->filter), "%s", u->edit.text);
		return TOP_REDO_SORT | TOP_REDO_DRAW;
	}
	if (r != TUI_EDIT_DONE)
		return TOP_REDO_DRAW;
	if (!tool_parse_seconds(u->edit.text, 0.1, 86400, &d)) {
		u->note = "the delay is seconds from 0.1 to 86400";
		return TOP_REDO_DRAW;
	}
	u->delay = d;
	return TOP_REDO_DELAY | TOP_REDO_DRAW;
}

/* systemd-cgtop's sort keys, and F6 / < > for the next or previous column. */
static bool sort_key(struct top_ui *u, int key)
{
	switch (key) {
	case 't': u->sort = TC_TASKS; return true;
	case 'c': u->sort = TC_CPU; return true;
	case 'm': u->sort = TC_MEM; return true;
	case 'i': u->sort = TC_IOR; return true;
	case 'o': u->sort = TC_GROUP; return true;	/* order by path */
	case '>': case TUI_KEY_F6: u->sort = (u->sort + 1) % TC_N; return true;
	case '<': u->sort = (u->sort + TC_N - 1) % TC_N; return true;
	}
	return false;
}

unsigned int top_ui_key(struct top_ui *u, int key)
{
	unsigned int noted = u->note ? TOP_REDO_DRAW : 0;

	if (u->edit.on)
		return edit_key(u, key);
	u->note = NULL;
	if (key == TUI_KEY_RESIZE)
		return TOP_REDO_RESIZE | TOP_REDO_DRAW;
	if (u->screen != TOP_LIST) {	/* help, details: back to the list */
		if (key == 'q' || key == TUI_KEY_F10)
			return TOP_REDO_QUIT;
		if (key == TUI_KEY_ESC || key == TUI_KEY_ENTER || key == '?' ||
		    key == 'h' || key == TUI_KEY_F1 || key == TUI_KEY_LEFT) {
			u->screen = TOP_LIST;
			return TOP_REDO_DRAW;
		}
		return noted;
	}
	if (tui_list_move(&u->list, key))
		return TOP_REDO_DRAW;
	if (sort_key(u, key))
		return TOP_REDO_SORT | TOP_REDO_DRAW;
	switch (key) {
	case 'q': case TUI_KEY_F10:
		return TOP_REDO_QUIT;
	case '?': case 'h': case TUI_KEY_F1:
		u->screen = TOP_HELP;
		return TOP_REDO_DRAW;
	case TUI_KEY_ENTER: case TUI_KEY_RIGHT:
		u->screen = TOP_DETAIL;
		return TOP_REDO_DRAW;
	case '/': case TUI_KEY_F3:
		tui_edit_start(&u->edit, TOP_EDIT_FILTER, u->filter);
		return TOP_REDO_DRAW;
	case 'd':
		tui_edit_start(&u->edit, TOP_EDIT_DELAY, NULL);
		return TOP_REDO_DRAW;
	case 'p': case ' ':
		u->paused = !u->paused;
		return TOP_REDO_DRAW | (u->paused ? 0 : TOP_REDO_READ);
	case 'F':
		u->flat = !u->flat;
		return TOP_REDO_SORT | TOP_REDO_DRAW;
	case TUI_KEY_ESC:	/* the filter off */
		u->filter[0] = '\0';
		return TOP_REDO_SORT | TOP_REDO_DRAW;
	}
	return noted;	/* any key takes a message away */
}
