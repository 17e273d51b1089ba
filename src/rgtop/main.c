// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rgctl-top: what rgctl top execs (src/rgctl/cmd_top.c), with the line
 * checked there and given back in long form, --backend and --root
 * resolved.  Run alone, it takes the same line.
 */
#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rgtop.h"
#include "tui.h"
#include "xalloc.h"

enum { OPT_BACKEND_L = OPT_CMD_FIRST + 17, OPT_ROOT_L, OPT_JSON_L };

static const struct option extra_opts[] = {
	{ "backend", required_argument, NULL, OPT_BACKEND_L },
	{ "root",    required_argument, NULL, OPT_ROOT_L },
	{ "json",    no_argument,       NULL, OPT_JSON_L },
	TOOL_LONGOPTS,
};

static void usage(void)
{
	printf("Usage: rgctl top [options] [GROUP]\n"
	       "rgctl-top is what 'rgctl top' runs: see 'rgctl top --help'.\n");
	exit(EXIT_OK);
}

/* -o: the columns' names (rgctl checked them). */
static void columns(struct top_opts *o, const char *arg)
{
	const char *bad;
	size_t badlen;
	int ret;

	if (!*arg)
		tool_usage_error("--output needs a list of columns");
	ret = tool_columns_parse(&rgctl_top_table, arg, o->cols, &o->ncols,
				 &bad, &badlen);
	if (ret < 0)
		tool_columns_error(ret, arg, bad, badlen, (int)rgctl_top_table.max);
}

static void parse(struct top_opts *o, int argc, char **argv)
{
	size_t nt = 0, ne = sizeof(extra_opts) / sizeof(extra_opts[0]);
	struct option opts[32];
	char *end;
	int c;

	while (rgctl_top_opts[nt].name)
		nt++;
	memcpy(opts, rgctl_top_opts, nt * sizeof(*opts));
	memcpy(opts + nt, extra_opts, ne * sizeof(*opts));
	memset(&opts[nt + ne], 0, sizeof(*opts));
	for (size_t i = 0; i < rgctl_top_ndefault; i++)
		o->cols[o->ncols++] = rgctl_top_default_cols[i];
	o->delay = 1;
	o->sort = TC_GROUP;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":" RGCTL_TOP_SHORTOPTS "hV", opts, NULL)) != -1) {
		switch (c) {
		case 'b': o->batch = true; break;
		case 'F': o->flat = true; break;
		case 'n':
			o->iterations = strtoul(optarg, &end, 10);
			if (*end || !o->iterations)
				tool_usage_error("invalid --iterations '%s'", TOOL_Q(optarg));
			break;
		case 'd':
			if (!tool_parse_seconds(optarg, 0.1, 86400, &o->delay))
				tool_usage_error("invalid --delay '%s'", TOOL_Q(optarg));
			break;
		case 'o': columns(o, optarg); break;
		case OPT_TOP_OUTPUT_ALL:
			for (o->ncols = 0; o->ncols < TC_N; o->ncols++)
				o->cols[o->ncols] = (int)o->ncols;
			break;
		case 's':
			o->sort = rgctl_top_sort_key(optarg);
			if (o->sort < 0)
				tool_usage_error("invalid --sort '%s'", TOOL_Q(optarg));
			break;
		case OPT_BACKEND_L: o->backend = optarg; break;
		case OPT_ROOT_L: o->root = optarg; break;
		case OPT_JSON_L: o->json = true; break;
		default: tool_option_tail(c, argv, ":" RGCTL_TOP_SHORTOPTS "hV", usage);
		}
	}
	o->group = optind < argc ? argv[optind++] : "/";
	if (optind < argc)
		tool_usage_error("give at most one GROUP");
	if (o->batch && !o->iterations)
		o->iterations = 1;
}

int main(int argc, char **argv)
{
	struct top_opts o = { 0 };
	enum kattr_rg_backend b = KATTR_RG_AUTO;
	struct kattr_rg *rg;
	struct model m;
	int ret;

	tool_init("rgctl top");
	parse(&o, argc, argv);
	setlocale(LC_CTYPE, "");
	if (o.backend && kattr_rg_backend_parse(o.backend, &b) < 0)
		tool_usage_error("unknown backend '%s'", TOOL_Q(o.backend));
	ret = kattr_rg_open_at(tool_root(), b, o.root, &rg);
	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot open the hierarchy%s%s: %s", o.root ? " at " : "",
			 o.root ? TOOL_Q(o.root) : "", tool_strerror(ret));
	o.backend = kattr_rg_backend_name(kattr_rg_backend_of(rg));
	o.root = kattr_rg_root(rg);
	ret = model_init(&m, rg, o.group);
	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot watch '%s': %s", TOOL_Q(o.group),
			 ret == -ENOENT ? "no such group" : tool_strerror(ret));
	ret = o.batch ? top_batch(&m, &o) : top_live(&m, &o);
	model_free(&m);
	kattr_rg_close(rg);
	return ret;
}
