// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a group is using (lib/rg/rgstats.c): each statistics file's text
 * into figures named as cgroup v2 names them, from samples of the
 * kernel's own files; and kattr_rg_stats() on captured cgroup v1 and v2
 * trees, where v1's controllers are on separate hierarchies.
 */
#include "testutil.h"
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kattr/kattr.h"
#include "kattr/rg.h"
#include "kattr/private.h"

static const struct kattr_rg_stat *find(const struct kattr_rg_stat *v, size_t n,
					const char *res, const char *key,
					const char *dev)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].res, res) && !strcmp(v[i].key, key) &&
		    (!dev ? !v[i].dev : v[i].dev && !strcmp(v[i].dev, dev)))
			return &v[i];
	return NULL;
}

static long long value_of(const struct kattr_rg_stat *v, size_t n,
			  const char *res, const char *key, const char *dev)
{
	const struct kattr_rg_stat *s = find(v, n, res, key, dev);

	assert_non_null(s);
	assert_true(s->has_value);
	return s->value;
}

static void flat_scaled(void **state)
{
	struct kattr_rg_figsrc src = {
		.res = "cpu", .file = "cpuacct.usage", .fmt = KATTR_RG_FIG_FLAT,
		.name = "usage_usec", .unit = KATTR_RG_UNIT_USEC, .mul = 1,
		.div = 1000, .counter = true,
	};
	struct kattr_rg_stat *v = NULL;
	size_t n = 0;

	(void)state;
	assert_int_equal(kattr_rg_parse_figures("123456789\n", &src, &v, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(v[0].key, "usage_usec");
	assert_string_equal(v[0].file, "cpuacct.usage");
	assert_int_equal(v[0].value, 123456);
	assert_int_equal(v[0].unit, KATTR_RG_UNIT_USEC);
	assert_true(v[0].counter);
	assert_null(v[0].dev);
	/* the largest number the kernel may write saturates, never wraps */
	src.mul = 1000000;
	src.div = 1;
	assert_int_equal(kattr_rg_parse_figures("9223372036854775807\n", &src, &v, &n), 0);
	assert_int_equal(v[1].value, LLONG_MAX);
	/* junk: the text as it is, no value */
	assert_int_equal(kattr_rg_parse_figures("max\n", &src, &v, &n), 0);
	assert_false(v[2].has_value);
	assert_string_equal(v[2].key, "max");
	assert_int_equal(kattr_rg_parse_figures("\n", &src, &v, &n), 0);
	assert_int_equal(n, 3);
	kattr_rg_stats_free(v, n);
}

static void keyed_v1(void **state)
{
	static const struct kattr_rg_figkey cpu_stat[] = {
		{ "throttled_time", "throttled_usec", KATTR_RG_UNIT_USEC, 1, 1000, true },
		{ NULL, NULL, 0, 0, 0, false },
	};
	static const struct kattr_rg_figkey acct[] = {
		{ "user", "user_usec", KATTR_RG_UNIT_USEC, 1000000, 0, true },
		{ NULL, NULL, 0, 0, 0, false },
	};
	struct kattr_rg_figsrc src = {
		.res = "cpu", .file = "cpu.stat", .fmt = KATTR_RG_FIG_KEYED,
		.unit = KATTR_RG_UNIT_COUNT, .counter = true, .keys = cpu_stat,
	};
	struct kattr_rg_stat *v = NULL;
	size_t n = 0;
	long hz = sysconf(_SC_CLK_TCK);

	(void)state;
	assert_int_equal(kattr_rg_parse_figures(
		"nr_periods 10\nnr_throttled 3\nthrottled_time 2500000\nwait_sum 7\n",
		&src, &v, &n), 0);
	assert_int_equal(n, 4);
	assert_int_equal(value_of(v, n, "cpu", "nr_periods", NULL), 10);
	assert_int_equal(value_of(v, n, "cpu", "throttled_usec", NULL), 2500);
	assert_int_equal(find(v, n, "cpu", "throttled_usec", NULL)->unit, KATTR_RG_UNIT_USEC);
	assert_int_equal(find(v, n, "cpu", "nr_throttled", NULL)->unit, KATTR_RG_UNIT_COUNT);
	/* cpuacct.stat: USER_HZ ticks, only the known keys */
	src.file = "cpuacct.stat";
	src.keys = acct;
	src.flags = KATTR_RG_FIG_KNOWN;
	assert_int_equal(kattr_rg_parse_figures("user 250\nsystem 10\n", &src, &v, &n), 0);
	assert_int_equal(n, 5);
	assert_int_equal(value_of(v, n, "cpu", "user_usec", NULL), 250 * (1000000 / hz));
	kattr_rg_stats_free(v, n);
}

static void keyed_v2(void **state)
{
	struct kattr_rg_figsrc src = {
		.res = "memory", .file = "memory.events", .fmt = KATTR_RG_FIG_KEYED,
		.name = "events.", .unit = KATTR_RG_UNIT_COUNT, .counter = true,
	};
	struct kattr_rg_stat *v = NULL;
	size_t n = 0;

	(void)state;
	assert_int_equal(kattr_rg_parse_figures(
		"low 0\nhigh 12\nmax 3\noom 1\noom_kill 1\noom_group_kill 0\n",
		&src, &v, &n), 0);
	assert_int_equal(n, 6);
	assert_int_equal(value_of(v, n, "memory", "events.oom_kill", NULL), 1);
	assert_int_equal(value_of(v, n, "memory", "events.high", NULL), 12);
	/* cpu.stat: units from the names */
	src = (struct kattr_rg_figsrc){
		.res = "cpu", .file = "cpu.stat", .fmt = KATTR_RG_FIG_KEYED,
		.unit = KATTR_RG_UNIT_COUNT, .counter = true,
	};
	assert_int_equal(kattr_rg_parse_figures(
		"usage_usec 1537\nuser_usec 1500\nsystem_usec 37\nnr_periods 0\n"
		"odd\n", &src, &v, &n), 0);
	assert_int_equal(n, 11);
	assert_int_equal(find(v, n, "cpu", "usage_usec", NULL)->unit, KATTR_RG_UNIT_USEC);
	assert_int_equal(find(v, n, "cpu", "nr_periods", NULL)->unit, KATTR_RG_UNIT_COUNT);
	assert_false(v[10].has_value);
	assert_string_equal(v[10].key, "odd");
	kattr_rg_stats_free(v, n);
}

static void io_stat_v2(void **state)
{
	struct kattr_rg_figsrc src = {
		.res = "io", .file = "io.stat", .fmt = KATTR_RG_FIG_IO_STAT,
		.unit = KATTR_RG_UNIT_COUNT, .counter = true,
	};
	struct kattr_rg_stat *v = NULL;
	size_t n = 0;

	(void)state;
	assert_int_equal(kattr_rg_parse_figures(
		"8:16 rbytes=1459200 wbytes=314773504 rios=192 wios=353 dbytes=0 dios=0\n"
		"8:0 rbytes=90430464 wbytes=299008000 rios=8950 wios=1252 dbytes=50331648 dios=3021"
		" cost.vrate=135.03 cost.usage=2099\n"
		"garbage\n253:0 rbytes= =5 x\n", &src, &v, &n), 0);
	assert_int_equal(n, 13);
	assert_int_equal(value_of(v, n, "io", "rbytes", "8:16"), 1459200);
	assert_int_equal(value_of(v, n, "io", "wios", "8:0"), 1252);
	assert_int_equal(find(v, n, "io", "rbytes", "8:0")->unit, KATTR_RG_UNIT_BYTES);
	assert_int_equal(find(v, n, "io", "rios", "8:0")->unit, KATTR_RG_UNIT_COUNT);
	assert_false(find(v, n, "io", "cost.usage", "8:0")->counter);
	assert_null(find(v, n, "io", "cost.vrate", "8:0"));	/* not a whole number */
	kattr_rg_stats_free(v, n);
}

static void blkio_v1(void **state)
{
	struct kattr_rg_figsrc src = {
		.res = "io", .file = "blkio.throttle.io_service_bytes",
		.fmt = KATTR_RG_FIG_BLKIO, .name = "bytes",
		.unit = KATTR_RG_UNIT_BYTES, .counter = true,
	};
	struct kattr_rg_stat *v = NULL;
	size_t n = 0;

	(void)state;
	assert_int_equal(kattr_rg_parse_figures(
		"8:0 Read 4096\n8:0 Write 8192\n8:0 Sync 12288\n8:0 Async 0\n"
		"8:0 Discard 512\n8:0 Total 12800\nTotal 12800\n", &src, &v, &n), 0);
	assert_int_equal(n, 3);
	assert_int_equal(value_of(v, n, "io", "rbytes", "8:0"), 4096);
	assert_int_equal(value_of(v, n, "io", "wbytes", "8:0"), 8192);
	assert_int_equal(value_of(v, n, "io", "dbytes", "8:0"), 512);
	src.name = "ios";
	src.unit = KATTR_RG_UNIT_COUNT;
	assert_int_equal(kattr_rg_parse_figures("8:0 Read 3\nTotal 3\n", &src, &v, &n), 0);
	assert_int_equal(value_of(v, n, "io", "rios", "8:0"), 3);
	kattr_rg_stats_free(v, n);
}

static void psi(void **state)
{
	struct kattr_rg_figsrc src = {
		.res = "memory", .file = "memory.pressure", .fmt = KATTR_RG_FIG_PSI,
	};
	struct kattr_rg_stat *v = NULL;
	size_t n = 0;

	(void)state;
	assert_int_equal(kattr_rg_parse_figures(
		"some avg10=57.84 avg60=27.4 avg300=0.00 total=9380678879\n"
		"full avg10=100.00 avg60=0.00 avg300=0.00 total=0\n"
		"some avg10=1.234 avg60=-1 avg300=.5 total=x\n", &src, &v, &n), 0);
	assert_int_equal(n, 8);
	assert_int_equal(value_of(v, n, "memory", "pressure.some.avg10", NULL), 5784);
	assert_int_equal(value_of(v, n, "memory", "pressure.some.avg60", NULL), 2740);
	assert_int_equal(value_of(v, n, "memory", "pressure.some.total_usec", NULL), 9380678879LL);
	assert_int_equal(value_of(v, n, "memory", "pressure.full.avg10", NULL), 10000);
	assert_int_equal(find(v, n, "memory", "pressure.full.avg10", NULL)->unit,
			 KATTR_RG_UNIT_CENTIPCT);
	assert_false(find(v, n, "memory", "pressure.full.avg10", NULL)->counter);
	assert_true(find(v, n, "memory", "pressure.full.total_usec", NULL)->counter);
	kattr_rg_stats_free(v, n);
}

static void mkdirs(const char *root, const char *rel)
{
	char path[PATH_MAX], *p;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	mkdir(path, 0755);
}

static void mountinfo(const char *root, const char *text)
{
	char rel[PATH_MAX];

	snprintf(rel, sizeof(rel), "proc/%ld", (long)getpid());
	mkdirs(root, rel);
	snprintf(rel, sizeof(rel), "proc/%ld/mountinfo", (long)getpid());
	tu_write_file(root, rel, text);
}

#define V1 "sys/fs/cgroup/"

/* cgroup v1: cpu, cpuacct, memory, pids apart; blkio not mounted; the
 * group missing in pids. */
static void v1_hierarchies(void **state)
{
	char *root = tu_mkdtemp();
	struct kattr_rg_stat *v;
	struct kattr_rg *rg;
	size_t n;

	(void)state;
	mountinfo(root, "23 1 0:21 / / rw - ext4 /dev/sda1 rw\n"
		  "32 23 0:29 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n"
		  "33 23 0:30 / /sys/fs/cgroup/cpuacct rw - cgroup cgroup rw,cpuacct\n"
		  "34 23 0:31 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n"
		  "35 23 0:32 / /sys/fs/cgroup/pids rw - cgroup cgroup rw,pids\n");
	mkdirs(root, V1 "cpu/db");
	mkdirs(root, V1 "cpuacct/db");
	mkdirs(root, V1 "memory/db");
	mkdirs(root, V1 "pids");
	tu_write_file(root, V1 "cpu/cpu.shares", "1024\n");
	tu_write_file(root, V1 "cpu/db/cpu.shares", "512\n");
	tu_write_file(root, V1 "cpu/db/cpu.stat", "nr_periods 4\nnr_throttled 1\nthrottled_time 3000\n");
	tu_write_file(root, V1 "cpuacct/db/cpuacct.usage", "2000000000\n");
	tu_write_file(root, V1 "cpuacct/db/cpuacct.stat", "user 100\nsystem 50\n");
	tu_write_file(root, V1 "memory/db/memory.usage_in_bytes", "33554432\n");
	tu_write_file(root, V1 "memory/db/memory.max_usage_in_bytes", "40000000\n");
	tu_write_file(root, V1 "memory/db/memory.failcnt", "2\n");
	tu_write_file(root, V1 "memory/db/memory.oom_control",
		      "oom_kill_disable 0\nunder_oom 0\noom_kill 1\n");
	assert_int_equal(kattr_set_sysroot(root), 0);
	assert_int_equal(kattr_rg_open(KATTR_RG_CGROUP1, "/sys/fs/cgroup/cpu", &rg), 0);
	assert_int_equal(kattr_rg_stats(rg, "db", &v, &n), 0);
	assert_int_equal(value_of(v, n, "cpu", "usage_usec", NULL), 2000000);
	/* no cpuacct.usage_user: cpuacct.stat's ticks instead */
	assert_int_equal(value_of(v, n, "cpu", "user_usec", NULL),
			 100 * (1000000 / sysconf(_SC_CLK_TCK)));
	assert_int_equal(value_of(v, n, "cpu", "throttled_usec", NULL), 3);
	assert_string_equal(find(v, n, "cpu", "usage_usec", NULL)->file, "cpuacct.usage");
	assert_int_equal(value_of(v, n, "memory", "current", NULL), 33554432);
	assert_int_equal(value_of(v, n, "memory", "peak", NULL), 40000000);
	assert_int_equal(value_of(v, n, "memory", "events.max", NULL), 2);
	assert_int_equal(value_of(v, n, "memory", "events.oom_kill", NULL), 1);
	assert_null(find(v, n, "memory", "under_oom", NULL));
	/* io: no blkio hierarchy; pids: no directory there */
	assert_true(v[n - 2].absent);
	assert_string_equal(v[n - 2].res, "io");
	assert_non_null(strstr(v[n - 2].key, "no cgroup v1 hierarchy has the blkio controller"));
	assert_true(v[n - 1].absent);
	assert_string_equal(v[n - 1].res, "pids");
	assert_non_null(strstr(v[n - 1].key, "no directory in the pids hierarchy"));
	kattr_rg_stats_free(v, n);
	kattr_rg_close(rg);
	assert_int_equal(kattr_set_sysroot(NULL), 0);
	tu_rmtree(root);
	free(root);
}

/* cgroup v2 on 6.1: no memory.peak (n/a), io not available. */
static void v2_figures(void **state)
{
	char *root = tu_mkdtemp();
	struct kattr_rg_stat *v;
	const struct kattr_rg_stat *s;
	struct kattr_rg *rg;
	size_t n;

	(void)state;
	mountinfo(root, "23 1 0:21 / / rw - ext4 /dev/sda1 rw\n"
		  "41 23 0:38 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n");
	mkdirs(root, V1 "db");
	tu_write_file(root, V1 "cgroup.controllers", "cpu memory pids\n");
	tu_write_file(root, V1 "cgroup.subtree_control", "cpu memory pids\n");
	tu_write_file(root, V1 "db/cpu.stat", "usage_usec 5000\nuser_usec 4000\nsystem_usec 1000\n");
	tu_write_file(root, V1 "db/cpu.pressure",
		      "some avg10=1.50 avg60=0.00 avg300=0.00 total=100\n"
		      "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n");
	tu_write_file(root, V1 "db/memory.current", "1048576\n");
	tu_write_file(root, V1 "db/memory.events", "low 0\nhigh 0\nmax 0\noom 0\noom_kill 0\n");
	tu_write_file(root, V1 "db/pids.current", "3\n");
	tu_write_file(root, V1 "db/pids.events", "max 1\n");
	assert_int_equal(kattr_set_sysroot(root), 0);
	assert_int_equal(kattr_rg_open(KATTR_RG_CGROUP2, "/sys/fs/cgroup", &rg), 0);
	assert_int_equal(kattr_rg_stats(rg, "db", &v, &n), 0);
	assert_int_equal(value_of(v, n, "cpu", "usage_usec", NULL), 5000);
	assert_int_equal(value_of(v, n, "cpu", "pressure.some.avg10", NULL), 150);
	assert_int_equal(value_of(v, n, "memory", "current", NULL), 1048576);
	s = find(v, n, "memory", "peak", NULL);
	assert_non_null(s);
	assert_false(s->has_value);	/* n/a */
	assert_int_equal(s->unit, KATTR_RG_UNIT_BYTES);
	assert_int_equal(value_of(v, n, "pids", "current", NULL), 3);
	assert_int_equal(value_of(v, n, "pids", "events.max", NULL), 1);
	s = find(v, n, "io", "the io controller is not available (not in the root's cgroup.controllers)", NULL);
	assert_non_null(s);
	assert_true(s->absent);
	kattr_rg_stats_free(v, n);
	kattr_rg_close(rg);
	assert_int_equal(kattr_set_sysroot(NULL), 0);
	tu_rmtree(root);
	free(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(flat_scaled),
		cmocka_unit_test(keyed_v1),
		cmocka_unit_test(keyed_v2),
		cmocka_unit_test(io_stat_v2),
		cmocka_unit_test(blkio_v1),
		cmocka_unit_test(psi),
		cmocka_unit_test(v1_hierarchies),
		cmocka_unit_test(v2_figures),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
