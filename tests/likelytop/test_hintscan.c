// SPDX-License-Identifier: GPL-2.0-or-later
/* likelytop --suggest's hint locator and edit (hintscan.c), and the p key. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "hintscan.h"
#include "keys.h"

struct scanned {
	const char *text;
	struct lt_hint_call *calls;
	size_t n;
};

static void scan(struct scanned *s, const char *text)
{
	s->text = text;
	assert_int_equal(lt_hint_scan(text, strlen(text), &s->calls, &s->n), 0);
}

static enum lt_locate loc(struct scanned *s, unsigned int line,
			  enum lt_hint_kind kind, size_t *idx, char *name)
{
	return lt_hint_locate(s->text, strlen(s->text), s->calls, s->n, line,
			      kind, idx, name, 32);
}

/* The edit of the call at line, as text. */
static char *edit(const char *text, unsigned int line, enum lt_hint_kind kind,
		  bool flip)
{
	struct scanned s;
	size_t idx, len, first, last;
	char name[32], *out;

	scan(&s, text);
	assert_int_equal(loc(&s, line, kind, &idx, name), LT_LOC_OK);
	assert_int_equal(lt_hint_edit(text, strlen(text), &s.calls[idx], flip,
				      &out, &len, &first, &last), 0);
	assert_int_equal(strlen(out), len);
	free(s.calls);
	return out;
}

static void test_skips_comments_strings_and_names(void **state)
{
	struct scanned s;

	(void)state;
	scan(&s, "/* unlikely(x) */ char *a = \"likely(y)\";\n"
		 "char c = '('; // likely(z)\n"
		 "int b = __likely(x) + likely_notrace(x) + xunlikely(x) + 0x1likely;\n"
		 "#error do not use unlikely(here) in an error\n"
		 "#warning don't: an unclosed ' ends at the line's end: likely(x)\n");
	/* Only the #error line's call is a token; it sits in a directive. */
	assert_int_equal(s.n, 1);
	assert_true(s.calls[0].in_define);
	free(s.calls);
	scan(&s, "if (likely (a)) x();\n");
	assert_int_equal(s.n, 1);
	assert_int_equal(s.calls[0].kind, LT_HINT_LIKELY);
	free(s.calls);
}

static void test_locate_shapes(void **state)
{
	const char *text =
		"int f(void)\n"				/* 1 */
		"{\n"					/* 2 */
		"	if (unlikely(a))\n"		/* 3: one */
		"		return 1;\n"		/* 4 */
		"	if (likely(b) && unlikely(c))\n"	/* 5: two kinds */
		"		return 2;\n"		/* 6 */
		"	if (unlikely(d &&\n"		/* 7: split */
		"		     e))\n"		/* 8 */
		"		return 3;\n"		/* 9 */
		"	WARN_ON(x);\n"			/* 10: macro */
		"	if (unlikely(f) || unlikely(g))\n"	/* 11: two of a kind */
		"		return 4;\n"		/* 12 */
		"	if (likely(h && unlikely(i)))\n"	/* 13: nested */
		"		return 5;\n"		/* 14 */
		"	return (int)x;\n"		/* 15: no call */
		"}\n"
		"#define H(x) unlikely(x)\n"	/* 17: a define */
		"#define G(x) \\\n"			/* 18 */
		"	likely(x)\n";			/* 19: continued */
	struct scanned s;
	char name[32];
	size_t idx;

	(void)state;
	scan(&s, text);
	assert_int_equal(loc(&s, 3, LT_HINT_UNLIKELY, &idx, name), LT_LOC_OK);
	assert_int_equal(s.calls[idx].line, 3);
	assert_int_equal(loc(&s, 3, LT_HINT_ANY, &idx, name), LT_LOC_OK);
	assert_int_equal(loc(&s, 3, LT_HINT_LIKELY, &idx, name), LT_LOC_KIND);
	/* Two hints, two kinds: the kind tells them apart, or nothing does. */
	assert_int_equal(loc(&s, 5, LT_HINT_UNLIKELY, &idx, name), LT_LOC_OK);
	assert_int_equal(s.calls[idx].kind, LT_HINT_UNLIKELY);
	assert_int_equal(loc(&s, 5, LT_HINT_ANY, &idx, name), LT_LOC_SEVERAL);
	/* Split: the name's line, or (older compilers) the closing line. */
	assert_int_equal(loc(&s, 7, LT_HINT_UNLIKELY, &idx, name), LT_LOC_OK);
	assert_int_equal(s.calls[idx].end_line, 8);
	assert_int_equal(loc(&s, 8, LT_HINT_UNLIKELY, &idx, name), LT_LOC_OK);
	assert_int_equal(s.calls[idx].line, 7);
	assert_int_equal(loc(&s, 10, LT_HINT_ANY, &idx, name), LT_LOC_MACRO);
	assert_string_equal(name, "WARN_ON");
	assert_int_equal(loc(&s, 11, LT_HINT_UNLIKELY, &idx, name), LT_LOC_SEVERAL);
	assert_int_equal(loc(&s, 13, LT_HINT_ANY, &idx, name), LT_LOC_SEVERAL);
	assert_int_equal(loc(&s, 13, LT_HINT_LIKELY, &idx, name), LT_LOC_OK);
	assert_int_equal(loc(&s, 15, LT_HINT_ANY, &idx, name), LT_LOC_NONE);
	assert_int_equal(loc(&s, 17, LT_HINT_ANY, &idx, name), LT_LOC_DEFINE);
	assert_int_equal(loc(&s, 19, LT_HINT_ANY, &idx, name), LT_LOC_DEFINE);
	assert_int_equal(loc(&s, 20, LT_HINT_ANY, &idx, name), LT_LOC_NO_LINE);
	assert_int_equal(loc(&s, 0, LT_HINT_ANY, &idx, name), LT_LOC_NO_LINE);
	free(s.calls);
	scan(&s, "if (unlikely(a &&\n");
	assert_int_equal(loc(&s, 1, LT_HINT_ANY, &idx, name), LT_LOC_UNBALANCED);
	free(s.calls);
}

static void expect_edit(const char *text, unsigned int line, bool flip,
			const char *want)
{
	char *got = edit(text, line, LT_HINT_ANY, flip);

	assert_string_equal(got, want);
	free(got);
}

static void test_edit(void **state)
{
	(void)state;
	expect_edit("x;\n\tif (unlikely(!objp))\n\t\treturn;\n", 2, false,
		    "\tif (!objp)\n");
	expect_edit("\tif (unlikely(!objp))\n", 1, true, "\tif (likely(!objp))\n");
	expect_edit("\tif (likely(a))\n", 1, true, "\tif (unlikely(a))\n");
	/* Parentheses where an operator next to it needs them, only there. */
	expect_edit("\tif (w && unlikely(a || b))\n", 1, false,
		    "\tif (w && (a || b))\n");
	expect_edit("\tif (w && unlikely(!p->f[2]))\n", 1, false,
		    "\tif (w && !p->f[2])\n");
	expect_edit("\tif (w && unlikely(f(a, b) == 1))\n", 1, false,
		    "\tif (w && (f(a, b) == 1))\n");
	expect_edit("\treturn unlikely(a || b);\n", 1, false, "\treturn a || b;\n");
	expect_edit("\tx = likely(a ? b : c), y = 1;\n", 1, false,
		    "\tx = a ? b : c, y = 1;\n");
	expect_edit("\tif (!unlikely(a & b))\n", 1, false, "\tif (!(a & b))\n");
	expect_edit("\tif (unlikely((f & (A | B)) != 0))\n", 1, false,
		    "\tif ((f & (A | B)) != 0)\n");
	/* A split call: the continuation follows its argument. */
	expect_edit("\tif (unlikely(a &&\n\t\t     b))\n", 1, false,
		    "\tif (a &&\n\t    b)\n");
	expect_edit("\tif (likely(a &&\n\t\t   b))\n", 1, true,
		    "\tif (unlikely(a &&\n\t\t     b))\n");
	expect_edit("\tif (unlikely (a))\n", 1, false, "\tif (a)\n");
	expect_edit("\tif (unlikely /* c */ (a))\n", 1, false,
		    "\tif ( /* c */ (a))\n");
	/* The last line without its newline stays without. */
	expect_edit("\tif (unlikely(a))", 1, false, "\tif (a)");
}

static void test_p_key(void **state)
{
	struct lt_ui ui;

	(void)state;
	lt_ui_init(&ui, KATTR_PROFILE_SORT_INCORRECT, false);
	assert_int_equal(lt_ui_key(&ui, 'p'), LT_REDO_NONE);	/* no rows */
	ui.list.nrows = 3;
	assert_int_equal(lt_ui_key(&ui, 'p'), LT_REDO_PIN | LT_REDO_DRAW);
	assert_int_equal(ui.screen, LT_SCREEN_SUGGEST);
	assert_int_equal(lt_ui_key(&ui, 'p'), LT_REDO_DRAW);
	assert_int_equal(ui.screen, LT_SCREEN_LIST);
	lt_ui_key(&ui, 'p');
	assert_int_equal(lt_ui_key(&ui, TUI_KEY_ESC), LT_REDO_DRAW);
	assert_int_equal(ui.screen, LT_SCREEN_LIST);
	for (size_t i = 0; lt_help_lines[i]; i++)
		if (!strncmp(lt_help_lines[i], "p ", 2))
			return;
	fail_msg("no help line for p");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_skips_comments_strings_and_names),
		cmocka_unit_test(test_locate_shapes),
		cmocka_unit_test(test_edit),
		cmocka_unit_test(test_p_key),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
