// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rgctl stats --format openmetrics / --textfile DIR: the figures of one or
 * more groups as metrics for Prometheus, through the suite's one writer
 * (src/common/openmetrics.c, shared with likelytop).  A figure's metric
 * name follows Prometheus' conventions from what kattr_rg_stats() says of
 * it: "rgctl_" RESOURCE "_" FIGURE (anything but [a-zA-Z0-9] as one '_'),
 * io's rbytes/wbytes/dbytes/rios/wios/dios spelled read_bytes, write_ios...,
 * the unit at the end in its base unit (usec figures in seconds, bytes in
 * bytes, PSI averages as a ratio), and "_total" on counters:
 * rgctl_cpu_usage_seconds_total, rgctl_memory_current_bytes,
 * rgctl_io_read_bytes_total{device="8:0"}, rgctl_pids_current,
 * rgctl_cpu_pressure_some_avg10_ratio.  The group is a label (its name
 * escaped by the writer), io's device another.  A family's samples are
 * written together, whatever order the groups and devices came in, and a
 * series once (a group named twice is one).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rgctl.h"
#include "rgctl_cpu.h"
#include "rgctl_stats.h"
#include "strutils.h"
#include "xalloc.h"

/* io.stat's short keys, spelled out (blkio's are made the same). */
static const char *io_long_name(const char *key)
{
	static const char *const names[][2] = {
		{ "rbytes", "read_bytes" }, { "wbytes", "write_bytes" },
		{ "dbytes", "discard_bytes" }, { "rios", "read_ios" },
		{ "wios", "write_ios" }, { "dios", "discard_ios" },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
		if (!strcmp(key, names[i][0]))
			return names[i][1];
	return key;
}

/* Append len bytes of s to buf (length *n, room size): [a-zA-Z0-9]
 * kept, every run of other bytes one '_', none doubled. */
static void name_add(char *buf, size_t size, size_t *n, const char *s,
		     size_t len)
{
	for (size_t i = 0; i < len && *n + 1 < size; i++) {
		char c = s[i];
		bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			    (c >= '0' && c <= '9');

		if (!keep && *n && buf[*n - 1] == '_')
			continue;
		buf[(*n)++] = keep ? c : '_';
	}
	buf[*n] = '\0';
}

int rgctl_om_metric(const struct kattr_rg_stat *s, char *buf, size_t size,
		    const char **unit, double *div)
{
	const char *key = strcmp(s->res, "io") ? s->key : io_long_name(s->key);
	size_t klen = strlen(key), n = 0;

	*unit = NULL;
	*div = 1;
	if (!s->has_value || s->absent || size < 32)
		return -ENODATA;	/* a text line, or n/a here */
	if (s->unit == KATTR_RG_UNIT_USEC) {
		*unit = "seconds";
		*div = 1e6;
		klen -= str_ends_with_n(key, klen, "_usec") ? 5 : 0;
	} else if (s->unit == KATTR_RG_UNIT_BYTES) {
		*unit = "bytes";
		klen -= str_ends_with_n(key, klen, "bytes") ? 5 : 0;
	} else if (s->unit == KATTR_RG_UNIT_CENTIPCT) {
		*unit = "ratio";
		*div = 1e4;	/* hundredths of a percent */
	}
	/* room kept for "_seconds" */
	name_add(buf, size - 9, &n, "rgctl_", 6);
	name_add(buf, size - 9, &n, s->res, strlen(s->res));
	name_add(buf, size - 9, &n, "_", 1);
	name_add(buf, size - 9, &n, key, klen);
	/* "_total" is the counter's suffix: not in the name itself
	 * (pressure.some.total_usec: rgctl_cpu_pressure_some_seconds_total) */
	while (n && buf[n - 1] == '_')
		n--;
	if (str_ends_with_n(buf, n, "_total"))
		n -= 6;
	buf[n] = '\0';
	if (*unit)
		snprintf(buf + n, size - n, "_%s", *unit);
	return 0;
}

/* ---- the exposition ---------------------------------------------------------- */

struct om_item {
	char name[128];
	const char *unit;
	double div;
	const struct kattr_rg_stat *s;
	size_t fam;		/* family: in the order they first appear */
	size_t gi;		/* group: index in the command line */
	size_t seq;		/* the figure's place: the order within a group */
};

static int item_cmp(const void *pa, const void *pb)
{
	const struct om_item *a = pa, *b = pb;
	const char *da = a->s->dev ? a->s->dev : "", *db = b->s->dev ? b->s->dev : "";
	int c;

	if (a->fam != b->fam)
		return a->fam < b->fam ? -1 : 1;
	if (a->gi != b->gi)
		return a->gi < b->gi ? -1 : 1;
	c = strcmp(da, db);
	if (c)
		return c;
	return (a->seq > b->seq) - (a->seq < b->seq);
}

/* Every figure with a value, each with its family, sorted to be written
 * family by family. */
static struct om_item *collect(const struct rgctl_om_group *g,
			       const char *const *groups, size_t ng, size_t *nitems)
{
	struct om_item *it = NULL;
	size_t *fams = NULL, nfams = 0, n = 0, cap = 0, seq = 0;

	for (size_t gi = 0; gi < ng; gi++) {
		bool again = false;

		for (size_t k = 0; k < gi && !again; k++)
			again = !strcmp(groups[k], groups[gi]);	/* named twice */
		for (size_t i = 0; i < g[gi].n && !again; i++) {
			struct om_item *x;

			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				it = xreallocarray(it, cap, sizeof(*it));
				fams = xreallocarray(fams, cap, sizeof(*fams));
			}
			x = &it[n];
			x->s = &g[gi].v[i];
			if (rgctl_om_metric(x->s, x->name, sizeof(x->name), &x->unit,
					    &x->div) < 0)
				continue;
			x->gi = gi;
			x->seq = seq++;
			/* a few dozen families, whatever the groups */
			for (x->fam = 0; x->fam < nfams; x->fam++)
				if (!strcmp(it[fams[x->fam]].name, x->name))
					break;
			if (x->fam == nfams)
				fams[nfams++] = n;
			n++;
		}
	}
	free(fams);
	if (n)
		qsort(it, n, sizeof(*it), item_cmp);
	*nitems = n;
	return it;
}

/* The same series as prev (a device listed twice), or a figure of
 * another kind that came to the same name: not written. */
static bool skip_item(const struct om_item *first, const struct om_item *prev,
		      const struct om_item *x)
{
	if (x->s->counter != first->s->counter || x->unit != first->unit)
		return true;
	return prev && prev->gi == x->gi &&
	       !strcmp(prev->s->dev ? prev->s->dev : "", x->s->dev ? x->s->dev : "");
}

static int write_family(struct tool_om *om, const struct om_item *it, size_t n,
			const char *const *groups)
{
	const struct kattr_rg_stat *s = it[0].s;
	const struct om_item *prev = NULL;
	char help[256];
	int ret;

	snprintf(help, sizeof(help), "rgctl stats: %s %s, from %s%s%s", s->res,
		 s->key, s->file ? s->file : "its stats file",
		 it[0].unit ? ", in " : "", it[0].unit ? it[0].unit : "");
	ret = tool_om_family(om, it[0].name, s->counter ? TOOL_OM_COUNTER : TOOL_OM_GAUGE,
			     it[0].unit, help);
	for (size_t i = 0; ret == 0 && i < n; i++) {
		const struct om_item *x = &it[i];
		struct tool_om_label l[2] = {
			{ "group", groups[x->gi] }, { "device", x->s->dev },
		};

		if (skip_item(&it[0], prev, x))
			continue;
		prev = x;
		if (x->div == 1 && x->s->value >= 0)
			ret = tool_om_sample(om, l, x->s->dev ? 2 : 1, (uint64_t)x->s->value);
		else
			ret = tool_om_sample_double(om, l, x->s->dev ? 2 : 1,
						    (double)x->s->value / x->div);
	}
	return ret;
}

int rgctl_stats_om_write(FILE *fp, enum tool_om_dialect d,
			 const struct rgctl_om_group *g, size_t ng)
{
	const char **groups = xcalloc(ng ? ng : 1, sizeof(*groups));
	struct tool_om om;
	struct om_item *it;
	size_t n;
	int ret = 0;

	for (size_t i = 0; i < ng; i++)
		groups[i] = kattr_rg_name_is_root(g[i].group) ? "/" : g[i].group;
	it = collect(g, groups, ng, &n);
	tool_om_init(&om, fp, d);
	for (size_t i = 0, j; ret == 0 && i < n; i = j) {
		for (j = i + 1; j < n && it[j].fam == it[i].fam; j++)
			continue;
		ret = write_family(&om, &it[i], j - i, groups);
	}
	tool_om_end(&om);
	free(it);
	free(groups);
	return ret;
}
