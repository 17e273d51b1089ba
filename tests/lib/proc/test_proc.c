// SPDX-License-Identifier: LGPL-2.1-or-later
/* lib/proc: a pid as typed, /proc/PID/stat and status, /proc/PID/cgroup. */
#include "testutil.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kattr/private.h"

static void pids(void **state)
{
	pid_t p = 0;

	(void)state;
	assert_int_equal(kattr_rg_parse_pid("4242", &p), 0);
	assert_int_equal(p, 4242);
	assert_int_equal(kattr_rg_parse_pid("1", &p), 0);
	assert_int_equal(p, 1);
	assert_int_equal(kattr_rg_parse_pid("2147483647", &p), 0);
	assert_int_equal(kattr_rg_parse_pid("2147483648", &p), -ERANGE);
	assert_int_equal(kattr_rg_parse_pid("99999999999999999999999", &p), -ERANGE);
	/* What RGCS's strtol(base 0) would misread, and other junk. */
	assert_int_equal(kattr_rg_parse_pid("0x10", &p), -EINVAL);
	assert_int_equal(kattr_rg_parse_pid("010", &p), -EINVAL);
	assert_int_equal(kattr_rg_parse_pid("0", &p), -EINVAL);
	assert_int_equal(kattr_rg_parse_pid("-1", &p), -EINVAL);
	assert_int_equal(kattr_rg_parse_pid("+1", &p), -EINVAL);
	assert_int_equal(kattr_rg_parse_pid(" 1", &p), -EINVAL);
	assert_int_equal(kattr_rg_parse_pid("1 ", &p), -EINVAL);
	assert_int_equal(kattr_rg_parse_pid("12abc", &p), -EINVAL);
	assert_int_equal(kattr_rg_parse_pid("", &p), -EINVAL);
}

static void proc_cgroup(void **state)
{
	const char *v1 = "9:name=systemd:/\n2:cpuacct:/\n1:cpu:/db/batch\n0::/u\n";
	const char *co = "3:cpu,cpuacct:/web\n0::/\n";
	char *p;

	(void)state;
	assert_int_equal(kattr_rg_parse_proc_cgroup(v1, "cpu", &p), 0);
	assert_string_equal(p, "/db/batch");
	free(p);
	assert_int_equal(kattr_rg_parse_proc_cgroup(v1, NULL, &p), 0);
	assert_string_equal(p, "/u");
	free(p);
	assert_int_equal(kattr_rg_parse_proc_cgroup(v1, "cpuacct", &p), 0);
	assert_string_equal(p, "/");
	free(p);
	assert_int_equal(kattr_rg_parse_proc_cgroup(v1, "cpu,cpuacct", &p), -ENOENT);
	assert_int_equal(kattr_rg_parse_proc_cgroup(co, "cpuacct,cpu", &p), 0);
	assert_string_equal(p, "/web");
	free(p);
	assert_int_equal(kattr_rg_parse_proc_cgroup(co, "cpu", &p), -ENOENT);
	assert_int_equal(kattr_rg_parse_proc_cgroup("1:cpu:\n", "cpu", &p), -EINVAL);
}

static void status_parse(void **state)
{
	struct kattr_proc p = { .pid = 42 };
	const char *st =
		"Name:\tbash\nUmask:\t0022\nState:\tS (sleeping)\nTgid:\t42\n"
		"PPid:\t41\nUid:\t1000\t33\t33\t33\nGid:\t100\t101\t101\t101\n"
		"FDSize:\t256\nGroups:\t4 24 27 \nNStgid:\t42\n";

	assert_int_equal(kattr_proc_parse_status(st, &p), 0);
	assert_int_equal(p.uid, 33);
	assert_int_equal(p.gid, 101);
	assert_int_equal(p.ppid, 41);
	assert_int_equal(p.ngroups, 3);
	assert_int_equal(p.groups[2], 27);
	assert_false(p.kthread);
	assert_int_equal(kattr_proc_parse_status("PPid:\t2\nUid:\t0\t0\t0\t0\n"
						   "Gid:\t0\t0\t0\t0\nGroups:\n", &p), 0);
	assert_true(p.kthread);
	assert_int_equal(p.ngroups, 0);
	assert_int_equal(kattr_proc_parse_status("PPid:\t1\nUid:\t0\n", &p), -EINVAL);
	assert_int_equal(kattr_proc_parse_status("", &p), -EINVAL);
}

static void read_self(void **state)
{
	struct kattr_proc p;

	assert_int_equal(kattr_proc_read(getpid(), KATTR_PROC_ALL, &p), 0);
	assert_int_equal(p.uid, geteuid());
	assert_false(p.kthread);
	assert_int_equal(p.ppid, getppid());
	assert_string_equal(p.comm, "test_lib_proc");
	assert_non_null(strstr(p.exe, "test_lib_proc"));
	assert_int_equal(kattr_proc_read(0x3ffffff0, 0, &p), -ESRCH);
	/* only stat: no exe, no ids */
	p.uid = 12345;
	assert_int_equal(kattr_proc_read(getpid(), 0, &p), 0);
	assert_string_equal(p.comm, "test_lib_proc");
	assert_string_equal(p.exe, "");
	assert_int_equal(p.uid, 0);
	/* kthreadd is a kernel thread */
	assert_int_equal(kattr_proc_read(2, KATTR_PROC_ALL, &p), 0);
	assert_true(p.kthread);
	assert_string_equal(p.exe, "");
}

static void stat_parse(void **state)
{
	struct kattr_proc p;

	memset(&p, 0, sizeof(p));
	assert_int_equal(kattr_proc_parse_stat(
		"42 (a) b (c)) S 41 42 42 0 -1 4194560 100 0 0 0 5 6 0 0 20 0 1 0 "
		"987654 1000 200", &p), 0);
	assert_int_equal(p.starttime, 987654);
	assert_string_equal(p.comm, "a) b (c)");
	assert_int_equal(p.ppid, 41);
	assert_false(p.kthread);
	assert_int_equal(kattr_proc_parse_stat(
		"2 (kthreadd) S 0 0 0 0 -1 2129984 0 0 0 0 0 0 0 0 20 0 1 0 3 0", &p), 0);
	assert_true(p.kthread);
	assert_int_equal(kattr_proc_parse_stat("2 kthreadd S 0", &p), -EINVAL);
	assert_int_equal(kattr_proc_parse_stat("2 (x) S", &p), -EINVAL);
	assert_int_equal(kattr_proc_parse_stat("2 (x) S 0 0 0 0 -1 2129984 0 0", &p), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pids),
		cmocka_unit_test(proc_cgroup),
		cmocka_unit_test(status_parse),
		cmocka_unit_test(read_self),
		cmocka_unit_test(stat_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
