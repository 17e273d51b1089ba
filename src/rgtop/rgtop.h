/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rgctl-top: the groups below a root watched over time (model.c), shown
 * as batch snapshots (batch.c) or live (view.c, ncurses).  rgctl top
 * execs it (src/rgctl/cmd_top.c) with the line checked.
 */
#ifndef RGTOP_H
#define RGTOP_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "kattr/rg.h"
#include "kattr/rgtool.h"
#include "kattr/rgwatch.h"
#include "rgctl_top.h"

/* A value not known: n/a, or a rate without a first reading. */
#define TOP_NA (-1.0)

struct tgroup {
	char *path;		/* "/" or "/db/batch" */
	char *name;		/* its last component ("/" for the root) */
	unsigned int depth;	/* below the watched group */
	size_t parent;		/* index in model.g (SIZE_MAX: the top one) */
	struct kattr_rg_watch *w;
	long long cur[KATTR_RG_W_NR], prev[KATTR_RG_W_NR], first[KATTR_RG_W_NR];
	bool has_prev;		/* two readings: rates are known */
	bool seen;		/* met by the last scan */
	bool fresh;		/* opened by this update: no previous reading */
	double val[TC_N];	/* each column's number (TOP_NA: none) */
};

struct model {
	struct kattr_rg *rg;
	const char *top;	/* the watched group */
	struct tgroup **g;	/* tree order: parents first, siblings by name */
	size_t n;
	struct timespec at, prev_at, scanned;
	double interval;	/* seconds between the last two readings */
	double rescan;		/* seconds between scans for new groups */
};

int model_init(struct model *m, struct kattr_rg *rg, const char *top);
void model_free(struct model *m);
/* Read every group (and scan for new ones when it is time), then compute
 * the columns.  0 or -errno (the watched group itself is gone: -ENOENT). */
int model_update(struct model *m);

/* The order to show: indexes into m->g, tree or flat, sorted by col
 * (numbers highest first, names A-Z), only those whose path has filter
 * (NULL: all).  *out malloc'ed; returns the count. */
size_t model_order(const struct model *m, int col, bool flat,
		   const char *filter, size_t **out);

/* A column's cell as text (raw: plain numbers). */
void top_cell(const struct tgroup *g, int col, bool raw, char *buf, size_t size);
/* Bytes as "512B", "32.0M". */
void top_bytes(char *buf, size_t size, double v);

/* batch.c: -b */
struct top_opts {
	bool batch, flat, json;
	unsigned long iterations;	/* 0: until q (live) */
	double delay;
	int cols[TC_N * 4];
	size_t ncols;
	int sort;
	const char *group;
	const char *backend, *root;
};
int top_batch(struct model *m, const struct top_opts *o);
/* view.c: the live view (exit 1 without ncurses) */
int top_live(struct model *m, struct top_opts *o);

#endif
