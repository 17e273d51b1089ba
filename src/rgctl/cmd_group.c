// SPDX-License-Identifier: GPL-2.0-or-later
/* rgctl list / create / delete: the tree of groups. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rgctl.h"
#include "rgctl_systemd.h"

static int run_list(struct rgctl *ctx, int argc, char **argv);
static int run_create(struct rgctl *ctx, int argc, char **argv);
static int run_delete(struct rgctl *ctx, int argc, char **argv);

const struct rgctl_cmd rgctl_cmd_list = {
	.name = "list",
	.args = "[GROUP]",
	.help = "show the tree of groups with shares and task counts",
	.run = run_list,
};
const struct rgctl_cmd rgctl_cmd_create = {
	.name = "create",
	.args = "GROUP [-p] [--shares VALUE] [--res NAME] [--no-enable]",
	.help = "create a group (with -p its missing parents too)",
	.run = run_create,
};
const struct rgctl_cmd rgctl_cmd_delete = {
	.name = "delete",
	.args = "GROUP [--recursive]",
	.help = "delete a group; its tasks move to the parent first",
	.run = run_delete,
};

static int run_list(struct rgctl *ctx, int argc, char **argv)
{
	const char *group = "/";
	struct kattr_rg_info *v;
	struct kattr_rg *rg;
	size_t n;
	int ret;

	rgctl_no_options(&rgctl_cmd_list, argc, argv);
	if (argc - optind > 1)
		rgctl_cmd_usage(&rgctl_cmd_list, "too many arguments");
	if (optind < argc)
		group = argv[optind];
	rgctl_check_group(group, true);
	rg = rgctl_rg(ctx);
	ret = kattr_rg_list(rg, group, &v, &n);
	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot list '%s': %s", rgctl_q(group),
			 rgctl_strerror(ret));
	if (ctx->json) {
		json_object *o = json_object_new_object(), *a = json_object_new_array();

		json_object_object_add(o, "backend", json_object_new_string(
					       kattr_rg_backend_name(kattr_rg_backend_of(rg))));
		json_object_object_add(o, "root", json_object_new_string(kattr_rg_root(rg)));
		json_object_object_add(o, "systemd", rgctl_sd_json(rg));
		for (size_t i = 0; i < n; i++) {
			json_object *g = json_object_new_object(), *s = json_object_new_array();

			json_object_object_add(g, "name", json_object_new_string(v[i].name));
			json_object_object_add(g, "depth", json_object_new_int(v[i].depth));
			json_object_object_add(g, "tasks", v[i].nr_tasks < 0 ? NULL :
					       json_object_new_int64(v[i].nr_tasks));
			for (size_t k = 0; k < v[i].nr_shares; k++)
				json_object_array_add(s, rgctl_json_share(rg, &v[i].shares[k]));
			json_object_object_add(g, "shares", s);
			json_object_array_add(a, g);
		}
		json_object_object_add(o, "groups", a);
		rgctl_json_print(o);
	} else {
		rgctl_sd_print(rg);
		printf("%-32s %-10s %s\n", "GROUP", "TASKS",
		       kattr_rg_backend_of(rg) == KATTR_RG_RGCS ?
		       "SHARES (res:min/max/divisor)" : kattr_rg_shares_file(rg));
		for (size_t i = 0; i < n; i++) {
			char name[300], tasks[24], sh[64];

			snprintf(name, sizeof(name), "%*s%s", (int)(2 * v[i].depth), "",
				 v[i].name);
			if (v[i].nr_tasks < 0)
				snprintf(tasks, sizeof(tasks), ">1 page");
			else
				snprintf(tasks, sizeof(tasks), "%lld", v[i].nr_tasks);
			printf("%-32s %-10s", name, tasks);
			if (!v[i].nr_shares)
				printf(" -");
			for (size_t k = 0; k < v[i].nr_shares; k++) {
				rgctl_share_text(rg, &v[i].shares[k], sh, sizeof(sh));
				printf(" %s", sh);
			}
			putchar('\n');
		}
	}
	kattr_rg_list_free(v, n);
	return EXIT_OK;
}

static int run_create(struct rgctl *ctx, int argc, char **argv)
{
	static const struct option lo[] = {
		{ "parents", no_argument,       NULL, 'p' },
		{ "shares",  required_argument, NULL, OPT_SHARES },
		{ "res",     required_argument, NULL, OPT_RES },
		{ "no-enable", no_argument,     NULL, OPT_NO_ENABLE },
		{ "help",    no_argument,       NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *shares = NULL, *res = NULL, *group, *why = NULL;
	struct kattr_rg_cpu_path done = { 0 };
	unsigned int flags = KATTR_RG_ENABLE;
	char buf[256], cause[3 * 4096];
	struct kattr_rg *rg;
	unsigned int existing;
	int c, ret;

	optind = 0;
	while ((c = getopt_long(argc, argv, "ph", lo, NULL)) != -1) {
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
	rgctl_restore_args(argc, argv);
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
		tool_die(EXIT_FAIL, "invalid shares '%s' for %s: %s", rgctl_q(shares),
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
	static const struct option lo[] = {
		{ "recursive", no_argument, NULL, 'R' },
		{ "help",      no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	unsigned int flags = 0;
	unsigned long long ino;
	const char *group;
	int c, ret;

	optind = 0;
	while ((c = getopt_long(argc, argv, "Rh", lo, NULL)) != -1) {
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
	rgctl_restore_args(argc, argv);
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
