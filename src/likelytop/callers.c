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
#include "callers_kern.h"
#include "callers_user.h"
#include "esc.h"
#include "kattr/private_core.h"
#include "likelytop.h"
#include "strutils.h"
#include "tool.h"

#define DRAIN_SEC 0.1	/* read the ring buffer this often */

struct run {
	struct lt_app *app;
	struct lt_kern k;
	double start, end;
	uint64_t lost_before;
};

static struct run *cur;		/* for the exit handler */

static void cleanup(void)
{
	if (!cur)
		return;
	lt_kern_close(&cur->k);
	cur = NULL;
}

static void print_text(const struct run *r, const struct lt_kcaller *v,
		       unsigned long iter, uint64_t lost)
{
	const struct lt_kern *k = &r->k;
	const struct lt_site *s = &k->site;
	char mech[256];

	if (!r->app->o.noheadings) {
		fputs("likelytop --callers ", stdout);
		tool_fputs_esc(s->function, stdout, 0);
		printf(" - %s:%s %s - snapshot %lu, %.2f s - %" PRIu64
		       " calls, ", s->sys, s->event,
		       lt_kern_mechanism_text(k, mech, sizeof(mech)), iter,
		       r->end - r->start, k->c.calls);
		if (s->split)
			printf("%" PRIu64 " wrong", k->c.wrong);
		else
			printf("wrong unknown");
		printf(", %zu callers, %" PRIu64 " lost\n", k->c.n, lost);
		if (k->note[0])
			printf("note: %s\n", TOOL_Q(k->note));
		lt_kern_print_hint(stdout, k);
		lt_kern_print_head(stdout);
	}
	for (size_t i = 0; i < k->c.n; i++)
		lt_kern_print_row(stdout, k, &v[i]);
}

static void print_csv(const struct run *r, const struct lt_kcaller *v,
		      unsigned long iter)
{
	char name[512], buf[2048];
	const char *mod;

	if (iter == 1 && !r->app->o.noheadings)
		printf("iteration,caller,module,calls,wrong\n");
	for (size_t i = 0; i < r->k.c.n; i++) {
		lt_ksyms_name(&r->k.ksyms, v[i].addr, name, sizeof(name), &mod);
		*strchrnul(name, ' ') = '\0';	/* the module has its column */
		*tool_csv(buf, name) = '\0';
		printf("%lu,%s,", iter, buf);
		tool_fputs_csv(mod ? mod : "", stdout);
		printf(",%" PRIu64 ",", v[i].calls);
		if (r->k.site.split)
			printf("%" PRIu64 "\n", v[i].wrong);
		else
			printf("\n");
	}
}

static json_object *json_site(const struct run *r)
{
	const struct lt_site *s = &r->k.site;
	json_object *o = json_object_new_object();
	char filter[512], ev[300];

	snprintf(ev, sizeof(ev), "%s:%s", s->sys, s->event);
	json_object_object_add(o, "function", tool_json_str(s->function));
	json_object_object_add(o, "event", json_object_new_string(ev));
	json_object_object_add(o, "mechanism", json_object_new_string(lt_kern_mechanism(&r->k)));
	json_object_object_add(o, "probe", r->k.trace.ksys[0] ?
			       json_object_new_string(r->k.trace.kdef) : NULL);
	json_object_object_add(o, "hint", s->hint[0] ? tool_json_str(s->hint) : NULL);
	json_object_object_add(o, "hint_from", s->hint[0] ? tool_json_str(s->hint_from) : NULL);
	if (r->k.note[0])
		json_object_object_add(o, "note", tool_json_str(r->k.note));
	if (s->split && lt_cond_filter(&s->cond, s->field, filter, sizeof(filter)) == 0) {
		json_object_object_add(o, "wrong_when", tool_json_str(filter));
	} else {
		json_object_object_add(o, "wrong_when", NULL);
		json_object_object_add(o, "unknown_why", tool_json_str(s->why));
	}
	return o;
}

static void print_json(const struct run *r, const struct lt_kcaller *v,
		       unsigned long iter, uint64_t lost)
{
	json_object *o = json_object_new_object(), *a = json_object_new_array();
	char name[512];
	const char *mod;
	const struct lt_kcounts *c = &r->k.c;
	bool split = r->k.site.split;

	json_object_object_add(o, "site", json_site(r));
	json_object_object_add(o, "iteration", json_object_new_int64((int64_t)iter));
	json_object_object_add(o, "start", json_object_new_double(r->start));
	json_object_object_add(o, "end", json_object_new_double(r->end));
	json_object_object_add(o, "calls", json_object_new_int64((int64_t)c->calls));
	json_object_object_add(o, "wrong", split ? json_object_new_int64((int64_t)c->wrong) : NULL);
	json_object_object_add(o, "lost", json_object_new_int64((int64_t)lost));
	for (size_t i = 0; i < c->n; i++) {
		json_object *e = json_object_new_object();

		lt_ksyms_name(&r->k.ksyms, v[i].addr, name, sizeof(name), &mod);
		json_object_object_add(e, "caller", tool_json_str(name));
		json_object_object_add(e, "module", mod ? tool_json_str(mod) : NULL);
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
	uint64_t lost = lt_kern_lost(&r->k);
	struct lt_kcaller *v = lt_kern_sorted(&r->k);

	if (!v || r->k.c.oom)
		tool_die(EXIT_FAIL, "out of memory counting callers");
	if (r->app->o.format == LT_OUT_JSON)
		print_json(r, v, iter, lost - r->lost_before);
	else if (r->app->o.format == LT_OUT_CSV)
		print_csv(r, v, iter);
	else
		print_text(r, v, iter, lost - r->lost_before);
	free(v);
	r->lost_before = lost;
	lt_kern_reset(&r->k);
	if (fflush(stdout) == EOF && errno == EPIPE)
		exit(EXIT_FAIL);	/* the reader left (| head): no message */
	if (ferror(stdout))
		tool_die(EXIT_FAIL, "write error on standard output: %s",
			 lt_strerror(-errno));
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
		tool_die(EXIT_FAIL, "cannot read the profile %s: %s", TOOL_Q(a->o.file),
			 lt_strerror(ret));
	fn[0] = '\0';
	for (size_t i = 0; i < p->n && !fn[0]; i++)
		if (p->entries[i].line == line && same_file(p->entries[i].file, file))
			snprintf(fn, size, "%s", p->entries[i].function);
	kattr_profile_free(p);
	if (!fn[0])
		tool_die(EXIT_FAIL, "--callers %s: no such site in the profile %s",
			 TOOL_Q(site), TOOL_Q(a->o.file));
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
	struct lt_site *site = &r->k.site;
	char why[1024], fn[256];
	const char *name = r->app->o.callers;
	int ret;

	if (r->app->o.file && !r->app->o.srcdir) {
		site_from_profile(r->app, fn, sizeof(fn));
		name = fn;
	}
	ret = lt_site_resolve(site, name, r->app->o.srcdir, r->app->o.condition);
	if (ret < 0)
		tool_die(EXIT_FAIL, "--callers %s: %s", TOOL_Q(r->app->o.callers),
			 TOOL_Q(site->why));
	if (name != r->app->o.callers && strcmp(name, r->app->o.callers) &&
	    !r->app->o.condition) {
		/* the function is known, not which of its hints is there */
		site->split = false;
		site->hint[0] = '\0';
		snprintf(site->why, sizeof(site->why),
			 "the hint at %.300s is not read without its source (-S SRCDIR) or --condition",
			 r->app->o.callers);
	}
	ret = lt_kern_open(&r->k, r->app->o.mechanism, why, sizeof(why));
	if (ret < 0)
		tool_die(EXIT_FAIL, "%s", TOOL_Q(why));
	warn_stale(&r->k.trace);
}

/* Start counting; a refused histogram noted (streaming instead). */
static void start(struct run *r)
{
	char why[1024];

	if (lt_kern_start(&r->k, why, sizeof(why)) < 0)
		tool_die(EXIT_FAIL, "%s", TOOL_Q(why));
	if (r->k.note[0])
		tool_warn("note: %s", TOOL_Q(r->k.note));
	/* just before the enable, or the histograms' first reading */
	r->start = r->k.start;
	r->lost_before = lt_kern_lost(&r->k);
}

/* What came in since the last call: the ring buffer read (streaming),
 * or at a snapshot the histograms. */
static void collect(struct run *r, bool snap)
{
	int ret = lt_kern_collect(&r->k, snap);

	if (ret < 0 && r->k.hist)
		tool_die(EXIT_FAIL, "cannot read %s/%s/%s/hist: %s", LT_TRACEFS,
			 r->k.trace.inst, r->k.trace.event, lt_strerror(ret));
	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot read %s/%s/per_cpu/cpu*/trace_pipe_raw: %s",
			 LT_TRACEFS, r->k.trace.inst, lt_strerror(ret));
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
	start(&r);
	next_snap = r.start + a->o.delay;
	while (go && (want == 0 || iter < (unsigned long)want)) {
		double now = lt_now();
		/* the histograms are read at each snapshot only */
		double until = r.k.hist ? next_snap : fmin(next_snap, now + DRAIN_SEC);
		bool last;

		go = wait_until(a, until);
		now = lt_now();
		last = !go || (want && iter + 1 == (unsigned long)want && now >= next_snap);
		if (last)
			lt_kern_stop(&r.k);
		r.end = lt_now();
		collect(&r, !(now < next_snap && go) && !(!go && want != 0));
		if (r.k.hist)
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
