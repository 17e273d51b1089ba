/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Resource groups on three backends: the 2006 RGCS configfs interface
 * (res_groups), the cgroup v1 cpu hierarchy and cgroup v2.  One handle
 * (struct kattr_rg) per opened hierarchy; every operation goes through the
 * backend's operations table (struct rg_ops, one file per backend in
 * lib/rg/).  Same rules as kattr.h: no printing, no exit, 0 or -errno.
 *
 * Group names are relative to the hierarchy root ("db", "db/batch"); the
 * single name "/" (or "") is the root group itself.
 *
 * Errors with a meaning of their own here:
 *   -EMEDIUMTYPE  the root is not an RGCS, cgroup v1 or cgroup v2 mount
 *   -EMLINK       an RGCS group would nest deeper than KATTR_RG_RGCS_DEPTH
 *   -EOPNOTSUPP   no shares on this hierarchy (cgroup v2 without cpu)
 *   -EPERM        the root group cannot be deleted
 *   -ENOSPC       an RGCS members list is longer than one page
 *   -ERANGE       a shares value is outside the backend's range
 *   -EBADMSG      a group's file (tasks, shares) or /proc/PID/cgroup holds
 *                 text that is not what the kernel writes there
 */
#ifndef KATTR_RG_H
#define KATTR_RG_H

/* Inside lib/, only a layer that uses rg/ includes this: a call up the
 * layers fails to compile (lib/CMakeLists.txt sets KATTR_USES_*). */
#if defined(KATTR_BUILDING_LIB) && !defined(KATTR_USES_RG)
#error "lib/: this layer does not use rg/ (a layer uses only the layers below it: lib/README)"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "kattr/kattr.h"
#include "kattr/proc.h"

#ifdef __cplusplus
extern "C" {
#endif

enum kattr_rg_backend {
	KATTR_RG_AUTO = 0,	/* detect (kattr_rg_open only) */
	KATTR_RG_RGCS,
	KATTR_RG_CGROUP1,
	KATTR_RG_CGROUP2,
};

/* RGCS: groups nest at most this many levels below res_groups. */
#define KATTR_RG_RGCS_DEPTH	5
/* RGCS shares constants (rgcs-abi.md). */
#define KATTR_RG_UNCHANGED	(-1)
#define KATTR_RG_UNSUPPORTED	(-2)
#define KATTR_RG_DONT_CARE	(-3)
/* Native share ranges of the cgroup backends. */
#define KATTR_RG_CG1_SHARES_MIN	2
#define KATTR_RG_CG1_SHARES_MAX	262144
#define KATTR_RG_CG2_WEIGHT_MIN	1
#define KATTR_RG_CG2_WEIGHT_MAX	10000

struct kattr_rg;

/* "rgcs", "cgroup1", "cgroup2" ("auto" for KATTR_RG_AUTO). */
KATTR_API const char *kattr_rg_backend_name(enum kattr_rg_backend b);

/*
 * Open a hierarchy.  root == NULL: find it in the mount table (RGCS:
 * configfs with res_groups, or a fuse.rgcsfs mount with res_groups; cgroup
 * v2; cgroup v1 with the cpu controller).  With KATTR_RG_AUTO and no root
 * the order is RGCS, cgroup v2 with cpu enabled, cgroup v1 cpu, and last
 * cgroup v2 without cpu.  A given root is checked: its filesystem must
 * match the backend (or, with KATTR_RG_AUTO, decides it): -EMEDIUMTYPE
 * otherwise.  For RGCS the root is the res_groups directory (or a mount
 * holding it).  -ENOENT when no hierarchy of the kind is mounted.
 */
KATTR_API int kattr_rg_open(enum kattr_rg_backend b, const char *root,
			    struct kattr_rg **out);
KATTR_API void kattr_rg_close(struct kattr_rg *rg);
KATTR_API enum kattr_rg_backend kattr_rg_backend_of(const struct kattr_rg *rg);
/* The root directory (as the caller sees it, without the sysroot). */
KATTR_API const char *kattr_rg_root(const struct kattr_rg *rg);
/* The underlying mount handle (owned by rg). */
KATTR_API struct kattr_mount *kattr_rg_mount(const struct kattr_rg *rg);
/*
 * Whether groups carry shares here (false: cgroup v2 where the cpu
 * controller is not available at the root, i.e. not in its
 * cgroup.controllers).  On cgroup v2 a group has cpu.weight only where cpu
 * is enabled in the cgroup.subtree_control of every group above it.
 */
KATTR_API bool kattr_rg_has_shares(const struct kattr_rg *rg);

/* ---- pure helpers (no I/O): unit-tested, fuzzed ------------------------ */

/*
 * Check a group name before it touches any tree: kattr_name_check() plus
 * "/" and "" for the root group (allowed only when allow_root).  -EINVAL
 * with why (may be NULL) saying how.
 */
KATTR_API int kattr_rg_name_check(const char *group, bool allow_root,
				  struct kattr_why *why);
/* True for "/" and "": the root group. */
KATTR_API bool kattr_rg_name_is_root(const char *group);

/*
 * Validate a shares VALUE for backend b and format what is written, in
 * one write, into buf.  cgroup1: decimal 2..262144; cgroup2: decimal
 * 1..10000; RGCS: comma-separated min_shares=, max_shares=,
 * child_shares_divisor= (and optionally res=, which must then equal res if
 * res is given) with integers -3, -2, -1 or >= 0; res (NULL: "cpu") names
 * the controller and "res=<res>" always leads the output.  -EINVAL
 * (malformed), -ERANGE (out of range), -ENAMETOOLONG (buf too small);
 * why (may be NULL) says how.
 */
KATTR_API int kattr_rg_share_format(enum kattr_rg_backend b,
				    const char *value, const char *res,
				    char *buf, size_t size,
				    struct kattr_why *why);

/* One controller's shares. */
struct kattr_rg_share {
	char res[32];		/* "cpu", "numtasks" */
	long long value;	/* cgroups: cpu.shares / cpu.weight */
	long long min_shares;	/* RGCS only */
	long long max_shares;
	long long child_shares_divisor;
};

/*
 * The one share formatter and its parser.  Which RGCS keys a value sets
 * (kattr_rg_share_parse()) or a text shows (kattr_rg_share_text()), and
 * KATTR_RG_SHARE_SHORT for the short form tables use.
 */
enum kattr_rg_share_keys {
	KATTR_RG_SHARE_MIN = 1u << 0,
	KATTR_RG_SHARE_MAX = 1u << 1,
	KATTR_RG_SHARE_DIVISOR = 1u << 2,
	KATTR_RG_SHARE_ALL = 7u,
	KATTR_RG_SHARE_SHORT = 1u << 3,
};
/*
 * Validate a shares VALUE for backend b as kattr_rg_share_format() does,
 * into *out (res resolved: "cpu" by default), and *keys (may be NULL) the
 * RGCS keys it sets (0 on cgroups).  -EINVAL, -ERANGE with why (may be
 * NULL) saying how.
 */
KATTR_API int kattr_rg_share_parse(enum kattr_rg_backend b, const char *value,
				   const char *res, struct kattr_rg_share *out,
				   unsigned int *keys, struct kattr_why *why);
/*
 * One share as text into buf: cgroups "1024"; RGCS as the backend takes
 * it back, "res=cpu" and each key in keys ("res=cpu,min_shares=0,..."),
 * or with KATTR_RG_SHARE_SHORT "cpu:0/-2/100".  0 or -ENAMETOOLONG.
 */
KATTR_API int kattr_rg_share_text(enum kattr_rg_backend b,
				  const struct kattr_rg_share *s,
				  unsigned int keys, char *buf, size_t size);

/* The unit of a statistic's value. */
enum kattr_rg_unit {
	KATTR_RG_UNIT_NONE,	/* a file's line as it is (RGCS's stats) */
	KATTR_RG_UNIT_COUNT,	/* tasks, events, I/O operations */
	KATTR_RG_UNIT_USEC,	/* microseconds (CPU time, stall time) */
	KATTR_RG_UNIT_BYTES,
	KATTR_RG_UNIT_CENTIPCT,	/* hundredths of a percent (PSI averages) */
};

/*
 * One statistic.  On cgroups, a figure named as cgroup v2 names it,
 * whatever file it came from: res "cpu" key "usage_usec" (v1:
 * cpuacct.usage), res "memory" key "current", "peak", "events.oom_kill",
 * res "io" key "rbytes" with dev "8:0", res "pids" key "current", and the
 * PSI figures "pressure.some.avg10", "pressure.full.total_usec" of cpu,
 * memory and io.  A resource of which the group has no file at all is one
 * entry with absent set and key saying why.
 */
struct kattr_rg_stat {
	char *res;		/* "cpu", "memory", "io", "pids", "numtasks" */
	char *key;		/* "usage_usec", "Current usage", ... */
	long long value;
	bool has_value;		/* false: text only (key holds the line), or
				 * (unit set) a figure this kernel lacks */
	/* The figures (zero and NULL in RGCS's lines): */
	enum kattr_rg_unit unit;
	bool counter;		/* only grows: a rate between reads means something */
	bool absent;		/* res has no file in the group: key says why */
	char *dev;		/* io: "MAJ:MIN"; NULL otherwise */
	char *file;		/* the file it was read from ("cpuacct.usage") */
};
KATTR_API void kattr_rg_stats_free(struct kattr_rg_stat *v, size_t n);
/* ---- operations --------------------------------------------------------- */

enum kattr_rg_flags {
	KATTR_RG_PARENTS = 1u << 0,	/* create: make missing parents */
	KATTR_RG_RECURSIVE = 1u << 1,	/* delete: child groups too */
	KATTR_RG_THREADS = 1u << 2,	/* attach/members: whole processes
					 * (attach) / threads (members) */
	KATTR_RG_ENABLE = 1u << 3,	/* create, the suite's tools: cgroup v2,
					 * enable cpu along the path */
	KATTR_RG_CHECK = 1u << 4,	/* create: only check, touch nothing */
};

/*
 * An attach target: a group opened once (its tasks, cgroup.procs or
 * members file, as kattr_rg_attach() picks by flags), tasks moved into it
 * one write(2) each, then closed.  The group is checked once, at open.
 */
struct kattr_rg_target;
KATTR_API int kattr_rg_target_open(struct kattr_rg *rg, const char *group,
				   unsigned int flags,
				   struct kattr_rg_target **out);
/* Move pid (0 or -errno: -ESRCH, -EPERM, -EINVAL for pid <= 0, ...). */
KATTR_API int kattr_rg_target_attach(struct kattr_rg_target *t, pid_t pid);
KATTR_API void kattr_rg_target_close(struct kattr_rg_target *t);

/*
 * The directory of group, opened with flags (O_DIRECTORY added), resolved
 * beneath the hierarchy's root: for cgroupstats, flock(2), fstat(2),
 * xattrs.  group may be a name read from the tree (any byte but '/').
 * fd or -errno.
 */
KATTR_API int kattr_rg_group_open(struct kattr_rg *rg, const char *group,
				  int flags);

/* Whether the group exists (0), -ENOENT, -ENOTDIR, -ELOOP, ... */
KATTR_API int kattr_rg_exists(struct kattr_rg *rg, const char *group);
/*
 * Why kattr_rg_create() refused, in struct kattr_why's code: which check,
 * its words after "cannot create 'G': " in the text.
 */
enum kattr_rg_why {
	KATTR_RG_WHY_NONE = 0,	/* no words: the -errno tells */
	KATTR_RG_WHY_ROOT,	/* the root group (always exists, never deleted) */
	KATTR_RG_WHY_NAME,	/* the group name is invalid */
	KATTR_RG_WHY_RES,	/* a controller (res) given outside RGCS */
	KATTR_RG_WHY_SHARES,	/* the shares value is invalid */
	KATTR_RG_WHY_DEPTH,	/* RGCS: deeper than KATTR_RG_RGCS_DEPTH */
	KATTR_RG_WHY_NO_SHARES,	/* no shares file where they would be set */
	KATTR_RG_WHY_PARENT,	/* a parent group is missing */
	KATTR_RG_WHY_EXISTS,	/* the group exists already */
	KATTR_RG_WHY_ATTR,	/* an attribute file has the group's name */
	KATTR_RG_WHY_ATTR_ABOVE, /* a component of the name is an attribute file */
	KATTR_RG_WHY_HOOK,	/* the suite's creation hook refused the new group */
	KATTR_RG_WHY_HIER,	/* cgroup v1: another hierarchy refused the group */
};

/* The suite's tools' record of where cpu was enabled (private). */
struct kattr_rg_cpu_path;

/* What kattr_rg_create() makes; { 0 } (or args NULL): a plain group. */
struct kattr_rg_create_args {
	unsigned int flags;	/* KATTR_RG_PARENTS, KATTR_RG_CHECK,
				 * KATTR_RG_ENABLE */
	const char *shares;	/* validated first, written last; NULL: none */
	const char *res;	/* RGCS controller, as for
				 * kattr_rg_share_format(); NULL: "cpu" */
	struct kattr_rg_cpu_path *enabled; /* KATTR_RG_ENABLE: the suite's
				 * tools' record (required); else NULL */
};

/*
 * Create group, the one call.  With KATTR_RG_PARENTS missing parents are
 * made and an existing group is not an error.  shares (may be NULL) is
 * validated before anything is made and written afterwards; if that
 * write fails, every directory made is removed again.  With KATTR_RG_CHECK
 * only what is checked before the tree is touched: the name (ROOT, NAME:
 * -EINVAL), res only on RGCS (RES: -EINVAL), the shares value (SHARES:
 * -EINVAL, -ERANGE) and the RGCS depth (DEPTH: -EMLINK), in that order.
 * Creating also fails with -EOPNOTSUPP (NO_SHARES: shares given where the
 * group has none), -ENXIO (PARENT: a parent is missing, without
 * KATTR_RG_PARENTS), -EEXIST (EXISTS: the group exists, without
 * KATTR_RG_PARENTS; ATTR: an attribute file has its name), -ENOTDIR
 * (ATTR_ABOVE), and on cgroup v1 HIER when another hierarchy refused it.
 * why (may be NULL) gets the code (KATTR_RG_WHY_*) and the words;
 * KATTR_RG_WHY_NONE for other errors.  KATTR_RG_ENABLE (cgroup v2, with
 * shares): enable cpu along the path first, recorded in args->enabled
 * and undone on failure.
 */
KATTR_API int kattr_rg_create(struct kattr_rg *rg, const char *group,
			      const struct kattr_rg_create_args *args,
			      struct kattr_why *why);
/*
 * Delete group after moving its members to the parent (RGCS does that
 * itself).  KATTR_RG_RECURSIVE: child groups first, deepest first.
 * -EPERM for the root group, -ENOTEMPTY when it has child groups and no
 * KATTR_RG_RECURSIVE.
 */
KATTR_API int kattr_rg_delete(struct kattr_rg *rg, const char *group,
			      unsigned int flags);

/* Shares of group (an array: RGCS has one entry per controller). */
KATTR_API int kattr_rg_share_get(struct kattr_rg *rg, const char *group,
				  struct kattr_rg_share **out, size_t *n);
/* Validate (kattr_rg_share_format) and write in one write(2). */
KATTR_API int kattr_rg_share_set(struct kattr_rg *rg, const char *group,
				 const char *value, const char *res,
				 struct kattr_why *why);

/*
 * Move tasks into group.  Each pid is written in its own write(2);
 * results[i] gets 0 or -errno for pids[i] (ESRCH: no such process, EPERM:
 * not allowed).  Without KATTR_RG_THREADS the task itself moves (RGCS and
 * cgroup v1: that thread; cgroup v2: its process, as v2 moves processes);
 * with it every thread of the process moves (cgroup.procs; where only a
 * per-thread file exists, RGCS or v1 without cgroup.procs, each thread of
 * /proc/PID/task in turn: threads that end meanwhile are skipped, and
 * -EAGAIN when new ones keep appearing after 16 passes).  Returns the
 * number of failures, or -errno when the group itself cannot be used.
 */
KATTR_API int kattr_rg_attach(struct kattr_rg *rg, const char *group,
			      const pid_t *pids, size_t n, unsigned int flags,
			      int *results);

/*
 * Tasks in group: thread ids (RGCS members, v1 tasks, v2 cgroup.threads)
 * or, with KATTR_RG_THREADS unset on cgroups, process ids (cgroup.procs).
 * RGCS always lists tasks.  -ENOSPC when the RGCS list exceeds one page
 * and /proc/PID/res_group cannot be used instead.
 */
KATTR_API int kattr_rg_members(struct kattr_rg *rg, const char *group,
			       unsigned int flags, pid_t **pids, size_t *n);

/*
 * Statistics of group (see kattr_rg_stat): RGCS's stats file; on cgroups
 * the figures of cpu, memory, io and pids, each read from its
 * controller's own hierarchy (cgroup v1), in that order.  Files missing
 * for a resource are not an error; the resource is then one absent entry.
 */
KATTR_API int kattr_rg_stats(struct kattr_rg *rg, const char *group,
			     struct kattr_rg_stat **v, size_t *n);

/*
 * The group of task pid, as a name relative to the root ("/" for the root
 * group), malloc'ed.  -ESRCH when no such task; -ENOENT when it is not in
 * this hierarchy.
 */
KATTR_API int kattr_rg_whereis(struct kattr_rg *rg, pid_t pid, char **group);

/*
 * cgroup v1, where a group is one directory in each hierarchy of cpu,
 * cpuacct, memory, pids and blkio (and cpuset where made): the
 * hierarchies where group has no directory, named by their controllers
 * into buf ("memory, pids"; cut to size).
 * Their number (0 on the other backends), or -errno (-ENOENT: no group).
 */
KATTR_API int kattr_rg_missing(struct kattr_rg *rg, const char *group,
			       char *buf, size_t size);

/* One group of a listing. */
struct kattr_rg_info {
	char *name;		/* "/" for the root, else "db/batch" */
	unsigned int depth;	/* components below the root (root: 0) */
	long long nr_tasks;	/* -1: unknown (RGCS list over one page) */
	struct kattr_rg_share *shares;
	size_t nr_shares;
};
/* group and every group below it, parents before children, sorted. */
KATTR_API int kattr_rg_list(struct kattr_rg *rg, const char *group,
			    struct kattr_rg_info **out, size_t *n);
KATTR_API void kattr_rg_list_free(struct kattr_rg_info *v, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* KATTR_RG_H */
