// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A group watched over time (kattr/rgwatch.h): each file of its figures
 * opened once, at the controller's hierarchy (cgroup v1) or the group's
 * directory, and read again with pread(2) into a buffer on the stack.  A
 * read failing with ENODEV or ENOENT means the group was removed.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kattr/rgwatch.h"
#include "kattr/private_rg.h"
#include "rg_internal.h"

/* How a file's text becomes figures. */
enum wfmt {
	W_LINES,	/* lines: fig = their number */
	W_FLAT,		/* one number ("max": unlimited), scaled */
	W_KEYED,	/* "key value" lines, key mapped by the source */
	W_IO_STAT,	/* v2 "8:0 rbytes=1 wbytes=2 ..." summed */
	W_BLKIO,	/* v1 "8:0 Read 4096" summed */
	W_PSI,		/* "some avg10=1.23 ...": some avg10 */
	W_SHARES,	/* RGCS "res=cpu,min_shares=N,...": N */
};

/* One file: what it holds and where. */
struct wsrc {
	const char *ctrl;	/* its controller's hierarchy (NULL: rg->m) */
	const char *file;
	enum wfmt fmt;
	int fig;		/* W_FLAT, W_LINES, W_PSI, W_SHARES */
	unsigned int div;	/* W_FLAT: value / div (ns -> usec); v1 cpu.shares: 0 */
	/* W_KEYED: key -> figure, key2 -> fig2 (NULL: none) */
	const char *key, *key2;
	int fig2;
	unsigned int kdiv;	/* W_KEYED: both values / kdiv */
};

#define SETTING(f) ((f) >= KATTR_RG_W_FIRST_SETTING)
#define FLAT(c, f, fig, div) { c, f, W_FLAT, fig, div, NULL, NULL, 0, 1 }
#define KEYED(c, f, k, fig, k2, fig2, div) { c, f, W_KEYED, -1, 1, k, k2, fig2, div }

static const struct wsrc v2_src[] = {
	{ NULL, "cgroup.procs", W_LINES, KATTR_RG_W_TASKS, 1, NULL, NULL, 0, 1 },
	{ NULL, "cpu.stat", W_KEYED, KATTR_RG_W_CPU_USEC, 1, "usage_usec",
	  "throttled_usec", KATTR_RG_W_THROTTLED_USEC, 1 },
	FLAT("memory", "memory.current", KATTR_RG_W_MEM_CURRENT, 1),
	{ "memory", "memory.events", W_KEYED, KATTR_RG_W_OOM_KILL, 1, "oom_kill",
	  NULL, 0, 1 },
	{ "io", "io.stat", W_IO_STAT, -1, 1, NULL, NULL, 0, 1 },
	FLAT("pids", "pids.current", KATTR_RG_W_PIDS_CURRENT, 1),
	{ "pids", "pids.events", W_KEYED, KATTR_RG_W_PIDS_EV_MAX, 1, "max", NULL, 0, 1 },
	{ NULL, "cpu.pressure", W_PSI, KATTR_RG_W_PSI_CPU, 1, NULL, NULL, 0, 1 },
	{ NULL, "memory.pressure", W_PSI, KATTR_RG_W_PSI_MEM, 1, NULL, NULL, 0, 1 },
	{ NULL, "io.pressure", W_PSI, KATTR_RG_W_PSI_IO, 1, NULL, NULL, 0, 1 },
	FLAT("cpu", "cpu.weight", KATTR_RG_W_CPU_WEIGHT, 1),
	FLAT("memory", "memory.high", KATTR_RG_W_MEM_HIGH, 1),
	FLAT("memory", "memory.max", KATTR_RG_W_MEM_MAX, 1),
	FLAT("pids", "pids.max", KATTR_RG_W_PIDS_MAX, 1),
};

static const struct wsrc v1_src[] = {
	{ NULL, "cgroup.procs", W_LINES, KATTR_RG_W_TASKS, 1, NULL, NULL, 0, 1 },
	FLAT("cpuacct", "cpuacct.usage", KATTR_RG_W_CPU_USEC, 1000),
	{ "cpu", "cpu.stat", W_KEYED, -1, 1, "throttled_time",
	  NULL, KATTR_RG_W_THROTTLED_USEC, 1000 },
	FLAT("memory", "memory.usage_in_bytes", KATTR_RG_W_MEM_CURRENT, 1),
	{ "memory", "memory.oom_control", W_KEYED, KATTR_RG_W_OOM_KILL, 1, "oom_kill",
	  NULL, 0, 1 },
	{ "blkio", "blkio.throttle.io_service_bytes", W_BLKIO, -1, 1, NULL, NULL, 0, 1 },
	FLAT("pids", "pids.current", KATTR_RG_W_PIDS_CURRENT, 1),
	{ "pids", "pids.events", W_KEYED, KATTR_RG_W_PIDS_EV_MAX, 1, "max", NULL, 0, 1 },
	{ "cpuacct", "cpu.pressure", W_PSI, KATTR_RG_W_PSI_CPU, 1, NULL, NULL, 0, 1 },
	{ "memory", "memory.pressure", W_PSI, KATTR_RG_W_PSI_MEM, 1, NULL, NULL, 0, 1 },
	{ "blkio", "io.pressure", W_PSI, KATTR_RG_W_PSI_IO, 1, NULL, NULL, 0, 1 },
	FLAT("cpu", "cpu.shares", KATTR_RG_W_CPU_WEIGHT, 0),
	FLAT("memory", "memory.limit_in_bytes", KATTR_RG_W_MEM_MAX, 1),
	FLAT("pids", "pids.max", KATTR_RG_W_PIDS_MAX, 1),
};

static const struct wsrc rgcs_src[] = {
	{ NULL, "members", W_LINES, KATTR_RG_W_TASKS, 1, NULL, NULL, 0, 1 },
	{ NULL, "shares", W_SHARES, KATTR_RG_W_CPU_WEIGHT, 1, NULL, NULL, 0, 1 },
};

#define NSRC(t) (sizeof(t) / sizeof((t)[0]))
#define MAX_SRC 16

struct kattr_rg_watch {
	struct kattr_rg *rg;
	char *group;
	enum kattr_rg_backend b;
	const struct wsrc *src;
	size_t nsrc;
	int fd[MAX_SRC];	/* -1: the group has no such file; -2: not opened yet */
};
#define NOT_OPEN (-2)

static const char *const fig_names[KATTR_RG_W_NR] = {
	[KATTR_RG_W_TASKS] = "tasks",
	[KATTR_RG_W_CPU_USEC] = "cpu.usage_usec",
	[KATTR_RG_W_THROTTLED_USEC] = "cpu.throttled_usec",
	[KATTR_RG_W_MEM_CURRENT] = "memory.current",
	[KATTR_RG_W_OOM_KILL] = "memory.events.oom_kill",
	[KATTR_RG_W_IO_RBYTES] = "io.rbytes",
	[KATTR_RG_W_IO_WBYTES] = "io.wbytes",
	[KATTR_RG_W_PIDS_CURRENT] = "pids.current",
	[KATTR_RG_W_PIDS_EV_MAX] = "pids.events.max",
	[KATTR_RG_W_PSI_CPU] = "cpu.pressure.some.avg10",
	[KATTR_RG_W_PSI_MEM] = "memory.pressure.some.avg10",
	[KATTR_RG_W_PSI_IO] = "io.pressure.some.avg10",
	[KATTR_RG_W_CPU_WEIGHT] = "cpu.weight",
	[KATTR_RG_W_MEM_HIGH] = "memory.high",
	[KATTR_RG_W_MEM_MAX] = "memory.max",
	[KATTR_RG_W_PIDS_MAX] = "pids.max",
};

const char *kattr_rg_wfig_name(enum kattr_rg_wfig f)
{
	return (unsigned int)f < KATTR_RG_W_NR ? fig_names[f] : NULL;
}

static const struct wsrc *table_of(enum kattr_rg_backend b, size_t *n)
{
	switch (b) {
	case KATTR_RG_CGROUP2:
		*n = NSRC(v2_src);
		return v2_src;
	case KATTR_RG_CGROUP1:
		*n = NSRC(v1_src);
		return v1_src;
	default:
		*n = NSRC(rgcs_src);
		return rgcs_src;
	}
}

/* ---- parsing ----------------------------------------------------------- */

/* A decimal number at *p (advanced past it); false when none. */
static bool num(const char **p, long long *out)
{
	const char *s = *p;
	long long v = 0;

	if (!isdigit((unsigned char)*s))
		return false;
	for (; isdigit((unsigned char)*s); s++)
		if (__builtin_mul_overflow(v, 10LL, &v) ||
		    __builtin_add_overflow(v, (long long)(*s - '0'), &v))
			v = LLONG_MAX - 1;
	*p = s;
	*out = v;
	return true;
}

/* a + b, saturated (sums over devices of the kernel's 64-bit counters) */
static long long sat_add(long long a, long long b)
{
	long long r;

	return __builtin_add_overflow(a, b, &r) ? LLONG_MAX - 1 : r;
}

/* v1 memory and pids limits read as 2^63-1 rounded down to a page. */
#define V1_NONE	(LLONG_MAX - 65535)

static void parse_flat(const struct wsrc *s, const char *text, long long *v)
{
	long long n;

	while (*text == ' ')
		text++;
	if (strncmp(text, "max", 3) == 0) {	/* a limit's; never a weight */
		if (s->fig != KATTR_RG_W_CPU_WEIGHT)
			v[s->fig] = KATTR_RG_W_UNLIMITED;
		return;
	}
	if (!num(&text, &n))
		return;
	if (s->div == 0) {	/* cpu.shares: libcgroup 3's 1024 = 100 */
		n = n > 102400 ? 10000 : (n * 100 + 512) / 1024;	/* 10000 at most */
		n = n < 1 ? 1 : n;
	} else if (n >= V1_NONE && SETTING(s->fig)) {
		n = KATTR_RG_W_UNLIMITED;
	} else {
		n /= s->div;
	}
	v[s->fig] = n;
}

static void parse_lines(const struct wsrc *s, const char *text, long long *v)
{
	long long n = 0;

	for (; *text; text++)
		n += *text == '\n';
	v[s->fig] = n;
}

/* The value after key (a word at a line's start), or false. */
static bool keyed(const char *text, const char *key, long long *out)
{
	size_t klen = strlen(key);

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p) {
		const char *q = p + klen;

		if (strncmp(p, key, klen) != 0 || *q != ' ')
			continue;
		while (*q == ' ')
			q++;
		return num(&q, out);
	}
	return false;
}

static void parse_keyed(const struct wsrc *s, const char *text, long long *v)
{
	long long n;

	if (s->fig >= 0 && keyed(text, s->key, &n))
		v[s->fig] = n / s->kdiv;
	else if (s->fig < 0 && keyed(text, s->key, &n))
		v[s->fig2] = n / s->kdiv;
	if (s->key2 && keyed(text, s->key2, &n))
		v[s->fig2] = n / s->kdiv;
}

/* v2 io.stat: rbytes= and wbytes= summed over the devices. */
static void parse_io_stat(const char *text, long long *v)
{
	long long r = 0, w = 0, n;

	for (const char *p = text; *p; p++) {
		if ((p == text || p[-1] == ' ') && strncmp(p, "rbytes=", 7) == 0) {
			p += 7;
			if (num(&p, &n))
				r = sat_add(r, n);
		} else if ((p == text || p[-1] == ' ') && strncmp(p, "wbytes=", 7) == 0) {
			p += 7;
			if (num(&p, &n))
				w = sat_add(w, n);
		}
		if (!*p)
			break;
	}
	v[KATTR_RG_W_IO_RBYTES] = r;
	v[KATTR_RG_W_IO_WBYTES] = w;
}

/* v1 blkio: "8:0 Read 4096" lines summed ("Total N" skipped). */
static void parse_blkio(const char *text, long long *v)
{
	long long r = 0, w = 0, n;

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p) {
		const char *sp = strchr(p, ' '), *q;

		if (!sp || !memchr(p, ':', (size_t)(sp - p)))
			continue;
		q = sp + 1;
		if (strncmp(q, "Read ", 5) == 0 && (q += 5, num(&q, &n)))
			r = sat_add(r, n);
		else if (strncmp(q, "Write ", 6) == 0 && (q += 6, num(&q, &n)))
			w = sat_add(w, n);
	}
	v[KATTR_RG_W_IO_RBYTES] = r;
	v[KATTR_RG_W_IO_WBYTES] = w;
}

/* "some avg10=12.34 ...": 1234. */
static void parse_psi(const struct wsrc *s, const char *text, long long *v)
{
	long long whole, frac = 0;
	const char *p;

	if (strncmp(text, "some avg10=", 11) != 0)
		return;
	p = text + 11;
	if (!num(&p, &whole))
		return;
	if (*p == '.') {
		p++;
		if (isdigit((unsigned char)p[0]))
			frac = (p[0] - '0') * 10 + (isdigit((unsigned char)p[1]) ? p[1] - '0' : 0);
	}
	if (whole > 100 || whole * 100 + frac > 10000)	/* a percentage */
		return;
	v[s->fig] = whole * 100 + frac;
}

/* RGCS: the cpu line's min_shares (-3 don't care, -2 unsupported: n/a). */
static void parse_shares(const struct wsrc *s, const char *text, long long *v)
{
	const char *line = strstr(text, "res=cpu,");
	const char *ms = line ? strstr(line, "min_shares=") : NULL;
	const char *nl = line ? strchr(line, '\n') : NULL;
	long long n;

	v[s->fig] = KATTR_RG_W_NA;
	if (!ms || (nl && ms > nl))
		return;
	ms += 11;
	if (num(&ms, &n))
		v[s->fig] = n;
}

static void parse_src(const struct wsrc *s, const char *text, long long *v)
{
	switch (s->fmt) {
	case W_LINES: parse_lines(s, text, v); break;
	case W_FLAT: parse_flat(s, text, v); break;
	case W_KEYED: parse_keyed(s, text, v); break;
	case W_IO_STAT: parse_io_stat(text, v); break;
	case W_BLKIO: parse_blkio(text, v); break;
	case W_PSI: parse_psi(s, text, v); break;
	case W_SHARES: parse_shares(s, text, v); break;
	}
}

int kattr_rg_watch_parse(enum kattr_rg_backend b, const char *file,
			 const char *text, long long v[KATTR_RG_W_NR])
{
	size_t n;
	const struct wsrc *t = table_of(b, &n);

	for (size_t i = 0; i < n; i++) {
		if (strcmp(t[i].file, file) == 0) {
			parse_src(&t[i], text, v);
			return 0;
		}
	}
	return -EINVAL;
}

/* ---- reading ----------------------------------------------------------- */

void kattr_rg_watch_close(struct kattr_rg_watch *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->nsrc; i++)
		if (w->fd[i] >= 0)
			close(w->fd[i]);
	free(w->group);
	free(w);
}

/* Source i's file, opened on first use (an idle group's counters never
 * are); -1 when the group has none. */
static int src_fd(struct kattr_rg_watch *w, size_t i)
{
	const struct wsrc *s = &w->src[i];
	struct kattr_mount *m = w->rg->m;
	char path[PATH_MAX];

	if (w->fd[i] != NOT_OPEN)
		return w->fd[i];
	w->fd[i] = -1;
	if (s->ctrl && w->b == KATTR_RG_CGROUP1 && rg_hier_mount(w->rg, s->ctrl, &m) < 0)
		return -1;
	if (rg_gpath(path, sizeof(path), w->group, s->file) < 0)
		return -1;
	w->fd[i] = kattr_open(m, path, O_RDONLY | O_CLOEXEC);
	if (w->fd[i] < 0)
		w->fd[i] = -1;
	return w->fd[i];
}

int kattr_rg_watch_open(struct kattr_rg *rg, const char *group,
			struct kattr_rg_watch **out)
{
	struct kattr_rg_watch *w;
	int ret = kattr_rg_exists(rg, group);

	if (ret < 0)
		return ret;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->group = strdup(group);
	if (!w->group) {
		free(w);
		return -ENOMEM;
	}
	w->rg = rg;
	w->b = rg->ops->id;
	w->src = table_of(w->b, &w->nsrc);
	for (size_t i = 0; i < w->nsrc; i++)
		w->fd[i] = NOT_OPEN;
	*out = w;
	return 0;
}

/* The whole file at fd (W_LINES: its newlines counted in chunks); -errno. */
static int read_src(int fd, const struct wsrc *s, long long *v)
{
	char buf[8192];
	long long lines = 0;
	off_t off = 0;
	ssize_t n;

	for (;;) {
		n = pread(fd, buf, sizeof(buf) - 1, off);
		if (n < 0)
			return -errno;
		if (s->fmt != W_LINES)
			break;
		for (ssize_t i = 0; i < n; i++)
			lines += buf[i] == '\n';
		off += n;
		if (n < (ssize_t)sizeof(buf) - 1)	/* a short read: the end */
			break;
	}
	if (s->fmt == W_LINES) {
		v[s->fig] = lines;
		return 0;
	}
	buf[n] = '\0';
	parse_src(s, buf, v);
	return 0;
}

/* The index of the source of figure f (its file there), or -1. */
static int src_of(struct kattr_rg_watch *w, int f)
{
	for (size_t i = 0; i < w->nsrc; i++)
		if (w->src[i].fig == f && src_fd(w, i) >= 0)
			return (int)i;
	return -1;
}

/* Whether source s is read with flags (idle: its CPU time has not moved:
 * no task ran there since the last read). */
static bool wanted(const struct wsrc *s, unsigned int flags, bool idle)
{
	bool settings = flags & KATTR_RG_WATCH_SETTINGS;

	if (SETTING(s->fig))
		return settings;
	if (!idle)
		return true;
	/* the event counters too: what comes later counts from them */
	return settings && (s->fig == KATTR_RG_W_MEM_CURRENT || s->fig == KATTR_RG_W_TASKS ||
			    s->fig == KATTR_RG_W_PIDS_CURRENT || s->fig == KATTR_RG_W_OOM_KILL ||
			    s->fig == KATTR_RG_W_PIDS_EV_MAX ||
			    (s->fig >= KATTR_RG_W_PSI_CPU && s->fig <= KATTR_RG_W_PSI_IO));
}

int kattr_rg_watch_read(struct kattr_rg_watch *w, unsigned int flags,
			long long v[KATTR_RG_W_NR])
{
	long long t[KATTR_RG_W_NR], cpu = v[KATTR_RG_W_CPU_USEC];
	int c = -1, ret;
	bool idle = false;

	memcpy(t, v, sizeof(t));
	if (flags & KATTR_RG_WATCH_IDLE)
		c = src_of(w, KATTR_RG_W_CPU_USEC);
	if (c >= 0) {	/* the CPU time first: unmoved, nothing else moved */
		ret = read_src(w->fd[c], &w->src[c], t);
		if (ret == -ENODEV || ret == -ENOENT)
			return -ENOENT;
		idle = ret == 0 && (cpu < 0 || t[KATTR_RG_W_CPU_USEC] == cpu);
	}
	for (int f = 0; f < KATTR_RG_W_NR; f++)
		if (!idle && f != KATTR_RG_W_CPU_USEC &&
		    (!SETTING(f) || (flags & KATTR_RG_WATCH_SETTINGS)))
			t[f] = KATTR_RG_W_NA;
	for (size_t i = 0; i < w->nsrc; i++) {
		const struct wsrc *s = &w->src[i];

		if ((int)i == c || !wanted(s, flags, idle) || src_fd(w, i) < 0)
			continue;
		ret = read_src(w->fd[i], s, t);
		if (ret == -ENODEV || ret == -ENOENT)
			return -ENOENT;
		/* EOPNOTSUPP: a PSI file of a kernel booted with psi=0 */
	}
	memcpy(v, t, sizeof(t));
	return 0;
}
