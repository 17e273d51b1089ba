// SPDX-License-Identifier: GPL-2.0-or-later
/* splicebench: the results table (libsmartcols), the spread warning and the dispatcher. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include <libsmartcols.h>
#include "columns.h"
#include "tool.h"
#include "strutils.h"

/* The columns: -o, --output-all, --help and the table's headers (title). */
static const struct tool_column column_defs[SB_COL_COUNT] = {
	[SB_COL_MODE] = { .name = "MODE", .title = "mode", .help = "copy, vmsplice or gift" },
	[SB_COL_SIZE] = { .name = "SIZE", .title = "size", .help = "chunk size", .flags = SCOLS_FL_RIGHT },
	[SB_COL_PIPE] = { .name = "PIPE", .title = "pipe", .help = "pipe size obtained", .flags = SCOLS_FL_RIGHT },
	[SB_COL_HUGE] = { .name = "HUGE", .title = "huge", .help = "huge pages obtained for every buffer" },
	[SB_COL_BUSY] = { .name = "BUSY", .title = "busy", .help = "busy loop (--busy)" },
	[SB_COL_RUNS] = { .name = "RUNS", .title = "runs", .help = "measured runs", .flags = SCOLS_FL_RIGHT },
	[SB_COL_GBPS] = { .name = "GBPS", .title = "GB/s", .help = "median GB/s (10^9 bytes per second)", .flags = SCOLS_FL_RIGHT },
	[SB_COL_MIN] = { .name = "MIN", .title = "min", .help = "slowest run, GB/s", .flags = SCOLS_FL_RIGHT },
	[SB_COL_MAX] = { .name = "MAX", .title = "max", .help = "fastest run, GB/s", .flags = SCOLS_FL_RIGHT },
	[SB_COL_SPREAD] = { .name = "SPREAD", .title = "spread", .help = "(max - min) / median", .flags = SCOLS_FL_RIGHT },
	[SB_COL_CPU_PROD] = { .name = "CPU-PROD", .title = "cpu-prod", .help = "producer CPU seconds per GB", .flags = SCOLS_FL_RIGHT },
	[SB_COL_CPU_CONS] = { .name = "CPU-CONS", .title = "cpu-cons", .help = "consumer CPU seconds per GB", .flags = SCOLS_FL_RIGHT },
	[SB_COL_NOTE] = { .name = "NOTE", .title = "note", .help = "CORRUPT, wide spread, or why not measured" },
	[SB_COL_CPU] = { .name = "CPU", .title = "cpu", .help = "both sides' CPU seconds per GB", .flags = SCOLS_FL_RIGHT },
	[SB_COL_BYTES] = { .name = "BYTES", .title = "bytes", .help = "bytes moved by the median run", .flags = SCOLS_FL_RIGHT },
	[SB_COL_CHUNKS] = { .name = "CHUNKS", .title = "chunks", .help = "chunks verified (--consumer verify)", .flags = SCOLS_FL_RIGHT },
	[SB_COL_CORRUPT] = { .name = "CORRUPT", .title = "corrupt", .help = "corrupted chunks (--consumer verify)", .flags = SCOLS_FL_RIGHT },
};

static const int default_columns[] = {
	SB_COL_MODE, SB_COL_SIZE, SB_COL_PIPE, SB_COL_HUGE, SB_COL_BUSY,
	SB_COL_RUNS, SB_COL_GBPS, SB_COL_MIN, SB_COL_MAX, SB_COL_SPREAD,
	SB_COL_CPU_PROD, SB_COL_CPU_CONS, SB_COL_NOTE,
};

static const struct tool_columns columns = {
	.col = column_defs, .n = SB_COL_COUNT,
	.def = default_columns,
	.ndef = sizeof(default_columns) / sizeof(default_columns[0]),
	.max = SB_COLS_MAX,
	.help_indent = " ", .help_width = 9, .help_gap = "  ",
	.flags = TOOL_COLS_HELP_DEFAULT,
};

int sb_columns_parse(const char *list, struct sb_table_opts *t,
		     const char **bad, size_t *badlen)
{
	int ids[SB_COLS_MAX];
	size_t n;
	int ret = tool_columns_parse(&columns, list, ids, &n, bad, badlen);

	if (ret < 0)
		return ret;
	for (size_t i = 0; i < n; i++)
		t->cols[i] = (enum sb_column)ids[i];
	t->ncols = (int)n;
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
	tool_columns_help(fp, &columns);
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
				 r->corrupt && sb_wide_spread(r) ? ", " : "",
				 sb_wide_spread(r) ? "wide spread" : "");
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
	int ncols = t->ncols, ret = -ENOMEM;
	struct libscols_table *tb = scols_new_table();
	char buf[256];

	if (!ncols)
		for (size_t i = 0; i < columns.ndef; i++)
			defs[ncols++] = (enum sb_column)default_columns[i];
	if (!tb)
		return -ENOMEM;
	scols_table_set_stream(tb, fp);
	scols_table_enable_raw(tb, t->raw);
	scols_table_enable_noheadings(tb, t->noheadings);
	for (int k = 0; k < ncols; k++) {
		const struct tool_column *d = &column_defs[cols[k]];
		/* The last column takes what is left and is never cut. */
		int flags = d->flags | (k == ncols - 1 ? SCOLS_FL_NOEXTREMES : 0);

		if (!scols_table_new_column(tb, tool_column_header(&columns, cols[k], true),
					    0, flags))
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
	       fact_text(f->thp_mode), sb_format_size(sb_pipe_size_used(rep), c, sizeof(c)));
	fprintf(fp, "consumer: %s\n", sb_consumer_label(cfg));
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
	fprintf(fp, "%-9s %10s %8.2f %8.2f %8.2f %6.1f%%\n", "from RAM",
	       sb_format_size(rep->base.ram_size, a, sizeof(a)), rep->base.ram.median,
	       rep->base.ram.min, rep->base.ram.max, rep->base.ram.spread * 100);
	fprintf(fp, "%-9s %10s %8.2f %8.2f %8.2f %6.1f%%  %.2f CPU s/GB\n", "fresh pg",
	       sb_format_size(rep->base.fresh_size, a, sizeof(a)), rep->base.fresh.median,
	       rep->base.fresh.min, rep->base.fresh.max, rep->base.fresh.spread * 100,
	       rep->base.fresh_cpu);
	fprintf(fp, "fresh pg: fault + zero + fill + MADV_DONTNEED, no pipe: what gift pays per chunk\n\n");
	fflush(fp);
	results_table(fp, rep, t);
	fprintf(fp, "\nGB/s: 10^9 bytes per second, median over the runs; spread: (max-min)/median;\n"
	       "cpu-prod, cpu-cons: CPU seconds (user+system) per GB on each side.\n");
	for (i = 0; i < rep->nres && !sb_wide_spread(&rep->res[i]); i++)
		;
	if (i < rep->nres)
		fprintf(fp, "wide spread: above %.0f%%, the median is not to be trusted beyond noise.\n",
		       SB_SPREAD_WARN * 100);
	if (cfg->modes & (1u << SB_GIFT))
		fprintf(fp, "gift: read it against the fresh-page baseline (%.2f GB/s, %.2f CPU s/GB):\n"
			"its producer pays that per chunk; none of these consumers takes a gift\n"
			"(read, /dev/null and files copy or drop the pages), so SPLICE_F_GIFT\n"
			"itself changes nothing here.\n",
			rep->base.fresh.median, rep->base.fresh_cpu);
	fprintf(fp, "producer writes per chunk: copy: %s; vmsplice: %s; gift: %s.\n",
		sb_producer_writes(cfg, SB_COPY), sb_producer_writes(cfg, SB_VMSPLICE),
		sb_producer_writes(cfg, SB_GIFT));
	if (!sb_data_touched(cfg))
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

		if (!sb_wide_spread(r))
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
