// SPDX-License-Identifier: GPL-2.0-or-later
/* splicebench: Measure vmsplice(2) page gifting against copying. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "tool.h"

__attribute__((noreturn)) static void usage(void)
{
	printf("Usage: %s [options]\n\n", tool_name());
	printf("Measure vmsplice(2) page gifting against copying.\n\n");
	printf("Options:\n");
	printf("      --sysroot DIR   take /proc, /sys and mounts from DIR\n");
	printf("  -h, --help          show this help and exit\n");
	printf("  -V, --version       show the version and exit\n");
	printf("\nSee splicebench(1).\n");
	exit(EXIT_OK);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help",    no_argument,       NULL, 'h' },
		{ "version", no_argument,       NULL, 'V' },
		{ "sysroot", required_argument, NULL, TOOL_OPT_SYSROOT },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	tool_init("splicebench");
	while ((c = getopt_long(argc, argv, "hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage();
		case 'V':
			tool_version();
		case TOOL_OPT_SYSROOT:
			tool_set_sysroot(optarg);
			break;
		default:
			tool_try_help();
		}
	}
	tool_die(EXIT_FAIL, "nothing to do yet: this build has only --help and --version");
}
