/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libkattr: the proc connector (process events) over netlink, with libmnl.
 *
 * Decoding is a pure function over a received buffer (every event arrives
 * as an NLMSG_DONE message, so the walk does not stop at NLMSG_DONE).
 * The connector numbers events per CPU (cn_msg.seq); kattr_procev_seq
 * detects the gaps that mean events were lost.  A socket that overflows
 * fails recv(2) with ENOBUFS: the events are gone, the caller must grow
 * the buffer (kattr_procev_grow()) and rescan /proc.
 *
 * Only built with WITH_LIBMNL; without it every function returns
 * -EOPNOTSUPP.
 */
#ifndef KATTR_PROCEV_H
#define KATTR_PROCEV_H

/* Inside lib/, only a layer that uses chan/ includes this: a call up the
 * layers fails to compile (lib/CMakeLists.txt sets KATTR_USES_*). */
#if defined(KATTR_BUILDING_LIB) && !defined(KATTR_USES_CHAN)
#error "lib/: this layer does not use chan/ (a layer uses only the layers below it: lib/README)"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "kattr/kattr.h"

#ifdef __cplusplus
extern "C" {
#endif

enum kattr_procev_type {
	KATTR_PROCEV_NONE = 0,	/* the subscription acknowledgement */
	KATTR_PROCEV_FORK,
	KATTR_PROCEV_EXEC,
	KATTR_PROCEV_UID,
	KATTR_PROCEV_GID,
	KATTR_PROCEV_SID,
	KATTR_PROCEV_PTRACE,
	KATTR_PROCEV_COMM,
	KATTR_PROCEV_COREDUMP,
	KATTR_PROCEV_EXIT,
	KATTR_PROCEV_OTHER,	/* an event this library does not know */
};

/*
 * One decoded event.  pid/tgid are the subject (for FORK: the child;
 * a new thread has pid != tgid).  The kernel's names are inverted
 * (its "pid" is the thread id): here pid is the thread id and tgid the
 * process id, as in cn_proc.h.
 */
struct kattr_procev {
	enum kattr_procev_type type;
	uint32_t cpu;
	uint32_t seq;		/* cn_msg.seq: per-CPU sequence number */
	uint64_t timestamp_ns;	/* CLOCK_MONOTONIC (since boot) */
	pid_t pid, tgid;
	pid_t parent_pid, parent_tgid;	/* FORK, EXIT, COREDUMP */
	uint32_t rid, eid;	/* UID/GID: real and effective id */
	uint32_t exit_code, exit_signal;	/* EXIT */
	uint32_t ack_err;	/* NONE: the errno of the subscription */
	char comm[17];		/* COMM, NUL-terminated */
};

/* Called per event; return 0 to go on, < 0 to stop (returned as is). */
typedef int (*kattr_procev_cb)(const struct kattr_procev *ev, void *data);

/* ---- the socket ------------------------------------------------------ */

struct kattr_procev_sock;

/*
 * Open a NETLINK_CONNECTOR socket, bind it to CN_IDX_PROC, set its
 * receive buffer to rcvbuf bytes (0: leave the default; SO_RCVBUFFORCE
 * when permitted, else SO_RCVBUF), make it non-blocking and subscribe
 * (PROC_CN_MCAST_LISTEN).  -EPERM without the right to listen.
 */
KATTR_API int kattr_procev_open(int rcvbuf, struct kattr_procev_sock **out);
/* Unsubscribe (PROC_CN_MCAST_IGNORE) and close. NULL is allowed. */
KATTR_API void kattr_procev_close(struct kattr_procev_sock *s);
/* The descriptor to poll for input. */
KATTR_API int kattr_procev_fd(const struct kattr_procev_sock *s);
/* The receive buffer size the kernel reports (SO_RCVBUF), or -errno. */
KATTR_API int kattr_procev_rcvbuf(const struct kattr_procev_sock *s);
/* Double the receive buffer up to max bytes; -ENOSPC when already there. */
KATTR_API int kattr_procev_grow(struct kattr_procev_sock *s, int max);

/*
 * Receive and decode what is queued, at most max_batches datagrams
 * (0: until the socket is empty).  Returns the number of events passed
 * to cb, -ENOBUFS when the socket overflowed (events were lost), or
 * another -errno.  A sequence gap or an overflow sets the "lost" mark
 * read by kattr_procev_take_lost().
 */
KATTR_API int kattr_procev_recv(struct kattr_procev_sock *s, unsigned max_batches,
				kattr_procev_cb cb, void *data);
/* Events lost since the last call (gaps counted, +1 per overflow); clears. */
KATTR_API uint64_t kattr_procev_take_lost(struct kattr_procev_sock *s);

#ifdef __cplusplus
}
#endif

#endif /* KATTR_PROCEV_H */
