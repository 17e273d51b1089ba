// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * apply and dump for a group's resources (rgctl.conf(5): memory_max =
 * "1G"; ...): what differs, as steps with their old values, and what dump
 * writes (every setting that differs from a new group's).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kattr/rgconf.h"
#include "kattr/rgplan.h"
#include "kattr/rgres.h"
#include "rgctl.h"
#include "rgctl_res.h"
#include "xalloc.h"

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

__attribute__((noreturn, format(printf, 3, 4)))
static void plan_die(const struct kattr_rgconf *c, const struct kattr_rgconf_group *g,
		     const char *fmt, ...)
{
	char msg[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	tool_die(EXIT_FAIL, "%s:%u: group '%s': %s", g->file ? g->file : c->file,
		 g->line, TOOL_Q(g->name), msg);
}

/* One wanted value: added to out when it differs (or the group is new). */
static void plan_one(struct kattr_rgres_group *rg_g, const struct kattr_rgconf *c,
		     const struct kattr_rgconf_group *g, const struct kattr_rgres_value *w,
		     struct kattr_rgplan_res *out)
{
	const struct kattr_rgres_value *have = NULL;
	struct kattr_rgres_value *v = NULL, resolved = *w;
	char where[4096];
	const char *why = "";
	size_t n = 0;
	int where_ret, ret = kattr_rgres_resolve(&resolved);

	if (ret < 0)
		plan_die(c, g, "%s: %s: %s", w->res->key, w->dev_path, tool_strerror(-ret));
	ret = kattr_rgres_where(rg_g, w->res, where, sizeof(where), &why);
	where_ret = ret;
	if (ret < 0 && !(ret == -ENXIO && !out->fresh) && !out->fresh)
		plan_die(c, g, "cannot set %s: %s", w->res->key, why ? why : tool_strerror(-ret));
	if (ret == -EOPNOTSUPP || ret == -ENODEV)
		plan_die(c, g, "cannot set %s: %s", w->res->key, why);
	if (!out->fresh && ret == 0 && (ret = kattr_rgres_get(rg_g, w->res, &v, &n)) < 0)
		plan_die(c, g, "cannot read %s: %s", w->res->key, tool_strerror(-ret));
	if (!out->fresh && ret == 0) {
		have = match(&resolved, v, n);
		if (have && same(&resolved, have)) {
			free(v);
			return;
		}
	}
	out->want = xreallocarray(out->want, out->n + 1, sizeof(*out->want));
	out->old = xreallocarray(out->old, out->n + 1, sizeof(*out->old));
	out->want[out->n] = resolved;
	old_of(&resolved, have, &out->old[out->n]);
	out->old[out->n].unset = !have && resolved.res->type != KATTR_RGRES_IO_MAX;
	/* cgroup v2, no file: its controller is off above the group; the
	 * undo disables it again (the plan's subtree_control records) */
	out->old[out->n].off = out->old[out->n].unset && !out->fresh && where_ret == -ENXIO &&
			       kattr_rgres_ctrl_off(rg_g, w->res) == 1;
	out->n++;
	free(v);
}

void rgctl_res_plan(struct kattr_rg *rg, const struct kattr_rgconf *c,
		    const struct kattr_rgconf_group *g, bool fresh,
		    struct kattr_rgplan_res *out)
{
	struct kattr_rgres_limits l;
	struct kattr_rgres_group *rg_g = NULL;
	int ret;

	memset(out, 0, sizeof(*out));
	out->fresh = fresh;
	if (!g->nres)
		return;
	ret = kattr_rgres_limits_read(&l);
	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot read the machine's memory and CPUs: %s",
			 tool_strerror(-ret));
	ret = kattr_rgres_open(rg, g->name, &rg_g);
	if (ret < 0)
		plan_die(c, g, "%s", rgctl_strerror(ret));
	for (size_t i = 0; i < g->nres; i++) {
		struct kattr_rgres_value w;
		const char *why = "invalid";

		if (kattr_rgres_parse_assign(g->res[i], &l, &w, &why) < 0)
			plan_die(c, g, "'%s': %s", TOOL_Q(g->res[i]), why);
		plan_one(rg_g, c, g, &w, out);
	}
	kattr_rgres_close(rg_g);
}

void rgctl_res_change_text(const struct kattr_rgplan_res *ch, char *buf,
			   size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < ch->n && len < size; i++) {
		char w[1024], o[1024];

		kattr_rgres_text(&ch->want[i], w, sizeof(w));
		kattr_rgres_text(&ch->old[i], o, sizeof(o));
		len += (size_t)snprintf(buf + len, size - len, "%s%s=%s", i ? ", " : "",
					ch->want[i].res->key, w);
		if (!ch->fresh && len < size && !ch->old[i].unset)
			len += (size_t)snprintf(buf + len, size - len, " (was %s)", o);
	}
}

/* What a new group has: the kernel's default, or its parent's (cpuset). */
static bool is_default(struct kattr_rg *rg, const char *group,
		       const struct kattr_rgres *r, const char *text)
{
	char parent[4096], *slash, ptext[1024];
	struct kattr_rgres_group *pg;
	struct kattr_rgres_value *v;
	size_t n;
	bool same_as_parent = false;

	if (strcmp(text, r->def) == 0 || strcmp(text, "-") == 0)
		return true;
	/* cgroup v1: the soft limit starts unlimited */
	if (kattr_rg_backend_of(rg) == KATTR_RG_CGROUP1 &&
	    strcmp(r->key, "memory.low") == 0 && strcmp(text, "max") == 0)
		return true;
	if (r->type != KATTR_RGRES_LIST)
		return false;
	snprintf(parent, sizeof(parent), "%s", group);
	slash = strrchr(parent, '/');
	if (slash)
		*slash = '\0';
	else
		snprintf(parent, sizeof(parent), "/");
	if (kattr_rgres_open(rg, parent, &pg) < 0)
		return false;
	if (kattr_rgres_get(pg, r, &v, &n) == 0) {
		same_as_parent = n == 1 && kattr_rgres_text(v, ptext, sizeof(ptext)) == 0 &&
				 strcmp(ptext, text) == 0;
		free(v);
	}
	kattr_rgres_close(pg);
	return same_as_parent;
}

void rgctl_res_dump(struct kattr_rg *rg, const char *group, char ***res,
		    size_t *n)
{
	struct kattr_rgres_group *g;
	const struct kattr_rgres *t;
	size_t nt;

	*res = NULL;
	*n = 0;
	if (kattr_rgres_open(rg, group, &g) < 0)
		return;
	t = kattr_rgres_table(&nt);
	for (size_t i = 0; i < nt; i++) {
		struct kattr_rgres_value *v;
		size_t nv;

		/* cpu.weight is dumped as shares, its short form */
		if (!strcmp(t[i].key, "cpu.weight") ||
		    kattr_rgres_get(g, &t[i], &v, &nv) < 0)
			continue;	/* not here: nothing to say */
		for (size_t k = 0; k < nv; k++) {
			char text[1024];

			kattr_rgres_text(&v[k], text, sizeof(text));
			if (t[i].type != KATTR_RGRES_IO_MAX &&
			    is_default(rg, group, &t[i], text))
				continue;
			*res = xreallocarray(*res, *n + 1, sizeof(**res));
			if (asprintf(&(*res)[*n], "%s=%s", t[i].key, text) < 0)
				xalloc_die();
			(*n)++;
		}
		free(v);
	}
	kattr_rgres_close(g);
}
