// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rgctl's --json documents and dump under hostile names (src/rgctl/json.c,
 * checked by tests/fuzz/rgctl_json_check.h, shared with the fuzz target):
 * group names, stat keys and comm with invalid UTF-8 still give valid JSON,
 * valid names come back unchanged, 64-bit counters stay unsigned; stats'
 * metric names (src/rgctl/stats_om.c) and their families.
 */
#include <errno.h>

#include "testutil.h"

#include "rgctl_json_check.h"

static void check(const char *data, size_t size)
{
	char why[512] = "";
	int ret = rgc_check((const uint8_t *)data, size, why, sizeof(why));

	if (ret < 0)
		print_message("%s\n", why);
	assert_int_equal(ret, 0);
}

/* Strings cut at NUL: every document gets some of them. */
static void test_fuzz_seeds(void **state)
{
	static const char a[] = "cgroup1\0db\0db/batch\0/sys/fs/cgroup/cpu";
	static const char b[] = "\xff\0db\xc3\0\xed\xa0\x80x\0\xf4\x90\x80\x80\0\xc0\xaf";
	static const char c[] = "q\"uote\0back\\slash\0tab\there\0new\nline\0\x7f\x01\x1f";

	(void)state;
	check(a, sizeof(a) - 1);
	check(b, sizeof(b) - 1);
	check(c, sizeof(c) - 1);
}

static json_object *parse(json_object *doc)
{
	char why[256];
	json_object *out = NULL;

	if (rgc_parse(doc, &out, why, sizeof(why)) < 0)
		print_message("%s\n", why);
	json_object_put(doc);
	assert_non_null(out);
	return out;
}

static void test_invalid_utf8_replaced(void **state)
{
	struct kattr_rg_info g = { .name = (char *)"db\xff", .depth = 1 };
	struct rgctl_json_hier h = { "cgroup1", "/sys/fs/cgroup/cpu", "cpu.shares", false };
	char *miss[] = { (char *)"memory, cpu,cpuacct, p\xff" };
	json_object *o = parse(rgctl_json_list(&h, &g, 1, miss)), *v, *m;

	(void)state;
	v = json_object_array_get_idx(json_object_object_get(o, "groups"), 0);
	assert_string_equal(json_object_get_string(json_object_object_get(v, "name")),
			    "db\xef\xbf\xbd");
	/* missing: one string per hierarchy, named by its controllers */
	m = json_object_object_get(v, "missing");
	assert_int_equal(json_object_array_length(m), 3);
	assert_string_equal(json_object_get_string(json_object_array_get_idx(m, 1)),
			    "cpu,cpuacct");
	assert_string_equal(json_object_get_string(json_object_array_get_idx(m, 2)),
			    "p\xef\xbf\xbd");
	json_object_put(o);
	o = parse(rgctl_json_list(&h, &g, 1, NULL));
	v = json_object_array_get_idx(json_object_object_get(o, "groups"), 0);
	assert_false(json_object_object_get_ex(v, "missing", NULL));
	json_object_put(o);
	o = parse(rgctl_json_whereis(1, "a/\xed\xa0\x80", "cgroup2"));
	assert_string_equal(json_object_get_string(json_object_object_get(o, "group")),
			    "a/\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	json_object_put(o);
	/* whereis's places: null for a place outside the root */
	{
		struct kattr_rg_place pl[2] = {
			{ (char *)"cpu", (char *)"a\xff", (char *)"/a\xff" },
			{ (char *)"memory", NULL, (char *)"/x" },
		};
		json_object *a = parse(rgctl_json_places(pl, 2)), *p;

		assert_int_equal(json_object_array_length(a), 2);
		p = json_object_array_get_idx(a, 0);
		assert_string_equal(json_object_get_string(json_object_object_get(p, "group")),
				    "a\xef\xbf\xbd");
		p = json_object_array_get_idx(a, 1);
		assert_string_equal(json_object_get_string(json_object_object_get(p, "hierarchy")),
				    "memory");
		assert_true(json_object_object_get_ex(p, "group", &v));
		assert_null(v);
		json_object_put(a);
	}
}

static void test_stat_keys(void **state)
{
	struct kattr_rg_stat v[2] = {
		{ .res = (char *)"cpu\xc3", .key = (char *)"usage\xfe", .value = 5, .has_value = true },
		{ .res = (char *)"cpu", .key = (char *)"nr_periods", .value = 7, .has_value = true },
	};
	json_object *o = parse(rgctl_json_stats("/", "cgroup1", v, 2)), *s, *r;

	(void)state;
	s = json_object_object_get(o, "stats");
	assert_true(json_object_object_get_ex(s, "cpu\xef\xbf\xbd", &r));
	assert_true(json_object_object_get_ex(r, "usage\xef\xbf\xbd", NULL));
	assert_true(json_object_object_get_ex(s, "cpu", &r));
	assert_int_equal(json_object_get_int64(json_object_object_get(r, "nr_periods")), 7);
	json_object_put(o);
}

static void test_taskstats(void **state)
{
	struct kattr_taskstats t = { .cpu_count = UINT64_MAX };
	json_object *o, *v;

	(void)state;
	memcpy(t.comm, "\xff\xfe" "comm", 7);
	o = parse(rgctl_json_taskstats(42, &t));
	v = json_object_object_get(o, "comm");
	assert_string_equal(json_object_get_string(v), "\xef\xbf\xbd\xef\xbf\xbd" "comm");
	/* a counter past INT64_MAX is not printed negative */
	assert_true(json_object_get_uint64(json_object_object_get(o, "cpu_count")) == UINT64_MAX);
	json_object_put(o);
}

/* stats --format openmetrics: names by Prometheus' conventions. */
static void test_metric_names(void **state)
{
	static const struct {
		const char *res, *key, *want;
		enum kattr_rg_unit unit;
	} t[] = {
		{ "cpu", "usage_usec", "rgctl_cpu_usage_seconds", KATTR_RG_UNIT_USEC },
		{ "cpu", "pressure.some.total_usec", "rgctl_cpu_pressure_some_seconds", KATTR_RG_UNIT_USEC },
		{ "cpu", "pressure.some.avg10", "rgctl_cpu_pressure_some_avg10_ratio", KATTR_RG_UNIT_CENTIPCT },
		{ "memory", "current", "rgctl_memory_current_bytes", KATTR_RG_UNIT_BYTES },
		{ "memory", "events.oom_kill", "rgctl_memory_events_oom_kill", KATTR_RG_UNIT_COUNT },
		{ "io", "rbytes", "rgctl_io_read_bytes", KATTR_RG_UNIT_BYTES },
		{ "io", "wios", "rgctl_io_write_ios", KATTR_RG_UNIT_COUNT },
		{ "pids", "current", "rgctl_pids_current", KATTR_RG_UNIT_COUNT },
		{ "num tasks\xff", "..Current usage__", "rgctl_num_tasks_Current_usage", KATTR_RG_UNIT_COUNT },
	};
	char name[128];
	const char *unit;
	double div;

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(*t); i++) {
		struct kattr_rg_stat s = {
			.res = (char *)t[i].res, .key = (char *)t[i].key,
			.has_value = true, .unit = t[i].unit,
		};

		assert_int_equal(rgctl_om_metric(&s, name, sizeof(name), &unit, &div), 0);
		assert_string_equal(name, t[i].want);
	}
	{
		struct kattr_rg_stat s = { .res = (char *)"cpu", .key = (char *)"x" };

		assert_int_equal(rgctl_om_metric(&s, name, sizeof(name), &unit, &div), -ENODATA);
	}
}

/* Samples of one family together across groups and devices; a group
 * named twice once; the group a label, escaped. */
static void test_metric_families(void **state)
{
	struct kattr_rg_stat v[3] = {
		{ .res = (char *)"io", .key = (char *)"rbytes", .dev = (char *)"8:0", .value = 1,
		  .has_value = true, .unit = KATTR_RG_UNIT_BYTES, .counter = true },
		{ .res = (char *)"io", .key = (char *)"wbytes", .dev = (char *)"8:0", .value = 2,
		  .has_value = true, .unit = KATTR_RG_UNIT_BYTES, .counter = true },
		{ .res = (char *)"io", .key = (char *)"rbytes", .dev = (char *)"8:16", .value = 3,
		  .has_value = true, .unit = KATTR_RG_UNIT_BYTES, .counter = true },
	};
	struct rgctl_om_group g[3] = {
		{ "a\"b", v, 3 }, { "c\\d", v, 3 }, { "a\"b", v, 3 },
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(fp);
	assert_int_equal(rgctl_stats_om_write(fp, TOOL_OM_PROMETHEUS, g, 3), 0);
	fclose(fp);
	assert_string_equal(buf,
		"# HELP rgctl_io_read_bytes_total rgctl stats: io rbytes, from its stats file, in bytes\n"
		"# TYPE rgctl_io_read_bytes_total counter\n"
		"rgctl_io_read_bytes_total{group=\"a\\\"b\",device=\"8:0\"} 1\n"
		"rgctl_io_read_bytes_total{group=\"a\\\"b\",device=\"8:16\"} 3\n"
		"rgctl_io_read_bytes_total{group=\"c\\\\d\",device=\"8:0\"} 1\n"
		"rgctl_io_read_bytes_total{group=\"c\\\\d\",device=\"8:16\"} 3\n"
		"# HELP rgctl_io_write_bytes_total rgctl stats: io wbytes, from its stats file, in bytes\n"
		"# TYPE rgctl_io_write_bytes_total counter\n"
		"rgctl_io_write_bytes_total{group=\"a\\\"b\",device=\"8:0\"} 2\n"
		"rgctl_io_write_bytes_total{group=\"c\\\\d\",device=\"8:0\"} 2\n");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fuzz_seeds),
		cmocka_unit_test(test_invalid_utf8_replaced),
		cmocka_unit_test(test_stat_keys),
		cmocka_unit_test(test_taskstats),
		cmocka_unit_test(test_metric_names),
		cmocka_unit_test(test_metric_families),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
