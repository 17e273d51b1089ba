// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rgctl: create resource groups, set their shares, move tasks into them and
 * read their stats, on RGCS, cgroup v1 and cgroup v2.  main() parses the
 * global options and dispatches to a command (commands.c).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rgctl.h"

__attribute__((noreturn)) static void usage(void)
{
	printf("Usage: %s [options] COMMAND [ARG...]\n\n", tool_name());
	printf("Create resource groups, set their shares, move tasks into them and read their stats.\n\n");
	printf("Commands:\n");
	for (size_t i = 0; rgctl_commands[i]; i++) {
		const struct rgctl_cmd *c = rgctl_commands[i];
		char head[80];

		snprintf(head, sizeof(head), "%s %s", c->name, c->args);
		printf("  %-40s %s\n", head, c->help);
	}
	printf("\nOptions:\n");
	printf("  -b, --backend NAME  rgcs, cgroup1 or cgroup2 (default: detect)\n");
	printf("  -r, --root DIR      the hierarchy: res_groups, or a cgroup mount\n");
	printf("  -j, --json          machine-readable output\n");
	printf("      --sysroot DIR   take /proc, /sys and mounts from DIR\n");
	printf("      --force         write outside systemd's delegated subtrees (see SYSTEMD in rgctl(8))\n");
	printf("  -h, --help          show this help and exit\n");
	printf("  -V, --version       show the version and exit\n");
	printf("\n'%s COMMAND --help' shows a command's options.  See rgctl(8).\n",
	       tool_name());
	exit(EXIT_OK);
}

static const struct rgctl_cmd *find_command(const char *name)
{
	for (size_t i = 0; rgctl_commands[i]; i++)
		if (strcmp(rgctl_commands[i]->name, name) == 0)
			return rgctl_commands[i];
	return NULL;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "backend", required_argument, NULL, 'b' },
		{ "root",    required_argument, NULL, 'r' },
		{ "json",    no_argument,       NULL, 'j' },
		{ "help",    no_argument,       NULL, 'h' },
		{ "version", no_argument,       NULL, 'V' },
		{ "sysroot", required_argument, NULL, TOOL_OPT_SYSROOT },
		{ "force",   no_argument,       NULL, OPT_FORCE },
		{ NULL, 0, NULL, 0 }
	};
	struct rgctl ctx = { .backend = KATTR_RG_AUTO };
	const struct rgctl_cmd *cmd;
	int c, status;

	tool_init("rgctl");
	/* '+': stop at the command; its options are its own. */
	while ((c = getopt_long(argc, argv, "+b:r:jhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'b':
			if (kattr_rg_backend_parse(optarg, &ctx.backend) < 0)
				tool_usage_error("unknown backend '%s' (rgcs, cgroup1 or cgroup2)",
						 rgctl_q(optarg));
			break;
		case 'r':
			if (!*optarg)
				tool_usage_error("--root needs a directory");
			ctx.root = optarg;
			break;
		case 'j':
			ctx.json = true;
			break;
		case 'h':
			usage();
		case 'V':
			tool_version();
		case TOOL_OPT_SYSROOT:
			tool_set_sysroot(optarg);
			break;
		case OPT_FORCE:
			ctx.force = true;
			break;
		default:
			tool_try_help();
		}
	}
	if (optind >= argc)
		tool_usage_error("no command given");
	cmd = find_command(argv[optind]);
	if (!cmd)
		tool_usage_error("unknown command '%s'", rgctl_q(argv[optind]));
	if (!cmd->raw_args)
		rgctl_protect_args(argc - optind, argv + optind);
	opterr = 0;
	status = cmd->run(&ctx, argc - optind, argv + optind);
	kattr_rg_close(ctx.rg);
	return status;
}
