/*
 * likelytop's batch output under hostile names: random rows whose function
 * and file names are random bytes (commas, quotes, CR, TAB, escape
 * sequences, C1 controls, valid and invalid UTF-8, overlong forms,
 * surrogates, cut-short sequences), random counts, rates and resets,
 * printed in every format and checked by out_check.h: JSON parses with
 * json-c's strict, UTF-8-validating tokener, CSV has 11 fields per record
 * with RFC 4180 quoting, text has one line per row and no control byte.
 * Plus the exact rendering of a reset and of the replacements.
 */
#include "testutil.h"
#include <errno.h>
#include <stdlib.h>
#include "out_check.h"
#include "tool.h"

static uint64_t rng = 0x243f6a8885a308d3ULL;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* A random name: pieces chosen to break each format. */
static void random_name(char *out, size_t cap)
{
	static const char *const pieces[] = {
		"f", "do_thing", ",", "\"", "\"\"", "\r", "\t", " ", "\x1b[2J",
		"\x7f", "\x01", "\xc2\x9b", "\xc3\xa9", "\xe2\x82\xac",
		"\xf0\x9f\x98\x80", "\xff", "\xc0\xaf", "\xe0\x80\xaf",
		"\xed\xa0\x80", "\xf4\x90\x80\x80", "\xe2\x82", "\xf0\x9f",
		"\x80", "\xbf", "\xc3", "a.c", "/", "\\", "\\x", "{}", "[",
	};
	size_t len = 0, k = next() % 8 + 1;

	for (size_t i = 0; i < k; i++) {
		const char *p = pieces[next() % (sizeof(pieces) / sizeof(pieces[0]))];
		size_t l = strlen(p);

		if (len + l + 1 > cap)
			break;
		memcpy(out + len, p, l);
		len += l;
	}
	if (!len)
		out[len++] = 'x';
	out[len] = '\0';
}

static char *render(enum lt_out_format f, const struct lt_out_meta *meta,
		    const struct kattr_profile_entry *const *rows, size_t n,
		    size_t *len)
{
	char *buf = NULL;
	FILE *fp = open_memstream(&buf, len);

	assert_non_null(fp);
	assert_int_equal(lt_out_write(fp, f, meta, rows, n), 0);
	assert_int_equal(fclose(fp), 0);
	return buf;
}

/*
 * The JSON output as json-c wrote it before likelytop wrote it by hand
 * (one object per row, names repaired to UTF-8 first): the hand-written
 * writer must give the same bytes.
 */
static json_object *ref_fixed(double v, int decimals)
{
	/* rounded as CSV rounds: half up, at that many decimals */
	uint64_t m = decimals == 2 ? 100 : 1000, t = (uint64_t)(v * (double)m + 0.5);
	char buf[64];
	size_t n = v < 1e15 ?
		   (size_t)snprintf(buf, sizeof(buf), "%llu.%0*llu",
				    (unsigned long long)(t / m), decimals,
				    (unsigned long long)(t % m)) :
		   (size_t)snprintf(buf, sizeof(buf), "%.*f", decimals, v);

	while (n > 2 && buf[n - 1] == '0' && buf[n - 2] != '.')
		buf[--n] = '\0';
	return json_object_new_double_s(strtod(buf, NULL), buf);
}

static char *ref_json(const struct kattr_profile_entry *const *rows, size_t n)
{
	char *buf = NULL;
	size_t len;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	fputc('[', fp);
	for (size_t i = 0; i < n; i++) {
		const struct kattr_profile_entry *e = rows[i];
		double pct = kattr_profile_entry_pct(e);
		char fn[512], file[512];
		json_object *o = json_object_new_object();

		tool_utf8_repair_into(fn, e->function);
		tool_utf8_repair_into(file, e->file);
		json_object_object_add(o, "hint", json_object_new_string(kattr_profile_hint_name(e->hint)));
		json_object_object_add(o, "correct", json_object_new_uint64(e->correct));
		json_object_object_add(o, "incorrect", json_object_new_uint64(e->incorrect));
		json_object_object_add(o, "miss_pct", pct >= 0 ? ref_fixed(pct, 2) : NULL);
		json_object_object_add(o, "constant", e->has_constant ?
				       json_object_new_uint64(e->constant) : NULL);
		json_object_object_add(o, "function", json_object_new_string(fn));
		json_object_object_add(o, "file", json_object_new_string(file));
		json_object_object_add(o, "line", json_object_new_int64(e->line));
		if (e->has_rate)
			json_object_object_add(o, "rate", ref_fixed(e->rate, 3));
		if (e->reset)
			json_object_object_add(o, "reset", json_object_new_boolean(1));
		fprintf(fp, "%s%s", i ? "," : "",
			json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
						       JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(o);
	}
	fputs("]\n", fp);
	assert_int_equal(fclose(fp), 0);
	return buf;
}

static void random_rows_well_formed(void **state)
{
	enum { N = 24 };
	static char names[N][2][128];
	struct kattr_profile_entry e[N];
	const struct kattr_profile_entry *rows[N];
	char why[256];

	(void)state;
	for (int round = 0; round < 3000; round++) {
		size_t n = next() % (N + 1);
		struct lt_out_meta meta = {
			.source = round & 1 ? "prof\x1b]0;owned\x07\xff.txt" : "p",
			.format = (enum kattr_profile_format)(next() % 3 + 1),
			.iteration = next() % 3 + 1, .sites = n, .time = 0,
		};

		for (size_t i = 0; i < n; i++) {
			memset(&e[i], 0, sizeof(e[i]));
			random_name(names[i][0], sizeof(names[i][0]));
			random_name(names[i][1], sizeof(names[i][1]));
			e[i].function = names[i][0];
			e[i].file = names[i][1];
			e[i].hint = (enum kattr_profile_hint)(next() % 4);
			e[i].correct = next() >> (next() % 64);
			e[i].incorrect = next() >> (next() % 64);
			e[i].has_constant = next() & 1;
			e[i].constant = next() >> 40;
			e[i].line = (unsigned int)next();
			e[i].reset = next() % 4 == 0;
			e[i].has_rate = !e[i].reset && (next() & 1);
			e[i].rate = e[i].has_rate ? (double)(next() >> 20) / 7 : 0;
			rows[i] = &e[i];
		}
		for (int f = LT_OUT_TEXT; f <= LT_OUT_JSON; f++) {
			size_t len;
			char *buf = render((enum lt_out_format)f, &meta, rows, n, &len);

			if (lt_check_output((enum lt_out_format)f, &meta, buf, len,
					    rows, n, why, sizeof(why)) < 0)
				fail_msg("round %d, format %d: %s\n%.*s", round, f, why,
					 (int)(len < 2000 ? len : 2000), buf);
			if (f == LT_OUT_JSON) {
				char *want = ref_json(rows, n);

				if (strcmp(buf, want)) {
					size_t d = 0;

					while (buf[d] == want[d])
						d++;
					d = d > 40 ? d - 40 : 0;
					fail_msg("round %d: JSON differs from json-c's at byte %zu:\n%.100s\n%.100s",
						 round, d + 40, buf + d, want + d);
				}
				free(want);
			}
			free(buf);
		}
	}
}

/* The exact forms: a reset, \xNN in text, U+FFFD in CSV and JSON. */
static void reset_and_replacements(void **state)
{
	struct kattr_profile_entry e = {
		.hint = KATTR_PROFILE_HINT_LIKELY, .correct = 12, .incorrect = 3,
		.reset = true, .d_incorrect = 3,
		.function = "f\x1b[2J\xff", .file = "a,\"\xc3\xa9\".c", .line = 7,
	};
	const struct kattr_profile_entry *rows[] = { &e };
	struct lt_out_meta meta = { .source = "s", .format = KATTR_PROFILE_FMT_LIKELY_PROF,
				    .iteration = 2, .sites = 1 };
	size_t len;
	char *out;

	(void)state;
	out = render(LT_OUT_TEXT, &meta, rows, 1, &len);
	assert_non_null(strstr(out, " reset f\\x1b[2J\\xff a,\"\xc3\xa9\".c:7\n"));
	free(out);
	out = render(LT_OUT_CSV, &meta, rows, 1, &len);
	assert_string_equal(out, "2,likely,12,3,20.00,,f\x1b[2J\xef\xbf\xbd,\"a,\"\"\xc3\xa9\"\".c\",7,,1\n");
	free(out);
	out = render(LT_OUT_JSON, &meta, rows, 1, &len);
	assert_string_equal(out, "[{\"hint\":\"likely\",\"correct\":12,\"incorrect\":3,"
			    "\"miss_pct\":20.0,\"constant\":null,"
			    "\"function\":\"f\\u001b[2J\xef\xbf\xbd\",\"file\":\"a,\\\"\xc3\xa9\\\".c\","
			    "\"line\":7,\"reset\":true}]\n");
	free(out);
	e.reset = false;
	e.has_rate = true;
	e.rate = 1.5;
	out = render(LT_OUT_CSV, &meta, rows, 1, &len);
	assert_non_null(strstr(out, ",7,1.500,\n"));
	free(out);
}

/* The checker itself refuses each kind of damage (it is what the random
 * rounds and the fuzz target rely on). */
static void checker_refuses(void **state)
{
	struct kattr_profile_entry e = {
		.hint = KATTR_PROFILE_HINT_UNLIKELY, .correct = 5, .incorrect = 9,
		.function = "kfree", .file = "mm/slab.c", .line = 3,
	};
	const struct kattr_profile_entry *rows[] = { &e };
	struct lt_out_meta meta = { .source = "s", .format = KATTR_PROFILE_FMT_LIKELY_PROF,
				    .iteration = 2, .sites = 1 };
	static const char *const bad_csv[] = {
		"2,unlikely,5,9,64.29,,kfree,\"mm/slab.c,3,,\n",	/* open quote */
		"2,unlikely,5,9,64.29,,kfree,mm/slab.c,3,,\r\n",	/* bare CR */
		"2,unlikely,5,9,64.29,,kfreE,mm/slab.c,3,,\n",	/* name changed */
		"2,unlikely,5,9,64.29,,kfree,mm/slab.c,3,\n",	/* 10 fields */
		"2,unlikely,5,9,64.29,,kfree,mm/slab.c,3,,",		/* no newline */
		"2,unlikely,5,9,64.29,,\"kf\"ree,mm/slab.c,3,,\n",	/* text after quote */
	};
	static const char *const bad_json[] = {
		"[{\"function\":\"kfree\",\"file\":\"mm/slab.c\"}]\n\n",
		"[{\"function\":\"kfree\",\"file\":\"mm/slab.c\"}]",
		"[{\"function\":\"kfree\",\"file\":\"mm/slab.h\"}]\n",
		"[{\"function\":\"kfree\"}]\n",
		"[{\"function\":\"kfree\",\"file\":\"mm/slab.c\",}]\n",
		"[]\n",
	};
	char why[256];
	size_t len;
	char *out;

	(void)state;
	for (int f = LT_OUT_TEXT; f <= LT_OUT_JSON; f++) {
		out = render((enum lt_out_format)f, &meta, rows, 1, &len);
		assert_int_equal(lt_check_output((enum lt_out_format)f, &meta, out, len,
						 rows, 1, why, sizeof(why)), 0);
		/* one byte short: the final newline gone */
		assert_int_equal(lt_check_output((enum lt_out_format)f, &meta, out, len - 1,
						 rows, 1, why, sizeof(why)), -1);
		free(out);
	}
	for (size_t i = 0; i < sizeof(bad_csv) / sizeof(bad_csv[0]); i++)
		if (lt_check_output(LT_OUT_CSV, &meta, bad_csv[i], strlen(bad_csv[i]),
				    rows, 1, why, sizeof(why)) == 0)
			fail_msg("csv %zu accepted: %s", i, bad_csv[i]);
	for (size_t i = 0; i < sizeof(bad_json) / sizeof(bad_json[0]); i++)
		if (lt_check_output(LT_OUT_JSON, &meta, bad_json[i], strlen(bad_json[i]),
				    rows, 1, why, sizeof(why)) == 0)
			fail_msg("json %zu accepted: %s", i, bad_json[i]);
	out = render(LT_OUT_TEXT, &meta, rows, 1, &len);
	out[2] = '\x1b';
	assert_int_equal(lt_check_output(LT_OUT_TEXT, &meta, out, len, rows, 1, why,
					 sizeof(why)), -1);
	assert_non_null(strstr(why, "control byte"));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(random_rows_well_formed),
		cmocka_unit_test(reset_and_replacements),
		cmocka_unit_test(checker_refuses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
