// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * splicebench's CSV and JSON reports under hostile values (checked by
 * tests/fuzz/sb_output_check.h, shared with fuzz_sb_output.c): error
 * messages and system facts with invalid UTF-8, quotes, commas and
 * newlines; NaN and infinite figures.
 */
#include <math.h>

#include "testutil.h"

#include "sb_output_check.h"
#include "sb_report_gen.h"

static void check(const struct sb_report *rep)
{
	char why[512] = "";
	int ret = sbc_check(rep, why, sizeof(why));

	if (ret < 0)
		print_message("%s\n", why);
	assert_int_equal(ret, 0);
}

static struct sb_config cfg = { .consumer = SB_VERIFY, .pin_producer = -1 };

static void base_report(struct sb_report *rep, struct sb_result *res, int n)
{
	memset(rep, 0, sizeof(*rep));
	memset(res, 0, sizeof(*res) * (size_t)n);
	rep->cfg = &cfg;
	rep->res = res;
	rep->nres = n;
	strcpy(rep->facts.kernel_release, "6.1.0");
	strcpy(rep->facts.cpu_model, "AMD EPYC");
	for (int i = 0; i < n; i++) {
		res[i].size = 4096u << i;
		res[i].runs = 3;
		res[i].gbps = (struct sb_stats){ 1.5, 1.0, 2.0, 0.66, 3 };
	}
}

static char *render(const struct sb_report *rep, bool json)
{
	size_t len;
	char *buf = sbc_render(rep, json, &len);

	assert_non_null(buf);
	return buf;
}

static void test_error_text(void **state)
{
	struct sb_result res[2];
	struct sb_report rep;
	char *csv, *json;

	(void)state;
	base_report(&rep, res, 2);
	res[1].failed = true;
	snprintf(res[1].why, sizeof(res[1].why),
		 "cannot open 'x\xff\"y,z\n': \xc3 is a FIFO");
	check(&rep);
	csv = render(&rep, false);
	assert_non_null(strstr(csv, "\"cannot open 'x\xef\xbf\xbd\"\"y,z\n': \xef\xbf\xbd is a FIFO\",,,"));
	json = render(&rep, true);
	assert_non_null(strstr(json, "x\xef\xbf\xbd\\\"y,z\\n"));
	free(csv);
	free(json);
}

static void test_facts(void **state)
{
	struct sb_result res[1];
	struct sb_report rep;

	(void)state;
	base_report(&rep, res, 1);
	strcpy(rep.facts.cpu_model, "Intel\xae Xeon\xa0");
	strcpy(rep.facts.virt, "\xe0\x80\x80");
	check(&rep);
}

static void test_not_finite(void **state)
{
	struct sb_result res[1];
	struct sb_report rep;
	char *csv, *json;

	(void)state;
	base_report(&rep, res, 1);
	res[0].gbps.median = NAN;
	res[0].gbps.spread = INFINITY;
	res[0].cpu_producer = -INFINITY;
	rep.base.hot.median = NAN;
	check(&rep);
	json = render(&rep, true);
	assert_null(strstr(json, "nan"));
	assert_null(strstr(json, "inf"));
	assert_non_null(strstr(json, "\"median_gbps\":null"));
	csv = render(&rep, false);
	assert_null(strstr(csv, "nan"));
	assert_null(strstr(csv, "inf"));
	free(csv);
	free(json);
}

/* A few inputs of the fuzz target's shape: bytes into every field. */
static void test_generated(void **state)
{
	static struct sbgen g;
	uint8_t data[2048];

	(void)state;
	for (unsigned int seed = 1; seed <= 200; seed++) {
		srand(seed);
		for (size_t i = 0; i < sizeof(data); i++)
			data[i] = (uint8_t)rand();
		sbgen_fill(&g, data, sizeof(data));
		check(&g.rep);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_error_text),
		cmocka_unit_test(test_facts),
		cmocka_unit_test(test_not_finite),
		cmocka_unit_test(test_generated),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
