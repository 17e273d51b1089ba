// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * likelytop: show branch-hint (likely/unlikely) profiles sorted by
 * misprediction, live (ncurses) or in batch mode (text, CSV, JSON).
 *
 * Pipeline: pick a source -> read a snapshot -> parse -> diff against the
 * previous one -> sort and filter -> render.  This file hands over:
 * args.c reads the options, collect.c opens the source and reads each
 * snapshot into the model (model.c), batch.c prints them, view.c draws
 * them.
 */
#include <malloc.h>
#include <stdlib.h>
#include <unistd.h>

#include "config.h"
#include "likelytop.h"
#include "tool.h"

static struct lt_app app;

static void cleanup(void)
{
	lt_app_free(&app);
}

int main(int argc, char **argv)
{
	int status;

	tool_init("likelytop");
	/* Each refresh allocates and frees tens of MB (a 200,000-site
	 * snapshot and its entries): keep them on the heap for the next
	 * refresh instead of mapping, faulting in and zeroing fresh pages. */
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
	mallopt(M_TOP_PAD, 2 << 20);
	lt_parse_args(argc, argv, &app.o);
	app.sfd = app.tfd = app.textfile_fd = -1;
	if (app.o.textfile)
		lt_open_textfile_dir(&app);
	lt_model_init(&app.model);
	if (!app.o.batch && !WITH_NCURSES)
		return lt_view_run(&app);
	if (!app.o.batch && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)))
		tool_die(EXIT_FAIL, "the live view needs a terminal; use -b for batch output");
	lt_setup_loop(&app);
	atexit(cleanup);
	lt_open_source(&app);
	/* User-space profiles count in 64 bits (likely_prof(3)): a count
	 * going down is a restart, never a wrap. */
	app.model.counters64 = app.src.kind == LT_SRC_USER;
	lt_reserve_heap(&app.src);
	status = app.o.batch ? lt_batch_run(&app) : lt_view_run(&app);
	cleanup();
	return status;
}
