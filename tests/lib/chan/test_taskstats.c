/*
 * taskstats and cgroupstats: parsing hand-built replies of older and
 * newer kernels (struct taskstats grows), and (as root) reading a busy
 * process and a cgroup v1 directory from the running kernel; exit records
 * (hand-built datagrams, and a child's from the kernel).
 */
#include "testutil.h"
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kattr/taskstats.h"
#include "kattr/private.h"

static void delayacct_switch(void **state)
{
	char *dir = tu_mkdtemp(), p[512];

	snprintf(p, sizeof(p), "%s/proc/sys/kernel", dir);
	{
		char cmd[600];

		snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", p);
		assert_int_equal(system(cmd), 0);
	}
	tu_write_file(dir, "proc/sys/kernel/task_delayacct", "1\n");
	assert_int_equal(kattr_set_sysroot(dir), 0);
	assert_int_equal(kattr_delayacct_enabled(), 1);
	tu_write_file(dir, "proc/sys/kernel/task_delayacct", "0\n");
	assert_int_equal(kattr_delayacct_enabled(), 0);
	tu_write_file(dir, "proc/sys/kernel/task_delayacct", "x\n");
	assert_int_equal(kattr_delayacct_enabled(), -EINVAL);
	assert_int_equal(kattr_set_sysroot(NULL), 0);
	tu_rmtree(dir);
	free(dir);
}

#if WITH_LIBMNL
#include <libmnl/libmnl.h>
#include <linux/cgroupstats.h>
#include <linux/genetlink.h>
#include <linux/taskstats.h>

/* A TASKSTATS_CMD_NEW reply carrying stats_len bytes of struct taskstats. */
static size_t build_reply(char *buf, const struct taskstats *ts, size_t stats_len,
			  int aggr)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	struct nlattr *nest;
	char big[1024] = { 0 };

	nlh->nlmsg_type = 0x17;
	g->cmd = TASKSTATS_CMD_NEW;
	memcpy(big, ts, sizeof(*ts) < stats_len ? sizeof(*ts) : stats_len);
	nest = mnl_attr_nest_start(nlh, aggr);
	mnl_attr_put_u32(nlh, aggr == TASKSTATS_TYPE_AGGR_PID ? TASKSTATS_TYPE_PID
							     : TASKSTATS_TYPE_TGID, 4242);
	mnl_attr_put(nlh, TASKSTATS_TYPE_STATS, stats_len, big);
	mnl_attr_nest_end(nlh, nest);
	return nlh->nlmsg_len;
}

static void parse_old_and_new_kernels(void **state)
{
	char buf[2048] __attribute__((aligned(8)));
	struct kattr_taskstats out;
	struct taskstats ts;
	size_t n;

	memset(&ts, 0, sizeof(ts));
	ts.version = 8;
	ts.cpu_count = 3;
	ts.cpu_delay_total = 1000;
	ts.blkio_delay_total = 2000;
	ts.swapin_delay_total = 3000;
	ts.freepages_delay_total = 4000;
	ts.cpu_run_real_total = 5000;
	memcpy(ts.ac_comm, "busy", 5);
	/* exactly our size */
	n = build_reply(buf, &ts, sizeof(ts), TASKSTATS_TYPE_AGGR_TGID);
	assert_int_equal(kattr_taskstats_parse(buf, n, &out), 0);
	assert_int_equal(out.pid, 4242);
	assert_int_equal(out.cpu_count, 3);
	assert_int_equal(out.cpu_delay_total, 1000);
	assert_int_equal(out.blkio_delay_total, 2000);
	assert_int_equal(out.swapin_delay_total, 3000);
	assert_int_equal(out.freepages_delay_total, 4000);
	assert_int_equal(out.cpu_run_real_total, 5000);
	assert_string_equal(out.comm, "busy");
	/* a newer kernel sends more: the tail is ignored */
	n = build_reply(buf, &ts, sizeof(ts) + 64, TASKSTATS_TYPE_AGGR_PID);
	assert_int_equal(kattr_taskstats_parse(buf, n, &out), 0);
	assert_int_equal(out.received, sizeof(ts) + 64);
	assert_int_equal(out.swapin_delay_total, 3000);
	/* an older kernel sends less: what is missing reads 0 */
	ts.thrashing_delay_total = 77;
	n = build_reply(buf, &ts, offsetof(struct taskstats, freepages_count),
			TASKSTATS_TYPE_AGGR_PID);
	assert_int_equal(kattr_taskstats_parse(buf, n, &out), 0);
	assert_int_equal(out.cpu_delay_total, 1000);
	assert_int_equal(out.freepages_delay_total, 0);
	assert_int_equal(out.thrashing_delay_total, 0);
	/* cut inside the attributes */
	assert_int_equal(kattr_taskstats_parse(buf, n - 8, &out), -EBADMSG);
}

static void parse_errors_and_family(void **state)
{
	char buf[256] __attribute__((aligned(8)));
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;
	struct kattr_taskstats out;
	struct kattr_cgroupstats cs;
	struct cgroupstats raw = { .nr_sleeping = 5, .nr_running = 2, .nr_io_wait = 1 };

	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = NLMSG_ERROR;
	((struct nlmsgerr *)mnl_nlmsg_put_extra_header(nlh, sizeof(struct nlmsgerr)))->error = -ESRCH;
	assert_int_equal(kattr_taskstats_parse(buf, nlh->nlmsg_len, &out), -ESRCH);

	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = GENL_ID_CTRL;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = CTRL_CMD_NEWFAMILY;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, "TASKSTATS");
	assert_int_equal(kattr_genl_family_parse(buf, nlh->nlmsg_len), -ENODATA);
	mnl_attr_put_u16(nlh, CTRL_ATTR_FAMILY_ID, 23);
	assert_int_equal(kattr_genl_family_parse(buf, nlh->nlmsg_len), 23);
	assert_int_equal(kattr_taskstats_parse(buf, nlh->nlmsg_len, &out), -ENODATA);

	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = 23;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = CGROUPSTATS_CMD_NEW;
	mnl_attr_put(nlh, CGROUPSTATS_TYPE_CGROUP_STATS, sizeof(raw), &raw);
	assert_int_equal(kattr_cgroupstats_parse(buf, nlh->nlmsg_len, &cs), 0);
	assert_int_equal(cs.nr_sleeping, 5);
	assert_int_equal(cs.nr_running, 2);
	assert_int_equal(cs.nr_io_wait, 1);
	assert_int_equal(kattr_cgroupstats_parse(buf, 10, &cs), -EBADMSG);
}

static struct kattr_taskstats_sock *open_or_skip(void)
{
	struct kattr_taskstats_sock *s;
	int r;

	if (geteuid() != 0) {
		print_message("skip: needs root (taskstats needs CAP_NET_ADMIN)\n");
		skip();
	}
	r = kattr_taskstats_open(&s);
	if (r == -ENOENT || r == -EPROTONOSUPPORT) {
		print_message("skip: no taskstats in this kernel (%s)\n", strerror(-r));
		skip();
	}
	assert_int_equal(r, 0);
	return s;
}

static void live_busy_process(void **state)
{
	struct kattr_taskstats_sock *s = open_or_skip();
	struct kattr_taskstats ts;
	pid_t child = fork();
	int r;

	assert_true(child >= 0);
	if (child == 0) {
		volatile unsigned long x = 0;

		/* never outlives the test (a failed assertion longjmps past
		 * the kill below; a spinning orphan holding ctest's output
		 * pipe kept the whole test "running" until its timeout) */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(STDOUT_FILENO);
		close(STDERR_FILENO);
		alarm(60);
		for (;;)
			x++;
	}
	/* until the child has run 50 ms of CPU, however loaded the machine
	 * is (bounded: 30 s), not a fixed sleep */
	for (int i = 0; i < 300; i++) {
		if (kattr_taskstats_get_tgid(s, child, &ts) == 0 &&
		    ts.cpu_run_real_total > 50ull * 1000 * 1000)
			break;
		usleep(100 * 1000);
	}
	r = kattr_taskstats_get_tgid(s, child, &ts);
	if (r == 0 && ts.cpu_run_real_total > 50ull * 1000 * 1000 &&
	    ts.pid == (uint32_t)child && ts.version >= 1 && ts.received > 0)
		r = kattr_taskstats_get_pid(s, child, &ts);
	else if (r == 0)
		r = -EPROTO;
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	assert_int_equal(r, 0);
	assert_true(ts.cpu_count > 0);
	assert_int_equal(kattr_taskstats_get_tgid(s, child, &ts), -ESRCH);
	kattr_taskstats_close(s);
}

static void live_cgroupstats(void **state)
{
	struct kattr_taskstats_sock *s = open_or_skip();
	struct kattr_cgroupstats cs;
	char *mp = NULL;
	int fd;

	/*
	 * cgroupstats is a cgroup v1 interface: the kernel answers EINVAL for
	 * a cgroup v2 directory (cgroupstats_build() accepts only the v1
	 * filesystem type).  Any v1 hierarchy will do; on a v2-only system
	 * the v2 root is checked for that answer instead.
	 */
	if (kattr_mountinfo_find("cgroup", NULL, &mp) < 0) {
		if (kattr_mountinfo_find("cgroup2", NULL, &mp) < 0) {
			kattr_taskstats_close(s);
			print_message("skip: no cgroup hierarchy is mounted\n");
			skip();
		}
		fd = open(mp, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		assert_true(fd >= 0);
		assert_int_equal(kattr_cgroupstats_get(s, fd, &cs), -EINVAL);
		close(fd);
		free(mp);
		kattr_taskstats_close(s);
		return;
	}
	fd = open(mp, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(fd >= 0);
	memset(&cs, 0xff, sizeof(cs));
	assert_int_equal(kattr_cgroupstats_get(s, fd, &cs), 0);
	/* the root group holds at least this process */
	assert_true(cs.nr_sleeping + cs.nr_running + cs.nr_stopped +
		    cs.nr_uninterruptible > 0);
	assert_true(cs.nr_running < 1u << 20);
	close(fd);
	fd = open("/tmp", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_int_equal(kattr_cgroupstats_get(s, fd, &cs), -EINVAL);
	close(fd);
	free(mp);
	kattr_taskstats_close(s);
}

/* ---- exit records ---------------------------------------------------- */

/* One exit datagram: AGGR_PID (stats_len bytes of ts), then, if tgid_too,
 * the AGGR_TGID sums the kernel adds for a process's last thread. */
static size_t build_exit(char *buf, const struct taskstats *ts, size_t stats_len,
			 bool tgid_too)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	struct nlattr *nest;
	char big[1024] = { 0 };

	nlh->nlmsg_type = 0x17;
	g->cmd = TASKSTATS_CMD_NEW;
	memcpy(big, ts, sizeof(*ts) < stats_len ? sizeof(*ts) : stats_len);
	nest = mnl_attr_nest_start(nlh, TASKSTATS_TYPE_AGGR_PID);
	mnl_attr_put_u32(nlh, TASKSTATS_TYPE_PID, ts->ac_pid);
	mnl_attr_put(nlh, TASKSTATS_TYPE_STATS, stats_len, big);
	mnl_attr_nest_end(nlh, nest);
	if (tgid_too) {
		nest = mnl_attr_nest_start(nlh, TASKSTATS_TYPE_AGGR_TGID);
		mnl_attr_put_u32(nlh, TASKSTATS_TYPE_TGID, ts->ac_pid);
		mnl_attr_put(nlh, TASKSTATS_TYPE_STATS, stats_len, big);
		mnl_attr_nest_end(nlh, nest);
	}
	return nlh->nlmsg_len;
}

struct got_exits {
	int n;
	struct kattr_taskexit last;
	int fail;		/* return this from the callback */
};

static int got_exit(const struct kattr_taskexit *rec, void *data)
{
	struct got_exits *g = data;

	g->n++;
	g->last = *rec;
	return g->fail;
}

static void parse_exit_records(void **state)
{
	char buf[2048] __attribute__((aligned(8)));
	struct got_exits g = { 0 };
	struct taskstats ts;
	size_t n;

	memset(&ts, 0, sizeof(ts));
	ts.version = 13;
	ts.ac_pid = 4242;
	ts.ac_tgid = 4242;
	ts.ac_ppid = 17;
	ts.ac_uid = 1000;
	ts.ac_gid = 100;
	ts.ac_btime = 1700000000;
	ts.ac_btime64 = 1700000001;
	ts.ac_flag = 0x20;	/* AGROUP */
	ts.ac_exe_dev = 0x803;
	ts.ac_exe_inode = 123456;
	memset(ts.ac_comm, 'x', sizeof(ts.ac_comm));	/* no NUL at all */
	/* a process's last thread: AGGR_PID and AGGR_TGID, one record */
	n = build_exit(buf, &ts, sizeof(ts), true);
	assert_int_equal(kattr_taskexit_parse(buf, n, got_exit, &g), 1);
	assert_int_equal(g.n, 1);
	assert_int_equal(g.last.pid, 4242);
	assert_int_equal(g.last.tgid, 4242);
	assert_int_equal(g.last.ppid, 17);
	assert_int_equal(g.last.uid, 1000);
	assert_int_equal(g.last.gid, 100);
	assert_int_equal(g.last.btime, 1700000001);
	assert_int_equal(g.last.exe_dev, 0x803);
	assert_int_equal(g.last.exe_ino, 123456);
	assert_int_equal(g.last.version, 13);
	assert_true(g.last.group_dead);
	assert_int_equal(strlen(g.last.comm), sizeof(g.last.comm) - 1);
	/* no callback: counted all the same */
	assert_int_equal(kattr_taskexit_parse(buf, n, NULL, NULL), 1);
	/* the callback's error stops the walk */
	g.fail = -EIO;
	assert_int_equal(kattr_taskexit_parse(buf, n, got_exit, &g), -EIO);
	g = (struct got_exits){ 0 };

	/* an older kernel (before version 12): no tgid, no exe; ac_btime */
	ts.version = 8;
	ts.ac_flag = 0;
	memcpy(ts.ac_comm, "sh", 3);
	ts.ac_btime64 = 0;
	n = build_exit(buf, &ts, offsetof(struct taskstats, ac_btime64), false);
	assert_int_equal(kattr_taskexit_parse(buf, n, got_exit, &g), 1);
	assert_string_equal(g.last.comm, "sh");
	assert_int_equal(g.last.btime, 1700000000);
	assert_int_equal(g.last.tgid, 0);
	assert_int_equal(g.last.exe_ino, 0);
	assert_false(g.last.group_dead);
	/* a newer kernel sends more: the tail is ignored */
	n = build_exit(buf, &ts, sizeof(ts) + 64, true);
	assert_int_equal(kattr_taskexit_parse(buf, n, got_exit, &g), 1);
	assert_int_equal(g.last.ppid, 17);
	/* cut inside the attributes, or shorter than a header */
	assert_int_equal(kattr_taskexit_parse(buf, n - 8, got_exit, &g), -EBADMSG);
	assert_int_equal(kattr_taskexit_parse(buf, 3, got_exit, &g), -EBADMSG);
}

static void parse_exit_odd(void **state)
{
	char buf[256] __attribute__((aligned(8)));
	struct got_exits g = { 0 };
	struct nlmsghdr *nlh;
	struct genlmsghdr *gh;
	struct nlattr *nest;

	/* an error, and an acknowledgement: no records */
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = NLMSG_ERROR;
	((struct nlmsgerr *)mnl_nlmsg_put_extra_header(nlh, sizeof(struct nlmsgerr)))->error = -EINVAL;
	assert_int_equal(kattr_taskexit_parse(buf, nlh->nlmsg_len, got_exit, &g), -EINVAL);
	((struct nlmsgerr *)mnl_nlmsg_get_payload(nlh))->error = 0;
	assert_int_equal(kattr_taskexit_parse(buf, nlh->nlmsg_len, got_exit, &g), -EBADMSG);
	/* AGGR_PID without its stats */
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = 0x17;
	gh = mnl_nlmsg_put_extra_header(nlh, sizeof(*gh));
	gh->cmd = TASKSTATS_CMD_NEW;
	nest = mnl_attr_nest_start(nlh, TASKSTATS_TYPE_AGGR_PID);
	mnl_attr_put_u32(nlh, TASKSTATS_TYPE_PID, 5);
	mnl_attr_nest_end(nlh, nest);
	assert_int_equal(kattr_taskexit_parse(buf, nlh->nlmsg_len, got_exit, &g), -EBADMSG);
	/* only AGGR_TGID (another reply's shape): nothing for the callback */
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = 0x17;
	gh = mnl_nlmsg_put_extra_header(nlh, sizeof(*gh));
	gh->cmd = TASKSTATS_CMD_NEW;
	nest = mnl_attr_nest_start(nlh, TASKSTATS_TYPE_AGGR_TGID);
	mnl_attr_put_u32(nlh, TASKSTATS_TYPE_TGID, 5);
	mnl_attr_nest_end(nlh, nest);
	assert_int_equal(kattr_taskexit_parse(buf, nlh->nlmsg_len, got_exit, &g), 0);
	assert_int_equal(g.n, 0);
}

/* What it takes to hear a child's exit record: every record of the
 * machine passes by; the child's comes within 5 s. */
static void live_exit_record(void **state)
{
	struct kattr_taskexit_sock *s;
	struct got_exits g = { 0 };
	pid_t child;
	int r;

	if (geteuid() != 0) {
		print_message("skip: needs root (exit records need CAP_NET_ADMIN)\n");
		skip();
	}
	r = kattr_taskexit_open(0, &s);
	if (r == -ENOENT || r == -EPROTONOSUPPORT) {
		print_message("skip: no taskstats in this kernel (%s)\n", strerror(-r));
		skip();
	}
	assert_int_equal(r, 0);
	assert_true(kattr_taskexit_fd(s) >= 0);
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		prctl(PR_SET_NAME, "kattr-exitrec");
		_exit(0);
	}
	waitpid(child, NULL, 0);
	for (int i = 0; i < 500; i++) {
		struct pollfd p = { kattr_taskexit_fd(s), POLLIN, 0 };
		struct got_exits one;

		if (poll(&p, 1, 10) <= 0)
			continue;
		for (;;) {
			one = (struct got_exits){ 0 };
			r = kattr_taskexit_recv(s, 1, got_exit, &one);
			if (r == -ENOBUFS)
				continue;	/* records lost: the child's may follow */
			assert_true(r >= 0);
			if (r == 0)
				break;
			if (one.last.pid == (uint32_t)child)
				g = one;
		}
		if (g.n)
			break;
	}
	assert_int_equal(g.n, 1);
	assert_string_equal(g.last.comm, "kattr-exitrec");
	assert_int_equal(g.last.ppid, (uint32_t)getpid());
	assert_int_equal(g.last.uid, 0);
	if (g.last.version >= 12)
		assert_int_equal(g.last.tgid, (uint32_t)child);
	kattr_taskexit_close(s);
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(delayacct_switch),
#if WITH_LIBMNL
		cmocka_unit_test(parse_old_and_new_kernels),
		cmocka_unit_test(parse_errors_and_family),
		cmocka_unit_test(live_busy_process),
		cmocka_unit_test(live_cgroupstats),
		cmocka_unit_test(parse_exit_records),
		cmocka_unit_test(parse_exit_odd),
		cmocka_unit_test(live_exit_record),
#endif
	};

#if !WITH_LIBMNL
	printf("[  SKIPPED ] taskstats channel: built without libmnl (WITH_LIBMNL=OFF)\n");
#endif
	return cmocka_run_group_tests(tests, NULL, NULL);
}
