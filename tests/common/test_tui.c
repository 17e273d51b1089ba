/*
 * The live views' shared, terminal-free part (src/common/tui.c): the
 * selection of a paged list under every key and size, the line editor,
 * and the seconds parser that -d and the d key share.
 */
#include "testutil.h"
#include <string.h>
#include "tui.h"

/* Every page size, length, position and move key: the selection ends on
 * the page, inside the list, and the page is as full as the list allows. */
static void list_moves_stay_on_the_page(void **state)
{
	static const int keys[] = {
		TUI_KEY_UP, TUI_KEY_DOWN, TUI_KEY_PGUP, TUI_KEY_PGDN,
		TUI_KEY_HOME, TUI_KEY_END, 'k', 'j', 'g', 'G',
	};

	(void)state;
	for (size_t page = 1; page <= 9; page++)
		for (size_t nrows = 0; nrows <= 20; nrows++)
			for (size_t sel = 0; sel <= 21; sel++)
				for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
					struct tui_list l = { .sel = sel, .top = sel, .nrows = nrows,
							      .page = page };
					size_t shown;

					assert_true(tui_list_move(&l, keys[k]));
					if (!nrows) {
						assert_int_equal(l.sel, 0);
						continue;
					}
					assert_true(l.sel < nrows);
					assert_true(l.top <= l.sel && l.sel < l.top + page);
					shown = nrows - l.top < page ? nrows - l.top : page;
					assert_int_equal(shown, nrows < page ? nrows : page);
				}
}

static void list_keys(void **state)
{
	struct tui_list l = { .sel = 5, .top = 0, .nrows = 100, .page = 10 };

	(void)state;
	assert_false(tui_list_move(&l, 'x'));
	assert_int_equal(l.sel, 5);
	tui_list_move(&l, TUI_KEY_PGDN);
	assert_int_equal(l.sel, 15);
	assert_int_equal(l.top, 6);
	tui_list_move(&l, 'G');
	assert_int_equal(l.sel, 99);
	assert_int_equal(l.top, 90);
	tui_list_move(&l, TUI_KEY_PGUP);
	assert_int_equal(l.sel, 89);
	tui_list_move(&l, TUI_KEY_HOME);
	assert_int_equal(l.sel, 0);
	assert_int_equal(l.top, 0);
	tui_list_move(&l, TUI_KEY_UP);		/* at the top: stays */
	assert_int_equal(l.sel, 0);
	l.nrows = 3;				/* the list shrank */
	l.sel = 50;
	tui_list_clamp(&l);
	assert_int_equal(l.sel, 2);
	assert_int_equal(l.top, 0);
}

static void edit_line(void **state)
{
	struct tui_edit e;

	(void)state;
	tui_edit_start(&e, 7, "ab");
	assert_true(e.on);
	assert_int_equal(e.what, 7);
	assert_int_equal(tui_edit_key(&e, 'c'), TUI_EDIT_CHANGED);
	assert_string_equal(e.text, "abc");
	assert_int_equal(tui_edit_key(&e, TUI_KEY_BACKSPACE), TUI_EDIT_CHANGED);
	assert_int_equal(tui_edit_key(&e, 127), TUI_EDIT_CHANGED);
	assert_string_equal(e.text, "a");
	assert_int_equal(tui_edit_key(&e, TUI_KEY_UP), TUI_EDIT_IGNORED);
	assert_int_equal(tui_edit_key(&e, 0x1b5), TUI_EDIT_IGNORED);	/* not ASCII */
	assert_int_equal(tui_edit_key(&e, '\t'), TUI_EDIT_IGNORED);
	assert_int_equal(tui_edit_key(&e, TUI_KEY_RESIZE), TUI_EDIT_RESIZE);
	assert_true(e.on);
	assert_int_equal(tui_edit_key(&e, '\r'), TUI_EDIT_DONE);
	assert_false(e.on);
	assert_string_equal(e.text, "a");
	tui_edit_start(&e, 1, NULL);
	assert_string_equal(e.text, "");
	assert_int_equal(tui_edit_key(&e, TUI_KEY_BACKSPACE), TUI_EDIT_CHANGED);
	for (int i = 0; i < 2 * TUI_EDIT_MAX; i++)	/* bounded */
		tui_edit_key(&e, 'x');
	assert_int_equal(strlen(e.text), TUI_EDIT_MAX - 1);
	assert_int_equal(tui_edit_key(&e, TUI_KEY_ESC), TUI_EDIT_CANCEL);
	assert_false(e.on);
}

static void seconds(void **state)
{
	double d = -1;

	(void)state;
	assert_true(tool_parse_seconds("0.5", 0.05, 10, &d));
	assert_true(d == 0.5);
	assert_true(tool_parse_seconds("10", 0.05, 10, &d));
	assert_false(tool_parse_seconds("10.01", 0.05, 10, &d));
	assert_false(tool_parse_seconds("0.01", 0.05, 10, &d));
	assert_false(tool_parse_seconds("", 0.05, 10, &d));
	assert_false(tool_parse_seconds("1s", 0.05, 10, &d));
	assert_false(tool_parse_seconds("nan", 0.05, 10, &d));
	assert_false(tool_parse_seconds("1e999", 0.05, 1e300, &d));
	/* one syntax in every tool: no hex, sign, blank or inf */
	assert_false(tool_parse_seconds("0x1", 0.05, 10, &d));
	assert_false(tool_parse_seconds(" 1", 0.05, 10, &d));
	assert_false(tool_parse_seconds("+1", 0.05, 10, &d));
	assert_false(tool_parse_seconds("inf", 0.05, 1e308, &d));
	assert_true(tool_parse_seconds(".5", 0.05, 10, &d) && d == 0.5);
	assert_true(tool_parse_seconds("1e1", 0.05, 10, &d));
	assert_true(d == 10);			/* untouched by a refusal */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(list_moves_stay_on_the_page),
		cmocka_unit_test(list_keys),
		cmocka_unit_test(edit_line),
		cmocka_unit_test(seconds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
