// SPDX-License-Identifier: LGPL-2.1-or-later
/* taskstats and cgroupstats over generic netlink with libmnl. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <linux/taskstats.h>

#include "kattr/private_chan.h"

int kattr_delayacct_enabled_at(const struct kattr_root *root)
{
	char *text;
	int r;

	r = kattr_root_file_read(root, "/proc/sys/kernel/task_delayacct", &text, NULL);
	if (r < 0)
		return r;
	r = (text[0] == '0' && (text[1] == '\n' || text[1] == '\0')) ? 0 :
	    (text[0] == '1' && (text[1] == '\n' || text[1] == '\0')) ? 1 :
	    -EINVAL;
	free(text);
	return r;
}

int kattr_delayacct_enabled(void)
{
	return kattr_delayacct_enabled_at(NULL);
}

#if WITH_LIBMNL

#include <fcntl.h>
#include <stdio.h>
#include <time.h>
#include <sys/socket.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/cgroupstats.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

/*
 * Check the netlink and generic netlink headers of a reply: returns the
 * first attribute's offset in the payload (the genl header's size) or
 * -errno.
 */
static int reply_check(const void *buf, size_t len, const struct nlmsghdr **out)
{
	const struct nlmsghdr *nlh = buf;
	int left = len > INT32_MAX ? INT32_MAX : (int)len;

	/* mnl_nlmsg_ok() casts nlmsg_len to int: check it unsigned first.
	 * The attribute walks run to the message's aligned end (libmnl's
	 * payload tail), so that end must be inside buf too; the kernel's
	 * nlmsg_put() always puts the padding (found by fuzz_procev: an
	 * attribute reaching 2 bytes past a 59-byte buffer). */
	if (left < (int)sizeof(*nlh) || nlh->nlmsg_len > (unsigned)left ||
	    MNL_ALIGN(nlh->nlmsg_len) > (unsigned)left || !mnl_nlmsg_ok(nlh, left))
		return -EBADMSG;
	if (nlh->nlmsg_type == NLMSG_ERROR) {
		const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);

		if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*e))
			return -EBADMSG;
		return e->error < 0 && e->error >= -4095 ? e->error : -EBADMSG;
	}
	if (mnl_nlmsg_get_payload_len(nlh) < GENL_HDRLEN)
		return -EBADMSG;
	*out = nlh;
	return 0;
}

/* Attributes are walked with bounds checked (mnl_attr_ok). */
static void fill_stats(const void *p, size_t n, struct kattr_taskstats *out)
{
	struct taskstats ts;

	memset(&ts, 0, sizeof(ts));
	memcpy(&ts, p, n < sizeof(ts) ? n : sizeof(ts));
	out->received = n;
	out->version = ts.version;
	memcpy(out->comm, ts.ac_comm, sizeof(ts.ac_comm));
	out->comm[sizeof(out->comm) - 1] = '\0';
	out->cpu_count = ts.cpu_count;
	out->cpu_delay_total = ts.cpu_delay_total;
	out->blkio_count = ts.blkio_count;
	out->blkio_delay_total = ts.blkio_delay_total;
	out->swapin_count = ts.swapin_count;
	out->swapin_delay_total = ts.swapin_delay_total;
	out->freepages_count = ts.freepages_count;
	out->freepages_delay_total = ts.freepages_delay_total;
	out->thrashing_count = ts.thrashing_count;
	out->thrashing_delay_total = ts.thrashing_delay_total;
	out->compact_count = ts.compact_count;
	out->compact_delay_total = ts.compact_delay_total;
	out->cpu_run_real_total = ts.cpu_run_real_total;
	out->nvcsw = ts.nvcsw;
	out->nivcsw = ts.nivcsw;
}

int kattr_taskstats_parse(const void *buf, size_t len,
			  struct kattr_taskstats *out)
{
	const struct nlmsghdr *nlh;
	const struct nlattr *a, *b;
	int r = reply_check(buf, len, &nlh);
	bool found = false;

	if (r < 0)
		return r;
	memset(out, 0, sizeof(*out));
	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		uint16_t t = mnl_attr_get_type(a);

		if (t != TASKSTATS_TYPE_AGGR_PID && t != TASKSTATS_TYPE_AGGR_TGID)
			continue;
		mnl_attr_for_each_nested(b, a) {
			switch (mnl_attr_get_type(b)) {
			case TASKSTATS_TYPE_PID:
			case TASKSTATS_TYPE_TGID:
				if (mnl_attr_validate(b, MNL_TYPE_U32) < 0)
					return -EBADMSG;
				out->pid = mnl_attr_get_u32(b);
				break;
			case TASKSTATS_TYPE_STATS:
				fill_stats(mnl_attr_get_payload(b),
					   mnl_attr_get_payload_len(b), out);
				found = true;
				break;
			}
		}
	}
	return found ? 0 : -ENODATA;
}

/* The first attribute of type in a reply, or NULL with *err set. */
static const struct nlattr *reply_attr(const void *buf, size_t len,
				       uint16_t type, int *err)
{
	const struct nlmsghdr *nlh;
	const struct nlattr *a;

	*err = reply_check(buf, len, &nlh);
	if (*err < 0)
		return NULL;
	mnl_attr_for_each(a, nlh, GENL_HDRLEN)
		if (mnl_attr_get_type(a) == type)
			return a;
	*err = -ENODATA;
	return NULL;
}

int kattr_cgroupstats_parse(const void *buf, size_t len,
			    struct kattr_cgroupstats *out)
{
	const struct nlattr *a;
	struct cgroupstats cs;
	size_t n;
	int r;

	a = reply_attr(buf, len, CGROUPSTATS_TYPE_CGROUP_STATS, &r);
	if (!a)
		return r;
	n = mnl_attr_get_payload_len(a);
	memset(&cs, 0, sizeof(cs));
	memcpy(&cs, mnl_attr_get_payload(a), n < sizeof(cs) ? n : sizeof(cs));
	out->nr_sleeping = cs.nr_sleeping;
	out->nr_running = cs.nr_running;
	out->nr_stopped = cs.nr_stopped;
	out->nr_uninterruptible = cs.nr_uninterruptible;
	out->nr_io_wait = cs.nr_io_wait;
	return 0;
}

int kattr_genl_family_parse(const void *buf, size_t len)
{
	const struct nlattr *a;
	int r;

	a = reply_attr(buf, len, CTRL_ATTR_FAMILY_ID, &r);
	if (!a)
		return r;
	if (mnl_attr_validate(a, MNL_TYPE_U16) < 0)
		return -EBADMSG;
	return mnl_attr_get_u16(a);
}

struct kattr_taskstats_sock {
	struct mnl_socket *nl;
	uint16_t family;
	uint32_t seq;
	char buf[8192] __attribute__((aligned(8)));
};

static struct nlmsghdr *request(struct kattr_taskstats_sock *s, uint16_t type,
				uint8_t cmd)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(s->buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = ++s->seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = 1;
	return nlh;
}

/* Send the request in s->buf and leave the matching reply there. */
static int transact(struct kattr_taskstats_sock *s, struct nlmsghdr *nlh,
		    size_t *len)
{
	uint32_t seq = nlh->nlmsg_seq;
	uint32_t portid = mnl_socket_get_portid(s->nl);

	if (mnl_socket_sendto(s->nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	for (;;) {
		ssize_t n = mnl_socket_recvfrom(s->nl, s->buf, sizeof(s->buf));
		const struct nlmsghdr *r = (const void *)s->buf;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if ((size_t)n < sizeof(*r))
			return -EBADMSG;
		if (r->nlmsg_seq != seq || (r->nlmsg_pid && r->nlmsg_pid != portid))
			continue;	/* a stale answer */
		*len = (size_t)n;
		return 0;
	}
}

/* The id of the TASKSTATS family (ask the generic netlink controller). */
static int family_id(struct kattr_taskstats_sock *s)
{
	struct nlmsghdr *nlh;
	size_t len;
	int r;

	nlh = request(s, GENL_ID_CTRL, CTRL_CMD_GETFAMILY);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, TASKSTATS_GENL_NAME);
	r = transact(s, nlh, &len);
	return r < 0 ? r : kattr_genl_family_parse(s->buf, len);
}

int kattr_taskstats_open(struct kattr_taskstats_sock **out)
{
	struct kattr_taskstats_sock *s = calloc(1, sizeof(*s));
	int r;

	if (!s)
		return -ENOMEM;
	s->seq = (uint32_t)time(NULL);
	r = kattr_mnl_open(NETLINK_GENERIC, SOCK_CLOEXEC, 0, 0, &s->nl);
	if (r == 0) {
		r = family_id(s);
		if (r < 0)
			mnl_socket_close(s->nl);
	}
	if (r < 0) {
		free(s);
		return r;
	}
	s->family = (uint16_t)r;
	*out = s;
	return 0;
}

void kattr_taskstats_close(struct kattr_taskstats_sock *s)
{
	if (!s)
		return;
	mnl_socket_close(s->nl);
	free(s);
}

static int get_stats(struct kattr_taskstats_sock *s, uint16_t attr, pid_t id,
		     struct kattr_taskstats *out)
{
	struct nlmsghdr *nlh;
	size_t len;
	int r;

	if (id <= 0)
		return -EINVAL;
	nlh = request(s, s->family, TASKSTATS_CMD_GET);
	mnl_attr_put_u32(nlh, attr, (uint32_t)id);
	r = transact(s, nlh, &len);
	if (r < 0)
		return r;
	return kattr_taskstats_parse(s->buf, len, out);
}

int kattr_cgroupstats_get(struct kattr_taskstats_sock *s, int dirfd,
				    struct kattr_cgroupstats *out)
{
	struct nlmsghdr *nlh;
	size_t len;
	int r;

	nlh = request(s, s->family, CGROUPSTATS_CMD_GET);
	mnl_attr_put_u32(nlh, CGROUPSTATS_CMD_ATTR_FD, (uint32_t)dirfd);
	r = transact(s, nlh, &len);
	if (r < 0)
		return r;
	return kattr_cgroupstats_parse(s->buf, len, out);
}

/* ---- exit records ------------------------------------------------------ */

#ifndef AGROUP
#define AGROUP 0x20
#endif

static void fill_exit(const void *p, size_t n, struct kattr_taskexit *out)
{
	struct taskstats ts;

	memset(&ts, 0, sizeof(ts));
	memcpy(&ts, p, n < sizeof(ts) ? n : sizeof(ts));
	memset(out, 0, sizeof(*out));
	out->version = ts.version;
	out->pid = ts.ac_pid;
	out->ppid = ts.ac_ppid;
	out->uid = ts.ac_uid;
	out->gid = ts.ac_gid;
	memcpy(out->comm, ts.ac_comm, sizeof(ts.ac_comm));
	out->comm[sizeof(out->comm) - 1] = '\0';
	out->btime = ts.ac_btime64 ? ts.ac_btime64 : ts.ac_btime;
	/* Fields past what the kernel sent read 0 (the memset). */
	out->tgid = ts.ac_tgid;
	out->exe_dev = ts.ac_exe_dev;
	out->exe_ino = ts.ac_exe_inode;
	out->group_dead = ts.ac_flag & AGROUP;
}

int kattr_taskexit_parse(const void *buf, size_t len, kattr_taskexit_cb cb,
			 void *data)
{
	const struct nlmsghdr *nlh;
	const struct nlattr *a, *b;
	int r = reply_check(buf, len, &nlh), count = 0;

	if (r < 0)
		return r;	/* an acknowledgement too: -EBADMSG */
	mnl_attr_for_each(a, nlh, GENL_HDRLEN) {
		struct kattr_taskexit rec;
		bool found = false;

		if (mnl_attr_get_type(a) != TASKSTATS_TYPE_AGGR_PID)
			continue;	/* AGGR_TGID: the process's sums */
		mnl_attr_for_each_nested(b, a) {
			if (mnl_attr_get_type(b) != TASKSTATS_TYPE_STATS)
				continue;
			fill_exit(mnl_attr_get_payload(b), mnl_attr_get_payload_len(b),
				  &rec);
			found = true;
		}
		if (!found)
			return -EBADMSG;
		count++;
		r = cb ? cb(&rec, data) : 0;
		if (r < 0)
			return r;
	}
	return count;
}

struct kattr_taskexit_sock {
	struct kattr_taskstats_sock ts;	/* the socket, family, buffer */
	char mask[256];			/* the CPUs registered for */
};

/* Register (or deregister) s for the exit records of mask's CPUs. */
static int listen_cpus(struct kattr_taskexit_sock *s, uint16_t attr)
{
	struct nlmsghdr *nlh = request(&s->ts, s->ts.family, TASKSTATS_CMD_GET);
	const struct nlmsgerr *e;
	size_t len;
	int r;

	nlh->nlmsg_flags |= NLM_F_ACK;
	mnl_attr_put_strz(nlh, attr, s->mask);
	r = transact(&s->ts, nlh, &len);
	if (r < 0)
		return r;
	nlh = (struct nlmsghdr *)s->ts.buf;
	if (nlh->nlmsg_type != NLMSG_ERROR || nlh->nlmsg_len > len ||
	    mnl_nlmsg_get_payload_len(nlh) < sizeof(*e))
		return -EBADMSG;
	e = mnl_nlmsg_get_payload(nlh);
	return e->error <= 0 && e->error >= -4095 ? e->error : -EBADMSG;
}

int kattr_taskexit_open_at(const struct kattr_root *root, int rcvbuf,
			   struct kattr_taskexit_sock **out)
{
	struct kattr_taskexit_sock *s = calloc(1, sizeof(*s));
	char *text = NULL;
	int r;

	if (!s)
		return -ENOMEM;
	/* Exit records go to the listeners of the CPU the task exits on. */
	r = kattr_root_file_read(root, "/sys/devices/system/cpu/possible", &text, NULL);
	snprintf(s->mask, sizeof(s->mask), "%s", r == 0 ? text : "0");
	s->mask[strcspn(s->mask, "\n")] = '\0';
	free(text);
	s->ts.seq = (uint32_t)time(NULL);
	r = kattr_mnl_open(NETLINK_GENERIC, SOCK_CLOEXEC, rcvbuf, 0, &s->ts.nl);
	if (r == 0) {
		r = family_id(&s->ts);
		if (r >= 0) {
			s->ts.family = (uint16_t)r;
			r = listen_cpus(s, TASKSTATS_CMD_ATTR_REGISTER_CPUMASK);
		}
		if (r == 0) {
			int fd = mnl_socket_get_fd(s->ts.nl);
			int fl = fcntl(fd, F_GETFL);

			if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0)
				r = -errno;
		}
		if (r < 0)
			mnl_socket_close(s->ts.nl);
	}
	if (r < 0) {
		free(s);
		return r;
	}
	*out = s;
	return 0;
}

int kattr_taskexit_open(int rcvbuf, struct kattr_taskexit_sock **out)
{
	return kattr_taskexit_open_at(NULL, rcvbuf, out);
}

void kattr_taskexit_close(struct kattr_taskexit_sock *s)
{
	if (!s)
		return;
	/* Not deregistered (the acknowledgement would queue behind every
	 * record not read): the kernel forgets a closed listener at its
	 * next record for it. */
	mnl_socket_close(s->ts.nl);
	free(s);
}

int kattr_taskexit_fd(const struct kattr_taskexit_sock *s)
{
	return mnl_socket_get_fd(s->ts.nl);
}

int kattr_taskexit_recv(struct kattr_taskexit_sock *s, unsigned max,
				  kattr_taskexit_cb cb, void *data)
{
	int fd = mnl_socket_get_fd(s->ts.nl), total = 0;

	for (unsigned n = 0; max == 0 || n < max; n++) {
		ssize_t got = recv(fd, s->ts.buf, sizeof(s->ts.buf), MSG_DONTWAIT);
		int r;

		if (got < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				break;
			return -errno;
		}
		r = kattr_taskexit_parse(s->ts.buf, (size_t)got, cb, data);
		if (r == -EBADMSG)
			continue;	/* not a record: skip it */
		if (r < 0)
			return r;
		total += r;
	}
	return total;
}

#else /* !WITH_LIBMNL */

int kattr_taskstats_parse(const void *buf, size_t len,
			  struct kattr_taskstats *out)
{
	return -EOPNOTSUPP;
}

int kattr_cgroupstats_parse(const void *buf, size_t len,
			    struct kattr_cgroupstats *out)
{
	return -EOPNOTSUPP;
}

int kattr_genl_family_parse(const void *buf, size_t len)
{
	return -EOPNOTSUPP;
}

int kattr_taskstats_open(struct kattr_taskstats_sock **out)
{
	return -EOPNOTSUPP;
}

void kattr_taskstats_close(struct kattr_taskstats_sock *s)
{
}

static int get_stats(struct kattr_taskstats_sock *s, uint16_t attr, pid_t id,
		     struct kattr_taskstats *out)
{
	return -EOPNOTSUPP;
}

int kattr_cgroupstats_get(struct kattr_taskstats_sock *s, int dirfd,
				    struct kattr_cgroupstats *out)
{
	return -EOPNOTSUPP;
}

int kattr_taskexit_parse(const void *buf, size_t len, kattr_taskexit_cb cb,
			 void *data)
{
	return -EOPNOTSUPP;
}

int kattr_taskexit_open_at(const struct kattr_root *root, int rcvbuf,
			   struct kattr_taskexit_sock **out)
{
	return -EOPNOTSUPP;
}

int kattr_taskexit_open(int rcvbuf, struct kattr_taskexit_sock **out)
{
	return -EOPNOTSUPP;
}

void kattr_taskexit_close(struct kattr_taskexit_sock *s)
{
}

int kattr_taskexit_fd(const struct kattr_taskexit_sock *s)
{
	return -EOPNOTSUPP;
}

int kattr_taskexit_recv(struct kattr_taskexit_sock *s, unsigned max,
				  kattr_taskexit_cb cb, void *data)
{
	return -EOPNOTSUPP;
}

#endif

int kattr_taskstats_get_pid(struct kattr_taskstats_sock *s, pid_t pid,
				      struct kattr_taskstats *out)
{
	return get_stats(s, TASKSTATS_CMD_ATTR_PID, pid, out);
}

int kattr_taskstats_get_tgid(struct kattr_taskstats_sock *s, pid_t tgid,
				       struct kattr_taskstats *out)
{
	return get_stats(s, TASKSTATS_CMD_ATTR_TGID, tgid, out);
}
