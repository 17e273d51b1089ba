// SPDX-License-Identifier: GPL-2.0-or-later
/* rgctl create / delete: the tree of groups (list is in cmd_list.c). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rgctl.h"
#include "rgctl_cpu.h"
#include "rgctl_plan.h"
#include "rgctl_res.h"
#include "rgctl_systemd.h"
#include "xalloc.h"

/* create --set: the values written to each group (0 when none). */
static int create_set(struct rgctl *ctx, char **groups, int n, unsigned int flags,
		      const struct kattr_rgres_value *v, size_t nv)
{
	int status = EXIT_OK;

	for (int i = 0; i < n && nv && status == EXIT_OK; i++)
		status = rgctl_res_write(ctx, groups[i], v, nv,
					 (flags & KATTR_RG_ENABLE) ? KATTR_RGRES_ENABLE : 0,
					 "the groups this call made were deleted again");
	return status;
}

static int run_create(struct rgctl *ctx, int argc, char **argv);
static int run_delete(struct rgctl *ctx, int argc, char **argv);

static const struct option create_opts[] = {
	{ "parents", no_argument,       NULL, 'p' },
	{ "shares",  required_argument, NULL, OPT_SHARES },
	{ "res",     required_argument, NULL, OPT_RES },
	{ "no-enable", no_argument,     NULL, OPT_NO_ENABLE },
	{ "set",     required_argument, NULL, OPT_CMD_FIRST + 9 },
	{ "help",    no_argument,       NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};
static const char *const create_help[] = {
	"-p, --parents", "Create the missing parent groups too.",
	"    --shares VALUE", "Set the shares (as 'rgctl shares' takes them) on creation.",
	"    --res NAME", "RGCS: the controller --shares is for (default: cpu).",
	"    --no-enable", "On cgroup v2, refuse instead of enabling cpu above the group.",
	"    --set KEY=VALUE", "Set a resource on creation, as 'rgctl set' does (repeatable).",
	NULL
};
static const struct option delete_opts[] = {
	{ "recursive", no_argument, NULL, 'R' },
	{ "help",      no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};
static const char *const delete_help[] = {
	"-R, --recursive", "Delete the child groups too, deepest first.",
	NULL
};

const struct rgctl_cmd rgctl_cmd_create = {
	.name = "create",
	.args = "GROUP...",
	.help = "Create groups (with -p their missing parents too)",
	.run = run_create,
	.opts = create_opts, .shortopts = "p", .opt_help = create_help,
};
const struct rgctl_cmd rgctl_cmd_delete = {
	.name = "delete",
	.args = "GROUP",
	.help = "Delete a group; its tasks move to the parent first",
	.run = run_delete,
	.opts = delete_opts, .shortopts = "R", .opt_help = delete_help,
};

/* Die with the message for a create refused before the tree is touched. */
static void create_refused(struct kattr_rg *rg, const char *group,
			   const char *shares, int err,
			   const struct kattr_why *r)
{
	switch (r->code) {
	case KATTR_RG_WHY_ROOT:
		tool_die(EXIT_FAIL, "cannot create the root group: %s", r->text);
	case KATTR_RG_WHY_NAME:
		tool_die(EXIT_USAGE, "invalid group name '%s': %s", TOOL_Q(group),
			 r->text);
	case KATTR_RG_WHY_RES:
		rgctl_cmd_usage(&rgctl_cmd_create, "--res is for the rgcs backend only");
	case KATTR_RG_WHY_SHARES:
		tool_die(EXIT_USAGE, "invalid shares '%s' for %s: %s", TOOL_Q(shares),
			 kattr_rg_backend_name(kattr_rg_backend_of(rg)), r->text);
	default:
		tool_die(EXIT_FAIL, "cannot create '%s': %s", TOOL_Q(group),
			 kattr_why_text(r, err));
	}
}

/* Die with the message for a create that failed. */
static void create_failed(struct kattr_rg *rg, const char *group, int err,
			  const struct kattr_why *r)
{
	char cause[3 * 4096];

	switch (r->code) {
	case KATTR_RG_WHY_PARENT:
		tool_die(EXIT_FAIL, "cannot create '%s': %s (use -p)", TOOL_Q(group),
			 r->text);
	case KATTR_RG_WHY_NO_SHARES:
		if (kattr_rg_backend_of(rg) == KATTR_RG_CGROUP2) {
			rgctl_cpu_why(rg, group, cause, sizeof(cause));
			tool_die(EXIT_FAIL, "cannot create '%s' with shares: %s; nothing was created",
				 TOOL_Q(group), cause);
		}
		tool_die(EXIT_FAIL, "cannot create '%s' with shares: %s has no %s (%s); nothing was created",
			 TOOL_Q(group), kattr_rg_root(rg), kattr_rg_share_file(rg),
			 rgctl_no_shares_why(rg));
	case KATTR_RG_WHY_NONE:
		tool_die(EXIT_FAIL, "cannot create '%s': %s", TOOL_Q(group),
			 err == -ENOENT ? tool_strerror(ENOENT) : rgctl_strerror(err));
	default:
		tool_die(EXIT_FAIL, "cannot create '%s': %s", TOOL_Q(group), r->text);
	}
}

/* How many leading components of group exist (for undo after -p). */
static unsigned int existing_depth(struct kattr_rg *rg, const char *group)
{
	unsigned int depth = kattr_rg_name_depth(group), k;
	char buf[4096];
	const char *p = group;

	for (k = 0; k < depth; k++) {
		p = strchr(p, '/');
		snprintf(buf, sizeof(buf), "%.*s", p ? (int)(p - group) : (int)strlen(group), group);
		if (kattr_rg_exists(rg, buf) < 0)
			break;
		if (p)
			p++;
	}
	return k;
}

/* Everything checked before the tree is touched, for each group. */
static void create_check(struct rgctl *ctx, struct kattr_rg *rg,
			 const char *group, const char *shares,
			 const char *res, unsigned int flags)
{
	const struct kattr_rg_create_args ca = {
		.flags = KATTR_RG_CHECK, .shares = shares, .res = res,
	};
	struct kattr_rg_cpu_path done = { 0 };
	char text[192];
	struct kattr_why why = KATTR_WHY_BUF(text);
	int ret = kattr_rg_create(rg, group, &ca, &why);

	if (ret < 0)
		create_refused(rg, group, shares, ret, &why);
	/* --no-enable: refuse before anything is made where cpu is missing. */
	if (shares && !(flags & KATTR_RG_ENABLE))
		rgctl_cpu_enable(rg, group, true, &done, "nothing was created");
	rgctl_sd_check(ctx, group, RGCTL_SD_CREATE);
	if (shares && (flags & KATTR_RG_ENABLE))
		rgctl_sd_check_enable(ctx, group);
}

/*
 * A later group failed: remove what this call made for the groups before
 * it (deepest first; existing[i]: how many components of group i were
 * there before) and the cpu it enabled, so nothing is left half-done.
 */
static void create_undo(struct kattr_rg *rg, char **groups,
			const unsigned int *existing, int n,
			struct kattr_rg_cpu_path *done)
{
	char name[4096];

	for (int i = n - 1; i >= 0; i--) {
		unsigned int depth = kattr_rg_name_depth(groups[i]);

		snprintf(name, sizeof(name), "%s", groups[i]);
		for (unsigned int k = depth; k > existing[i]; k--) {
			int ret = kattr_rg_delete(rg, name, 0);

			if (ret < 0)
				tool_warn("cannot remove '%s' again: %s", TOOL_Q(name),
					  rgctl_strerror(ret));
			if (k > 1)	/* its parent next (names never end in '/') */
				*strrchr(name, '/') = '\0';
		}
	}
	if (done->n)
		kattr_rg_cpu_undo(rg, done);
}

/*
 * The groups this call makes, as the journal's plan: each missing
 * component of each group, parents first, once; from[i]..from[i+1]-1:
 * the steps group i makes.
 */
static void create_plan(struct kattr_rg *rg, char **groups, int n, unsigned int flags,
			struct kattr_rgplan *p, size_t *from)
{
	char name[4096];

	for (int i = 0; i < n; i++) {
		unsigned int depth = kattr_rg_name_depth(groups[i]);
		unsigned int have = flags & KATTR_RG_PARENTS ? existing_depth(rg, groups[i])
							     : depth - 1;
		const char *c = groups[i];

		from[i] = p->n;
		for (unsigned int k = 1; k <= depth; k++) {
			bool planned = false;

			c = strchr(c, '/');
			snprintf(name, sizeof(name), "%.*s",
				 c ? (int)(c - groups[i]) : (int)strlen(groups[i]), groups[i]);
			if (c)
				c++;
			/* -p: a missing parent two groups share, once (its
			 * undo after both children's); without -p only leaves */
			for (size_t j = 0; (flags & KATTR_RG_PARENTS) && j < p->n && !planned; j++)
				planned = strcmp(p->v[j].group, name) == 0;
			if (k > have && !planned &&
			    kattr_rgplan_add(p, KATTR_RGPLAN_CREATE, name, NULL) < 0)
				xalloc_die();
		}
	}
	from[n] = p->n;
}

/* A signal came: what this call made goes again; the status. */
static int create_stopped(struct kattr_rg *rg, char **groups, const unsigned int *existing,
			  int n, struct kattr_rg_cpu_path *done, size_t made)
{
	int sig = rgctl_stop_sig();

	create_undo(rg, groups, existing, n, done);
	tool_warn("create: interrupted by %s: %zu change%s undone, the groups are as before",
		  rgctl_sig_name(sig), made, made == 1 ? "" : "s");
	return 128 + sig;
}

struct create_args {
	const char *shares, *res;
	unsigned int flags;
	char **sets;
	size_t nsets;
	unsigned int *existing;	/* components of each group there before */
	size_t *from;		/* its steps in the journal's plan */
	struct kattr_rgjournal *j;
};

/* create's options into a; optind is then the first GROUP's index. */
static void create_options(int argc, char **argv, struct create_args *a)
{
	int c;

	a->flags = KATTR_RG_ENABLE;
	a->sets = xcalloc((size_t)argc, sizeof(*a->sets));
	optind = 0;
	while ((c = rgctl_getopt(&rgctl_cmd_create, argc, argv)) != -1) {
		switch (c) {
		case 'p':
			a->flags |= KATTR_RG_PARENTS;
			break;
		case OPT_SHARES:
			a->shares = optarg;
			break;
		case OPT_RES:
			a->res = optarg;
			break;
		case OPT_NO_ENABLE:
			a->flags &= ~KATTR_RG_ENABLE;
			break;
		case OPT_CMD_FIRST + 9:
			a->sets[a->nsets++] = optarg;
			break;
		}
	}
	if (argc - optind < 1)
		rgctl_cmd_usage(&rgctl_cmd_create, "give at least one GROUP");
}

/*
 * Make each group, its steps in the journal first: 0, or 128 + the
 * signal that stopped it (all undone, said); a failure is undone, then
 * said, and rgctl exits.
 */
static int create_groups(struct kattr_rg *rg, char **groups, int n,
			 struct create_args *a, struct kattr_rg_cpu_path *done)
{
	const struct kattr_rg_create_args ca = {
		.flags = a->flags, .shares = a->shares, .res = a->res,
		.enabled = done,
	};
	char text[192];
	struct kattr_why why = KATTR_WHY_BUF(text);
	int ret;

	for (int i = 0; i < n; i++) {
		if (rgctl_stop_sig())
			return create_stopped(rg, groups, a->existing, i, done, a->from[i]);
		/* Without -p only the last component can be made: no probes. */
		a->existing[i] = a->flags & KATTR_RG_PARENTS ?
				 existing_depth(rg, groups[i]) :
				 kattr_rg_name_depth(groups[i]) - 1;
		rgctl_step_delay();
		kattr_rgjournal_steps(a->j, a->from[i], a->from[i + 1]);
		ret = kattr_rg_create(rg, groups[i], &ca, &why);
		rgctl_step_done();
		if (ret < 0 && i > 0)
			create_undo(rg, groups, a->existing, i, done);
		if (ret < 0)
			rgctl_journal_end(a->j);
		if (ret < 0 && done->failed)
			rgctl_cpu_enable_die(rg, done, ret, "nothing was created or enabled");
		if (ret < 0)
			create_failed(rg, groups[i], ret, &why);
	}
	return 0;
}

static int run_create(struct rgctl *ctx, int argc, char **argv)
{
	struct kattr_rg_cpu_path done = { 0 };
	struct kattr_rgres_value *sv = NULL;
	struct create_args a = { 0 };
	struct kattr_rgplan p = { 0 };
	struct kattr_rg *rg;
	int ret, n;

	create_options(argc, argv, &a);
	n = argc - optind;
	if (a.nsets)	/* every value checked before anything is made */
		sv = rgctl_res_parse(a.sets, a.nsets);
	argv += optind;
	rg = rgctl_rg(ctx);
	a.existing = xcalloc((size_t)n, sizeof(*a.existing));
	a.from = xcalloc((size_t)n + 1, sizeof(*a.from));
	for (int i = 0; i < n; i++)
		create_check(ctx, rg, argv[i], a.shares, a.res, a.flags);
	/* under the lock, the plan in the journal; a signal undoes */
	rgctl_stop_catch();
	ret = rgctl_plan_lock(rg, "create");
	if (ret == 0) {
		create_plan(rg, argv, n, a.flags, &p, a.from);
		ret = rgctl_journal_begin(rg, "create", &p, &a.j);
	}
	/* siblings: one mkdir(2) per place each, their parent held open */
	kattr_rg_create_batch(rg, true);
	if (ret == 0)
		ret = create_groups(rg, argv, n, &a, &done);
	kattr_rg_create_batch(rg, false);
	if (ret == 0) {
		ret = create_set(ctx, argv, n, a.flags, sv, a.nsets);
		if (ret == EXIT_OK && rgctl_stop_sig())
			ret = create_stopped(rg, argv, a.existing, n, &done, a.from[n]);
		else if (ret != EXIT_OK)	/* the groups this call made go again */
			create_undo(rg, argv, a.existing, n, &done);
	}
	rgctl_journal_end(a.j);
	if (ret == EXIT_OK)
		rgctl_cpu_report(rg, &done);
	kattr_rgplan_free(&p);
	free(a.from);
	free(a.existing);
	free(sv);
	free(a.sets);
	return ret;
}

/* delete -R: each step takes what appeared below its group meanwhile. */
static int delete_tree(void *arg, struct kattr_rg *rg, const char *group)
{
	(void)arg;
	return kattr_rg_delete(rg, group, KATTR_RG_RECURSIVE);
}

/*
 * The threads a deletion saves: where they cannot be listed (an RGCS list
 * longer than a page, a tree with no members file), none, as the
 * deletion moves them up all the same: an undo then leaves them in the
 * parent, in the tree.
 */
static int delete_members(void *arg, struct kattr_rg *rg, const char *group,
			  pid_t **tids, size_t *n)
{
	(void)arg;
	if (kattr_rg_members(rg, group, KATTR_RG_THREADS, tids, n) < 0) {
		*tids = NULL;
		*n = 0;
	}
	return 0;
}

/*
 * The deletion as a plan: the group, with -R its subtree first (deepest
 * first), one step each: what each holds is saved, so that a signal or
 * a failure puts every group, setting and thread back.
 */
static void plan_delete(struct kattr_rg *rg, const char *group, unsigned int flags,
			struct kattr_rgplan *p)
{
	struct kattr_rg_info *v = NULL;
	size_t n = 0;
	int ret;

	ret = kattr_rg_exists(rg, group);
	if (ret == 0 && (flags & KATTR_RG_RECURSIVE))
		ret = kattr_rg_list(rg, group, &v, &n);
	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot delete '%s': %s", TOOL_Q(group),
			 rgctl_strerror(ret));
	/* the listing has parents first */
	for (size_t i = n; i-- > 1;)
		if (kattr_rgplan_add(p, KATTR_RGPLAN_DELETE, v[i].name, NULL) < 0)
			xalloc_die();
	kattr_rg_list_free(v, n);
	if (kattr_rgplan_add(p, KATTR_RGPLAN_DELETE, group, NULL) < 0)
		xalloc_die();
}

/* The message for a deletion that failed (after its undo). */
static int delete_failed(struct kattr_rg *rg, const char *group, const struct kattr_rgplan *p,
			 const struct kattr_rgplan_result *r, int err)
{
	const char *g = p->n > 1 ? p->v[r->failed].group : group;

	switch (err) {
	case -ENOTEMPTY:
		tool_warn("cannot delete '%s': it has child groups (use --recursive)",
			  TOOL_Q(g));
		break;
	case -EBUSY:
		tool_warn("cannot delete '%s': it still has tasks (they could not all be moved to the parent or an ancestor)",
			  TOOL_Q(g));
		break;
	default:
		if (r->why)
			tool_warn("cannot delete '%s': %s: %s", TOOL_Q(g), r->why,
				  rgctl_strerror(err));
		else
			tool_warn("cannot delete '%s': %s", TOOL_Q(g), rgctl_strerror(err));
	}
	return rgctl_plan_failed(rg, p, "delete", r);
}

static int run_delete(struct rgctl *ctx, int argc, char **argv)
{
	struct kattr_rgplan_result r;
	struct kattr_rgplan_ops ops;
	struct kattr_rgplan p = { 0 };
	unsigned int flags = 0;
	struct kattr_rg *rg;
	const char *group;
	int c, status, err;

	optind = 0;
	while ((c = rgctl_getopt(&rgctl_cmd_delete, argc, argv)) != -1) {
		switch (c) {
		case 'R':
			flags |= KATTR_RG_RECURSIVE;
			break;
		}
	}
	if (argc - optind != 1)
		rgctl_cmd_usage(&rgctl_cmd_delete, "give exactly one GROUP");
	group = argv[optind];
	if (kattr_rg_name_is_root(group))
		tool_die(EXIT_FAIL, "cannot delete the root group");
	rgctl_check_group(group, false);
	rgctl_sd_check(ctx, group, RGCTL_SD_DELETE);
	/* From here a signal is noted and acted on between two steps. */
	rgctl_stop_catch();
	rg = rgctl_rg(ctx);
	status = rgctl_plan_lock(rg, "delete");
	if (status)
		return status;
	plan_delete(rg, group, flags, &p);
	rgctl_plan_ops(&ops);
	ops.members = delete_members;
	if (flags & KATTR_RG_RECURSIVE)
		ops.delete = delete_tree;
	status = rgctl_plan_exec(rg, &p, "delete", &ops, &r, &err);
	if (status == EXIT_FAIL && err < 0 && err != -EINTR)
		status = delete_failed(rg, group, &p, &r, err);
	for (size_t i = 0; status == 0 && i < p.n; i++)
		rgctl_own_drop(rg, p.v[i].ino);
	kattr_rgplan_result_free(&r);
	kattr_rgplan_free(&p);
	return status;
}
