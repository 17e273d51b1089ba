// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rgctl's command line, as every command sees it: the help texts (rgctl's,
 * each command's, their column lists), usage errors, the getopt_long()
 * wrappers and -o LIST.  main.c parses the line and dispatches.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rgctl.h"

/* ---- help ---------------------------------------------------------------- */

static const char *const global_help[] = {
	"-b, --backend NAME", "Use rgcs, cgroup1 or cgroup2 (default: detect).",
	"    --root DIR", "Use the hierarchy at DIR: res_groups, or a cgroup mount.",
	"-j, -J, --json", "Print JSON instead of text.",
	"    --sysroot DIR", "Take /proc, /sys and the mount table from DIR.",
	"    --force", "Write outside systemd's delegated subtrees (see SYSTEMD in rgctl(8)).",
	"-h, --help", "Show this help and exit.",
	"-V, --version", "Show the version and exit.",
	NULL
};

static void print_options(const char *const *help)
{
	for (size_t i = 0; help[i]; i += 2)
		printf("  %-24s %s\n", help[i], help[i + 1]);
}

void rgctl_usage(void)
{
	int w = 0;

	printf("Usage: %s [options] COMMAND [options] [ARG...]\n\n", tool_name());
	printf("Create resource groups, set their shares, move tasks into them and read their stats.\n\n");
	printf("Commands:\n");
	for (size_t i = 0; rgctl_commands[i]; i++) {
		const struct rgctl_cmd *c = rgctl_commands[i];
		int n = (int)(strlen(c->name) + 1 + strlen(c->args));

		if (n > w)
			w = n;
	}
	for (size_t i = 0; rgctl_commands[i]; i++) {
		const struct rgctl_cmd *c = rgctl_commands[i];
		char head[80];

		snprintf(head, sizeof(head), "%s %s", c->name, c->args);
		printf("  %-*s  %s.\n", w, head, c->help);
	}
	printf("\nOptions (before or after the command):\n");
	print_options(global_help);
	printf("\n'%s help COMMAND' or '%s COMMAND --help' shows a command's options.\n"
	       "See rgctl(8).\n", tool_name(), tool_name());
	exit(EXIT_OK);
}

void rgctl_cmd_help(const struct rgctl_cmd *cmd)
{
	static const char *const help_opt[] = {
		"-h, --help", "Show this help and exit.", NULL
	};

	printf("Usage: %s %s [options] %s\n\n%s.\n", tool_name(), cmd->name,
	       cmd->args, cmd->help);
	printf("\nOptions:\n");
	if (cmd->opt_help)
		print_options(cmd->opt_help);
	print_options(help_opt);
	if (cmd->help_more)
		cmd->help_more();
	printf("\nGlobal options (before or after the command):\n");
	print_options(global_help);
	printf("\nSee rgctl(8).\n");
	exit(EXIT_OK);
}

const struct rgctl_cmd *rgctl_find_command(const char *name)
{
	for (size_t i = 0; rgctl_commands[i]; i++)
		if (strcmp(rgctl_commands[i]->name, name) == 0)
			return rgctl_commands[i];
	return NULL;
}

void rgctl_unknown_command(const struct rgctl_cmd *in, const char *name)
{
	const char *names[64], *pick;
	size_t n = 0;

	for (size_t i = 0; rgctl_commands[i] && n < 64; i++)
		names[n++] = rgctl_commands[i]->name;
	pick = tool_closest(name, names, n);
	if (in)
		rgctl_cmd_usage(in, "unknown command '%s'%s%s%s", TOOL_Q(name),
				pick ? " (did you mean '" : "", pick ? pick : "",
				pick ? "'?)" : "");
	tool_usage_error("unknown command '%s'%s%s%s", TOOL_Q(name),
			 pick ? " (did you mean '" : "", pick ? pick : "",
			 pick ? "'?)" : "");
}

/* rgctl help [COMMAND] */
static int run_help(struct rgctl *ctx, int argc, char **argv)
{
	const struct rgctl_cmd *cmd;

	(void)ctx;
	if (argc > 3)
		rgctl_cmd_usage(&rgctl_cmd_help_cmd, "give at most one COMMAND");
	if (argc < 3)
		rgctl_usage();
	cmd = rgctl_find_command(argv[2]);
	if (!cmd)
		rgctl_unknown_command(&rgctl_cmd_help_cmd, argv[2]);
	rgctl_cmd_help(cmd);
}

const struct rgctl_cmd rgctl_cmd_help_cmd = {
	.name = "help",
	.args = "[COMMAND]",
	.help = "Show the help of rgctl or of a command",
	.run = run_help,
};

/* ---- usage errors and getopt ---------------------------------------------- */

void rgctl_cmd_usage(const struct rgctl_cmd *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s %s: ", tool_name(), cmd->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nUsage: %s %s [options] %s\nTry '%s %s --help' for more information.\n",
		tool_name(), cmd->name, cmd->args, tool_name(), cmd->name);
	exit(EXIT_USAGE);
}

static const struct option help_only[] = {
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

int rgctl_getopt(const struct rgctl_cmd *cmd, int argc, char **argv)
{
	char shortopts[64];
	int c;

	snprintf(shortopts, sizeof(shortopts), "%sh",
		 cmd->shortopts ? cmd->shortopts : "");
	c = getopt_long(argc, argv, shortopts, cmd->opts, NULL);
	if (c == 'h')
		rgctl_cmd_help(cmd);
	if (c == '?' || c == ':')
		rgctl_bad_option(cmd, argv);
	return c;
}

void rgctl_no_options(const struct rgctl_cmd *cmd, int argc, char **argv)
{
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", help_only, NULL)) != -1) {
		if (c == 'h')
			rgctl_cmd_help(cmd);
		rgctl_bad_option(cmd, argv);
	}
}

void rgctl_option_error(const struct rgctl_cmd *cmd, int c, char **argv,
			const char *shortopts)
{
	char what[128];

	tool_option_problem(c, argv, shortopts, what, sizeof(what));
	rgctl_cmd_usage(cmd, "%s", what);
}

void rgctl_bad_option(const struct rgctl_cmd *cmd, char **argv)
{
	rgctl_option_error(cmd, '?', argv, cmd->shortopts ? cmd->shortopts : "");
}

/* ---- -o LIST --------------------------------------------------------------- */

void rgctl_columns_help(const struct tool_columns *t)
{
	tool_columns_help(stdout, t);
}

void rgctl_columns_parse(const struct rgctl_cmd *cmd, const struct tool_columns *t,
			 const char *arg, int *cols, size_t *n)
{
	const char *bad;
	size_t badlen;
	int ret;

	if (!arg[*arg == '+'])
		rgctl_cmd_usage(cmd, "--output needs a list of columns");
	ret = tool_columns_parse(t, arg, cols, n, &bad, &badlen);
	if (ret == -E2BIG)
		rgctl_cmd_usage(cmd, "too many columns");
	if (ret < 0 && !badlen && !*bad)
		rgctl_cmd_usage(cmd, "a column list does not end in ','");
	if (ret < 0) {
		char word[TOOL_Q_SIZE];	/* the word alone, then escaped */

		snprintf(word, sizeof(word), "%.*s", (int)badlen, bad);
		rgctl_cmd_usage(cmd, "unknown column '%s' (see 'rgctl %s --help')",
				TOOL_Q(word), cmd->name);
	}
}
