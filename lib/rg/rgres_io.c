// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A group's resources, read from and written to the kernel's files.  One
 * handle per group; each controller's hierarchy is found by mount (cgroup
 * v1 mounts every controller on its own hierarchy, or several together):
 * the group is the directory at the same place below that mount as below
 * the handle's own.  cgroup v2 and RGCS have one hierarchy.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kattr/rgres.h"
#include "kattr/private_rg.h"
#include "rg_internal.h"

struct kattr_rgres_group {
	struct kattr_rg *rg;
	enum kattr_rg_backend b;
	char *group;		/* "" for the root */
};

int kattr_rgres_open(struct kattr_rg *rg, const char *group,
		     struct kattr_rgres_group **out)
{
	struct kattr_rgres_group *g;
	int ret = kattr_rg_name_check(group, true, NULL);

	if (ret < 0)
		return ret;
	g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	g->rg = rg;
	g->b = kattr_rg_backend_of(rg);
	g->group = strdup(kattr_rg_name_is_root(group) ? "" : group);
	if (!g->group)
		ret = -ENOMEM;
	if (ret < 0) {
		kattr_rgres_close(g);
		return ret;
	}
	*out = g;
	return 0;
}

void kattr_rgres_close(struct kattr_rgres_group *g)
{
	if (!g)
		return;
	free(g->group);
	free(g);
}

/* The mount holding ctrl's files for g (cgroup v1: that controller's
 * hierarchy, kept in the handle); -ENODEV when there is none. */
static int hier_of(struct kattr_rgres_group *g, const char *ctrl,
		   struct kattr_mount **m)
{
	return rg_hier_mount(g->rg, ctrl, m);
}

/* "group/file", "file" for the root group. */
static int gfile(char *buf, size_t size, const char *group, const char *file)
{
	int n = group[0] ? snprintf(buf, size, "%s/%s", group, file) :
		snprintf(buf, size, "%s", file);

	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

static bool file_exists(struct kattr_mount *m, const char *group,
			const char *file)
{
	char path[PATH_MAX];
	struct stat st;

	return gfile(path, sizeof(path), group, file) == 0 &&
	       kattr_stat(m, path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Where a setting lives for the group. */
struct loc {
	struct kattr_mount *m;
	const char *files[KATTR_RGRES_IO_FIELDS];
	size_t nfiles;
	bool need_enable;	/* cgroup v2: ctrl not enabled above */
};

static int why_is(const char **why, const char *text, int err)
{
	if (why)
		*why = text;
	return err;
}

/* The files of res: one, two (v1 cpu.max: quota, period) or four (v1 io). */
static void loc_files(struct kattr_rgres_group *g, const struct kattr_rgres *res,
		      struct loc *l)
{
	const struct kattr_rgres_file *f = &res->be[g->b];

	l->nfiles = 1;
	l->files[0] = f->file;
	if (res->type == KATTR_RGRES_CPU_MAX && f->file2) {
		l->files[1] = f->file2;
		l->nfiles = 2;
	} else if (res->type == KATTR_RGRES_IO_MAX) {
		l->nfiles = g->b == KATTR_RG_CGROUP1 ? KATTR_RGRES_IO_FIELDS : 1;
		for (int i = 0; i < (int)l->nfiles; i++)
			l->files[i] = kattr_rgres_io_file(g->b, i);
	} else if (f->file2 && g->b != KATTR_RG_RGCS &&
		   !file_exists(l->m, g->group, f->file) &&
		   file_exists(l->m, g->group, f->file2)) {
		l->files[0] = f->file2;	/* io.bfq.weight */
	}
}

/* cgroup v2: whether ctrl is in the group's cgroup.controllers (enabled
 * in its parent's subtree_control); unreadable: no. */
static bool ctrl_in(struct kattr_mount *m, const char *group, const char *ctrl)
{
	char path[PATH_MAX];

	return gfile(path, sizeof(path), group, "cgroup.controllers") == 0 &&
	       rg_file_has_word(m, path, ctrl) > 0;
}

static int locate(struct kattr_rgres_group *g, const struct kattr_rgres *res,
		  struct loc *l, const char **why)
{
	const struct kattr_rgres_file *f = &res->be[g->b];
	struct stat st;
	int ret;

	memset(l, 0, sizeof(*l));
	if (!f->file)
		return why_is(why, f->why, -EOPNOTSUPP);
	ret = hier_of(g, f->ctrl, &l->m);
	if (ret == -ENODEV)
		return why_is(why, "no cgroup v1 hierarchy has its controller", ret);
	if (ret < 0)
		return ret;
	if (g->b == KATTR_RG_CGROUP2 &&
	    rg_file_has_word(l->m, "cgroup.controllers", f->ctrl) <= 0)
		return why_is(why, "its controller is not in the root's cgroup.controllers", -ENODEV);
	ret = kattr_stat(l->m, g->group[0] ? g->group : ".", &st);
	if (ret < 0)
		return why_is(why, "the group has no directory in that hierarchy", ret);
	loc_files(g, res, l);
	if (file_exists(l->m, g->group, l->files[0]))
		return 0;
	if (!g->group[0])
		return why_is(why, "the root group has no such file", -ENXIO);
	/* cgroup v2: the files appear once the parent enables the controller
	 * (io.weight only where iocost or BFQ keeps weights) */
	if (g->b == KATTR_RG_CGROUP2 && (strcmp(res->key, "io.weight") != 0 ||
					 !ctrl_in(l->m, g->group, f->ctrl))) {
		l->need_enable = true;
		return why_is(why, "its controller is not enabled above the group", -ENXIO);
	}
	if (strcmp(res->key, "io.weight") == 0)
		return why_is(why, "no weight file: the I/O scheduler keeps no group weights (BFQ, or io.cost on cgroup v2, does)",
			      -ENXIO);
	return why_is(why, "no such file in the group", -ENXIO);
}

int kattr_rgres_ctrl_off(struct kattr_rgres_group *g, const struct kattr_rgres *res)
{
	struct loc l;
	int ret = locate(g, res, &l, NULL);

	if (ret == -ENXIO && l.need_enable)
		return 1;
	return ret < 0 && ret != -ENXIO ? ret : 0;
}

int kattr_rgres_where(struct kattr_rgres_group *g,
		      const struct kattr_rgres *res, char *buf, size_t size,
		      struct kattr_why *why)
{
	const char *words = NULL;
	struct loc l;
	int ret = locate(g, res, &l, &words), n;

	kattr_why_words(why, ret, words);

	if (!l.m)
		return ret;
	n = snprintf(buf, size, "%s%s%s%s%s", kattr_mount_path(l.m),
		     strcmp(kattr_mount_path(l.m), "/") ? "/" : "", g->group,
		     g->group[0] && l.files[0] ? "/" : "",
		     l.files[0] ? l.files[0] : "");
	if (n < 0 || (size_t)n >= size)
		return ret < 0 ? ret : -ENAMETOOLONG;
	return ret;
}

static int read_file(struct kattr_mount *m, const char *group,
		     const char *file, char **text)
{
	char path[PATH_MAX];
	int ret = gfile(path, sizeof(path), group, file);

	return ret < 0 ? ret : kattr_read_alloc(m, path, text, NULL);
}

/* RGCS: res=cpu's min_shares (unset when negative). */
static int get_rgcs(struct kattr_rgres_group *g, const struct kattr_rgres *res,
		    struct kattr_rgres_value *v)
{
	struct kattr_rg_share *s;
	size_t n;
	int ret = kattr_rg_share_get(g->rg, g->group[0] ? g->group : "/", &s, &n);

	if (ret < 0)
		return ret;
	ret = -ENXIO;
	for (size_t i = 0; i < n; i++) {
		if (strcmp(s[i].res, res->be[KATTR_RG_RGCS].ctrl) != 0)
			continue;
		v->n = s[i].min_shares < 0 ? 0 : (uint64_t)s[i].min_shares;
		v->unset = s[i].min_shares < 0;
		ret = 0;
	}
	free(s);
	return ret;
}

static int get_files(struct kattr_rgres_group *g, const struct loc *l,
		     const struct kattr_rgres *res, struct kattr_rgres_vec *out)
{
	struct kattr_rgres_value one = { .res = res };
	int ret = 0;

	for (size_t i = 0; i < l->nfiles && ret == 0; i++) {
		char *text;

		ret = read_file(l->m, g->group, l->files[i], &text);
		if (ret < 0)
			break;
		if (res->type == KATTR_RGRES_IO_MAX)
			ret = kattr_rgres_io_parse(text, l->nfiles > 1 ? (int)i : -1,
						   res, out);
		else
			ret = kattr_rgres_file_parse(l->files[i], text, &one);
		free(text);
	}
	if (ret == 0 && res->type != KATTR_RGRES_IO_MAX) {
		ret = kattr_grow((void **)&out->v, &out->cap, out->n, sizeof(one));
		if (ret == 0)
			out->v[out->n++] = one;
	}
	return ret;
}

int kattr_rgres_get(struct kattr_rgres_group *g, const struct kattr_rgres *res,
		    struct kattr_rgres_value **vals, size_t *n)
{
	struct kattr_rgres_vec out = { 0 };
	struct loc l;
	int ret = locate(g, res, &l, NULL);

	if (ret == 0 && g->b == KATTR_RG_RGCS) {
		ret = kattr_grow((void **)&out.v, &out.cap, 0, sizeof(*out.v));
		if (ret == 0) {
			memset(out.v, 0, sizeof(*out.v));
			out.v->res = res;
			out.n = 1;
			ret = get_rgcs(g, res, out.v);
		}
	} else if (ret == 0) {
		ret = get_files(g, &l, res, &out);
	}
	if (ret < 0) {
		free(out.v);
		return ret;
	}
	*vals = out.v;
	*n = out.n;
	return 0;
}

/* ---- set --------------------------------------------------------------- */

void kattr_rgres_done_free(struct kattr_rgres_done *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->nr_enabled; i++)
		free(d->enabled[i].group);
	free(d->enabled);
	free(d->failed_file);
	memset(d, 0, sizeof(*d));
}

static int done_add(struct kattr_rgres_done *d, const char *group,
		    const char *ctrl)
{
	struct kattr_rgres_enabled *tmp;

	tmp = realloc(d->enabled, (d->nr_enabled + 1) * sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	d->enabled = tmp;
	tmp = &d->enabled[d->nr_enabled];
	snprintf(tmp->ctrl, sizeof(tmp->ctrl), "%s", ctrl);
	tmp->group = strdup(group[0] ? group : "/");
	if (!tmp->group)
		return -ENOMEM;
	d->nr_enabled++;
	return 0;
}

static int set_failed_file(struct kattr_rgres_done *d, struct kattr_mount *m,
			   const char *path)
{
	free(d->failed_file);
	if (asprintf(&d->failed_file, "%s/%s", kattr_mount_path(m), path) < 0)
		d->failed_file = NULL;
	return 0;
}

/* cgroup v2: "-ctrl" in what d enabled, deepest first (ctl.c). */
static void undo_enable(struct kattr_rgres_group *g, struct kattr_rgres_done *d,
			size_t start)
{
	while (d->nr_enabled > start) {
		struct kattr_rgres_enabled *e = &d->enabled[--d->nr_enabled];
		struct kattr_rg_cpu_path one = { 0 };

		one.groups = malloc(sizeof(*one.groups));
		if (one.groups) {
			one.groups[0] = e->group;	/* taken over and freed */
			one.n = 1;
		}
		if (!one.groups || rg_ctl_undo_from(g->rg, e->ctrl, &one, 0) < 0)
			d->rolled_back = false;
		if (!one.groups)
			free(e->group);
		kattr_rg_cpu_path_free(&one);
	}
}

/* cgroup v2: enable ctrl in every group above g lacking it, top-down
 * (ctl.c's delegation); dry: only say where. */
static int enable_ctrl(struct kattr_rgres_group *g, const char *ctrl,
		       bool dry, struct kattr_rgres_done *d)
{
	struct kattr_rg_cpu_path path = { 0 };
	int ret = dry ? rg_ctl_missing(g->rg, g->group, ctrl, &path) :
		  rg_ctl_enable(g->rg, g->group, ctrl, &path);

	if (ret < 0 && path.failed) {
		char file[PATH_MAX];

		if (gfile(file, sizeof(file), strcmp(path.failed, "/") ? path.failed : "",
			  "cgroup.subtree_control") == 0)
			set_failed_file(d, kattr_rg_mount(g->rg), file);
	}
	for (size_t i = 0; ret == 0 && i < path.n; i++)
		ret = done_add(d, path.groups[i], ctrl);
	kattr_rg_cpu_path_free(&path);
	return ret;
}

/* One write of a plan: text to path, old to put back. */
struct wr {
	struct kattr_mount *m;
	char *path, *text, *old;
};
struct plan {
	struct wr *w;
	size_t n, cap;
	size_t *value;		/* the value each write is for */
};

static void plan_free(struct plan *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->w[i].path);
		free(p->w[i].text);
		free(p->w[i].old);
	}
	free(p->w);
	free(p->value);
}

/* The line of text for major:minor (a device's io.max or throttle line),
 * or dflt when none. */
static char *dev_line(const char *text, const struct kattr_rgres_value *v,
		      const char *dflt)
{
	char dev[32];
	size_t dl = (size_t)snprintf(dev, sizeof(dev), "%u:%u ", v->major, v->minor);
	char *out;

	for (const char *p = text; *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] ? 1 : 0))
		if (strncmp(p, dev, dl) == 0)
			return strndup(p, strcspn(p, "\n"));
	if (asprintf(&out, "%s%s", dev, dflt) < 0)
		return NULL;
	return out;
}

/* What to write back to undo a write to file (its text now). */
static char *old_text(struct kattr_rgres_group *g, const struct kattr_rgres_value *v,
		      const char *file, const char *text)
{
	size_t len = strcspn(text, "\n");
	char *out;

	if (g->b == KATTR_RG_RGCS) {
		struct kattr_rg_share *s;
		size_t n;
		long long min = KATTR_RG_DONT_CARE;

		if (kattr_rg_parse_rgcs_shares(text, &s, &n) < 0)
			return NULL;
		for (size_t i = 0; i < n; i++)
			if (strcmp(s[i].res, v->res->be[g->b].ctrl) == 0)
				min = s[i].min_shares;
		free(s);
		return asprintf(&out, "res=%s,min_shares=%lld",
				v->res->be[g->b].ctrl, min) < 0 ? NULL : out;
	}
	if (v->res->type == KATTR_RGRES_IO_MAX)
		return dev_line(text, v, strcmp(file, "io.max") == 0 ?
				"rbps=max wbps=max riops=max wiops=max" : "0");
	return len ? strndup(text, len) : strdup("\n");
}

static int plan_add(struct plan *p, struct kattr_mount *m, const char *path,
		    const char *text, char *old, size_t value)
{
	size_t cap = p->cap;
	struct wr *w;

	if (!old || kattr_grow((void **)&p->w, &p->cap, p->n, sizeof(*w)) < 0)
		goto nomem;
	if (p->cap != cap) {
		size_t *tmp = realloc(p->value, p->cap * sizeof(*tmp));

		if (!tmp)
			goto nomem;
		p->value = tmp;
	}
	w = &p->w[p->n];
	w->m = m;
	w->old = old;
	w->path = strdup(path);
	w->text = strdup(text[0] ? text : "\n");
	if (!w->path || !w->text) {
		free(w->path);
		free(w->text);
		return -ENOMEM;
	}
	p->value[p->n++] = value;
	return 0;
nomem:
	free(old);
	return -ENOMEM;
}

/* The writes of vals[i], each file with its text and what undoes it.
 * cpu.max on v1: the period before the quota. */
static int plan_value(struct kattr_rgres_group *g, const struct kattr_rgres_value *v,
		      size_t i, struct plan *p, struct kattr_rgres_done *d)
{
	char path[PATH_MAX], text[KATTR_RGRES_LIST_LEN + 64], *cur;
	const char *why;
	struct loc l;
	int ret = locate(g, v->res, &l, &why);

	for (size_t k = l.nfiles; ret == 0 && k-- > 0;) {
		size_t off = 0;

		if (v->res->type == KATTR_RGRES_IO_MAX && l.nfiles > 1 &&
		    !(v->io_set & (1u << k)))
			continue;	/* v1: a field not given */
		if (g->b == KATTR_RG_RGCS)
			off = (size_t)snprintf(text, sizeof(text), "res=%s,",
					       v->res->be[g->b].ctrl);
		ret = kattr_rgres_file_text(l.files[k], v, text + off,
					    sizeof(text) - off, NULL);
		if (ret == 0)
			ret = gfile(path, sizeof(path), g->group, l.files[k]);
		if (ret == 0)
			ret = read_file(l.m, g->group, l.files[k], &cur);
		if (ret < 0) {
			set_failed_file(d, l.m, path);
			break;
		}
		ret = plan_add(p, l.m, path, text, old_text(g, v, l.files[k], cur), i);
		free(cur);
	}
	return ret;
}

/* Put back p's writes [0, n), last first. */
static void rollback(struct plan *p, size_t n, struct kattr_rgres_done *d)
{
	while (n--)
		if (kattr_write_str(p->w[n].m, p->w[n].path, p->w[n].old) < 0)
			d->rolled_back = false;
}

/* cgroup v2: the controllers vals need, enabled above the group. */
static int set_enable(struct kattr_rgres_group *g,
		      const struct kattr_rgres_value *vals, size_t n,
		      unsigned int flags, struct kattr_rgres_done *d)
{
	for (size_t i = 0; i < n; i++) {
		struct loc l;
		int ret = locate(g, vals[i].res, &l, NULL);

		if (ret == 0 || !l.need_enable)
			continue;
		d->failed = i;
		if (!(flags & KATTR_RGRES_ENABLE))
			return ret;
		ret = enable_ctrl(g, vals[i].res->be[g->b].ctrl,
				  flags & KATTR_RGRES_DRY_RUN, d);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/* cgroup v1: the directories set made for the group (cpuset), parents
 * first. */
#define MADE_MAX	32
struct made_dirs {
	struct kattr_mount *m[MADE_MAX];
	char *path[MADE_MAX];
	size_t n;
	bool would;		/* dry run: one would be made */
};

static void unmake_dirs(struct made_dirs *md, bool rm)
{
	while (md->n) {
		md->n--;
		if (rm)
			kattr_rmdir(md->m[md->n], md->path[md->n]);
		free(md->path[md->n]);
	}
}

/* A new cpuset group takes its parent's cpus and mems: without both no
 * task may join it. */
static int copy_parent(struct kattr_mount *m, const char *dir,
		       struct kattr_rgres_done *d)
{
	static const char *const files[] = { "cpuset.cpus", "cpuset.mems" };
	char up[PATH_MAX], path[PATH_MAX], *text, *slash;
	int ret = 0;

	snprintf(up, sizeof(up), "%s", dir);
	slash = strrchr(up, '/');
	if (slash)
		*slash = '\0';
	else
		up[0] = '\0';
	for (size_t i = 0; i < 2 && ret == 0; i++) {
		ret = gfile(path, sizeof(path), dir, files[i]);
		if (ret == 0)
			ret = read_file(m, up, files[i], &text);
		if (ret == 0) {
			if (text[0] && text[0] != '\n')
				ret = kattr_write_str(m, path, text);
			free(text);
		}
		if (ret < 0)
			set_failed_file(d, m, path);
	}
	return ret;
}

/* Make group and each parent it lacks in m, top-down, with cpus and mems. */
static int make_path(struct kattr_mount *m, const char *group,
		     struct made_dirs *md, struct kattr_rgres_done *d)
{
	char dir[PATH_MAX];
	size_t len = strlen(group);
	int ret = 0;

	if (len >= sizeof(dir))
		return -ENAMETOOLONG;
	for (size_t i = 0; i <= len && ret == 0; i++) {
		struct stat st;

		if (group[i] != '/' && group[i] != '\0')
			continue;
		memcpy(dir, group, i);
		dir[i] = '\0';
		if (kattr_stat(m, dir, &st) == 0)
			continue;
		if (md->n == MADE_MAX)
			return -ENAMETOOLONG;
		ret = kattr_mkdir(m, dir, 0755);
		if (ret < 0) {
			set_failed_file(d, m, dir);
			break;
		}
		md->m[md->n] = m;
		md->path[md->n] = strdup(dir);
		if (!md->path[md->n]) {
			kattr_rmdir(m, dir);
			return -ENOMEM;
		}
		md->n++;
		ret = copy_parent(m, dir, d);
	}
	return ret;
}

/*
 * cgroup v1: a cpuset value where the group has no cpuset directory
 * (create does not make one: an empty cpuset refuses every task) makes
 * it, and the parents it lacks there, each with its parent's cpus and
 * mems; removed again on failure.  The other hierarchies of a group made
 * by another tool stay as they are.
 */
static int make_dirs(struct kattr_rgres_group *g,
		     const struct kattr_rgres_value *vals, size_t n,
		     unsigned int flags, struct made_dirs *md,
		     struct kattr_rgres_done *d)
{
	for (size_t i = 0; g->b == KATTR_RG_CGROUP1 && g->group[0] && i < n; i++) {
		const struct kattr_rgres_file *f = &vals[i].res->be[g->b];
		struct kattr_mount *m;
		struct stat st;
		int ret;

		if (!f->file || strcmp(f->ctrl, "cpuset") != 0 ||
		    hier_of(g, f->ctrl, &m) < 0 || kattr_stat(m, g->group, &st) == 0 ||
		    kattr_rg_exists(g->rg, g->group) < 0)
			continue;
		d->failed = i;
		md->would = true;
		if (flags & KATTR_RGRES_DRY_RUN)
			continue;
		ret = make_path(m, g->group, md, d);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int set_plan(struct kattr_rgres_group *g, struct kattr_rgres_value *vals,
		    size_t n, unsigned int flags, struct plan *p,
		    struct kattr_rgres_done *d, struct made_dirs *md)
{
	int ret = 0;

	for (size_t i = 0; i < n && ret == 0; i++) {
		d->failed = i;
		ret = kattr_rgres_resolve(g->rg->root, &vals[i]);
	}
	if (ret == 0)
		ret = set_enable(g, vals, n, flags, d);
	if (ret == 0)
		ret = make_dirs(g, vals, n, flags, md, d);
	if ((flags & KATTR_RGRES_DRY_RUN) && (d->nr_enabled || md->would))
		return ret;	/* the files appear only once enabled or made */
	for (size_t i = 0; i < n && ret == 0; i++) {
		d->failed = i;
		ret = plan_value(g, &vals[i], i, p, d);
	}
	return ret;
}

int kattr_rgres_set(struct kattr_rgres_group *g,
		    const struct kattr_rgres_value *vals, size_t n,
		    unsigned int flags, struct kattr_rgres_done *d)
{
	struct kattr_rgres_value *copy = malloc((n ? n : 1) * sizeof(*copy));
	struct made_dirs md = { 0 };
	struct plan p = { 0 };
	int ret = 0;

	memset(d, 0, sizeof(*d));
	d->rolled_back = true;
	if (!copy)
		return -ENOMEM;
	memcpy(copy, vals, n * sizeof(*copy));
	ret = set_plan(g, copy, n, flags, &p, d, &md);
	for (size_t i = 0; ret == 0 && !(flags & KATTR_RGRES_DRY_RUN) && i < p.n; i++) {
		ret = kattr_write_str(p.w[i].m, p.w[i].path, p.w[i].text);
		if (ret < 0) {
			d->failed = p.value[i];
			set_failed_file(d, p.w[i].m, p.w[i].path);
			rollback(&p, i, d);
		}
	}
	if (ret < 0 && !(flags & KATTR_RGRES_DRY_RUN)) {
		unmake_dirs(&md, true);
		undo_enable(g, d, 0);
	}
	unmake_dirs(&md, false);
	plan_free(&p);
	free(copy);
	return ret;
}
