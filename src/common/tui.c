// SPDX-License-Identifier: GPL-2.0-or-later
/* The live views' list selection and line editor (tui.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui.h"

void tui_list_clamp(struct tui_list *l)
{
	size_t page = l->page ? l->page : 1;

	if (!l->nrows) {
		l->sel = l->top = 0;
		return;
	}
	if (l->sel >= l->nrows)
		l->sel = l->nrows - 1;
	if (l->top > l->sel)
		l->top = l->sel;
	if (l->sel >= l->top + page)
		l->top = l->sel - page + 1;
	if (l->top + page > l->nrows)
		l->top = l->nrows > page ? l->nrows - page : 0;
}

bool tui_list_move(struct tui_list *l, int key)
{
	size_t page = l->page ? l->page : 1;

	switch (key) {
	case TUI_KEY_UP: case 'k':
		if (l->sel)
			l->sel--;
		break;
	case TUI_KEY_DOWN: case 'j':
		l->sel++;
		break;
	case TUI_KEY_PGUP:
		l->sel = l->sel > page ? l->sel - page : 0;
		break;
	case TUI_KEY_PGDN:
		l->sel += page;
		break;
	case TUI_KEY_HOME: case 'g':
		l->sel = 0;
		break;
	case TUI_KEY_END: case 'G':
		l->sel = l->nrows ? l->nrows - 1 : 0;
		break;
	default:
		return false;
	}
	tui_list_clamp(l);
	return true;
}

void tui_edit_start(struct tui_edit *e, int what, const char *init)
{
	e->on = true;
	e->what = what;
	snprintf(e->text, sizeof(e->text), "%s", init ? init : "");
}

enum tui_edit_result tui_edit_key(struct tui_edit *e, int key)
{
	size_t n = strlen(e->text);

	switch (key) {
	case TUI_KEY_ENTER: case '\n': case '\r':
		e->on = false;
		return TUI_EDIT_DONE;
	case TUI_KEY_ESC:
		e->on = false;
		return TUI_EDIT_CANCEL;
	case TUI_KEY_BACKSPACE: case 127: case 8:
		if (n)
			e->text[n - 1] = '\0';
		return TUI_EDIT_CHANGED;
	case TUI_KEY_RESIZE:
		return TUI_EDIT_RESIZE;
	}
	if (key >= 0x20 && key < 0x7f && n + 1 < sizeof(e->text)) {
		e->text[n] = (char)key;
		e->text[n + 1] = '\0';
		return TUI_EDIT_CHANGED;
	}
	return TUI_EDIT_IGNORED;
}
