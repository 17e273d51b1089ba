/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A splicebench report made of arbitrary bytes, for fuzz_sb_output.c and
 * the unit test: every field the outputs print (system facts, results,
 * their error messages, the doubles, NaN and infinities included) is read
 * from the input in turn; what the input lacks is zero.
 */
#ifndef KATTR_TESTS_SB_REPORT_GEN_H
#define KATTR_TESTS_SB_REPORT_GEN_H

#include <stdint.h>
#include <string.h>

#include "sb.h"

struct sbgen {
	const uint8_t *p, *end;
	struct sb_config cfg;
	struct sb_result res[8];
	struct sb_report rep;
};

static inline uint8_t sbgen_u8(struct sbgen *g)
{
	return g->p < g->end ? *g->p++ : 0;
}

static inline void sbgen_bytes(struct sbgen *g, void *dst, size_t n)
{
	size_t have = (size_t)(g->end - g->p);

	memset(dst, 0, n);
	if (have > n)
		have = n;
	memcpy(dst, g->p, have);
	g->p += have;
}

/* A string up to the next NUL (or the end), cut to fit buf. */
static inline void sbgen_str(struct sbgen *g, char *buf, size_t size)
{
	size_t n = 0;

	while (g->p < g->end && *g->p) {
		if (n + 1 < size)
			buf[n++] = (char)*g->p;
		g->p++;
	}
	if (g->p < g->end)
		g->p++;
	buf[n] = '\0';
}

static inline double sbgen_double(struct sbgen *g)
{
	double d;

	sbgen_bytes(g, &d, sizeof(d));
	return d;
}

static inline void sbgen_stats(struct sbgen *g, struct sb_stats *st)
{
	st->median = sbgen_double(g);
	st->min = sbgen_double(g);
	st->max = sbgen_double(g);
	st->spread = sbgen_double(g);
	st->n = (int8_t)sbgen_u8(g);
}

static inline void sbgen_fill(struct sbgen *g, const uint8_t *data, size_t size)
{
	struct kattr_sysfacts *f = &g->rep.facts;
	uint8_t flags;

	memset(g, 0, sizeof(*g));
	g->p = data;
	g->end = data + size;
	flags = sbgen_u8(g);
	g->cfg.consumer = (enum sb_consumer)(flags & 3);
	g->cfg.busy = flags & 4;
	g->cfg.unsafe_reuse = flags & 8;
	g->cfg.pin_producer = flags & 16 ? (int8_t)sbgen_u8(g) : -1;
	g->cfg.pin_consumer = (int8_t)sbgen_u8(g);
	g->rep.interrupted = flags & 32;
	g->rep.cfg = &g->cfg;
	sbgen_str(g, f->kernel_release, sizeof(f->kernel_release));
	sbgen_str(g, f->cpu_model, sizeof(f->cpu_model));
	sbgen_str(g, f->thp_mode, sizeof(f->thp_mode));
	sbgen_str(g, f->virt, sizeof(f->virt));
	sbgen_str(g, f->container, sizeof(f->container));
	f->cpus_online = sbgen_u8(g);
	sbgen_bytes(g, &f->page_size, sizeof(f->page_size));
	sbgen_bytes(g, &f->pipe_max_size, sizeof(f->pipe_max_size));
	g->rep.pipe_size_default = (int)sbgen_u8(g) << 12;
	sbgen_bytes(g, &g->rep.base.hot_size, sizeof(g->rep.base.hot_size));
	sbgen_bytes(g, &g->rep.base.ram_size, sizeof(g->rep.base.ram_size));
	sbgen_stats(g, &g->rep.base.hot);
	sbgen_stats(g, &g->rep.base.ram);
	g->rep.res = g->res;
	g->rep.nres = sbgen_u8(g) % 9;
	for (int i = 0; i < g->rep.nres; i++) {
		struct sb_result *r = &g->res[i];
		uint8_t rf = sbgen_u8(g);

		r->mode = (enum sb_mode)(rf % SB_NMODES);
		r->failed = rf & 4;
		r->huge = rf & 8;
		r->huge_requested = rf & 16;
		r->first_bad = (enum sb_chunk_status)((rf >> 5) & 3);
		sbgen_str(g, r->why, sizeof(r->why));
		sbgen_bytes(g, &r->size, sizeof(r->size));
		sbgen_bytes(g, &r->pipe_size, sizeof(r->pipe_size));
		r->runs = (int8_t)sbgen_u8(g);
		sbgen_stats(g, &r->gbps);
		r->cpu_producer = sbgen_double(g);
		r->cpu_consumer = sbgen_double(g);
		sbgen_bytes(g, &r->bytes, sizeof(r->bytes));
		sbgen_bytes(g, &r->chunks, sizeof(r->chunks));
		sbgen_bytes(g, &r->corrupt, sizeof(r->corrupt));
		sbgen_bytes(g, &r->first_bad_chunk, sizeof(r->first_bad_chunk));
	}
}

#endif
