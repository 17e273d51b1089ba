// SPDX-License-Identifier: GPL-2.0-or-later
/* rgctl top's key table (src/rgtop/ui.c), without a terminal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "ui.h"

static unsigned int keys(struct top_ui *u, const char *s)
{
	unsigned int redo = 0;

	for (; *s; s++)
		redo |= top_ui_key(u, *s == '\n' ? TUI_KEY_ENTER : *s);
	return redo;
}

static void test_sort_keys(void **state)
{
	struct top_ui u;

	(void)state;
	top_ui_init(&u, TC_GROUP, false, 1);
	assert_true(top_ui_key(&u, 'c') & TOP_REDO_SORT);
	assert_int_equal(u.sort, TC_CPU);
	top_ui_key(&u, 't');
	assert_int_equal(u.sort, TC_TASKS);
	top_ui_key(&u, 'm');
	assert_int_equal(u.sort, TC_MEM);
	top_ui_key(&u, 'i');
	assert_int_equal(u.sort, TC_IOR);
	top_ui_key(&u, 'o');
	assert_int_equal(u.sort, TC_GROUP);
	top_ui_key(&u, '<');
	assert_int_equal(u.sort, TC_N - 1);
	top_ui_key(&u, TUI_KEY_F6);
	assert_int_equal(u.sort, TC_GROUP);
	assert_true(top_ui_key(&u, 'F') & TOP_REDO_SORT);
	assert_true(u.flat);
}

static void test_filter_delay_pause(void **state)
{
	struct top_ui u;
	unsigned int r;

	(void)state;
	top_ui_init(&u, TC_GROUP, false, 1);
	r = keys(&u, "/db");
	assert_true(r & TOP_REDO_SORT);	/* applied as typed */
	assert_string_equal(u.filter, "db");
	keys(&u, "\n");
	assert_false(u.edit.on);
	assert_true(top_ui_key(&u, TUI_KEY_ESC) & TOP_REDO_SORT);
	assert_string_equal(u.filter, "");
	r = keys(&u, "d0.5\n");
	assert_true(r & TOP_REDO_DELAY);
	assert_true(u.delay == 0.5);
	keys(&u, "d0\n");	/* refused: said, the delay unchanged */
	assert_true(u.delay == 0.5);
	assert_non_null(u.note);
	assert_true(top_ui_key(&u, 'x') & TOP_REDO_DRAW);	/* any key: the note goes */
	assert_null(u.note);
	top_ui_key(&u, 'p');
	assert_true(u.paused);
	assert_true(top_ui_key(&u, ' ') & TOP_REDO_READ);
	assert_false(u.paused);
}

static void test_screens(void **state)
{
	struct top_ui u;

	(void)state;
	top_ui_init(&u, TC_GROUP, false, 1);
	top_ui_key(&u, '?');
	assert_int_equal(u.screen, TOP_HELP);
	assert_int_equal(top_ui_key(&u, 'c'), 0);	/* not a sort in help */
	top_ui_key(&u, TUI_KEY_ESC);
	assert_int_equal(u.screen, TOP_LIST);
	top_ui_key(&u, TUI_KEY_ENTER);
	assert_int_equal(u.screen, TOP_DETAIL);
	top_ui_key(&u, TUI_KEY_LEFT);
	assert_int_equal(u.screen, TOP_LIST);
	u.list.nrows = 3;
	u.list.page = 2;
	top_ui_key(&u, 'G');
	assert_int_equal(u.list.sel, 2);
	assert_true(top_ui_key(&u, 'q') & TOP_REDO_QUIT);
	top_ui_key(&u, TUI_KEY_F1);
	assert_true(top_ui_key(&u, TUI_KEY_F10) & TOP_REDO_QUIT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sort_keys),
		cmocka_unit_test(test_filter_delay_pause),
		cmocka_unit_test(test_screens),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
