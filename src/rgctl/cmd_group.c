// SPDX-License-Identifier: GPL-2.0-or-later
/* rgctl create / delete: the tree of groups (list is in cmd_list.c). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rgctl.h"
#include "rgctl_systemd.h"

static int run_create(struct rgctl *ctx, int argc, char **argv);
static int run_delete(struct rgctl *ctx, int argc, char **argv);

static const struct option create_opts[] = {
	{ "parents", no_argument,       NULL, 'p' },
	{ "shares",  required_argument, NULL, OPT_SHARES },
	{ "res",     required_argument, NULL, OPT_RES },
	{ "no-enable", no_argument,     NULL, OPT_NO_ENABLE },
	{ "help",    no_argument,       NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};
static const char *const create_help[] = {
	"-p, --parents", "Create the missing parent groups too.",
	"    --shares VALUE", "Set the shares (as 'rgctl shares' takes them) on creation.",
	"    --res NAME", "RGCS: the controller --shares is for (default: cpu).",
	"    --no-enable", "On cgroup v2, refuse instead of enabling cpu above the group.",
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
	.args = "GROUP",
	.help = "Create a group (with -p its missing parents too)",
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

static int run_create(struct rgctl *ctx, int argc, char **argv)
{
	const char *shares = NULL, *res = NULL, *group;
	struct kattr_rg_cpu_path done = { 0 };
	unsigned int flags = KATTR_RG_ENABLE;
	struct kattr_rg_reason why;
	struct kattr_rg *rg;
	unsigned int existing;
	int c, ret;

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
		}
	}
	if (argc - optind != 1)
		rgctl_cmd_usage(&rgctl_cmd_create, "give exactly one GROUP");
	group = argv[optind];
	rg = rgctl_rg(ctx);
	/* Everything is checked before the tree is touched. */
	ret = kattr_rg_create_check(rg, group, shares, res, &why);
	if (ret < 0)
		create_refused(rg, group, shares, ret, &why);
	/* --no-enable: refuse before anything is made where cpu is missing. */
	if (shares && !(flags & KATTR_RG_ENABLE))
		rgctl_cpu_enable(rg, group, true, &done, "nothing was created");
	rgctl_sd_check(ctx, group, RGCTL_SD_CREATE);
	if (shares && (flags & KATTR_RG_ENABLE))
		rgctl_sd_check_enable(ctx, group);
	existing = rgctl_own_existing(rg, group);
	ret = kattr_rg_create_why(rg, group, flags, shares, res, &done, &why);
	if (ret < 0 && done.failed)
		rgctl_cpu_enable_die(rg, &done, ret, "nothing was created or enabled");
	if (ret < 0)
		create_failed(rg, group, ret, &why);
	rgctl_own_mark_made(rg, group, existing);
	rgctl_cpu_report(rg, &done);
	return EXIT_OK;
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
