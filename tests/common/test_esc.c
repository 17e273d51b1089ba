/*
 * The tools' shared kit (src/common): the escaper, the CSV quoter, the JSON
 * string builder, tool_strerror() and the string helpers, each from one
 * table of cases.
 */
#include "testutil.h"
#include <errno.h>
#include <json-c/json.h>
#include <locale.h>
#include "esc.h"
#include "strutils.h"
#include "tool.h"

#define B TOOL_ESC_BLANK
#define A TOOL_ESC_ASCII

static const struct {
	const char *in;
	unsigned int flags;
	const char *out;
	size_t width;
} esc_cases[] = {
	{ "", 0, "", 0 },
	{ "plain-name_1.c", 0, "plain-name_1.c", 14 },
	/* invalid UTF-8: each byte, so two names never print alike */
	{ "hx-x\xff", 0, "hx-x\\xff", 8 },
	{ "hx-x\xfe", 0, "hx-x\\xfe", 8 },
	{ "\xc3", 0, "\\xc3", 4 },			/* cut short */
	{ "\xc0\xaf", 0, "\\xc0\\xaf", 8 },		/* overlong '/' */
	{ "\xed\xa0\x80", 0, "\\xed\\xa0\\x80", 12 },	/* a surrogate */
	{ "\xf4\x90\x80\x80", 0, "\\xf4\\x90\\x80\\x80", 16 },	/* past U+10FFFF */
	/* the backslash itself, so an escape in a name is not taken for one */
	{ "a\\b", 0, "a\\x5cb", 6 },
	{ "\\x41", 0, "\\x5cx41", 7 },
	/* control bytes: C0, DEL, C1 */
	{ "a\x01" "b", 0, "a\\x01b", 6 },
	{ "\x1b]0;pwned\x07", 0, "\\x1b]0;pwned\\x07", 16 },
	{ "t\tn\nr\r", 0, "t\\x09n\\x0ar\\x0d", 15 },
	{ "\x7f", 0, "\\x7f", 4 },
	{ "\xc2\x85", 0, "\\xc2\\x85", 8 },
	/* valid UTF-8 as it is; a wide character is one column */
	{ "caf\xc3\xa9", 0, "caf\xc3\xa9", 4 },
	{ "\xc2\xa0", 0, "\xc2\xa0", 1 },		/* NBSP: not a C1 control */
	{ "\xe6\x97\xa5", 0, "\xe6\x97\xa5", 1 },
	{ "\xf0\x9f\x98\x80", 0, "\xf0\x9f\x98\x80", 1 },
	/* blanks: kept in text, escaped for --raw */
	{ "a b", 0, "a b", 3 },
	{ "a b", B, "a\\x20b", 6 },
	{ "a\tb", B, "a\\x09b", 6 },
	/* a terminal without UTF-8 */
	{ "caf\xc3\xa9", A, "caf\\xc3\\xa9", 11 },
	{ "\xc3\xa9 \\", A | B, "\\xc3\\xa9\\x20\\x5c", 16 },
};

static void esc_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(esc_cases) / sizeof(esc_cases[0]); i++) {
		const char *in = esc_cases[i].in;
		char out[128], back[64], *end;

		end = tool_esc(out, in, esc_cases[i].flags);
		assert_string_equal(out, esc_cases[i].out);
		assert_ptr_equal(end, out + strlen(out));
		assert_true(strlen(out) < TOOL_ESC_SIZE(strlen(in)));
		assert_int_equal(tool_esc_width(in, esc_cases[i].flags), esc_cases[i].width);
		/* reversible */
		assert_int_equal(tool_unesc(back, out), 0);
		assert_string_equal(back, in);
		/* the same, bounded, when it fits */
		assert_string_equal(tool_esc_to(out, sizeof(out), in, esc_cases[i].flags),
				    esc_cases[i].out);
	}
}

static void esc_distinct(void **state)
{
	char a[32], b[32];

	(void)state;
	assert_string_not_equal(TOOL_Q("hx-x\xff"), TOOL_Q("hx-x\xfe"));
	/* a name holding the text of an escape is not the escaped name */
	tool_esc(a, "a\\xffb", 0);
	tool_esc(b, "a\xff" "b", 0);
	assert_string_not_equal(a, b);
}

static void esc_cut(void **state)
{
	char buf[10], big[TOOL_Q_SIZE * 2];

	(void)state;
	/* whole escapes or characters only, then "..." */
	assert_string_equal(tool_esc_to(buf, sizeof(buf), "abcdefghi", 0), "abcdefghi");
	assert_string_equal(tool_esc_to(buf, sizeof(buf), "abcdefghij", 0), "abcdef...");
	assert_string_equal(tool_esc_to(buf, sizeof(buf), "abcde\xff" "xyz", 0), "abcde...");
	assert_string_equal(tool_esc_to(buf, sizeof(buf), "ab\xff" "cdefgh", 0), "ab\\xff...");
	assert_string_equal(tool_esc_to(buf, sizeof(buf), "abcd\xe6\x97\xa5xyz", 0), "abcd...");
	assert_string_equal(tool_esc_to(buf, 4, "abcd", 0), "...");
	assert_string_equal(tool_esc_to(buf, 4, "abc", 0), "abc");
	memset(big, 'n', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_int_equal(strlen(TOOL_Q(big)), TOOL_Q_SIZE - 1);
	assert_string_equal(TOOL_Q(big) + TOOL_Q_SIZE - 4, "...");
}

static void unesc_refuses(void **state)
{
	static const char *const bad[] = { "\\", "\\x", "\\x4", "\\x4g", "\\n", "a\\x00b" };
	char back[16];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(tool_unesc(back, bad[i]), -EINVAL);
	assert_int_equal(tool_unesc(back, "\\x41\\x5C"), 0);
	assert_string_equal(back, "A\\");
}

static void esc_locale(void **state)
{
	(void)state;
	if (!setlocale(LC_CTYPE, "C.UTF-8"))
		skip();
	assert_int_equal(tool_esc_locale(), 0);
	setlocale(LC_CTYPE, "C");
	assert_int_equal(tool_esc_locale(), TOOL_ESC_ASCII);
}

static void fputs_esc(void **state)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	assert_non_null(f);
	assert_int_equal(tool_fputs_esc("x\xff y", f, 0), 0);
	assert_int_equal(tool_fputs_esc("|x\xff y", f, B), 0);
	assert_int_equal(tool_fputs_csv("a,\"b\"", f), 0);
	fclose(f);
	assert_string_equal(text, "x\\xff y|x\\xff\\x20y\"a,\"\"b\"\"\"");
	free(text);
}

static const struct {
	const char *in, *out;
} csv_cases[] = {
	{ "", "" },
	{ "plain", "plain" },
	{ "caf\xc3\xa9", "caf\xc3\xa9" },
	{ "a,b", "\"a,b\"" },
	{ "say \"hi\"", "\"say \"\"hi\"\"\"" },
	{ "two\nlines", "\"two\nlines\"" },
	{ "cr\r", "\"cr\r\"" },
	{ " lead", "\" lead\"" },
	{ "trail\t", "\"trail\t\"" },
	{ "in side", "in side" },
	{ "bad\xff", "bad\xef\xbf\xbd" },		/* repaired, as JSON */
	{ "\xff,\"", "\"\xef\xbf\xbd,\"\"\"" },
	{ "a\\b", "a\\b" },
};

static void csv_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(csv_cases) / sizeof(csv_cases[0]); i++) {
		const char *in = csv_cases[i].in;
		char out[64], *end = tool_csv(out, in);

		assert_string_equal(out, csv_cases[i].out);
		assert_ptr_equal(end, out + strlen(out));
		assert_true(strlen(out) <= 3 * strlen(in) + 2);
	}
}

static void json_text(void **state)
{
	char *buf = NULL;
	size_t cap = 0;
	const char *valid = "caf\xc3\xa9 \"q\" \\";
	json_object *o;

	(void)state;
	/* valid UTF-8: the string itself, no copy */
	assert_ptr_equal(tool_json_text(valid, &buf, &cap), valid);
	assert_null(buf);
	assert_string_equal(tool_json_text("x\xff" "y", &buf, &cap), "x\xef\xbf\xbdy");
	/* the buffer is reused, and grown */
	assert_string_equal(tool_json_text("\xfe\xfe\xfe\xfe\xfe\xfe\xfe\xfe\xfe\xfe"
					   "\xfe\xfe\xfe\xfe\xfe\xfe\xfe\xfe\xfe\xfe"
					   "\xfe\xfe\xfe\xfe\xfe", &buf, &cap),
			    "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
			    "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
			    "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
			    "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
			    "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	assert_true(cap >= 3 * 25 + 1);
	free(buf);
	o = tool_json_str("hx-x\xff");
	assert_string_equal(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN),
			    "\"hx-x\xef\xbf\xbd\"");
	json_object_put(o);
}

static void json_quote(void **state)
{
	char out[128];

	(void)state;
	assert_string_equal((tool_json_quote(out, "plain/name.c"), out), "\"plain/name.c\"");
	assert_string_equal((tool_json_quote(out, "q\"b\\s"), out), "\"q\\\"b\\\\s\"");
	assert_string_equal((tool_json_quote(out, "\b\f\n\r\t\x01\x1f\x7f"), out),
			    "\"\\b\\f\\n\\r\\t\\u0001\\u001f\x7f\"");
	assert_string_equal((tool_json_quote(out, "caf\xc3\xa9"), out), "\"caf\xc3\xa9\"");
	/* the plain check, eight bytes a step and the overlapping tail */
	assert_true(tool_esc_plain("abcdefghijklmnopq", 17));
	assert_false(tool_esc_plain("abcdefghijklmnop\\", 17));
	assert_false(tool_esc_plain("abcdefgh\x7fjklmnopq", 17));
	assert_false(tool_esc_plain("a\x1f", 2));
	assert_false(tool_esc_plain("abcdefghi\xc3\xa9", 11));
	assert_true(tool_esc_plain("", 0));
}

static void strerror_words(void **state)
{
	const char *a, *b;

	(void)state;
	setlocale(LC_MESSAGES, "C");
	assert_string_equal(tool_strerror(ENOENT), "no such file or directory");
	assert_string_equal(tool_strerror(-ENOENT), "no such file or directory");
	assert_true(strcmp(tool_strerror(EIO), "input/output error") == 0 || strcmp(tool_strerror(EIO), "I/O error") == 0);
	assert_string_equal(tool_strerror(EACCES), "permission denied");
	/* two in one message stay apart; the same one is made once */
	a = tool_strerror(EPERM);
	b = tool_strerror(ENOSPC);
	assert_string_equal(a, "operation not permitted");
	assert_string_equal(b, "no space left on device");
	assert_ptr_equal(tool_strerror(EPERM), a);
	assert_string_equal(tool_strerror(100000), "unknown error");
}

static void string_helpers(void **state)
{
	unsigned long long v = 7;
	const char *end = NULL;
	char s[] = "value \t\r\n\n";

	(void)state;
	assert_true(str_ends_with("x.pressure", ".pressure"));
	assert_true(str_ends_with(".peak", ".peak"));
	assert_false(str_ends_with("peak", ".peak"));
	assert_true(str_ends_with_n("a.slice/b", 7, ".slice"));
	assert_true(str_ends_with_icase("plot.SVG", ".svg"));
	assert_false(str_ends_with_icase("svg", ".svg"));
	assert_string_equal(str_rtrim(s), "value");
	assert_string_equal(str_rtrim(s), "value");
	assert_int_equal(str_parse_uint("0", 10, NULL, &v, NULL), 0);
	assert_true(v == 0);
	assert_int_equal(str_parse_uint("18446744073709551615", ~0ULL, NULL, &v, NULL), 0);
	assert_true(v == ~0ULL);
	assert_int_equal(str_parse_uint("18446744073709551616", ~0ULL, NULL, &v, NULL), -ERANGE);
	assert_int_equal(str_parse_uint("86401", 86400, NULL, &v, NULL), -ERANGE);
	assert_int_equal(str_parse_uint("1", 0, NULL, &v, NULL), -ERANGE);
	assert_int_equal(str_parse_uint("12+", 100, "+", &v, &end), 0);
	assert_true(v == 12 && *end == '+');
	v = 7;
	for (const char *const *b = (const char *const[]){ "", "-1", "+1", " 1", "1 ", "0x1",
							  "1+", NULL }; *b; b++)
		assert_int_equal(str_parse_uint(*b, 100, NULL, &v, NULL), -EINVAL);
	assert_int_equal(str_parse_uint(NULL, 100, NULL, &v, NULL), -EINVAL);
	assert_true(v == 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(esc_table),
		cmocka_unit_test(esc_distinct),
		cmocka_unit_test(esc_cut),
		cmocka_unit_test(unesc_refuses),
		cmocka_unit_test(esc_locale),
		cmocka_unit_test(fputs_esc),
		cmocka_unit_test(csv_table),
		cmocka_unit_test(json_text),
		cmocka_unit_test(json_quote),
		cmocka_unit_test(strerror_words),
		cmocka_unit_test(string_helpers),
	};

	return cmocka_run_group_tests_name("tool kit (src/common)", tests, NULL, NULL);
}
