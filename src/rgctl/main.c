// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rgctl: create resource groups, set their shares, move tasks into them and
 * read their stats, on RGCS, cgroup v1 and cgroup v2.  main() parses the
 * line (global options before or after the command, as systemctl does) and
 * dispatches to a command (commands.c); the help texts, usage errors and
 * getopt wrappers the commands share are in cli.c.
 */
#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rgctl.h"
#include "rgctl_systemd.h"
#include "xalloc.h"

/* The options every command takes, anywhere on the line. */
#define GLOBAL_SHORTOPTS "b:jJhV"
static const struct option global_opts[] = {
	{ "backend", required_argument, NULL, 'b' },
	{ "root",    required_argument, NULL, OPT_ROOT },
	{ "json",    no_argument,       NULL, 'j' },
	{ "force",   no_argument,       NULL, OPT_FORCE },
	TOOL_LONGOPTS,
	{ NULL, 0, NULL, 0 }
};
/* A global option: applied; false if c is not one. */
static bool global_option(struct rgctl *ctx, int c)
{
	switch (c) {
	case 'b':
		if (kattr_rg_backend_parse(optarg, &ctx->backend) < 0)
			tool_usage_error("unknown backend '%s' (rgcs, cgroup1 or cgroup2)",
					 TOOL_Q(optarg));
		return true;
	case OPT_FORCE:
		ctx->force = true;
		return true;
	case OPT_ROOT:
		if (!*optarg)
			tool_usage_error("--root needs a directory");
		ctx->root = optarg;
		return true;
	case 'j':
	case 'J':
		ctx->json = true;
		return true;
	default:	/* -V, --sysroot (-h: the caller's help) */
		return tool_common_option(c, NULL);
	}
}

/* The line as main() hands it to the command (see struct rgctl_cmd). */
static struct {
	char **argv;
	int argc;
	struct option *opts;
	char *shortopts;
	char **operands;	/* while parsing (here, not on the stack, so
				 * a usage error's exit leaves nothing a leak
				 * checker could count as lost) */
} line;

/* "--long" or "--long=VALUE" for the command option c. */
static char *long_form(const struct rgctl_cmd *cmd, int c, const char *arg)
{
	for (const struct option *o = cmd->opts; o && o->name; o++) {
		size_t n;
		char *s;

		if (o->val != c)
			continue;
		n = strlen(o->name) + (arg ? strlen(arg) + 1 : 0) + 3;
		s = xcalloc(n, 1);
		snprintf(s, n, "--%s%s%s", o->name, arg ? "=" : "", arg ? arg : "");
		return s;
	}
	tool_die(EXIT_FAIL, "internal error: option %d of '%s' has no long name",
		 c, cmd->name);
}

/* Is "-5" (getopt's option '5' with optarg "..." or NULL) a number? */
static bool is_negative_number(const char *word, int c, const char *arg)
{
	return word[0] == '-' && word[1] == c &&
	       (arg ? arg == word + 2 : word[2] == '\0');
}

/*
 * Parse the command's part of the line, argv[0] being its name: global
 * options and the command's own, in any order with the operands, "--" ending
 * them.  A word that starts with '-' and a digit is an operand (negative
 * shares, a bad pid to refuse by name): the digits are declared as short
 * options with an optional argument, so getopt_long() hands them back
 * whole, and no digit is an option of rgctl.
 */
static void parse_command(struct rgctl *ctx, const struct rgctl_cmd *cmd,
			  int argc, char **argv)
{
	size_t ng = sizeof(global_opts) / sizeof(global_opts[0]) - 1, nc = 0;
	char **operands = line.operands = xcalloc((size_t)argc + 1, sizeof(char *));
	int nops = 0, c;

	while (cmd->opts && cmd->opts[nc].name)
		nc++;
	line.opts = xcalloc(ng + nc + 1, sizeof(struct option));
	memcpy(line.opts, global_opts, ng * sizeof(struct option));
	if (nc)
		memcpy(line.opts + ng, cmd->opts, nc * sizeof(struct option));
	line.shortopts = xcalloc(64 + (cmd->shortopts ? strlen(cmd->shortopts) : 0), 1);
	/* '-': operands come back in order (as option 1); ':': a missing
	 * argument is told apart from an unknown option. */
	sprintf(line.shortopts, "-:%s%s0::1::2::3::4::5::6::7::8::9::",
		GLOBAL_SHORTOPTS, cmd->shortopts ? cmd->shortopts : "");
	line.argv = xcalloc((size_t)argc * 2 + 2, sizeof(char *));
	line.argv[line.argc++] = argv[0];

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, line.shortopts, line.opts, NULL)) != -1) {
		if (c == 1) {
			operands[nops++] = optarg;
			if (cmd->raw_args)
				break;	/* exec: the rest is COMMAND's */
			continue;
		}
		if (isdigit(c) && is_negative_number(argv[optind - 1], c, optarg)) {
			operands[nops++] = argv[optind - 1];
			continue;
		}
		if (c == 'h')
			rgctl_cmd_help(cmd);
		if (global_option(ctx, c))
			continue;
		if (c == '?' || c == ':' || isdigit(c))
			rgctl_option_error(cmd, c, argv, line.shortopts);
		line.argv[line.argc++] = long_form(cmd, c, optarg);
	}
	line.argv[line.argc++] = (char *)"--";
	for (int i = 0; i < nops; i++)
		line.argv[line.argc++] = operands[i];
	for (int i = optind; i < argc; i++)
		line.argv[line.argc++] = argv[i];
	line.argv[line.argc] = NULL;
	free(operands);
	line.operands = NULL;
}

int main(int argc, char **argv)
{
	struct rgctl ctx = { .backend = KATTR_RG_AUTO };
	const struct rgctl_cmd *cmd;
	int c, status;

	tool_init("rgctl");
	/* Before the command: global options only ('+': stop at it). */
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:" GLOBAL_SHORTOPTS, global_opts,
				NULL)) != -1) {
		if (c == 'h')
			rgctl_usage();
		if (global_option(&ctx, c))
			continue;
		if (c == '?' && optopt == 'r')
			tool_usage_error("-r is --raw (of list) now; the hierarchy is --root DIR");
		tool_bad_option(c, argv, "+:" GLOBAL_SHORTOPTS);
	}
	if (optind >= argc)
		tool_usage_error("no command given");
	cmd = rgctl_find_command(argv[optind]);
	if (!cmd)
		rgctl_unknown_command(NULL, argv[optind]);
	if (cmd->own_line) {
		status = cmd->run(&ctx, argc - optind, argv + optind);
		kattr_rg_close(ctx.rg);
		return status;
	}
	parse_command(&ctx, cmd, argc - optind, argv + optind);
	rgctl_own_context(cmd->name, NULL);	/* what made a group, in its mark */
	status = cmd->run(&ctx, line.argc, line.argv);
	kattr_rg_close(ctx.rg);
	return status;
}
