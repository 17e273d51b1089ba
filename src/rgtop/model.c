// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The groups below the watched one, kept open between snapshots
 * (kattr_rg_watch: pread(2) of open files each tick).  The tree is walked
 * again only every few seconds, to find new groups; one removed meanwhile
 * leaves at its first failed read, without an error.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kattr/kattr.h"
#include "rgtop.h"
#include "xalloc.h"

/* A group using at least this much CPU (percent of one) competes. */
#define BUSY_PCT 0.5

static double secs_between(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

static void group_free(struct tgroup *g)
{
	if (!g)
		return;
	kattr_rg_watch_close(g->w);
	free(g->path);
	free(g);
}

/* The name kattr_rg_* take: "/" or "db/batch". */
static const char *gname(const struct tgroup *g)
{
	return g->path[1] ? g->path + 1 : g->path;
}

static int by_path(const void *a, const void *b)
{
	return strcmp((*(struct tgroup *const *)a)->path, (*(struct tgroup *const *)b)->path);
}

/* A group whose CPU time did not move is read for it alone. */
static unsigned int idle(const struct tgroup *g)
{
	(void)g;
	return KATTR_RG_WATCH_IDLE;
}

/* No task ran in g since top started: its counters were never read. */
static bool never_ran(const struct tgroup *g)
{
	return g->cur[KATTR_RG_W_CPU_USEC] >= 0 &&
	       g->cur[KATTR_RG_W_CPU_USEC] == g->first[KATTR_RG_W_CPU_USEC];
}

struct scan {
	struct model *m;
	struct tgroup **old;	/* the groups before, by path */
	size_t nold;
	struct tgroup **g;	/* the tree now */
	size_t n, cap;
};

/* The group of path: the one watched already, or newly opened (NULL:
 * gone meanwhile). */
static struct tgroup *group_at(struct scan *s, const char *path, unsigned int depth)
{
	struct tgroup key = { .path = (char *)path }, *kp = &key, **hit = NULL, *g;
	int ret;

	if (s->nold)
		hit = bsearch(&kp, s->old, s->nold, sizeof(*s->old), by_path);
	if (hit) {
		g = *hit;
		if (kattr_rg_watch_read(g->w, KATTR_RG_WATCH_SETTINGS | idle(g), g->cur) < 0)
			return NULL;
		g->seen = true;
		return g;
	}
	g = xcalloc(1, sizeof(*g));
	g->path = xstrdup(path);
	g->name = strrchr(g->path, '/') + (path[1] ? 1 : 0);
	g->depth = depth;
	ret = kattr_rg_watch_open(s->m->rg, gname(g), &g->w);
	if (ret == -ENOMEM)
		xalloc_die();
	for (int i = 0; i < KATTR_RG_W_NR; i++)
		g->cur[i] = KATTR_RG_W_NA;
	if (ret < 0 || kattr_rg_watch_read(g->w, KATTR_RG_WATCH_SETTINGS | KATTR_RG_WATCH_IDLE,
					   g->cur) < 0) {
		group_free(g);
		return NULL;
	}
	memcpy(g->first, g->cur, sizeof(g->first));
	g->seen = true;
	g->fresh = true;
	return g;
}

/* path and the groups below it, in tree order. */
static void walk(struct scan *s, const char *path, unsigned int depth)
{
	struct tgroup *g = group_at(s, path, depth);
	struct kattr_mount *mnt = kattr_rg_mount(s->m->rg);
	const char *rel = path[1] ? path + 1 : ".";
	struct kattr_dirent *ents = NULL;
	struct stat st;
	size_t n = 0;

	if (!g)
		return;
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 64;
		s->g = xreallocarray(s->g, s->cap, sizeof(*s->g));
	}
	s->g[s->n++] = g;
	/* a cgroup directory's links are its subdirectories + 2 (kernfs):
	 * a leaf is not listed */
	if (kattr_rg_backend_of(s->m->rg) != KATTR_RG_RGCS &&
	    kattr_stat(mnt, rel, &st) == 0 && st.st_nlink == 2)
		return;
	if (kattr_list(mnt, rel, &ents, &n) < 0)
		return;
	for (size_t i = 0; i < n; i++) {
		char *child;

		if (ents[i].type != DT_DIR ||
		    kattr_rg_name_check(ents[i].name, false, NULL) < 0 ||
		    strchr(ents[i].name, '/'))
			continue;
		if (asprintf(&child, "%s%s%s", path, path[1] ? "/" : "", ents[i].name) < 0)
			xalloc_die();
		walk(s, child, depth + 1);
		free(child);
	}
	kattr_list_free(ents, n);
}

/* Each group's parent: the last group before it one level up. */
static void link_parents(struct model *m)
{
	size_t stack[64];

	for (size_t i = 0; i < m->n; i++) {
		unsigned int d = m->g[i]->depth;

		m->g[i]->parent = d && d <= 64 ? stack[d - 1] : SIZE_MAX;
		if (d < 64)
			stack[d] = i;
	}
}

static void scan(struct model *m)
{
	struct scan s = { .m = m, .old = m->g, .nold = m->n };
	char top[PATH_MAX];

	if (s.nold)
		qsort(s.old, s.nold, sizeof(*s.old), by_path);
	for (size_t i = 0; i < s.nold; i++)
		s.old[i]->seen = false;
	snprintf(top, sizeof(top), "%s%s", kattr_rg_name_is_root(m->top) ? "" : "/",
		 kattr_rg_name_is_root(m->top) ? "/" : m->top);
	walk(&s, top, 0);
	for (size_t i = 0; i < s.nold; i++)
		if (!s.old[i]->seen)
			group_free(s.old[i]);
	free(s.old);
	m->g = s.g;
	m->n = s.n;
	link_parents(m);
	m->scanned = m->at;
}

/* Drop the groups gone (their reads failed): gone[i]. */
static void drop(struct model *m, const bool *gone)
{
	size_t k = 0;

	for (size_t i = 0; i < m->n; i++) {
		if (gone[i])
			group_free(m->g[i]);
		else
			m->g[k++] = m->g[i];
	}
	m->n = k;
	link_parents(m);
}

/* A counter's change per second (NA without two readings or on a reset;
 * 0 for a group where no task ran, whose counters are not read). */
static double rate(const struct model *m, const struct tgroup *g, int f)
{
	if (g->has_prev && g->cur[f] < 0 && never_ran(g))
		return 0;
	if (!g->has_prev || g->cur[f] < 0 || g->prev[f] < 0 || g->cur[f] < g->prev[f] ||
	    m->interval <= 0)
		return TOP_NA;
	return (double)(g->cur[f] - g->prev[f]) / m->interval;
}

static double figure(const struct tgroup *g, int f)
{
	if (g->cur[f] == KATTR_RG_W_UNLIMITED)
		return INFINITY;
	return g->cur[f] < 0 ? TOP_NA : (double)g->cur[f];
}

/* A counter's growth since the group was first read. */
static double since(struct tgroup *g, int f)
{
	if (g->cur[f] < 0 && never_ran(g))
		return 0;	/* never a task since top started */
	if (g->cur[f] < 0)
		return TOP_NA;
	if (g->first[f] < 0 || g->first[f] > g->cur[f])
		g->first[f] = g->cur[f];
	return (double)(g->cur[f] - g->first[f]);
}

static void columns_of(const struct model *m, struct tgroup *g)
{
	double *v = g->val, r;

	v[TC_TASKS] = figure(g, KATTR_RG_W_TASKS);
	r = rate(m, g, KATTR_RG_W_CPU_USEC);
	v[TC_CPU] = r < 0 ? TOP_NA : r / 1e4;	/* usec/s: percent of one CPU */
	v[TC_WEIGHT] = figure(g, KATTR_RG_W_CPU_WEIGHT);
	v[TC_MEM] = figure(g, KATTR_RG_W_MEM_CURRENT);
	v[TC_MEMHIGH] = figure(g, KATTR_RG_W_MEM_HIGH);
	v[TC_MEMMAX] = figure(g, KATTR_RG_W_MEM_MAX);
	v[TC_OOM] = since(g, KATTR_RG_W_OOM_KILL);
	v[TC_IOR] = rate(m, g, KATTR_RG_W_IO_RBYTES);
	v[TC_IOW] = rate(m, g, KATTR_RG_W_IO_WBYTES);
	v[TC_PIDS] = figure(g, KATTR_RG_W_PIDS_CURRENT);
	v[TC_PIDSMAX] = figure(g, KATTR_RG_W_PIDS_MAX);
	v[TC_PIDSEV] = since(g, KATTR_RG_W_PIDS_EV_MAX);
	r = rate(m, g, KATTR_RG_W_THROTTLED_USEC);
	v[TC_THROTTLED] = r < 0 ? TOP_NA : r / 1e4;
	v[TC_PSICPU] = g->cur[KATTR_RG_W_PSI_CPU] < 0 ? TOP_NA : (double)g->cur[KATTR_RG_W_PSI_CPU] / 100;
	v[TC_PSIMEM] = g->cur[KATTR_RG_W_PSI_MEM] < 0 ? TOP_NA : (double)g->cur[KATTR_RG_W_PSI_MEM] / 100;
	v[TC_PSIIO] = g->cur[KATTR_RG_W_PSI_IO] < 0 ? TOP_NA : (double)g->cur[KATTR_RG_W_PSI_IO] / 100;
	v[TC_GROUP] = TOP_NA;
}

/*
 * The weight's promise and the share got, among siblings: expected is the
 * weight over the weights of the siblings competing (using CPU, itself
 * counted either way; when none is, over all the siblings' weights),
 * actual its CPU time over theirs.
 */
static void shares(struct model *m)
{
	double *busyw = xcalloc(m->n + 1, sizeof(double));
	double *used = xcalloc(m->n + 1, sizeof(double));
	double *allw = xcalloc(m->n + 1, sizeof(double));

	for (size_t i = 0; i < m->n; i++) {
		const struct tgroup *g = m->g[i];

		if (g->parent == SIZE_MAX || g->val[TC_CPU] < 0)
			continue;
		used[g->parent] += g->val[TC_CPU];
		if (g->val[TC_WEIGHT] > 0 && isfinite(g->val[TC_WEIGHT]))
			allw[g->parent] += g->val[TC_WEIGHT];
		if (g->val[TC_CPU] >= BUSY_PCT && g->val[TC_WEIGHT] > 0)
			busyw[g->parent] += g->val[TC_WEIGHT];
	}
	for (size_t i = 0; i < m->n; i++) {
		struct tgroup *g = m->g[i];
		double w = g->val[TC_WEIGHT], all;

		g->val[TC_EXPECT] = g->val[TC_SHARE] = TOP_NA;
		if (g->parent == SIZE_MAX || g->val[TC_CPU] < 0)
			continue;
		/* none competing: the weights' promise among all siblings */
		all = busyw[g->parent] ? busyw[g->parent] + (g->val[TC_CPU] >= BUSY_PCT ? 0 : w) :
		      allw[g->parent];
		if (w > 0 && isfinite(w) && all > 0)
			g->val[TC_EXPECT] = 100 * w / all;
		if (used[g->parent] > 0)
			g->val[TC_SHARE] = 100 * g->val[TC_CPU] / used[g->parent];
	}
	free(busyw);
	free(used);
	free(allw);
}

int model_update(struct model *m)
{
	bool rescan, *gone, any = false;

	m->prev_at = m->at;
	clock_gettime(CLOCK_MONOTONIC, &m->at);
	m->interval = m->n ? secs_between(&m->prev_at, &m->at) : 0;
	for (size_t i = 0; i < m->n; i++)
		memcpy(m->g[i]->prev, m->g[i]->cur, sizeof(m->g[i]->prev));
	rescan = !m->n || secs_between(&m->scanned, &m->at) >= m->rescan;
	if (rescan)
		scan(m);	/* reads every group, the settings too */
	gone = xcalloc(m->n + 1, sizeof(*gone));
	for (size_t i = 0; i < m->n; i++) {
		struct tgroup *g = m->g[i];

		if (g->fresh) {
			g->fresh = false;
			continue;
		}
		if (!rescan && kattr_rg_watch_read(g->w, idle(g), g->cur) < 0) {
			gone[i] = any = true;
			continue;
		}
		g->has_prev = true;
	}
	if (any)
		drop(m, gone);
	free(gone);
	if (!m->n)
		return -ENOENT;
	for (size_t i = 0; i < m->n; i++)
		columns_of(m, m->g[i]);
	shares(m);
	return 0;
}

int model_init(struct model *m, struct kattr_rg *rg, const char *top)
{
	int ret;

	memset(m, 0, sizeof(*m));
	m->rg = rg;
	m->top = top;
	/* RGCS: a removed group's open files may still read (configfs, the
	 * emulator): its trees are small, walk them at every read */
	m->rescan = kattr_rg_backend_of(rg) == KATTR_RG_RGCS ? 0 : 5;
	/* opening every group's files takes a while (1,000 groups: 0.1 to
	 * 1 s): read them all again at once, so that the first interval
	 * starts at the same moment for every group */
	ret = model_update(m);
	if (ret == 0)
		ret = model_update(m);
	/* no rates yet: they come with the first interval */
	for (size_t i = 0; ret == 0 && i < m->n; i++) {
		m->g[i]->has_prev = false;
		columns_of(m, m->g[i]);
	}
	if (ret == 0)
		shares(m);
	return ret;
}

void model_free(struct model *m)
{
	for (size_t i = 0; i < m->n; i++)
		group_free(m->g[i]);
	free(m->g);
	m->g = NULL;
	m->n = 0;
}

/* ---- order ------------------------------------------------------------- */

struct order {
	const struct model *m;
	int col;
	const char *filter;
	size_t *out, n;
	size_t *kids;		/* children of each group, by parent */
	size_t *nkids, *kid0;
};

static const struct order *cmp_ctx;

/* Highest first (n/a last), names A-Z; ties by path. */
static int cmp_groups(const void *a, const void *b)
{
	const struct tgroup *x = cmp_ctx->m->g[*(const size_t *)a];
	const struct tgroup *y = cmp_ctx->m->g[*(const size_t *)b];
	double vx = x->val[cmp_ctx->col], vy = y->val[cmp_ctx->col];

	if (cmp_ctx->col != TC_GROUP && vx != vy)
		return vx < vy ? 1 : -1;
	return strcmp(x->path, y->path);
}

static bool shown(const struct order *o, const struct tgroup *g)
{
	return !o->filter || !*o->filter || strstr(g->path, o->filter);
}

static void dfs(struct order *o, size_t i)
{
	size_t *k = o->kids + o->kid0[i];

	if (shown(o, o->m->g[i]))
		o->out[o->n++] = i;
	qsort(k, o->nkids[i], sizeof(*k), cmp_groups);
	for (size_t j = 0; j < o->nkids[i]; j++)
		dfs(o, k[j]);
}

size_t model_order(const struct model *m, int col, bool flat,
		   const char *filter, size_t **out)
{
	struct order o = { .m = m, .col = col, .filter = filter };
	size_t *fill;

	o.out = xcalloc(m->n + 1, sizeof(size_t));
	cmp_ctx = &o;
	if (flat) {
		for (size_t i = 0; i < m->n; i++)
			if (shown(&o, m->g[i]))
				o.out[o.n++] = i;
		qsort(o.out, o.n, sizeof(size_t), cmp_groups);
		*out = o.out;
		return o.n;
	}
	o.kids = xcalloc(m->n + 1, sizeof(size_t));
	o.nkids = xcalloc(m->n + 1, sizeof(size_t));
	o.kid0 = xcalloc(m->n + 1, sizeof(size_t));
	fill = xcalloc(m->n + 1, sizeof(size_t));
	for (size_t i = 0; i < m->n; i++)
		if (m->g[i]->parent != SIZE_MAX)
			o.nkids[m->g[i]->parent]++;
	for (size_t i = 1; i < m->n; i++)
		o.kid0[i] = o.kid0[i - 1] + o.nkids[i - 1];
	for (size_t i = 0; i < m->n; i++) {
		size_t p = m->g[i]->parent;

		if (p != SIZE_MAX)
			o.kids[o.kid0[p] + fill[p]++] = i;
	}
	for (size_t i = 0; i < m->n; i++)
		if (m->g[i]->parent == SIZE_MAX)
			dfs(&o, i);
	free(fill);
	free(o.kids);
	free(o.nkids);
	free(o.kid0);
	*out = o.out;
	return o.n;
}

/* ---- cells ------------------------------------------------------------- */

void top_bytes(char *buf, size_t size, double v)
{
	tool_human_bytes(buf, size, v, "");
}

void top_cell(const struct tgroup *g, int col, bool raw, char *buf, size_t size)
{
	double v = g->val[col];

	if (col == TC_GROUP) {
		snprintf(buf, size, "%s", g->path);
		return;
	}
	if (v < 0 || isnan(v)) {
		snprintf(buf, size, "-");
		return;
	}
	if (isinf(v)) {
		snprintf(buf, size, "max");
		return;
	}
	switch (col) {
	case TC_CPU: case TC_EXPECT: case TC_SHARE: case TC_THROTTLED:
		snprintf(buf, size, "%.1f", v);
		break;
	case TC_PSICPU: case TC_PSIMEM: case TC_PSIIO:
		snprintf(buf, size, "%.2f", v);
		break;
	case TC_MEM: case TC_MEMHIGH: case TC_MEMMAX: case TC_IOR: case TC_IOW:
		if (!raw) {
			top_bytes(buf, size, v);
			break;
		}
		/* fall through */
	default:
		snprintf(buf, size, "%.0f", v);
	}
}
