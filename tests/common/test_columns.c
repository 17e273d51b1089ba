/*
 * The column table behind every tool's -o (src/common/columns.c): names in
 * any case, aliases, titles where the tool takes them, "+LIST", the limit,
 * and where a bad list stops; --help's layouts.
 */
#include "testutil.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "columns.h"

enum { A, B, C, N };
static const struct tool_column defs[N] = {
	[A] = { .name = "ALPHA", .help = "first", .alias = "OLD" },
	[B] = { .name = "BETA", .help = "second", .title = "B/s", .flags = TOOL_COL_RIGHT },
	[C] = { .name = "GAMMA", .help = "third" },
};
static const int def[] = { B, A };
static const struct tool_columns tab = {
	.col = defs, .n = N, .def = def, .ndef = 2, .max = 4,
	.help_indent = " ", .help_width = 6, .help_gap = "  ",
	.flags = TOOL_COLS_HELP_ALIAS | TOOL_COLS_HELP_DEFAULT,
};

static int parse(const struct tool_columns *t, const char *list, int *cols,
		 size_t *n, const char **bad, size_t *badlen)
{
	*n = 99;
	return tool_columns_parse(t, list, cols, n, bad, badlen);
}

static void names_aliases_and_plus(void **state)
{
	struct tool_columns titled = tab;
	int cols[4];
	size_t n, badlen;
	const char *bad;

	(void)state;
	assert_int_equal(parse(&tab, "gamma,Alpha,old", cols, &n, &bad, &badlen), 0);
	assert_int_equal(n, 3);
	assert_int_equal(cols[0], C);
	assert_int_equal(cols[1], A);
	assert_int_equal(cols[2], A);
	assert_int_equal(parse(&tab, "+GAMMA", cols, &n, &bad, &badlen), 0);
	assert_int_equal(n, 3);
	assert_int_equal(cols[0], B);
	assert_int_equal(cols[1], A);
	assert_int_equal(cols[2], C);
	/* a title is a name only where the tool says so */
	assert_int_equal(parse(&tab, "b/s", cols, &n, &bad, &badlen), -EINVAL);
	titled.flags |= TOOL_COLS_MATCH_TITLE;
	assert_int_equal(parse(&titled, "b/s", cols, &n, &bad, &badlen), 0);
	assert_int_equal(cols[0], B);
	assert_int_equal(tool_columns_all(&tab, cols), N);
	assert_int_equal(cols[2], C);
	assert_string_equal(tool_column_header(&tab, B, true), "B/s");
	assert_string_equal(tool_column_header(&tab, B, false), "BETA");
	assert_string_equal(tool_column_header(&tab, A, true), "ALPHA");
}

static void where_a_bad_list_stops(void **state)
{
	static const struct { const char *list; int ret; size_t at, len; } cases[] = {
		{ "", -EINVAL, 0, 0 },
		{ "+", -EINVAL, 1, 0 },
		{ "alpha,", -EINVAL, 6, 0 },		/* trailing ',' */
		{ "alpha,,beta", -EINVAL, 6, 0 },	/* doubled ',' */
		{ "alpha,zeta,beta", -EINVAL, 6, 4 },
		{ "alphabet", -EINVAL, 0, 8 },
		{ "a,b", -EINVAL, 0, 1 },		/* no prefixes */
		{ "alpha,beta,gamma,alpha,beta", -E2BIG, 23, 4 },
		{ "+gamma,gamma,gamma", -E2BIG, 13, 5 },
	};
	int cols[4];
	size_t n, badlen;
	const char *bad;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(parse(&tab, cases[i].list, cols, &n, &bad, &badlen),
				 cases[i].ret);
		assert_int_equal(bad - cases[i].list, cases[i].at);
		assert_int_equal(badlen, cases[i].len);
	}
}

static void help_layouts(void **state)
{
	char *text = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&text, &size);
	struct tool_columns left = tab;

	(void)state;
	assert_non_null(fp);
	tool_columns_help(fp, &tab);
	left.help_indent = "  ";
	left.help_width = -8;
	left.help_gap = " ";
	left.flags = TOOL_COLS_HELP_PERIOD;
	tool_columns_help(fp, &left);
	fclose(fp);
	assert_string_equal(text,
			    "  ALPHA  first (also OLD)\n"
			    "   BETA  second\n"
			    "  GAMMA  third (not shown by default)\n"
			    "  ALPHA    first.\n"
			    "  BETA     second.\n"
			    "  GAMMA    third.\n");
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_aliases_and_plus),
		cmocka_unit_test(where_a_bad_list_stops),
		cmocka_unit_test(help_layouts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
