/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libkattr rg/, private: the parsers of the resource-group calls, the
 * resource table.
 *
 * Not installed, not exported (lib/libkattr.map lists what is); one
 * private header per layer of lib/ (lib/README): a layer's files include
 * its own and, through it, only the layers below, so a call up a layer
 * fails to compile.  Same rules as the public headers: no printing, no
 * exit, -errno.
 */
#ifndef KATTR_PRIVATE_RG_H
#define KATTR_PRIVATE_RG_H

/* Inside lib/, only a layer that uses rg/ includes this: a call up the
 * layers fails to compile (lib/CMakeLists.txt sets KATTR_USES_*). */
#if defined(KATTR_BUILDING_LIB) && !defined(KATTR_USES_RG)
#error "lib/: this layer does not use rg/ (a layer uses only the layers below it: lib/README)"
#endif

#include "kattr/private_core.h"
#include "kattr/private_proc.h"
#include "kattr/rg.h"
#include "kattr/rgres.h"
#include "kattr/rgtool.h"

/* ---- rg (kattr/rg.h): the parsers of the resource-group calls ------- */

/* Parse an RGCS shares read ("res=cpu,min_shares=0,..." lines). */
int kattr_rg_parse_rgcs_shares(const char *text,
			       struct kattr_rg_share **out,
			       size_t *n);

/* RGCS stats text ("numtasks: Current usage 3", "cpu:load=4, ..."). */
int kattr_rg_parse_rgcs_stats(const char *text,
			      struct kattr_rg_stat **v, size_t *n);
/* "key value" lines (cpu.stat), appended to *v with res. */
int kattr_rg_parse_keyed(const char *text, const char *res,
			 struct kattr_rg_stat **v, size_t *n);

/*
 * A cgroup statistics file and how its text becomes figures (rgstats.c):
 * FLAT one number (the figure name), KEYED "key value" lines (name: a
 * prefix for the keys, keys: known ones renamed and scaled), IO_STAT
 * cgroup v2's "MAJ:MIN key=value..." lines, BLKIO cgroup v1's "MAJ:MIN
 * Read N" lines (name: "bytes" or "ios"), PSI "some avg10=... total=...".
 */
enum kattr_rg_figfmt {
	KATTR_RG_FIG_FLAT,
	KATTR_RG_FIG_KEYED,
	KATTR_RG_FIG_IO_STAT,
	KATTR_RG_FIG_BLKIO,
	KATTR_RG_FIG_PSI,
};
/* A key of a KEYED file renamed: value * mul / div (div 0: USER_HZ). */
struct kattr_rg_figkey {
	const char *from, *to;
	enum kattr_rg_unit unit;
	unsigned int mul, div;
	bool counter;
};
struct kattr_rg_figsrc {
	const char *res;		/* "cpu" */
	const char *ctrl;		/* cgroup v1: the hierarchy's controller */
	const char *file;		/* "cpuacct.usage" */
	enum kattr_rg_figfmt fmt;
	const char *name;		/* see above */
	enum kattr_rg_unit unit;	/* FLAT, and KEYED keys not in keys */
	unsigned int mul, div;		/* FLAT: value * mul / div (0: 1) */
	bool counter;
	unsigned int flags;		/* KATTR_RG_FIG_* below */
	const struct kattr_rg_figkey *keys;	/* KEYED: ends with from NULL */
};
enum {
	KATTR_RG_FIG_KNOWN = 1u << 0,	/* KEYED: only the keys in keys */
	KATTR_RG_FIG_NA = 1u << 1,	/* missing: "n/a", not nothing */
	KATTR_RG_FIG_ALT = 1u << 2,	/* only when the source before it is
					 * missing */
};
/* Append the figures of one file's text to *v (*n entries already). */
int kattr_rg_parse_figures(const char *text, const struct kattr_rg_figsrc *src,
			   struct kattr_rg_stat **v, size_t *n);

/* One id per line (members, tasks, cgroup.procs). -EINVAL on junk. */
int kattr_rg_parse_pids(const char *text, pid_t **pids, size_t *n);


/* ---- rg (kattr/rgres.h): the backends' files of a group's resources --- */

/* A growing array of values. */
struct kattr_rgres_vec {
	struct kattr_rgres_value *v;
	size_t n, cap;
};
/*
 * The text written to file (a backend's file of v->res: "cpu.shares",
 * "cpu.cfs_period_us", "io.bfq.weight", "blkio.throttle.read_bps_device",
 * RGCS "shares"...) for v.  -ERANGE with why saying so when v has no equivalent in
 * that file (blkio.weight beyond io.weight 200), -ENAMETOOLONG.
 */
int kattr_rgres_file_text(const char *file, const struct kattr_rgres_value *v,
			  char *buf, size_t size, struct kattr_why *why);
/* Read file's text into v (v->res set; cpu.max v1: once per file). */
int kattr_rgres_file_parse(const char *file, const char *text,
			   struct kattr_rgres_value *v);
/* The io.max file of field (0..3) on backend b (v2: "io.max"). */
const char *kattr_rgres_io_file(enum kattr_rg_backend b, int field);
/* Merge io.max text (field < 0) or a v1 throttle file's (field) into vals. */
int kattr_rgres_io_parse(const char *text, int field,
			 const struct kattr_rgres *res,
			 struct kattr_rgres_vec *vals);

#endif /* KATTR_PRIVATE_RG_H */
