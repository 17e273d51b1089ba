// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The planner of the apply engine (kattr/rgplan.h): a configuration
 * (kattr/rgconf.h) against the groups of an open hierarchy, as the steps
 * that make the groups what the file says, and, after the run, verify:
 * the groups read back and compared with the file.  Nothing here writes.
 * Failures and differences are data (struct kattr_rgplan_fail,
 * struct kattr_rgplan_diff): the caller words them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kattr/private_rgconf.h"

/* *f filled in; returns err. */
static int fail(struct kattr_rgplan_fail *f, enum kattr_rgplan_fail_kind kind,
		const struct kattr_rgconf_group *g, int err)
{
	memset(f, 0, sizeof(*f));
	f->kind = err == -ENOMEM ? KATTR_RGPLAN_FAIL_NOMEM : kind;
	f->g = g;
	f->err = err;
	return err;
}

/* Append a copy of s to *v (n entries): 0 or -ENOMEM. */
static int strv_add(char ***v, size_t *n, const char *s)
{
	char **tmp = realloc(*v, (*n + 1) * sizeof(**v));

	if (!tmp)
		return -ENOMEM;
	*v = tmp;
	tmp[*n] = strdup(s);
	if (!tmp[*n])
		return -ENOMEM;
	(*n)++;
	return 0;
}

void kattr_rgplan_info_free(struct kattr_rgplan_info *info)
{
	for (size_t i = 0; i < info->nkept; i++)
		free(info->kept[i]);
	free(info->kept);
	info->kept = NULL;
	info->nkept = 0;
}

/* ---- shares ----------------------------------------------------------------- */

/* The share of the controller res (RGCS) or the only one (cgroups). */
static const struct kattr_rg_share *find_share(const struct kattr_rg *rg,
					       const struct kattr_rg_share *v,
					       size_t n, const char *res)
{
	for (size_t i = 0; i < n; i++)
		if (kattr_rg_backend_of(rg) != KATTR_RG_RGCS ||
		    strcmp(v[i].res, res) == 0)
			return &v[i];
	return NULL;
}

/* One share as text the backend accepts back (for undo), or NULL. */
static char *share_value(const struct kattr_rg *rg, const struct kattr_rg_share *s,
			 unsigned int keys)
{
	char buf[256];

	kattr_rg_share_text(kattr_rg_backend_of(rg), s, keys, buf, sizeof(buf));
	return strdup(buf);
}

int kattr_rgplan_shares_equal(struct kattr_rg *rg, const char *group,
			      const char *want, char **old)
{
	struct kattr_rg_share *cur = NULL, w;
	const struct kattr_rg_share *c;
	bool same = false;
	unsigned int keys;
	size_t ncur = 0;
	int ret;

	*old = NULL;
	ret = kattr_rg_share_get(rg, group, &cur, &ncur);
	if (ret < 0)
		return ret;
	kattr_rg_share_parse(kattr_rg_backend_of(rg), want, NULL, &w, &keys, NULL);
	/* RGCS: a controller not there is not equal (the write says why). */
	c = find_share(rg, cur, ncur, w.res);
	if (c && kattr_rg_backend_of(rg) != KATTR_RG_RGCS) {
		same = c->value == w.value;
		*old = share_value(rg, c, 0);
	} else if (c) {
		same = (!(keys & KATTR_RG_SHARE_MIN) || c->min_shares == w.min_shares) &&
		       (!(keys & KATTR_RG_SHARE_MAX) || c->max_shares == w.max_shares) &&
		       (!(keys & KATTR_RG_SHARE_DIVISOR) ||
			c->child_shares_divisor == w.child_shares_divisor);
		*old = share_value(rg, c, keys);
	}
	free(cur);
	if (c && !*old)
		return -ENOMEM;
	return same;
}

/* ---- creates and share changes ------------------------------------------------ */

static int by_depth(const void *a, const void *b)
{
	const struct kattr_rgconf_group *x = *(const struct kattr_rgconf_group *const *)a;
	const struct kattr_rgconf_group *y = *(const struct kattr_rgconf_group *const *)b;
	unsigned int dx = kattr_rg_name_depth(x->name);
	unsigned int dy = kattr_rg_name_depth(y->name);

	return dx != dy ? (dx < dy ? -1 : 1) : (x->line < y->line ? -1 : x->line > y->line);
}

/* Append group to the "\n"-separated list *text. */
static int text_add(char **text, const char *group)
{
	size_t len = *text ? strlen(*text) : 0;
	char *tmp = realloc(*text, len + strlen(group) + 2);

	if (!tmp)
		return -ENOMEM;
	sprintf(tmp + len, "%s%s", len ? "\n" : "", group);
	*text = tmp;
	return 0;
}

/*
 * cgroup v2: the groups above g where cpu must be enabled for its shares
 * and no earlier step enables it already (planned), one per line, into
 * *out ("" when earlier steps enable all of it; NULL when cpu is there).
 */
static int plan_enable(struct kattr_rg *rg, const struct kattr_rgconf_group *g,
		       unsigned int flags, struct kattr_rg_cpu_path *planned,
		       char **out, struct kattr_rgplan_fail *f)
{
	struct kattr_rg_cpu_path miss;
	char *text = NULL;
	int ret;

	*out = NULL;
	ret = kattr_rg_cpu_missing(rg, g->name, &miss);
	if (ret < 0)
		return fail(f, KATTR_RGPLAN_FAIL_CPU_READ, g, ret);
	if (miss.n && (flags & KATTR_RGPLAN_NO_ENABLE)) {
		kattr_rg_cpu_path_free(&miss);
		return fail(f, KATTR_RGPLAN_FAIL_NO_ENABLE, g, -EOPNOTSUPP);
	}
	for (size_t i = 0; i < miss.n && ret == 0; i++) {
		bool seen = false;

		for (size_t k = 0; k < planned->n && !seen; k++)
			seen = strcmp(planned->groups[k], miss.groups[i]) == 0;
		if (seen)
			continue;
		ret = text_add(&text, miss.groups[i]);
		if (ret == 0)
			ret = strv_add(&planned->groups, &planned->n, miss.groups[i]);
	}
	/* "": cpu is missing but an earlier step enables it. */
	if (ret == 0 && miss.n && !text && !(text = strdup("")))
		ret = -ENOMEM;
	kattr_rg_cpu_path_free(&miss);
	if (ret < 0) {
		free(text);
		return fail(f, KATTR_RGPLAN_FAIL_NOMEM, g, ret);
	}
	*out = text;
	return 0;
}

/* A step of kind for g with the texts given (taken over, also on error). */
static int add_step(struct kattr_rgplan *p, enum kattr_rgplan_kind kind,
		    const struct kattr_rgconf_group *g, char *want, char *old,
		    char *enable)
{
	struct kattr_rgplan_step *s;

	if ((g->shares && !want) || kattr_rgplan_add(p, kind, g->name, &s) < 0) {
		free(want);
		free(old);
		free(enable);
		return -ENOMEM;
	}
	s->want = want;
	s->old = old;
	s->enable = enable;
	s->line = g->line;
	return 0;
}

/* g's step, if it needs one: a create, or a change of its shares. */
static int plan_group(struct kattr_rg *rg, const struct kattr_rgconf_group *g,
		      unsigned int flags, struct kattr_rg_cpu_path *planned,
		      struct kattr_rgplan *p, struct kattr_rgplan_fail *f)
{
	enum kattr_rg_backend be = kattr_rg_backend_of(rg);
	char fmt[512], *old = NULL, *enable = NULL;
	struct kattr_why why = { 0 };
	bool same = false;
	int ret;

	if (g->shares) {
		if (!kattr_rg_has_shares(rg))
			return fail(f, KATTR_RGPLAN_FAIL_NO_SHARES, g, -EOPNOTSUPP);
		ret = kattr_rg_share_format(be, g->shares, NULL, fmt, sizeof(fmt), &why);
		if (ret < 0) {
			fail(f, KATTR_RGPLAN_FAIL_SHARES, g, ret);
			f->why = why.text ? why.text : "invalid";
			return ret;
		}
		ret = plan_enable(rg, g, flags, planned, &enable, f);
		if (ret < 0)
			return ret;
	}
	ret = kattr_rg_exists(rg, g->name);
	if (ret == -ENOENT) {
		ret = add_step(p, KATTR_RGPLAN_CREATE, g,
			       g->shares ? strdup(g->shares) : NULL, NULL, enable);
		return ret < 0 ? fail(f, KATTR_RGPLAN_FAIL_NOMEM, g, ret) : 0;
	}
	if (ret < 0) {
		free(enable);
		return fail(f, KATTR_RGPLAN_FAIL_GROUP, g, ret);
	}
	/* Without cpu above it the group has no cpu.weight to compare. */
	if (g->shares && !enable) {
		ret = kattr_rgplan_shares_equal(rg, g->name, fmt, &old);
		if (ret < 0)
			return fail(f, KATTR_RGPLAN_FAIL_SHARES_READ, g, ret);
		same = ret == 1;
	}
	if (!g->shares || same) {
		free(old);
		free(enable);
		return 0;
	}
	ret = add_step(p, KATTR_RGPLAN_SET, g, strdup(g->shares), old, enable);
	return ret < 0 ? fail(f, KATTR_RGPLAN_FAIL_NOMEM, g, ret) : 0;
}

/* Creates and share changes, parents first; nothing is touched. */
static int plan_groups(struct kattr_rg *rg, const struct kattr_rgplan_conf *pc,
		       struct kattr_rgplan *p, struct kattr_rgplan_fail *f)
{
	const struct kattr_rgconf *c = pc->conf;
	const struct kattr_rgconf_group **order;
	struct kattr_rg_cpu_path planned = { 0 };
	int ret = 0;

	order = calloc(c->ngroups + 1, sizeof(*order));
	if (!order)
		return fail(f, KATTR_RGPLAN_FAIL_NOMEM, NULL, -ENOMEM);
	for (size_t i = 0; i < c->ngroups; i++)
		order[i] = &c->groups[i];
	qsort(order, c->ngroups, sizeof(*order), by_depth);
	for (size_t i = 0; i < c->ngroups && ret == 0; i++)
		ret = plan_group(rg, order[i], pc->flags, &planned, p, f);
	kattr_rg_cpu_path_free(&planned);
	free(order);
	return ret;
}

/* Resource changes, after every create and shares change. */
static int plan_res(struct kattr_rg *rg, const struct kattr_rgplan_conf *pc,
		    struct kattr_rgplan *p, struct kattr_rgplan_fail *f)
{
	const struct kattr_rgconf *c = pc->conf;

	for (size_t i = 0; i < c->ngroups; i++) {
		const struct kattr_rgconf_group *g = &c->groups[i];
		struct kattr_rgplan_res ch;
		struct kattr_rgplan_step *s;
		int ret;

		ret = kattr_rgplan_res_build(rg, g, kattr_rg_exists(rg, g->name) == -ENOENT,
					     &ch, f);
		if (ret < 0)
			return ret;
		if (!ch.n)
			continue;
		if (kattr_rgplan_add(p, KATTR_RGPLAN_RES, g->name, &s) < 0) {
			kattr_rgplan_res_free(&ch);
			return fail(f, KATTR_RGPLAN_FAIL_NOMEM, g, -ENOMEM);
		}
		s->res = ch;
		s->line = g->line;
		s->no_enable = pc->flags & KATTR_RGPLAN_NO_ENABLE;
	}
	return 0;
}

/* ---- deletions ------------------------------------------------------------------ */

/* Whether a group below v[i] (later in the listing) is kept. */
static bool keeps_child(const struct kattr_rg_info *v, size_t n, size_t i,
			const bool *keep)
{
	size_t len = strlen(v[i].name);

	for (size_t j = i + 1; j < n; j++)
		if (keep[j] && strncmp(v[j].name, v[i].name, len) == 0 &&
		    v[j].name[len] == '/')
			return true;
	return false;
}

static bool is_ours(const struct kattr_rgplan_conf *pc, struct kattr_rg *rg,
		    const char *group)
{
	return pc->ours && pc->ours(pc->arg, rg, group);
}

/*
 * Deletes of groups the file does not name, children first: only the
 * caller's groups, never one that is not, nor a parent of one.  The
 * groups kept are listed in info.
 */
static int plan_prune(struct kattr_rg *rg, const struct kattr_rgplan_conf *pc,
		      struct kattr_rgplan *p, struct kattr_rgplan_info *info)
{
	struct kattr_rg_info *v = NULL;
	size_t n = 0;
	bool *keep;
	int ret;

	ret = kattr_rg_list(rg, "/", &v, &n);
	if (ret < 0)
		return fail(&info->fail, KATTR_RGPLAN_FAIL_LIST, NULL, ret);
	keep = calloc(n + 1, sizeof(*keep));
	ret = keep ? 0 : -ENOMEM;
	/* The listing has parents before children: walk it backwards. */
	for (size_t i = n; ret == 0 && i-- > 0;) {
		if (v[i].depth == 0 || kattr_rgconf_find_group(pc->conf, v[i].name))
			continue;
		if (!is_ours(pc, rg, v[i].name) || keeps_child(v, n, i, keep)) {
			keep[i] = true;
			ret = strv_add(&info->kept, &info->nkept, v[i].name);
			continue;
		}
		ret = kattr_rgplan_add(p, KATTR_RGPLAN_DELETE, v[i].name, NULL);
	}
	free(keep);
	kattr_rg_list_free(v, n);
	return ret < 0 ? fail(&info->fail, KATTR_RGPLAN_FAIL_NOMEM, NULL, ret) : 0;
}

int kattr_rgplan_build(struct kattr_rg *rg, const struct kattr_rgplan_conf *pc,
		       struct kattr_rgplan *p, struct kattr_rgplan_info *info)
{
	int ret;

	memset(info, 0, sizeof(*info));
	ret = plan_groups(rg, pc, p, &info->fail);
	if (ret == 0)
		ret = plan_res(rg, pc, p, &info->fail);
	if (ret == 0 && (pc->flags & KATTR_RGPLAN_PRUNE))
		ret = plan_prune(rg, pc, p, info);
	return ret;
}

/* ---- resources ------------------------------------------------------------------- */

/* The value among have[0..n) that want is about (io.max: its device). */
static const struct kattr_rgres_value *match(const struct kattr_rgres_value *want,
					     const struct kattr_rgres_value *have,
					     size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (want->res->type != KATTR_RGRES_IO_MAX ||
		    (have[i].major == want->major && have[i].minor == want->minor))
			return &have[i];
	return NULL;
}

/* want as the group has it now (io.max: the fields want sets); a group
 * that does not exist yet (have NULL): want itself, which the caller marks
 * unset. */
static void old_of(const struct kattr_rgres_value *want,
		   const struct kattr_rgres_value *have, struct kattr_rgres_value *old)
{
	if (want->res->type != KATTR_RGRES_IO_MAX) {
		*old = have ? *have : *want;
		return;
	}
	*old = *want;
	for (int f = 0; f < KATTR_RGRES_IO_FIELDS; f++)
		old->io[f] = have ? have->io[f] : KATTR_RGRES_MAX;
}

static bool same(const struct kattr_rgres_value *a, const struct kattr_rgres_value *b)
{
	char ta[1024], tb[1024];

	if (a->res->type == KATTR_RGRES_IO_MAX) {
		for (int f = 0; f < KATTR_RGRES_IO_FIELDS; f++)
			if ((a->io_set & (1u << f)) && a->io[f] != b->io[f])
				return false;
		return true;
	}
	kattr_rgres_text(a, ta, sizeof(ta));
	kattr_rgres_text(b, tb, sizeof(tb));
	return strcmp(ta, tb) == 0;
}

/* Room for one more value in out: 0 or -ENOMEM. */
static int res_grow(struct kattr_rgplan_res *out)
{
	struct kattr_rgres_value *w = realloc(out->want, (out->n + 1) * sizeof(*w)), *o;

	if (!w)
		return -ENOMEM;
	out->want = w;
	o = realloc(out->old, (out->n + 1) * sizeof(*o));
	if (!o)
		return -ENOMEM;
	out->old = o;
	return 0;
}

/* Where w is set in rg_g, or *f: 0 (ret_where: kattr_rgres_where's). */
static int res_where(struct kattr_rgres_group *rg_g, const struct kattr_rgconf_group *g,
		     const struct kattr_rgres_value *w, bool fresh, int *ret_where,
		     struct kattr_rgplan_fail *f)
{
	char where[4096];
	struct kattr_why why = { 0 };
	int ret = kattr_rgres_where(rg_g, w->res, where, sizeof(where), &why);

	*ret_where = ret;
	if ((ret < 0 && !(ret == -ENXIO && !fresh) && !fresh) ||
	    ret == -EOPNOTSUPP || ret == -ENODEV) {
		fail(f, KATTR_RGPLAN_FAIL_RES_WHERE, g, ret);
		f->why = why.text ? why.text : "";
		f->key = w->res->key;
		return ret;
	}
	return 0;
}

/* One wanted value: added to out when it differs (or the group is new). */
static int plan_one(const struct kattr_root *root, struct kattr_rgres_group *rg_g,
		    const struct kattr_rgconf_group *g,
		    const struct kattr_rgres_value *w, struct kattr_rgplan_res *out,
		    struct kattr_rgplan_fail *f)
{
	const struct kattr_rgres_value *have = NULL;
	struct kattr_rgres_value *v = NULL, resolved = *w, *old;
	size_t n = 0;
	int where_ret, ret = kattr_rgres_resolve(root, &resolved);

	if (ret < 0) {
		fail(f, KATTR_RGPLAN_FAIL_RES_RESOLVE, g, ret);
		f->key = w->res->key;
		snprintf(f->dev, sizeof(f->dev), "%s", w->dev_path);
		return ret;
	}
	ret = res_where(rg_g, g, w, out->fresh, &where_ret, f);
	if (ret < 0)
		return ret;
	if (!out->fresh && where_ret == 0 && (ret = kattr_rgres_get(rg_g, w->res, &v, &n)) < 0) {
		fail(f, KATTR_RGPLAN_FAIL_RES_READ, g, ret);
		f->key = w->res->key;
		return ret;
	}
	if (!out->fresh && where_ret == 0) {
		have = match(&resolved, v, n);
		if (have && same(&resolved, have)) {
			free(v);
			return 0;
		}
	}
	if (res_grow(out) < 0) {
		free(v);
		return fail(f, KATTR_RGPLAN_FAIL_NOMEM, g, -ENOMEM);
	}
	out->want[out->n] = resolved;
	old = &out->old[out->n];
	old_of(&resolved, have, old);
	old->unset = !have && resolved.res->type != KATTR_RGRES_IO_MAX;
	/* cgroup v2, no file: its controller is off above the group; the
	 * undo disables it again (the plan's subtree_control records) */
	old->off = old->unset && !out->fresh && where_ret == -ENXIO &&
		   kattr_rgres_ctrl_off(rg_g, w->res) == 1;
	out->n++;
	free(v);
	return 0;
}

int kattr_rgplan_res_build(struct kattr_rg *rg, const struct kattr_rgconf_group *g,
			   bool fresh, struct kattr_rgplan_res *out,
			   struct kattr_rgplan_fail *f)
{
	struct kattr_rgres_limits l;
	struct kattr_rgres_group *rg_g = NULL;
	int ret;

	memset(out, 0, sizeof(*out));
	out->fresh = fresh;
	if (!g->nres)
		return 0;
	ret = kattr_rgres_limits_read(kattr_rg_root_handle(rg), &l);
	if (ret < 0)
		return fail(f, KATTR_RGPLAN_FAIL_LIMITS, NULL, ret);
	ret = kattr_rgres_open(rg, g->name, &rg_g);
	if (ret < 0)
		return fail(f, KATTR_RGPLAN_FAIL_RES_OPEN, g, ret);
	for (size_t i = 0; i < g->nres && ret == 0; i++) {
		struct kattr_rgres_value w;
		struct kattr_why why = { 0 };

		ret = kattr_rgres_parse_assign(g->res[i], &l, &w, &why);
		if (ret < 0) {
			fail(f, KATTR_RGPLAN_FAIL_RES_PARSE, g, ret);
			f->why = why.text ? why.text : "invalid";
			f->res = i;
		} else {
			ret = plan_one(kattr_rg_root_handle(rg), rg_g, g, &w, out, f);
		}
	}
	kattr_rgres_close(rg_g);
	if (ret < 0)
		kattr_rgplan_res_free(out);
	return ret;
}

/* ---- verify ------------------------------------------------------------------------ */

/* Room for one more difference in d, zeroed: it, or NULL. */
static struct kattr_rgplan_diff *diff_add(struct kattr_rgplan_diffs *d,
					  enum kattr_rgplan_diff_kind kind,
					  const struct kattr_rgconf_group *g, int err)
{
	struct kattr_rgplan_diff *tmp = realloc(d->v, (d->n + 1) * sizeof(*tmp));

	if (!tmp)
		return NULL;
	d->v = tmp;
	tmp += d->n++;
	memset(tmp, 0, sizeof(*tmp));
	tmp->kind = kind;
	tmp->g = g;
	tmp->err = err;
	return tmp;
}

void kattr_rgplan_diffs_free(struct kattr_rgplan_diffs *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->v[i].group);
		free(d->v[i].have);
		kattr_rgplan_res_free(&d->v[i].res);
	}
	free(d->v);
	d->v = NULL;
	d->n = 0;
}

/* One group of the file against the hierarchy: its differences into d. */
static int verify_group(struct kattr_rg *rg, const struct kattr_rgconf_group *g,
			struct kattr_rgplan_diffs *d, struct kattr_rgplan_fail *f)
{
	struct kattr_rgplan_diff *x;
	struct kattr_rgplan_res ch;
	char fmt[512], *old = NULL;
	int ret = kattr_rg_exists(rg, g->name);

	if (ret < 0)
		return diff_add(d, KATTR_RGPLAN_DIFF_GROUP, g, ret) ? 0 :
		       fail(f, KATTR_RGPLAN_FAIL_NOMEM, g, -ENOMEM);
	ret = kattr_rgplan_res_build(rg, g, false, &ch, f);
	if (ret < 0)
		return ret;
	if (ch.n && !(x = diff_add(d, KATTR_RGPLAN_DIFF_RES, g, 0))) {
		kattr_rgplan_res_free(&ch);
		return fail(f, KATTR_RGPLAN_FAIL_NOMEM, g, -ENOMEM);
	}
	if (ch.n)
		x->res = ch;
	else
		kattr_rgplan_res_free(&ch);
	if (!g->shares ||
	    kattr_rg_share_format(kattr_rg_backend_of(rg), g->shares, NULL,
				   fmt, sizeof(fmt), NULL) < 0)
		return 0;
	ret = kattr_rgplan_shares_equal(rg, g->name, fmt, &old);
	if (ret < 0)
		return fail(f, KATTR_RGPLAN_FAIL_SHARES_READ, g, ret);
	if (ret == 0 && !(x = diff_add(d, KATTR_RGPLAN_DIFF_SHARES, g, 0))) {
		free(old);
		return fail(f, KATTR_RGPLAN_FAIL_NOMEM, g, -ENOMEM);
	}
	if (ret == 0)
		x->have = old;
	else
		free(old);
	return 0;
}

/* PRUNE: the caller's groups the file does not name, into d. */
static int verify_extra(struct kattr_rg *rg, const struct kattr_rgplan_conf *pc,
			struct kattr_rgplan_diffs *d, struct kattr_rgplan_fail *f)
{
	struct kattr_rg_info *v = NULL;
	struct kattr_rgplan_diff *x;
	size_t n = 0;
	int ret = kattr_rg_list(rg, "/", &v, &n);

	if (ret < 0)
		return diff_add(d, KATTR_RGPLAN_DIFF_LIST, NULL, ret) ? 0 :
		       fail(f, KATTR_RGPLAN_FAIL_NOMEM, NULL, -ENOMEM);
	for (size_t i = 0; i < n && ret == 0; i++) {
		if (!v[i].depth || kattr_rgconf_find_group(pc->conf, v[i].name) ||
		    !is_ours(pc, rg, v[i].name))
			continue;
		x = diff_add(d, KATTR_RGPLAN_DIFF_EXTRA, NULL, 0);
		if (!x || !(x->group = strdup(v[i].name)))
			ret = fail(f, KATTR_RGPLAN_FAIL_NOMEM, NULL, -ENOMEM);
	}
	kattr_rg_list_free(v, n);
	return ret;
}

int kattr_rgplan_verify(struct kattr_rg *rg, const struct kattr_rgplan_conf *pc,
			struct kattr_rgplan_diffs *d, struct kattr_rgplan_fail *f)
{
	int ret = 0;

	memset(d, 0, sizeof(*d));
	for (size_t i = 0; i < pc->conf->ngroups && ret == 0; i++)
		ret = verify_group(rg, &pc->conf->groups[i], d, f);
	if (ret == 0 && (pc->flags & KATTR_RGPLAN_PRUNE))
		ret = verify_extra(rg, pc, d, f);
	return ret;
}
