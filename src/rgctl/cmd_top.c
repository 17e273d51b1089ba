// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rgctl top [GROUP]: checks its line, opens the hierarchy (the backend
 * detected, the default root, its errors as every command says them) and
 * execs rgctl-top with the line in canonical form, so that rgctl itself
 * maps neither ncurses nor the view.  The line is top's own (struct
 * rgctl_cmd own_line): -b is systemd-cgtop's --batch here, not --backend.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "rgctl_top.h"
#include "xalloc.h"

static int run_top(struct rgctl *ctx, int argc, char **argv);

static void top_help_more(void)
{
	printf("\nAvailable output columns (default: all but PIDSEV and THROTTLED):\n");
	rgctl_columns_help(&rgctl_top_table);
	printf("\nThe first snapshot comes after one interval: its rates are measured, never\n"
	       "guessed.  -b, -n and -d are systemd-cgtop's; the global --backend has no\n"
	       "short option after 'top'.  Live keys: '?' in the view.\n");
}

const struct rgctl_cmd rgctl_cmd_top = {
	.name = "top",
	.args = "[GROUP]",
	.help = "Watch the groups live: use, weights against shares got, limits, events",
	.run = run_top,
	.own_line = true,
	.opts = rgctl_top_opts, .shortopts = RGCTL_TOP_SHORTOPTS,
	.opt_help = rgctl_top_help,
	.help_more = top_help_more,
};

/* The line rgctl-top gets. */
struct top_line {
	char *argv[32];
	int argc;
};

/* "--opt" or "--opt=VALUE" (arg NULL: none). */
static void add(struct top_line *l, const char *opt, const char *arg)
{
	char *s;

	if (asprintf(&s, "--%s%s%s", opt, arg ? "=" : "", arg ? arg : "") < 0)
		xalloc_die();
	l->argv[l->argc++] = s;
}

static void check_count(const char *arg)
{
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(arg, &end, 10);
	if (arg[0] < '0' || arg[0] > '9' || *end || errno || n == 0 || n > 100000000)
		rgctl_cmd_usage(&rgctl_cmd_top,
				"invalid --iterations '%s': give a number of snapshots from 1 to 100000000",
				TOOL_Q(arg));
}

static void check_delay(const char *arg)
{
	double d;

	if (!tool_parse_seconds(arg, 0.1, 86400, &d))
		rgctl_cmd_usage(&rgctl_cmd_top,
				"invalid --delay '%s': give seconds from 0.1 to 86400 (1, 0.5)",
				TOOL_Q(arg));
}

/* -o LIST checked as list's, passed on by the columns' names. */
static void add_columns(struct top_line *l, const char *arg, bool all)
{
	int cols[TC_N * 4];
	size_t n = 0, len = 0;
	char buf[TC_N * 4 * 12];

	if (all)
		for (int i = 0; i < TC_N; i++)
			cols[n++] = i;
	else
		rgctl_columns_parse(&rgctl_cmd_top, &rgctl_top_table, arg, cols, &n);
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s", i ? "," : "",
					rgctl_top_columns[cols[i]].name);
	add(l, "output", buf);
}

static const struct option global_long[] = {
	{ "backend", required_argument, NULL, OPT_BACKEND },
	{ "root",    required_argument, NULL, OPT_ROOT },
	{ "json",    no_argument,       NULL, 'j' },
	{ "force",   no_argument,       NULL, OPT_FORCE },
	TOOL_LONGOPTS,
};

/* The line's options into l, GROUP into *group; the globals into ctx. */
static void parse_top(struct rgctl *ctx, struct top_line *l, const char **group,
		      int argc, char **argv)
{
	const char *shortopts = "-:" RGCTL_TOP_SHORTOPTS "jJhV";
	size_t ng = sizeof(global_long) / sizeof(global_long[0]), nt = 0;
	struct option opts[32];
	int c;

	while (rgctl_top_opts[nt].name)
		nt++;
	memcpy(opts, rgctl_top_opts, nt * sizeof(*opts));
	memcpy(opts + nt, global_long, ng * sizeof(*opts));
	memset(&opts[nt + ng], 0, sizeof(*opts));
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
		switch (c) {
		case 1:
			if (*group)
				rgctl_cmd_usage(&rgctl_cmd_top, "give at most one GROUP");
			*group = optarg;
			break;
		case 'b': add(l, "batch", NULL); break;
		case 'F': add(l, "flat", NULL); break;
		case 'n': check_count(optarg); add(l, "iterations", optarg); break;
		case 'd': check_delay(optarg); add(l, "delay", optarg); break;
		case 'o': add_columns(l, optarg, false); break;
		case OPT_TOP_OUTPUT_ALL: add_columns(l, NULL, true); break;
		case 's':
			if (rgctl_top_sort_key(optarg) < 0)
				rgctl_cmd_usage(&rgctl_cmd_top,
						"invalid --sort '%s': give a column or p, t, c, m, i",
						TOOL_Q(optarg));
			add(l, "sort", optarg);
			break;
		case 'j': case 'J': ctx->json = true; break;
		case OPT_FORCE: ctx->force = true; break;
		case OPT_ROOT:
			if (!*optarg)
				tool_usage_error("--root needs a directory");
			ctx->root = optarg;
			break;
		case OPT_BACKEND:
			if (kattr_rg_backend_parse(optarg, &ctx->backend) < 0)
				tool_usage_error("unknown backend '%s' (rgcs, cgroup1 or cgroup2)",
						 TOOL_Q(optarg));
			break;
		case 'h': rgctl_cmd_help(&rgctl_cmd_top);
		default:
			if (c == '?' || c == ':' || !tool_common_option(c, NULL))
				rgctl_option_error(&rgctl_cmd_top, c, argv, shortopts);
		}
		if (l->argc > 20)
			rgctl_cmd_usage(&rgctl_cmd_top, "too many options");
	}
	if (optind < argc && !*group)
		*group = argv[optind++];
	if (optind < argc)
		rgctl_cmd_usage(&rgctl_cmd_top, "give at most one GROUP");
}

/* rgctl-top next to rgctl (the build tree), else where it is installed. */
static const char *top_path(char *buf, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", buf, size - sizeof(RGCTL_TOP_NAME) - 1);
	char *slash;

	if (n > 0) {
		buf[n] = '\0';
		slash = strrchr(buf, '/');
		if (slash) {
			strcpy(slash + 1, RGCTL_TOP_NAME);
			if (access(buf, X_OK) == 0)
				return buf;
		}
	}
	return RGCTL_TOP_PATH;
}

static int run_top(struct rgctl *ctx, int argc, char **argv)
{
	struct top_line l = { .argc = 1 };
	const char *group = NULL, *sysroot;
	char path[PATH_MAX];
	struct kattr_rg *rg;
	int ret;

	parse_top(ctx, &l, &group, argc, argv);
	if (!group)
		group = "/";
	rgctl_check_group(group, true);
	rg = rgctl_rg(ctx);
	ret = kattr_rg_exists(rg, group);
	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot watch '%s': %s", TOOL_Q(group),
			 ret == -ENOENT ? "no such group" : rgctl_strerror(ret));
	add(&l, "backend", kattr_rg_backend_name(kattr_rg_backend_of(rg)));
	add(&l, "root", kattr_rg_root(rg));
	sysroot = tool_sysroot();
	if (sysroot && *sysroot && strcmp(sysroot, "/") != 0)
		add(&l, "sysroot", sysroot);
	if (ctx->json)
		add(&l, "json", NULL);
	l.argv[l.argc++] = (char *)"--";
	l.argv[l.argc++] = (char *)group;
	l.argv[l.argc] = NULL;
	l.argv[0] = (char *)top_path(path, sizeof(path));
	fflush(NULL);
	execv(l.argv[0], l.argv);
	tool_die(EXIT_FAIL, "cannot run %s: %s", l.argv[0], tool_strerror(errno));
}
