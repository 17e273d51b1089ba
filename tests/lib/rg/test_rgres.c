/* lib/rg/rgres.c: the resource table, values good and bad, their text, and
 * each backend's file text both ways. */
#include "testutil.h"
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include "kattr/rgres.h"
#include "kattr/private.h"

static const struct kattr_rgres_limits lim = {
	.mem_total = 8ULL << 30, .page_size = 4096, .nr_cpus = 4, .nr_mems = 2,
};

/* name, value, expected return, expected text ("" when an error) */
static const struct good_bad {
	const char *name, *value;
	int ret;
	const char *text;
} cases[] = {
	{ "cpu.weight", "100", 0, "100" },
	{ "CPUWeight", "300", 0, "300" },
	{ "cpuweight", "1", 0, "1" },
	{ "cpu.weight", "10000", 0, "10000" },
	{ "cpu.weight", "0", -ERANGE, "" },
	{ "cpu.weight", "10001", -ERANGE, "" },
	{ "cpu.weight", "-5", -ERANGE, "" },
	{ "cpu.weight", "18446744073709551616", -ERANGE, "" },
	{ "cpu.weight", "1e3", -EINVAL, "" },
	{ "cpu.weight", "", -EINVAL, "" },
	{ "cpu.weight", " 7", -EINVAL, "" },
	{ "cpu.max", "max", 0, "max" },
	{ "cpu.max", "50%", 0, "50%" },
	{ "CPUQuota", "150%", 0, "150%" },
	{ "cpu.max", "400%", 0, "400%" },
	{ "cpu.max", "401%", -ERANGE, "" },
	{ "cpu.max", "0%", -ERANGE, "" },
	{ "cpu.max", "-5%", -ERANGE, "" },
	{ "cpu.max", "50000", 0, "50%" },
	{ "cpu.max", "20ms/50ms", 0, "20ms/50ms" },
	{ "cpu.max", "20000/50000", 0, "20ms/50ms" },
	{ "cpu.max", "1500us/1s", 0, "1500us/1s" },
	{ "cpu.max", "max/50ms", 0, "max/50ms" },
	{ "cpu.max", "500us", -ERANGE, "" },
	{ "cpu.max", "20ms/2s", -ERANGE, "" },
	{ "cpu.max", "20ms/500us", -ERANGE, "" },
	{ "cpu.max", "20 ms", -EINVAL, "" },
	{ "cpu.max", "20m", -EINVAL, "" },
	{ "cpu.max", "18446744073709551616", -ERANGE, "" },
	{ "cpu.max", "18446744073709551s", -ERANGE, "" },
	{ "cpu.max", "-1", -ERANGE, "" },
	{ "CPUQuota", "5s", -ERANGE, "" },
	{ "cpu.max", "400ms", 0, "400%" },
	{ "cpu.max", "401ms", -ERANGE, "" },
	{ "cpuset.cpus", "0-3", 0, "0-3" },
	{ "AllowedCPUs", "3,0-1,2", 0, "0-3" },
	{ "cpuset.cpus", "0,2", 0, "0,2" },
	{ "cpuset.cpus", "4", -ERANGE, "" },
	{ "cpuset.cpus", "0-7", -ERANGE, "" },
	{ "cpuset.cpus", "3-1", -EINVAL, "" },
	{ "cpuset.cpus", "", -EINVAL, "" },
	{ "cpuset.cpus", "0,", -EINVAL, "" },
	{ "cpuset.cpus", ",0", -EINVAL, "" },
	{ "cpuset.cpus", "-1", -ERANGE, "" },
	{ "cpuset.cpus", "0--1", -EINVAL, "" },
	{ "cpuset.cpus", "99999999999999999999", -ERANGE, "" },
	{ "cpuset.mems", "0-1", 0, "0-1" },
	{ "cpuset.mems", "2", -ERANGE, "" },
	{ "memory.max", "1G", 0, "1G" },
	{ "MemoryMax", "1g", 0, "1G" },
	{ "memory.max", "1536M", 0, "1536M" },
	{ "memory.max", "1073741824", 0, "1G" },
	{ "memory.max", "4097", 0, "4K" },
	{ "memory.max", "1000", 0, "0" },
	{ "memory.max", "max", 0, "max" },
	{ "memory.max", "infinity", 0, "max" },
	{ "memory.max", "50%", 0, "4G" },
	{ "memory.max", "100%", 0, "8G" },
	{ "memory.max", "0%", 0, "0" },
	{ "memory.max", "101%", -ERANGE, "" },
	{ "memory.max", "-1%", -ERANGE, "" },
	{ "memory.max", "1GB", -EINVAL, "" },
	{ "memory.max", "1GiB", -EINVAL, "" },
	{ "memory.max", "1P", -EINVAL, "" },
	{ "memory.max", "-1", -ERANGE, "" },
	{ "memory.max", "18446744073709551616", -ERANGE, "" },
	{ "memory.max", "18446744073709551615", -ERANGE, "" },
	{ "memory.max", "16777216T", -ERANGE, "" },
	{ "memory.max", "8388607T", 0, "8388607T" },
	{ "memory.max", "", -EINVAL, "" },
	{ "memory.max", "G", -EINVAL, "" },
	{ "memory.min", "16M", 0, "16M" },
	{ "MemoryLow", "2T", 0, "2T" },
	{ "memory.high", "512K", 0, "512K" },
	{ "MemorySwapMax", "0", 0, "0" },
	{ "io.weight", "100", 0, "100" },
	{ "IOWeight", "10000", 0, "10000" },
	{ "io.weight", "0", -ERANGE, "" },
	{ "io.max", "8:0 rbps=1M", 0, "8:0 rbps=1M" },
	{ "io.max", "8:0 rbps=1M wiops=100 wbps=max", 0, "8:0 rbps=1M wiops=100" },
	{ "io.max", "/dev/vda riops=10", 0, "/dev/vda riops=10" },
	{ "io.max", "8:0 rbps=max", 0, "8:0 rbps=max" },
	{ "IOReadBandwidthMax", "/dev/vda 1M", 0, "/dev/vda rbps=1M" },
	{ "IOWriteIOPSMax", "8:16 200", 0, "8:16 wiops=200" },
	{ "io.max", "8:0", -EINVAL, "" },
	{ "io.max", "8:0 rbps=0", -ERANGE, "" },
	{ "io.max", "8:0 rbps=-1", -ERANGE, "" },
	{ "io.max", "8:0 riops=1K", -EINVAL, "" },
	{ "io.max", "8:0 speed=1", -EINVAL, "" },
	{ "io.max", "8:0 rbps=1 rbps=2", -EINVAL, "" },
	{ "io.max", "sda rbps=1", -EINVAL, "" },
	{ "io.max", "8 rbps=1", -EINVAL, "" },
	{ "io.max", "8:0 rbps=18446744073709551616", -ERANGE, "" },
	{ "IOReadBandwidthMax", "/dev/vda 1M 2M", -EINVAL, "" },
	{ "pids.max", "20", 0, "20" },
	{ "TasksMax", "0", 0, "0" },
	{ "pids.max", "max", 0, "max" },
	{ "TasksMax", "infinity", 0, "max" },
	{ "pids.max", "4194304", 0, "4194304" },
	{ "pids.max", "4194305", -ERANGE, "" },
	{ "pids.max", "-1", -ERANGE, "" },
	{ "pids.max", "18446744073709551616", -ERANGE, "" },
	{ "pids.max", "50%", -EINVAL, "" },
	{ "pids.max", "2O", -EINVAL, "" },
	{ "memory.maximum", "1G", -ENOENT, "" },
	{ "MemoryLimit", "1G", -ENOENT, "" },
	{ "", "1", -ENOENT, "" },
};

static void table_of_values(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		const struct good_bad *c = &cases[i];
		struct kattr_rgres_value v, back;
		struct kattr_why why = { 0 };
		char text[256];
		int ret = kattr_rgres_parse(c->name, c->value, &lim, &v, &why);

		if (ret != c->ret)
			fail_msg("%s=%s: %d, expected %d (%s)", c->name, c->value,
				 ret, c->ret, why.text ? why.text : "");
		if (ret < 0) {
			assert_non_null(why.text);
			continue;
		}
		assert_int_equal(kattr_rgres_text(&v, text, sizeof(text)), 0);
		if (strcmp(text, c->text) != 0)
			fail_msg("%s=%s: text '%s', expected '%s'", c->name, c->value,
				 text, c->text);
		/* the text reads back to itself */
		assert_int_equal(kattr_rgres_parse(v.res->key, text, &lim, &back, &why), 0);
		assert_int_equal(kattr_rgres_text(&back, text, sizeof(text)), 0);
		assert_string_equal(text, c->text);
	}
}

static void lookup_and_suggest(void **state)
{
	size_t n;
	const struct kattr_rgres *t = kattr_rgres_table(&n);
	int field;

	(void)state;
	assert_true(n >= 12);
	for (size_t i = 0; i < n; i++) {
		assert_ptr_equal(kattr_rgres_find(t[i].key, NULL), &t[i]);
		if (t[i].alias)
			assert_ptr_equal(kattr_rgres_find(t[i].alias, NULL), &t[i]);
		/* every backend either names a file or says why not */
		for (int b = KATTR_RG_RGCS; b <= KATTR_RG_CGROUP2; b++)
			assert_true(t[i].be[b].file || t[i].be[b].why);
	}
	assert_ptr_equal(kattr_rgres_find("IOWriteBandwidthMax", &field),
			 kattr_rgres_find("io.max", NULL));
	assert_int_equal(field, 1);
	assert_null(kattr_rgres_find("StartupAllowedCPUs", NULL));
	assert_string_equal(kattr_rgres_suggest("memry.max"), "memory.max");
	assert_string_equal(kattr_rgres_suggest("MemoryMAXX"), "MemoryMax");
	assert_string_equal(kattr_rgres_suggest("pids.mx"), "pids.max");
	assert_string_equal(kattr_rgres_suggest("cpu.weigth"), "cpu.weight");
	assert_null(kattr_rgres_suggest("frobnicate"));
	assert_null(kattr_rgres_suggest(""));
}

static void assign(void **state)
{
	struct kattr_rgres_value v;
	struct kattr_why why = { 0 };

	(void)state;
	assert_int_equal(kattr_rgres_parse_assign("MemoryMax=1G", &lim, &v, &why), 0);
	assert_string_equal(v.res->key, "memory.max");
	assert_int_equal(v.n, 1ULL << 30);
	assert_int_equal(kattr_rgres_parse_assign("memory.max", &lim, &v, &why), -EINVAL);
	assert_int_equal(kattr_rgres_parse_assign("nope=1", &lim, &v, &why), -ENOENT);
	/* without limits: no percent of memory, no CPU bound */
	assert_int_equal(kattr_rgres_parse("memory.max", "50%", NULL, &v, &why), -EINVAL);
	assert_int_equal(kattr_rgres_parse("cpuset.cpus", "0-100", NULL, &v, &why), 0);
}

/* value -> file text -> value, per backend file */
static void file_text(const char *name, const char *value, const char *file,
		      const char *want, const char *back)
{
	struct kattr_rgres_value v, r;
	struct kattr_why why = { 0 };
	char buf[256];

	assert_int_equal(kattr_rgres_parse(name, value, &lim, &v, &why), 0);
	assert_int_equal(kattr_rgres_file_text(file, &v, buf, sizeof(buf), &why), 0);
	if (strcmp(buf, want) != 0)
		fail_msg("%s=%s into %s: '%s', expected '%s'", name, value, file, buf, want);
	memset(&r, 0, sizeof(r));
	r.res = v.res;
	r.period = 100000;
	r.quota = KATTR_RGRES_MAX;
	if (!strcmp(file, "shares"))
		return;
	assert_int_equal(kattr_rgres_file_parse(file, want, &r), 0);
	assert_int_equal(kattr_rgres_text(&r, buf, sizeof(buf)), 0);
	assert_string_equal(buf, back);
}

static void backend_files(void **state)
{
	struct kattr_rgres_value v;
	struct kattr_why why = { 0 };
	char buf[64];

	(void)state;
	file_text("cpu.weight", "100", "cpu.shares", "1024", "100");
	file_text("cpu.weight", "1", "cpu.shares", "10", "1");
	file_text("cpu.weight", "10000", "cpu.shares", "102400", "10000");
	file_text("cpu.weight", "300", "cpu.weight", "300", "300");
	file_text("cpu.weight", "30", "shares", "min_shares=30", "30");
	file_text("io.weight", "200", "io.weight", "default 200", "200");
	file_text("io.weight", "200", "blkio.weight", "1000", "200");
	file_text("io.weight", "2", "blkio.weight", "10", "2");
	file_text("io.weight", "700", "blkio.bfq.weight", "700", "700");
	file_text("cpu.max", "50%", "cpu.max", "50000 100000", "50%");
	file_text("cpu.max", "max", "cpu.max", "max 100000", "max");
	file_text("cpu.max", "50%", "cpu.cfs_quota_us", "50000", "50%");
	file_text("cpu.max", "max", "cpu.cfs_quota_us", "-1", "max");
	file_text("cpu.max", "20ms/50ms", "cpu.cfs_period_us", "50000", "max/50ms");
	file_text("memory.max", "1G", "memory.max", "1073741824", "1G");
	file_text("memory.max", "max", "memory.max", "max", "max");
	file_text("memory.max", "max", "memory.limit_in_bytes", "-1", "max");
	file_text("memory.low", "16M", "memory.soft_limit_in_bytes", "16777216", "16M");
	file_text("pids.max", "20", "pids.max", "20", "20");
	file_text("pids.max", "max", "pids.max", "max", "max");
	file_text("cpuset.cpus", "2,0-1", "cpuset.cpus", "0-2", "0-2");
	/* what v1 prints for "no limit" */
	memset(&v, 0, sizeof(v));
	v.res = kattr_rgres_find("memory.max", NULL);
	assert_int_equal(kattr_rgres_file_parse("memory.limit_in_bytes",
						"9223372036854771712\n", &v), 0);
	assert_int_equal(kattr_rgres_text(&v, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "max");
	/* an empty cpuset: unset */
	memset(&v, 0, sizeof(v));
	v.res = kattr_rgres_find("cpuset.cpus", NULL);
	assert_int_equal(kattr_rgres_file_parse("cpuset.cpus", "\n", &v), 0);
	assert_true(v.unset);
	/* values a backend's file cannot hold */
	assert_int_equal(kattr_rgres_parse("io.weight", "300", &lim, &v, &why), 0);
	assert_int_equal(kattr_rgres_file_text("blkio.weight", &v, buf, sizeof(buf), &why), -ERANGE);
	assert_int_equal(kattr_rgres_parse("io.weight", "1001", &lim, &v, &why), 0);
	assert_int_equal(kattr_rgres_file_text("io.bfq.weight", &v, buf, sizeof(buf), &why), -ERANGE);
	/* junk the kernel would not print */
	memset(&v, 0, sizeof(v));
	v.res = kattr_rgres_find("pids.max", NULL);
	assert_int_equal(kattr_rgres_file_parse("pids.max", "lots\n", &v), -EBADMSG);
}

static void io_files(void **state)
{
	const struct kattr_rgres *io = kattr_rgres_find("io.max", NULL);
	struct kattr_rgres_vec vals = { 0 };
	struct kattr_rgres_value v;
	struct kattr_why why = { 0 };
	char buf[128];

	(void)state;
	assert_int_equal(kattr_rgres_io_parse("8:0 rbps=1048576 wbps=max riops=max wiops=100\n"
					      "8:16 rbps=max wbps=2097152 riops=max wiops=max\n",
					      -1, io, &vals), 0);
	assert_int_equal(vals.n, 2);
	kattr_rgres_text(&vals.v[0], buf, sizeof(buf));
	assert_string_equal(buf, "8:0 rbps=1M wiops=100");
	kattr_rgres_text(&vals.v[1], buf, sizeof(buf));
	assert_string_equal(buf, "8:16 wbps=2M");
	/* v1: one file per limit, merged by device */
	assert_int_equal(kattr_rgres_io_parse("8:0 4096\n", 2, io, &vals), 0);
	assert_int_equal(vals.n, 2);
	kattr_rgres_text(&vals.v[0], buf, sizeof(buf));
	assert_string_equal(buf, "8:0 rbps=1M riops=4096 wiops=100");
	free(vals.v);
	assert_int_equal(kattr_rgres_parse("io.max", "8:0 rbps=1M wiops=max", &lim, &v, &why), 0);
	assert_int_equal(kattr_rgres_file_text("io.max", &v, buf, sizeof(buf), &why), 0);
	assert_string_equal(buf, "8:0 rbps=1048576 wiops=max");
	assert_int_equal(kattr_rgres_file_text("blkio.throttle.write_iops_device", &v,
					       buf, sizeof(buf), &why), 0);
	assert_string_equal(buf, "8:0 0");
	vals = (struct kattr_rgres_vec){ 0 };
	assert_int_equal(kattr_rgres_io_parse("8:0 rbps=lots\n", -1, io, &vals), -EBADMSG);
	free(vals.v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table_of_values),
		cmocka_unit_test(lookup_and_suggest),
		cmocka_unit_test(assign),
		cmocka_unit_test(backend_files),
		cmocka_unit_test(io_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
