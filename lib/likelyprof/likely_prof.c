/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * liblikelyprof: the runtime behind likely_prof.h.
 *
 * Counting.  Each thread counts in its own array, indexed by the site's
 * id (assigned at the site's first hit, in that order).  The hot path is
 * inline in the header; everything here runs once per site, per thread or
 * per snapshot, under one mutex:
 *   - likely_prof__slow(): first hit of a site (gives it an id), first hit
 *     in a thread (allocates its array), array too small (grows it), and
 *     starting the writer thread once per process;
 *   - a thread-exit destructor folds the thread's counts into the sites'
 *     own count[] (atomically), so nothing is lost when threads end;
 *   - a snapshot adds, per site, count[] and every live thread's counters.
 * Per-thread arrays instead of one atomic counter per site: see
 * bench/likelyprof/ (a shared lock add costs 5x more once two threads hit
 * the same site).
 *
 * Sites in shared libraries: every translation unit built with
 * LIKELY_PROF registers its object's __start_/__stop_likely_prof_sites
 * range from a constructor (see the header).  When an object is unloaded
 * the sites that lie in its range are copied (with their names) so their
 * counts stay in the profile; the same makes the exit snapshot complete
 * whatever order the destructors run in.
 *
 * Writing.  The first hit in a process opens the profile directory and
 * starts a thread that writes the snapshot to a fresh "<dir>/.<pid>.tmp" (O_EXCL) and
 * renames it to "<dir>/<pid>" at once, every LIKELY_PROF_INTERVAL_MS
 * and at exit.  If the directory cannot be used, one line on stderr says
 * why and the program runs on.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef LIKELY_PROF
#define LIKELY_PROF 1
#endif
#include "likely_prof.h"

#define LP_API __attribute__((visibility("default")))
#define LP_DEFAULT_INTERVAL_MS 1000
#define LP_MAX_INTERVAL_MS 86400000UL

__thread struct likely_prof_tls likely_prof__tls
	__attribute__((tls_model("initial-exec"))) LP_API;
__thread struct likely_prof_ctls likely_prof__ctls
	__attribute__((tls_model("initial-exec"))) LP_API;

/* One live thread's counters, as seen by the snapshot. */
struct lp_thread {
	struct lp_thread *next;
	uint64_t *counts;
	uint32_t cap;
	struct likely_prof_ctls *ctls;	/* its caller table (its TLS) */
};

/* An object's site range, with how many translation units registered it. */
struct lp_range {
	const char *start, *stop;
	unsigned refs;
};

enum { LP_TLS_DEAD = 1 };	/* likely_prof_tls.state: thread is exiting */

static pthread_mutex_t lp_lock = PTHREAD_MUTEX_INITIALIZER;
static struct likely_prof_site **lp_sites;	/* by id - 1 */
static uint32_t lp_nsites, lp_sites_cap;
static struct lp_thread *lp_threads;
static struct lp_range *lp_ranges;
static size_t lp_nranges, lp_ranges_cap;
static pthread_key_t lp_key;
static pthread_once_t lp_key_once = PTHREAD_ONCE_INIT;
static int lp_key_ok;
static struct likely_prof_ctls lp_gone;	/* callers counted by ended threads */
static int lp_have_callers;		/* some site counted its callers */

/* Writer state, under lp_io_lock (taken before lp_lock when both are). */
static pthread_mutex_t lp_io_lock = PTHREAD_MUTEX_INITIALIZER;
static pid_t lp_started_pid;	/* process the writer was set up for */
static int lp_dirfd = -1;
static char *lp_dirname;
static int lp_warned;		/* the one stderr line was printed */
static int lp_final_done;
static pthread_cond_t lp_wake;	/* wakes the writer at exit (CLOCK_MONOTONIC) */
static pthread_t lp_writer_th;
static int lp_writer_running;	/* in this process */
static pthread_cond_t lp_up = PTHREAD_COND_INITIALIZER;
static int lp_writer_up;	/* the writer has started, see lp_start_writer() */
static unsigned long lp_interval_ms = LP_DEFAULT_INTERVAL_MS;

static void lp_thread_exit(void *arg);

static void lp_key_init(void)
{
	lp_key_ok = pthread_key_create(&lp_key, lp_thread_exit) == 0;
}

/* Give site the next id and remember it; lp_lock held. */
static int lp_site_add(struct likely_prof_site *site)
{
	if (lp_nsites == lp_sites_cap) {
		uint32_t cap = lp_sites_cap ? 2 * lp_sites_cap : 64;
		void *p = realloc(lp_sites, cap * sizeof(*lp_sites));

		if (!p)
			return -ENOMEM;
		lp_sites = p;
		lp_sites_cap = cap;
	}
	lp_sites[lp_nsites++] = site;
	__atomic_store_n(&site->id, lp_nsites, __ATOMIC_RELEASE);
	return 0;
}

static struct lp_thread *lp_thread_self(void)
{
	return lp_key_ok ? pthread_getspecific(lp_key) : NULL;
}

/* Make this thread's array hold id; lp_lock held. */
static int lp_thread_grow(uint32_t id)
{
	struct likely_prof_tls *t = &likely_prof__tls;
	struct lp_thread *self = lp_thread_self();
	uint32_t cap = lp_nsites > id ? lp_nsites : id;
	uint64_t *counts;

	if (!lp_key_ok)
		return -ENOMEM;
	cap = (cap + 63) & ~63u;
	counts = calloc(cap, 2 * sizeof(*counts));
	if (!counts)
		return -ENOMEM;
	if (!self) {
		self = calloc(1, sizeof(*self));
		if (!self || pthread_setspecific(lp_key, self) != 0) {
			free(self);
			free(counts);
			return -ENOMEM;
		}
		self->ctls = &likely_prof__ctls;
		self->next = lp_threads;
		lp_threads = self;
	}
	/* Only this thread writes its counters, and it is here. */
	if (self->counts)
		memcpy(counts, self->counts, 2 * sizeof(*counts) * self->cap);
	free(self->counts);
	self->counts = counts;
	self->cap = cap;
	t->counts = counts;
	t->cap = cap;
	return 0;
}

static void lp_start_writer(void);

LP_API void likely_prof__slow(struct likely_prof_site *site, int outcome)
{
	struct likely_prof_tls *t = &likely_prof__tls;
	uint32_t id;
	int counted = 0;

	pthread_once(&lp_key_once, lp_key_init);
	pthread_mutex_lock(&lp_lock);
	id = __atomic_load_n(&site->id, __ATOMIC_ACQUIRE);
	if (id == 0 && lp_site_add(site) == 0)
		id = site->id;
	if (id != 0 && !(t->state & LP_TLS_DEAD) &&
	    (id - 1u < t->cap || lp_thread_grow(id) == 0)) {
		uint64_t *c = &t->counts[2 * (id - 1u) + (unsigned)outcome];

		__atomic_store_n(c, *c + 1, __ATOMIC_RELAXED);
		counted = 1;
	}
	if (!counted)	/* no memory, or the thread is exiting */
		__atomic_fetch_add(&site->count[outcome], 1, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&lp_lock);

	if (__atomic_load_n(&lp_started_pid, __ATOMIC_ACQUIRE) != getpid())
		lp_start_writer();
}

/*
 * Callers (LIKELY_PROF_CALLERS).  Each thread counts in its own table
 * (likely_prof__ctls), found and incremented inline; new pairs are added
 * here under lp_lock, so a snapshot (also under lp_lock) never sees a
 * table being grown.  Tables are kept at most half full.
 */
static uint32_t lp_chash(const void *ra, uint32_t id)
{
	return (uint32_t)((((uintptr_t)ra ^ id) * 0x9e3779b97f4a7c15ULL) >> 40);
}

/* The slot of (ra, id) in t, or the free slot where it goes. */
static struct likely_prof_caller *lp_cslot(struct likely_prof_ctls *t,
					   const void *ra, uint32_t id)
{
	for (uint32_t i = lp_chash(ra, id);; i++) {
		struct likely_prof_caller *c = &t->tab[i & t->mask];

		if (!c->ra || (c->ra == ra && c->id == id))
			return c;
	}
}

/* Add counts to (ra, id) in t, growing it; lp_lock held. */
static int lp_cadd(struct likely_prof_ctls *t, const void *ra, uint32_t id,
		   uint64_t f, uint64_t tr)
{
	struct likely_prof_caller *c;

	if (!t->tab || 2 * (t->n + 1) > t->mask + 1) {
		struct likely_prof_ctls g = { NULL, t->tab ? 2 * t->mask + 1 : 63, 0 };

		g.tab = calloc((size_t)g.mask + 1, sizeof(*g.tab));
		if (!g.tab)
			return -ENOMEM;
		for (uint32_t i = 0; t->tab && i <= t->mask; i++)
			if (t->tab[i].ra) {
				*lp_cslot(&g, t->tab[i].ra, t->tab[i].id) = t->tab[i];
				g.n++;
			}
		free(t->tab);
		*t = g;
	}
	c = lp_cslot(t, ra, id);
	if (!c->ra) {
		c->ra = ra;
		c->id = id;
		t->n++;
	}
	__atomic_store_n(&c->count[0], c->count[0] + f, __ATOMIC_RELAXED);
	__atomic_store_n(&c->count[1], c->count[1] + tr, __ATOMIC_RELAXED);
	return 0;
}

LP_API void likely_prof__caller_slow(struct likely_prof_site *site,
				     const void *ra, int outcome)
{
	struct likely_prof_ctls *t = &likely_prof__ctls;
	uint32_t id;

	pthread_mutex_lock(&lp_lock);
	id = __atomic_load_n(&site->id, __ATOMIC_ACQUIRE);
	lp_have_callers = 1;
	/* a thread without counters (no memory, or exiting) counts in the
	 * ended threads' table */
	if (id && (likely_prof__tls.state & LP_TLS_DEAD || !lp_thread_self() ||
		   lp_cadd(t, ra, id, !outcome, !!outcome) < 0))
		(void)lp_cadd(&lp_gone, ra, id, !outcome, !!outcome);
	pthread_mutex_unlock(&lp_lock);
}

/* Fold a thread's caller table into lp_gone and free it; lp_lock held. */
static void lp_cfold(struct likely_prof_ctls *t)
{
	for (uint32_t i = 0; t->tab && i <= t->mask; i++)
		if (t->tab[i].ra)
			(void)lp_cadd(&lp_gone, t->tab[i].ra, t->tab[i].id,
				      t->tab[i].count[0], t->tab[i].count[1]);
	free(t->tab);
	t->tab = NULL;
	t->mask = t->n = 0;
}

/* A thread ends: fold its counters into the sites. */
static void lp_thread_exit(void *arg)
{
	struct lp_thread *self = arg, **pp;
	struct likely_prof_tls *t = &likely_prof__tls;

	pthread_mutex_lock(&lp_lock);
	for (uint32_t i = 0; i < self->cap && i < lp_nsites; i++) {
		struct likely_prof_site *s = lp_sites[i];

		for (int v = 0; v < 2; v++)
			if (s && self->counts[2 * i + v])
				__atomic_fetch_add(&s->count[v],
						   self->counts[2 * i + v],
						   __ATOMIC_RELAXED);
	}
	for (pp = &lp_threads; *pp; pp = &(*pp)->next)
		if (*pp == self) {
			*pp = self->next;
			break;
		}
	t->counts = NULL;
	t->cap = 0;
	t->state |= LP_TLS_DEAD;
	lp_cfold(&likely_prof__ctls);
	pthread_mutex_unlock(&lp_lock);
	free(self->counts);
	free(self);
}

LP_API void likely_prof__register(const void *start, const void *stop)
{
	pthread_mutex_lock(&lp_lock);
	for (size_t i = 0; i < lp_nranges; i++)
		if (lp_ranges[i].start == start) {
			lp_ranges[i].refs++;
			goto out;
		}
	if (lp_nranges == lp_ranges_cap) {
		size_t cap = lp_ranges_cap ? 2 * lp_ranges_cap : 16;
		void *p = realloc(lp_ranges, cap * sizeof(*lp_ranges));

		if (!p)
			goto out;	/* its sites are still counted */
		lp_ranges = p;
		lp_ranges_cap = cap;
	}
	lp_ranges[lp_nranges++] = (struct lp_range){ start, stop, 1 };
out:
	pthread_mutex_unlock(&lp_lock);
}

/* Replace the sites in [start, stop) by copies that outlive the object. */
static void lp_retire(const char *start, const char *stop)
{
	for (uint32_t i = 0; i < lp_nsites; i++) {
		struct likely_prof_site *s = lp_sites[i], *copy;

		if (!s || (const char *)s < start || (const char *)s >= stop)
			continue;
		copy = malloc(sizeof(*copy));
		if (copy) {
			*copy = *s;
			copy->func = strdup(s->func);
			copy->file = strdup(s->file);
			if (!copy->func || !copy->file) {
				free((char *)copy->func);
				free((char *)copy->file);
				free(copy);
				copy = NULL;
			}
		}
		lp_sites[i] = copy;	/* NULL: dropped, out of memory */
	}
}

LP_API void likely_prof__unregister(const void *start, const void *stop)
{
	pthread_mutex_lock(&lp_lock);
	for (size_t i = 0; i < lp_nranges; i++) {
		if (lp_ranges[i].start != start || --lp_ranges[i].refs)
			continue;
		lp_retire(start, stop);
		lp_ranges[i] = lp_ranges[--lp_nranges];
		break;
	}
	pthread_mutex_unlock(&lp_lock);
}

/* One row of /proc/likely_prof, as lp_seq_show() in the 2006 patch. */
static void lp_format_row(FILE *f, const struct likely_prof_site *s,
			  uint64_t t, uint64_t n)
{
	if (!s->hint)
		fputs(t > n ? "+unlikely " : " unlikely ", f);
	else
		fputs(t < n ? "-likely   " : " likely   ", f);
	/* The kernel's columns, but the full 64-bit counts: the kernel's
	 * 32-bit counters wrapped, these do not (a reader then knows that a
	 * count going down is a restart, never a wrap). */
	fprintf(f, "|%9llu|%9llu\t%s()@:%s@%d\n", (unsigned long long)t,
		(unsigned long long)n, s->func, s->file, s->line);
}

/* The whole snapshot as text (malloc'ed), newest first-hit first. */
static char *lp_snapshot(size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (!f)
		return NULL;
	fputs("Likely Profiling Results\n"
	      " --------------------------------------------------------------------\n"
	      "[+- ] Type | # True | # False | Function:Filename@Line\n", f);
	pthread_mutex_lock(&lp_lock);
	for (uint32_t i = lp_nsites; i-- > 0;) {
		const struct likely_prof_site *s = lp_sites[i];
		uint64_t c[2];

		if (!s)
			continue;
		for (int v = 0; v < 2; v++) {
			c[v] = __atomic_load_n(&s->count[v], __ATOMIC_RELAXED);
			for (struct lp_thread *th = lp_threads; th; th = th->next)
				if (i < th->cap)
					c[v] += __atomic_load_n(&th->counts[2 * i + v],
								__ATOMIC_RELAXED);
		}
		if (c[0] || c[1])
			lp_format_row(f, s, c[1], c[0]);
	}
	pthread_mutex_unlock(&lp_lock);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* s with backslash, tab and newline escaped (\\, \t, \n). */
static void lp_put_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '\t' || *s == '\n') {
			fputc('\\', f);
			fputc(*s == '\t' ? 't' : *s == '\n' ? 'n' : '\\', f);
		} else {
			fputc(*s, f);
		}
	}
}

/* One caller of one site, copied out of the tables for the snapshot. */
struct lp_crow {
	const void *ra;
	uint64_t c[2];
	char *site;	/* "hint\ttrue\tfalse\tfunc\tfile\tline" */
};

/* Every (site, caller) pair summed over the threads; lp_lock held. */
static int lp_callers_sum(struct likely_prof_ctls *all)
{
	for (uint32_t i = 0; lp_gone.tab && i <= lp_gone.mask; i++)
		if (lp_gone.tab[i].ra &&
		    lp_cadd(all, lp_gone.tab[i].ra, lp_gone.tab[i].id,
			    lp_gone.tab[i].count[0], lp_gone.tab[i].count[1]) < 0)
			return -ENOMEM;
	for (struct lp_thread *th = lp_threads; th; th = th->next) {
		struct likely_prof_ctls *t = th->ctls;

		for (uint32_t i = 0; t && t->tab && i <= t->mask; i++)
			if (t->tab[i].ra &&
			    lp_cadd(all, t->tab[i].ra, t->tab[i].id,
				    __atomic_load_n(&t->tab[i].count[0], __ATOMIC_RELAXED),
				    __atomic_load_n(&t->tab[i].count[1], __ATOMIC_RELAXED)) < 0)
				return -ENOMEM;
	}
	return 0;
}

/* The rows, each with its site's text (names copied: an object may be
 * unloaded once lp_lock is released). */
static struct lp_crow *lp_callers_collect(size_t *np)
{
	struct likely_prof_ctls all = { NULL, 0, 0 };
	struct lp_crow *v = NULL;
	size_t n = 0;

	pthread_mutex_lock(&lp_lock);
	if (lp_callers_sum(&all) < 0 || !(v = calloc(all.n + 1, sizeof(*v))))
		goto out;
	for (uint32_t i = 0; all.tab && i <= all.mask; i++) {
		const struct likely_prof_caller *c = &all.tab[i];
		const struct likely_prof_site *st;
		size_t len;
		FILE *f;

		if (!c->ra || c->id - 1u >= lp_nsites || !(st = lp_sites[c->id - 1]))
			continue;
		f = open_memstream(&v[n].site, &len);
		if (!f)
			continue;
		fprintf(f, "%s\t%llu\t%llu\t", st->hint ? "likely" : "unlikely",
			(unsigned long long)c->count[1], (unsigned long long)c->count[0]);
		lp_put_escaped(f, st->func);
		fputc('\t', f);
		lp_put_escaped(f, st->file);
		fprintf(f, "\t%d", st->line);
		if (fclose(f) == 0)
			v[n++].ra = c->ra;
		else
			free(v[n].site);
	}
out:
	pthread_mutex_unlock(&lp_lock);
	free(all.tab);
	*np = n;
	return v;
}

/*
 * The file ra is mapped from and its offset in that file, from
 * /proc/self/maps (text: no loader lock taken, which a dlclose() may
 * hold while it waits for this writer).  Neither known: empty, and ra.
 */
static void lp_put_object(FILE *f, const void *ra, const char *maps)
{
	uintptr_t a = (uintptr_t)ra;

	for (const char *l = maps; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		unsigned long lo, hi, off;
		int path = 0;
		const char *e;

		if (sscanf(l, "%lx-%lx %*s %lx %*s %*s %n", &lo, &hi, &off, &path) < 3 ||
		    !path || a < lo || a >= hi || l[path] != '/')
			continue;
		e = strchrnul(l + path, '\n');
		fputc('\t', f);
		for (const char *p = l + path; p < e; p++)
			fputc(*p == '\t' ? ' ' : *p, f);
		fprintf(f, "\t%#lx", (unsigned long)(a - lo + off));
		return;
	}
	fprintf(f, "\t\t%#lx", (unsigned long)a);
}

/*
 * The callers file's text: a first line "likely_prof callers 1", then one
 * line per site and caller: hint, true, false, function, file, line,
 * the caller's file (its path, as /proc/self/maps has it) and the return
 * address's offset in that file, split by tabs.
 */
static char *lp_callers_text(size_t *len)
{
	size_t n, mlen;
	struct lp_crow *v = lp_callers_collect(&n);
	char *buf = NULL, *maps = NULL;
	int mfd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	FILE *f = v ? open_memstream(&buf, len) : NULL;

	if (mfd >= 0) {
		FILE *m = open_memstream(&maps, &mlen);
		char chunk[4096];
		ssize_t r;

		while (m && (r = read(mfd, chunk, sizeof(chunk))) > 0)
			fwrite(chunk, 1, (size_t)r, m);
		if (m)
			fclose(m);
		close(mfd);
	}
	if (f) {
		fputs("likely_prof callers 1\n", f);
		for (size_t i = 0; i < n; i++) {
			fputs(v[i].site, f);
			lp_put_object(f, v[i].ra, maps);
			fputc('\n', f);
		}
		if (fclose(f) != 0) {
			free(buf);
			buf = NULL;
		}
	}
	for (size_t i = 0; v && i < n; i++)
		free(v[i].site);
	free(v);
	free(maps);
	return buf;
}

static int lp_write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

LP_API int likely_prof_dump(int fd)
{
	size_t len;
	char *text = lp_snapshot(&len);
	int r;

	if (!text)
		return -ENOMEM;
	r = lp_write_all(fd, text, len);
	free(text);
	return r;
}

/*
 * Create a fresh temporary file in the profile directory: ".<pid>.tmp",
 * or ".<pid>.<n>.tmp" when that name is taken.  Never opens what is
 * already there (O_EXCL: a FIFO planted there would block us at exit,
 * a symlink would be followed), never blocks (O_NONBLOCK), and never
 * removes what it did not create.  The name is left in tmp.
 */
static int lp_create_tmp(pid_t pid, char *tmp, size_t size)
{
	struct timespec ts;
	struct stat st;
	unsigned long x;
	int fd;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	x = (unsigned long)ts.tv_nsec ^ ((unsigned long)pid << 16);
	for (int i = 0; i < 64; i++) {
		if (i == 0) {
			snprintf(tmp, size, ".%d.tmp", (int)pid);
		} else {
			x = x * 6364136223846793005UL + 1442695040888963407UL;
			snprintf(tmp, size, ".%d.%lx.tmp", (int)pid, x >> 24);
		}
		fd = openat(lp_dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL |
			    O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
		if (fd < 0 && errno == EEXIST)
			continue;
		if (fd < 0)
			return -errno;
		if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
			close(fd);	/* cannot happen with O_EXCL: not ours */
			return -EEXIST;
		}
		return fd;
	}
	return -EEXIST;
}

/* <dir>/<pid>.callers, through a temporary file; lp_io_lock held. */
static int lp_save_callers(pid_t pid)
{
	char tmp[48], name[48];
	size_t len;
	char *text = lp_callers_text(&len);
	int fd, r;

	if (!text)
		return -ENOMEM;
	snprintf(name, sizeof(name), "%d.callers", (int)pid);
	fd = lp_create_tmp(pid, tmp, sizeof(tmp));
	if (fd < 0) {
		free(text);
		return fd;
	}
	r = lp_write_all(fd, text, len);
	free(text);
	if (close(fd) != 0 && r == 0)
		r = -errno;
	if (r == 0 && renameat(lp_dirfd, tmp, lp_dirfd, name) != 0)
		r = -errno;
	if (r < 0)
		unlinkat(lp_dirfd, tmp, 0);	/* ours: created above */
	return r;
}

/* Write a temporary file and rename it to <dir>/<pid>; lp_io_lock held. */
static int lp_save_locked(void)
{
	char tmp[48], name[32];
	pid_t pid = getpid();
	int fd, r;

	if (lp_dirfd < 0)
		return -EBADF;
	if (__atomic_load_n(&lp_have_callers, __ATOMIC_RELAXED)) {
		r = lp_save_callers(pid);
		if (r < 0)
			return r;
	}
	snprintf(name, sizeof(name), "%d", (int)pid);
	fd = lp_create_tmp(pid, tmp, sizeof(tmp));
	if (fd < 0)
		return fd;
	r = likely_prof_dump(fd);
	if (close(fd) != 0 && r == 0)
		r = -errno;
	if (r == 0 && renameat(lp_dirfd, tmp, lp_dirfd, name) != 0)
		r = -errno;
	if (r < 0)
		unlinkat(lp_dirfd, tmp, 0);	/* ours: created above */
	return r;
}

/* The one line on stderr, once per process. */
__attribute__((format(printf, 1, 2)))
static void lp_warn(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (lp_warned)
		return;
	lp_warned = 1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "likely_prof: pid %d: profiles not written: %s\n",
		(int)getpid(), msg);
}

/* Save, and say why once if it fails; lp_io_lock held. */
static void lp_save_or_warn(void)
{
	int r = lp_save_locked();

	if (r < 0)
		lp_warn("cannot write to '%s': %s", lp_dirname, strerror(-r));
}

LP_API int likely_prof_save(void)
{
	int r;

	if (__atomic_load_n(&lp_started_pid, __ATOMIC_ACQUIRE) != getpid())
		lp_start_writer();	/* opens the directory */
	pthread_mutex_lock(&lp_io_lock);
	r = lp_final_done ? -ESHUTDOWN : lp_save_locked();
	pthread_mutex_unlock(&lp_io_lock);
	return r;
}

/* Open (creating if needed) a private directory name beneath base. */
static int lp_private_dir(int base, const char *name, const char *shown)
{
	struct stat st;
	int fd;

	if (mkdirat(base, name, 0700) != 0 && errno != EEXIST) {
		lp_warn("cannot create '%s': %s", shown, strerror(errno));
		return -1;
	}
	fd = openat(base, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ELOOP || errno == ENOTDIR)
			lp_warn("'%s' is a symbolic link or not a directory",
				shown);
		else
			lp_warn("cannot open '%s': %s", shown, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) != 0 || st.st_uid != geteuid() ||
	    (st.st_mode & (S_IWGRP | S_IWOTH))) {
		lp_warn("'%s' is owned by uid %u or writable by others, not private",
			shown, (unsigned)st.st_uid);
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * The profile directory: $LIKELY_PROF_DIR as given (never created), else
 * $XDG_RUNTIME_DIR/likely_prof, else $HOME/.cache/likely_prof, both
 * created mode 0700 and refused when a symlink or not the user's own.
 */
static int lp_open_dir(void)
{
	const char *env = getenv("LIKELY_PROF_DIR");
	const char *base;
	int fd, bfd;

	if (env && *env) {
		lp_dirname = strdup(env);
		fd = open(env, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			lp_warn("cannot open LIKELY_PROF_DIR '%s': %s", env,
				strerror(errno));
		return fd;
	}
	base = getenv("XDG_RUNTIME_DIR");
	if (base && base[0] == '/') {
		if (asprintf(&lp_dirname, "%s/likely_prof", base) < 0)
			return -1;
		bfd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (bfd < 0) {
			lp_warn("cannot open XDG_RUNTIME_DIR '%s': %s", base,
				strerror(errno));
			return -1;
		}
	} else {
		base = getenv("HOME");
		if (!base || base[0] != '/') {
			lp_warn("neither LIKELY_PROF_DIR, XDG_RUNTIME_DIR nor HOME is set");
			return -1;
		}
		if (asprintf(&lp_dirname, "%s/.cache/likely_prof", base) < 0)
			return -1;
		fd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0) {
			lp_warn("cannot open HOME '%s': %s", base,
				strerror(errno));
			return -1;
		}
		if (mkdirat(fd, ".cache", 0700) != 0 && errno != EEXIST) {
			lp_warn("cannot create '%s/.cache': %s", base,
				strerror(errno));
			close(fd);
			return -1;
		}
		bfd = openat(fd, ".cache", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		close(fd);
		if (bfd < 0) {
			lp_warn("cannot open '%s/.cache': %s", base,
				strerror(errno));
			return -1;
		}
	}
	fd = lp_private_dir(bfd, "likely_prof", lp_dirname);
	close(bfd);
	return fd;
}

static void lp_add_ms(struct timespec *t, unsigned long ms)
{
	t->tv_sec += (time_t)(ms / 1000);
	t->tv_nsec += (long)(ms % 1000) * 1000000L;
	if (t->tv_nsec >= 1000000000L) {
		t->tv_nsec -= 1000000000L;
		t->tv_sec++;
	}
}

/* Save every lp_interval_ms until lp_fini() says stop. */
static void *lp_writer(void *arg)
{
	struct timespec next;

	clock_gettime(CLOCK_MONOTONIC, &next);
	pthread_mutex_lock(&lp_io_lock);
	lp_writer_up = 1;
	pthread_cond_broadcast(&lp_up);
	for (;;) {
		lp_add_ms(&next, lp_interval_ms);
		while (!lp_final_done &&
		       pthread_cond_timedwait(&lp_wake, &lp_io_lock, &next) != ETIMEDOUT)
			;
		if (lp_final_done)
			break;
		lp_save_or_warn();
	}
	pthread_mutex_unlock(&lp_io_lock);
	return NULL;
}

static void lp_read_interval(void)
{
	const char *env = getenv("LIKELY_PROF_INTERVAL_MS");
	unsigned long ms;
	char *end;

	if (!env || !*env)
		return;
	errno = 0;
	ms = strtoul(env, &end, 10);
	if (errno || *end || env[0] == '-' || ms > LP_MAX_INTERVAL_MS) {
		fprintf(stderr, "likely_prof: LIKELY_PROF_INTERVAL_MS '%s' is not a number of milliseconds up to %lu; using %d\n",
			env, LP_MAX_INTERVAL_MS, LP_DEFAULT_INTERVAL_MS);
		return;
	}
	lp_interval_ms = ms;
}

/*
 * Once per process (again in a forked child): open the directory, write
 * the first snapshot (so a watcher finds the file and a bad directory is
 * reported at once) and start the periodic writer.
 */
static void lp_start_writer(void)
{
	sigset_t all, old;
	pthread_condattr_t ca;
	pid_t pid = getpid();

	pthread_mutex_lock(&lp_io_lock);
	if (lp_started_pid == pid || lp_final_done)
		goto out;
	__atomic_store_n(&lp_started_pid, pid, __ATOMIC_RELEASE);
	if (lp_dirfd < 0) {
		lp_read_interval();
		lp_dirfd = lp_open_dir();
		if (lp_dirfd < 0)
			goto out;
	}
	lp_save_or_warn();
	if (lp_interval_ms == 0)
		goto out;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&lp_wake, &ca);
	pthread_condattr_destroy(&ca);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	lp_writer_up = 0;
	if (pthread_create(&lp_writer_th, NULL, lp_writer, NULL) == 0) {
		lp_writer_running = 1;
		/*
		 * Wait until it runs: thread start-up allocates outside our
		 * locks, and a fork() meanwhile would leave the child an
		 * allocator locked for ever (fork takes lp_io_lock first).
		 */
		while (!lp_writer_up)
			pthread_cond_wait(&lp_up, &lp_io_lock);
	} else {
		lp_warn("cannot start the snapshot thread; only the exit snapshot will be written");
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
out:
	pthread_mutex_unlock(&lp_io_lock);
}

/*
 * The exit snapshot (also runs if the runtime itself is unloaded); then
 * the writer is stopped and joined, so no thread of ours is left running
 * while the process ends (leak checkers stop the world at that point).
 */
__attribute__((destructor)) static void lp_fini(void)
{
	int join;

	pthread_mutex_lock(&lp_io_lock);
	if (lp_started_pid == getpid() && lp_dirfd >= 0 && !lp_final_done)
		lp_save_or_warn();
	lp_final_done = 1;
	join = lp_writer_running && !pthread_equal(lp_writer_th, pthread_self());
	if (lp_writer_running)
		pthread_cond_signal(&lp_wake);
	lp_writer_running = 0;
	pthread_mutex_unlock(&lp_io_lock);
	if (join)
		pthread_join(lp_writer_th, NULL);
}

static void lp_atfork_prepare(void)
{
	pthread_mutex_lock(&lp_io_lock);
	pthread_mutex_lock(&lp_lock);
}

static void lp_atfork_parent(void)
{
	pthread_mutex_unlock(&lp_lock);
	pthread_mutex_unlock(&lp_io_lock);
}

/*
 * The child profiles itself from zero (its file is its own pid's): drop
 * every thread's counters (only this thread survives, and it starts a new
 * array on its next hit), zero the sites, and start a writer on the next
 * hit.
 */
static void lp_atfork_child(void)
{
	struct lp_thread *th = lp_threads, *next;

	for (; th; th = next) {
		next = th->next;
		if (th->ctls && th->ctls != &likely_prof__ctls)
			free(th->ctls->tab);	/* a copy of the thread's, here */
		free(th->counts);
		free(th);
	}
	/* the callers too: this thread's table and the ended threads' */
	free(likely_prof__ctls.tab);
	memset(&likely_prof__ctls, 0, sizeof(likely_prof__ctls));
	free(lp_gone.tab);
	memset(&lp_gone, 0, sizeof(lp_gone));
	lp_threads = NULL;
	likely_prof__tls.counts = NULL;
	likely_prof__tls.cap = 0;
	if (lp_key_ok)
		pthread_setspecific(lp_key, NULL);
	for (uint32_t i = 0; i < lp_nsites; i++)
		if (lp_sites[i])
			lp_sites[i]->count[0] = lp_sites[i]->count[1] = 0;
	lp_warned = 0;
	lp_writer_running = 0;	/* the parent's writer is not in this process */
	pthread_cond_init(&lp_up, NULL);
	pthread_mutex_unlock(&lp_lock);
	pthread_mutex_unlock(&lp_io_lock);
}

__attribute__((constructor)) static void lp_init(void)
{
	pthread_once(&lp_key_once, lp_key_init);
	pthread_atfork(lp_atfork_prepare, lp_atfork_parent, lp_atfork_child);
}
