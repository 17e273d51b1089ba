// SPDX-License-Identifier: GPL-2.0-or-later
/* The live view's callers of a kernel function (callers_klive.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kattr/kattr.h>

#include "callers_klive.h"
#include "callers_ksym.h"
#include "callers_site.h"
#include "callers_trace.h"
#include "kattr/private_core.h"
#include "likelytop.h"
#include "tool.h"

struct kcaller {
	uint64_t addr, calls, wrong;
};

static struct {
	bool on;
	struct lt_site site;
	struct lt_trace trace;
	struct lt_ksyms ksyms;
	struct kcaller *slot;
	size_t cap, n;
	uint64_t calls, wrong, lost0;
	double start;
	int err;		/* of the last drain */
} k;

static int grow(void)
{
	size_t cap = k.cap ? 2 * k.cap : 1024;
	struct kcaller *s = calloc(cap, sizeof(*s));

	if (!s)
		return -ENOMEM;
	for (size_t i = 0; i < k.cap; i++) {
		size_t j;

		if (!k.slot[i].addr)
			continue;
		for (j = (k.slot[i].addr * 0x9e3779b97f4a7c15ULL) >> 20 & (cap - 1);
		     s[j].addr; j = (j + 1) & (cap - 1))
			;
		s[j] = k.slot[i];
	}
	free(k.slot);
	k.slot = s;
	k.cap = cap;
	return 0;
}

static void count(const unsigned char *rec, size_t len, void *arg)
{
	uint16_t type;
	uint64_t site;
	bool wrong = false;
	size_t j;

	(void)arg;
	if (len < 2)
		return;
	memcpy(&type, rec, 2);
	if (type != k.trace.id)
		return;
	site = lt_rb_field_get(&k.trace.call_site, rec, len);
	if (k.site.split)
		wrong = lt_cond_true(&k.site.cond, lt_rb_field_get(&k.trace.arg, rec, len));
	k.calls++;
	k.wrong += wrong;
	if (!site || (2 * (k.n + 1) > k.cap && grow() < 0))
		return;	/* counted in the totals only */
	for (j = (site * 0x9e3779b97f4a7c15ULL) >> 20 & (k.cap - 1);
	     k.slot[j].addr && k.slot[j].addr != site; j = (j + 1) & (k.cap - 1))
		;
	if (!k.slot[j].addr) {
		k.slot[j].addr = site;
		k.n++;
	}
	k.slot[j].calls++;
	k.slot[j].wrong += wrong;
}

void lt_klive_stop(void)
{
	if (!k.on)
		return;
	lt_trace_close(&k.trace);
	lt_ksyms_free(&k.ksyms);
	free(k.slot);
	memset(&k, 0, sizeof(k));
}

bool lt_klive_running(const char *fn)
{
	return k.on && !strcmp(k.site.function, fn);
}

static int load_ksyms(char *why, size_t whysize)
{
	char *text;
	size_t len;
	int ret = kattr_root_file_read(tool_root(), "/proc/kallsyms", &text, &len);

	if (ret == 0)
		ret = lt_ksyms_load(&k.ksyms, text, len);
	if (ret < 0)
		snprintf(why, whysize, "c: cannot name the callers: /proc/kallsyms: %s",
			 ret == -EPERM ? "every address is 0 (kernel.kptr_restrict)" : lt_strerror(ret));
	return ret;
}

int lt_klive_start(const char *fn, char *why, size_t whysize)
{
	char tw[512] = "out of memory";
	static bool registered;
	int ret;

	why[0] = '\0';
	lt_klive_stop();
	if (!registered) {
		atexit(lt_klive_stop);	/* tool_die() and exit() too */
		registered = true;
	}
	ret = lt_site_resolve(&k.site, fn, NULL, NULL);
	if (ret < 0) {
		snprintf(why, whysize, "c: %s", k.site.why);
		return ret;
	}
	if (!k.site.sys) {	/* batch --callers would use a kprobe event */
		snprintf(why, whysize, "c: %.100s: no tracepoint that records its caller is known for it (known: kfree, kmem_cache_free); likelytop --callers %.100s -b traces it with a kprobe event where the kernel has them",
			 fn, fn);
		return -ENOENT;
	}
	k.on = true;
	ret = load_ksyms(why, whysize);
	if (ret == 0)
		ret = grow();
	if (ret == 0)
		ret = lt_trace_open(&k.trace, tw, sizeof(tw));
	if (ret == 0)
		ret = lt_trace_prepare(&k.trace, k.site.sys, k.site.event, k.site.field,
				       tw, sizeof(tw));
	if (ret == 0 && (ret = lt_trace_enable(&k.trace, true)) < 0)
		snprintf(tw, sizeof(tw), "cannot enable %s:%s", k.site.sys, k.site.event);
	if (ret < 0) {
		if (!why[0])
			snprintf(why, whysize, "c: %s", tw);
		lt_klive_stop();
		return ret;
	}
	k.start = lt_now();
	k.lost0 = lt_trace_lost(&k.trace);
	return 0;
}

static int by_wrong(const void *a, const void *b)
{
	const struct kcaller *x = a, *y = b;

	if (x->wrong != y->wrong)
		return x->wrong < y->wrong ? 1 : -1;
	if (x->calls != y->calls)
		return x->calls < y->calls ? 1 : -1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void rows(FILE *f)
{
	struct kcaller *v = malloc((k.n ? k.n : 1) * sizeof(*v));
	char name[512];
	const char *mod;
	size_t n = 0;

	if (!v)
		return;
	for (size_t i = 0; i < k.cap; i++)
		if (k.slot[i].addr)
			v[n++] = k.slot[i];
	qsort(v, n, sizeof(*v), by_wrong);
	for (size_t i = 0; i < n; i++) {
		lt_ksyms_name(&k.ksyms, v[i].addr, name, sizeof(name), &mod);
		if (k.site.split)
			fprintf(f, "%12" PRIu64 " %12" PRIu64 " %7.2f  %s\n", v[i].calls, v[i].wrong,
				100.0 * (double)v[i].wrong / (double)v[i].calls, name);
		else
			fprintf(f, "%12" PRIu64 " %12s %7s  %s\n", v[i].calls, "-", "-", name);
	}
	free(v);
}

char *lt_klive_text(void)
{
	char *out = NULL, filter[512];
	size_t len;
	FILE *f;

	if (!k.on)
		return NULL;
	k.err = lt_trace_drain(&k.trace, count, NULL);
	f = open_memstream(&out, &len);
	if (!f)
		return NULL;
	fprintf(f, "this machine's kernel, %s:%s in %s/%s, counted in likelytop for %.1f s: %" PRIu64 " calls, ",
		k.site.sys, k.site.event, LT_TRACEFS, k.trace.inst, lt_now() - k.start, k.calls);
	if (k.site.split)
		fprintf(f, "%" PRIu64 " wrong", k.wrong);
	else
		fprintf(f, "wrong unknown");
	fprintf(f, ", %zu callers, %" PRIu64 " lost%s%s\n", k.n,
		lt_trace_lost(&k.trace) - k.lost0, k.err ? ", read error: " : "",
		k.err ? lt_strerror(k.err) : "");
	if (k.site.split && lt_cond_filter(&k.site.cond, k.site.field, filter, sizeof(filter)) == 0)
		fprintf(f, "hint: %s (%s): wrong when %s\n\n", k.site.hint, k.site.hint_from,
			filter[0] ? filter : "always");
	else
		fprintf(f, "hint: %s: the split is unknown (%s)\n\n",
			k.site.hint[0] ? k.site.hint : "none", k.site.why);
	fprintf(f, "%12s %12s %7s  %s\n", "CALLS", "WRONG", "WRONG%", "CALLER");
	rows(f);
	if (fclose(f) != 0) {
		free(out);
		return NULL;
	}
	return out;
}
