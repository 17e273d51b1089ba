// SPDX-License-Identifier: GPL-2.0-or-later
/* kattr_rg_watch_parse(): each file rgctl top reads, on every backend. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "kattr/rgwatch.h"

static void na(long long *v)
{
	for (int i = 0; i < KATTR_RG_W_NR; i++)
		v[i] = KATTR_RG_W_NA;
}

static void test_v2(void **state)
{
	long long v[KATTR_RG_W_NR];

	(void)state;
	na(v);
	assert_int_equal(kattr_rg_watch_parse(KATTR_RG_CGROUP2, "cpu.stat",
		"usage_usec 1234\nuser_usec 1\nnr_throttled 3\nthrottled_usec 77\n", v), 0);
	assert_int_equal(v[KATTR_RG_W_CPU_USEC], 1234);
	assert_int_equal(v[KATTR_RG_W_THROTTLED_USEC], 77);
	kattr_rg_watch_parse(KATTR_RG_CGROUP2, "io.stat",
		"8:0 rbytes=100 wbytes=20 rios=1 wios=1\n253:0 rbytes=5 wbytes=1 dbytes=9\n", v);
	assert_int_equal(v[KATTR_RG_W_IO_RBYTES], 105);
	assert_int_equal(v[KATTR_RG_W_IO_WBYTES], 21);
	kattr_rg_watch_parse(KATTR_RG_CGROUP2, "memory.events",
		"low 0\nhigh 4\nmax 9\noom 2\noom_kill 2\noom_group_kill 0\n", v);
	assert_int_equal(v[KATTR_RG_W_OOM_KILL], 2);
	kattr_rg_watch_parse(KATTR_RG_CGROUP2, "pids.events", "max 5\n", v);
	assert_int_equal(v[KATTR_RG_W_PIDS_EV_MAX], 5);
	kattr_rg_watch_parse(KATTR_RG_CGROUP2, "memory.pressure",
		"some avg10=12.34 avg60=0.50 avg300=0.00 total=99\nfull avg10=1.00 avg60=0 avg300=0 total=1\n", v);
	assert_int_equal(v[KATTR_RG_W_PSI_MEM], 1234);
	kattr_rg_watch_parse(KATTR_RG_CGROUP2, "memory.max", "max\n", v);
	assert_true(v[KATTR_RG_W_MEM_MAX] == KATTR_RG_W_UNLIMITED);
	kattr_rg_watch_parse(KATTR_RG_CGROUP2, "memory.high", "67108864\n", v);
	assert_int_equal(v[KATTR_RG_W_MEM_HIGH], 67108864);
	kattr_rg_watch_parse(KATTR_RG_CGROUP2, "cgroup.procs", "1\n22\n333\n", v);
	assert_int_equal(v[KATTR_RG_W_TASKS], 3);
	assert_int_equal(kattr_rg_watch_parse(KATTR_RG_CGROUP2, "memory.stat", "", v), -EINVAL);
	assert_string_equal(kattr_rg_wfig_name(KATTR_RG_W_CPU_USEC), "cpu.usage_usec");
	assert_null(kattr_rg_wfig_name(KATTR_RG_W_NR));
}

static void test_v1(void **state)
{
	long long v[KATTR_RG_W_NR];

	(void)state;
	na(v);
	kattr_rg_watch_parse(KATTR_RG_CGROUP1, "cpuacct.usage", "5000999\n", v);
	assert_int_equal(v[KATTR_RG_W_CPU_USEC], 5000);	/* ns -> usec */
	kattr_rg_watch_parse(KATTR_RG_CGROUP1, "cpu.stat",
		"nr_periods 10\nnr_throttled 2\nthrottled_time 3000000\n", v);
	assert_int_equal(v[KATTR_RG_W_THROTTLED_USEC], 3000);
	kattr_rg_watch_parse(KATTR_RG_CGROUP1, "cpu.shares", "3072\n", v);
	assert_int_equal(v[KATTR_RG_W_CPU_WEIGHT], 300);	/* 1024 = 100 */
	kattr_rg_watch_parse(KATTR_RG_CGROUP1, "cpu.shares", "2\n", v);
	assert_int_equal(v[KATTR_RG_W_CPU_WEIGHT], 1);
	kattr_rg_watch_parse(KATTR_RG_CGROUP1, "memory.limit_in_bytes", "9223372036854771712\n", v);
	assert_true(v[KATTR_RG_W_MEM_MAX] == KATTR_RG_W_UNLIMITED);
	kattr_rg_watch_parse(KATTR_RG_CGROUP1, "memory.oom_control",
		"oom_kill_disable 0\nunder_oom 0\noom_kill 4\n", v);
	assert_int_equal(v[KATTR_RG_W_OOM_KILL], 4);
	kattr_rg_watch_parse(KATTR_RG_CGROUP1, "blkio.throttle.io_service_bytes",
		"8:0 Read 4096\n8:0 Write 512\n8:0 Sync 1\n8:0 Total 4608\n8:16 Read 4\nTotal 4612\n", v);
	assert_int_equal(v[KATTR_RG_W_IO_RBYTES], 4100);
	assert_int_equal(v[KATTR_RG_W_IO_WBYTES], 512);
}

static void test_rgcs(void **state)
{
	long long v[KATTR_RG_W_NR];

	(void)state;
	na(v);
	kattr_rg_watch_parse(KATTR_RG_RGCS, "shares",
		"res=numtasks,min_shares=-3,max_shares=-3,child_shares_divisor=100\n"
		"res=cpu,min_shares=20,max_shares=-2,child_shares_divisor=100\n", v);
	assert_int_equal(v[KATTR_RG_W_CPU_WEIGHT], 20);
	kattr_rg_watch_parse(KATTR_RG_RGCS, "shares", "res=cpu,min_shares=-3,max_shares=-2\n", v);
	assert_true(v[KATTR_RG_W_CPU_WEIGHT] == KATTR_RG_W_NA);	/* don't care */
	kattr_rg_watch_parse(KATTR_RG_RGCS, "members", "10\n11\n", v);
	assert_int_equal(v[KATTR_RG_W_TASKS], 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v2),
		cmocka_unit_test(test_v1),
		cmocka_unit_test(test_rgcs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
