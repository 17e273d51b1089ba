// SPDX-License-Identifier: GPL-2.0-or-later
/* The live view's callers of a kernel function (callers_klive.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callers_kern.h"
#include "callers_klive.h"
#include "esc.h"
#include "likelytop.h"

static struct {
	bool on;
	struct lt_kern k;
	uint64_t lost0;
	double start;
	int err;		/* of the last reading */
} live;

void lt_klive_stop(void)
{
	if (!live.on)
		return;
	lt_kern_close(&live.k);
	memset(&live, 0, sizeof(live));
}

bool lt_klive_running(const char *fn)
{
	return live.on && !strcmp(live.k.site.function, fn);
}

/*
 * The site: the hint at FILE:LINE read from srcdir (the argument filter
 * from the source, as batch --callers -S), else the function's name.
 */
static int resolve(const struct lt_klive_site *s, char *why, size_t whysize)
{
	struct lt_site *k = &live.k.site;
	char site[4200], srcwhy[512] = "";
	int ret;

	if (s->srcdir && s->file && s->line) {
		snprintf(site, sizeof(site), "%s:%u", s->file, s->line);
		ret = lt_site_resolve(k, site, s->srcdir, NULL);
		if (ret == 0 && !strcmp(k->function, s->function))
			return 0;
		snprintf(srcwhy, sizeof(srcwhy), "%.200s in %.100s: %.180s", site, s->srcdir,
			 ret < 0 ? k->why : "the line is in another function");
	}
	ret = lt_site_resolve(k, s->function, NULL, NULL);
	if (ret < 0)
		snprintf(why, whysize, "c: %s", TOOL_Q(k->why));	/* esc.h */
	else if (!k->split && srcwhy[0])
		snprintf(k->why, sizeof(k->why), "the hint is not read from the source: %s", srcwhy);
	return ret;
}

int lt_klive_start(const struct lt_klive_site *s, char *why, size_t whysize)
{
	char kw[1024];
	static bool registered;
	int ret;

	why[0] = '\0';
	lt_klive_stop();
	if (!registered) {
		atexit(lt_klive_stop);	/* tool_die() and exit() too */
		registered = true;
	}
	ret = resolve(s, why, whysize);
	if (ret < 0)
		return ret;
	live.on = true;
	ret = lt_kern_open(&live.k, (enum lt_mech)s->mechanism, kw, sizeof(kw));
	if (ret == 0)
		ret = lt_kern_start(&live.k, kw, sizeof(kw));
	if (ret < 0) {
		snprintf(why, whysize, "c: %s", TOOL_Q(kw));
		lt_klive_stop();
		return ret;
	}
	live.start = live.k.start;
	live.lost0 = lt_kern_lost(&live.k);
	return 0;
}

static void rows(FILE *f)
{
	struct lt_kcaller *v = lt_kern_sorted(&live.k);

	if (!v)
		return;
	for (size_t i = 0; i < live.k.c.n; i++)
		lt_kern_print_row(f, &live.k, &v[i]);
	free(v);
}

char *lt_klive_text(void)
{
	struct lt_kern *k = &live.k;
	char *out = NULL, mech[256];
	size_t len;
	FILE *f;

	if (!live.on)
		return NULL;
	live.err = lt_kern_collect(k, true);
	f = open_memstream(&out, &len);
	if (!f)
		return NULL;
	fprintf(f, "this machine's kernel, %s:%s in %s/%s\n%s\n", k->site.sys, k->site.event,
		LT_TRACEFS, k->trace.inst, lt_kern_mechanism_text(k, mech, sizeof(mech)));
	if (k->note[0])
		fprintf(f, "note: %s\n", TOOL_Q(k->note));
	fprintf(f, "for %.1f s: %" PRIu64 " calls, ", lt_now() - live.start, k->c.calls);
	if (k->site.split)
		fprintf(f, "%" PRIu64 " wrong", k->c.wrong);
	else
		fprintf(f, "wrong unknown");
	fprintf(f, ", %zu callers, %" PRIu64 " lost%s%s\n", k->c.n,
		lt_kern_lost(k) - live.lost0, live.err ? ", read error: " : "",
		live.err ? lt_strerror(live.err) : "");
	lt_kern_print_hint(f, k);
	lt_kern_print_head(f);
	rows(f);
	if (fclose(f) != 0) {
		free(out);
		return NULL;
	}
	return out;
}
