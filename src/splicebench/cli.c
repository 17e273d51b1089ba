// SPDX-License-Identifier: GPL-2.0-or-later
/* splicebench's command line: the options, their checks and --help. */
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
#include "sb.h"
#include "parse.h"
#include "output/output.h"
#include "cli.h"
#include "tool.h"
#include "xalloc.h"

enum {
	OPT_MODE = TOOL_OPT_FIRST,
	OPT_CONSUMER, OPT_SIZE, OPT_PIPE_SIZE, OPT_TOTAL, OPT_TIME, OPT_RUNS,
	OPT_HUGE, OPT_BUSY, OPT_PIN, OPT_UNSAFE_REUSE, OPT_FORMAT, OPT_PLOT,
	OPT_QUICK, OPT_OUTPUT_ALL,
};

__attribute__((noreturn)) static void usage(void)
{
	printf("Usage: %s [options]\n\n", tool_name());
	printf("Measure vmsplice(2) page gifting against copying into a pipe.\n\n");
	printf("Options:\n");
	printf("      --mode LIST        producer modes: copy,vmsplice,gift (default: all)\n");
	printf("      --consumer C       null, read, verify or file:PATH (default: read)\n");
	printf("      --size LIST        chunk sizes, K/M/G suffixes (default: 64K,256K,1M)\n");
	printf("      --pipe-size N      pipe capacity to ask for (default: the kernel's)\n");
	printf("      --total BYTES      bytes per run (default: 1G)\n");
	printf("      --time SEC         run for SEC seconds instead of --total\n");
	printf("      --runs N           measured runs per point, after a warm-up (default: 5)\n");
	printf("      --huge             2 MiB transparent huge pages (MADV_HUGEPAGE)\n");
	printf("      --busy             busy-loop on a full or empty pipe (SPLICE_F_NONBLOCK)\n");
	printf("      --pin P,C          pin the producer to CPU P, the consumer to CPU C\n");
	printf("      --unsafe-reuse     reuse buffers after vmsplice like a naive double buffer\n");
	printf("      --format F         table, csv or json (default: table)\n");
	printf("  -J, --json             the same as --format json\n");
	printf("      --plot FILE        draw GB/s against chunk size into FILE (.svg or .png)\n");
	printf("      --quick            a short run with meaningful numbers (a few seconds)\n");
	printf("  -q, --quiet            no progress on stderr (shown only on a terminal)\n");
	printf("  -o, --output LIST      table: the result columns to show (see below;\n"
	       "                         +LIST adds to the default ones)\n");
	printf("      --output-all       table: every result column\n");
	printf("  -n, --noheadings       table: result rows only, without column titles\n");
	printf("  -r, --raw              table: the results only, columns split by one space\n");
	printf("      --sysroot DIR      take /proc and /sys facts from DIR\n");
	printf("  -h, --help             show this help and exit\n");
	printf("  -V, --version          show the version and exit\n");
	printf("\nResult columns (-o):\n");
	sb_columns_help(stdout);
	printf("\nExit status: 0 ok, 1 failed, 2 usage error, 3 verify found corrupted data.\n");
	printf("See splicebench(1).\n");
	exit(EXIT_OK);
}

static void check_size(const char *what, uint64_t v, uint64_t min, uint64_t max)
{
	char a[32], b[32];

	if (v < min || v > max)
		tool_usage_error("%s must be between %s and %s", what,
				 sb_format_size(min, a, sizeof(a)),
				 sb_format_size(max, b, sizeof(b)));
}

static const struct option longopts[] = {
	{ "mode",         required_argument, NULL, OPT_MODE },
	{ "consumer",     required_argument, NULL, OPT_CONSUMER },
	{ "size",         required_argument, NULL, OPT_SIZE },
	{ "pipe-size",    required_argument, NULL, OPT_PIPE_SIZE },
	{ "total",        required_argument, NULL, OPT_TOTAL },
	{ "time",         required_argument, NULL, OPT_TIME },
	{ "runs",         required_argument, NULL, OPT_RUNS },
	{ "huge",         no_argument,       NULL, OPT_HUGE },
	{ "busy",         no_argument,       NULL, OPT_BUSY },
	{ "pin",          required_argument, NULL, OPT_PIN },
	{ "unsafe-reuse", no_argument,       NULL, OPT_UNSAFE_REUSE },
	{ "format",       required_argument, NULL, OPT_FORMAT },
	{ "json",         no_argument,       NULL, 'J' },
	{ "plot",         required_argument, NULL, OPT_PLOT },
	{ "quick",        no_argument,       NULL, OPT_QUICK },
	{ "quiet",        no_argument,       NULL, 'q' },
	TOOL_LONGOPTS,
	TOOL_LONGOPTS_TABLE(OPT_OUTPUT_ALL, 'n', 'r'),
	{ NULL, 0, NULL, 0 }
};
/* ':': a missing argument is told apart from an unknown option. */
static const char shortopts[] = ":qo:nrJhV";

/* What the command line asks for. */
struct args {
	struct sb_config *cfg;
	enum sb_format *fmt;
	const char **plot;
	struct sb_table_opts *t;
	bool have_runs, quiet, columns;
};

/* --size LIST: every size between the bounds and a multiple of 8. */
static void parse_sizes(const char *arg, struct sb_config *cfg)
{
	int i, n = sb_parse_size_list(arg, cfg->sizes, SB_MAX_SIZES);

	if (n < 0)
		tool_usage_error("invalid --size '%s': a comma-separated list of sizes such as 4K,64K,1M (at most %d)",
				 arg, SB_MAX_SIZES);
	cfg->nsizes = n;
	for (i = 0; i < n; i++) {
		check_size("a chunk size", cfg->sizes[i], SB_MIN_SIZE, SB_MAX_SIZE);
		if (cfg->sizes[i] % 8)
			tool_usage_error("invalid chunk size %llu: must be a multiple of 8 bytes",
					 (unsigned long long)cfg->sizes[i]);
	}
}

/*
 * SPLICE_F_GIFT hands over whole pages: a gift of part of a page can only
 * be copied, so a gift size that is not a whole number of pages measures
 * nothing the flag promises (the buffers are page-aligned by mmap).
 */
static void check_gift_sizes(const struct sb_config *cfg)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	int i;

	if (!(cfg->modes & (1u << SB_GIFT)))
		return;
	for (i = 0; i < cfg->nsizes; i++)
		if (cfg->sizes[i] % page)
			tool_usage_error("invalid chunk size %llu for gift: SPLICE_F_GIFT gives whole pages, so a gift size must be a multiple of the %llu-byte page (or leave gift out of --mode)",
					 (unsigned long long)cfg->sizes[i],
					 (unsigned long long)page);
}

/* --runs N, 1 to SB_MAX_RUNS. */
static int parse_runs(const char *arg)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || *end || end == arg || v < 1 || v > SB_MAX_RUNS)
		tool_usage_error("invalid --runs '%s': 1 to %d", arg, SB_MAX_RUNS);
	return (int)v;
}

/* What to measure: the plan's options; false if c is not one. */
static bool plan_option(int c, const char *arg, struct args *a)
{
	struct sb_config *cfg = a->cfg;

	switch (c) {
	case OPT_MODE:
		if (sb_parse_modes(arg, &cfg->modes) < 0)
			tool_usage_error("invalid --mode '%s': a comma-separated list of copy, vmsplice, gift",
					 arg);
		return true;
	case OPT_CONSUMER:
		if (sb_parse_consumer(arg, &cfg->consumer, &cfg->file_path) < 0)
			tool_usage_error("invalid --consumer '%s': null, read, verify or file:PATH",
					 arg);
		return true;
	case OPT_SIZE:
		parse_sizes(arg, cfg);
		return true;
	case OPT_PIPE_SIZE:
		if (sb_parse_size(arg, &cfg->pipe_size) < 0)
			tool_usage_error("invalid --pipe-size '%s'", arg);
		check_size("--pipe-size", cfg->pipe_size, 4096, 1ull << 30);
		return true;
	case OPT_TOTAL:
		if (sb_parse_size(arg, &cfg->total) < 0)
			tool_usage_error("invalid --total '%s'", arg);
		check_size("--total", cfg->total, 1, 1ull << 50);
		return true;
	case OPT_TIME:
		if (sb_parse_seconds(arg, &cfg->seconds) < 0)
			tool_usage_error("invalid --time '%s': seconds, more than 0 and at most 86400",
					 arg);
		/* shorter, a run is its thread start-up and one chunk */
		if (cfg->seconds < SB_MIN_SECONDS)
			tool_usage_error("invalid --time '%s': too short to measure anything but the start of a run; at least %g seconds",
					 arg, SB_MIN_SECONDS);
		return true;
	case OPT_RUNS:
		cfg->runs = parse_runs(arg);
		a->have_runs = true;
		return true;
	case OPT_PIN:
		if (sb_parse_pin(arg, &cfg->pin_producer, &cfg->pin_consumer) < 0)
			tool_usage_error("invalid --pin '%s': two CPU numbers P,C", arg);
		return true;
	case OPT_HUGE:
		return cfg->huge = true;
	case OPT_BUSY:
		return cfg->busy = true;
	case OPT_UNSAFE_REUSE:
		return cfg->unsafe_reuse = true;
	case OPT_QUICK:
		return cfg->quick = true;
	default:
		return false;
	}
}

/* --format F */
static enum sb_format parse_format(const char *arg)
{
	if (strcmp(arg, "table") == 0)
		return SB_TABLE;
	if (strcmp(arg, "csv") == 0)
		return SB_CSV;
	if (strcmp(arg, "json") == 0)
		return SB_JSON;
	tool_usage_error("invalid --format '%s': table, csv or json", arg);
}

/* --plot FILE: a name ending in .svg or .png. */
static const char *parse_plot(const char *arg)
{
	size_t l = strlen(arg);

	if (l < 5 || (strcasecmp(arg + l - 4, ".svg") &&
		      strcasecmp(arg + l - 4, ".png")))
		tool_usage_error("invalid --plot '%s': the file name must end in .svg or .png",
				 arg);
	return arg;
}

/* How to report: the output's options; false if c is not one. */
static bool output_option(int c, const char *arg, struct args *a)
{
	const char *bad;
	size_t badlen;
	int n;

	switch (c) {
	case OPT_FORMAT:
		*a->fmt = parse_format(arg);
		return true;
	case 'J':	/* as util-linux tools and rgctl say JSON */
		*a->fmt = SB_JSON;
		return true;
	case OPT_PLOT:
		*a->plot = parse_plot(arg);
		return true;
	case 'q':
		return a->quiet = true;
	case 'o':
		a->columns = true;
		n = sb_columns_parse(arg, a->t, &bad, &badlen);
		if (n < 0)
			tool_columns_error(n, arg, bad, badlen, SB_COLS_MAX);
		return true;
	case OPT_OUTPUT_ALL:
		a->columns = true;
		sb_columns_all(a->t);
		return true;
	case 'n':
		return a->t->noheadings = true;
	case 'r':
		return a->t->raw = true;
	default:
		return false;
	}
}

/* What the options leave open: their conflicts, then the defaults. */
static void finish_args(const struct args *a)
{
	struct sb_config *cfg = a->cfg;

	if (cfg->total && cfg->seconds > 0)
		tool_usage_error("--total and --time exclude each other");
	check_gift_sizes(cfg);
	if (*a->fmt != SB_TABLE && (a->columns || a->t->noheadings || a->t->raw))
		tool_usage_error("--output, --output-all, --noheadings and --raw shape the table; CSV and JSON always carry every field");
	/* Progress only where someone watches it, never into a log file. */
	cfg->progress = !a->quiet && isatty(STDERR_FILENO);
	/* defaults, shorter with --quick */
	if (!cfg->nsizes) {
		static const uint64_t def[] = { 64 << 10, 256 << 10, 1 << 20 };

		memcpy(cfg->sizes, def, sizeof(def));
		cfg->nsizes = 3;
	}
	/*
	 * --quick: many short runs, interleaved point by point, so that each
	 * point's median spans the whole invocation (this machine's speed
	 * drifts over seconds) and not one moment of it.
	 */
	if (!cfg->total && cfg->seconds <= 0) {
		if (cfg->quick)
			cfg->seconds = 0.01;
		else
			cfg->total = 1ull << 30;
	}
	if (!a->have_runs)
		cfg->runs = cfg->quick ? 41 : 5;
}

void sb_parse_args(int argc, char **argv, struct sb_config *cfg,
		   enum sb_format *fmt, const char **plot,
		   struct sb_table_opts *t)
{
	struct args a = { .cfg = cfg, .fmt = fmt, .plot = plot, .t = t };
	int c;

	opterr = 0;	/* our messages */
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1)
		if (!plan_option(c, optarg, &a) && !output_option(c, optarg, &a))
			tool_option_tail(c, argv, shortopts, usage);
	if (optind < argc)
		tool_usage_error("unexpected argument '%s'", argv[optind]);
	finish_args(&a);
}
