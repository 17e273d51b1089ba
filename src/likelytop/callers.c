// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * likelytop --callers SITE, batch mode: the site's own tracepoint, or a
 * kprobe event of likelytop's own where it has none (callers_kprobe.c),
 * counted by caller in likelytop's tracefs instance: in the kernel by two
 * hist triggers where it has them (callers_hist.c: calls, and calls with
 * the hint's "wrong" filter), else every record streamed from
 * trace_pipe_raw and classified here by the tested argument's value;
 * snapshots in text, CSV or JSON.
 */
#include <errno.h>
#include <limits.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>
#include <kattr/kattr.h>

#include "callers.h"
#include "callers_hist.h"
#include "callers_kprobe.h"
#include "callers_ksym.h"
#include "callers_site.h"
#include "callers_trace.h"
#include "callers_user.h"
#include "kattr/private_core.h"
#include "likelytop.h"
#include "strutils.h"
#include "tool.h"

#define DRAIN_SEC 0.1	/* read the ring buffer this often */

struct caller {
	uint64_t addr, calls, wrong;
};

struct counts {
	struct caller *slot;	/* open addressing, addr 0: empty */
	size_t cap, n;
	uint64_t calls, wrong, zero;	/* zero: call_site 0 records */
};

struct run {
	struct lt_app *app;
	struct lt_site site;
	struct lt_trace trace;
	struct lt_ksyms ksyms;
	struct counts c;
	double start, end;
	uint64_t lost_before;
	/* the in-kernel histogram: cumulative counts, and at the last
	 * snapshot (each snapshot is their difference) */
	bool hist, all_wrong;
	struct counts cum, prev;
	uint64_t dropped;
};

static struct run *cur;		/* for the exit handler */

static void cleanup(void)
{
	if (!cur)
		return;
	lt_trace_close(&cur->trace);
	lt_ksyms_free(&cur->ksyms);
	free(cur->c.slot);
	free(cur->cum.slot);
	free(cur->prev.slot);
	cur = NULL;
}

static int grow(struct counts *c)
{
	size_t cap = c->cap ? 2 * c->cap : 1024;
	struct caller *s = calloc(cap, sizeof(*s));

	if (!s)
		return -ENOMEM;
	for (size_t i = 0; i < c->cap; i++) {
		size_t j;

		if (!c->slot[i].addr)
			continue;
		for (j = (c->slot[i].addr * 0x9e3779b97f4a7c15ULL) >> 20 & (cap - 1);
		     s[j].addr; j = (j + 1) & (cap - 1))
			;
		s[j] = c->slot[i];
	}
	free(c->slot);
	c->slot = s;
	c->cap = cap;
	return 0;
}

/* addr's entry in c (added with zero counts when new). */
static struct caller *slot(struct counts *c, uint64_t addr)
{
	size_t j;

	if (2 * (c->n + 1) > c->cap && grow(c) < 0)
		tool_die(EXIT_FAIL, "out of memory counting callers");
	for (j = (addr * 0x9e3779b97f4a7c15ULL) >> 20 & (c->cap - 1);
	     c->slot[j].addr && c->slot[j].addr != addr; j = (j + 1) & (c->cap - 1))
		;
	if (!c->slot[j].addr) {
		c->slot[j].addr = addr;
		c->n++;
	}
	return &c->slot[j];
}

/* addr's entry in c, or NULL. */
static const struct caller *find(const struct counts *c, uint64_t addr)
{
	if (!c->cap)
		return NULL;
	for (size_t j = (addr * 0x9e3779b97f4a7c15ULL) >> 20 & (c->cap - 1);
	     c->slot[j].addr; j = (j + 1) & (c->cap - 1))
		if (c->slot[j].addr == addr)
			return &c->slot[j];
	return NULL;
}

static void count(const unsigned char *rec, size_t len, void *arg)
{
	struct run *r = arg;
	struct counts *c = &r->c;
	uint16_t type;
	uint64_t site, v;
	bool wrong = false;
	struct caller *e;

	if (len < 2)
		return;
	memcpy(&type, rec, 2);
	if (type != r->trace.id)
		return;
	site = lt_rb_field_get(&r->trace.call_site, rec, len);
	if (r->site.split) {
		v = lt_rb_field_get(&r->trace.arg, rec, len);
		wrong = lt_cond_true(&r->site.cond, v);
	}
	c->calls++;
	c->wrong += wrong;
	if (!site) {
		c->zero++;
		return;
	}
	e = slot(c, site);
	e->calls++;
	e->wrong += wrong;
}

/* A hist file's entry: the cumulative count of one caller. */
static void hist_entry(uint64_t addr, uint64_t hits, int which, void *arg)
{
	struct caller *e = slot(&((struct run *)arg)->cum, addr ? addr : 1);

	if (which == 0)
		e->calls = hits;
	else
		e->wrong = hits;
}

/*
 * The histograms read: this snapshot's counts are the cumulative ones
 * less those of the last snapshot (call_site 0, a caller unknown, is
 * kept under the address 1, which no caller has).
 */
static void hist_collect(struct run *r)
{
	struct counts *cum = &r->cum;
	int ret = lt_hist_read(&r->trace, hist_entry, r, &r->dropped);

	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot read %s/%s/%s/hist: %s", LT_TRACEFS,
			 r->trace.inst, r->trace.event, lt_strerror(ret));
	for (size_t i = 0; i < cum->cap; i++) {
		struct caller *e = &cum->slot[i], *d;
		const struct caller *p;
		uint64_t calls, wrong;

		if (!e->addr)
			continue;
		if (r->all_wrong)
			e->wrong = e->calls;
		p = find(&r->prev, e->addr);
		calls = e->calls - (p ? p->calls : 0);
		wrong = e->wrong - (p ? p->wrong : 0);
		r->c.calls += calls;
		r->c.wrong += wrong;
		if (e->addr == 1) {
			r->c.zero += calls;
			continue;
		}
		if (!calls && !wrong)
			continue;
		d = slot(&r->c, e->addr);
		d->calls = calls;
		d->wrong = wrong;
	}
	free(r->prev.slot);
	r->prev = *cum;
	r->prev.slot = malloc(cum->cap * sizeof(*cum->slot));
	if (!r->prev.slot)
		tool_die(EXIT_FAIL, "out of memory");
	memcpy(r->prev.slot, cum->slot, cum->cap * sizeof(*cum->slot));
}

static int by_wrong(const void *a, const void *b)
{
	const struct caller *x = a, *y = b;

	if (x->wrong != y->wrong)
		return x->wrong < y->wrong ? 1 : -1;
	if (x->calls != y->calls)
		return x->calls < y->calls ? 1 : -1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The callers, sorted by wrong, in a new array of c->n. */
static struct caller *sorted(const struct counts *c)
{
	struct caller *v = malloc((c->n ? c->n : 1) * sizeof(*v));
	size_t k = 0;

	if (!v)
		tool_die(EXIT_FAIL, "out of memory");
	for (size_t i = 0; i < c->cap; i++)
		if (c->slot[i].addr)
			v[k++] = c->slot[i];
	qsort(v, k, sizeof(*v), by_wrong);
	return v;
}

/* The mechanism in a word (JSON) and in a sentence (the header). */
static const char *mechanism(const struct run *r)
{
	if (r->trace.ksys[0])
		return r->hist ? "kprobe+hist" : "kprobe+stream";
	return r->hist ? "tracepoint+hist" : "tracepoint+stream";
}

static const char *mechanism_text(const struct run *r, char *buf, size_t size)
{
	const struct lt_trace *t = &r->trace;
	char probe[160] = "tracepoint";

	if (t->ksys[0] && r->site.argpos)
		snprintf(probe, sizeof(probe), "kprobe (caller $stack0, %s $arg%u:%s)",
			 r->site.cond.var, r->site.argpos, r->site.argtype);
	else if (t->ksys[0])
		snprintf(probe, sizeof(probe), "kprobe (caller $stack0)");
	snprintf(buf, size, "%s, %s", probe, r->hist ?
		 "counted in the kernel (hist triggers)" :
		 "every call streamed from trace_pipe_raw, counted in likelytop");
	return buf;
}

static void caller_name(const struct run *r, uint64_t addr, char *buf,
			size_t size, const char **module)
{
	lt_ksyms_name(&r->ksyms, addr, buf, size, module);
}

static void print_text(const struct run *r, const struct caller *v,
		       unsigned long iter, uint64_t lost)
{
	const struct lt_site *s = &r->site;
	const struct counts *c = &r->c;
	char name[512], filter[512], mech[256];
	const char *mod;

	if (!r->app->o.noheadings) {
		printf("likelytop --callers %s - %s:%s %s - snapshot %lu, %.2f s - %" PRIu64
		       " calls, ", s->function, s->sys, s->event,
		       mechanism_text(r, mech, sizeof(mech)), iter,
		       r->end - r->start, c->calls);
		if (s->split)
			printf("%" PRIu64 " wrong", c->wrong);
		else
			printf("wrong unknown");
		printf(", %zu callers, %" PRIu64 " lost\n", c->n, lost);
		if (s->split && lt_cond_filter(&s->cond, s->field, filter, sizeof(filter)) == 0)
			printf("hint: %s (%s): wrong when %s\n\n", s->hint, s->hint_from,
			       filter[0] ? filter : "always");
		else
			printf("hint: %s: the split is unknown (%s)\n\n",
			       s->hint[0] ? s->hint : "none", s->why);
		printf("%12s %12s %7s  %s\n", "CALLS", "WRONG", "WRONG%", "CALLER");
	}
	for (size_t i = 0; i < c->n; i++) {
		caller_name(r, v[i].addr, name, sizeof(name), &mod);
		if (s->split)
			printf("%12" PRIu64 " %12" PRIu64 " %7.2f  %s\n", v[i].calls,
			       v[i].wrong, 100.0 * (double)v[i].wrong / (double)v[i].calls, name);
		else
			printf("%12" PRIu64 " %12s %7s  %s\n", v[i].calls, "-", "-", name);
	}
}

static void print_csv(const struct run *r, const struct caller *v,
		      unsigned long iter)
{
	char name[512], buf[2048];
	const char *mod;

	if (iter == 1 && !r->app->o.noheadings)
		printf("iteration,caller,module,calls,wrong\n");
	for (size_t i = 0; i < r->c.n; i++) {
		caller_name(r, v[i].addr, name, sizeof(name), &mod);
		*strchrnul(name, ' ') = '\0';	/* the module has its column */
		*tool_csv(buf, name) = '\0';
		printf("%lu,%s,%s,%" PRIu64 ",", iter, buf, mod ? mod : "", v[i].calls);
		if (r->site.split)
			printf("%" PRIu64 "\n", v[i].wrong);
		else
			printf("\n");
	}
}

static json_object *json_site(const struct run *r)
{
	const struct lt_site *s = &r->site;
	json_object *o = json_object_new_object();
	char filter[512], ev[300];

	snprintf(ev, sizeof(ev), "%s:%s", s->sys, s->event);
	json_object_object_add(o, "function", json_object_new_string(s->function));
	json_object_object_add(o, "event", json_object_new_string(ev));
	json_object_object_add(o, "mechanism", json_object_new_string(mechanism(r)));
	json_object_object_add(o, "probe", r->trace.ksys[0] ?
			       json_object_new_string(r->trace.kdef) : NULL);
	json_object_object_add(o, "hint", s->hint[0] ? json_object_new_string(s->hint) : NULL);
	json_object_object_add(o, "hint_from", s->hint[0] ?
			       json_object_new_string(s->hint_from) : NULL);
	if (s->split && lt_cond_filter(&s->cond, s->field, filter, sizeof(filter)) == 0) {
		json_object_object_add(o, "wrong_when", json_object_new_string(filter));
	} else {
		json_object_object_add(o, "wrong_when", NULL);
		json_object_object_add(o, "unknown_why", json_object_new_string(s->why));
	}
	return o;
}

static void print_json(const struct run *r, const struct caller *v,
		       unsigned long iter, uint64_t lost)
{
	json_object *o = json_object_new_object(), *a = json_object_new_array();
	char name[512];
	const char *mod;
	bool split = r->site.split;

	json_object_object_add(o, "site", json_site(r));
	json_object_object_add(o, "iteration", json_object_new_int64((int64_t)iter));
	json_object_object_add(o, "start", json_object_new_double(r->start));
	json_object_object_add(o, "end", json_object_new_double(r->end));
	json_object_object_add(o, "calls", json_object_new_int64((int64_t)r->c.calls));
	json_object_object_add(o, "wrong", split ? json_object_new_int64((int64_t)r->c.wrong) : NULL);
	json_object_object_add(o, "lost", json_object_new_int64((int64_t)lost));
	for (size_t i = 0; i < r->c.n; i++) {
		json_object *e = json_object_new_object();

		caller_name(r, v[i].addr, name, sizeof(name), &mod);
		json_object_object_add(e, "caller", json_object_new_string(name));
		json_object_object_add(e, "module", mod ? json_object_new_string(mod) : NULL);
		json_object_object_add(e, "calls", json_object_new_int64((int64_t)v[i].calls));
		json_object_object_add(e, "wrong", split ?
				       json_object_new_int64((int64_t)v[i].wrong) : NULL);
		json_object_array_add(a, e);
	}
	json_object_object_add(o, "callers", a);
	printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
}

/* One snapshot out, and the counts restarted for the next. */
static void snapshot(struct run *r, unsigned long iter)
{
	uint64_t lost = r->hist ? r->dropped : lt_trace_lost(&r->trace);
	struct caller *v = sorted(&r->c);

	if (r->app->o.format == LT_OUT_JSON)
		print_json(r, v, iter, lost - r->lost_before);
	else if (r->app->o.format == LT_OUT_CSV)
		print_csv(r, v, iter);
	else
		print_text(r, v, iter, lost - r->lost_before);
	free(v);
	r->lost_before = lost;
	memset(r->c.slot, 0, r->c.cap * sizeof(*r->c.slot));
	r->c.n = 0;
	r->c.calls = r->c.wrong = r->c.zero = 0;
	if (fflush(stdout) == EOF && errno == EPIPE)
		exit(EXIT_FAIL);	/* the reader left (| head): no message */
	if (ferror(stdout))
		tool_die(EXIT_FAIL, "write error on standard output: %s",
			 lt_strerror(-errno));
}

static void load_ksyms(struct run *r)
{
	char *text;
	size_t len;
	int ret = kattr_root_file_read(tool_root(), "/proc/kallsyms", &text, &len);

	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot read /proc/kallsyms: %s", lt_strerror(ret));
	ret = lt_ksyms_load(&r->ksyms, text, len);
	if (ret == -EPERM)
		tool_die(EXIT_FAIL, "cannot name the callers: /proc/kallsyms shows every address as 0 (kernel.kptr_restrict hides them from this process; as root, sysctl kernel.kptr_restrict=0 or 1)");
	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot name the callers: /proc/kallsyms: %s",
			 ret == -ENODATA ? "no text symbols" : lt_strerror(ret));
}

/* Wait until deadline (monotonic seconds) or a signal: false on a signal. */
static bool wait_until(struct lt_app *a, double deadline)
{
	struct signalfd_siginfo si;
	struct epoll_event ev;
	double now = lt_now();
	int ep, n;
	bool stop = false;

	if (now >= deadline)
		return true;
	ep = epoll_create1(EPOLL_CLOEXEC);
	ev.events = EPOLLIN;
	ev.data.fd = a->sfd;
	if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, a->sfd, &ev) < 0)
		tool_die(EXIT_FAIL, "cannot wait: %s", lt_strerror(-errno));
	n = epoll_wait(ep, &ev, 1, (int)ceil((deadline - now) * 1000));
	if (n > 0)
		while (read(a->sfd, &si, sizeof(si)) == sizeof(si))
			stop |= si.ssi_signo != SIGWINCH && si.ssi_signo != SIGCHLD;
	close(ep);
	return !stop;
}

/* basename(a) == basename(b): profiles name files in several ways. */
static bool same_file(const char *a, const char *b)
{
	const char *x = strrchr(a, '/'), *y = strrchr(b, '/');

	return !strcmp(x ? x + 1 : a, y ? y + 1 : b);
}

/*
 * --callers FILE:LINE -f PROFILE (no -S): the function the profile names
 * at that site, into fn; dies when the profile has no such site.
 */
static void site_from_profile(const struct lt_app *a, char *fn, size_t size)
{
	const char *site = a->o.callers, *colon = strrchr(site, ':');
	struct kattr_profile *p;
	char file[4096], *text;
	size_t len;
	unsigned long long line;
	int ret;

	if (!colon || (size_t)(colon - site) >= sizeof(file) ||
	    str_parse_uint(colon + 1, UINT_MAX, NULL, &line, NULL) < 0) {
		snprintf(fn, size, "%s", site);	/* a function name */
		return;
	}
	memcpy(file, site, (size_t)(colon - site));
	file[colon - site] = '\0';
	ret = kattr_root_file_read(tool_root(), a->o.file, &text, &len);
	if (ret == 0)
		ret = kattr_profile_parse_buf(text, len, KATTR_PROFILE_FMT_UNKNOWN, &p);
	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot read the profile %s: %s", a->o.file,
			 lt_strerror(ret));
	fn[0] = '\0';
	for (size_t i = 0; i < p->n && !fn[0]; i++)
		if (p->entries[i].line == line && same_file(p->entries[i].file, file))
			snprintf(fn, size, "%s", p->entries[i].function);
	kattr_profile_free(p);
	if (!fn[0])
		tool_die(EXIT_FAIL, "--callers %s: no such site in the profile %s",
			 site, a->o.file);
}

/* A kprobe event of our own on the function (it has no tracepoint). */
static int kprobe_setup(struct run *r, char *why, size_t whysize)
{
	struct lt_site *s = &r->site;
	int ret;

	if (!lt_kprobe_available(&r->trace)) {
		snprintf(why, whysize,
			 "--callers %.100s: no tracepoint that records its caller is known for it (known: kfree, kmem_cache_free), and this kernel has no kprobe events (CONFIG_KPROBE_EVENTS)",
			 s->function);
		return -ENOENT;
	}
	ret = lt_kprobe_create(&r->trace, s->function, s->split ? s->argpos : 0,
			       s->argtype, why, whysize);
	if (ret < 0)
		return ret;
	s->sys = r->trace.ksys;
	s->event = r->trace.kevent;
	return 0;
}

/* Has the event a hist file in our instance (CONFIG_HIST_TRIGGERS)? */
static bool hist_available(struct lt_trace *t, const char *sys, const char *ev)
{
	char path[512];
	struct stat st;

	snprintf(path, sizeof(path), "%s/events/%s/%s/hist", t->inst, sys, ev);
	return kattr_stat(t->m, path, &st) == 0;
}

static void warn_stale(const struct lt_trace *t)
{
	if (t->stale_removed)
		tool_warn("removed %u tracefs instance%s left by killed runs",
			  t->stale_removed, t->stale_removed == 1 ? "" : "s");
	if (t->stale_probes)
		tool_warn("removed %u kprobe event%s left by killed runs",
			  t->stale_probes, t->stale_probes == 1 ? "" : "s");
}

static void setup(struct run *r)
{
	char why[512], fn[256];
	const char *site = r->app->o.callers;
	int ret;

	if (r->app->o.file && !r->app->o.srcdir) {
		site_from_profile(r->app, fn, sizeof(fn));
		site = fn;
	}
	ret = lt_site_resolve(&r->site, site, r->app->o.srcdir,
			      r->app->o.condition);
	if (ret < 0)
		tool_die(EXIT_FAIL, "--callers %s: %s", r->app->o.callers, r->site.why);
	if (site != r->app->o.callers && strcmp(site, r->app->o.callers) &&
	    !r->app->o.condition) {
		/* the function is known, not which of its hints is there */
		r->site.split = false;
		r->site.hint[0] = '\0';
		snprintf(r->site.why, sizeof(r->site.why),
			 "the hint at %.300s is not read without its source (-S SRCDIR) or --condition",
			 r->app->o.callers);
	}
	load_ksyms(r);
	if (grow(&r->c) < 0 || grow(&r->cum) < 0)
		tool_die(EXIT_FAIL, "out of memory");
	ret = lt_trace_open(&r->trace, why, sizeof(why));
	if (ret == 0 && !r->site.sys)
		ret = kprobe_setup(r, why, sizeof(why));
	if (ret < 0)
		tool_die(EXIT_FAIL, "%s", why);
	warn_stale(&r->trace);
	r->hist = hist_available(&r->trace, r->site.sys, r->site.event);
	if (r->hist)
		ret = lt_trace_format(&r->trace, r->site.sys, r->site.event,
				      r->site.split ? r->site.field : NULL, why, sizeof(why));
	else
		ret = lt_trace_prepare(&r->trace, r->site.sys, r->site.event,
				       r->site.split ? r->site.field : NULL, why, sizeof(why));
	if (ret < 0)
		tool_die(EXIT_FAIL, "%s", why);
}

/* Start counting: the histograms set, or the event enabled. */
static void start(struct run *r)
{
	char why[1024], filter[512];
	const char *wrong = NULL;

	if (!r->hist) {
		if (lt_trace_enable(&r->trace, true) < 0)
			tool_die(EXIT_FAIL, "cannot enable %s:%s in %s/%s", r->site.sys,
				 r->site.event, LT_TRACEFS, r->trace.inst);
		return;
	}
	if (r->site.split &&
	    lt_cond_filter(&r->site.cond, r->site.field, filter, sizeof(filter)) == 0) {
		wrong = filter;
		r->all_wrong = !filter[0];	/* every call is wrong */
		if (r->all_wrong)
			wrong = NULL;
	}
	if (lt_hist_start(&r->trace, "call_site", wrong, why, sizeof(why)) < 0)
		tool_die(EXIT_FAIL, "%s", why);
	/* the window starts at a first reading, not at the trigger writes:
	 * the two triggers are set one after the other (a write parses
	 * and allocates, milliseconds under emulation), but one read of
	 * the hist file shows both */
	r->start = lt_now();
	hist_collect(r);
	memset(r->c.slot, 0, r->c.cap * sizeof(*r->c.slot));
	r->c.n = 0;
	r->c.calls = r->c.wrong = r->c.zero = 0;
	r->lost_before = r->dropped;
}

/* Stop counting before the last reading (streaming; the histograms are
 * read as they run, and their last reading ends the window). */
static void stop(struct run *r)
{
	if (!r->hist)
		lt_trace_enable(&r->trace, false);
}

/* What came in since the last call: the ring buffer read (streaming),
 * or at a snapshot the histograms. */
static void collect(struct run *r, bool snap)
{
	int ret;

	if (r->hist) {
		if (snap)
			hist_collect(r);
		return;
	}
	ret = lt_trace_drain(&r->trace, count, r);
	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot read %s/%s/per_cpu/cpu*/trace_pipe_raw: %s",
			 LT_TRACEFS, r->trace.inst, lt_strerror(ret));
}

int lt_callers_run(struct lt_app *a)
{
	static struct run r;
	long want = a->o.iterations < 0 ? 1 : a->o.iterations;
	unsigned long iter = 0;
	double next_snap;
	bool go = true;

	if (a->o.pid)	/* a user-space program: callers_user.c */
		return lt_ucallers_run(a);
	r.app = a;
	cur = &r;
	atexit(cleanup);
	/* a reader that goes away must not kill us before the instance is
	 * removed: EPIPE is handled in snapshot() */
	signal(SIGPIPE, SIG_IGN);
	setup(&r);
	r.start = lt_now();
	start(&r);
	next_snap = r.start + a->o.delay;
	while (go && (want == 0 || iter < (unsigned long)want)) {
		double now = lt_now();
		/* the histograms are read at each snapshot only */
		double until = r.hist ? next_snap : fmin(next_snap, now + DRAIN_SEC);
		bool last;

		go = wait_until(a, until);
		now = lt_now();
		last = !go || (want && iter + 1 == (unsigned long)want && now >= next_snap);
		if (last)
			stop(&r);
		r.end = lt_now();
		collect(&r, !(now < next_snap && go) && !(!go && want != 0));
		if (r.hist)
			r.end = lt_now();	/* after the reading */
		if (now < next_snap && go)
			continue;
		if (!go && want != 0)
			break;	/* interrupted: no partial snapshot */
		snapshot(&r, ++iter);
		r.start = r.end;
		next_snap += a->o.delay;
	}
	cleanup();
	return EXIT_OK;
}
