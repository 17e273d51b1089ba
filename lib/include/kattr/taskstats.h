/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libkattr: per-task statistics (taskstats) and cgroup v1 task-state
 * counts (cgroupstats) over generic netlink, with libmnl.
 *
 * struct taskstats grows between kernel versions: replies are copied
 * min(received, known) bytes, and fields the kernel did not send read 0.
 * Delay fields are only meaningful while delay accounting is on
 * (kattr_delayacct_enabled()).  Querying needs CAP_NET_ADMIN.
 *
 * Only built with WITH_LIBMNL; without it every function returns
 * -EOPNOTSUPP (kattr_delayacct_enabled() works either way).
 */
#ifndef KATTR_TASKSTATS_H
#define KATTR_TASKSTATS_H

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

/* What the suite reads of struct taskstats (times in nanoseconds). */
struct kattr_taskstats {
	uint32_t pid;		/* the pid or tgid asked for */
	uint16_t version;	/* the kernel's TASKSTATS_VERSION */
	size_t received;	/* bytes of struct taskstats the kernel sent */
	char comm[33];
	uint64_t cpu_count, cpu_delay_total;		/* waiting for a CPU */
	uint64_t blkio_count, blkio_delay_total;	/* synchronous block I/O */
	uint64_t swapin_count, swapin_delay_total;	/* swapping in */
	uint64_t freepages_count, freepages_delay_total; /* memory reclaim */
	uint64_t thrashing_count, thrashing_delay_total;
	uint64_t compact_count, compact_delay_total;
	uint64_t cpu_run_real_total;			/* time on CPU */
	uint64_t nvcsw, nivcsw;
};

struct kattr_cgroupstats {
	uint64_t nr_sleeping, nr_running, nr_stopped, nr_uninterruptible,
		nr_io_wait;
};

/*
 * 1 when delay accounting is on, 0 when off (read from
 * <sysroot>/proc/sys/kernel/task_delayacct), -errno when it cannot be
 * told (-ENOENT: a kernel without the switch).
 */
KATTR_API int kattr_delayacct_enabled(void);

struct kattr_taskstats_sock;

/* Open a generic netlink socket and resolve the "TASKSTATS" family. */
KATTR_API int kattr_taskstats_open(struct kattr_taskstats_sock **out);
KATTR_API void kattr_taskstats_close(struct kattr_taskstats_sock *s);
/* Statistics of one thread (pid) or a whole process (tgid). -ESRCH when
 * it does not exist, -EPERM without CAP_NET_ADMIN. */
KATTR_API int kattr_taskstats_get_pid(struct kattr_taskstats_sock *s, pid_t pid,
				      struct kattr_taskstats *out);
KATTR_API int kattr_taskstats_get_tgid(struct kattr_taskstats_sock *s, pid_t tgid,
				       struct kattr_taskstats *out);
/*
 * Task-state counts of the cgroup v1 directory open as dirfd.  The kernel
 * answers -EINVAL for a cgroup v2 directory or a non-cgroup.
 */
KATTR_API int kattr_cgroupstats_get(struct kattr_taskstats_sock *s, int dirfd,
				    struct kattr_cgroupstats *out);

/* ---- exit records ------------------------------------------------------ */

/*
 * What the kernel tells a registered listener about each task as it
 * exits (TASKSTATS_CMD_NEW, sent before the proc connector's exit event
 * of the same task): who it was when /proc no longer knows.
 */
struct kattr_taskexit {
	uint32_t pid;		/* the thread (ac_pid) */
	uint32_t tgid;		/* its process (ac_tgid; 0 before version 12) */
	uint32_t ppid;		/* the parent process (ac_ppid) */
	uint32_t uid, gid;	/* real ids (ac_uid, ac_gid) */
	char comm[33];		/* ac_comm */
	uint64_t btime;		/* start, seconds since 1970 (ac_btime64) */
	uint64_t exe_dev, exe_ino; /* /proc/PID/exe's (version 12+), else 0 */
	uint16_t version;	/* the kernel's TASKSTATS_VERSION */
	bool group_dead;	/* the last task of its process (AGROUP) */
};
typedef int (*kattr_taskexit_cb)(const struct kattr_taskexit *rec, void *data);

struct kattr_taskexit_sock;

/*
 * Register for the exit records of every possible CPU
 * (TASKSTATS_CMD_ATTR_REGISTER_CPUMASK), with a receive buffer of rcvbuf
 * bytes (0: the default).  Needs CAP_NET_ADMIN in the initial
 * namespaces; -EOPNOTSUPP without libmnl.
 */
KATTR_API int kattr_taskexit_open(int rcvbuf, struct kattr_taskexit_sock **out);
KATTR_API void kattr_taskexit_close(struct kattr_taskexit_sock *s);
/* The socket, for poll/epoll (non-blocking). */
KATTR_API int kattr_taskexit_fd(const struct kattr_taskexit_sock *s);
/*
 * Receive what is queued, at most max datagrams (0: no limit), calling cb
 * for each record (each thread's).  Returns the number of records, or
 * -ENOBUFS when the buffer overflowed (records were lost; receiving goes
 * on with the next call), or another -errno (cb's error too).
 */
KATTR_API int kattr_taskexit_recv(struct kattr_taskexit_sock *s, unsigned max,
				  kattr_taskexit_cb cb, void *data);

#ifdef __cplusplus
}
#endif

#endif /* KATTR_TASKSTATS_H */
