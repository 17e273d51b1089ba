// SPDX-License-Identifier: GPL-2.0-or-later
/* splicebench: the report as CSV (one row per point). */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "tool.h"

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
	csv_tail(fp, samples, sb_nsamples(st->n, SB_BASE_RUNS), false, cmd, when);
}

void sb_output_csv(FILE *fp, const struct sb_report *rep)
{
	const struct sb_config *cfg = rep->cfg;
	char when[32], *cmd = sb_command_line(rep);
	int i;

	sb_iso_time(rep->started, when, sizeof(when));
	fprintf(fp, "mode,consumer,size,pipe_size,huge,busy,runs,median_gbps,min_gbps,"
		"max_gbps,spread,cpu_s_per_gb,cpu_s_per_gb_producer,"
		"cpu_s_per_gb_consumer,data_touched,huge_requested,bytes_per_run,"
		"chunks_verified,corrupt_chunks,error,samples_gbps,wide_spread,"
		"version,command,timestamp\n");
	csv_base(fp, "memcpy-hot", rep->base.hot_size, &rep->base.hot,
		 rep->base.hot_samples, cmd, when);
	csv_base(fp, "memcpy-ram", rep->base.ram_size, &rep->base.ram,
		 rep->base.ram_samples, cmd, when);
	csv_base(fp, "fresh-pages", rep->base.fresh_size, &rep->base.fresh,
		 rep->base.fresh_samples, cmd, when);
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
				sb_data_touched(cfg) ? "true" : "false",
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
			sb_data_touched(cfg) ? "true" : "false",
			r->huge_requested ? "true" : "false", r->bytes, r->chunks,
			r->corrupt);
		csv_tail(fp, r->sample_gbps, sb_nsamples(r->runs, SB_MAX_RUNS),
			 sb_wide_spread(r), cmd, when);
	}
	free(cmd);
}
