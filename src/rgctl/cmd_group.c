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

static int run_create(struct rgctl *ctx, int argc, char **argv)
{
	const char *shares = NULL, *res = NULL, *group, *why = NULL;
	struct kattr_rg_cpu_path done = { 0 };
	unsigned int flags = KATTR_RG_ENABLE;
	char buf[256], cause[3 * 4096];
	struct kattr_rg *rg;
	unsigned int existing;
	int c, ret;

	optind = 0;
	while ((c = getopt_long(argc, argv, "ph", create_opts, NULL)) != -1) {
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
		case 'h':
			rgctl_cmd_help(&rgctl_cmd_create);
		default:
			rgctl_bad_option(&rgctl_cmd_create, argv);
		}
	}
	if (argc - optind != 1)
		rgctl_cmd_usage(&rgctl_cmd_create, "give exactly one GROUP");
	group = argv[optind];
	if (kattr_rg_name_is_root(group))
		tool_die(EXIT_FAIL, "cannot create the root group: it always exists");
	rgctl_check_group(group, false);
	rg = rgctl_rg(ctx);
	if (res && kattr_rg_backend_of(rg) != KATTR_RG_RGCS)
		rgctl_cmd_usage(&rgctl_cmd_create, "--res is for the rgcs backend only");
	/* Validate everything before the tree is touched. */
	if (shares && kattr_rg_shares_format(kattr_rg_backend_of(rg), shares, res,
					     buf, sizeof(buf), &why) < 0)
		tool_die(EXIT_USAGE, "invalid shares '%s' for %s: %s", rgctl_q(shares),
			 kattr_rg_backend_name(kattr_rg_backend_of(rg)), why);
	if (kattr_rg_backend_of(rg) == KATTR_RG_RGCS &&
	    kattr_rg_name_depth(group) > KATTR_RG_RGCS_DEPTH)
		tool_die(EXIT_FAIL, "cannot create '%s': it would be %u levels deep; %s",
			 rgctl_q(group), kattr_rg_name_depth(group),
			 rgctl_strerror(-EMLINK));
	/* --no-enable: refuse before anything is made where cpu is missing. */
	if (shares && !(flags & KATTR_RG_ENABLE))
		rgctl_cpu_enable(rg, group, true, &done, "nothing was created");
	rgctl_sd_check(ctx, group, RGCTL_SD_CREATE);
	if (shares && (flags & KATTR_RG_ENABLE))
		rgctl_sd_check_enable(ctx, group);
	existing = rgctl_own_existing(rg, group);
	ret = kattr_rg_create_enable(rg, group, flags, shares, res, &done);
	if (ret < 0 && done.failed)
		rgctl_cpu_enable_die(rg, &done, ret,
				     "nothing was created or enabled");
	switch (ret) {
	case 0:
		rgctl_own_mark_made(rg, group, existing);
		rgctl_cpu_report(rg, &done);
		return EXIT_OK;
	case -EEXIST:
		if (kattr_rg_exists(rg, group) == -ENOTDIR)
			tool_die(EXIT_FAIL, "cannot create '%s': an attribute file of that name is there (not a group)",
				 rgctl_q(group));
		tool_die(EXIT_FAIL, "cannot create '%s': the group already exists",
			 rgctl_q(group));
	case -ENOTDIR:
		tool_die(EXIT_FAIL, "cannot create '%s': a component of the name is an attribute file, not a group",
			 rgctl_q(group));
	case -ENXIO:
		tool_die(EXIT_FAIL, "cannot create '%s': its parent group does not exist (use -p)",
			 rgctl_q(group));
	case -EOPNOTSUPP:
		if (kattr_rg_backend_of(rg) == KATTR_RG_CGROUP2) {
			rgctl_cpu_why(rg, group, cause, sizeof(cause));
			tool_die(EXIT_FAIL, "cannot create '%s' with shares: %s; nothing was created",
				 rgctl_q(group), cause);
		}
		tool_die(EXIT_FAIL, "cannot create '%s' with shares: %s has no %s (%s); nothing was created",
			 rgctl_q(group), kattr_rg_root(rg), kattr_rg_shares_file(rg),
			 rgctl_no_shares_why(rg));
	default:
		tool_die(EXIT_FAIL, "cannot create '%s': %s", rgctl_q(group),
			 ret == -ENOENT ? strerror(ENOENT) : rgctl_strerror(ret));
	}
}

static int run_delete(struct rgctl *ctx, int argc, char **argv)
{
	unsigned int flags = 0;
	unsigned long long ino;
	const char *group;
	int c, ret;

	optind = 0;
	while ((c = getopt_long(argc, argv, "Rh", delete_opts, NULL)) != -1) {
		switch (c) {
		case 'R':
			flags |= KATTR_RG_RECURSIVE;
			break;
		case 'h':
			rgctl_cmd_help(&rgctl_cmd_delete);
		default:
			rgctl_bad_option(&rgctl_cmd_delete, argv);
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
			 rgctl_q(group));
	case -EBUSY:
		tool_die(EXIT_FAIL, "cannot delete '%s': it still has tasks (they could not all be moved to the parent or an ancestor)",
			 rgctl_q(group));
	default:
		tool_die(EXIT_FAIL, "cannot delete '%s': %s", rgctl_q(group),
			 rgctl_strerror(ret));
	}
}
