// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rgctl apply FILE [--dry-run] [--prune] and rgctl dump: make the groups
 * match a configuration file (rgctl.conf(5)), all or nothing, and print
 * the current groups in the same format.
 *
 * apply plans first (nothing is touched while planning), then runs the
 * plan step by step keeping what each step undoes; when a step fails,
 * every step already done is undone, last first, and the message names
 * the step and the cause.  The changes are printed only once all of them
 * are done, followed by "N changes".
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kattr/rgconf.h"
#include "rgctl.h"
#include "rgctl_rgd.h"

static int run_apply(struct rgctl *ctx, int argc, char **argv);
static int run_dump(struct rgctl *ctx, int argc, char **argv);

const struct rgctl_cmd rgctl_cmd_apply = {
	.name = "apply", .args = "FILE [--dry-run] [--prune]",
	.help = "make the groups match a configuration file (rgctl.conf(5))",
	.run = run_apply,
};

const struct rgctl_cmd rgctl_cmd_dump = {
	.name = "dump", .args = "",
	.help = "print the groups in the configuration file format",
	.run = run_dump,
};

/* Environment variable that makes one apply step fail (tests only). */
#define FAIL_STEP_ENV "RGCTL_APPLY_FAIL_STEP"

enum step_kind { STEP_CREATE, STEP_SET, STEP_DELETE };

struct step {
	enum step_kind kind;
	char *group;
	char *want;		/* shares to write (CREATE may have none) */
	char *old;		/* SET/DELETE: shares before, for undo */
	pid_t *members;		/* DELETE: processes moved to the parent */
	size_t nmembers;
	unsigned int line;	/* in the file (0 for DELETE) */
};

struct plan {
	struct step *v;
	size_t n, cap;
};

static void plan_free(struct plan *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->v[i].group);
		free(p->v[i].want);
		free(p->v[i].old);
		free(p->v[i].members);
	}
	free(p->v);
}

static struct step *plan_add(struct plan *p, enum step_kind kind,
			     const char *group)
{
	struct step *s;

	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 16;
		p->v = realloc(p->v, p->cap * sizeof(*p->v));
		if (!p->v)
			tool_die(EXIT_FAIL, "out of memory");
	}
	s = &p->v[p->n++];
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->group = strdup(group);
	if (!s->group)
		tool_die(EXIT_FAIL, "out of memory");
	return s;
}

static char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		tool_die(EXIT_FAIL, "out of memory");
	return d;
}

/* One share as text the backend accepts back (for undo and dump). */
static char *share_value(const struct kattr_rg *rg, const struct kattr_rg_share *s)
{
	char *t;
	int n;

	if (kattr_rg_backend_of(rg) == KATTR_RG_RGCS)
		n = asprintf(&t, "res=%s,min_shares=%lld,max_shares=%lld,child_shares_divisor=%lld",
			     s->res, s->min_shares, s->max_shares,
			     s->child_shares_divisor);
	else
		n = asprintf(&t, "%lld", s->value);
	if (n < 0)
		tool_die(EXIT_FAIL, "out of memory");
	return t;
}

/* The share of the controller res (RGCS) or the only one (cgroups). */
static const struct kattr_rg_share *find_share(const struct kattr_rg *rg,
					       const struct kattr_rg_share *v,
					       size_t n, const char *res)
{
	for (size_t i = 0; i < n; i++)
		if (kattr_rg_backend_of(rg) != KATTR_RG_RGCS ||
		    (res && strcmp(v[i].res, res) == 0))
			return &v[i];
	return NULL;
}

/*
 * Whether group's current shares already equal want (formatted by
 * kattr_rg_shares_format).  *old gets the current value as text.
 */
static bool shares_equal(struct kattr_rg *rg, const char *group,
			 const char *want, char **old)
{
	struct kattr_rg_share *cur = NULL, *w = NULL;
	const struct kattr_rg_share *c, *x;
	size_t ncur = 0, nw = 0;
	bool same = false;
	int ret;

	ret = kattr_rg_shares_get(rg, group, &cur, &ncur);
	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot read the shares of '%s': %s",
			 rgctl_q(group), rgctl_strerror(ret));
	if (kattr_rg_backend_of(rg) != KATTR_RG_RGCS) {
		c = ncur ? &cur[0] : NULL;
		if (c) {
			*old = share_value(rg, c);
			same = c->value == atoll(want);
		}
		free(cur);
		return same;
	}
	if (kattr_rg_parse_rgcs_shares(want, &w, &nw) < 0 || nw != 1) {
		free(cur);
		free(w);
		return false;
	}
	x = &w[0];
	c = find_share(rg, cur, ncur, x->res);
	if (c) {
		*old = share_value(rg, c);
		same = (x->min_shares == KATTR_RG_UNCHANGED || x->min_shares == c->min_shares) &&
		       (x->max_shares == KATTR_RG_UNCHANGED || x->max_shares == c->max_shares) &&
		       (x->child_shares_divisor == KATTR_RG_UNCHANGED ||
			x->child_shares_divisor == c->child_shares_divisor);
	}
	free(cur);
	free(w);
	return same;
}

static unsigned int depth_of(const char *name)
{
	unsigned int d = 1;

	for (; *name; name++)
		d += *name == '/';
	return d;
}

static int by_depth(const void *a, const void *b)
{
	const struct kattr_rgconf_group *x = *(const struct kattr_rgconf_group *const *)a;
	const struct kattr_rgconf_group *y = *(const struct kattr_rgconf_group *const *)b;
	unsigned int dx = depth_of(x->name), dy = depth_of(y->name);

	return dx != dy ? (dx < dy ? -1 : 1) : (x->line < y->line ? -1 : x->line > y->line);
}

/* Creates and share changes, parents first; nothing is touched. */
static void plan_groups(struct kattr_rg *rg, const struct kattr_rgconf *c,
			struct plan *p)
{
	const struct kattr_rgconf_group **order;
	char fmt[512];

	order = calloc(c->ngroups + 1, sizeof(*order));
	if (!order)
		tool_die(EXIT_FAIL, "out of memory");
	for (size_t i = 0; i < c->ngroups; i++)
		order[i] = &c->groups[i];
	qsort(order, c->ngroups, sizeof(*order), by_depth);
	for (size_t i = 0; i < c->ngroups; i++) {
		const struct kattr_rgconf_group *g = order[i];
		const char *why = "invalid";
		char *old = NULL;
		struct step *s;
		int ret;

		if (g->shares) {
			if (!kattr_rg_has_shares(rg))
				tool_die(EXIT_FAIL, "%s:%u: groups: '%s' has shares but %s",
					 g->file ? g->file : c->file, g->line, rgctl_q(g->name),
					 rgctl_strerror(-EOPNOTSUPP));
			ret = kattr_rg_shares_format(kattr_rg_backend_of(rg), g->shares,
						     NULL, fmt, sizeof(fmt), &why);
			if (ret < 0)
				tool_die(EXIT_FAIL, "%s:%u: shares: '%s' is not valid for %s: %s",
					 g->file ? g->file : c->file, g->line, rgctl_q(g->shares),
					 kattr_rg_backend_name(kattr_rg_backend_of(rg)), why);
		}
		ret = kattr_rg_exists(rg, g->name);
		if (ret == -ENOENT) {
			s = plan_add(p, STEP_CREATE, g->name);
			s->want = g->shares ? xstrdup(g->shares) : NULL;
			s->line = g->line;
			continue;
		}
		if (ret < 0)
			tool_die(EXIT_FAIL, "cannot use group '%s': %s",
				 rgctl_q(g->name), rgctl_strerror(ret));
		if (!g->shares || shares_equal(rg, g->name, fmt, &old)) {
			free(old);
			continue;
		}
		s = plan_add(p, STEP_SET, g->name);
		s->want = xstrdup(g->shares);
		s->old = old;
		s->line = g->line;
	}
	free(order);
}

/* Deletes of groups the file does not name, children first. */
static void plan_prune(struct kattr_rg *rg, const struct kattr_rgconf *c,
		       struct plan *p)
{
	struct kattr_rg_info *v = NULL;
	size_t n = 0;
	int ret;

	ret = kattr_rg_list(rg, "/", &v, &n);
	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot list the groups: %s", rgctl_strerror(ret));
	/* The listing has parents before children: walk it backwards. */
	for (size_t i = n; i-- > 0;) {
		struct step *s;

		if (v[i].depth == 0 || kattr_rgconf_find_group(c, v[i].name))
			continue;
		s = plan_add(p, STEP_DELETE, v[i].name);
		for (size_t k = 0; k < v[i].nr_shares; k++)
			if (kattr_rg_backend_of(rg) != KATTR_RG_RGCS ||
			    strcmp(v[i].shares[k].res, "cpu") == 0)
				s->old = share_value(rg, &v[i].shares[k]);
	}
	kattr_rg_list_free(v, n);
}

static void step_text(const struct kattr_rg *rg, const struct step *s,
		      char *buf, size_t size)
{
	switch (s->kind) {
	case STEP_CREATE:
		if (s->want)
			snprintf(buf, size, "create %s shares=%s", rgctl_q(s->group),
				 rgctl_q(s->want));
		else
			snprintf(buf, size, "create %s", rgctl_q(s->group));
		break;
	case STEP_SET:
		snprintf(buf, size, "set %s shares=%s (was %s)", rgctl_q(s->group),
			 rgctl_q(s->want), s->old ? rgctl_q(s->old) : "?");
		break;
	case STEP_DELETE:
		snprintf(buf, size, "delete %s", rgctl_q(s->group));
		break;
	}
}

static int do_step(struct kattr_rg *rg, struct step *s, const char **why)
{
	int ret;

	switch (s->kind) {
	case STEP_CREATE:
		return kattr_rg_create(rg, s->group, 0, s->want, NULL);
	case STEP_SET:
		return kattr_rg_shares_set(rg, s->group, s->want, NULL, why);
	case STEP_DELETE:
		/* Remember who lived there, to put them back on undo. */
		ret = kattr_rg_members(rg, s->group, 0, &s->members, &s->nmembers);
		if (ret < 0)
			return ret;
		return kattr_rg_delete(rg, s->group, 0);
	}
	return -EINVAL;
}

/* Undo a done step; 0 or -errno. */
static int undo_step(struct kattr_rg *rg, const struct step *s)
{
	int ret, *res;

	switch (s->kind) {
	case STEP_CREATE:
		return kattr_rg_delete(rg, s->group, 0);
	case STEP_SET:
		return s->old ? kattr_rg_shares_set(rg, s->group, s->old, NULL, NULL)
			      : -ENODATA;
	case STEP_DELETE:
		ret = kattr_rg_create(rg, s->group, 0, s->old, NULL);
		if (ret < 0 || !s->nmembers)
			return ret;
		res = calloc(s->nmembers, sizeof(*res));
		if (!res)
			return -ENOMEM;
		/* Processes that exited meanwhile (ESRCH) are no loss. */
		ret = kattr_rg_attach(rg, s->group, s->members, s->nmembers,
				      KATTR_RG_THREADS, res);
		for (size_t i = 0; ret > 0 && i < s->nmembers; i++)
			if (res[i] < 0 && res[i] != -ESRCH) {
				ret = res[i];
				break;
			}
		free(res);
		return ret > 0 ? 0 : ret;
	}
	return -EINVAL;
}

/* Load the file or die with the parser's FILE:LINE message. */
static struct kattr_rgconf *load(const char *file)
{
	struct kattr_rgconf *c = NULL;
	char err[1024];
	int ret;

	ret = kattr_rgconf_parse_file(file, &c, err, sizeof(err));
	if (ret == -EOPNOTSUPP)
		tool_die(EXIT_FAIL, "rgctl was built without libconfig: configuration files are not supported");
	if (ret < 0)
		tool_die(EXIT_FAIL, "%s", err);
	ret = kattr_rgconf_resolve(c, err, sizeof(err));
	if (ret < 0)
		tool_die(EXIT_FAIL, "%s", err);
	return c;
}

void rgctl_rgd_set_backend(struct rgctl *ctx, const struct kattr_rgconf *c)
{
	enum kattr_rg_backend b;

	if (!c->backend)
		return;
	if (kattr_rg_backend_parse(c->backend, &b) < 0)
		tool_die(EXIT_FAIL, "%s: unknown backend '%s'", c->file,
			 rgctl_q(c->backend));
	if (ctx->backend != KATTR_RG_AUTO && ctx->backend != b)
		tool_die(EXIT_FAIL, "%s names backend %s but --backend is %s", c->file,
			 c->backend, kattr_rg_backend_name(ctx->backend));
	ctx->backend = b;
}

struct kattr_rgconf *rgctl_rgd_load(struct rgctl *ctx, const char *file)
{
	struct kattr_rgconf *c = load(file);

	rgctl_rgd_set_backend(ctx, c);
	return c;
}

static int run_apply(struct rgctl *ctx, int argc, char **argv)
{
	enum { OPT_DRY_RUN = OPT_CMD_FIRST, OPT_PRUNE };
	static const struct option longopts[] = {
		{ "dry-run", no_argument, NULL, 'n' },
		{ "prune",   no_argument, NULL, OPT_PRUNE },
		{ "help",    no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	bool dry_run = false, prune = false;
	struct kattr_rgconf *c;
	struct plan p = { 0 };
	struct kattr_rg *rg;
	const char *env;
	size_t fail_at = 0, i;
	char text[1024];
	int opt;

	optind = 0;
	while ((opt = getopt_long(argc, argv, "nh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'n':
			dry_run = true;
			break;
		case OPT_PRUNE:
			prune = true;
			break;
		case 'h':
			rgctl_cmd_help(&rgctl_cmd_apply);
		default:
			rgctl_bad_option(&rgctl_cmd_apply, argv);
		}
	}
	rgctl_restore_args(argc, argv);
	if (argc - optind != 1)
		rgctl_cmd_usage(&rgctl_cmd_apply, "give exactly one FILE");
	c = rgctl_rgd_load(ctx, argv[optind]);
	rg = rgctl_rg(ctx);
	plan_groups(rg, c, &p);
	if (prune)
		plan_prune(rg, c, &p);
	if (dry_run) {
		for (i = 0; i < p.n; i++) {
			step_text(rg, &p.v[i], text, sizeof(text));
			printf("%s\n", text);
		}
		printf("%zu change%s (dry run: nothing done)\n", p.n, p.n == 1 ? "" : "s");
		plan_free(&p);
		kattr_rgconf_free(c);
		return EXIT_OK;
	}
	env = getenv(FAIL_STEP_ENV);
	if (env && *env)
		fail_at = strtoul(env, NULL, 10);
	for (i = 0; i < p.n; i++) {
		const char *why = NULL;
		int ret;

		if (i + 1 == fail_at) {
			ret = -EIO;
			why = "failure injected by " FAIL_STEP_ENV;
		} else {
			ret = do_step(rg, &p.v[i], &why);
		}
		size_t undone = 0, k;

		if (ret == 0)
			continue;
		step_text(rg, &p.v[i], text, sizeof(text));
		tool_warn("cannot apply '%s': step %zu of %zu (%s) failed: %s",
			  rgctl_q(argv[optind]), i + 1, p.n, text,
			  why ? why : rgctl_strerror(ret));
		for (k = i; k-- > 0;) {
			int u = undo_step(rg, &p.v[k]);

			if (u < 0) {
				step_text(rg, &p.v[k], text, sizeof(text));
				tool_warn("could not undo step %zu (%s): %s", k + 1,
					  text, rgctl_strerror(u));
			} else {
				undone++;
			}
		}
		if (i == 0)
			tool_warn("nothing was changed");
		else if (undone == i)
			tool_warn("undid the %zu change%s already made: nothing changed",
				  undone, undone == 1 ? "" : "s");
		plan_free(&p);
		kattr_rgconf_free(c);
		return EXIT_FAIL;
	}
	for (i = 0; i < p.n; i++) {
		step_text(rg, &p.v[i], text, sizeof(text));
		printf("%s\n", text);
	}
	printf("%zu change%s\n", p.n, p.n == 1 ? "" : "s");
	plan_free(&p);
	kattr_rgconf_free(c);
	return EXIT_OK;
}

static int run_dump(struct rgctl *ctx, int argc, char **argv)
{
	struct kattr_rgconf c = { .file = (char *)"dump" };
	struct kattr_rg_info *v = NULL;
	struct kattr_rg *rg;
	size_t n = 0;
	char *text;
	int ret;

	rgctl_no_options(&rgctl_cmd_dump, argc, argv);
	if (argc - optind != 0)
		rgctl_cmd_usage(&rgctl_cmd_dump, "takes no operand");
	rg = rgctl_rg(ctx);
	ret = kattr_rg_list(rg, "/", &v, &n);
	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot list the groups: %s", rgctl_strerror(ret));
	c.backend = (char *)kattr_rg_backend_name(kattr_rg_backend_of(rg));
	c.groups = calloc(n + 1, sizeof(*c.groups));
	if (!c.groups)
		tool_die(EXIT_FAIL, "out of memory");
	for (size_t i = 0; i < n; i++) {
		struct kattr_rgconf_group *g;

		if (v[i].depth == 0)
			continue;
		g = &c.groups[c.ngroups++];
		g->name = v[i].name;
		for (size_t k = 0; k < v[i].nr_shares && !g->shares; k++)
			if (kattr_rg_backend_of(rg) != KATTR_RG_RGCS ||
			    strcmp(v[i].shares[k].res, "cpu") == 0)
				g->shares = share_value(rg, &v[i].shares[k]);
	}
	text = kattr_rgconf_format(&c);
	if (!text)
		tool_die(EXIT_FAIL, "out of memory");
	fputs(text, stdout);
	free(text);
	for (size_t i = 0; i < c.ngroups; i++)
		free(c.groups[i].shares);
	free(c.groups);
	kattr_rg_list_free(v, n);
	return EXIT_OK;
}
