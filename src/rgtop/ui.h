/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rgctl top's live view without a terminal: its state and its key table
 * (what each key changes, and what must be done again: read, sort, draw),
 * unit-tested in tests/rgctl/test_top_ui.c; view.c draws.
 */
#ifndef RGTOP_UI_H
#define RGTOP_UI_H

#include <stdbool.h>

#include "rgctl_top.h"
#include "tui.h"

enum top_screen { TOP_LIST, TOP_DETAIL, TOP_HELP };
enum top_edit { TOP_EDIT_FILTER = 1, TOP_EDIT_DELAY };

/* What a key asks for. */
enum {
	TOP_REDO_DRAW = 1u << 0,
	TOP_REDO_SORT = 1u << 1,	/* the order again (sort, filter, flat) */
	TOP_REDO_DELAY = 1u << 2,	/* the timer again: ui.delay */
	TOP_REDO_RESIZE = 1u << 3,
	TOP_REDO_QUIT = 1u << 4,
	TOP_REDO_READ = 1u << 5,	/* read now (unpaused) */
};

struct top_ui {
	enum top_screen screen;
	int sort;		/* a column */
	bool flat, paused;
	double delay;
	char filter[TUI_EDIT_MAX];
	struct tui_list list;
	struct tui_edit edit;
	const char *note;	/* a message for the last line (static text) */
};

void top_ui_init(struct top_ui *u, int sort, bool flat, double delay);
/* One key: what to do again (TOP_REDO_*). */
unsigned int top_ui_key(struct top_ui *u, int key);

#endif
