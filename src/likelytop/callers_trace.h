/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * likelytop --callers: likelytop's own tracefs instance,
 * instances/likelytop-PID, flock()ed on its directory while it lives:
 * one event enabled there, its records streamed from the per-CPU
 * trace_pipe_raw files, and the instance removed at the end.  Instances
 * of runs that were killed (the name's pid gone, or the lock free) are
 * removed by the next run.  Nothing outside the instance is written but
 * kprobe_events, where a function has no tracepoint (callers_kprobe.h);
 * the in-kernel histogram's triggers are the instance's (callers_hist.h).
 */
#ifndef LIKELYTOP_CALLERS_TRACE_H
#define LIKELYTOP_CALLERS_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "callers_rb.h"

#define LT_TRACEFS "/sys/kernel/tracing"
#define LT_INSTANCE_PREFIX "likelytop-"

struct kattr_mount;

struct lt_trace {
	struct kattr_mount *m;
	char inst[64];		/* "instances/likelytop-PID" ("": none) */
	int lockfd;
	int *cpufd;
	int ncpu;
	unsigned char *page;
	size_t pagesize;
	char event[128];	/* "events/SYS/NAME" */
	unsigned int id;
	struct lt_rb_field call_site, arg;
	bool enabled, private_mount;
	unsigned int stale_removed;	/* instances of killed runs */
	unsigned int stale_probes;	/* kprobe events of killed runs */
	char ksys[32], kevent[64];	/* our kprobe event ("": none) */
	char kdef[256];			/* its line in kprobe_events */
	char hist_calls[256];		/* our hist triggers ("": none) */
	char hist_wrong[1024];
};

/*
 * Open tracefs (mounted in a private mount namespace of this process if
 * /sys/kernel/tracing is an empty mount point: the host's mount table
 * stays as it is), remove the instances killed runs left, create ours.
 * 0 or -errno, with why saying what failed.
 */
int lt_trace_open(struct lt_trace *t, char *why, size_t whysize);
/* sys:name's format only (for the in-kernel histogram): 0 or -errno. */
int lt_trace_format(struct lt_trace *t, const char *sys, const char *name,
		    const char *arg, char *why, size_t whysize);
/*
 * Prepare sys:name for streaming (its format: the id, call_site and the field arg, or
 * none) and the per-CPU readers.  0 or -errno with why.
 */
int lt_trace_prepare(struct lt_trace *t, const char *sys, const char *name,
		     const char *arg, char *why, size_t whysize);
int lt_trace_enable(struct lt_trace *t, bool on);
/* Read every record there is now, each to fn. */
int lt_trace_drain(struct lt_trace *t, lt_rb_record_fn fn, void *arg);
/* Events the instance lost (overrun and dropped, every CPU). */
uint64_t lt_trace_lost(struct lt_trace *t);
/* Disable, remove the triggers, close, remove the instance and then the
 * kprobe event (also after a failed open). */
void lt_trace_close(struct lt_trace *t);

#endif
