/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libkattr's private interface: functions the library defines and its
 * own folders, tests (tests/lib/) and fuzz targets (tests/fuzz/) call
 * (and, for a few such as kattr_str_distance(), the suite's tools), but
 * no outside program.  They are not exported from libkattr.so
 * (lib/libkattr.map lists what is); the tests and tools reach them
 * through the static library (the CMake target kattr_private:
 * kattr_static and this folder on the include path).  Nothing here is
 * installed.
 *
 * Same rules as the public headers: no printing, no exit, -errno.
 */
#ifndef KATTR_PRIVATE_H
#define KATTR_PRIVATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "kattr/kattr.h"
#include "kattr/procev.h"
#include "kattr/profile.h"
#include "kattr/rg.h"
#include "kattr/rgtool.h"
#include "kattr/rgconf.h"
#include "kattr/sysfacts.h"
#include "kattr/taskstats.h"

/* ---- core (kattr/kattr.h): paths, mount table, resolution, reads -- */

/*
 * Write "<sysroot><path>" into buf.  path must be absolute.
 * -EINVAL for a relative path, -ENAMETOOLONG when it does not fit.
 */
int kattr_sysroot_path(const char *path, char *buf, size_t size);

/*
 * The edit distance (Levenshtein: insert, delete, replace one byte) of a
 * and b, ASCII case folded with icase; cap + 1 for anything above cap
 * (also when b is 64 bytes or longer).  For "did you mean": the library's
 * kattr_rgres_suggest() and the tools' tool_closest().
 */
size_t kattr_str_distance(const char *a, const char *b, size_t cap, bool icase);

/* true when the comma-separated list opts contains exactly opt. */
bool kattr_opt_has(const char *opts, const char *opt);

/*
 * Call cb for every mount of the calling process (read from
 * <sysroot>/proc/<pid>/mountinfo).  cb returns 0 to go on, > 0 to stop
 * (that value is returned), < 0 to fail (returned as is).
 */
typedef int (*kattr_mnt_cb)(const struct kattr_mnt *mnt, void *data);
int kattr_mountinfo_foreach(kattr_mnt_cb cb, void *data);

/* How names are resolved; KATTR_RESOLVE_AUTO uses openat2(2) when the
 * kernel has it.  The others exist so both paths can be tested. */
enum kattr_resolve_mode {
	KATTR_RESOLVE_AUTO = 0,
	KATTR_RESOLVE_OPENAT2,
	KATTR_RESOLVE_FALLBACK,
};
void kattr_set_resolve_mode(enum kattr_resolve_mode mode);

/* Same into a caller buffer; returns the length, -EOVERFLOW if the value
 * (plus its NUL) does not fit. */
ssize_t kattr_read(struct kattr_mount *m, const char *rel,
		   char *buf, size_t size);
/* Read a decimal unsigned integer (surrounding whitespace allowed). */
int kattr_read_u64(struct kattr_mount *m, const char *rel,
		   uint64_t *value);

/* ---- sys (kattr/sysfacts.h): the parsers of kattr_sysfacts_read() ---- */

/*
 * The model name in /proc/cpuinfo text ("model name", else "Model",
 * "cpu model", "Hardware" or "cpu"), whitespace trimmed.  -ENOENT when
 * absent, -EOVERFLOW when it does not fit in size.
 */
int kattr_cpuinfo_model(const char *cpuinfo, char *buf, size_t size);
/* true when the "flags" line of /proc/cpuinfo text has the word flag. */
int kattr_cpuinfo_has_flag(const char *cpuinfo, const char *flag);
/*
 * The selected word of a sysfs choice file such as "always [madvise]
 * never".  -ENOENT when no word is bracketed, -EOVERFLOW when too long.
 */
int kattr_choice_selected(const char *text, char *buf, size_t size);
/*
 * Count the CPUs in a list such as "0-3,8,10-11".  -EINVAL when
 * malformed.
 */
int kattr_cpulist_count(const char *list, unsigned int *count);

/* The first KernelPageSize in smaps text, in bytes (-ENOENT if none). */
int kattr_smaps_page_size(const char *smaps, uint64_t *bytes);

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

/* ---- profile (kattr/profile.h): rows, counters, matching, sorting --- */

/* Parse one row in place (line without its newline, NUL-terminated). */
int kattr_prof_parse_likely_row(char *line,
				struct kattr_prof_entry *e);
int kattr_prof_parse_trace_row(char *line, bool all,
			       struct kattr_prof_entry *e);

/*
 * b - a for a counter of the given width (32 or 64 bits).  A counter that
 * went down was reset (a file replaced, a program restarted) and b is
 * returned: only a 32-bit counter wraps, and only a step of less than
 * half its range (2^31) is taken as a wrap (serial number arithmetic,
 * RFC 1982); a larger one is a reset too.
 */
uint64_t kattr_prof_counter_delta(uint64_t a, uint64_t b,
				  unsigned int bits);

/*
 * For every entry of cur, the index of the same site (same hint,
 * function, file and line) in prev, or SIZE_MAX when prev has none.
 * idx must hold cur->n elements.  -ENOMEM.
 */
int kattr_profile_match(const struct kattr_profile *prev,
			const struct kattr_profile *cur, size_t *idx);

/*
 * Order the n pointers in v: numbers descending, names ascending (their
 * natural order), reversed when reverse is true; ties are broken by
 * function, file, line and hint, so the order is total and stable across
 * refreshes.  Sites never evaluated sort last by percent.
 */
void kattr_prof_sort(const struct kattr_prof_entry **v, size_t n,
		     enum kattr_prof_sort key, bool reverse);
/* The same order by one comparison sort (qsort_r): the reference the
 * radix passes of kattr_prof_sort() are tested against. */
void kattr_prof_sort_ref(const struct kattr_prof_entry **v, size_t n,
			 enum kattr_prof_sort key, bool reverse);

bool kattr_prof_filter_match(const struct kattr_prof_filter *f,
			     const struct kattr_prof_entry *e);


/* ---- rg (kattr/rgres.h): the backends' files of a group's resources --- */

#include "kattr/rgres.h"

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

#endif /* KATTR_PRIVATE_H */
