// SPDX-License-Identifier: GPL-2.0-or-later
/* rgctl stats GROUP: the group's statistics, per controller. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rgctl.h"

static int run_stats(struct rgctl *ctx, int argc, char **argv);

const struct rgctl_cmd rgctl_cmd_stats = {
	.name = "stats",
	.args = "GROUP",
	.help = "Show statistics (RGCS stats, cpu.stat, cpuacct.usage)",
	.run = run_stats,
};

static int run_stats(struct rgctl *ctx, int argc, char **argv)
{
	struct kattr_rg_stat *v;
	const char *group;
	struct kattr_rg *rg;
	size_t n;
	int ret;

	rgctl_no_options(&rgctl_cmd_stats, argc, argv);
	if (argc - optind != 1)
		rgctl_cmd_usage(&rgctl_cmd_stats, "give exactly one GROUP");
	group = argv[optind];
	rgctl_check_group(group, true);
	rg = rgctl_rg(ctx);
	ret = kattr_rg_stats(rg, group, &v, &n);
	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot read the stats of '%s': %s",
			 TOOL_Q(group), rgctl_strerror(ret));
	if (ctx->json) {
		rgctl_json_print(rgctl_json_stats(
			kattr_rg_name_is_root(group) ? "/" : group,
			kattr_rg_backend_name(kattr_rg_backend_of(rg)), v, n));
	} else {
		for (size_t i = 0; i < n; i++) {
			/* the file's names, escaped: a captured tree is anyone's */
			tool_fputs_esc(v[i].res, stdout, 0);
			fputs(": ", stdout);
			tool_fputs_esc(v[i].key, stdout, 0);
			if (v[i].has_value)
				printf(" %lld", v[i].value);
			putchar('\n');
		}
	}
	kattr_rg_stats_free(v, n);
	return EXIT_OK;
}
