/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libkattr proc/, private: the /proc readers' parsers and the pid helpers.
 *
 * Not installed, not exported (lib/libkattr.map lists what is); one
 * private header per layer of lib/ (lib/README): a layer's files include
 * its own and, through it, only the layers below, so a call up a layer
 * fails to compile.  Same rules as the public headers: no printing, no
 * exit, -errno.
 */
#ifndef KATTR_PRIVATE_PROC_H
#define KATTR_PRIVATE_PROC_H

/* Inside lib/, only a layer that uses proc/ includes this: a call up the
 * layers fails to compile (lib/CMakeLists.txt sets KATTR_USES_*). */
#if defined(KATTR_BUILDING_LIB) && !defined(KATTR_USES_PROC)
#error "lib/: this layer does not use proc/ (a layer uses only the layers below it: lib/README)"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "kattr/private_core.h"
#include "kattr/proc.h"
#include "kattr/rgproc.h"

/* ---- proc (kattr/rgproc.h): /proc/PID/stat and status --------------- */

/*
 * Fill p from the text of /proc/PID/status (Name, PPid, Uid, Gid,
 * Groups lines).  -EINVAL when a needed line is missing or malformed.
 */
int kattr_proc_parse_status(const char *text, struct kattr_proc *p);
/*
 * Fill comm, ppid, starttime and kthread from the text of /proc/PID/stat (comm may
 * hold spaces and parentheses).  -EINVAL when malformed.
 */
int kattr_proc_parse_stat(const char *text, struct kattr_proc *p);


/* ---- proc: /proc/PID/cgroup (cgroup.c) ----------------------------- */

/*
 * Find a task's group in /proc/PID/cgroup text.  ctrls: NULL for cgroup
 * v2 (the "0::" line), else the v1 hierarchy's comma-separated controller
 * list as mountinfo's super options name them (the line must name the same
 * set).  *path is malloc'ed, absolute within the hierarchy ("/db").
 */
int kattr_rg_parse_proc_cgroup(const char *text, const char *ctrls,
			       char **path);

/* ---- proc: pids (pids.c) ------------------------------------------- */

struct kattr_pid_vec {
	pid_t *v;
	size_t n, cap;
};
/* Append id to the struct kattr_pid_vec data (a kattr_proc_foreach cb). */
int kattr_pid_vec_add(pid_t id, void *data);
/* The thread ids of process pid, from /proc/PID/task beneath root (NULL:
 * the default root); -ESRCH: none. */
int kattr_proc_tids(const struct kattr_root *root, pid_t pid, pid_t **tids,
		    size_t *n);
/* kattr_proc_foreach() beneath root (NULL: the default root). */
int kattr_proc_foreach_at(const struct kattr_root *root, pid_t pid,
			  int (*cb)(pid_t id, void *data), void *data);
bool kattr_pid_in(const pid_t *v, size_t n, pid_t p);

#endif /* KATTR_PRIVATE_PROC_H */
