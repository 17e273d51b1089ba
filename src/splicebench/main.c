// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * splicebench: measure vmsplice(2) page gifting against copying.
 * main() only dispatches: cli.c reads the options, session.c checks the
 * CPUs and pipes and runs the plan (modes x sizes) through run.c, and
 * output/ reports (table.c, csv.c, json.c, plot.c); the exit status.
 */
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "kattr/kattr.h"
#include "kattr/private_sys.h"
#include "sb.h"
#include "run.h"
#include "output/output.h"
#include "cli.h"
#include "session.h"
#include "tool.h"
#include "xalloc.h"

enum {
	EXIT_CORRUPT = 3,	/* verify found corrupted data */
};

int main(int argc, char **argv)
{
	struct sb_config cfg = {
		.modes = (1u << SB_NMODES) - 1, .consumer = SB_READ,
		.pin_producer = -1, .pin_consumer = -1,
	};
	struct sb_report rep = { .cfg = &cfg, .argc = argc, .argv = argv,
				 .started = (long long)time(NULL) };
	struct sb_table_opts topts = { .ncols = 0 };
	enum sb_format fmt = SB_TABLE;
	const char *plot = NULL;
	int failed, status = EXIT_OK;

	tool_init("splicebench");
	sb_parse_args(argc, argv, &cfg, &fmt, &plot, &topts);
	signal(SIGPIPE, SIG_IGN);	/* EPIPE instead, from pipes and gnuplot */
	sb_check_pin(&cfg);
	sb_quick_pin(&cfg);
	kattr_sysfacts_read_at(tool_root(), &rep.facts);
	if (!rep.facts.page_size && !tool_sysroot())
		rep.facts.page_size = (uint64_t)sysconf(_SC_PAGESIZE);
	sb_check_pipe_size(&cfg, &rep.facts, &rep.pipe_size_default);
	if (cfg.consumer == SB_FILE) {
		char why[sizeof(rep.res->why)];
		int fd = sb_open_file_consumer(cfg.file_path, why, sizeof(why));

		if (fd < 0)
			tool_die(EXIT_FAIL, "--consumer file: %s", why);
		close(fd);
	}
	if (plot)
		sb_check_plot_target(plot);
	rep.res = xcalloc(SB_NMODES * SB_MAX_SIZES, sizeof(*rep.res));
	sb_catch_sigint();
	sb_run_baseline(&cfg, &rep.base);
	failed = sb_run_all(&rep, &cfg);
	sb_report_huge(&rep);
	sb_warn_spread(&rep);
	sb_output(&rep, fmt, &topts);
	tool_flush_stdout();
	if (plot && sb_plot(&rep, plot) < 0)
		status = EXIT_FAIL;
	else if (plot)
		fprintf(stderr, "splicebench: plot written to %s\n", plot);
	if (failed)
		status = EXIT_FAIL;
	if (sb_report_corruption(&rep))
		status = EXIT_CORRUPT;
	if (rep.interrupted)
		status = 128 + SIGINT;
	free(rep.res);
	return status;
}
