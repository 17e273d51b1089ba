/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libkattr, the suite's tools only (lib/proc/): a process as the
 * classifier's rules see it, read from /proc beneath the sysroot, and a
 * pid as the user typed it.  Not installed, not exported.
 */
#ifndef KATTR_RGPROC_H
#define KATTR_RGPROC_H

/* Inside lib/, only a layer that uses proc/ includes this: a call up the
 * layers fails to compile (lib/CMakeLists.txt sets KATTR_USES_*). */
#if defined(KATTR_BUILDING_LIB) && !defined(KATTR_USES_PROC)
#error "lib/: this layer does not use proc/ (a layer uses only the layers below it: lib/README)"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "kattr/kattr.h"

#ifdef __cplusplus
extern "C" {
#endif

#define KATTR_PROC_MAX_GROUPS 256

/* What rules look at in a process. */
struct kattr_proc {
	pid_t pid;
	char comm[17];
	char exe[4096];		/* "" when unknown (kernel thread, gone) */
	uint32_t uid, gid;	/* effective ids */
	uint32_t groups[KATTR_PROC_MAX_GROUPS];
	size_t ngroups;
	pid_t ppid;
	uint64_t starttime;	/* clock ticks after boot (stat field 22) */
	bool kthread;		/* a kernel thread: never moved */
};

/* What kattr_proc_read() reads beyond /proc/PID/stat. */
enum kattr_proc_what {
	KATTR_PROC_IDS = 1u << 0,	/* status: uid, gid, groups */
	KATTR_PROC_EXE = 1u << 1,	/* the exe link */
	KATTR_PROC_ALL = KATTR_PROC_IDS | KATTR_PROC_EXE,
};
/*
 * Read process pid from <sysroot>/proc: stat always (comm, ppid, kernel
 * thread), and what asks for more.  -ESRCH when it is gone.
 */
int kattr_proc_read(pid_t pid, unsigned int what,
				struct kattr_proc *p);
/* The same beneath root (NULL: the default root). */
int kattr_proc_read_at(const struct kattr_root *root, pid_t pid,
		       unsigned int what, struct kattr_proc *p);
/*
 * A pid as the user typed it: plain decimal digits, no sign, no spaces, no
 * leading zero (RGCS would read "010" as octal 8, "0x10" as 16), > 0 and
 * within pid_t.  -EINVAL (malformed or 0) or -ERANGE (too large).
 */
int kattr_rg_parse_pid(const char *s, pid_t *out);

#ifdef __cplusplus
}
#endif

#endif /* KATTR_RGPROC_H */
