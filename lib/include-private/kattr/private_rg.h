/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libkattr rg/, private: the parsers of the resource-group calls, the
 * configuration language, the netlink channels, the resource table.
 *
 * Not installed, not exported (lib/libkattr.map lists what is); one
 * private header per layer of lib/ (lib/README): a layer's files include
 * its own and, through it, only the layers below, so a call up a layer
 * fails to compile.  Same rules as the public headers: no printing, no
 * exit, -errno.
 */
#ifndef KATTR_PRIVATE_RG_H
#define KATTR_PRIVATE_RG_H

#include "kattr/private_core.h"
#include "kattr/procev.h"
#include "kattr/rg.h"
#include "kattr/rgconf.h"
#include "kattr/rgres.h"
#include "kattr/rgtool.h"
#include "kattr/taskstats.h"

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

/*
 * Find a task's group in /proc/PID/cgroup text.  ctrls: NULL for cgroup
 * v2 (the "0::" line), else the v1 hierarchy's comma-separated controller
 * list as mountinfo's super options name them (the line must name the same
 * set).  *path is malloc'ed, absolute within the hierarchy ("/db").
 */
int kattr_rg_parse_proc_cgroup(const char *text, const char *ctrls,
			       char **path);

/* ---- rg (kattr/rgconf.h): rgctl.conf text, /proc/PID files ---------- */

/*
 * Parse text (named file in messages).  On a syntax or schema error
 * returns -EINVAL with err set to "FILE:LINE: KEY: reason" (or
 * "FILE:LINE: reason" for a syntax error).  Unknown keys are errors.
 * Every integer is read as 64 bits and range-checked (libconfig 1.5 would
 * cut a plain one to 32).  @include is refused here (no file is read).
 * -ENOMEM, or -EOPNOTSUPP without libconfig.
 */
int kattr_rgconf_parse_string(const char *text, const char *file,
			      struct kattr_rgconf **out,
			      char *err, size_t errsz);

/*
 * Fill p from the text of /proc/PID/status (Name, PPid, Uid, Gid,
 * Groups lines).  -EINVAL when a needed line is missing or malformed.
 */
int kattr_rgproc_parse_status(const char *text, struct kattr_rgproc *p);
/*
 * Fill comm, ppid, starttime and kthread from the text of /proc/PID/stat (comm may
 * hold spaces and parentheses).  -EINVAL when malformed.
 */
int kattr_rgproc_parse_stat(const char *text, struct kattr_rgproc *p);

/* ---- rg (kattr/procev.h): decoding, per-CPU sequence tracking ------- */

/* The event as a word ("fork", "exec", ...). */
const char *kattr_procev_type_name(enum kattr_procev_type type);

/*
 * Decode every proc connector message in buf (one recv(2)'s worth).
 * Messages that are not proc connector events are skipped; a truncated
 * message or event is -EBADMSG; an NLMSG_ERROR carrying an error is that
 * error.  Returns the number of events passed to cb.
 */
int kattr_procev_decode(const void *buf, size_t len,
			kattr_procev_cb cb, void *data);

/* Per-CPU sequence tracking (pure). */
#define KATTR_PROCEV_MAX_CPUS 4096

struct kattr_procev_seq {
	uint32_t *last;		/* next expected seq per CPU */
	uint8_t *seen;
	size_t ncpus;
	uint64_t lost;		/* events known to be lost, in all */
};

void kattr_procev_seq_init(struct kattr_procev_seq *s);
void kattr_procev_seq_free(struct kattr_procev_seq *s);
/* Forget every CPU's position (after a resubscription or a rescan). */
void kattr_procev_seq_reset(struct kattr_procev_seq *s);
/*
 * Account one event: returns how many events of that CPU were skipped
 * before it (0 when in order), or -ENOMEM / -ERANGE (cpu too large).
 * NONE events (acknowledgements) carry no per-CPU number and are
 * ignored.
 */
long kattr_procev_seq_check(struct kattr_procev_seq *s,
			    const struct kattr_procev *ev);

/* ---- rg (kattr/taskstats.h): netlink replies ------------------------ */

/*
 * Parse one TASKSTATS_CMD_NEW reply (the whole netlink message) into out.
 * -EBADMSG when malformed, -ENODATA without a stats attribute, the error
 * of an NLMSG_ERROR reply.
 */
int kattr_taskstats_parse(const void *buf, size_t len,
			  struct kattr_taskstats *out);
/* Same for a CGROUPSTATS_CMD_NEW reply. */
int kattr_cgroupstats_parse(const void *buf, size_t len,
			    struct kattr_cgroupstats *out);
/*
 * Parse a CTRL_CMD_NEWFAMILY reply: the family id, or -ENODATA / -EBADMSG
 * / the error of an NLMSG_ERROR reply.
 */
int kattr_genl_family_parse(const void *buf, size_t len);
/*
 * Parse one datagram of exit records (TASKSTATS_CMD_NEW: AGGR_PID, and
 * AGGR_TGID for the last thread of a multi-threaded process), calling cb
 * for each AGGR_PID one.  The count, or -EBADMSG (an acknowledgement
 * too), or an NLMSG_ERROR's error, or cb's error.
 */
int kattr_taskexit_parse(const void *buf, size_t len, kattr_taskexit_cb cb,
			 void *data);

/* ---- rg (kattr/rgres.h): the backends' files of a group's resources --- */

/* A growing array of values. */
struct kattr_rgres_vec {
	struct kattr_rgres_value *v;
	size_t n, cap;
};
/*
 * The text written to file (a backend's file of v->res: "cpu.shares",
 * "cpu.cfs_period_us", "io.bfq.weight", "blkio.throttle.read_bps_device",
 * RGCS "shares"...) for v.  -ERANGE with *why when v has no equivalent in
 * that file (blkio.weight beyond io.weight 200), -ENAMETOOLONG.
 */
int kattr_rgres_file_text(const char *file, const struct kattr_rgres_value *v,
			  char *buf, size_t size, const char **why);
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
