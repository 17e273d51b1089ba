// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * likelytop -b: snapshots printed as text, CSV, JSON or OpenMetrics (or
 * written for node_exporter with --textfile, or turned into patches with
 * --suggest), every --delay seconds, --iterations times.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include "likelytop.h"
#include "outfile.h"
#include "tool.h"

#define LT_TEXTFILE "likelytop.prom"

/* --textfile DIR: the directory, opened once (not through a symlink). */
void lt_open_textfile_dir(struct lt_app *a)
{
	a->textfile_fd = tool_out_dir_open(a->o.textfile);
	if (a->textfile_fd < 0)
		tool_die(EXIT_FAIL, "cannot use '%s' for --textfile: %s",
			 TOOL_Q(a->o.textfile), tool_out_strerror(a->textfile_fd));
}

/*
 * One snapshot's metrics into DIR/likelytop.prom: a temporary file beside
 * it, renamed over it (outfile.h), so node_exporter never reads half a
 * file; a failure leaves the previous file and exits 1.
 */
struct textfile_arg {
	struct lt_app *a;
	const struct lt_out_meta *meta;
};

static int textfile_write(FILE *fp, void *arg)
{
	const struct textfile_arg *t = arg;

	return lt_out_write(fp, LT_OUT_PROM, t->meta, t->a->model.rows, t->a->model.nrows);
}

static void write_textfile(struct lt_app *a, const struct lt_out_meta *meta)
{
	struct textfile_arg t = { .a = a, .meta = meta };
	int ret = tool_out_write(a->textfile_fd, LT_TEXTFILE, textfile_write, &t);

	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot write '%s/%s': %s", TOOL_Q(a->o.textfile),
			 LT_TEXTFILE, tool_out_strerror(ret));
}

static int batch_print(struct lt_app *a, unsigned long iter)
{
	struct kattr_profile_filter f = {
		.substr = a->o.filter, .min_total = a->o.min_total,
		.wrong_only = a->o.wrong_only,
	};
	struct lt_out_meta meta = {
		.source = a->src.name, .format = a->model.shown.format,
		.iteration = iter, .sites = a->model.shown.n,
		.bad_rows = a->bad_rows, .time = (double)time(NULL),
		.cols = a->o.cols, .ncols = a->o.ncols,
		.raw = a->o.raw, .noheadings = a->o.noheadings,
	};
	int ret;

	if (a->bad_rows)
		tool_warn("%s: skipped %zu malformed rows", TOOL_Q(a->src.name), a->bad_rows);
	if (a->model.format_changed)
		tool_warn("%s", a->status);
	if (a->o.suggest)
		return lt_suggest_main(a);
	if (a->model.table) {	/* one snapshot, read once (lt_batch_run()) */
		ret = kattr_profile_table_order(a->model.table, &f, a->o.sort,
					     a->o.reverse);
		if (ret == 0)
			ret = lt_out_write_table(stdout, a->o.format, &meta,
						 a->model.table);
		goto out;
	}
	ret = lt_model_select(&a->model, &f, a->o.sort, a->o.reverse, 0);
	if (ret == 0 && a->o.textfile) {
		write_textfile(a, &meta);
		return 0;
	}
	if (ret == 0)
		ret = lt_out_write(stdout, a->o.format, &meta, a->model.rows,
				   a->model.nrows);
out:
	if (ret < 0) {
		/* _exit: the message is said once (not again at exit). */
		lt_app_free(a);
		if (ret == -EPIPE)	/* the reader left: no message */
			_exit(EXIT_FAIL);
		if (ret == -ENOMEM)
			tool_warn("out of memory writing the output");
		else
			tool_warn("write error on standard output: %s",
				  lt_strerror(ret));
		_exit(EXIT_FAIL);
	}
	return 0;
}

/* Wait for the tick or a signal: 1 tick, 0 stop (signal), 2 child exited. */
static int batch_wait(struct lt_app *a)
{
	struct signalfd_siginfo si;
	struct epoll_event ev[2];
	int ep = epoll_create1(EPOLL_CLOEXEC), n, ret = -1;

	if (ep < 0)
		return 0;
	ev[0].events = EPOLLIN;
	ev[0].data.fd = a->tfd;
	epoll_ctl(ep, EPOLL_CTL_ADD, a->tfd, &ev[0]);
	ev[0].data.fd = a->sfd;
	epoll_ctl(ep, EPOLL_CTL_ADD, a->sfd, &ev[0]);
	while (ret < 0) {
		n = epoll_wait(ep, ev, 2, -1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			ret = 0;
		for (int i = 0; i < n && ret < 0; i++) {
			if (ev[i].data.fd == a->tfd) {
				uint64_t ticks;

				if (read(a->tfd, &ticks, sizeof(ticks)) > 0)
					ret = 1;
				continue;
			}
			while (read(a->sfd, &si, sizeof(si)) == sizeof(si)) {
				if (si.ssi_signo == SIGCHLD) {
					if (lt_source_child_done(&a->src))
						ret = 2;
				} else if (si.ssi_signo != SIGWINCH) {
					ret = 0;
				}
			}
		}
	}
	close(ep);
	return ret;
}

int lt_batch_run(struct lt_app *a)
{
	long want = a->o.iterations;
	unsigned long iter = 0;
	int status = EXIT_OK, w;
	bool exec = a->o.exec_argv != NULL;

	/* --exec: only the final snapshot unless -n asks for more. */
	if (want < 0)
		want = exec ? 0 : 1;
	/* One snapshot printed once in text, CSV or JSON: no rates, no
	 * next snapshot to parse against, no metrics (they sort by site)
	 * and no --suggest: a compact table instead of the model's entries
	 * (a 200,000-site profile in 8 MB besides its text, not 24). */
	a->model.compact = !exec && want == 1 && !a->o.suggest &&
			   !a->o.textfile && (a->o.format == LT_OUT_TEXT ||
					      a->o.format == LT_OUT_CSV ||
					      a->o.format == LT_OUT_JSON);
	/* A reader that goes away (| head) must not kill us before the
	 * --exec command is stopped and its directory removed: EPIPE is
	 * handled in batch_print(). */
	signal(SIGPIPE, SIG_IGN);
	/* 200,000 rows: fewer, larger writes. */
	setvbuf(stdout, NULL, _IOFBF, 1 << 18);
	if (!exec) {
		if (lt_collect(a) < 0)
			tool_die(EXIT_FAIL, "%s", a->status);
		batch_print(a, ++iter);
	}
	lt_arm_timer(a);
	while (exec || want == 0 || iter < (unsigned long)want) {
		w = lt_source_child_done(&a->src) ? 2 : batch_wait(a);
		if (w == 0)
			break;
		if (w == 2) {
			if (lt_collect(a) < 0) {
				if (a->last_err == -ENOENT)
					tool_warn("'%s' exited without writing a profile (was it built with likely_prof.h?)",
						  a->o.exec_argv[0]);
				else
					tool_warn("%s", a->status);
				return EXIT_FAIL;
			}
			batch_print(a, ++iter);
			break;
		}
		if (exec && (a->o.iterations <= 0 ||
			     iter >= (unsigned long)a->o.iterations))
			continue;
		if (lt_collect(a) < 0) {
			if (exec && a->last_err == -ENOENT)
				continue;
			tool_warn("%s", a->status);
			status = EXIT_FAIL;
			continue;
		}
		status = EXIT_OK;
		batch_print(a, ++iter);
	}
	return status;
}
