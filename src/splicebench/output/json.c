// SPDX-License-Identifier: GPL-2.0-or-later
/* splicebench: the report as JSON (json-c). */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include <json-c/json.h>
#include "tool.h"

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
	json_object_object_add(o, "samples_gbps", jsamples(samples, sb_nsamples(st->n, SB_BASE_RUNS), 4));
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
	json_object_object_add(o, "data_touched", json_object_new_boolean(sb_data_touched(cfg)));
	json_object_object_add(o, "bytes_per_run", ok ? json_object_new_uint64(r->bytes) : NULL);
	json_object_object_add(o, "unsafe_reuse", json_object_new_boolean(cfg->unsafe_reuse));
	json_object_object_add(o, "producer_writes",
			       json_object_new_string(sb_producer_writes(cfg, r->mode)));
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
		json_object_object_add(o, "wide_spread", json_object_new_boolean(sb_wide_spread(r)));
		json_object_object_add(o, "samples_gbps", jsamples(r->sample_gbps, sb_nsamples(r->runs, SB_MAX_RUNS), 4));
		json_object_object_add(o, "samples_seconds",
				       jsamples(r->sample_seconds, sb_nsamples(r->runs, SB_MAX_RUNS), 6));
	}
	if (r->failed)
		json_object_object_add(o, "error", tool_json_str(r->why));
	return o;
}

void sb_output_json(FILE *fp, const struct sb_report *rep)
{
	const struct kattr_sysfacts *f = &rep->facts;
	json_object *root = json_object_new_object(), *sys, *base, *res;
	char when[32], *cmd = sb_command_line(rep);
	int i;

	sb_iso_time(rep->started, when, sizeof(when));
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
			       json_object_new_uint64(sb_pipe_size_used(rep)));
	json_object_object_add(root, "system", sys);

	base = json_object_new_object();
	json_object_object_add(base, "memcpy_cache_hot",
			       json_stats(rep->base.hot_size, &rep->base.hot,
					  rep->base.hot_samples));
	json_object_object_add(base, "memcpy_from_ram",
			       json_stats(rep->base.ram_size, &rep->base.ram,
					  rep->base.ram_samples));
	{
		json_object *fr = json_stats(rep->base.fresh_size, &rep->base.fresh,
					     rep->base.fresh_samples);

		json_object_object_add(fr, "cpu_s_per_gb",
				       rep->base.fresh.n ? jdouble(rep->base.fresh_cpu) : NULL);
		json_object_object_add(fr, "what", json_object_new_string(
			"fault + zero + fill + MADV_DONTNEED per chunk, no pipe: the gift producer's own cost"));
		json_object_object_add(base, "fresh_pages", fr);
	}
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
