// SPDX-License-Identifier: GPL-2.0-or-later
/* rgctl create / delete: the tree of groups (list is in cmd_list.c). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rgctl.h"
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
			   const struct kattr_rg_reason *r)
{
	switch (r->what) {
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
			 kattr_rg_reason_text(r, err));
	}
}

/* Die with the message for a create that failed. */
static void create_failed(struct kattr_rg *rg, const char *group, int err,
			  const struct kattr_rg_reason *r)
{
	char cause[3 * 4096];

	switch (r->what) {
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
			 TOOL_Q(group), kattr_rg_root(rg), kattr_rg_shares_file(rg),
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
	struct kattr_rg_cpu_path done = { 0 };
	struct kattr_rg_reason why;
	int ret = kattr_rg_create_check(rg, group, shares, res, &why);

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

static int run_create(struct rgctl *ctx, int argc, char **argv)
{
	const char *shares = NULL, *res = NULL;
	struct kattr_rg_cpu_path done = { 0 };
	struct kattr_rgres_value *sv = NULL;
	char **sets = xcalloc((size_t)argc, sizeof(*sets));
	size_t nsets = 0;
	unsigned int flags = KATTR_RG_ENABLE, *existing;
	struct kattr_rg_reason why;
	struct kattr_rg *rg;
	int c, ret, n;

	optind = 0;
	while ((c = rgctl_getopt(&rgctl_cmd_create, argc, argv)) != -1) {
		switch (c) {
		case 'p':
			flags |= KATTR_RG_PARENTS;
			break;
		case OPT_SHARES:
			shares = optarg;
			break;
		case OPT_RES:
			res = optarg;
			break;
		case OPT_NO_ENABLE:
			flags &= ~KATTR_RG_ENABLE;
			break;
		case OPT_CMD_FIRST + 9:
			sets[nsets++] = optarg;
			break;
		}
	}
	n = argc - optind;
	if (n < 1)
		rgctl_cmd_usage(&rgctl_cmd_create, "give at least one GROUP");
	if (nsets)	/* every value checked before anything is made */
		sv = rgctl_res_parse(sets, nsets);
	argv += optind;
	rg = rgctl_rg(ctx);
	existing = calloc((size_t)n, sizeof(*existing));
	if (!existing)
		tool_die(EXIT_FAIL, "out of memory");
	for (int i = 0; i < n; i++)
		create_check(ctx, rg, argv[i], shares, res, flags);
	/* siblings: one mkdir(2) per place each, their parent held open */
	kattr_rg_create_batch(rg, true);
	for (int i = 0; i < n; i++) {
		/* Without -p only the last component can be made: no probes. */
		existing[i] = flags & KATTR_RG_PARENTS ?
			      existing_depth(rg, argv[i]) :
			      kattr_rg_name_depth(argv[i]) - 1;
		ret = kattr_rg_create_why(rg, argv[i], flags, shares, res, &done, &why);
		if (ret < 0 && i > 0)
			create_undo(rg, argv, existing, i, &done);
		if (ret < 0 && done.failed)
			rgctl_cpu_enable_die(rg, &done, ret, "nothing was created or enabled");
		if (ret < 0)
			create_failed(rg, argv[i], ret, &why);
	}
	kattr_rg_create_batch(rg, false);
	ret = create_set(ctx, argv, n, flags, sv, nsets);
	if (ret != EXIT_OK)	/* the groups this call made go again */
		create_undo(rg, argv, existing, n, &done);
	free(existing);
	if (ret == EXIT_OK)
		rgctl_cpu_report(rg, &done);
	free(sv);
	free(sets);
	return ret;
}

static int run_delete(struct rgctl *ctx, int argc, char **argv)
{
	unsigned int flags = 0;
	unsigned long long ino;
	const char *group;
	int c, ret;

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
	ino = rgctl_own_ino(rgctl_rg(ctx), group);
	ret = kattr_rg_delete(rgctl_rg(ctx), group, flags);
	switch (ret) {
	case 0:
		rgctl_own_drop(rgctl_rg(ctx), ino);
		return EXIT_OK;
	case -ENOTEMPTY:
		tool_die(EXIT_FAIL, "cannot delete '%s': it has child groups (use --recursive)",
			 TOOL_Q(group));
	case -EBUSY:
		tool_die(EXIT_FAIL, "cannot delete '%s': it still has tasks (they could not all be moved to the parent or an ancestor)",
			 TOOL_Q(group));
	default:
		tool_die(EXIT_FAIL, "cannot delete '%s': %s", TOOL_Q(group),
			 rgctl_strerror(ret));
	}
}
