// SPDX-License-Identifier: LGPL-2.1-or-later
/* The proc connector (process events) with libmnl. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kattr/private_chan.h"

static const char *const type_names[] = {
	[KATTR_PROCEV_NONE] = "none",	[KATTR_PROCEV_FORK] = "fork",
	[KATTR_PROCEV_EXEC] = "exec",	[KATTR_PROCEV_UID] = "uid",
	[KATTR_PROCEV_GID] = "gid",	[KATTR_PROCEV_SID] = "sid",
	[KATTR_PROCEV_PTRACE] = "ptrace", [KATTR_PROCEV_COMM] = "comm",
	[KATTR_PROCEV_COREDUMP] = "coredump", [KATTR_PROCEV_EXIT] = "exit",
	[KATTR_PROCEV_OTHER] = "other",
};

const char *kattr_procev_type_name(enum kattr_procev_type type)
{
	if ((unsigned)type >= sizeof(type_names) / sizeof(type_names[0]))
		return "other";
	return type_names[type];
}

/* ---- sequence tracking: pure, needs no libmnl ------------------------ */

void kattr_procev_seq_init(struct kattr_procev_seq *s)
{
	memset(s, 0, sizeof(*s));
}

void kattr_procev_seq_free(struct kattr_procev_seq *s)
{
	free(s->last);
	free(s->seen);
	memset(s, 0, sizeof(*s));
}

void kattr_procev_seq_reset(struct kattr_procev_seq *s)
{
	if (s->seen)
		memset(s->seen, 0, s->ncpus);
}

static int seq_reserve(struct kattr_procev_seq *s, size_t cpu)
{
	size_t n = s->ncpus ? s->ncpus : 16;
	uint32_t *last;
	uint8_t *seen;

	if (cpu < s->ncpus)
		return 0;
	if (cpu >= KATTR_PROCEV_MAX_CPUS)
		return -ERANGE;
	while (n <= cpu)
		n *= 2;
	last = realloc(s->last, n * sizeof(*last));
	if (!last)
		return -ENOMEM;
	s->last = last;
	seen = realloc(s->seen, n);
	if (!seen)
		return -ENOMEM;
	memset(seen + s->ncpus, 0, n - s->ncpus);
	s->seen = seen;
	s->ncpus = n;
	return 0;
}

long kattr_procev_seq_check(struct kattr_procev_seq *s,
			    const struct kattr_procev *ev)
{
	uint32_t skipped;
	int r;

	if (ev->type == KATTR_PROCEV_NONE)
		return 0;
	r = seq_reserve(s, ev->cpu);
	if (r < 0)
		return r;
	skipped = s->seen[ev->cpu] ? ev->seq - s->last[ev->cpu] : 0;
	s->seen[ev->cpu] = 1;
	s->last[ev->cpu] = ev->seq + 1;
	/* A number from the past (reordering across a reset) is not a loss. */
	if (skipped > UINT32_MAX / 2)
		return 0;
	s->lost += skipped;
	return (long)skipped;
}

#if WITH_LIBMNL

#include <fcntl.h>
#include <stddef.h>
#include <sys/socket.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>

/* Bytes of struct proc_event needed for each kind of event. */
#define EV_HDR offsetof(struct proc_event, event_data)
#define EV_NEED(member) \
	(EV_HDR + sizeof(((struct proc_event *)0)->event_data.member))

/*
 * Each kind of event: the bytes it needs and where its ids are (offsets
 * in struct proc_event; 0: none).  What else a kind carries is read in
 * decode_data().
 */
#define EV_AT(m)	offsetof(struct proc_event, event_data.m)
static const struct ev_kind {
	unsigned int what;
	enum kattr_procev_type type;
	size_t need, pid, tgid, ppid, ptgid;
} ev_kinds[] = {
	{ PROC_EVENT_NONE, KATTR_PROCEV_NONE, EV_NEED(ack), 0, 0, 0, 0 },
	{ PROC_EVENT_FORK, KATTR_PROCEV_FORK, EV_NEED(fork), EV_AT(fork.child_pid),
	  EV_AT(fork.child_tgid), EV_AT(fork.parent_pid), EV_AT(fork.parent_tgid) },
	{ PROC_EVENT_EXEC, KATTR_PROCEV_EXEC, EV_NEED(exec), EV_AT(exec.process_pid),
	  EV_AT(exec.process_tgid), 0, 0 },
	{ PROC_EVENT_UID, KATTR_PROCEV_UID, EV_NEED(id), EV_AT(id.process_pid),
	  EV_AT(id.process_tgid), 0, 0 },
	{ PROC_EVENT_GID, KATTR_PROCEV_GID, EV_NEED(id), EV_AT(id.process_pid),
	  EV_AT(id.process_tgid), 0, 0 },
	{ PROC_EVENT_SID, KATTR_PROCEV_SID, EV_NEED(sid), EV_AT(sid.process_pid),
	  EV_AT(sid.process_tgid), 0, 0 },
	{ PROC_EVENT_PTRACE, KATTR_PROCEV_PTRACE, EV_NEED(ptrace),
	  EV_AT(ptrace.process_pid), EV_AT(ptrace.process_tgid),
	  EV_AT(ptrace.tracer_pid), EV_AT(ptrace.tracer_tgid) },
	{ PROC_EVENT_COMM, KATTR_PROCEV_COMM, EV_NEED(comm), EV_AT(comm.process_pid),
	  EV_AT(comm.process_tgid), 0, 0 },
	{ PROC_EVENT_COREDUMP, KATTR_PROCEV_COREDUMP, EV_NEED(coredump),
	  EV_AT(coredump.process_pid), EV_AT(coredump.process_tgid),
	  EV_AT(coredump.parent_pid), EV_AT(coredump.parent_tgid) },
	/* Kernels before 4.13 had no parent fields. */
	{ PROC_EVENT_EXIT, KATTR_PROCEV_EXIT, EV_AT(exit.parent_pid),
	  EV_AT(exit.process_pid), EV_AT(exit.process_tgid), EV_AT(exit.parent_pid),
	  EV_AT(exit.parent_tgid) },
};

/* The pid at offset off of ev (0: none). */
static pid_t ev_pid(const struct proc_event *ev, size_t off)
{
	__kernel_pid_t v = 0;

	if (off)
		memcpy(&v, (const char *)ev + off, sizeof(v));
	return v;
}

/* Fill out from ev; the bytes of ev that kind of event needs. */
static size_t decode_data(const struct proc_event *ev, struct kattr_procev *out)
{
	const struct ev_kind *k = NULL;

	for (size_t i = 0; i < sizeof(ev_kinds) / sizeof(ev_kinds[0]) && !k; i++)
		if (ev_kinds[i].what == (unsigned int)ev->what)
			k = &ev_kinds[i];
	if (!k) {
		out->type = KATTR_PROCEV_OTHER;
		return EV_HDR;
	}
	out->type = k->type;
	out->pid = ev_pid(ev, k->pid);
	out->tgid = ev_pid(ev, k->tgid);
	out->parent_pid = ev_pid(ev, k->ppid);
	out->parent_tgid = ev_pid(ev, k->ptgid);
	if (k->type == KATTR_PROCEV_NONE)
		out->ack_err = ev->event_data.ack.err;
	if (k->type == KATTR_PROCEV_UID || k->type == KATTR_PROCEV_GID) {
		out->rid = ev->event_data.id.r.ruid;
		out->eid = ev->event_data.id.e.euid;
	}
	if (k->type == KATTR_PROCEV_COMM) {
		memcpy(out->comm, ev->event_data.comm.comm, 16);
		out->comm[16] = '\0';
	}
	if (k->type == KATTR_PROCEV_EXIT) {
		out->exit_code = ev->event_data.exit.exit_code;
		out->exit_signal = ev->event_data.exit.exit_signal;
	}
	return k->need;
}

static int decode_event(const struct cn_msg *cn, size_t avail,
			struct kattr_procev *out)
{
	struct proc_event ev;
	size_t n = cn->len;

	if (n > avail || n < EV_HDR)
		return -EBADMSG;
	memset(&ev, 0, sizeof(ev));
	memcpy(&ev, cn->data, n < sizeof(ev) ? n : sizeof(ev));
	memset(out, 0, sizeof(*out));
	out->cpu = ev.cpu;
	out->seq = cn->seq;
	out->timestamp_ns = ev.timestamp_ns;
	return n < decode_data(&ev, out) ? -EBADMSG : 0;
}

/*
 * mnl_nlmsg_ok() casts nlmsg_len to int, so a length above 2 GiB passes
 * its check: compare unsigned here first.
 */
static bool msg_ok(const struct nlmsghdr *nlh, int left)
{
	return left >= (int)sizeof(*nlh) && nlh->nlmsg_len <= (unsigned)left &&
	       mnl_nlmsg_ok(nlh, left);
}

int kattr_procev_decode(const void *buf, size_t len,
			kattr_procev_cb cb, void *data)
{
	const struct nlmsghdr *nlh = buf;
	int left = len > INT32_MAX ? INT32_MAX : (int)len;
	int count = 0;

	while (msg_ok(nlh, left)) {
		const struct cn_msg *cn;
		struct kattr_procev ev;
		size_t payload;
		int r;

		if (nlh->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);

			if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*e))
				return -EBADMSG;
			if (e->error < 0)
				return e->error < -4095 ? -EBADMSG : e->error;
			goto next;
		}
		/* Events come as NLMSG_DONE: mnl_cb_run() would stop there. */
		if (nlh->nlmsg_type != NLMSG_DONE)
			goto next;
		payload = mnl_nlmsg_get_payload_len(nlh);
		if (payload < sizeof(*cn))
			return -EBADMSG;
		cn = mnl_nlmsg_get_payload(nlh);
		if (cn->id.idx != CN_IDX_PROC || cn->id.val != CN_VAL_PROC)
			goto next;
		r = decode_event(cn, payload - sizeof(*cn), &ev);
		if (r < 0)
			return r;
		count++;
		r = cb ? cb(&ev, data) : 0;
		if (r < 0)
			return r;
next:
		nlh = mnl_nlmsg_next(nlh, &left);
	}
	return count;
}

struct kattr_procev_sock {
	struct mnl_socket *nl;
	struct kattr_procev_seq seq;
	uint64_t lost;
	char buf[16384] __attribute__((aligned(8)));
};

static int send_op(struct kattr_procev_sock *s, enum proc_cn_mcast_op op)
{
	char buf[NLMSG_SPACE(sizeof(struct cn_msg) + sizeof(uint32_t))]
		__attribute__((aligned(8)));
	struct nlmsghdr *nlh;
	struct cn_msg *cn;
	uint32_t v = op;

	memset(buf, 0, sizeof(buf));
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = NLMSG_DONE;
	nlh->nlmsg_pid = mnl_socket_get_portid(s->nl);
	cn = mnl_nlmsg_put_extra_header(nlh, sizeof(*cn) + sizeof(v));
	cn->id.idx = CN_IDX_PROC;
	cn->id.val = CN_VAL_PROC;
	cn->len = sizeof(v);
	memcpy(cn->data, &v, sizeof(v));
	if (mnl_socket_sendto(s->nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	return 0;
}

int kattr_procev_open(int rcvbuf, struct kattr_procev_sock **out)
{
	struct kattr_procev_sock *s;
	int r;

	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	kattr_procev_seq_init(&s->seq);
	r = kattr_mnl_open(NETLINK_CONNECTOR, SOCK_CLOEXEC | SOCK_NONBLOCK, rcvbuf,
			CN_IDX_PROC, &s->nl);
	if (r < 0)
		goto out_free;
	r = send_op(s, PROC_CN_MCAST_LISTEN);
	if (r < 0)
		goto out_close;
	*out = s;
	return 0;

out_close:
	mnl_socket_close(s->nl);
out_free:
	free(s);
	return r;
}

void kattr_procev_close(struct kattr_procev_sock *s)
{
	if (!s)
		return;
	(void)send_op(s, PROC_CN_MCAST_IGNORE);
	mnl_socket_close(s->nl);
	kattr_procev_seq_free(&s->seq);
	free(s);
}

int kattr_procev_fd(const struct kattr_procev_sock *s)
{
	return mnl_socket_get_fd(s->nl);
}

int kattr_procev_rcvbuf(const struct kattr_procev_sock *s)
{
	int v = 0;
	socklen_t l = sizeof(v);

	if (getsockopt(mnl_socket_get_fd(s->nl), SOL_SOCKET, SO_RCVBUF, &v, &l) < 0)
		return -errno;
	return v;
}

int kattr_procev_grow(struct kattr_procev_sock *s, int max)
{
	int cur = kattr_procev_rcvbuf(s);
	int want;

	if (cur < 0)
		return cur;
	cur /= 2;		/* the kernel reports twice what was set */
	if (cur >= max)
		return -ENOSPC;
	want = cur > max / 2 ? max : cur * 2;
	return kattr_nl_set_rcvbuf(mnl_socket_get_fd(s->nl), want);
}

struct recv_ctx {
	struct kattr_procev_sock *s;
	kattr_procev_cb cb;
	void *data;
};

static int recv_one(const struct kattr_procev *ev, void *data)
{
	struct recv_ctx *c = data;
	long skipped = kattr_procev_seq_check(&c->s->seq, ev);

	if (skipped > 0)
		c->s->lost += (uint64_t)skipped;
	return c->cb ? c->cb(ev, c->data) : 0;
}

int kattr_procev_recv(struct kattr_procev_sock *s, unsigned max_batches,
				kattr_procev_cb cb, void *data)
{
	struct recv_ctx c = { s, cb, data };
	int fd = mnl_socket_get_fd(s->nl);
	int total = 0;
	unsigned n;

	for (n = 0; max_batches == 0 || n < max_batches; n++) {
		ssize_t got = recv(fd, s->buf, sizeof(s->buf), MSG_DONTWAIT);
		int r;

		if (got < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				break;
			if (errno == ENOBUFS) {
				s->lost++;
				/* Numbers restart from wherever they are. */
				kattr_procev_seq_reset(&s->seq);
			}
			return -errno;
		}
		r = kattr_procev_decode(s->buf, (size_t)got, recv_one, &c);
		if (r == -EBADMSG)
			continue;	/* not ours to judge: skip it */
		if (r < 0)
			return r;
		total += r;
	}
	return total;
}

uint64_t kattr_procev_take_lost(struct kattr_procev_sock *s)
{
	uint64_t v = s->lost;

	s->lost = 0;
	return v;
}

#else /* !WITH_LIBMNL */

int kattr_procev_decode(const void *buf, size_t len,
			kattr_procev_cb cb, void *data)
{
	return -EOPNOTSUPP;
}

int kattr_procev_open(int rcvbuf, struct kattr_procev_sock **out)
{
	return -EOPNOTSUPP;
}

void kattr_procev_close(struct kattr_procev_sock *s)
{
}

int kattr_procev_fd(const struct kattr_procev_sock *s)
{
	return -EOPNOTSUPP;
}

int kattr_procev_rcvbuf(const struct kattr_procev_sock *s)
{
	return -EOPNOTSUPP;
}

int kattr_procev_grow(struct kattr_procev_sock *s, int max)
{
	return -EOPNOTSUPP;
}

int kattr_procev_recv(struct kattr_procev_sock *s, unsigned max_batches,
				kattr_procev_cb cb, void *data)
{
	return -EOPNOTSUPP;
}

uint64_t kattr_procev_take_lost(struct kattr_procev_sock *s)
{
	return 0;
}

#endif
