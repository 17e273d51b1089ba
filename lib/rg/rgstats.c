// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What a cgroup is using: its statistics files turned into figures named
 * as cgroup v2 names them (cpu usage_usec, memory current, io rbytes per
 * device, pids current, PSI), whichever version and file they came from.
 * The parsers take text only (kattr_rg_parse_figures(), fuzzed); the
 * readers take each file from its controller's hierarchy (cgroup v1 mounts
 * cpuacct, memory, blkio and pids apart) through the handle's lookup
 * (hier.c).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kattr/rg.h"
#include "kattr/private_rg.h"
#include "rg_internal.h"

/* ---- parsing ----------------------------------------------------------- */

struct fig {
	const char *key;
	size_t klen;
	const char *prefix;	/* before key ("events.") or NULL */
	const char *dev;	/* "8:0" or NULL */
	size_t dlen;
	enum kattr_rg_unit unit;
	bool counter, has_value;
	long long value;
};

static void stat_clear(struct kattr_rg_stat *s)
{
	free(s->res);
	free(s->key);
	free(s->dev);
	free(s->file);
	memset(s, 0, sizeof(*s));
}

/* Append f to *v; *cap as kattr_grow() keeps it. */
static int fig_add(struct kattr_rg_stat **v, size_t *n, size_t *cap,
		   const struct kattr_rg_figsrc *src, const struct fig *f)
{
	const char *pre = f->prefix ? f->prefix : "";
	struct kattr_rg_stat *s;

	if (kattr_grow((void **)v, cap, *n, sizeof(**v)) < 0)
		return -ENOMEM;
	s = &(*v)[*n];
	memset(s, 0, sizeof(*s));
	s->res = strdup(src->res);
	s->file = strdup(src->file);
	if (asprintf(&s->key, "%s%.*s", pre, (int)f->klen, f->key) < 0)
		s->key = NULL;
	if (f->dev)
		s->dev = strndup(f->dev, f->dlen);
	if (!s->res || !s->file || !s->key || (f->dev && !s->dev)) {
		stat_clear(s);
		return -ENOMEM;
	}
	s->unit = f->unit;
	s->counter = f->counter;
	s->has_value = f->has_value;
	s->value = f->value;
	(*n)++;
	return 0;
}

/* value * mul / div, saturated; div 0: USER_HZ. */
static long long scale(long long value, unsigned int mul, unsigned int div)
{
	long long out;

	if (div == 0) {
		long hz = sysconf(_SC_CLK_TCK);

		div = hz > 0 ? (unsigned int)hz : 100;
	}
	if (mul == 0)
		mul = 1;
	if (__builtin_mul_overflow(value, (long long)mul, &out))
		return LLONG_MAX / div;
	return out / div;
}

/* The unit a key's name implies (cgroup v2's names end in their unit). */
static enum kattr_rg_unit unit_of(const char *key, size_t len,
				  enum kattr_rg_unit dflt)
{
	if (len >= 5 && memcmp(key + len - 5, "_usec", 5) == 0)
		return KATTR_RG_UNIT_USEC;
	if (len >= 5 && memcmp(key + len - 5, "bytes", 5) == 0)
		return KATTR_RG_UNIT_BYTES;
	return dflt;
}

/* The next space-separated word of [*p, end), false when none. */
static bool next_word(const char **p, const char *end, const char **w,
		      size_t *len)
{
	while (*p < end && isspace((unsigned char)**p))
		(*p)++;
	if (*p >= end)
		return false;
	*w = *p;
	while (*p < end && !isspace((unsigned char)**p))
		(*p)++;
	*len = (size_t)(*p - *w);
	return true;
}

static bool parse_value(const char *s, size_t len, long long *out)
{
	return kattr_parse_ll(s, len, false, out) == 0;
}

/* A PSI average, "12.34", in hundredths. */
static bool parse_centi(const char *s, size_t len, long long *out)
{
	const char *dot = memchr(s, '.', len);
	long long whole, frac = 0;
	size_t flen;

	if (!dot)
		return parse_value(s, len, out) && !__builtin_mul_overflow(*out, 100LL, out);
	flen = len - (size_t)(dot - s) - 1;
	if (!parse_value(s, (size_t)(dot - s), &whole) || flen < 1 || flen > 2 ||
	    !parse_value(dot + 1, flen, &frac))
		return false;
	if (flen == 1)
		frac *= 10;
	return !__builtin_mul_overflow(whole, 100LL, out) &&
	       !__builtin_add_overflow(*out, frac, out);
}

/* KEYED: one "key value" line. */
static int keyed_line(const char *line, size_t len,
		      const struct kattr_rg_figsrc *src, struct kattr_rg_stat **v,
		      size_t *n, size_t *cap)
{
	const struct kattr_rg_figkey *k = NULL;
	const char *end = line + len, *p = line, *vs;
	struct fig f = { .prefix = src->name, .counter = src->counter };
	size_t vlen;

	if (!next_word(&p, end, &f.key, &f.klen))
		return 0;
	for (const struct kattr_rg_figkey *i = src->keys; i && i->from && !k; i++)
		if (strlen(i->from) == f.klen && !memcmp(i->from, f.key, f.klen))
			k = i;
	if (!k && (src->flags & KATTR_RG_FIG_KNOWN))
		return 0;
	f.unit = unit_of(f.key, f.klen, src->unit);
	vs = p;
	vlen = (size_t)(end - p);
	kattr_trim_span(&vs, &vlen);
	f.has_value = parse_value(vs, vlen, &f.value);
	if (!f.has_value) {
		f.klen = len;	/* the line as it is, text only */
		f.unit = KATTR_RG_UNIT_NONE;
		f.prefix = NULL;
	} else if (k) {
		f.key = k->to;
		f.klen = strlen(k->to);
		f.prefix = NULL;
		f.unit = k->unit;
		f.counter = k->counter;
		f.value = scale(f.value, k->mul, k->div);
	}
	return fig_add(v, n, cap, src, &f);
}

/* IO_STAT: "8:0 rbytes=1 wbytes=2 rios=3 ...". */
static int io_stat_line(const char *line, size_t len,
			const struct kattr_rg_figsrc *src,
			struct kattr_rg_stat **v, size_t *n, size_t *cap)
{
	const char *end = line + len, *p = line, *w;
	struct fig f = { .has_value = true };
	size_t wlen;
	int ret = 0;

	if (!next_word(&p, end, &f.dev, &f.dlen))
		return 0;
	while (ret == 0 && next_word(&p, end, &w, &wlen)) {
		const char *eq = memchr(w, '=', wlen);

		if (!eq || eq == w)
			continue;
		f.key = w;
		f.klen = (size_t)(eq - w);
		f.unit = unit_of(f.key, f.klen, KATTR_RG_UNIT_COUNT);
		/* iocost's cost.* are levels, not totals */
		f.counter = !(f.klen > 5 && !memcmp(f.key, "cost.", 5));
		if (parse_value(eq + 1, wlen - f.klen - 1, &f.value))
			ret = fig_add(v, n, cap, src, &f);
	}
	return ret;
}

/* BLKIO: "8:0 Read 4096" (Write, Discard; Sync, Async, Total skipped). */
static int blkio_line(const char *line, size_t len,
		      const struct kattr_rg_figsrc *src,
		      struct kattr_rg_stat **v, size_t *n, size_t *cap)
{
	static const char *const ops[][2] = {
		{ "Read", "r" }, { "Write", "w" }, { "Discard", "d" },
	};
	const char *end = line + len, *p = line, *op, *val;
	struct fig f = { .has_value = true, .counter = true, .unit = src->unit };
	size_t oplen, vlen;
	char key[32];

	if (!next_word(&p, end, &f.dev, &f.dlen) || !memchr(f.dev, ':', f.dlen) ||
	    !next_word(&p, end, &op, &oplen) || !next_word(&p, end, &val, &vlen) ||
	    !parse_value(val, vlen, &f.value))
		return 0;
	for (size_t i = 0; i < sizeof(ops) / sizeof(*ops); i++) {
		if (strlen(ops[i][0]) != oplen || memcmp(ops[i][0], op, oplen))
			continue;
		snprintf(key, sizeof(key), "%s%s", ops[i][1], src->name);
		f.key = key;
		f.klen = strlen(key);
		return fig_add(v, n, cap, src, &f);
	}
	return 0;
}

/* PSI: "some avg10=0.12 avg60=0.05 avg300=0.01 total=12345". */
static int psi_line(const char *line, size_t len,
		    const struct kattr_rg_figsrc *src, struct kattr_rg_stat **v,
		    size_t *n, size_t *cap)
{
	const char *end = line + len, *p = line, *kind, *w;
	size_t klen, wlen;
	char key[64];
	int ret = 0;

	if (!next_word(&p, end, &kind, &klen) || klen > 8)
		return 0;
	while (ret == 0 && next_word(&p, end, &w, &wlen)) {
		const char *eq = memchr(w, '=', wlen);
		struct fig f = { .has_value = true, .key = key };
		size_t nlen;

		if (!eq || eq == w || (size_t)(eq - w) > 16)
			continue;
		nlen = (size_t)(eq - w);
		if (nlen == 5 && !memcmp(w, "total", 5)) {
			snprintf(key, sizeof(key), "pressure.%.*s.total_usec",
				 (int)klen, kind);
			f.unit = KATTR_RG_UNIT_USEC;
			f.counter = true;
			f.has_value = parse_value(eq + 1, wlen - nlen - 1, &f.value);
		} else {
			snprintf(key, sizeof(key), "pressure.%.*s.%.*s",
				 (int)klen, kind, (int)nlen, w);
			f.unit = KATTR_RG_UNIT_CENTIPCT;
			f.has_value = parse_centi(eq + 1, wlen - nlen - 1, &f.value);
		}
		f.klen = strlen(key);
		if (f.has_value)
			ret = fig_add(v, n, cap, src, &f);
	}
	return ret;
}

static int flat(const char *text, const struct kattr_rg_figsrc *src,
		struct kattr_rg_stat **v, size_t *n, size_t *cap)
{
	struct fig f = {
		.key = src->name, .klen = strlen(src->name), .unit = src->unit,
		.counter = src->counter,
	};
	size_t len = strlen(text);

	kattr_trim_span(&text, &len);
	f.has_value = parse_value(text, len, &f.value);
	if (f.has_value)
		f.value = scale(f.value, src->mul, src->div ? src->div : 1);
	else if (len)	/* not a number: the text as it is */
		f = (struct fig){ .key = text, .klen = strnlen(text, len) };
	else
		return 0;
	return fig_add(v, n, cap, src, &f);
}

int kattr_rg_parse_figures(const char *text, const struct kattr_rg_figsrc *src,
			   struct kattr_rg_stat **v, size_t *n)
{
	size_t cap = *n, start = *n;
	const char *p = text;
	int ret = 0;

	if (src->fmt == KATTR_RG_FIG_FLAT) {
		ret = flat(text, src, v, n, &cap);
	} else {
		while (*p && ret == 0) {
			size_t len = strcspn(p, "\n");

			switch (src->fmt) {
			case KATTR_RG_FIG_KEYED:
				ret = keyed_line(p, len, src, v, n, &cap);
				break;
			case KATTR_RG_FIG_IO_STAT:
				ret = io_stat_line(p, len, src, v, n, &cap);
				break;
			case KATTR_RG_FIG_BLKIO:
				ret = blkio_line(p, len, src, v, n, &cap);
				break;
			default:
				ret = psi_line(p, len, src, v, n, &cap);
				break;
			}
			p += len + (p[len] ? 1 : 0);
		}
	}
	if (ret < 0) {
		for (size_t i = start; i < *n; i++)
			stat_clear(&(*v)[i]);
		*n = start;
	}
	return ret;
}

/* ---- reading ----------------------------------------------------------- */

/* cgroup v1 */
static const struct kattr_rg_figkey v1_cpu_stat[] = {
	{ "throttled_time", "throttled_usec", KATTR_RG_UNIT_USEC, 1, 1000, true },
	{ "burst_time", "burst_usec", KATTR_RG_UNIT_USEC, 1, 1000, true },
	{ NULL, NULL, 0, 0, 0, false },
};
static const struct kattr_rg_figkey v1_cpuacct_stat[] = {
	{ "user", "user_usec", KATTR_RG_UNIT_USEC, 1000000, 0, true },
	{ "system", "system_usec", KATTR_RG_UNIT_USEC, 1000000, 0, true },
	{ NULL, NULL, 0, 0, 0, false },
};
static const struct kattr_rg_figkey v1_oom_control[] = {
	{ "oom_kill", "events.oom_kill", KATTR_RG_UNIT_COUNT, 1, 1, true },
	{ NULL, NULL, 0, 0, 0, false },
};

#define FLAT(r, c, f, nm, u, m, d, cnt, fl) \
	{ r, c, f, KATTR_RG_FIG_FLAT, nm, KATTR_RG_UNIT_##u, m, d, cnt, fl, NULL }
#define KEYED(r, c, f, pre, cnt, fl, k) \
	{ r, c, f, KATTR_RG_FIG_KEYED, pre, KATTR_RG_UNIT_COUNT, 1, 1, cnt, fl, k }
#define PSI(r, c, f) { r, c, f, KATTR_RG_FIG_PSI, NULL, 0, 1, 1, false, 0, NULL }

static const struct kattr_rg_figsrc v1_src[] = {
	FLAT("cpu", "cpuacct", "cpuacct.usage", "usage_usec", USEC, 1, 1000, true, 0),
	FLAT("cpu", "cpuacct", "cpuacct.usage_user", "user_usec", USEC, 1, 1000, true, 0),
	FLAT("cpu", "cpuacct", "cpuacct.usage_sys", "system_usec", USEC, 1, 1000, true, 0),
	KEYED("cpu", "cpuacct", "cpuacct.stat", NULL, true,
	      KATTR_RG_FIG_KNOWN | KATTR_RG_FIG_ALT, v1_cpuacct_stat),
	KEYED("cpu", "cpu", "cpu.stat", NULL, true, 0, v1_cpu_stat),
	PSI("cpu", "cpuacct", "cpu.pressure"),
	FLAT("memory", "memory", "memory.usage_in_bytes", "current", BYTES, 1, 1, false, 0),
	FLAT("memory", "memory", "memory.max_usage_in_bytes", "peak", BYTES, 1, 1, false, 0),
	FLAT("memory", "memory", "memory.failcnt", "events.max", COUNT, 1, 1, true, 0),
	KEYED("memory", "memory", "memory.oom_control", NULL, true,
	      KATTR_RG_FIG_KNOWN, v1_oom_control),
	PSI("memory", "memory", "memory.pressure"),
	{ "io", "blkio", "blkio.throttle.io_service_bytes", KATTR_RG_FIG_BLKIO,
	  "bytes", KATTR_RG_UNIT_BYTES, 1, 1, true, 0, NULL },
	{ "io", "blkio", "blkio.throttle.io_serviced", KATTR_RG_FIG_BLKIO,
	  "ios", KATTR_RG_UNIT_COUNT, 1, 1, true, 0, NULL },
	PSI("io", "blkio", "io.pressure"),
	FLAT("pids", "pids", "pids.current", "current", COUNT, 1, 1, false, 0),
	FLAT("pids", "pids", "pids.peak", "peak", COUNT, 1, 1, false, 0),
	KEYED("pids", "pids", "pids.events", "events.", true, 0, NULL),
};

/* cgroup v2: the files' own names */
static const struct kattr_rg_figsrc v2_src[] = {
	KEYED("cpu", "cpu", "cpu.stat", NULL, true, 0, NULL),
	PSI("cpu", "cpu", "cpu.pressure"),
	FLAT("memory", "memory", "memory.current", "current", BYTES, 1, 1, false, 0),
	FLAT("memory", "memory", "memory.peak", "peak", BYTES, 1, 1, false, KATTR_RG_FIG_NA),
	FLAT("memory", "memory", "memory.swap.current", "swap.current", BYTES, 1, 1, false, 0),
	KEYED("memory", "memory", "memory.events", "events.", true, 0, NULL),
	PSI("memory", "memory", "memory.pressure"),
	{ "io", "io", "io.stat", KATTR_RG_FIG_IO_STAT, NULL, KATTR_RG_UNIT_COUNT,
	  1, 1, true, 0, NULL },
	PSI("io", "io", "io.pressure"),
	FLAT("pids", "pids", "pids.current", "current", COUNT, 1, 1, false, 0),
	FLAT("pids", "pids", "pids.peak", "peak", COUNT, 1, 1, false, 0),
	KEYED("pids", "pids", "pids.events", "events.", true, 0, NULL),
};

static const char *const resources[] = { "cpu", "memory", "io", "pids" };

/* Where the group's files are. */
struct where {
	struct kattr_rg *rg;
	const char *group;
};

/* ctrl's hierarchy at the root's place (cgroup v1), rg->m otherwise. */
static int mount_of(struct where *w, const char *ctrl, struct kattr_mount **m)
{
	return rg_hier_mount(w->rg, ctrl, m);
}

/* Why the group has no file of res (ctrl's), into buf. */
static void absent_why(struct where *w, const char *ctrl, char *buf,
		       size_t size)
{
	bool root = kattr_rg_name_is_root(w->group);
	struct kattr_mount *m = NULL;
	struct stat st;
	int ret = mount_of(w, ctrl, &m);

	if (w->rg->ops->id == KATTR_RG_CGROUP1) {
		if (ret < 0)
			snprintf(buf, size, "no cgroup v1 hierarchy has the %s controller", ctrl);
		else if (kattr_stat(m, root ? "." : w->group, &st) < 0)
			snprintf(buf, size, "the group has no directory in the %s hierarchy (%s)",
				 ctrl, kattr_mount_path(m));
		else if (root)
			snprintf(buf, size, "the root group has none of its files");
		else
			snprintf(buf, size, "none of its files is in the group's directory of the %s hierarchy (%s)",
				 ctrl, kattr_mount_path(m));
	} else if (root) {
		snprintf(buf, size, "the root group has none of its files");
	} else if (rg_file_has_word(w->rg->m, "cgroup.controllers", ctrl) <= 0) {
		snprintf(buf, size, "the %s controller is not available (not in the root's cgroup.controllers)",
			 ctrl);
	} else {
		snprintf(buf, size, "%s is not enabled in the parent's cgroup.subtree_control",
			 ctrl);
	}
}

static int add_absent(struct where *w, const char *res, const char *ctrl,
		      struct kattr_rg_stat **v, size_t *n)
{
	struct kattr_rg_figsrc src = { .res = res, .file = "" };
	char why[PATH_MAX + 128];
	struct fig f = { 0 };
	size_t cap = *n;
	int ret;

	absent_why(w, ctrl, why, sizeof(why));
	f.key = why;
	f.klen = strlen(why);
	ret = fig_add(v, n, &cap, &src, &f);
	if (ret == 0) {
		(*v)[*n - 1].absent = true;
		free((*v)[*n - 1].file);
		(*v)[*n - 1].file = NULL;
	}
	return ret;
}

/* One source; 1 when its file is missing. */
static int read_src(struct where *w, const struct kattr_rg_figsrc *src,
		    size_t start, struct kattr_rg_stat **v, size_t *n)
{
	char path[PATH_MAX], *text;
	struct kattr_mount *m;
	int ret = mount_of(w, src->ctrl, &m);

	if (ret == -ENODEV || ret == -ENOENT)
		return 1;
	if (ret == 0)
		ret = rg_gpath(path, sizeof(path), w->group, src->file);
	if (ret == 0)
		ret = kattr_read_alloc(m, path, &text, NULL);
	if (ret == -ENOENT && (src->flags & KATTR_RG_FIG_NA) && *n > start) {
		size_t cap = *n;
		struct fig f = { .key = src->name, .klen = strlen(src->name),
				 .unit = src->unit, .counter = src->counter };

		ret = fig_add(v, n, &cap, src, &f);
		return ret < 0 ? ret : 1;
	}
	if (ret == -ENOENT)
		return 1;
	if (ret < 0)
		return ret;
	ret = kattr_rg_parse_figures(text, src, v, n);
	free(text);
	return ret;
}

static int read_res(struct where *w, const char *res,
		    const struct kattr_rg_figsrc *tab, size_t ntab,
		    struct kattr_rg_stat **v, size_t *n)
{
	size_t start = *n;
	const char *ctrl = NULL;
	int missing = 0;

	for (size_t i = 0; i < ntab; i++) {
		if (strcmp(tab[i].res, res) != 0)
			continue;
		if (!ctrl)
			ctrl = tab[i].ctrl;
		if ((tab[i].flags & KATTR_RG_FIG_ALT) && !missing)
			continue;
		missing = read_src(w, &tab[i], start, v, n);
		if (missing < 0)
			return missing;
	}
	return *n > start ? 0 : add_absent(w, res, ctrl, v, n);
}

int rg_stats_figures(struct kattr_rg *rg, const char *group,
		     struct kattr_rg_stat **v, size_t *n)
{
	bool v1 = rg->ops->id == KATTR_RG_CGROUP1;
	const struct kattr_rg_figsrc *tab = v1 ? v1_src : v2_src;
	size_t ntab = v1 ? sizeof(v1_src) / sizeof(*v1_src) :
			   sizeof(v2_src) / sizeof(*v2_src);
	struct where w = { .rg = rg, .group = group };
	int ret = 0;

	for (size_t i = 0; ret == 0 && i < sizeof(resources) / sizeof(*resources); i++)
		ret = read_res(&w, resources[i], tab, ntab, v, n);
	return ret;
}
