// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rgctl stats GROUP: what the group is using, as a libsmartcols table of
 * figures grouped by resource (cpu, memory, io, pids), named as cgroup v2
 * names them whichever file they came from (kattr_rg_stats()), in human
 * units or raw numbers, or JSON; with --interval, the rate of each
 * counter between two reads.  RGCS's stats file is shown line by line.
 * The options are registered through cmd_delay.c, which adds --delay.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libsmartcols/libsmartcols.h>

#include "rgctl.h"
#include "rgctl_cpu.h"
#include "outfile.h"
#include "rgctl_stats.h"
#include "xalloc.h"

static int run_stats(struct rgctl *ctx, int argc, char **argv);

enum { COL_RES, COL_FIGURE, COL_DEV, COL_VALUE, COL_RATE, COL_UNIT,
       COL_FILE, NCOLS };
static const struct tool_column columns[NCOLS] = {
	[COL_RES]    = { .name = "RESOURCE", .whint = 8, .help = "cpu, memory, io, pids (RGCS: its own names)" },
	[COL_FIGURE] = { .name = "FIGURE", .whint = 0.2, .help = "The figure, named as cgroup v2 names it (usage_usec, current, rbytes, pressure.some.avg10)" },
	[COL_DEV]    = { .name = "DEVICE", .whint = 7, .help = "io: the device, MAJ:MIN" },
	[COL_VALUE]  = { .name = "VALUE", .whint = 10, .flags = SCOLS_FL_RIGHT, .help = "Its value: human units (raw numbers with --raw), n/a where this kernel lacks it" },
	[COL_RATE]   = { .name = "RATE", .whint = 10, .flags = SCOLS_FL_RIGHT, .help = "With --interval: a counter's change per second (CPU time: percent of one CPU)" },
	[COL_UNIT]   = { .name = "UNIT", .whint = 7, .help = "The raw value's unit: usec, bytes, count, percent" },
	[COL_FILE]   = { .name = "FILE", .whint = 0.3, .help = "The kernel's file it was read from" },
};
static const int default_cols[] = { COL_RES, COL_FIGURE, COL_DEV, COL_VALUE };
static const struct tool_columns coltab = {
	.col = columns, .n = NCOLS, .def = default_cols,
	.ndef = sizeof(default_cols) / sizeof(default_cols[0]), .max = NCOLS * 4,
	RGCTL_COLUMNS_HELP,
};

const struct option rgctl_stats_opts[] = {
	{ "delay",      no_argument,       NULL, OPT_STATS_DELAY },
	{ "interval",   required_argument, NULL, 'i' },
	{ "count",      required_argument, NULL, 'c' },
	TOOL_LONGOPTS_TABLE(OPT_OUTPUT_ALL, 'n', 'r'),
	{ "format",     required_argument, NULL, OPT_STATS_FORMAT },
	{ "textfile",   required_argument, NULL, OPT_STATS_TEXTFILE },
	{ "recursive",  no_argument,       NULL, 'R' },
	{ "help",       no_argument,       NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};
const char *const rgctl_stats_help[] = {
	"-i, --interval SEC", "Read twice, SEC seconds apart, and show each counter's rate (RATE column).",
	"-c, --count N", "With --interval: N reports, one every SEC seconds (default 1).",
	RGCTL_HELP_OUTPUT,
	"-n, --noheadings", "Do not print the header line.",
	"-r, --raw", "Raw output: columns separated by one space, values as plain numbers in their unit.",
	"    --format FMT", "text (the table, the default) or openmetrics (metrics for Prometheus, OpenMetrics 1.0); one GROUP or more.",
	"    --textfile DIR", "Write the metrics to DIR/rgctl.prom (Prometheus' text format, replaced atomically) for node_exporter's textfile collector; one GROUP or more.",
	"-R, --recursive", "With --format openmetrics or --textfile: every group below each GROUP too.",
	"    --delay", "Delay accounting per member and summed (taskstats) instead.",
	NULL
};

void rgctl_stats_help_more(void)
{
	printf("\nAvailable output columns (default: RESOURCE,FIGURE,DEVICE,VALUE; +RATE with --interval):\n");
	rgctl_columns_help(&coltab);
	printf("\nFigures: cpu usage_usec, user_usec, system_usec, nr_throttled, throttled_usec;\n"
	       "memory current, peak, events.*; io rbytes, wbytes, rios, wios per device;\n"
	       "pids current, events.max; pressure.{some,full}.{avg10,avg60,avg300,total_usec}\n"
	       "of cpu, memory and io where the kernel has PSI.  Sources per backend: STATISTICS\n"
	       "in rgctl(8).  A resource the group has no file of is named on stderr; none at\n"
	       "all is an error (exit 1).  Metric names (--format openmetrics, --textfile):\n"
	       "rgctl_RESOURCE_FIGURE with the unit and _total on counters, e.g.\n"
	       "rgctl_cpu_usage_seconds_total, rgctl_memory_current_bytes; labels group, device.\n");
}

const struct rgctl_cmd rgctl_cmd_stats = {
	.name = "stats",
	.args = "GROUP...",
	.help = "Show what a group is using: CPU time, memory, I/O, tasks, pressure",
	.run = run_stats,
	.opts = rgctl_stats_opts, .shortopts = "i:c:o:nrR", .opt_help = rgctl_stats_help,
	.help_more = rgctl_stats_help_more,
};

struct stats_opts {
	int cols[NCOLS * 4];
	size_t ncols;
	bool noheadings, raw, shaped;
	bool openmetrics;	/* --format openmetrics */
	bool format_set;	/* --format given */
	const char *textfile;	/* --textfile DIR */
	bool recursive;		/* -R */
	double interval;	/* 0: one read */
	unsigned long count;
};

static void parse_columns(struct stats_opts *so, const char *arg)
{
	rgctl_columns_parse(&rgctl_cmd_stats, &coltab, arg, so->cols, &so->ncols);
}

/* --interval SEC: a number of seconds above 0, at most a day. */
static double parse_interval(const char *arg)
{
	double d;

	if (!tool_parse_seconds(arg, 0, 86400, &d) || d <= 0)
		rgctl_cmd_usage(&rgctl_cmd_stats,
				"invalid --interval '%s': give seconds above 0 and at most 86400 (1, 0.5)",
				TOOL_Q(arg));
	return d;
}

static unsigned long parse_count(const char *arg)
{
	char *end;
	unsigned long c;

	errno = 0;
	c = strtoul(arg, &end, 10);
	if (arg[0] < '0' || arg[0] > '9' || *end || errno || c == 0 || c > 1000000)
		rgctl_cmd_usage(&rgctl_cmd_stats,
				"invalid --count '%s': give a number of reports from 1 to 1000000",
				TOOL_Q(arg));
	return c;
}

/* --format FMT: true for openmetrics. */
static bool parse_format(const char *arg)
{
	if (!strcmp(arg, "openmetrics"))
		return true;
	if (strcmp(arg, "text") != 0)
		rgctl_cmd_usage(&rgctl_cmd_stats, "unknown format '%s': use text or openmetrics",
				TOOL_Q(arg));
	return false;
}

static void parse_stats_options(struct stats_opts *so, int argc, char **argv)
{
	bool output = false, count = false;
	int c;

	for (size_t i = 0; i < sizeof(default_cols) / sizeof(*default_cols); i++)
		so->cols[so->ncols++] = default_cols[i];
	so->count = 1;
	optind = 0;
	while ((c = rgctl_getopt(&rgctl_cmd_stats, argc, argv)) != -1) {
		switch (c) {
		case 'o':
			parse_columns(so, optarg);
			output = true;
			break;
		case OPT_OUTPUT_ALL:
			so->ncols = 0;
			for (int i = 0; i < NCOLS; i++)
				so->cols[so->ncols++] = i;
			output = true;
			break;
		case 'n':
			so->noheadings = true;
			break;
		case 'r':
			so->raw = true;
			break;
		case 'i':
			so->interval = parse_interval(optarg);
			break;
		case 'c':
			so->count = parse_count(optarg);
			count = true;
			break;
		case OPT_STATS_FORMAT:
			so->openmetrics = parse_format(optarg);
			so->format_set = true;
			break;
		case 'R':
			so->recursive = true;
			break;
		case OPT_STATS_TEXTFILE:
			if (!*optarg)
				rgctl_cmd_usage(&rgctl_cmd_stats, "--textfile needs a directory");
			so->textfile = optarg;
			break;
		}
		so->shaped |= c == 'o' || c == OPT_OUTPUT_ALL || c == 'n' || c == 'r' ||
			      c == 'i' || c == 'c';
	}
	if (count && !so->interval)
		rgctl_cmd_usage(&rgctl_cmd_stats, "--count needs --interval");
	if (so->interval && !output)
		so->cols[so->ncols++] = COL_RATE;
}

/* ---- values -------------------------------------------------------------- */

/* usec as "850us", "12.5ms", "3.25s", "4m05s", "2h03m". */
static void human_usec(char *b, size_t size, long long us)
{
	if (us < 1000)
		snprintf(b, size, "%lldus", us);
	else if (us < 1000000)
		snprintf(b, size, "%.1fms", (double)us / 1e3);
	else if (us < 60000000)
		snprintf(b, size, "%.2fs", (double)us / 1e6);
	else if (us < 3600000000LL)
		snprintf(b, size, "%lldm%02llds", us / 60000000, us / 1000000 % 60);
	else
		snprintf(b, size, "%lldh%02lldm", us / 3600000000LL, us / 60000000 % 60);
}

static void value_text(char *b, size_t size, const struct kattr_rg_stat *s,
		       bool raw)
{
	if (!s->has_value) {
		snprintf(b, size, "%s", s->unit ? "n/a" : "-");
		return;
	}
	if (s->unit == KATTR_RG_UNIT_CENTIPCT)
		snprintf(b, size, raw ? "%lld.%02lld" : "%lld.%02lld%%",
			 s->value / 100, s->value % 100);
	else if (raw || s->value < 0)
		snprintf(b, size, "%lld", s->value);
	else if (s->unit == KATTR_RG_UNIT_USEC)
		human_usec(b, size, s->value);
	else if (s->unit == KATTR_RG_UNIT_BYTES)
		tool_human_bytes(b, size, (double)s->value, "");
	else
		snprintf(b, size, "%lld", s->value);
}

/* A counter's rate: CPU time as percent of one CPU, else per second. */
static void rate_text(char *b, size_t size, const struct kattr_rg_stat *s,
		      double rate, bool raw)
{
	if (isnan(rate))
		snprintf(b, size, "%s", raw ? "-" : "");
	else if (s->unit == KATTR_RG_UNIT_USEC)
		snprintf(b, size, raw ? "%.1f" : "%.1f%%", rate);
	else if (s->unit == KATTR_RG_UNIT_BYTES && !raw)
		tool_human_bytes(b, size, rate, "/s");
	else
		snprintf(b, size, raw ? "%.1f" : "%.1f/s", rate);
}

/* ---- reading and rates ------------------------------------------------------ */

struct reading {
	struct kattr_rg_stat *v;
	size_t n;
	struct timespec at;
};

static void take(struct kattr_rg *rg, const char *group, struct reading *r)
{
	int ret = kattr_rg_stats(rg, group, &r->v, &r->n);

	clock_gettime(CLOCK_MONOTONIC, &r->at);
	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot read the stats of '%s': %s",
			 TOOL_Q(group), rgctl_strerror(ret));
}

static bool same_figure(const struct kattr_rg_stat *a, const struct kattr_rg_stat *b)
{
	return strcmp(a->res, b->res) == 0 && strcmp(a->key, b->key) == 0 &&
	       !a->dev == !b->dev && (!a->dev || strcmp(a->dev, b->dev) == 0);
}

/* rates[i] for cur's figure i against prev (NaN: none). */
static double *rates_of(const struct reading *prev, const struct reading *cur)
{
	double secs = (double)(cur->at.tv_sec - prev->at.tv_sec) +
		      (double)(cur->at.tv_nsec - prev->at.tv_nsec) / 1e9;
	double *rates = xcalloc(cur->n ? cur->n : 1, sizeof(*rates));

	for (size_t i = 0; i < cur->n; i++) {
		const struct kattr_rg_stat *c = &cur->v[i];

		rates[i] = NAN;
		if (!c->counter || !c->has_value || secs <= 0)
			continue;
		/* the same index first: the files list figures in order */
		for (size_t k = 0; k < prev->n; k++) {
			const struct kattr_rg_stat *p = &prev->v[(i + k) % prev->n];

			if (!p->has_value || !same_figure(p, c))
				continue;
			rates[i] = (double)(c->value - p->value) / secs;
			if (c->unit == KATTR_RG_UNIT_USEC)
				rates[i] /= 1e4;	/* usec/s -> percent of one CPU */
			break;
		}
	}
	return rates;
}

/* ---- output ----------------------------------------------------------------- */

static const char *cell(const struct kattr_rg_stat *s, int col, double rate,
			bool raw, char *b, size_t size)
{
	const char *unit;

	switch (col) {
	case COL_RES:
		return s->res;
	case COL_FIGURE:
		return s->key;
	case COL_DEV:
		return s->dev ? s->dev : raw ? "-" : "";
	case COL_VALUE:
		value_text(b, size, s, raw);
		return b;
	case COL_RATE:
		rate_text(b, size, s, rate, raw);
		return b;
	case COL_UNIT:
		unit = rgctl_unit_name(s->unit);
		return unit ? unit : "-";
	default:
		return s->file ? s->file : "-";
	}
}

/* One cell, escaped with esc (esc.h): a captured tree's names are anyone's. */
static char *cell_esc(const struct kattr_rg_stat *s, int col, double rate,
		      bool raw, unsigned int esc)
{
	char buf[64];
	const char *c = cell(s, col, rate, raw, buf, sizeof(buf));
	char *e = xmalloc(TOOL_ESC_SIZE(strlen(c)));

	tool_esc(e, c, esc);
	return e;
}

/* --raw: a line per figure, the cells separated by one space and escaped,
 * blanks included (RGCS's "Current usage"), as list --raw. */
static void print_raw(const struct stats_opts *so, const struct reading *r,
		      const double *rates)
{
	unsigned int esc = tool_esc_locale() | TOOL_ESC_BLANK;

	for (size_t k = 0; k < so->ncols && !so->noheadings; k++)
		printf("%s%s", columns[so->cols[k]].name, k + 1 < so->ncols ? " " : "\n");
	for (size_t i = 0; i < r->n; i++) {
		for (size_t k = 0; k < so->ncols && !r->v[i].absent; k++) {
			char *e = cell_esc(&r->v[i], so->cols[k], rates ? rates[i] : NAN,
					   true, esc);

			printf("%s%s", e, k + 1 < so->ncols ? " " : "\n");
			free(e);
		}
	}
}

static void print_table(const struct stats_opts *so, const struct reading *r,
			const double *rates)
{
	struct libscols_table *tb;

	if (so->raw) {
		print_raw(so, r, rates);
		return;
	}
	tb = scols_new_table();
	if (!tb)
		xalloc_die();
	/* the cells are escaped already: libsmartcols would escape the escapes */
	scols_table_enable_noencoding(tb, 1);
	scols_table_enable_noheadings(tb, so->noheadings);
	for (size_t i = 0; i < so->ncols; i++)
		if (!scols_table_new_column(tb, columns[so->cols[i]].name,
					    columns[so->cols[i]].whint,
					    columns[so->cols[i]].flags))
			xalloc_die();
	for (size_t i = 0; i < r->n; i++) {
		struct libscols_line *ln;

		if (r->v[i].absent)
			continue;
		ln = scols_table_new_line(tb, NULL);
		if (!ln)
			xalloc_die();
		for (size_t k = 0; k < so->ncols; k++)
			if (scols_line_refer_data(ln, k, cell_esc(&r->v[i], so->cols[k],
				    rates ? rates[i] : NAN, false, tool_esc_locale())) < 0)
				xalloc_die();
	}
	scols_print_table(tb);
	scols_unref_table(tb);
}

static void print_json(struct rgctl *ctx, const char *group,
		       const struct stats_opts *so, const struct reading *r,
		       const double *rates)
{
	json_object *o = rgctl_json_stats(kattr_rg_name_is_root(group) ? "/" : group,
					  kattr_rg_backend_name(kattr_rg_backend_of(ctx->rg)),
					  r->v, r->n);

	json_object_object_add(o, "interval", so->interval ?
			       json_object_new_double(so->interval) : NULL);
	json_object_object_add(o, "figures", rgctl_json_figures(r->v, r->n, rates));
	rgctl_json_print(o);
}

/* The resources the group has no file of: on stderr, or exit 1 if all. */
static void say_absent(const char *group, const struct reading *r, bool json)
{
	size_t shown = 0, absent = 0;

	for (size_t i = 0; i < r->n; i++)
		r->v[i].absent ? absent++ : shown++;
	if (!shown && absent) {
		char why[4096];
		size_t len = 0;

		why[0] = '\0';
		for (size_t i = 0; i < r->n && len < sizeof(why); i++)
			len += (size_t)snprintf(why + len, sizeof(why) - len, "%s%s: %s",
						len ? "; " : "", r->v[i].res, r->v[i].key);
		tool_die(EXIT_FAIL, "'%s' has no statistics here: %s", TOOL_Q(group), why);
	}
	for (size_t i = 0; i < r->n && !json; i++)
		if (r->v[i].absent)
			tool_warn("no %s figures for '%s': %s", r->v[i].res,
				  TOOL_Q(group), r->v[i].key);
}

static void show(struct rgctl *ctx, const char *group, const struct stats_opts *so,
		 const struct reading *r, const double *rates)
{
	if (ctx->json)
		print_json(ctx, group, so, r, rates);
	else
		print_table(so, r, rates);
	fflush(stdout);
}

/* ---- metrics ------------------------------------------------------------------ */

#define RGCTL_TEXTFILE "rgctl.prom"

/* --textfile DIR: the directory, opened before anything is read (not
 * through a symlink). */
static int open_textfile_dir(const char *dir)
{
	int fd = tool_out_dir_open(dir);

	if (fd < 0)
		tool_die(EXIT_FAIL, "cannot use '%s' for --textfile: %s", TOOL_Q(dir),
			 tool_out_strerror(fd));
	return fd;
}

/*
 * The metrics into DIR/rgctl.prom: a temporary file beside it, renamed
 * over it (outfile.h, as likelytop --textfile), so that node_exporter never
 * reads half a file; a failure leaves the previous file and exits 1.
 */
struct textfile_arg {
	const struct rgctl_om_group *g;
	size_t ng;
};

static int textfile_write(FILE *fp, void *arg)
{
	const struct textfile_arg *t = arg;

	return rgctl_stats_om_write(fp, TOOL_OM_PROMETHEUS, t->g, t->ng);
}

static void write_textfile(int dfd, const char *dir,
			   const struct rgctl_om_group *g, size_t ng)
{
	struct textfile_arg t = { .g = g, .ng = ng };
	int ret = tool_out_write(dfd, RGCTL_TEXTFILE, textfile_write, &t);

	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot write '%s/%s': %s", TOOL_Q(dir), RGCTL_TEXTFILE,
			 tool_out_strerror(ret));
}

/* The groups to read: each GROUP, and with -R those below it as list
 * finds them (*found: how many), each once.  A name rgctl cannot take
 * (another tool's, with a space or a non-ASCII byte) is skipped, said. */
static char **metric_groups(struct kattr_rg *rg, bool recursive, int argc,
			    char **argv, size_t *ng, size_t *found)
{
	char **names = NULL;
	size_t n = 0, cap = 0, odd = 0;

	for (int a = optind; a < argc; a++) {
		struct kattr_rg_info *v = NULL;
		size_t nv = 1;
		int ret = recursive ? kattr_rg_list(rg, argv[a], &v, &nv) : 0;

		if (ret < 0)
			tool_die(EXIT_FAIL, "cannot list '%s': %s", TOOL_Q(argv[a]),
				 rgctl_strerror(ret));
		for (size_t i = 0; i < nv; i++) {
			const char *name = v ? v[i].name : argv[a];

			if (v && kattr_rg_name_check(name, true, NULL) < 0) {
				odd++;
				continue;
			}
			if (n == cap) {
				cap = cap ? 2 * cap : 16;
				names = xreallocarray(names, cap, sizeof(*names));
			}
			names[n++] = xstrdup(name);
		}
		if (v)
			kattr_rg_list_free(v, nv);
	}
	if (odd)
		tool_warn("note: %zu group(s) below skipped: names with a space or a byte outside "
			  "printable ASCII, which rgctl does not take", odd);
	*found = recursive ? n : 0;
	*ng = n;
	return names;
}

/* --format openmetrics, --textfile: every group read before anything is
 * written (a GROUP named without statistics: exit 1, the textfile as it
 * was); groups found by -R are read quietly, and skipped once gone. */
static int run_metrics(struct rgctl *ctx, const struct stats_opts *so,
		       int argc, char **argv)
{
	struct kattr_rg *rg = NULL;
	struct reading *r;
	struct rgctl_om_group *g;
	size_t ng, found, k = 0;
	char **names;
	int dfd = -1, ret;

	if (ctx->json || so->shaped)
		rgctl_cmd_usage(&rgctl_cmd_stats, "--format openmetrics and --textfile take none of "
				"--json, -o, --output-all, -n, -r, --interval, --count");
	if (so->textfile && so->format_set)
		rgctl_cmd_usage(&rgctl_cmd_stats, "--textfile writes Prometheus' text format: no --format");
	for (int a = optind; a < argc; a++)
		rgctl_check_group(argv[a], true);
	if (so->textfile)
		dfd = open_textfile_dir(so->textfile);
	rg = rgctl_rg(ctx);
	names = metric_groups(rg, so->recursive, argc, argv, &ng, &found);
	r = xcalloc(ng ? ng : 1, sizeof(*r));
	g = xcalloc(ng ? ng : 1, sizeof(*g));
	for (size_t i = 0; i < ng; i++) {
		if (!found) {
			take(rg, names[i], &r[k]);
			say_absent(names[i], &r[k], false);
		} else if ((ret = kattr_rg_stats(rg, names[i], &r[k].v, &r[k].n)) < 0) {
			if (ret == -ENOENT)
				continue;	/* gone since the listing */
			tool_die(EXIT_FAIL, "cannot read the stats of '%s': %s",
				 TOOL_Q(names[i]), rgctl_strerror(ret));
		}
		g[k].group = names[i];
		g[k].v = r[k].v;
		g[k].n = r[k].n;
		k++;
	}
	if (so->textfile) {
		write_textfile(dfd, so->textfile, g, k);
		close(dfd);
	} else {
		ret = rgctl_stats_om_write(stdout, TOOL_OM_OPENMETRICS, g, k);
		if (ret < 0)
			tool_die(EXIT_FAIL, "cannot write the metrics: %s", rgctl_strerror(ret));
		tool_flush_stdout();
	}
	for (size_t i = 0; i < ng; i++) {
		if (i < k)
			kattr_rg_stats_free(r[i].v, r[i].n);
		free(names[i]);
	}
	free(names);
	free(r);
	free(g);
	return EXIT_OK;
}

static int run_stats(struct rgctl *ctx, int argc, char **argv)
{
	struct stats_opts so = { 0 };
	struct reading prev, cur;
	struct timespec tick;
	const char *group;
	struct kattr_rg *rg;

	parse_stats_options(&so, argc, argv);
	if ((so.openmetrics || so.textfile) && argc > optind)
		return run_metrics(ctx, &so, argc, argv);
	if (so.recursive)
		rgctl_cmd_usage(&rgctl_cmd_stats, "-R needs --format openmetrics or --textfile");
	if (argc - optind != 1)
		rgctl_cmd_usage(&rgctl_cmd_stats, "give exactly one GROUP (several with "
				"--format openmetrics or --textfile)");
	group = argv[optind];
	rgctl_check_group(group, true);
	rg = rgctl_rg(ctx);
	setlocale(LC_CTYPE, "");
	take(rg, group, &prev);
	say_absent(group, &prev, ctx->json);
	if (!so.interval)
		show(ctx, group, &so, &prev, NULL);
	tick = prev.at;
	for (unsigned long i = 0; so.interval && i < so.count; i++) {
		double *rates;

		tool_sleep_until(&tick, so.interval);
		take(rg, group, &cur);
		rates = rates_of(&prev, &cur);
		if (i && !ctx->json)
			putchar('\n');
		show(ctx, group, &so, &cur, rates);
		free(rates);
		kattr_rg_stats_free(prev.v, prev.n);
		prev = cur;
	}
	kattr_rg_stats_free(prev.v, prev.n);
	return EXIT_OK;
}
