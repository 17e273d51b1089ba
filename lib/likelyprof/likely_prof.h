/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * likely_prof.h: likely()/unlikely() that can count how their hints go.
 *
 * Without LIKELY_PROF defined, likely(x) and unlikely(x) are the usual
 * __builtin_expect(!!(x), 1) and __builtin_expect(!!(x), 0): nothing to
 * link, no cost.
 *
 * With LIKELY_PROF defined (cc -DLIKELY_PROF ... -llikelyprof, or
 * pkg-config likelyprof), every call site gets a static record (function,
 * file, line, hint) in the ELF section "likely_prof_sites", and each
 * evaluation counts its outcome in a per-thread counter: no lock, no
 * allocation and no atomic read-modify-write on the hot path, exact counts
 * in multi-threaded programs.  The runtime (liblikelyprof) writes
 * snapshots in the /proc/likely_prof format of the 2006 kernel patch into
 * $LIKELY_PROF_DIR/<pid>, every LIKELY_PROF_INTERVAL_MS and at exit;
 * likelytop -p <pid> shows them live.  See likely_prof(3).
 *
 * With LIKELY_PROF_CALLERS also defined, each evaluation is counted a
 * second time per caller: keyed by the site and the return address of the
 * function the hint is in (__builtin_return_address(0): for a function
 * that is inlined, the caller of the function it was inlined into; mark
 * the hinted function noinline to see its own callers).  Per-thread
 * tables again; the runtime writes them to $LIKELY_PROF_DIR/<pid>.callers
 * beside the profile (likelytop --callers FUNC -p <pid>).
 */
#ifndef LIKELY_PROF_H
#define LIKELY_PROF_H

#undef likely
#undef unlikely

#ifndef LIKELY_PROF

# define likely(x)	__builtin_expect(!!(x), 1)
# define unlikely(x)	__builtin_expect(!!(x), 0)

#else /* LIKELY_PROF */

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * One call site.  The runtime assigns id (1, 2, ... in the order sites are
 * first hit); count[] holds the outcomes of threads that have exited
 * (count[0] false, count[1] true); live threads count in their own arrays.
 */
struct likely_prof_site {
	const char *func;
	const char *file;
	int line;
	int hint;		/* 1 for likely(), 0 for unlikely() */
	uint32_t id;		/* 0 until first hit */
	uint32_t reserved;
	uint64_t count[2];
} __attribute__((aligned(8)));

/* This thread's counters: counts[2 * (id - 1) + outcome], id <= cap. */
struct likely_prof_tls {
	uint64_t *counts;
	uint32_t cap;
	uint32_t state;
};

extern __thread struct likely_prof_tls likely_prof__tls
	__attribute__((tls_model("initial-exec")));
void likely_prof__slow(struct likely_prof_site *site, int outcome);
void likely_prof__register(const void *start, const void *stop);
void likely_prof__unregister(const void *start, const void *stop);

/* One caller of one site in a thread's caller table (LIKELY_PROF_CALLERS). */
struct likely_prof_caller {
	const void *ra;		/* NULL: free slot */
	uint32_t id;		/* the site's id */
	uint32_t reserved;
	uint64_t count[2];
};

/* This thread's caller table: open addressing, mask + 1 slots. */
struct likely_prof_ctls {
	struct likely_prof_caller *tab;
	uint32_t mask;
	uint32_t n;
};

extern __thread struct likely_prof_ctls likely_prof__ctls
	__attribute__((tls_model("initial-exec")));
void likely_prof__caller_slow(struct likely_prof_site *site, const void *ra,
			      int outcome);

/* Write a snapshot of every site hit so far to fd: 0 or -errno. */
int likely_prof_dump(int fd);
/* Write $LIKELY_PROF_DIR/<pid> now (atomically): 0 or -errno. */
int likely_prof_save(void);

/* The hot path: two TLS loads, one load of the site, one increment. */
static inline __attribute__((always_inline)) int
likely_prof__hit(struct likely_prof_site *site, int outcome)
{
	struct likely_prof_tls *t = &likely_prof__tls;
	uint32_t id = __atomic_load_n(&site->id, __ATOMIC_RELAXED);

	if (__builtin_expect(id - 1u < t->cap, 1)) {
		uint64_t *c = &t->counts[2 * (id - 1u) + (unsigned)outcome];

		/* Only this thread writes c; relaxed so the writer may read. */
		__atomic_store_n(c, __atomic_load_n(c, __ATOMIC_RELAXED) + 1,
				 __ATOMIC_RELAXED);
	} else {
		likely_prof__slow(site, outcome);
	}
	return outcome;
}

/*
 * The caller's count: a hash of (return address, site id), the slot
 * compared and incremented; a new pair, or a table to grow, goes to the
 * slow path.  About 1 ns more per branch (bench/likelyprof).
 */
static inline __attribute__((always_inline)) void
likely_prof__caller(struct likely_prof_site *site, const void *ra, int outcome)
{
	struct likely_prof_ctls *t = &likely_prof__ctls;
	uint32_t id = __atomic_load_n(&site->id, __ATOMIC_RELAXED);
	uint32_t i = (uint32_t)((((uintptr_t)ra ^ id) * 0x9e3779b97f4a7c15ULL) >> 40);
	struct likely_prof_caller *c;

	if (__builtin_expect(t->tab != 0, 1)) {
		for (;; i++) {
			c = &t->tab[i & t->mask];
			if (c->ra == ra && c->id == id) {
				uint64_t *n = &c->count[(unsigned)outcome];

				__atomic_store_n(n, __atomic_load_n(n, __ATOMIC_RELAXED) + 1,
						 __ATOMIC_RELAXED);
				return;
			}
			if (!c->ra)
				break;
		}
	}
	likely_prof__caller_slow(site, ra, outcome);
}

#ifdef LIKELY_PROF_CALLERS
# define likely_prof__count_caller(s, v) \
	likely_prof__caller((s), __builtin_return_address(0), (v))
#else
# define likely_prof__count_caller(s, v) ((void)0)
#endif

#define likely_prof__cat2(a, b) a##b
#define likely_prof__cat(a, b) likely_prof__cat2(a, b)
#define likely_prof__check(x, hint, n) __extension__ ({			\
	static struct likely_prof_site likely_prof__cat(likely_prof__s, n)	\
		__attribute__((section("likely_prof_sites"), used)) =	\
		{ __func__, __FILE__, __LINE__, (hint), 0, 0, { 0, 0 } };	\
	int likely_prof__cat(likely_prof__v, n) =			\
		likely_prof__hit(&likely_prof__cat(likely_prof__s, n), !!(x)); \
	likely_prof__count_caller(&likely_prof__cat(likely_prof__s, n),	\
				  likely_prof__cat(likely_prof__v, n));	\
	likely_prof__cat(likely_prof__v, n);				\
})

# define likely(x)	__builtin_expect(likely_prof__check(x, 1, __COUNTER__), 1)
# define unlikely(x)	__builtin_expect(likely_prof__check(x, 0, __COUNTER__), 0)

/*
 * Each object (program or shared library) tells the runtime where its
 * sites are, so that they can be kept when it is unloaded (dlclose) and
 * told apart from other objects'.  The linker defines the hidden
 * __start_/__stop_ symbols per object; they are weak so that an object
 * without sites still links.  Every translation unit registers; the
 * runtime counts references per range.
 */
extern struct likely_prof_site __start_likely_prof_sites[]
	__attribute__((weak, visibility("hidden")));
extern struct likely_prof_site __stop_likely_prof_sites[]
	__attribute__((weak, visibility("hidden")));

static void __attribute__((constructor, used))
likely_prof__ctor(void)
{
	uintptr_t start = (uintptr_t)__start_likely_prof_sites;
	uintptr_t stop = (uintptr_t)__stop_likely_prof_sites;

	if (start != stop)
		likely_prof__register((const void *)start, (const void *)stop);
}

static void __attribute__((destructor, used))
likely_prof__dtor(void)
{
	uintptr_t start = (uintptr_t)__start_likely_prof_sites;
	uintptr_t stop = (uintptr_t)__stop_likely_prof_sites;

	if (start != stop)
		likely_prof__unregister((const void *)start, (const void *)stop);
}

#ifdef __cplusplus
}
#endif

#endif /* LIKELY_PROF */

#endif /* LIKELY_PROF_H */
