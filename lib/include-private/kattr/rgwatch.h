/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A group watched over time (rgctl top): the figures a live view shows,
 * read again and again from files kept open (pread(2), no open, walk or
 * allocation per read), whichever backend and version they come from.
 * cgroup v1's controllers on separate hierarchies are joined by the
 * group's path; RGCS gives members and shares only.
 *
 * Same rules as kattr.h: no printing, no exit, 0 or -errno.
 */
#ifndef KATTR_RGWATCH_H
#define KATTR_RGWATCH_H

/* Inside lib/, only a layer that uses rg/ includes this: a call up the
 * layers fails to compile (lib/CMakeLists.txt sets KATTR_USES_*). */
#if defined(KATTR_BUILDING_LIB) && !defined(KATTR_USES_RG)
#error "lib/: this layer does not use rg/ (a layer uses only the layers below it: lib/README)"
#endif

#include <limits.h>
#include <stdbool.h>

#include "kattr/rg.h"
#include "kattr/rgtool.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The figures, by index into a reading. */
enum kattr_rg_wfig {
	KATTR_RG_W_TASKS,	/* processes: cgroup.procs; RGCS members */
	KATTR_RG_W_CPU_USEC,	/* CPU time used, subgroups included (counter) */
	KATTR_RG_W_THROTTLED_USEC, /* time throttled by cpu.max (counter) */
	KATTR_RG_W_MEM_CURRENT,	/* bytes */
	KATTR_RG_W_OOM_KILL,	/* memory.events oom_kill (counter) */
	KATTR_RG_W_IO_RBYTES,	/* bytes read, all devices (counter) */
	KATTR_RG_W_IO_WBYTES,	/* bytes written, all devices (counter) */
	KATTR_RG_W_PIDS_CURRENT,
	KATTR_RG_W_PIDS_EV_MAX,	/* pids.events max: forks refused (counter) */
	KATTR_RG_W_PSI_CPU,	/* PSI some avg10, hundredths of a percent */
	KATTR_RG_W_PSI_MEM,
	KATTR_RG_W_PSI_IO,
	/* settings: read with KATTR_RG_WATCH_SETTINGS only */
	KATTR_RG_W_CPU_WEIGHT,	/* cgroup v2's scale (v1 cpu.shares 1024 = 100;
				 * RGCS: res=cpu min_shares) */
	KATTR_RG_W_MEM_HIGH,	/* bytes, or KATTR_RG_W_UNLIMITED */
	KATTR_RG_W_MEM_MAX,
	KATTR_RG_W_PIDS_MAX,
	KATTR_RG_W_NR
};
#define KATTR_RG_W_FIRST_SETTING KATTR_RG_W_CPU_WEIGHT
#define KATTR_RG_W_NA		(-1LL)		/* no such figure here */
#define KATTR_RG_W_UNLIMITED	LLONG_MAX	/* "max" */

/* kattr_rg_watch_read() flags */
enum {
	KATTR_RG_WATCH_SETTINGS = 1u << 0,
	/* read the CPU time first; when it has not moved since v's reading
	 * (or v has none yet), no task ran in the group or below: nothing
	 * else is read (with KATTR_RG_WATCH_SETTINGS: the settings, tasks,
	 * pids.current, memory.current, oom_kill, pids.events max and PSI).  1,000 idle groups cost
	 * 1,000 reads, not 9,000; figures never read stay as v has them. */
	KATTR_RG_WATCH_IDLE = 1u << 1,
};

struct kattr_rg_watch;
/*
 * Watch group (rg stays open meanwhile): each file of its figures is
 * opened at its first read and kept open (those the backend and kernel
 * lack read KATTR_RG_W_NA).  -ENOENT: no such group.
 */
int kattr_rg_watch_open(struct kattr_rg *rg, const char *group,
				  struct kattr_rg_watch **out);
/*
 * Read every figure into v (the settings too with KATTR_RG_WATCH_SETTINGS,
 * else v's settings are left as they are; fewer with KATTR_RG_WATCH_IDLE).
 * -ENOENT once the group is gone (removed while watched); v is then
 * unchanged.
 */
int kattr_rg_watch_read(struct kattr_rg_watch *w, unsigned int flags,
				  long long v[KATTR_RG_W_NR]);
void kattr_rg_watch_close(struct kattr_rg_watch *w);
/* A figure's name: "tasks", "cpu.usage_usec", "memory.max" (NULL: no such). */
const char *kattr_rg_wfig_name(enum kattr_rg_wfig f);
/*
 * Parse a file's text as kattr_rg_watch_read() does (fuzzed): the figures
 * of file (its name: "cpu.stat", "io.stat", "memory.pressure", ...) on
 * backend b into v (those it does not hold are left as they are).
 * -EINVAL: a file the watch does not read.
 */
int kattr_rg_watch_parse(enum kattr_rg_backend b, const char *file,
				   const char *text, long long v[KATTR_RG_W_NR]);

#ifdef __cplusplus
}
#endif

#endif /* KATTR_RGWATCH_H */
