// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * likelytop: show branch-hint (likely/unlikely) profiles sorted by
 * misprediction, live (ncurses) or in batch mode (text, CSV, JSON).
 *
 * Pipeline: pick a source -> read a snapshot -> parse -> diff against the
 * previous one -> sort and filter -> render.  One epoll loop over a
 * timerfd (the refresh tick), a signalfd (no async signal handlers) and,
 * in the live view, stdin.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <malloc.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "likelytop.h"
#include "outfile.h"
#include "strutils.h"
#include "tool.h"

enum {
	OPT_FORMAT = TOOL_OPT_FIRST,
	OPT_MIN_TOTAL,
	OPT_WRONG_ONLY,
	OPT_EXEC,
	OPT_FILTER,
	OPT_OUTPUT_ALL,
	OPT_NOHEADINGS,
	OPT_RAW,
	OPT_SUGGEST,
	OPT_SUGGEST_OUT,
	OPT_MIN_MISS,
	OPT_FLIP_MISS,
	OPT_TEXTFILE,
};

static struct lt_app app;

__attribute__((noreturn)) static void usage(void)
{
	printf("Usage: %s [options]\n", tool_name());
	printf("       %s -b [-n ITER] [-d SEC] [-f FILE] [--format FMT] [--sort KEY]\n"
	       "                 [--min-total N] [--wrong-only] [--textfile DIR]\n", tool_name());
	printf("       %s [options] --exec -- COMMAND [ARG...]\n", tool_name());
	printf("       %s --suggest SRCDIR [-f FILE] [--min-total N] [--min-miss PCT]\n"
	       "                 [--flip-miss PCT] [--suggest-out FILE|DIR]\n\n", tool_name());
	printf("Show branch-hint (likely/unlikely) profiles sorted by misprediction.\n\n");
	printf("Sources (default: the first found of /proc/likely_prof, tracefs\n"
	       "trace_stat/branch_annotated, the newest live user-space profile):\n");
	printf("  -f, --file FILE       read FILE ('-': standard input)\n");
	printf("  -p, --pid PID         the user-space profile of process PID\n");
	printf("      --exec            run COMMAND (after the options) profiled, and\n"
	       "                        show its profile; final snapshot when it exits\n");
	printf("\nOptions:\n");
	printf("  -b, --batch           batch mode: print, do not draw\n");
	printf("  -n, --iterations N    batch: print N snapshots (default 1; 0: until\n"
	       "                        interrupted)\n");
	printf("  -d, --delay SEC       refresh every SEC seconds (default 2)\n");
	printf("      --format FMT      batch output: text, csv, json or openmetrics\n"
	       "                        (default text)\n");
	printf("  -J, --json            the same as --format json\n");
	printf("  -o, --output LIST     batch text: the columns to show (see below;\n"
	       "                        +LIST adds to the default ones)\n");
	printf("      --output-all      batch text: every column\n");
	printf("      --noheadings      batch text and CSV: no summary and no titles\n");
	printf("      --raw             batch text: columns split by one space, blanks\n"
	       "                        in names as \\x20\n");
	printf("      --textfile DIR    batch: write the metrics to DIR/likelytop.prom\n"
	       "                        (replaced whole each snapshot) for node_exporter\n");
	printf("  -s, --sort KEY        incorrect (default), correct, percent, total,\n"
	       "                        rate, function or file\n");
	printf("  -r, --reverse         reverse the sort order\n");
	printf("      --filter TEXT     only sites whose function or file contains TEXT\n");
	printf("      --min-total N     only sites evaluated at least N times\n");
	printf("      --wrong-only      only sites whose hint is wrong more often than right\n");
	printf("  -S, --source-dir DIR  live view details: show source lines from DIR,\n"
	       "                        and the p key's patch against it\n");
	printf("      --suggest SRCDIR  write patches removing (or flipping) the wrong\n"
	       "                        hints of one snapshot, against SRCDIR\n");
	printf("      --min-miss PCT    --suggest, p: hints missing more than PCT%% (default 50)\n");
	printf("      --flip-miss PCT   --suggest, p: flip instead of removing above PCT%%\n"
	       "                        (default 90)\n");
	printf("      --suggest-out P   --suggest: write to file P, or a 0001-... series\n"
	       "                        into directory P (default: standard output)\n");
	printf("      --sysroot DIR     take /proc, /sys and mounts from DIR\n");
	printf("  -h, --help            show this help and exit\n");
	printf("  -V, --version         show the version and exit\n");
	printf("\nColumns (-o):\n");
	lt_out_columns_help(stdout);
	printf("Default: MARK,HINT,CORRECT,INCORRECT,MISS%%,WRONG/s,FUNCTION,LOCATION.\n");
	printf("\nLive view keys: q quit, < > sort column, R reverse, / filter, f freeze,\n"
	       "z zero, space refresh, Enter details, p suggested patch, h or ? help.\n");
	printf("\nSee likelytop(8).\n");
	exit(EXIT_OK);
}

/* tool_strerror(), with the words of the profile readers' own causes. */
const char *lt_strerror(int e)
{
	if (e == -ENODATA)
		return "no profile rows (not a likely_prof, branch_annotated or branch_all profile)";
	if (e == -EFBIG)
		return "too large (more than 64 MiB)";
	return tool_strerror(e);
}

double lt_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* -p PID: say when the profiled process is gone (its last snapshot stays). */
static void note_exited(struct lt_app *a)
{
	if (a->src.kind != LT_SRC_USER || a->src.tmpdir || a->src.pid <= 0 ||
	    kill(a->src.pid, 0) == 0 || errno != ESRCH)
		return;
	snprintf(a->status, sizeof(a->status),
		 "process %d has exited: this is its last snapshot",
		 (int)a->src.pid);
}

/*
 * A 64-bit digest of a snapshot's bytes, four words a step: a procfs,
 * tracefs or FUSE file has no stat that tells a change, so the bytes do
 * (a static 200,000-site profile is 15 MB hashed in about a millisecond,
 * instead of parsed again every refresh).
 */
static uint64_t digest(const char *s, size_t n)
{
	const uint64_t m = 0x9e3779b97f4a7c15ULL;
	uint64_t h[4] = { n, m, ~n, m ^ n }, w;
	size_t i = 0;

	for (; i + 32 <= n; i += 32)
		for (int j = 0; j < 4; j++) {
			memcpy(&w, s + i + 8 * j, 8);
			h[j] = (h[j] ^ w) * m;
			h[j] ^= h[j] >> 29;
		}
	for (; i < n; i++)
		h[i & 3] = (h[i & 3] ^ (unsigned char)s[i]) * m;
	w = h[0] ^ (h[1] * 3) ^ (h[2] * 5) ^ (h[3] * 7);
	return w ^ (w >> 31);
}

int lt_collect(struct lt_app *a)
{
	static uint64_t last_digest;
	static bool have_digest;
	uint64_t d;
	enum kattr_prof_format before = a->model.raw ? a->model.raw->format : 0;
	char *buf;
	size_t len;
	int ret;

	ret = lt_source_read(&a->src, &buf, &len);
	if (ret == -ENOENT && a->src.kind == LT_SRC_USER && !a->model.raw) {
		snprintf(a->status, sizeof(a->status),
			 "waiting for the first snapshot in %s", a->src.path);
		a->last_err = ret;
		return ret;
	}
	if (ret < 0) {
		snprintf(a->status, sizeof(a->status), "cannot read %s: %s",
			 a->src.name, lt_strerror(ret));
		a->last_err = ret;
		return ret;
	}
	/* Bytes that are the last snapshot's again: unchanged too.  A file
	 * whose stat tells a change (read_path()) changed: no hash (1.5 ms
	 * for 15 MB, a tenth of a refresh). */
	if (ret == 0 && a->src.read_trusted) {
		have_digest = false;
	} else if (ret == 0) {
		d = digest(buf, len);
		if (have_digest && d == last_digest && a->model.raw &&
		    !a->last_err) {
			free(buf);
			ret = 1;
		}
		last_digest = d;
		have_digest = true;
	}
	if (ret == 1) {		/* the same file, unchanged */
		a->last_err = 0;
		a->model.format_changed = false;
		ret = lt_model_unchanged(&a->model, lt_now()) ? 0 : 1;
		note_exited(a);
		return ret;
	}
	ret = lt_model_update(&a->model, buf, len, lt_now(), &a->bad_rows);
	a->last_err = ret;
	if (ret == -EBADMSG) {
		snprintf(a->status, sizeof(a->status),
			 "%s: no valid rows: all %zu rows are malformed", a->src.name,
			 a->bad_rows);
		return ret;
	}
	if (ret < 0) {
		snprintf(a->status, sizeof(a->status), "%s: %s", a->src.name,
			 lt_strerror(ret));
		return ret;
	}
	a->status[0] = '\0';
	if (a->model.format_changed)
		snprintf(a->status, sizeof(a->status),
			 "%s changed format from %s to %s: rates restart",
			 a->src.name, kattr_prof_format_name(before),
			 kattr_prof_format_name(a->model.raw->format));
	else if (a->bad_rows)
		snprintf(a->status, sizeof(a->status),
			 "%s: skipped %zu malformed rows", a->src.name,
			 a->bad_rows);
	note_exited(a);
	return 0;
}

void lt_arm_timer(struct lt_app *a)
{
	struct itimerspec its;
	double d = a->o.delay;

	its.it_value.tv_sec = (time_t)d;
	its.it_value.tv_nsec = (long)((d - floor(d)) * 1e9);
	if (!its.it_value.tv_sec && !its.it_value.tv_nsec)
		its.it_value.tv_nsec = 1;
	its.it_interval = its.it_value;
	(void)timerfd_settime(a->tfd, 0, &its, NULL);
}

static void cleanup(void)
{
	lt_source_close(&app.src);
	lt_model_free(&app.model);
}

static void setup_loop(struct lt_app *a)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGQUIT);
	sigaddset(&set, SIGWINCH);
	sigaddset(&set, SIGCHLD);
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0)
		tool_die(EXIT_FAIL, "cannot block signals: %s", lt_strerror(errno));
	a->sfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	a->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (a->sfd < 0 || a->tfd < 0)
		tool_die(EXIT_FAIL, "cannot set up the event loop: %s",
			 lt_strerror(errno));
}

static double parse_delay(const char *s)
{
	double d;

	if (!lt_parse_delay(s, &d))
		tool_usage_error("invalid delay '%s': give seconds between 0.05 and 86400", s);
	return d;
}

static long parse_long(const char *s, const char *what, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		tool_usage_error("invalid %s '%s'", what, s);
	return v;
}

static double parse_pct(const char *s, const char *what)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= 0 && v < 100))
		tool_usage_error("invalid %s '%s': give a percentage from 0 to below 100", what, s);
	return v;
}

static uint64_t parse_u64_opt(const char *s, const char *what)
{
	unsigned long long v;

	if (str_parse_uint(s, UINT64_MAX, NULL, &v, NULL) < 0)
		tool_usage_error("invalid %s '%s'", what, TOOL_Q(s));
	return v;
}

static const struct option longopts[] = {
	{ "batch",      no_argument,       NULL, 'b' },
	{ "iterations", required_argument, NULL, 'n' },
	{ "delay",      required_argument, NULL, 'd' },
	{ "file",       required_argument, NULL, 'f' },
	{ "pid",        required_argument, NULL, 'p' },
	{ "format",     required_argument, NULL, OPT_FORMAT },
	{ "json",       no_argument,       NULL, 'J' },
	{ "sort",       required_argument, NULL, 's' },
	{ "reverse",    no_argument,       NULL, 'r' },
	{ "filter",     required_argument, NULL, OPT_FILTER },
	{ "min-total",  required_argument, NULL, OPT_MIN_TOTAL },
	{ "wrong-only", no_argument,       NULL, OPT_WRONG_ONLY },
	{ "exec",       no_argument,       NULL, OPT_EXEC },
	{ "source-dir", required_argument, NULL, 'S' },
	{ "suggest",    required_argument, NULL, OPT_SUGGEST },
	{ "suggest-out", required_argument, NULL, OPT_SUGGEST_OUT },
	{ "min-miss",   required_argument, NULL, OPT_MIN_MISS },
	{ "flip-miss",  required_argument, NULL, OPT_FLIP_MISS },
	{ "textfile",   required_argument, NULL, OPT_TEXTFILE },
	TOOL_LONGOPTS,
	TOOL_LONGOPTS_TABLE(OPT_OUTPUT_ALL, OPT_NOHEADINGS, OPT_RAW),
	{ NULL, 0, NULL, 0 }
};
/* '+': stop at COMMAND, so its own options stay its own.
 * ':': a missing argument is told apart from an unknown option. */
static const char shortopts[] = "+:bn:d:f:p:s:rS:o:JhV";

/* What the command line asks for, beyond struct lt_opts. */
struct args {
	struct lt_opts *o;
	bool exec, columns;
};

/* Where the profile comes from and how often; false if c is not one. */
static bool source_option(int c, const char *arg, struct args *a)
{
	struct lt_opts *o = a->o;

	switch (c) {
	case 'b':
		o->batch = true;
		return true;
	case 'n':
		o->iterations = parse_long(arg, "iteration count", 0, LONG_MAX);
		return true;
	case 'd':
		o->delay = parse_delay(arg);
		return true;
	case 'f':
		o->file = arg;
		return true;
	case 'p':
		o->pid = (pid_t)parse_long(arg, "pid", 1, INT_MAX);
		return true;
	case OPT_EXEC:
		a->exec = true;
		return true;
	case 'S':
		o->srcdir = arg;
		return true;
	case OPT_SUGGEST:
		o->suggest = arg;
		return true;
	case OPT_SUGGEST_OUT:
		o->suggest_out = arg;
		return true;
	case OPT_MIN_MISS:
		o->min_miss = parse_pct(arg, "minimum miss rate");
		o->min_miss_set = true;
		return true;
	case OPT_FLIP_MISS:
		o->flip_miss = parse_pct(arg, "flip miss rate");
		o->flip_miss_set = true;
		return true;
	default:
		return false;
	}
}

/* -o LIST: the batch text's columns. */
static void parse_columns(const char *arg, struct lt_opts *o)
{
	const char *bad;
	size_t badlen;
	int ret = lt_out_columns_parse(arg, o->cols, &o->ncols, &bad, &badlen);

	if (ret < 0)
		tool_columns_error(ret, arg, bad, badlen, LT_COL_MAX);
}

/* Which sites, in which order, shown how; false if c is not one. */
static bool view_option(int c, const char *arg, struct args *a)
{
	struct lt_opts *o = a->o;

	switch (c) {
	case OPT_FORMAT:
		if (lt_out_parse(arg, &o->format) < 0)
			tool_usage_error("unknown format '%s': use text, csv, json or openmetrics",
					 TOOL_Q(arg));
		o->format_set = true;
		return true;
	case 'J':	/* as util-linux tools and rgctl say JSON */
		if (lt_out_parse("json", &o->format) < 0)
			tool_usage_error("cannot select JSON output");
		o->format_set = true;
		return true;
	case 's':
		if (kattr_prof_sort_parse(arg, &o->sort) < 0)
			tool_usage_error("unknown sort key '%s': use incorrect, correct, percent, total, rate, function or file", arg);
		return true;
	case 'r':
		o->reverse = true;
		return true;
	case OPT_FILTER:
		if (strlen(arg) >= LT_FILTER_MAX)
			tool_usage_error("filter too long (at most %d bytes)", LT_FILTER_MAX - 1);
		o->filter = arg;
		return true;
	case OPT_MIN_TOTAL:
		o->min_total = parse_u64_opt(arg, "minimum total");
		o->min_total_set = true;
		return true;
	case OPT_WRONG_ONLY:
		o->wrong_only = true;
		return true;
	case 'o':
		a->columns = true;
		parse_columns(arg, o);
		return true;
	case OPT_OUTPUT_ALL:
		a->columns = true;
		o->ncols = lt_out_columns_all(o->cols);
		return true;
	case OPT_NOHEADINGS:
		o->noheadings = true;
		return true;
	case OPT_TEXTFILE:
		if (!*arg)
			tool_usage_error("--textfile needs a directory");
		o->textfile = arg;
		return true;
	case OPT_RAW:
		o->raw = true;
		return true;
	default:
		return false;
	}
}

/* The options that exclude or need each other. */
static void check_args(const struct args *a)
{
	struct lt_opts *o = a->o;

	if (o->suggest && !o->min_total_set)
		o->min_total = LT_SUGGEST_MIN_TOTAL;
	if (!o->suggest && o->suggest_out)
		tool_usage_error("--suggest-out needs --suggest");
	if (!o->suggest && !o->srcdir && (o->min_miss_set || o->flip_miss_set))
		tool_usage_error("--min-miss and --flip-miss need --suggest (or -S for the live view's p key)");
	if (o->suggest && (o->iterations >= 0 || o->format != LT_OUT_TEXT))
		tool_usage_error("--suggest reads one snapshot and writes patches: no --iterations or --format");
	if (o->suggest)
		o->batch = true;
	if (o->min_miss > o->flip_miss)
		tool_usage_error("--min-miss %g is above --flip-miss %g", o->min_miss,
				 o->flip_miss);
	if (!!o->file + !!o->pid + a->exec > 1)
		tool_usage_error("give only one of --file, --pid and --exec");
	if (!o->batch && (o->iterations >= 0 || o->format != LT_OUT_TEXT))
		tool_usage_error("--iterations and --format need --batch");
	if (!o->batch && (o->raw || o->noheadings))
		tool_usage_error("--raw and --noheadings need --batch");
	if (o->textfile && (!o->batch || o->suggest))
		tool_usage_error("--textfile needs --batch (and no --suggest)");
	if (o->textfile && (o->format_set || a->columns || o->raw || o->noheadings))
		tool_usage_error("--textfile writes Prometheus' text format: no --format, --json, --output, --raw or --noheadings");
	if (o->textfile)
		o->format = LT_OUT_PROM;
	if (o->format == LT_OUT_OPENMETRICS && (a->columns || o->raw || o->noheadings))
		tool_usage_error("--output, --output-all, --raw and --noheadings shape text; OpenMetrics always has every site's counters");
	if (o->format != LT_OUT_TEXT && (a->columns || o->raw))
		tool_usage_error("--output, --output-all and --raw choose text columns; CSV and JSON always carry every field");
	if (o->format == LT_OUT_JSON && o->noheadings)
		tool_usage_error("--noheadings applies to text and CSV; JSON has no headings");
}

static void parse_args(int argc, char **argv, struct lt_opts *o)
{
	struct args a = { .o = o };
	int c;

	o->iterations = -1;
	o->delay = 2;
	o->sort = KATTR_PROF_SORT_INCORRECT;
	o->min_miss = LT_SUGGEST_MIN_MISS;
	o->flip_miss = LT_SUGGEST_FLIP_MISS;
	opterr = 0;	/* our messages */
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1)
		if (!source_option(c, optarg, &a) && !view_option(c, optarg, &a))
			tool_option_tail(c, argv, shortopts, usage);
	if (a.exec) {
		if (optind >= argc)
			tool_usage_error("--exec needs a command");
		o->exec_argv = argv + optind;
	} else if (optind < argc) {
		tool_usage_error("unexpected argument '%s' (to run a command, use --exec -- COMMAND)",
				 argv[optind]);
	}
	check_args(&a);
}

static void open_source(struct lt_app *a)
{
	struct lt_detect_report r;
	char dir[PATH_MAX];
	int ret;

	if (a->o.file) {
		ret = lt_source_file(&a->src, a->o.file);
	} else if (a->o.pid) {
		ret = lt_source_pid(&a->src, a->o.pid, dir, sizeof(dir));
		if (ret == -ENOENT && a->src.path)
			tool_die(EXIT_FAIL, "process %d does not seem to be profiled: no %s (a program built with likely_prof.h writes $LIKELY_PROF_DIR/PID; looked in %s)",
				 (int)a->o.pid, a->src.path, dir);
		if (ret == -ENOENT)
			tool_die(EXIT_FAIL, "process %d: cannot tell where profiles are: set LIKELY_PROF_DIR (or XDG_RUNTIME_DIR or HOME)",
				 (int)a->o.pid);
		if (ret == -EINVAL)
			tool_die(EXIT_FAIL, "%s is %s, not a regular file: refused (a profile is a file the profiled process writes)",
				 a->src.path, tool_file_kind(a->src.path));
		if (ret < 0)
			tool_die(EXIT_FAIL, "cannot read %s: %s", a->src.path,
				 lt_strerror(ret));
	} else if (a->o.exec_argv) {
		/* The live view owns the terminal: the command's output would
		 * garble it.  In batch mode it goes to our stderr, away from
		 * the output scripts parse. */
		ret = lt_source_exec(&a->src, a->o.exec_argv, a->o.batch ? 2 : -1,
				     a->o.batch ? 2 : -1);
		if (ret < 0)
			tool_die(EXIT_FAIL, "cannot run '%s': %s", a->o.exec_argv[0],
				 lt_strerror(ret));
	} else {
		ret = lt_source_detect(&a->src, &r);
		if (ret == -ENOENT) {
			tool_warn("no branch profile to show on this system:");
			for (int i = 0; i < 3; i++)
				if (r.lines[i][0])
					fprintf(stderr, "  %s\n", r.lines[i]);
			fprintf(stderr, "Give a saved profile with -f FILE.\n");
			exit(EXIT_FAIL);
		}
	}
	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot open the profile source: %s", lt_strerror(ret));
}

#define LT_TEXTFILE "likelytop.prom"

/* --textfile DIR: the directory, opened once (not through a symlink). */
static void open_textfile_dir(struct lt_app *a)
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
	struct kattr_prof_filter f = {
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
		tool_warn("%s: skipped %zu malformed rows", a->src.name, a->bad_rows);
	if (a->model.format_changed)
		tool_warn("%s", a->status);
	if (a->o.suggest)
		return lt_suggest_main(a);
	if (a->model.table) {	/* one snapshot, read once (run_batch()) */
		ret = kattr_prof_table_order(a->model.table, &f, a->o.sort,
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
		cleanup();
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

static int run_batch(struct lt_app *a)
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

/*
 * The heap a snapshot of this source will need (text, entries, sort
 * keys: about three times the file), set aside at once in transparent
 * huge pages where the kernel gives them on request (THP "madvise"):
 * 200,000 sites touch 40 MB, some 10,000 page faults in 4 KiB pages, a
 * sixth of a batch pass's CPU time, against a few dozen.  The block is
 * freed at once and stays at the top of the heap (M_TRIM_THRESHOLD) for
 * the snapshot's buffers; nothing is touched here.
 */
static void reserve_heap(const struct lt_source *s)
{
	const size_t huge = 2 << 20, piece = 16 << 20;	/* below the mmap
							 * threshold: heap */
	char *p[16];
	struct stat st;
	size_t n = 0, want;

	if (!s->path || stat(s->path, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_size < (off_t)(4 << 20) || st.st_size > (off_t)KATTR_READ_MAX)
		return;
	want = 3 * (size_t)st.st_size;
	for (; n < 16 && n * piece < want && (p[n] = malloc(piece)); n++)
		/* the whole huge pages inside the piece */
		(void)madvise((void *)(((uintptr_t)p[n] + huge - 1) &
				       ~(uintptr_t)(huge - 1)),
			      piece - huge, MADV_HUGEPAGE);
	while (n)
		free(p[--n]);
}

#if !WITH_NCURSES
int lt_view_run(struct lt_app *a)
{
	(void)a;
	tool_warn("the live view needs ncurses, and this build has none (built with WITH_NCURSES=OFF); use -b for batch output");
	return EXIT_FAIL;
}
#endif

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
	parse_args(argc, argv, &app.o);
	app.sfd = app.tfd = app.textfile_fd = -1;
	if (app.o.textfile)
		open_textfile_dir(&app);
	lt_model_init(&app.model);
	if (!app.o.batch && !WITH_NCURSES)
		return lt_view_run(&app);
	if (!app.o.batch && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)))
		tool_die(EXIT_FAIL, "the live view needs a terminal; use -b for batch output");
	setup_loop(&app);
	atexit(cleanup);
	open_source(&app);
	/* User-space profiles count in 64 bits (likely_prof(3)): a count
	 * going down is a restart, never a wrap. */
	app.model.counters64 = app.src.kind == LT_SRC_USER;
	reserve_heap(&app.src);
	status = app.o.batch ? run_batch(&app) : lt_view_run(&app);
	cleanup();
	return status;
}
