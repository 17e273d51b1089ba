/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A group's resources: one table of settings (rgctl's keys: cpu.weight,
 * cpu.max, cpuset.cpus, memory.max, io.max, pids.max, ...), each with its
 * systemd property name, unit, range and default, and for every backend
 * the file(s) it lives in and how its value converts.  Values are parsed
 * and checked without I/O (kattr_rgres_parse()), then read from and
 * written to a group through a handle that knows, per controller, the
 * hierarchy holding it (cgroup v1 mounts each controller on its own
 * hierarchy, or several together; cgroup v2 and RGCS have one).
 *
 * Same rules as kattr.h: no printing, no exit, 0 or -errno.
 */
#ifndef KATTR_RGRES_H
#define KATTR_RGRES_H

/* Inside lib/, only a layer that uses rg/ includes this: a call up the
 * layers fails to compile (lib/CMakeLists.txt sets KATTR_USES_*). */
#if defined(KATTR_BUILDING_LIB) && !defined(KATTR_USES_RG)
#error "lib/: this layer does not use rg/ (a layer uses only the layers below it: lib/README)"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kattr/kattr.h"
#include "kattr/rg.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The kind of value a setting takes. */
enum kattr_rgres_type {
	KATTR_RGRES_WEIGHT,	/* 1..10000, cgroup v2's scale */
	KATTR_RGRES_CPU_MAX,	/* max, N% of one CPU, QUOTA[/PERIOD] */
	KATTR_RGRES_LIST,	/* "0-3,6": CPUs or memory nodes */
	KATTR_RGRES_BYTES,	/* N[KMGT], N% of the machine's memory, max */
	KATTR_RGRES_IO_MAX,	/* DEV rbps= wbps= riops= wiops= */
	KATTR_RGRES_COUNT,	/* a number of tasks, or max */
};

/*
 * Where a setting lives on one backend.  file NULL: the backend has no
 * equivalent, why says so.  cgroup v2: ctrl is the controller enabled in
 * the parents' cgroup.subtree_control; cgroup v1: the controller whose
 * hierarchy holds file; RGCS: ctrl is the res= controller and file2 the
 * shares field (min_shares, max_shares).  file2 is otherwise a second
 * file (v1 cpu.cfs_period_us) or an alternative tried when file is absent
 * (io.bfq.weight).
 */
struct kattr_rgres_file {
	const char *ctrl;
	const char *file;
	const char *file2;
	const char *why;
};

/* One setting. */
struct kattr_rgres {
	const char *key;		/* rgctl's name: "memory.max" */
	const char *alias;		/* systemd's: "MemoryMax" (or NULL) */
	enum kattr_rgres_type type;
	const char *unit;		/* "bytes", "weight", ... */
	const char *range;		/* in words, for tables */
	const char *def;		/* the kernel's default, as rgctl shows it */
	const char *help;		/* one line */
	struct kattr_rgres_file be[KATTR_RG_CGROUP2 + 1];	/* by backend */
};

/* The table, in rgctl's order. */
const struct kattr_rgres *kattr_rgres_table(size_t *n);
/*
 * The setting named name: a key ("memory.max") or a systemd property
 * ("MemoryMax", any case).  *field (may be NULL) gets, for the io.max
 * aliases (IOReadBandwidthMax, ...), which of rbps/wbps/riops/wiops (0..3)
 * the alias sets, else -1.  NULL when unknown.
 */
const struct kattr_rgres *kattr_rgres_find(const char *name,
						     int *field);
/* The key or alias closest to an unknown name, or NULL when none is near. */
const char *kattr_rgres_suggest(const char *name);

/* What values are checked against: the machine (kattr_rgres_limits_read()). */
struct kattr_rgres_limits {
	uint64_t mem_total;	/* bytes (0: unknown; a percent is refused) */
	uint64_t page_size;	/* bytes are rounded down to it (0: 4096) */
	unsigned int nr_cpus;	/* highest possible CPU + 1 (0: unchecked) */
	unsigned int nr_mems;	/* highest possible memory node + 1 */
};
/* MemTotal, the page size, /sys/devices/system/{cpu,node}/possible, read
 * beneath root (NULL: the default root). */
int kattr_rgres_limits_read(const struct kattr_root *root,
			    struct kattr_rgres_limits *l);

#define KATTR_RGRES_MAX		UINT64_MAX	/* "max" */
#define KATTR_RGRES_IO_FIELDS	4		/* rbps wbps riops wiops */
#define KATTR_RGRES_LIST_LEN	512

/* One value of a setting. */
struct kattr_rgres_value {
	const struct kattr_rgres *res;
	bool unset;		/* read: RGCS don't care (-3) or unsupported */
	bool off;		/* with unset, cgroup v2: no file, its controller
				 * is not enabled above the group (the value
				 * comes back with it, goes with it) */
	uint64_t n;		/* weight, bytes, count, or KATTR_RGRES_MAX */
	uint64_t quota;		/* cpu.max: microseconds or KATTR_RGRES_MAX */
	uint64_t period;	/* cpu.max: microseconds */
	char list[KATTR_RGRES_LIST_LEN];	/* canonical "0-3,6" */
	/* io.max: one device, by path (resolved later) or number */
	char dev_path[128];	/* "" once major:minor are known */
	unsigned int major, minor;
	uint64_t io[KATTR_RGRES_IO_FIELDS];	/* KATTR_RGRES_MAX: no limit */
	unsigned int io_set;	/* bit i: io[i] was given */
};

/*
 * Parse VALUE for setting name (a key or an alias, see kattr_rgres_find())
 * into *out, checked against l (may be NULL: no machine-dependent check).
 * -ENOENT: unknown name; -EINVAL: malformed; -ERANGE: out of range; why
 * says which in words.  No I/O.
 */
int kattr_rgres_parse(const char *name, const char *value,
				const struct kattr_rgres_limits *l,
				struct kattr_rgres_value *out,
				struct kattr_why *why);
/* "KEY=VALUE" split and parsed as above. */
int kattr_rgres_parse_assign(const char *text,
				       const struct kattr_rgres_limits *l,
				       struct kattr_rgres_value *out,
				       struct kattr_why *why);
/*
 * v as rgctl shows it (and kattr_rgres_parse() reads back to the same
 * value): "1G", "50%", "20ms/50ms", "0-3", "8:0 rbps=1M wiops=max", "-"
 * for unset.  0 or -ENAMETOOLONG.
 */
int kattr_rgres_text(const struct kattr_rgres_value *v, char *buf,
			       size_t size);
/*
 * Resolve v's device path (io.max) to major:minor: a block device, taken
 * beneath root (NULL: the default root); -ENOTBLK when it is something
 * else.
 */
int kattr_rgres_resolve(const struct kattr_root *root,
			struct kattr_rgres_value *v);

/* ---- a group's resources ------------------------------------------------ */

/*
 * A group opened for its resources: the handle finds, per controller, the
 * hierarchy holding it (cgroup v1: the mount of that controller, at the
 * same place below its root as rg's root is below its own mount).
 */
struct kattr_rgres_group;
int kattr_rgres_open(struct kattr_rg *rg, const char *group,
			       struct kattr_rgres_group **out);
void kattr_rgres_close(struct kattr_rgres_group *g);

/*
 * Where res lives for the group: the file as a path the user can read
 * (into buf).  0; -EOPNOTSUPP: no equivalent on this backend (why);
 * -ENODEV: the controller's hierarchy is not mounted (cgroup v1) or not
 * available at the root (cgroup v2, why); -ENOENT: the group has no
 * directory in that hierarchy; -ENXIO: the group exists but has no such
 * file (cgroup v2: the controller is not enabled above it; io.weight: no
 * weight-aware I/O scheduler).
 */
int kattr_rgres_where(struct kattr_rgres_group *g,
				const struct kattr_rgres *res, char *buf,
				size_t size, struct kattr_why *why);

/*
 * Read res from the kernel's own file(s) into *vals (malloc'ed; io.max:
 * one per device with a limit, possibly none; otherwise one).  Errors as
 * kattr_rgres_where(), -EBADMSG for text the kernel would not write.
 */
int kattr_rgres_get(struct kattr_rgres_group *g,
			      const struct kattr_rgres *res,
			      struct kattr_rgres_value **vals, size_t *n);

/* What kattr_rgres_set() did or failed on. */
struct kattr_rgres_done {
	/* cgroup v2: "+ctrl" written to a group's cgroup.subtree_control */
	struct kattr_rgres_enabled {
		char *group;		/* "/" for the root */
		char ctrl[16];
	} *enabled;
	size_t nr_enabled;
	size_t failed;		/* index of the value that failed */
	char *failed_file;	/* the file that refused (NULL: none) */
	bool rolled_back;	/* false: a rollback write failed too */
};
void kattr_rgres_done_free(struct kattr_rgres_done *d);
/* cgroup v2: 1 when res has no file in g because its controller is not
 * enabled above the group, 0 when not, -errno. */
int kattr_rgres_ctrl_off(struct kattr_rgres_group *g, const struct kattr_rgres *res);

enum kattr_rgres_flags {
	KATTR_RGRES_ENABLE = 1u << 0,	/* cgroup v2: enable controllers */
	KATTR_RGRES_DRY_RUN = 1u << 1,	/* check everything, write nothing */
};
/*
 * Write vals[0..n) in order, each to its file(s) in one write(2) each
 * (io.max devices resolved first).  Before anything is written every
 * value's file must exist (cgroup v2 with KATTR_RGRES_ENABLE: the
 * controllers missing above the group are enabled first, recorded in
 * done).  When a write fails, the values written before it are restored,
 * the controllers enabled are disabled again, done->failed and
 * done->failed_file name the culprit and its -errno is returned.
 */
int kattr_rgres_set(struct kattr_rgres_group *g,
			      const struct kattr_rgres_value *vals, size_t n,
			      unsigned int flags, struct kattr_rgres_done *done);

#ifdef __cplusplus
}
#endif

#endif /* KATTR_RGRES_H */
