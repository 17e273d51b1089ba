/*
 * The metrics writer (src/common/openmetrics.c): label and HELP escaping
 * (OpenMetrics 1.0 and Prometheus' text format: \\, \", \n, invalid UTF-8
 * as U+FFFD), names, and whole expositions in both dialects.
 */
#include "testutil.h"
#include <errno.h>
#include <math.h>
#include "openmetrics.h"

static const struct {
	const char *in;
	bool dquote;
	const char *out;
} esc_cases[] = {
	{ "", true, "" },
	{ "plain/file_1.c", true, "plain/file_1.c" },
	{ "a\\b", true, "a\\\\b" },
	{ "say \"hi\"", true, "say \\\"hi\\\"" },
	{ "say \"hi\"", false, "say \"hi\"" },	/* Prometheus' HELP */
	{ "two\nlines\n", true, "two\\nlines\\n" },
	{ "\\n", true, "\\\\n" },		/* a backslash and n: not a newline */
	{ "tab\there\r", true, "tab\there\r" },	/* only \\, \" and LF escaped */
	{ "$(touch x)`y`", true, "$(touch x)`y`" },
	{ "caf\xc3\xa9 \xe2\x82\xac", true, "caf\xc3\xa9 \xe2\x82\xac" },
	{ "bad\xff\xfe", true, "bad\xef\xbf\xbd\xef\xbf\xbd" },
	{ "\xc3", true, "\xef\xbf\xbd" },		/* cut short */
	{ "\xc0\xaf", true, "\xef\xbf\xbd\xef\xbf\xbd" },	/* overlong */
	{ "\xed\xa0\x80", true, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" },	/* surrogate */
	{ "\xff\\\"\n", true, "\xef\xbf\xbd\\\\\\\"\\n" },
};

static void escape_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(esc_cases) / sizeof(*esc_cases); i++) {
		size_t len = strlen(esc_cases[i].in);
		char *buf = malloc(TOOL_OM_ESC_SIZE(len) + 8);
		char *end;

		assert_non_null(buf);
		memset(buf, 'Z', TOOL_OM_ESC_SIZE(len) + 8);
		end = tool_om_escape(buf, esc_cases[i].in, esc_cases[i].dquote);
		assert_string_equal(buf, esc_cases[i].out);
		assert_true(end == buf + strlen(esc_cases[i].out));
		assert_true((size_t)(end - buf) < TOOL_OM_ESC_SIZE(len));
		free(buf);
	}
}

/* The worst case fits TOOL_OM_ESC_SIZE exactly: 3 bytes per byte. */
static void escape_size(void **state)
{
	char in[] = "\xff\xff\xff\xff", out[TOOL_OM_ESC_SIZE(4)];

	(void)state;
	assert_true(tool_om_escape(out, in, true) == out + 12);
}

static void names(void **state)
{
	(void)state;
	assert_true(tool_om_name_ok("likelytop_branch_correct", false));
	assert_true(tool_om_name_ok("a:b_c9", false));
	assert_true(tool_om_name_ok("_x", true));
	assert_false(tool_om_name_ok("a:b", true));
	assert_false(tool_om_name_ok("9x", false));
	assert_false(tool_om_name_ok("", false));
	assert_false(tool_om_name_ok(NULL, false));
	assert_false(tool_om_name_ok("a-b", false));
	assert_false(tool_om_name_ok("a b", true));
	assert_false(tool_om_name_ok("caf\xc3\xa9", true));
}

/* Write with fn into memory; returns the text (malloc'd). */
static char *expose(enum tool_om_dialect d, void (*fn)(struct tool_om *))
{
	char *text = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&text, &size);
	struct tool_om om;

	assert_non_null(fp);
	tool_om_init(&om, fp, d);
	fn(&om);
	tool_om_end(&om);
	assert_int_equal(fclose(fp), 0);
	return text;
}

static void families(struct tool_om *om)
{
	const struct tool_om_label l[] = {
		{ "file", "a\"b\\c\nd" }, { "line", "7" },
	};

	assert_int_equal(tool_om_family(om, "t_hits", TOOL_OM_COUNTER, NULL,
					"Hits, \"all\" of them\\n."), 0);
	assert_int_equal(tool_om_sample(om, l, 2, 18446744073709551615ULL), 0);
	assert_int_equal(tool_om_sample(om, NULL, 0, 0), 0);
	assert_int_equal(tool_om_family(om, "t_used_bytes", TOOL_OM_GAUGE, "bytes",
					"Used."), 0);
	assert_int_equal(tool_om_sample_double(om, l + 1, 1, 1.5), 0);
	assert_int_equal(tool_om_sample_double(om, NULL, 0, NAN), 0);
	assert_int_equal(tool_om_sample_double(om, NULL, 0, -INFINITY), 0);
}

static void exposition_openmetrics(void **state)
{
	char *t = expose(TOOL_OM_OPENMETRICS, families);

	(void)state;
	assert_string_equal(t,
		"# TYPE t_hits counter\n"
		"# HELP t_hits Hits, \\\"all\\\" of them\\\\n.\n"
		"t_hits_total{file=\"a\\\"b\\\\c\\nd\",line=\"7\"} 18446744073709551615\n"
		"t_hits_total 0\n"
		"# TYPE t_used_bytes gauge\n"
		"# UNIT t_used_bytes bytes\n"
		"# HELP t_used_bytes Used.\n"
		"t_used_bytes{line=\"7\"} 1.5\n"
		"t_used_bytes NaN\n"
		"t_used_bytes -Inf\n"
		"# EOF\n");
	free(t);
}

static void exposition_prometheus(void **state)
{
	char *t = expose(TOOL_OM_PROMETHEUS, families);

	(void)state;
	assert_string_equal(t,
		"# HELP t_hits_total Hits, \"all\" of them\\\\n.\n"
		"# TYPE t_hits_total counter\n"
		"t_hits_total{file=\"a\\\"b\\\\c\\nd\",line=\"7\"} 18446744073709551615\n"
		"t_hits_total 0\n"
		"# HELP t_used_bytes Used.\n"
		"# TYPE t_used_bytes gauge\n"
		"t_used_bytes{line=\"7\"} 1.5\n"
		"t_used_bytes NaN\n"
		"t_used_bytes -Inf\n");
	free(t);
}

static void refused(struct tool_om *om)
{
	const struct tool_om_label bad[] = { { "a-b", "x" } };

	assert_int_equal(tool_om_sample(om, NULL, 0, 1), -EINVAL);	/* no family */
	assert_int_equal(tool_om_family(om, "t x", TOOL_OM_GAUGE, NULL, ""), -EINVAL);
	assert_int_equal(tool_om_family(om, "t_used", TOOL_OM_GAUGE, "bytes", ""), -EINVAL);
	assert_int_equal(tool_om_family(om, "bytes", TOOL_OM_GAUGE, "bytes", ""), -EINVAL);
	assert_int_equal(tool_om_family(om, "t_ok", TOOL_OM_GAUGE, "", "ok"), 0);
	assert_int_equal(tool_om_sample(om, bad, 1, 1), -EINVAL);
}

static void exposition_refused(void **state)
{
	char *t = expose(TOOL_OM_OPENMETRICS, refused);

	(void)state;
	assert_string_equal(t, "# TYPE t_ok gauge\n# HELP t_ok ok\n# EOF\n");
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(escape_table),
		cmocka_unit_test(escape_size),
		cmocka_unit_test(names),
		cmocka_unit_test(exposition_openmetrics),
		cmocka_unit_test(exposition_prometheus),
		cmocka_unit_test(exposition_refused),
	};

	return cmocka_run_group_tests_name("metrics writer (src/common/openmetrics.c)",
					   tests, NULL, NULL);
}
