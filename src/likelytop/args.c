// SPDX-License-Identifier: GPL-2.0-or-later
/* likelytop's command line: the options into struct lt_opts, checked
 * against each other; usage errors exit 2 (tool_usage_error()). */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callers_kern.h"
#include "keys.h"
#include "likelytop.h"
#include "strutils.h"
#include "suggest/suggest.h"
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
	OPT_CALLERS_FROM,
	OPT_MIN_MISS,
	OPT_FLIP_MISS,
	OPT_TEXTFILE,
	OPT_CALLERS,
	OPT_CONDITION,
	OPT_UPROBE,
	OPT_MECHANISM,
};
__attribute__((noreturn)) static void usage(void)
{
	printf("Usage: %s [options]\n", tool_name());
	printf("       %s -b [-n ITER] [-d SEC] [-f FILE] [--format FMT] [--sort KEY]\n"
	       "                 [--min-total N] [--wrong-only] [--textfile DIR]\n", tool_name());
	printf("       %s [options] --exec -- COMMAND [ARG...]\n", tool_name());
	printf("       %s --callers SITE -b [-n ITER] [-d SEC] [--format FMT]\n"
	       "                 [--condition HINT] [-S SRCDIR] [-f PROFILE] [--mechanism M]\n", tool_name());
	printf("       %s --callers SITE -p PID [--uprobe] -b [-n ITER] [-d SEC]\n", tool_name());
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
	printf("      --callers-from F  --suggest, p: name the callers that make a hint\n"
	       "                        wrong from F, saved by --callers -J\n");
	printf("      --callers SITE    batch: the callers of a hinted kernel function\n"
	       "                        (SITE: its name, or FILE:LINE of the hint), with\n"
	       "                        how often each went against the hint; with -p PID,\n"
	       "                        of a function in that program\n");
	printf("      --condition HINT  --callers: the hint, as 'unlikely(!p)', instead\n"
	       "                        of the one at FILE:LINE or the known one\n");
	printf("      --uprobe          --callers -p PID: trace the function with a\n"
	       "                        uprobe instead of reading likely_prof.h's counts\n");
	printf("      --mechanism M     --callers, c: count a kernel function's calls\n"
	       "                        with hist triggers (hist), streamed (stream), or\n"
	       "                        the histogram where the kernel has it (auto)\n");
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
	{ "callers-from", required_argument, NULL, OPT_CALLERS_FROM },
	{ "min-miss",   required_argument, NULL, OPT_MIN_MISS },
	{ "flip-miss",  required_argument, NULL, OPT_FLIP_MISS },
	{ "textfile",   required_argument, NULL, OPT_TEXTFILE },
	{ "callers",    required_argument, NULL, OPT_CALLERS },
	{ "condition",  required_argument, NULL, OPT_CONDITION },
	{ "uprobe",     no_argument,       NULL, OPT_UPROBE },
	{ "mechanism",  required_argument, NULL, OPT_MECHANISM },
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
	case OPT_CALLERS_FROM:
		o->callers_from = arg;
		return true;
	case OPT_MIN_MISS:
		o->min_miss = parse_pct(arg, "minimum miss rate");
		o->min_miss_set = true;
		return true;
	case OPT_FLIP_MISS:
		o->flip_miss = parse_pct(arg, "flip miss rate");
		o->flip_miss_set = true;
		return true;
	case OPT_CALLERS:
		if (!*arg)
			tool_usage_error("--callers needs a function or FILE:LINE");
		o->callers = arg;
		return true;
	case OPT_CONDITION:
		o->condition = arg;
		return true;
	case OPT_UPROBE:
		o->uprobe = true;
		return true;
	case OPT_MECHANISM:
		if (!strcmp(arg, "auto"))
			o->mechanism = LT_MECH_AUTO;
		else if (!strcmp(arg, "hist"))
			o->mechanism = LT_MECH_HIST;
		else if (!strcmp(arg, "stream"))
			o->mechanism = LT_MECH_STREAM;
		else
			tool_usage_error("--mechanism: '%s' is not auto, hist or stream", arg);
		o->mechanism_set = true;
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
		if (kattr_profile_sort_parse(arg, &o->sort) < 0)
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

/* --callers: batch only, its own source, no profile options. */
static void check_callers(const struct args *a)
{
	const struct lt_opts *o = a->o;

	if (!o->callers) {
		if (o->condition || o->uprobe)
			tool_usage_error("--condition and --uprobe need --callers");
		if (o->mechanism_set && o->batch)
			tool_usage_error("--mechanism needs --callers (or the live view, for its c key)");
		return;
	}
	if (o->mechanism_set && o->pid)
		tool_usage_error("--mechanism is for the kernel's callers: not with -p PID");
	if (o->uprobe && !o->pid)
		tool_usage_error("--uprobe traces a process: give it with -p PID");
	if (!o->batch)
		tool_usage_error("--callers needs -b (batch mode); in the live view, the c key shows the selected site's callers");
	if (a->exec || o->suggest || o->textfile)
		tool_usage_error("--callers: no --exec, --suggest or --textfile");
	if (o->pid && o->file)
		tool_usage_error("--callers -p PID reads the process's own counts: no --file");
	if (o->format == LT_OUT_OPENMETRICS || a->columns || o->raw || o->filter ||
	    o->min_total_set || o->wrong_only || o->reverse ||
	    o->sort != KATTR_PROFILE_SORT_INCORRECT)
		tool_usage_error("--callers prints text, CSV or JSON sorted by wrong: no --format openmetrics, --output, --raw, --filter, --min-total, --wrong-only, --sort or --reverse");
	if (tool_sysroot())
		tool_usage_error("--callers traces this machine's kernel: no --sysroot");
}

/* The options that exclude or need each other. */
static void check_args(const struct args *a)
{
	struct lt_opts *o = a->o;

	if (o->suggest && !o->min_total_set)
		o->min_total = LT_SUGGEST_MIN_TOTAL;
	if (!o->suggest && o->suggest_out)
		tool_usage_error("--suggest-out needs --suggest");
	if (!o->suggest && !o->srcdir && o->callers_from)
		tool_usage_error("--callers-from needs --suggest (or -S for the live view's p key)");
	if (!o->suggest && !o->srcdir && (o->min_miss_set || o->flip_miss_set))
		tool_usage_error("--min-miss and --flip-miss need --suggest (or -S for the live view's p key)");
	if (o->suggest && (o->iterations >= 0 || o->format != LT_OUT_TEXT))
		tool_usage_error("--suggest reads one snapshot and writes patches: no --iterations or --format");
	if (o->suggest)
		o->batch = true;
	check_callers(a);
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

void lt_parse_args(int argc, char **argv, struct lt_opts *o)
{
	struct args a = { .o = o };
	int c;

	o->iterations = -1;
	o->delay = 2;
	o->sort = KATTR_PROFILE_SORT_INCORRECT;
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
