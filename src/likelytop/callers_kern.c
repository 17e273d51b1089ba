// SPDX-License-Identifier: GPL-2.0-or-later
/* The callers of a kernel function, counted (callers_kern.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <kattr/kattr.h>

#include "callers_hist.h"
#include "callers_kern.h"
#include "callers_kprobe.h"
#include "esc.h"
#include "kattr/private_core.h"
#include "likelytop.h"
#include "tool.h"

#define HASH(a, cap) (((a) * 0x9e3779b97f4a7c15ULL) >> 20 & ((cap) - 1))

static int grow(struct lt_kcounts *c)
{
	size_t cap = c->cap ? 2 * c->cap : 1024;
	struct lt_kcaller *s = calloc(cap, sizeof(*s));

	if (!s)
		return -ENOMEM;
	for (size_t i = 0; i < c->cap; i++) {
		size_t j;

		if (!c->slot[i].addr)
			continue;
		for (j = HASH(c->slot[i].addr, cap); s[j].addr; j = (j + 1) & (cap - 1))
			;
		s[j] = c->slot[i];
	}
	free(c->slot);
	c->slot = s;
	c->cap = cap;
	return 0;
}

/* addr's entry in c (added with zero counts when new); NULL without
 * memory (c->oom set). */
static struct lt_kcaller *slot(struct lt_kcounts *c, uint64_t addr)
{
	size_t j;

	if (2 * (c->n + 1) > c->cap && grow(c) < 0) {
		c->oom = true;
		return NULL;
	}
	for (j = HASH(addr, c->cap); c->slot[j].addr && c->slot[j].addr != addr;
	     j = (j + 1) & (c->cap - 1))
		;
	if (!c->slot[j].addr) {
		c->slot[j].addr = addr;
		c->n++;
	}
	return &c->slot[j];
}

/* addr's entry in c, or NULL. */
static const struct lt_kcaller *find(const struct lt_kcounts *c, uint64_t addr)
{
	if (!c->cap)
		return NULL;
	for (size_t j = HASH(addr, c->cap); c->slot[j].addr; j = (j + 1) & (c->cap - 1))
		if (c->slot[j].addr == addr)
			return &c->slot[j];
	return NULL;
}

/* A record streamed from the ring buffer. */
static void count(const unsigned char *rec, size_t len, void *arg)
{
	struct lt_kern *k = arg;
	struct lt_kcounts *c = &k->c;
	uint16_t type;
	uint64_t site, v;
	bool wrong = false;
	struct lt_kcaller *e;

	if (len < 2)
		return;
	memcpy(&type, rec, 2);
	if (type != k->trace.id)
		return;
	site = lt_rb_field_get(&k->trace.call_site, rec, len);
	if (k->site.split) {
		v = lt_rb_field_get(&k->trace.arg, rec, len);
		wrong = lt_cond_true(&k->site.cond, v);
	}
	c->calls++;
	c->wrong += wrong;
	if (!site) {
		c->zero++;
		return;
	}
	e = slot(c, site);
	if (!e)
		return;	/* in the totals only */
	e->calls++;
	e->wrong += wrong;
}

/* A hist file's entry: the cumulative count of one caller. */
static void hist_entry(uint64_t addr, uint64_t hits, int which, void *arg)
{
	struct lt_kcaller *e = slot(&((struct lt_kern *)arg)->cum, addr ? addr : 1);

	if (!e)
		return;
	if (which == 0)
		e->calls = hits;
	else
		e->wrong = hits;
}

/*
 * The histograms read: what they counted since the last reading is added
 * to k->c (call_site 0, a caller unknown, is kept under the address 1,
 * which no caller has).
 */
static int hist_collect(struct lt_kern *k)
{
	struct lt_kcounts *cum = &k->cum;
	struct lt_kcaller *d, *copy;
	int ret = lt_hist_read(&k->trace, hist_entry, k, &k->dropped);

	if (ret < 0)
		return ret;
	for (size_t i = 0; i < cum->cap; i++) {
		struct lt_kcaller *e = &cum->slot[i];
		const struct lt_kcaller *p;
		uint64_t calls, wrong;

		if (!e->addr)
			continue;
		if (k->all_wrong)
			e->wrong = e->calls;
		p = find(&k->prev, e->addr);
		calls = e->calls - (p ? p->calls : 0);
		wrong = e->wrong - (p ? p->wrong : 0);
		k->c.calls += calls;
		k->c.wrong += wrong;
		if (e->addr == 1) {
			k->c.zero += calls;
			continue;
		}
		if ((!calls && !wrong) || !(d = slot(&k->c, e->addr)))
			continue;
		d->calls += calls;
		d->wrong += wrong;
	}
	copy = malloc(cum->cap * sizeof(*cum->slot));
	if (!copy)
		return -ENOMEM;
	memcpy(copy, cum->slot, cum->cap * sizeof(*cum->slot));
	free(k->prev.slot);
	k->prev = *cum;
	k->prev.slot = copy;
	return 0;
}

static int by_wrong(const void *a, const void *b)
{
	const struct lt_kcaller *x = a, *y = b;

	if (x->wrong != y->wrong)
		return x->wrong < y->wrong ? 1 : -1;
	if (x->calls != y->calls)
		return x->calls < y->calls ? 1 : -1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

struct lt_kcaller *lt_kern_sorted(const struct lt_kern *k)
{
	const struct lt_kcounts *c = &k->c;
	struct lt_kcaller *v = malloc((c->n ? c->n : 1) * sizeof(*v));
	size_t n = 0;

	if (!v)
		return NULL;
	for (size_t i = 0; i < c->cap; i++)
		if (c->slot[i].addr)
			v[n++] = c->slot[i];
	qsort(v, n, sizeof(*v), by_wrong);
	return v;
}

void lt_kern_reset(struct lt_kern *k)
{
	if (k->c.slot)
		memset(k->c.slot, 0, k->c.cap * sizeof(*k->c.slot));
	k->c.n = 0;
	k->c.calls = k->c.wrong = k->c.zero = 0;
}

const char *lt_kern_mechanism(const struct lt_kern *k)
{
	if (k->trace.ksys[0])
		return k->hist ? "kprobe+hist" : "kprobe+stream";
	return k->hist ? "tracepoint+hist" : "tracepoint+stream";
}

const char *lt_kern_mechanism_text(const struct lt_kern *k, char *buf, size_t size)
{
	const struct lt_site *s = &k->site;
	char probe[160] = "tracepoint";

	if (k->trace.ksys[0] && s->argpos)
		snprintf(probe, sizeof(probe), "kprobe (caller $stack0, %s $arg%u:%s)",
			 s->cond.var, s->argpos, s->argtype);
	else if (k->trace.ksys[0])
		snprintf(probe, sizeof(probe), "kprobe (caller $stack0)");
	snprintf(buf, size, "%s, %s", probe, k->hist ?
		 "counted in the kernel (hist triggers)" :
		 "every call streamed from trace_pipe_raw, counted in likelytop");
	return buf;
}

void lt_kern_print_head(FILE *f)
{
	fprintf(f, "%12s %12s %7s  %s\n", "CALLS", "WRONG", "WRONG%", "CALLER");
}

void lt_kern_print_row(FILE *f, const struct lt_kern *k, const struct lt_kcaller *v)
{
	char name[512];
	const char *mod;

	lt_ksyms_name(&k->ksyms, v->addr, name, sizeof(name), &mod);
	if (k->site.split)
		fprintf(f, "%12" PRIu64 " %12" PRIu64 " %7.2f  ", v->calls, v->wrong,
			100.0 * (double)v->wrong / (double)v->calls);
	else
		fprintf(f, "%12" PRIu64 " %12s %7s  ", v->calls, "-", "-");
	/* "name [module]": the module's name is its loader's (esc.h) */
	tool_fputs_esc(name, f, 0);
	fputc('\n', f);
}

void lt_kern_print_hint(FILE *f, const struct lt_kern *k)
{
	const struct lt_site *s = &k->site;
	char filter[512];

	/* the hint, its file and the condition are the source's or the
	 * command line's: escaped (esc.h) */
	fputs("hint: ", f);
	if (s->split && lt_cond_filter(&s->cond, s->field, filter, sizeof(filter)) == 0) {
		tool_fputs_esc(s->hint, f, 0);
		fputs(" (", f);
		tool_fputs_esc(s->hint_from, f, 0);
		fputs("): wrong when ", f);
		tool_fputs_esc(filter[0] ? filter : "always", f, 0);
	} else {
		tool_fputs_esc(s->hint[0] ? s->hint : "none", f, 0);
		fputs(": the split is unknown (", f);
		tool_fputs_esc(s->why, f, 0);
		fputc(')', f);
	}
	fputs("\n\n", f);
}

static int load_ksyms(struct lt_kern *k, char *why, size_t whysize)
{
	char *text;
	size_t len;
	int ret = kattr_root_file_read(tool_root(), "/proc/kallsyms", &text, &len);

	if (ret < 0) {
		snprintf(why, whysize, "cannot read /proc/kallsyms: %s", lt_strerror(ret));
		return ret;
	}
	ret = lt_ksyms_load(&k->ksyms, text, len);
	if (ret == -EPERM)
		snprintf(why, whysize, "cannot name the callers: /proc/kallsyms shows every address as 0 (kernel.kptr_restrict hides them from this process; as root, sysctl kernel.kptr_restrict=0 or 1)");
	else if (ret < 0)
		snprintf(why, whysize, "cannot name the callers: /proc/kallsyms: %s",
			 ret == -ENODATA ? "no text symbols" : lt_strerror(ret));
	return ret;
}

/* A kprobe event of our own on the function (it has no tracepoint). */
static int kprobe_setup(struct lt_kern *k, char *why, size_t whysize)
{
	struct lt_site *s = &k->site;
	int ret;

	if (!lt_kprobe_available(&k->trace)) {
		snprintf(why, whysize,
			 "%.100s: no tracepoint that records its caller is known for it (known: kfree, kmem_cache_free), and this kernel has no kprobe events (CONFIG_KPROBE_EVENTS)",
			 s->function);
		return -ENOENT;
	}
	ret = lt_kprobe_create(&k->trace, s->function, s->split ? s->argpos : 0,
			       s->argtype, why, whysize);
	if (ret < 0)
		return ret;
	s->sys = k->trace.ksys;
	s->event = k->trace.kevent;
	return 0;
}

/* Has the event a hist file in our instance (CONFIG_HIST_TRIGGERS)? */
static bool hist_available(struct lt_kern *k)
{
	char path[512];
	struct stat st;

	snprintf(path, sizeof(path), "%s/events/%s/%s/hist", k->trace.inst,
		 k->site.sys, k->site.event);
	return kattr_stat(k->trace.m, path, &st) == 0;
}

/* Streaming: the format, the instance's buffer and the readers. */
static int prepare_stream(struct lt_kern *k, char *why, size_t whysize)
{
	const struct lt_site *s = &k->site;

	k->hist = false;
	return lt_trace_prepare(&k->trace, s->sys, s->event, s->split ? s->field : NULL,
				why, whysize);
}

int lt_kern_open(struct lt_kern *k, enum lt_mech mech, char *why, size_t whysize)
{
	const struct lt_site *s = &k->site;
	int ret;

	k->trace.lockfd = -1;
	k->mech = mech;
	ret = load_ksyms(k, why, whysize);
	if (ret == 0 && (grow(&k->c) < 0 || grow(&k->cum) < 0)) {
		snprintf(why, whysize, "out of memory");
		ret = -ENOMEM;
	}
	if (ret == 0)
		ret = lt_trace_open(&k->trace, why, whysize);
	if (ret == 0 && !s->sys)
		ret = kprobe_setup(k, why, whysize);
	if (ret < 0)
		return ret;
	k->hist = mech != LT_MECH_STREAM && hist_available(k);
	if (mech == LT_MECH_HIST && !k->hist) {
		snprintf(why, whysize, "--mechanism hist: this kernel has no hist triggers (CONFIG_HIST_TRIGGERS: %s:%s has no hist file)",
			 s->sys, s->event);
		return -ENOENT;
	}
	if (k->hist)
		ret = lt_trace_format(&k->trace, s->sys, s->event,
				      s->split ? s->field : NULL, why, whysize);
	else
		ret = prepare_stream(k, why, whysize);
	/* the field decides how the kernel compares it: so do we */
	if (ret == 0 && s->split && k->trace.arg.is_signed)
		lt_site_signed(&k->site);
	return ret;
}

/* The histograms set, and read once: the window starts at that reading. */
static int hist_start(struct lt_kern *k, bool fallback, char *why, size_t whysize)
{
	char filter[512];
	const char *wrong = NULL;
	int ret;

	if (k->site.split &&
	    lt_cond_filter(&k->site.cond, k->site.field, filter, sizeof(filter)) == 0) {
		wrong = filter;
		k->all_wrong = !filter[0];	/* every call is wrong */
		if (k->all_wrong)
			wrong = NULL;
	}
	ret = lt_hist_start(&k->trace, "call_site", wrong, why, whysize);
	if (ret < 0 && fallback) {
		/* counted here instead, with the same classification */
		snprintf(k->note, sizeof(k->note),
			 "the kernel refused the histogram (%.400s): every call streamed and counted in likelytop instead",
			 why);
		ret = prepare_stream(k, why, whysize);
		if (ret == 0)
			ret = lt_kern_start(k, why, whysize);
		return ret;
	}
	if (ret < 0)
		return ret;
	/* the two triggers are set one after the other (a write parses and
	 * allocates, milliseconds under emulation), but one read of the
	 * hist file shows both: the window starts just before it */
	k->start = lt_now();
	ret = hist_collect(k);
	lt_kern_reset(k);
	if (ret < 0)
		snprintf(why, whysize, "cannot read %s/%s/%s/hist: %s", LT_TRACEFS,
			 k->trace.inst, k->trace.event, lt_strerror(ret));
	return ret;
}

int lt_kern_start(struct lt_kern *k, char *why, size_t whysize)
{
	if (k->hist)
		return hist_start(k, k->mech == LT_MECH_AUTO, why, whysize);
	k->start = lt_now();	/* just before the enable (not the setup) */
	if (lt_trace_enable(&k->trace, true) < 0) {
		snprintf(why, whysize, "cannot enable %s:%s in %s/%s", k->site.sys,
			 k->site.event, LT_TRACEFS, k->trace.inst);
		return -EIO;
	}
	return 0;
}

void lt_kern_stop(struct lt_kern *k)
{
	if (!k->hist && k->trace.enabled)
		lt_trace_enable(&k->trace, false);
}

int lt_kern_collect(struct lt_kern *k, bool hist)
{
	if (k->hist)
		return hist ? hist_collect(k) : 0;
	return lt_trace_drain(&k->trace, count, k);
}

uint64_t lt_kern_lost(struct lt_kern *k)
{
	return k->hist ? k->dropped : lt_trace_lost(&k->trace);
}

void lt_kern_close(struct lt_kern *k)
{
	lt_trace_close(&k->trace);
	lt_ksyms_free(&k->ksyms);
	free(k->c.slot);
	free(k->cum.slot);
	free(k->prev.slot);
	k->c.slot = k->cum.slot = k->prev.slot = NULL;
	k->c.cap = k->cum.cap = k->prev.cap = 0;
}
