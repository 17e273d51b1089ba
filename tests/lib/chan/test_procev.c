/*
 * The proc connector: decoding hand-built messages, per-CPU gap
 * detection, and (as root) events from the running kernel, including an
 * overflow forced with a tiny receive buffer.
 */
#include "testutil.h"
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <sys/wait.h>

#include "kattr/procev.h"
#include "kattr/private.h"

#if WITH_LIBMNL
#include <poll.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>

/* Append one proc connector message to buf at *off. */
static void put_event(char *buf, size_t *off, uint32_t seq,
		      const struct proc_event *ev, size_t evlen, uint32_t idx)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)(buf + *off);
	struct cn_msg *cn = NLMSG_DATA(nlh);

	memset(nlh, 0, NLMSG_SPACE(sizeof(*cn) + evlen));
	nlh->nlmsg_len = NLMSG_LENGTH(sizeof(*cn) + evlen);
	nlh->nlmsg_type = NLMSG_DONE;
	cn->id.idx = idx;
	cn->id.val = CN_VAL_PROC;
	cn->seq = seq;
	cn->len = (uint16_t)evlen;
	memcpy(cn->data, ev, evlen);
	*off += NLMSG_ALIGN(nlh->nlmsg_len);
}

struct seen {
	struct kattr_procev ev[16];
	int n;
};

static int collect(const struct kattr_procev *ev, void *data)
{
	struct seen *s = data;

	if (s->n < 16)
		s->ev[s->n++] = *ev;
	return 0;
}

static void decodes_every_kind(void **state)
{
	char buf[4096] __attribute__((aligned(8)));
	struct proc_event ev;
	struct seen s = { .n = 0 };
	size_t off = 0;

	memset(&ev, 0, sizeof(ev));
	ev.what = PROC_EVENT_FORK;
	ev.cpu = 1;
	ev.timestamp_ns = 123456789;
	ev.event_data.fork.parent_pid = 10;
	ev.event_data.fork.parent_tgid = 10;
	ev.event_data.fork.child_pid = 12;	/* a thread of 11 */
	ev.event_data.fork.child_tgid = 11;
	put_event(buf, &off, 7, &ev, sizeof(ev), CN_IDX_PROC);
	memset(&ev.event_data, 0, sizeof(ev.event_data));
	ev.what = PROC_EVENT_EXEC;
	ev.event_data.exec.process_pid = 11;
	ev.event_data.exec.process_tgid = 11;
	put_event(buf, &off, 8, &ev, sizeof(ev), CN_IDX_PROC);
	ev.what = PROC_EVENT_UID;
	ev.event_data.id.process_pid = 11;
	ev.event_data.id.process_tgid = 11;
	ev.event_data.id.r.ruid = 1000;
	ev.event_data.id.e.euid = 33;
	put_event(buf, &off, 9, &ev, sizeof(ev), CN_IDX_PROC);
	ev.what = PROC_EVENT_GID;
	ev.event_data.id.r.rgid = 100;
	ev.event_data.id.e.egid = 101;
	put_event(buf, &off, 10, &ev, sizeof(ev), CN_IDX_PROC);
	memset(&ev.event_data, 0, sizeof(ev.event_data));
	ev.what = PROC_EVENT_COMM;
	ev.event_data.comm.process_pid = 11;
	ev.event_data.comm.process_tgid = 11;
	memcpy(ev.event_data.comm.comm, "0123456789abcdef", 16); /* no NUL */
	put_event(buf, &off, 11, &ev, sizeof(ev), CN_IDX_PROC);
	/* a message of another connector is skipped */
	put_event(buf, &off, 99, &ev, sizeof(ev), CN_IDX_PROC + 1);
	memset(&ev.event_data, 0, sizeof(ev.event_data));
	ev.what = PROC_EVENT_EXIT;
	ev.event_data.exit.process_pid = 11;
	ev.event_data.exit.process_tgid = 11;
	ev.event_data.exit.exit_code = 256;
	ev.event_data.exit.exit_signal = 17;
	ev.event_data.exit.parent_pid = 10;
	ev.event_data.exit.parent_tgid = 10;
	put_event(buf, &off, 12, &ev, sizeof(ev), CN_IDX_PROC);

	assert_int_equal(kattr_procev_decode(buf, off, collect, &s), 6);
	assert_int_equal(s.n, 6);
	assert_int_equal(s.ev[0].type, KATTR_PROCEV_FORK);
	assert_int_equal(s.ev[0].cpu, 1);
	assert_int_equal(s.ev[0].seq, 7);
	assert_int_equal(s.ev[0].timestamp_ns, 123456789);
	assert_int_equal(s.ev[0].pid, 12);
	assert_int_equal(s.ev[0].tgid, 11);
	assert_int_equal(s.ev[0].parent_tgid, 10);
	assert_int_equal(s.ev[1].type, KATTR_PROCEV_EXEC);
	assert_int_equal(s.ev[1].tgid, 11);
	assert_int_equal(s.ev[2].type, KATTR_PROCEV_UID);
	assert_int_equal(s.ev[2].rid, 1000);
	assert_int_equal(s.ev[2].eid, 33);
	assert_int_equal(s.ev[3].type, KATTR_PROCEV_GID);
	assert_int_equal(s.ev[3].eid, 101);
	assert_int_equal(s.ev[4].type, KATTR_PROCEV_COMM);
	assert_string_equal(s.ev[4].comm, "0123456789abcdef");
	assert_int_equal(s.ev[5].type, KATTR_PROCEV_EXIT);
	assert_int_equal(s.ev[5].exit_code, 256);
	assert_int_equal(s.ev[5].parent_pid, 10);
	assert_string_equal(kattr_procev_type_name(s.ev[5].type), "exit");
}

static void truncated_and_errors(void **state)
{
	char buf[1024] __attribute__((aligned(8)));
	struct proc_event ev;
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	size_t off = 0;

	memset(&ev, 0, sizeof(ev));
	ev.what = PROC_EVENT_FORK;
	/* the event is cut before the child's ids */
	put_event(buf, &off, 1, &ev, offsetof(struct proc_event, event_data) + 8,
		  CN_IDX_PROC);
	assert_int_equal(kattr_procev_decode(buf, off, NULL, NULL), -EBADMSG);
	/* cn_msg.len claims more than the message holds */
	off = 0;
	put_event(buf, &off, 1, &ev, sizeof(ev), CN_IDX_PROC);
	((struct cn_msg *)NLMSG_DATA(nlh))->len = 500;
	assert_int_equal(kattr_procev_decode(buf, off, NULL, NULL), -EBADMSG);
	/* an old kernel's exit event without parent fields is fine */
	off = 0;
	ev.what = PROC_EVENT_EXIT;
	put_event(buf, &off, 1, &ev, offsetof(struct proc_event,
					       event_data.exit.parent_pid), CN_IDX_PROC);
	assert_int_equal(kattr_procev_decode(buf, off, NULL, NULL), 1);
	/* an NLMSG_ERROR */
	memset(buf, 0, sizeof(buf));
	nlh->nlmsg_len = NLMSG_LENGTH(sizeof(struct nlmsgerr));
	nlh->nlmsg_type = NLMSG_ERROR;
	((struct nlmsgerr *)NLMSG_DATA(nlh))->error = -EPERM;
	assert_int_equal(kattr_procev_decode(buf, nlh->nlmsg_len, NULL, NULL), -EPERM);
	/* nothing at all */
	assert_int_equal(kattr_procev_decode(buf, 3, NULL, NULL), 0);
}

static void gaps_per_cpu(void **state)
{
	struct kattr_procev_seq s;
	struct kattr_procev ev = { .type = KATTR_PROCEV_EXEC };

	kattr_procev_seq_init(&s);
	ev.cpu = 0; ev.seq = 100;
	assert_int_equal(kattr_procev_seq_check(&s, &ev), 0);	/* first seen */
	ev.cpu = 3; ev.seq = 5;
	assert_int_equal(kattr_procev_seq_check(&s, &ev), 0);
	ev.cpu = 0; ev.seq = 101;
	assert_int_equal(kattr_procev_seq_check(&s, &ev), 0);
	ev.cpu = 3; ev.seq = 6;
	assert_int_equal(kattr_procev_seq_check(&s, &ev), 0);
	ev.cpu = 0; ev.seq = 105;				/* 102..104 lost */
	assert_int_equal(kattr_procev_seq_check(&s, &ev), 3);
	assert_int_equal(s.lost, 3);
	ev.cpu = 40; ev.seq = 0;				/* grows */
	assert_int_equal(kattr_procev_seq_check(&s, &ev), 0);
	ev.seq = 2;
	assert_int_equal(kattr_procev_seq_check(&s, &ev), 1);
	/* acknowledgements carry no per-CPU number */
	ev.type = KATTR_PROCEV_NONE; ev.seq = 9999;
	assert_int_equal(kattr_procev_seq_check(&s, &ev), 0);
	ev.type = KATTR_PROCEV_FORK;
	/* wrap-around */
	ev.cpu = 1; ev.seq = UINT32_MAX;
	assert_int_equal(kattr_procev_seq_check(&s, &ev), 0);
	ev.seq = 0;
	assert_int_equal(kattr_procev_seq_check(&s, &ev), 0);
	/* after a reset nothing counts as lost */
	kattr_procev_seq_reset(&s);
	ev.seq = 500;
	assert_int_equal(kattr_procev_seq_check(&s, &ev), 0);
	ev.cpu = KATTR_PROCEV_MAX_CPUS;
	assert_int_equal(kattr_procev_seq_check(&s, &ev), -ERANGE);
	kattr_procev_seq_free(&s);
}

/* ---- the running kernel ------------------------------------------------ */

struct watch {
	pid_t child;
	bool fork, exec, exit;
};

static int watch_cb(const struct kattr_procev *ev, void *data)
{
	struct watch *w = data;

	if (ev->type == KATTR_PROCEV_FORK && ev->tgid == w->child && ev->pid == w->child &&
	    ev->parent_tgid == getpid())
		w->fork = true;
	if (ev->type == KATTR_PROCEV_EXEC && ev->tgid == w->child)
		w->exec = true;
	if (ev->type == KATTR_PROCEV_EXIT && ev->tgid == w->child)
		w->exit = true;
	return 0;
}

static void live_fork_exec_exit(void **state)
{
	struct kattr_procev_sock *s;
	struct watch w = { 0 };
	int r, i, st;

	TU_REQUIRE_ROOT();
	r = kattr_procev_open(1 << 20, &s);
	if (r == -EPROTONOSUPPORT || r == -EPERM) {
		print_message("skip: no proc connector here (%s)\n", strerror(-r));
		skip();
	}
	assert_int_equal(r, 0);
	w.child = fork();
	assert_true(w.child >= 0);
	if (w.child == 0) {
		execl("/bin/true", "true", (char *)NULL);
		_exit(127);
	}
	assert_int_equal(waitpid(w.child, &st, 0), w.child);
	for (i = 0; i < 100 && !(w.fork && w.exec && w.exit); i++) {
		struct pollfd p = { .fd = kattr_procev_fd(s), .events = POLLIN };

		poll(&p, 1, 20);
		r = kattr_procev_recv(s, 0, watch_cb, &w);
		assert_true(r >= 0);
	}
	assert_true(w.fork);
	assert_true(w.exec);
	assert_true(w.exit);
	kattr_procev_close(s);
}

static void live_overflow_is_reported(void **state)
{
	struct kattr_procev_sock *s;
	int r, i, before, after, enobufs = 0;

	TU_REQUIRE_ROOT();
	r = kattr_procev_open(1, &s);	/* the kernel's minimum */
	if (r == -EPROTONOSUPPORT || r == -EPERM) {
		print_message("skip: no proc connector here (%s)\n", strerror(-r));
		skip();
	}
	assert_int_equal(r, 0);
	for (i = 0; i < 300; i++) {
		pid_t p = fork();

		assert_true(p >= 0);
		if (p == 0)
			_exit(0);
		waitpid(p, NULL, 0);
	}
	for (i = 0; i < 1000; i++) {
		r = kattr_procev_recv(s, 0, NULL, NULL);
		if (r == -ENOBUFS) {
			enobufs = 1;
			break;
		}
		if (r == 0)
			break;
	}
	assert_true(enobufs);
	assert_true(kattr_procev_take_lost(s) >= 1);
	assert_int_equal(kattr_procev_take_lost(s), 0);
	before = kattr_procev_rcvbuf(s);
	assert_int_equal(kattr_procev_grow(s, 1 << 22), 0);
	after = kattr_procev_rcvbuf(s);
	assert_true(after > before);
	kattr_procev_close(s);
}
#endif

int main(void)
{
#if WITH_LIBMNL
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(decodes_every_kind),
		cmocka_unit_test(truncated_and_errors),
		cmocka_unit_test(gaps_per_cpu),
		cmocka_unit_test(live_fork_exec_exit),
		cmocka_unit_test(live_overflow_is_reported),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
#else
	printf("[  SKIPPED ] built without libmnl (WITH_LIBMNL=OFF)\n");
	return 0;
#endif
}
