// SPDX-License-Identifier: GPL-2.0-or-later
/* splicebench: the report as a table, CSV or JSON (json-c), and a plot
 * drawn by gnuplot. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <json-c/json.h>
#include <libsmartcols.h>
#include <strings.h>
#include <time.h>

#include "config.h"
#include "kattr/kattr.h"
#include "outfile.h"
#include "sb.h"
#include "strutils.h"
#include "tool.h"

extern char **environ;

static const char *or_unknown(const char *s)
{
	return s && *s ? s : "unknown";
}

/* A fact read from the system (or a --sysroot tree, which is anyone's),
 * for text: escaped (esc.h) into a buffer of the caller's block, cut with
 * "..." past 512 bytes. */
#define FACT_TEXT 512
#define fact_text(s) tool_esc_to((char[FACT_TEXT]){ 0 }, FACT_TEXT, or_unknown(s), 0)

static bool data_touched(const struct sb_config *cfg)
{
	return cfg->consumer != SB_NULL;
}

/* The pipe size every point ran with (they all get the same). */
static uint64_t pipe_size_used(const struct sb_report *rep)
{
	int i;

	for (i = 0; i < rep->nres; i++)
		if (!rep->res[i].failed)
			return rep->res[i].pipe_size;
	return (uint64_t)rep->pipe_size_default;
}

static const char *consumer_label(const struct sb_config *cfg)
{
	switch (cfg->consumer) {
	case SB_NULL:	return "null (splice to /dev/null: no data touched)";
	case SB_READ:	return "read (read(2) into a buffer)";
	case SB_VERIFY:	return "verify (read(2), every byte checked)";
	case SB_FILE:	return "file (splice into a file)";
	}
	return "?";
}

/* ---- the results table (libsmartcols) ---------------------------------- */

static const struct sb_col_def {
	const char *name, *title, *help;
	int flags;		/* SCOLS_FL_* */
	bool def;		/* shown by default */
} columns[SB_COL_COUNT] = {
	[SB_COL_MODE]     = { "MODE", "mode", "copy, vmsplice or gift", 0, true },
	[SB_COL_SIZE]     = { "SIZE", "size", "chunk size", SCOLS_FL_RIGHT, true },
	[SB_COL_PIPE]     = { "PIPE", "pipe", "pipe size obtained", SCOLS_FL_RIGHT, true },
	[SB_COL_HUGE]     = { "HUGE", "huge", "huge pages obtained for every buffer", 0, true },
	[SB_COL_BUSY]     = { "BUSY", "busy", "busy loop (--busy)", 0, true },
	[SB_COL_RUNS]     = { "RUNS", "runs", "measured runs", SCOLS_FL_RIGHT, true },
	[SB_COL_GBPS]     = { "GBPS", "GB/s", "median GB/s (10^9 bytes per second)", SCOLS_FL_RIGHT, true },
	[SB_COL_MIN]      = { "MIN", "min", "slowest run, GB/s", SCOLS_FL_RIGHT, true },
	[SB_COL_MAX]      = { "MAX", "max", "fastest run, GB/s", SCOLS_FL_RIGHT, true },
	[SB_COL_SPREAD]   = { "SPREAD", "spread", "(max - min) / median", SCOLS_FL_RIGHT, true },
	[SB_COL_CPU_PROD] = { "CPU-PROD", "cpu-prod", "producer CPU seconds per GB", SCOLS_FL_RIGHT, true },
	[SB_COL_CPU_CONS] = { "CPU-CONS", "cpu-cons", "consumer CPU seconds per GB", SCOLS_FL_RIGHT, true },
	[SB_COL_NOTE]     = { "NOTE", "note", "CORRUPT, wide spread, or why not measured", 0, true },
	[SB_COL_CPU]      = { "CPU", "cpu", "both sides' CPU seconds per GB", SCOLS_FL_RIGHT, false },
	[SB_COL_BYTES]    = { "BYTES", "bytes", "bytes moved by the median run", SCOLS_FL_RIGHT, false },
	[SB_COL_CHUNKS]   = { "CHUNKS", "chunks", "chunks verified (--consumer verify)", SCOLS_FL_RIGHT, false },
	[SB_COL_CORRUPT]  = { "CORRUPT", "corrupt", "corrupted chunks (--consumer verify)", SCOLS_FL_RIGHT, false },
};

static int column_by_name(const char *s, size_t len)
{
	for (int i = 0; i < SB_COL_COUNT; i++)
		if (strlen(columns[i].name) == len &&
		    !strncasecmp(columns[i].name, s, len))
			return i;
	return -1;
}

static int default_columns(enum sb_column *cols)
{
	int n = 0;

	for (int i = 0; i < SB_COL_COUNT; i++)
		if (columns[i].def)
			cols[n++] = (enum sb_column)i;
	return n;
}

int sb_columns_parse(const char *list, struct sb_table_opts *t,
		     const char **bad, size_t *badlen)
{
	int k = 0;

	if (*list == '+') {
		k = default_columns(t->cols);
		list++;
	}
	for (;;) {
		size_t len = strcspn(list, ",");
		int c = column_by_name(list, len);

		if (c < 0 || k >= SB_COLS_MAX) {
			*bad = list;
			*badlen = len;
			return c < 0 ? -EINVAL : -E2BIG;
		}
		t->cols[k++] = (enum sb_column)c;
		if (!list[len])
			break;
		list += len + 1;
	}
	t->ncols = k;
	return 0;
}

void sb_columns_all(struct sb_table_opts *t)
{
	for (int i = 0; i < SB_COL_COUNT; i++)
		t->cols[i] = (enum sb_column)i;
	t->ncols = SB_COL_COUNT;
}

void sb_columns_help(FILE *fp)
{
	for (int i = 0; i < SB_COL_COUNT; i++)
		fprintf(fp, " %9s  %s%s\n", columns[i].name, columns[i].help,
			columns[i].def ? "" : " (not shown by default)");
}

static bool wide_spread(const struct sb_result *r)
{
	return !r->failed && r->runs > 1 && r->gbps.spread > SB_SPREAD_WARN;
}

/*
 * Cell text of column c for point r into buf (empty: nothing).  raw: for
 * scripts, sizes in bytes and the spread as a plain number (percent), no
 * human units.
 */
static const char *cell(const struct sb_report *rep, const struct sb_result *r,
			enum sb_column c, bool raw, char *buf, size_t size)
{
	bool ok = !r->failed;

	buf[0] = '\0';
	switch (c) {
	case SB_COL_MODE:
		return sb_mode_name(r->mode);
	case SB_COL_SIZE:
		if (raw) {
			snprintf(buf, size, "%" PRIu64, r->size);
			return buf;
		}
		return sb_format_size(r->size, buf, size);
	case SB_COL_NOTE:
		if (!ok)
			snprintf(buf, size, "not measured: %s", r->why);
		else
			snprintf(buf, size, "%s%s%s", r->corrupt ? "CORRUPT" : "",
				 r->corrupt && wide_spread(r) ? ", " : "",
				 wide_spread(r) ? "wide spread" : "");
		return buf;
	default:
		break;
	}
	if (!ok)
		return buf;
	switch (c) {
	case SB_COL_PIPE:
		if (raw) {
			snprintf(buf, size, "%" PRIu64, r->pipe_size);
			return buf;
		}
		return sb_format_size(r->pipe_size, buf, size);
	case SB_COL_HUGE:
		return r->huge ? "yes" : "no";
	case SB_COL_BUSY:
		return rep->cfg->busy ? "yes" : "no";
	case SB_COL_RUNS:
		snprintf(buf, size, "%d", r->runs);
		break;
	case SB_COL_GBPS:
		snprintf(buf, size, "%.2f", r->gbps.median);
		break;
	case SB_COL_MIN:
		snprintf(buf, size, "%.2f", r->gbps.min);
		break;
	case SB_COL_MAX:
		snprintf(buf, size, "%.2f", r->gbps.max);
		break;
	case SB_COL_SPREAD:
		snprintf(buf, size, raw ? "%.1f" : "%.1f%%", r->gbps.spread * 100);
		break;
	case SB_COL_CPU_PROD:
		snprintf(buf, size, "%.3f", r->cpu_producer);
		break;
	case SB_COL_CPU_CONS:
		snprintf(buf, size, "%.3f", r->cpu_consumer);
		break;
	case SB_COL_CPU:
		snprintf(buf, size, "%.3f", r->cpu_producer + r->cpu_consumer);
		break;
	case SB_COL_BYTES:
		snprintf(buf, size, "%" PRIu64, r->bytes);
		break;
	case SB_COL_CHUNKS:
		if (rep->cfg->consumer == SB_VERIFY)
			snprintf(buf, size, "%" PRIu64, r->chunks);
		break;
	case SB_COL_CORRUPT:
		if (rep->cfg->consumer == SB_VERIFY)
			snprintf(buf, size, "%" PRIu64, r->corrupt);
		break;
	default:
		break;
	}
	return buf;
}

/* The points, one row each, through libsmartcols, into fp.  0 or -errno. */
static int results_table(FILE *fp, const struct sb_report *rep,
			 const struct sb_table_opts *t)
{
	enum sb_column defs[SB_COL_COUNT];
	const enum sb_column *cols = t->ncols ? t->cols : defs;
	int ncols = t->ncols ? t->ncols : default_columns(defs), ret = -ENOMEM;
	struct libscols_table *tb = scols_new_table();
	char buf[256];

	if (!tb)
		return -ENOMEM;
	scols_table_set_stream(tb, fp);
	scols_table_enable_raw(tb, t->raw);
	scols_table_enable_noheadings(tb, t->noheadings);
	for (int k = 0; k < ncols; k++) {
		const struct sb_col_def *d = &columns[cols[k]];
		/* The last column takes what is left and is never cut. */
		int flags = d->flags | (k == ncols - 1 ? SCOLS_FL_NOEXTREMES : 0);

		if (!scols_table_new_column(tb, d->title, 0, flags))
			goto out;
	}
	for (int i = 0; i < rep->nres; i++) {
		struct libscols_line *ln = scols_table_new_line(tb, NULL);

		if (!ln)
			goto out;
		for (int k = 0; k < ncols; k++)
			if (scols_line_set_data(ln, (size_t)k,
						cell(rep, &rep->res[i], cols[k], t->raw,
						     buf, sizeof(buf))))
				goto out;
	}
	ret = scols_print_table(tb);
out:
	scols_unref_table(tb);
	return ret;
}

void sb_output_text(FILE *fp, const struct sb_report *rep,
		    const struct sb_table_opts *t)
{
	const struct sb_config *cfg = rep->cfg;
	const struct kattr_sysfacts *f = &rep->facts;
	char a[32], b[32], c[32];
	int i;

	/* Rows only, for scripts: no system lines, baseline or notes. */
	if (t->raw || t->noheadings) {
		results_table(fp, rep, t);
		return;
	}
	fprintf(fp, "system:   Linux %s, %s, %u CPUs, virtualisation %s, container %s\n",
	       fact_text(f->kernel_release), fact_text(f->cpu_model),
	       f->cpus_online, fact_text(f->virt), fact_text(f->container));
	fprintf(fp, "          page size %s, pipe-max-size %s, THP %s, pipe size used %s\n",
	       f->page_size ? sb_format_size(f->page_size, a, sizeof(a)) : "unknown",
	       f->pipe_max_size ? sb_format_size(f->pipe_max_size, b, sizeof(b)) : "unknown",
	       fact_text(f->thp_mode), sb_format_size(pipe_size_used(rep), c, sizeof(c)));
	fprintf(fp, "consumer: %s\n", consumer_label(cfg));
	if (cfg->total)
		fprintf(fp, "runs:     %d per point after a warm-up, %s per run",
		       cfg->runs, sb_format_size(cfg->total, a, sizeof(a)));
	else
		fprintf(fp, "runs:     %d per point after a warm-up, %g s per run",
		       cfg->runs, cfg->seconds);
	if (cfg->pin_producer >= 0)
		fprintf(fp, ", producer on CPU %d, consumer on CPU %d",
		       cfg->pin_producer, cfg->pin_consumer);
	else
		fprintf(fp, ", not pinned");
	fprintf(fp, "%s%s\n", cfg->busy ? ", busy loop" : "",
	       cfg->unsafe_reuse ? ", UNSAFE buffer reuse" : "");
	if (rep->interrupted)
		fprintf(fp, "          INTERRUPTED (SIGINT): only the runs finished before it\n");
	fputc('\n', fp);

	fprintf(fp, "%-20s %8s %8s %8s %7s\n", "memcpy baseline", "GB/s", "min", "max",
	       "spread");
	fprintf(fp, "%-9s %10s %8.2f %8.2f %8.2f %6.1f%%\n", "cache-hot",
	       sb_format_size(rep->base.hot_size, a, sizeof(a)), rep->base.hot.median,
	       rep->base.hot.min, rep->base.hot.max, rep->base.hot.spread * 100);
	fprintf(fp, "%-9s %10s %8.2f %8.2f %8.2f %6.1f%%\n\n", "from RAM",
	       sb_format_size(rep->base.ram_size, a, sizeof(a)), rep->base.ram.median,
	       rep->base.ram.min, rep->base.ram.max, rep->base.ram.spread * 100);
	fflush(fp);
	results_table(fp, rep, t);
	fprintf(fp, "\nGB/s: 10^9 bytes per second, median over the runs; spread: (max-min)/median;\n"
	       "cpu-prod, cpu-cons: CPU seconds (user+system) per GB on each side.\n");
	for (i = 0; i < rep->nres && !wide_spread(&rep->res[i]); i++)
		;
	if (i < rep->nres)
		fprintf(fp, "wide spread: above %.0f%%, the median is not to be trusted beyond noise.\n",
		       SB_SPREAD_WARN * 100);
	if (!data_touched(cfg))
		fprintf(fp, "null consumer: splice to /dev/null, no data touched; compare with the\n"
		       "memcpy baseline only as an upper bound.\n");
	if (cfg->consumer == SB_VERIFY) {
		uint64_t chunks = 0, bad = 0;

		for (i = 0; i < rep->nres; i++) {
			chunks += rep->res[i].chunks;
			bad += rep->res[i].corrupt;
		}
		fprintf(fp, "verify: %" PRIu64 " chunks checked, %" PRIu64 " corrupted.\n",
		       chunks, bad);
		if (cfg->unsafe_reuse && !bad)
			fprintf(fp, "--unsafe-reuse: nothing caught this time; a double buffer of chunks at\n"
			       "least as large as the pipe happens to be safe with a copying consumer.\n"
			       "Try smaller chunks (--size 4K).\n");
	} else if (cfg->unsafe_reuse) {
		fprintf(fp, "--unsafe-reuse: any corruption went unseen; use --consumer verify.\n");
	}
}

void sb_warn_spread(const struct sb_report *rep)
{
	char list[512] = "", a[32];
	size_t len = 0;
	int i, n = 0;

	for (i = 0; i < rep->nres; i++) {
		const struct sb_result *r = &rep->res[i];

		if (!wide_spread(r))
			continue;
		if (len < sizeof(list) - 64)
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s %s (%.0f%%)",
						n ? ", " : "", sb_mode_name(r->mode),
						sb_format_size(r->size, a, sizeof(a)),
						r->gbps.spread * 100);
		n++;
	}
	if (n)
		tool_warn("spread above %.0f%% ((max-min)/median) at %s: too wide to trust the median; the machine was busy or the runs too short (more --runs, a longer --total or --time, or a quieter machine)",
			  SB_SPREAD_WARN * 100, list);
}

/* ---- progress on a terminal ------------------------------------------- */

void sb_progress(const char *what, int done, int total, double elapsed)
{
	char eta[32] = "";

	if (done > 0 && total > done) {
		long left = (long)(elapsed / done * (total - done) + 0.5);

		snprintf(eta, sizeof(eta), ", ETA %ld:%02ld", left / 60, left % 60);
	}
	if (total)
		fprintf(stderr, "\r%s: %s, %d of %d runs done (%d%%)%s\033[K",
			tool_name(), what, done, total, done * 100 / total, eta);
	else
		fprintf(stderr, "\r%s: %s\033[K", tool_name(), what);
	fflush(stderr);
}

void sb_progress_end(void)
{
	fputs("\r\033[K", stderr);
	fflush(stderr);
}

/* ---- what the exports carry about the invocation ------------------------ */

static void iso_time(long long t, char *buf, size_t size)
{
	time_t tt = (time_t)t;
	struct tm tm;

	gmtime_r(&tt, &tm);
	strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* The command line, words joined by blanks, quoted as a shell would need
 * ('...' around a word with anything but [A-Za-z0-9_./,:=+-]). */
static char *command_line(const struct sb_report *rep)
{
	size_t cap = 1;
	char *s, *p;

	for (int i = 0; i < rep->argc; i++)
		cap += 4 * strlen(rep->argv[i]) + 3;
	s = p = malloc(cap);
	if (!s)
		return NULL;
	*p = '\0';
	for (int i = 0; i < rep->argc; i++) {
		const char *w = rep->argv[i];
		bool q = !*w || w[strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./,:=+-")];

		if (i)
			*p++ = ' ';
		if (q)
			*p++ = '\'';
		for (; *w; w++) {
			if (*w == '\'' && q) {
				p = stpcpy(p, "'\\''");
				continue;
			}
			*p++ = *w;
		}
		if (q)
			*p++ = '\'';
		*p = '\0';
	}
	return s;
}

/* ---- CSV -------------------------------------------------------------- */

/*
 * A number in a CSV field: printf's "%.4f" with four decimals, or nothing
 * when it is not finite (printf would write "nan" or "inf", which no CSV
 * reader takes for a number, and JSON cannot hold).
 */
static void csv_num(FILE *fp, double v)
{
	if (isfinite(v))
		fprintf(fp, "%.4f", v);
}

/* How many of a point's samples there are: its run count, within the
 * array that holds them (a report is also built by the fuzzers). */
static int nsamples(int n, int cap)
{
	return n < 0 ? 0 : n > cap ? cap : n;
}

/* The run-by-run GB/s, ';'-separated (one CSV field). */
static void csv_samples(FILE *fp, const double *v, int n)
{
	for (int i = 0; i < n; i++) {
		if (i)
			fputc(';', fp);
		csv_num(fp, v[i]);
	}
}

/* The columns every row ends with: the samples and the invocation. */
static void csv_tail(FILE *fp, const double *samples, int n, bool wide,
		     const char *cmd, const char *when)
{
	fputc(',', fp);
	csv_samples(fp, samples, n);
	fprintf(fp, ",%s,%s,", wide ? "true" : "false", SUITE_VERSION);
	tool_fputs_csv(cmd ? cmd : "", fp);
	fprintf(fp, ",%s\n", when);
}

static void csv_base(FILE *fp, const char *name, uint64_t size,
		     const struct sb_stats *st, const double *samples,
		     const char *cmd, const char *when)
{
	fprintf(fp, "%s,,%" PRIu64 ",,false,false,%d,", name, size, st->n);
	csv_num(fp, st->median);
	fputc(',', fp);
	csv_num(fp, st->min);
	fputc(',', fp);
	csv_num(fp, st->max);
	fputc(',', fp);
	csv_num(fp, st->spread);
	fputs(",,,,true,false,,,,", fp);
	csv_tail(fp, samples, nsamples(st->n, SB_BASE_RUNS), false, cmd, when);
}

void sb_output_csv(FILE *fp, const struct sb_report *rep)
{
	const struct sb_config *cfg = rep->cfg;
	char when[32], *cmd = command_line(rep);
	int i;

	iso_time(rep->started, when, sizeof(when));
	fprintf(fp, "mode,consumer,size,pipe_size,huge,busy,runs,median_gbps,min_gbps,"
		"max_gbps,spread,cpu_s_per_gb,cpu_s_per_gb_producer,"
		"cpu_s_per_gb_consumer,data_touched,huge_requested,bytes_per_run,"
		"chunks_verified,corrupt_chunks,error,samples_gbps,wide_spread,"
		"version,command,timestamp\n");
	csv_base(fp, "memcpy-hot", rep->base.hot_size, &rep->base.hot,
		 rep->base.hot_samples, cmd, when);
	csv_base(fp, "memcpy-ram", rep->base.ram_size, &rep->base.ram,
		 rep->base.ram_samples, cmd, when);
	for (i = 0; i < rep->nres; i++) {
		const struct sb_result *r = &rep->res[i];
		const double v[] = {
			r->gbps.median, r->gbps.min, r->gbps.max, r->gbps.spread,
			r->cpu_producer + r->cpu_consumer, r->cpu_producer,
			r->cpu_consumer,
		};

		fprintf(fp, "%s,%s,%" PRIu64 ",", sb_mode_name(r->mode),
			sb_consumer_name(cfg->consumer), r->size);
		if (r->failed) {
			fprintf(fp, ",false,%s,0,,,,,,,,%s,%s,,,,",
				cfg->busy ? "true" : "false",
				data_touched(cfg) ? "true" : "false",
				r->huge_requested ? "true" : "false");
			tool_fputs_csv(r->why, fp);
			/* not measured: no samples, and a spread that does
			 * not apply (empty) */
			fprintf(fp, ",,,%s,", SUITE_VERSION);
			tool_fputs_csv(cmd ? cmd : "", fp);
			fprintf(fp, ",%s\n", when);
			continue;
		}
		fprintf(fp, "%" PRIu64 ",%s,%s,%d", r->pipe_size,
			r->huge ? "true" : "false", cfg->busy ? "true" : "false",
			r->runs);
		for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++) {
			fputc(',', fp);
			csv_num(fp, v[k]);
		}
		fprintf(fp, ",%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",",
			data_touched(cfg) ? "true" : "false",
			r->huge_requested ? "true" : "false", r->bytes, r->chunks,
			r->corrupt);
		csv_tail(fp, r->sample_gbps, nsamples(r->runs, SB_MAX_RUNS),
			 wide_spread(r), cmd, when);
	}
	free(cmd);
}

/* ---- JSON --------------------------------------------------------------- */

/* A string from the system (CPU model, kernel release, a path in a
 * message): valid UTF-8 in the output, U+FFFD for invalid bytes. */
static json_object *jstr_or_null(const char *s)
{
	return s && *s ? tool_json_str(s) : NULL;
}

static json_object *jdouble(double v)
{
	/* four decimals are plenty and keep the output stable to read;
	 * NaN and infinities are no JSON number: null */
	char buf[32];

	if (!isfinite(v))
		return NULL;
	snprintf(buf, sizeof(buf), "%.4f", v);
	return json_object_new_double_s(v, buf);
}

/* The raw samples, in the order they were measured. */
static json_object *jsamples(const double *v, int n, int decimals)
{
	json_object *a = json_object_new_array();
	char buf[40];

	for (int i = 0; i < n; i++) {
		if (!isfinite(v[i])) {	/* no JSON number: null */
			json_object_array_add(a, NULL);
			continue;
		}
		snprintf(buf, sizeof(buf), "%.*f", decimals, v[i]);
		json_object_array_add(a, json_object_new_double_s(v[i], buf));
	}
	return a;
}

static json_object *json_stats(uint64_t size, const struct sb_stats *st,
			       const double *samples)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "size", json_object_new_uint64(size));
	json_object_object_add(o, "runs", json_object_new_int(st->n));
	json_object_object_add(o, "median_gbps", jdouble(st->median));
	json_object_object_add(o, "min_gbps", jdouble(st->min));
	json_object_object_add(o, "max_gbps", jdouble(st->max));
	json_object_object_add(o, "spread", jdouble(st->spread));
	json_object_object_add(o, "samples_gbps", jsamples(samples, nsamples(st->n, SB_BASE_RUNS), 4));
	return o;
}

static const char *bad_name(enum sb_chunk_status s)
{
	switch (s) {
	case SB_CHUNK_BAD_SEQ:	return "another chunk's data";
	case SB_CHUNK_BAD_SUM:	return "checksum mismatch";
	case SB_CHUNK_BAD_DATA:	return "data differs";
	default:		return "ok";
	}
}

static json_object *json_result(const struct sb_report *rep,
				const struct sb_result *r)
{
	const struct sb_config *cfg = rep->cfg;
	json_object *o = json_object_new_object();
	bool ok = !r->failed;

	json_object_object_add(o, "mode", json_object_new_string(sb_mode_name(r->mode)));
	json_object_object_add(o, "consumer",
			       json_object_new_string(sb_consumer_name(cfg->consumer)));
	json_object_object_add(o, "size", json_object_new_uint64(r->size));
	json_object_object_add(o, "pipe_size",
			       ok ? json_object_new_uint64(r->pipe_size) : NULL);
	json_object_object_add(o, "huge", json_object_new_boolean(r->huge));
	json_object_object_add(o, "busy", json_object_new_boolean(cfg->busy));
	json_object_object_add(o, "runs", json_object_new_int(r->runs));
	json_object_object_add(o, "median_gbps", ok ? jdouble(r->gbps.median) : NULL);
	json_object_object_add(o, "min_gbps", ok ? jdouble(r->gbps.min) : NULL);
	json_object_object_add(o, "max_gbps", ok ? jdouble(r->gbps.max) : NULL);
	json_object_object_add(o, "cpu_s_per_gb",
			       ok ? jdouble(r->cpu_producer + r->cpu_consumer) : NULL);
	json_object_object_add(o, "cpu_s_per_gb_producer", ok ? jdouble(r->cpu_producer) : NULL);
	json_object_object_add(o, "cpu_s_per_gb_consumer", ok ? jdouble(r->cpu_consumer) : NULL);
	json_object_object_add(o, "spread", ok ? jdouble(r->gbps.spread) : NULL);
	json_object_object_add(o, "huge_requested", json_object_new_boolean(r->huge_requested));
	json_object_object_add(o, "data_touched", json_object_new_boolean(data_touched(cfg)));
	json_object_object_add(o, "bytes_per_run", ok ? json_object_new_uint64(r->bytes) : NULL);
	json_object_object_add(o, "unsafe_reuse", json_object_new_boolean(cfg->unsafe_reuse));
	if (cfg->pin_producer >= 0) {
		json_object *pin = json_object_new_array();

		json_object_array_add(pin, json_object_new_int(cfg->pin_producer));
		json_object_array_add(pin, json_object_new_int(cfg->pin_consumer));
		json_object_object_add(o, "pin", pin);
	} else {
		json_object_object_add(o, "pin", NULL);
	}
	if (cfg->consumer == SB_VERIFY && ok) {
		json_object *v = json_object_new_object();

		json_object_object_add(v, "chunks", json_object_new_uint64(r->chunks));
		json_object_object_add(v, "corrupt", json_object_new_uint64(r->corrupt));
		if (r->corrupt) {
			json_object_object_add(v, "first_bad_chunk",
					       json_object_new_uint64(r->first_bad_chunk));
			json_object_object_add(v, "first_bad_found",
					       json_object_new_string(bad_name(r->first_bad)));
		}
		json_object_object_add(o, "verify", v);
	}
	if (ok) {
		json_object_object_add(o, "wide_spread", json_object_new_boolean(wide_spread(r)));
		json_object_object_add(o, "samples_gbps", jsamples(r->sample_gbps, nsamples(r->runs, SB_MAX_RUNS), 4));
		json_object_object_add(o, "samples_seconds",
				       jsamples(r->sample_seconds, nsamples(r->runs, SB_MAX_RUNS), 6));
	}
	if (r->failed)
		json_object_object_add(o, "error", tool_json_str(r->why));
	return o;
}

void sb_output_json(FILE *fp, const struct sb_report *rep)
{
	const struct kattr_sysfacts *f = &rep->facts;
	json_object *root = json_object_new_object(), *sys, *base, *res;
	char when[32], *cmd = command_line(rep);
	int i;

	iso_time(rep->started, when, sizeof(when));
	json_object_object_add(root, "tool", json_object_new_string("splicebench"));
	json_object_object_add(root, "version", json_object_new_string(SUITE_VERSION));
	json_object_object_add(root, "command", jstr_or_null(cmd));
	free(cmd);
	json_object_object_add(root, "timestamp", json_object_new_string(when));
	json_object_object_add(root, "spread_warn", jdouble(SB_SPREAD_WARN));

	sys = json_object_new_object();
	json_object_object_add(sys, "kernel_release", jstr_or_null(f->kernel_release));
	json_object_object_add(sys, "cpu_model", jstr_or_null(f->cpu_model));
	json_object_object_add(sys, "cpus_online",
			       f->cpus_online ? json_object_new_int((int)f->cpus_online) : NULL);
	json_object_object_add(sys, "page_size",
			       f->page_size ? json_object_new_uint64(f->page_size) : NULL);
	json_object_object_add(sys, "pipe_max_size",
			       f->pipe_max_size ? json_object_new_uint64(f->pipe_max_size) : NULL);
	json_object_object_add(sys, "thp_mode", jstr_or_null(f->thp_mode));
	json_object_object_add(sys, "virtualization", jstr_or_null(f->virt));
	json_object_object_add(sys, "container", jstr_or_null(f->container));
	json_object_object_add(sys, "pipe_size_default",
			       json_object_new_int(rep->pipe_size_default));
	json_object_object_add(sys, "pipe_size_used",
			       json_object_new_uint64(pipe_size_used(rep)));
	json_object_object_add(root, "system", sys);

	base = json_object_new_object();
	json_object_object_add(base, "memcpy_cache_hot",
			       json_stats(rep->base.hot_size, &rep->base.hot,
					  rep->base.hot_samples));
	json_object_object_add(base, "memcpy_from_ram",
			       json_stats(rep->base.ram_size, &rep->base.ram,
					  rep->base.ram_samples));
	json_object_object_add(root, "baseline", base);

	res = json_object_new_array();
	for (i = 0; i < rep->nres; i++)
		json_object_array_add(res, json_result(rep, &rep->res[i]));
	json_object_object_add(root, "results", res);
	json_object_object_add(root, "interrupted",
			       json_object_new_boolean(rep->interrupted));
	fprintf(fp, "%s\n", json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
						       JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(root);
}

int sb_output(const struct sb_report *rep, enum sb_format fmt,
	      const struct sb_table_opts *t)
{
	static const struct sb_table_opts defaults;

	if (!t)
		t = &defaults;
	switch (fmt) {
	case SB_TABLE:
		sb_output_text(stdout, rep, t);
		break;
	case SB_CSV:
		sb_output_csv(stdout, rep);
		break;
	case SB_JSON:
		sb_output_json(stdout, rep);
		break;
	}
	return 0;
}

/* ---- the plot ------------------------------------------------------------ */

static bool in_path(const char *prog)
{
	const char *path = getenv("PATH");
	char buf[4096];

	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		const char *colon = strchr(path, ':');
		size_t n = colon ? (size_t)(colon - path) : strlen(path);

		if (n && snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, path, prog) <
			 (int)sizeof(buf) && access(buf, X_OK) == 0)
			return true;
		if (!colon)
			break;
		path = colon + 1;
	}
	return false;
}

/* Keep what goes inside a gnuplot "..." string harmless. */
static void gp_string(FILE *gp, const char *s)
{
	fputc('"', gp);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', gp);
		if ((unsigned char)*s >= ' ')
			fputc(*s, gp);
	}
	fputc('"', gp);
}

/* "64 KiB", "1 MiB", "1536 KiB", "24 B": exact, in the largest unit that
 * divides n. */
static const char *iec_size(uint64_t n, char *buf, size_t size)
{
	if (n && n % (1u << 20) == 0)
		snprintf(buf, size, "%" PRIu64 " MiB", n >> 20);
	else if (n && n % 1024 == 0)
		snprintf(buf, size, "%" PRIu64 " KiB", n >> 10);
	else
		snprintf(buf, size, "%" PRIu64 " B", n);
	return buf;
}

/* The terminal, the title (what was measured, where) and the axes. */
static void plot_frame(FILE *gp, const struct sb_report *rep, bool svg)
{
	const struct sb_config *cfg = rep->cfg;
	char title[400], a[32];

	if (svg)
		fprintf(gp, "set terminal svg size 900,540 dynamic enhanced "
			"font 'sans,11' background rgb 'white'\n");
	else
		fprintf(gp, "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) "
			"{ set terminal pngcairo size 900,540 font 'sans,10' } "
			"else { set terminal png size 900,540 }\n");
	snprintf(title, sizeof(title),
		 "splicebench: consumer %s, pipe %s%s%s - Linux %s, %s",
		 sb_consumer_name(cfg->consumer),
		 sb_format_size(pipe_size_used(rep), a, sizeof(a)),
		 cfg->huge ? ", huge pages asked" : "", cfg->busy ? ", busy" : "",
		 or_unknown(rep->facts.kernel_release),
		 or_unknown(rep->facts.cpu_model));
	fprintf(gp, "set title ");
	gp_string(gp, title);
	fprintf(gp, " noenhanced\n");
	fprintf(gp, "set xlabel 'chunk size'\n"
		"set ylabel 'GB/s (median; bars: min to max; log scale)'\n"
		"set logscale x 2\n"
		/* log y: gift at 0.1 GB/s and copy at 25 both readable */
		"set logscale y 10\n"
		"set yrange [*:*]\nset grid\n"
		/* one row below the plot, entries apart, in a box */
		"set key below horizontal maxrows 1 Left reverse width 2 samplen 2.5 spacing 1.3 box\n"
		"set style data yerrorlines\n");
}

/* The x range around the sizes measured, and a tick at each, in KiB or MiB. */
static void plot_sizes(FILE *gp, const struct sb_report *rep)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	int i, j, ticks = 0;
	char a[32];

	for (i = 0; i < rep->nres; i++) {
		if (rep->res[i].failed)
			continue;
		if (rep->res[i].size < lo)
			lo = rep->res[i].size;
		if (rep->res[i].size > hi)
			hi = rep->res[i].size;
	}
	fprintf(gp, "set xrange [%g:%g]\n", (double)lo / 1.5, (double)hi * 1.5);
	fprintf(gp, "set xtics (");
	for (i = 0; i < rep->nres; i++) {
		const struct sb_result *r = &rep->res[i];

		for (j = 0; j < i; j++)
			if (rep->res[j].size == r->size && !rep->res[j].failed)
				break;
		if (r->failed || j < i)
			continue;
		fprintf(gp, "%s\"%s\" %" PRIu64, ticks++ ? ", " : "",
			iec_size(r->size, a, sizeof(a)), r->size);
	}
	fprintf(gp, ")\n");
}

/* The points whose spread is too wide to trust, ringed (titled once). */
static void plot_wide(FILE *gp, const struct sb_report *rep)
{
	int i, n = 0;

	for (i = 0; i < rep->nres; i++)
		n += wide_spread(&rep->res[i]);
	if (!n)
		return;
	fprintf(gp, ", '-' using 1:2 with points pt 6 ps 2.5 lc rgb 'red' "
		"title 'spread > %.0f%%: not to be trusted'", SB_SPREAD_WARN * 100);
}

/* The data of plot_wide(), after the plot command. */
static void plot_wide_data(FILE *gp, const struct sb_report *rep)
{
	int i, m, lines = 0, k;

	for (i = 0; i < rep->nres; i++)
		if (wide_spread(&rep->res[i]))
			break;
	if (i == rep->nres)
		return;
	for (m = 0; m < SB_NMODES; m++) {
		for (k = 0; k < rep->nres; k++)
			if (rep->res[k].mode == (enum sb_mode)m && !rep->res[k].failed)
				break;
		if (k == rep->nres)
			continue;
		for (i = 0; i < rep->nres; i++) {
			const struct sb_result *r = &rep->res[i];

			if (r->mode == (enum sb_mode)m && wide_spread(r))
				fprintf(gp, "%.6g %.4f\n", (double)r->size *
					pow(2, 0.05 * (lines - 1)), r->gbps.median);
		}
		lines++;
	}
	fprintf(gp, "e\n");
}

/* A data block per mode, a line per mode measured, and the baseline. */
static void plot_lines(FILE *gp, const struct sb_report *rep)
{
	int m, i, lines = 0;

	/* The baseline labelled on its line, not in the key among the modes. */
	fprintf(gp, "set label 1 \"memcpy from RAM: %.2f GB/s\" at graph 0.01, first %.4f "
		"offset 0,0.7 textcolor rgb 'gray30' noenhanced\n",
		rep->base.ram.median, rep->base.ram.median);
	for (m = 0; m < SB_NMODES; m++) {
		fprintf(gp, "$%s << EOD\n", sb_mode_name(m));
		for (i = 0; i < rep->nres; i++) {
			const struct sb_result *r = &rep->res[i];

			if (r->mode == (enum sb_mode)m && !r->failed)
				fprintf(gp, "%" PRIu64 " %.4f %.4f %.4f\n", r->size,
					r->gbps.median, r->gbps.min, r->gbps.max);
		}
		fprintf(gp, "EOD\n");
	}
	fprintf(gp, "plot ");
	for (m = 0; m < SB_NMODES; m++) {
		for (i = 0; i < rep->nres; i++)
			if (rep->res[i].mode == (enum sb_mode)m && !rep->res[i].failed)
				break;
		if (i == rep->nres)
			continue;
		/* each mode a little apart on x (x 2^(0.05 k)): two modes'
		 * bars at one size never hide each other */
		fprintf(gp, "%s$%s using ($1*2**(%.2f)):2:3:4 title '%s' lw 2 pt 7",
			lines ? ", " : "", sb_mode_name(m), 0.05 * (lines - 1),
			sb_mode_name(m));
		lines++;
	}
	plot_wide(gp, rep);
	fprintf(gp, ", %.4f with lines dt 2 lc rgb 'gray40' notitle\n",
		rep->base.ram.median);
}

static void plot_script(FILE *gp, const struct sb_report *rep, bool svg)
{
	plot_frame(gp, rep, svg);
	plot_sizes(gp, rep);
	plot_lines(gp, rep);
	plot_wide_data(gp, rep);
}

/* A path that is (or became) a symlink, device, FIFO or directory is
 * refused: 0 or -EINVAL after saying so. */
static int plot_target_ok(const char *path)
{
	struct stat st;

	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		tool_warn("refusing to draw %s: it is %s, not a regular file",
			  path, tool_file_kind(path));
		return -EINVAL;
	}
	return 0;
}

/* Whether path may be drawn: a point to draw, gnuplot, a regular file
 * or none; 0, or -errno after saying why. */
static int plot_check(const struct sb_report *rep, const char *path)
{
	bool any = false;
	int i;

	for (i = 0; i < rep->nres; i++)
		any |= !rep->res[i].failed;
	if (!any) {
		tool_warn("cannot draw %s: no point was measured", path);
		return -ENODATA;
	}
	if (!in_path("gnuplot")) {
		tool_warn("cannot draw %s: gnuplot is not installed "
			  "(Debian: apt-get install gnuplot-nox)", path);
		return -ENOENT;
	}
	return plot_target_ok(path);
}

/* gnuplot, fed the script, drawing into outfd: 0 or -errno (told). */
static int plot_run(const struct sb_report *rep, const char *path, int outfd)
{
	posix_spawn_file_actions_t fa;
	char *argv[] = { "gnuplot", NULL };
	int fds[2], ret, status;
	FILE *gp;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) < 0) {
		ret = -errno;
		tool_warn("cannot draw %s: %s", path, tool_strerror(errno));
		return ret;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[0], 0);
	posix_spawn_file_actions_adddup2(&fa, outfd, 1);
	ret = -posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[0]);
	if (ret < 0) {
		close(fds[1]);
		tool_warn("cannot run gnuplot: %s", tool_strerror(-ret));
		return ret;
	}
	gp = fdopen(fds[1], "w");
	if (!gp) {
		close(fds[1]);
	} else {
		plot_script(gp, rep, str_ends_with_icase(path, ".svg"));
		fclose(gp);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		tool_warn("cannot draw %s: gnuplot failed (see its message above); %s is unchanged",
			  path, path);
		return -EIO;
	}
	return 0;
}

/*
 * gnuplot draws into a temporary file beside path (outfile.h), renamed
 * over path only when it succeeded: a failure leaves path as it was, and
 * nothing but our own temporary file is ever removed.  A path that is (or
 * becomes) a symlink, device, FIFO or directory is refused, never written
 * through.
 */
int sb_plot(const struct sb_report *rep, const char *path)
{
	struct tool_out o;
	int ret;

	ret = plot_check(rep, path);
	if (ret < 0)
		return ret;
	ret = tool_out_open(&o, path);
	if (ret == -EINVAL)
		return plot_target_ok(path);	/* says what it is */
	if (ret < 0) {
		tool_warn("cannot write %s: cannot create a temporary file beside it: %s",
			  path, tool_strerror(-ret));
		return ret;
	}
	ret = plot_run(rep, path, o.fd);
	if (ret < 0) {
		tool_out_abort(&o);
		return ret;
	}
	ret = tool_out_commit(&o);
	if (ret == -EINVAL && plot_target_ok(path) == 0)
		tool_warn("refusing to draw %s: it changed while drawing", path);
	else if (ret < 0 && ret != -EINVAL)
		tool_warn("cannot write %s: %s", path, tool_strerror(-ret));
	return ret;
}
