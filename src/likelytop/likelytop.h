/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What likelytop's main loop and its live view share: the options and the
 * application (the modules each have their own header, included where used). */
#ifndef LIKELYTOP_H
#define LIKELYTOP_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "model.h"
#include "output.h"
#include "source.h"

struct lt_opts {
	bool batch;
	long iterations;	/* -1: not given */
	double delay;		/* seconds */
	const char *file;
	enum lt_out_format format;
	bool format_set;	/* --format or -J given */
	const char *textfile;	/* --textfile DIR */
	enum kattr_profile_sort sort;
	bool reverse;
	uint64_t min_total;
	bool wrong_only;
	const char *filter;
	pid_t pid;
	char **exec_argv;	/* --exec COMMAND */
	const char *srcdir;	/* -S */
	enum lt_column_id cols[LT_COL_MAX];	/* -o, --output-all */
	size_t ncols;		/* 0: the default columns */
	bool raw, noheadings;
	bool min_total_set;
	const char *suggest;	/* --suggest SRCDIR */
	const char *suggest_out;
	const char *callers_from;	/* --callers-from: saved --callers -J */
	double min_miss, flip_miss;
	bool min_miss_set, flip_miss_set;
	const char *callers;	/* --callers SITE */
	const char *condition;	/* --condition TEXT */
	bool uprobe;		/* --uprobe: callers of a user-space function */
	int mechanism;		/* --mechanism: enum lt_mech (callers_kern.h) */
	bool mechanism_set;
};

struct lt_app {
	struct lt_opts o;
	struct lt_source src;
	struct lt_model model;
	int sfd;		/* signalfd */
	int tfd;		/* timerfd, the refresh tick */
	int textfile_fd;	/* --textfile DIR, opened once */
	size_t bad_rows;	/* in the last snapshot */
	int last_err;		/* of the last read/parse, 0 if it went well */
	bool child_gone;	/* --exec: the command exited, final snapshot */
	char status[256];	/* one line for the user */
};

/* args.c: the command line into o (exits 2 on a usage error). */
void lt_parse_args(int argc, char **argv, struct lt_opts *o);
/* collect.c: the signalfd and the timerfd of the loop (exits on failure). */
void lt_setup_loop(struct lt_app *app);
/* collect.c: the source the options name, or the one found (exits when
 * there is none). */
void lt_open_source(struct lt_app *app);
/* collect.c: heap set aside for a large file's snapshots. */
void lt_reserve_heap(const struct lt_source *src);
/* collect.c: the source closed and the model freed. */
void lt_app_free(struct lt_app *app);
/* batch.c: --textfile DIR opened (exits on failure). */
void lt_open_textfile_dir(struct lt_app *app);
/* batch.c: -b; returns the exit status. */
int lt_batch_run(struct lt_app *app);

double lt_now(void);
/* Read the source and update the model; sets app->status on trouble. */
int lt_collect(struct lt_app *app);
/* Re-arm the refresh tick (after a manual refresh). */
void lt_arm_timer(struct lt_app *app);
/* Describe -errno e for a message ("no such file or directory"). */
const char *lt_strerror(int e);

/* --suggest on the current snapshot: write the patches, report the
 * refusals (suggest/cli.c); exits 1 on failure. */
int lt_suggest_main(struct lt_app *app);
/* The live view's p key: the patch for e, or why none (malloc'ed). */
char *lt_suggest_text(struct lt_app *app, const struct kattr_profile_entry *e);

/* The ncurses live view; returns the exit status. */
int lt_view_run(struct lt_app *app);

#endif
