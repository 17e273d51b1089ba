// SPDX-License-Identifier: GPL-2.0-or-later
/* rgctl shares GROUP [VALUE]: show or set a group's backend-native shares. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rgctl.h"
#include "rgctl_cpu.h"
#include "rgctl_systemd.h"

static int run_shares(struct rgctl *ctx, int argc, char **argv);

static const struct option shares_opts[] = {
	{ "res",  required_argument, NULL, OPT_RES },
	{ "no-enable", no_argument,  NULL, OPT_NO_ENABLE },
	{ "help", no_argument,       NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};
static const char *const shares_help[] = {
	"    --res NAME", "RGCS: show or set only controller NAME's shares.",
	"    --no-enable", "On cgroup v2, refuse instead of enabling cpu above the group.",
	NULL
};

static void shares_help_more(void)
{
	printf("\nVALUE, as the backend takes it:\n"
	       "  cgroup1                  cpu.shares, 2 to 262144 (1024: the default).\n"
	       "  cgroup2                  cpu.weight, 1 to 10000 (100: the default).\n"
	       "  rgcs                     KEY=VALUE,... of min_shares, max_shares,\n"
	       "                           child_shares_divisor (and res=NAME): each 0 or more,\n"
	       "                           or -3 (don't care), -2 (unsupported), -1 (unchanged).\n");
}

const struct rgctl_cmd rgctl_cmd_shares = {
	.name = "shares",
	.args = "GROUP [VALUE]",
	.help = "Show or set a group's shares",
	.run = run_shares,
	.opts = shares_opts, .opt_help = shares_help,
	.help_more = shares_help_more,
};

static int show(struct rgctl *ctx, struct kattr_rg *rg, const char *group,
		const char *res)
{
	struct kattr_rg_share *v;
	size_t n;
	int ret = kattr_rg_share_get(rg, group, &v, &n);
	json_object *o = NULL, *a = NULL;
	char cause[3 * 4096], text[256];
	bool any = false;

	if (ret == -EOPNOTSUPP && kattr_rg_backend_of(rg) == KATTR_RG_CGROUP2) {
		rgctl_cpu_why(rg, group, cause, sizeof(cause));
		tool_die(EXIT_FAIL, "'%s' has no shares: %s", TOOL_Q(group), cause);
	}
	if (ret == -EOPNOTSUPP)
		tool_die(EXIT_FAIL, "'%s' has no shares: %s has no %s there (%s)",
			 TOOL_Q(group), kattr_rg_root(rg), kattr_rg_share_file(rg),
			 rgctl_no_shares_why(rg));
	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot read the shares of '%s': %s",
			 TOOL_Q(group), rgctl_strerror(ret));
	if (ctx->json) {
		o = json_object_new_object();
		a = json_object_new_array();
		json_object_object_add(o, "group", tool_json_str(
					       kattr_rg_name_is_root(group) ? "/" : group));
		json_object_object_add(o, "backend", json_object_new_string(
					       kattr_rg_backend_name(kattr_rg_backend_of(rg))));
	}
	for (size_t i = 0; i < n; i++) {
		if (res && strcmp(res, v[i].res) != 0)
			continue;
		any = true;
		if (a) {
			json_object_array_add(a, rgctl_json_share(rg, &v[i]));
		} else {
			/* res is read from the system: escaped */
			kattr_rg_share_text(kattr_rg_backend_of(rg), &v[i],
					    KATTR_RG_SHARE_ALL, text, sizeof(text));
			tool_fputs_esc(text, stdout, 0);
			putchar('\n');
		}
	}
	free(v);
	if (o) {
		json_object_object_add(o, "shares", a);
		rgctl_json_print(o);
	}
	if (res && !any)
		tool_die(EXIT_FAIL, "'%s' has no shares for controller '%s'",
			 TOOL_Q(group), TOOL_Q(res));
	return EXIT_OK;
}

/* Die with the message for a failed "shares GROUP VALUE". */
__attribute__((noreturn))
static void set_failed(struct kattr_rg *rg, const char *group,
		       const char *value, int ret, const char *why)
{
	char cause[3 * 4096];

	if (ret == -EINVAL && why)
		tool_die(EXIT_USAGE, "invalid shares '%s' for %s: %s", TOOL_Q(value),
			 kattr_rg_backend_name(kattr_rg_backend_of(rg)), why);
	if (ret == -ERANGE && why) {
		switch (kattr_rg_backend_of(rg)) {
		case KATTR_RG_CGROUP1:
			tool_die(EXIT_USAGE, "invalid shares '%s' for cgroup1: out of range (%d..%d)",
				 TOOL_Q(value), KATTR_RG_CG1_SHARES_MIN,
				 KATTR_RG_CG1_SHARES_MAX);
		case KATTR_RG_CGROUP2:
			tool_die(EXIT_USAGE, "invalid shares '%s' for cgroup2: out of range (%d..%d)",
				 TOOL_Q(value), KATTR_RG_CG2_WEIGHT_MIN,
				 KATTR_RG_CG2_WEIGHT_MAX);
		default:
			tool_die(EXIT_USAGE, "invalid shares '%s' for rgcs: %s",
				 TOOL_Q(value), why);
		}
	}
	if (ret == -EOPNOTSUPP && kattr_rg_backend_of(rg) == KATTR_RG_CGROUP2) {
		rgctl_cpu_why(rg, group, cause, sizeof(cause));
		tool_die(EXIT_FAIL, "cannot set the shares of '%s': %s", TOOL_Q(group),
			 cause);
	}
	if (ret == -EOPNOTSUPP)
		tool_die(EXIT_FAIL, "cannot set the shares of '%s': %s has no %s there (%s)",
			 TOOL_Q(group), kattr_rg_root(rg), kattr_rg_share_file(rg),
			 rgctl_no_shares_why(rg));
	if (ret == -EINVAL)
		tool_die(EXIT_FAIL, "cannot set the shares of '%s' to '%s': the kernel refused the value (invalid argument)",
			 TOOL_Q(group), TOOL_Q(value));
	tool_die(EXIT_FAIL, "cannot set the shares of '%s': %s",
		 TOOL_Q(group), rgctl_strerror(ret));
}

static int run_shares(struct rgctl *ctx, int argc, char **argv)
{
	const char *res = NULL, *group, *value;
	struct kattr_why why = { 0 };
	struct kattr_rg_cpu_path done = { 0 };
	bool no_enable = false;
	char buf[256];
	struct kattr_rg *rg;
	int c, ret;

	optind = 0;
	while ((c = rgctl_getopt(&rgctl_cmd_shares, argc, argv)) != -1) {
		switch (c) {
		case OPT_RES:
			res = optarg;
			break;
		case OPT_NO_ENABLE:
			no_enable = true;
			break;
		}
	}
	if (argc - optind < 1 || argc - optind > 2)
		rgctl_cmd_usage(&rgctl_cmd_shares, "give GROUP and at most one VALUE");
	group = argv[optind];
	value = argc - optind == 2 ? argv[optind + 1] : NULL;
	rgctl_check_group(group, true);
	rg = rgctl_rg(ctx);
	if (res && kattr_rg_backend_of(rg) != KATTR_RG_RGCS)
		rgctl_cmd_usage(&rgctl_cmd_shares, "--res is for the rgcs backend only");
	if (!value)
		return show(ctx, rg, group, res);
	rgctl_sd_check(ctx, group, RGCTL_SD_SHARES);
	rgctl_sd_check_enable(ctx, group);
	/*
	 * cgroup v2: cpu.weight appears once cpu is enabled above the group.
	 * The value and the group are checked first: nothing is enabled for
	 * a write that cannot succeed, and a failed write disables it again.
	 */
	ret = kattr_rg_share_format(kattr_rg_backend_of(rg), value, res, buf,
				     sizeof(buf), &why);
	if (ret == 0 && !kattr_rg_name_is_root(group))
		ret = kattr_rg_exists(rg, group);
	if (ret == 0 && !kattr_rg_name_is_root(group))
		rgctl_cpu_enable(rg, group, no_enable, &done, "nothing was changed");
	if (ret == 0)
		ret = kattr_rg_share_set(rg, group, value, res, &why);
	if (ret < 0 && done.n) {
		int u = kattr_rg_cpu_undo(rg, &done);

		if (u < 0)
			tool_warn("could not disable cpu again: %s", rgctl_strerror(u));
	}
	if (ret < 0)
		set_failed(rg, group, value, ret, why.text);
	rgctl_cpu_report(rg, &done);
	return EXIT_OK;
}
