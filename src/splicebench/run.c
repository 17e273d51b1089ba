// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * splicebench: one measured point.  A producer thread feeds a pipe
 * (write(2), vmsplice(2) or vmsplice with SPLICE_F_GIFT) and a consumer
 * thread drains it (splice to /dev/null or a file, read(2), read and
 * verify).  Both start together on a barrier; the consumer times from
 * there to end of file, each side takes its own CPU time with
 * CLOCK_THREAD_CPUTIME_ID.  Buffers are allocated and pre-faulted
 * before the clock starts, except in gift mode, where fresh pages per
 * chunk are the price of gifting and are counted.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "outfile.h"
#include "sb.h"
#include "parse.h"
#include "run.h"
#include "output/output.h"
#include "tool.h"
#include "xalloc.h"

#define HUGE_SZ (2ull << 20)

struct buf {
	void *map;		/* what to munmap */
	size_t map_len;
	uint8_t *p;		/* aligned start */
	size_t len;
};

struct ctx {
	const struct sb_config *cfg;
	enum sb_mode mode;
	size_t size;
	uint64_t pipe_size;
	int rfd, wfd, outfd;	/* outfd: /dev/null or the file */
	bool stamp;		/* the producer writes every chunk */
	/* producer: a ring of nbufs chunk buffers (gift: one region) */
	struct buf *bufs;
	size_t nbufs;
	bool wait_consumer;	/* safe reuse: wait until the slot is consumed */
	uint64_t nchunks;	/* 0: run until the deadline */
	struct timespec deadline;
	/* consumer */
	struct buf cbuf;
	uint64_t consumed;	/* bytes the consumer has finished with */
	pthread_barrier_t start;
	struct timespec t0;
	/* results */
	struct sb_run run;
	int prod_err, cons_err;
	const char *prod_what, *cons_what;
};

static double ts_diff(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) +
	       (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

/*
 * CPU time of the calling thread, user and system together.  The
 * scheduler's own runtime (CLOCK_THREAD_CPUTIME_ID) is exact; getrusage's
 * user/system split is tick-sampled and reads 0 for a run shorter than a
 * tick.
 */
static double thread_cpu(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) < 0)
		return 0;
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- buffers ------------------------------------------------------------ */

/*
 * huge: ask for transparent huge pages.  A kernel without them
 * (CONFIG_TRANSPARENT_HUGEPAGE off) refuses MADV_HUGEPAGE with EINVAL:
 * then the buffer stays on small pages and *refused is set.
 */
static int buf_alloc(struct buf *b, size_t len, bool huge, bool *refused)
{
	size_t align = huge ? HUGE_SZ : 0;
	size_t map_len = huge ? ((len + HUGE_SZ - 1) & ~(HUGE_SZ - 1)) + HUGE_SZ
			      : len;
	uintptr_t a;

	b->map = mmap(NULL, map_len, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (b->map == MAP_FAILED)
		return -errno;
	b->map_len = map_len;
	a = (uintptr_t)b->map;
	if (align)
		a = (a + align - 1) & ~(uintptr_t)(align - 1);
	b->p = (uint8_t *)a;
	b->len = huge ? ((len + HUGE_SZ - 1) & ~(HUGE_SZ - 1)) : len;
	if (huge && madvise(b->p, b->len, MADV_HUGEPAGE) < 0) {
		int e = errno;

		if (e == EINVAL) {
			*refused = true;
			return 0;
		}

		munmap(b->map, b->map_len);
		b->map = NULL;
		return -e;
	}
	return 0;
}

static void buf_free(struct buf *b)
{
	if (b->map)
		munmap(b->map, b->map_len);
	b->map = NULL;
}

/* Read /proc/self/smaps (the live process, never the sysroot). */
static char *read_own_smaps(void)
{
	int fd = open("/proc/self/smaps", O_RDONLY | O_CLOEXEC);
	char *s = NULL;

	if (fd < 0)
		return NULL;
	if (kattr_read_fd(fd, &s, NULL) < 0)
		s = NULL;
	close(fd);
	return s;
}

/* Are the (touched) pages of b backed by huge pages? */
static bool buf_is_huge(const struct buf *b)
{
	char *smaps = read_own_smaps();
	uint64_t kb = 0;
	bool ok;

	if (!smaps)
		return false;
	ok = kattr_smaps_field_kb(smaps, (uintptr_t)b->p, "AnonHugePages",
				  &kb) == 0 && kb * 1024 >= b->len;
	free(smaps);
	return ok;
}

/* ---- the producer ------------------------------------------------------- */

/* --time: the end of this run, from now. */
static void set_deadline(struct ctx *c)
{
	clock_gettime(CLOCK_MONOTONIC, &c->deadline);
	c->deadline.tv_sec += (time_t)c->cfg->seconds;
	c->deadline.tv_nsec += (long)((c->cfg->seconds -
			(double)(time_t)c->cfg->seconds) * 1e9);
	if (c->deadline.tv_nsec >= 1000000000L) {
		c->deadline.tv_sec++;
		c->deadline.tv_nsec -= 1000000000L;
	}
}

static bool producer_done(struct ctx *c, uint64_t seq)
{
	struct timespec now;

	if (c->nchunks)
		return seq >= c->nchunks;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > c->deadline.tv_sec ||
	       (now.tv_sec == c->deadline.tv_sec &&
		now.tv_nsec >= c->deadline.tv_nsec);
}

/* Wait until the consumer has finished with every byte before 'until'. */
static void wait_consumed(struct ctx *c, uint64_t until)
{
	while (__atomic_load_n(&c->consumed, __ATOMIC_ACQUIRE) < until) {
		if (__atomic_load_n(&c->cons_err, __ATOMIC_RELAXED))
			return;
		sched_yield();
	}
}

static int push_write(struct ctx *c, const uint8_t *p, size_t len)
{
	while (len) {
		ssize_t n = write(c->wfd, p, len);

		if (SB_UNLIKELY(n < 0)) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* vmsplice returns short counts when the pipe fills: loop. */
static int push_vmsplice(struct ctx *c, uint8_t *p, size_t len,
			 unsigned int flags)
{
	struct iovec iov = { .iov_base = p, .iov_len = len };

	while (iov.iov_len) {
		ssize_t n = vmsplice(c->wfd, &iov, 1, flags);

		if (SB_UNLIKELY(n < 0)) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			return -errno;
		}
		iov.iov_base = (uint8_t *)iov.iov_base + n;
		iov.iov_len -= (size_t)n;
	}
	return 0;
}

static void fill_chunk(struct ctx *c, uint8_t *p, uint64_t seq)
{
	if (c->cfg->consumer == SB_VERIFY)
		sb_chunk_fill(p, c->size, seq);
	else
		memset(p, (int)(seq & 0xff) | 1, c->size);
}

static void *producer(void *arg)
{
	struct ctx *c = arg;
	unsigned int vflags = c->cfg->busy ? SPLICE_F_NONBLOCK : 0;
	double cpu0;
	uint64_t seq;
	int ret = 0;

	if (c->mode == SB_GIFT)		/* (--unsafe-reuse: then reused) */
		vflags |= SPLICE_F_GIFT;
	pthread_barrier_wait(&c->start);
	cpu0 = thread_cpu();
	/*
	 * --time counts from here, when both sides are ready, as the
	 * consumer's clock does; and a run sends at least its first chunk,
	 * so that a thread started late on a loaded machine still measures
	 * something rather than nothing.
	 */
	if (!c->nchunks)
		set_deadline(c);
	for (seq = 0; seq == 0 || !producer_done(c, seq); seq++) {
		size_t slot = c->nbufs > 1 ? seq % c->nbufs : 0;
		uint8_t *p = c->bufs[slot].p;

		if (c->stamp) {
			if (c->wait_consumer && seq >= c->nbufs)
				wait_consumed(c, (seq - c->nbufs + 1) * c->size);
			fill_chunk(c, p, seq);
		}
		if (c->mode == SB_COPY) {
			ret = push_write(c, p, c->size);
		} else {
			ret = push_vmsplice(c, p, c->size, vflags);
			/*
			 * A gift is never written again: drop our mapping
			 * (the pipe keeps its own reference); the next
			 * chunk faults in fresh pages.
			 */
			if (c->mode == SB_GIFT && !c->cfg->unsafe_reuse && !ret &&
			    madvise(c->bufs[0].p, c->bufs[0].len, MADV_DONTNEED) < 0)
				ret = -errno;
		}
		if (SB_UNLIKELY(ret < 0)) {
			c->prod_what = c->mode == SB_COPY ? "write" :
				       c->mode == SB_GIFT ?
				       "vmsplice with SPLICE_F_GIFT" : "vmsplice";
			c->prod_err = ret;
			break;
		}
	}
	c->run.cpu_producer = thread_cpu() - cpu0;
	close(c->wfd);
	c->wfd = -1;
	return NULL;
}

/* ---- the consumer ------------------------------------------------------- */

static void note_consumed(struct ctx *c, uint64_t total)
{
	__atomic_store_n(&c->consumed, total, __ATOMIC_RELEASE);
}

/*
 * Take what arrives without looking at it: splice(2) to c->outfd
 * (/dev/null or the file) when splice is true, else read(2) into the
 * consumer's buffer.  0 at the end of the data, or -errno.
 */
static int drain(struct ctx *c, uint64_t *total, bool splice_out)
{
	unsigned int flags = c->cfg->busy ? SPLICE_F_NONBLOCK : 0;
	size_t want = c->pipe_size ? c->pipe_size : 65536;
	uint8_t *p = c->cbuf.p;
	size_t len = c->size;

	for (;;) {
		ssize_t n = splice_out ?
			    splice(c->rfd, NULL, c->outfd, NULL, want, flags) :
			    read(c->rfd, p, len);

		if (SB_UNLIKELY(n <= 0)) {
			if (n == 0)
				return 0;
			if (errno == EAGAIN || errno == EINTR)
				continue;
			return -errno;
		}
		*total += (uint64_t)n;
		note_consumed(c, *total);
	}
}

static void verify_chunk(struct ctx *c, uint64_t seq)
{
	uint64_t got;
	enum sb_chunk_status st = sb_chunk_check(c->cbuf.p, c->size, seq, &got);

	c->run.chunks++;
	if (SB_LIKELY(st == SB_CHUNK_OK))
		return;
	if (!c->run.corrupt) {
		c->run.first_bad = st;
		c->run.first_bad_chunk = seq;
		c->run.first_bad_seq = got;
	}
	c->run.corrupt++;
}

static int drain_verify(struct ctx *c, uint64_t *total)
{
	uint8_t *p = c->cbuf.p;
	size_t have = 0;
	uint64_t seq = 0;

	for (;;) {
		ssize_t n = read(c->rfd, p + have, c->size - have);

		if (SB_UNLIKELY(n <= 0)) {
			if (n == 0)
				break;
			if (errno == EAGAIN || errno == EINTR)
				continue;
			return -errno;
		}
		have += (size_t)n;
		*total += (uint64_t)n;
		if (have == c->size) {
			/* copied out: the producer may reuse these bytes */
			note_consumed(c, *total);
			verify_chunk(c, seq++);
			have = 0;
		}
	}
	if (have) {		/* a truncated last chunk */
		c->run.chunks++;
		if (!c->run.corrupt) {
			c->run.first_bad = SB_CHUNK_BAD_DATA;
			c->run.first_bad_chunk = seq;
			c->run.first_bad_seq = seq;
		}
		c->run.corrupt++;
	}
	return 0;
}

static void *consumer(void *arg)
{
	struct ctx *c = arg;
	struct timespec t1;
	uint64_t total = 0;
	double cpu0;
	int ret;

	pthread_barrier_wait(&c->start);
	cpu0 = thread_cpu();
	clock_gettime(CLOCK_MONOTONIC, &c->t0);
	switch (c->cfg->consumer) {
	case SB_NULL:
	case SB_FILE:
		ret = drain(c, &total, true);
		c->cons_what = c->cfg->consumer == SB_NULL ?
			       "splice to /dev/null" : "splice to the file";
		break;
	case SB_READ:
		ret = drain(c, &total, false);
		c->cons_what = "read";
		break;
	default:
		ret = drain_verify(c, &total);
		c->cons_what = "read";
		break;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	c->run.cpu_consumer = thread_cpu() - cpu0;
	c->run.seconds = ts_diff(&c->t0, &t1);
	c->run.bytes = total;
	if (ret < 0)
		__atomic_store_n(&c->cons_err, ret, __ATOMIC_RELAXED);
	/* Closing our end makes a blocked producer fail with EPIPE. */
	close(c->rfd);
	c->rfd = -1;
	return NULL;
}

/* ---- one run -------------------------------------------------------------- */

int sb_pipe_set_size(int fd, uint64_t want, uint64_t *got)
{
	int r;

	if (want && fcntl(fd, F_SETPIPE_SZ, (int)(want > INT32_MAX ? INT32_MAX : want)) < 0)
		return -errno;
	r = fcntl(fd, F_GETPIPE_SZ);
	if (r < 0)
		return -errno;
	*got = (uint64_t)r;
	return 0;
}

static int pin_self(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return -pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

struct thread_arg {
	struct ctx *c;
	int cpu;
	void *(*fn)(void *);
	int pin_err;
};

static void *thread_main(void *arg)
{
	struct thread_arg *t = arg;

	t->pin_err = pin_self(t->cpu);
	return t->fn(t->c);
}

/* The run's pipe, sized and set up for the consumer; 0 or -errno (why). */
static int pipe_open(struct ctx *c, char *why, size_t whylen)
{
	int fds[2], ret;

	if (pipe2(fds, O_CLOEXEC) < 0) {
		snprintf(why, whylen, "cannot create a pipe: %s", tool_strerror(errno));
		return -errno;
	}
	c->rfd = fds[0];
	c->wfd = fds[1];
	ret = sb_pipe_set_size(c->wfd, c->cfg->pipe_size, &c->pipe_size);
	if (ret < 0 && c->cfg->pipe_size)	/* told once by main(): go on */
		ret = sb_pipe_set_size(c->wfd, 0, &c->pipe_size);
	if (ret < 0) {
		snprintf(why, whylen, "cannot size the pipe: %s", tool_strerror(-ret));
		return ret;
	}
	if (c->cfg->busy && c->mode == SB_COPY)
		fcntl(c->wfd, F_SETFL, O_NONBLOCK);
	if (c->cfg->busy && (c->cfg->consumer == SB_READ ||
			     c->cfg->consumer == SB_VERIFY))
		fcntl(c->rfd, F_SETFL, O_NONBLOCK);
	if (c->cfg->consumer == SB_FILE &&
	    (ftruncate(c->outfd, 0) < 0 || lseek(c->outfd, 0, SEEK_SET) < 0)) {
		ret = -errno;
		snprintf(why, whylen, "cannot truncate %s: %s",
			 c->cfg->file_path, tool_strerror(errno));
		return ret;
	}
	return 0;
}

/* Run the producer and the consumer to the end; 0 or -errno (why). */
static int run_threads(struct ctx *c, struct thread_arg *tp,
		       struct thread_arg *tc, char *why, size_t whylen)
{
	pthread_t thp, thc;
	int ret;

	pthread_barrier_init(&c->start, NULL, 2);
	if ((ret = -pthread_create(&thc, NULL, thread_main, tc)) < 0) {
		snprintf(why, whylen, "cannot start a thread: %s", tool_strerror(-ret));
		pthread_barrier_destroy(&c->start);
		return ret;
	}
	if ((ret = -pthread_create(&thp, NULL, thread_main, tp)) < 0) {
		/* let the consumer through the barrier with a closed pipe */
		close(c->wfd);
		c->wfd = -1;
		snprintf(why, whylen, "cannot start a thread: %s", tool_strerror(-ret));
		pthread_barrier_wait(&c->start);
		pthread_join(thc, NULL);
		pthread_barrier_destroy(&c->start);
		return ret;
	}
	pthread_join(thp, NULL);
	pthread_join(thc, NULL);
	pthread_barrier_destroy(&c->start);
	return 0;
}

/* What went wrong inside the threads, if anything: 0 or -errno (why). */
static int run_error(const struct ctx *c, const struct thread_arg *tp,
		     const struct thread_arg *tc, char *why, size_t whylen)
{
	int ret;

	if (tp->pin_err || tc->pin_err) {
		ret = tp->pin_err ? tp->pin_err : tc->pin_err;
		snprintf(why, whylen, "cannot pin the %s to CPU %d: %s",
			 tp->pin_err ? "producer" : "consumer",
			 tp->pin_err ? tp->cpu : tc->cpu, tool_strerror(-ret));
		return ret;
	}
	if (c->cons_err) {
		snprintf(why, whylen, "%s failed: %s", c->cons_what,
			 tool_strerror(-c->cons_err));
		return c->cons_err;
	}
	if (c->prod_err) {
		snprintf(why, whylen, "%s failed: %s", c->prod_what,
			 tool_strerror(-c->prod_err));
		return c->prod_err;
	}
	return 0;
}

static int one_run(struct ctx *c, struct sb_run *out, char *why, size_t whylen)
{
	struct thread_arg tp = { c, c->cfg->pin_producer, producer, 0 };
	struct thread_arg tc = { c, c->cfg->pin_consumer, consumer, 0 };
	int ret;

	ret = pipe_open(c, why, whylen);
	if (ret < 0)
		goto out_close;
	memset(&c->run, 0, sizeof(c->run));
	c->consumed = 0;
	c->prod_err = c->cons_err = 0;
	ret = run_threads(c, &tp, &tc, why, whylen);
	if (ret == 0)
		ret = run_error(c, &tp, &tc, why, whylen);
	if (ret == 0)
		*out = c->run;
out_close:
	if (c->rfd >= 0)
		close(c->rfd);
	if (c->wfd >= 0)
		close(c->wfd);
	c->rfd = c->wfd = -1;
	return ret;
}

/* ---- one point ----------------------------------------------------------- */

static int setup(struct ctx *c, struct sb_result *r)
{
	const struct sb_config *cfg = c->cfg;
	bool huge_ok = true;
	size_t i;
	int ret;

	/* The producer rewrites its buffers when the consumer verifies,
	 * in gift mode (fresh pages), and when told to reuse unsafely. */
	c->stamp = cfg->consumer == SB_VERIFY || c->mode == SB_GIFT ||
		   cfg->unsafe_reuse;
	if (cfg->unsafe_reuse) {
		c->nbufs = 2;		/* the naive double buffer */
		c->wait_consumer = false;
	} else if (c->mode == SB_VMSPLICE && c->stamp) {
		/* Enough slots that the consumer rarely holds us up; a
		 * slot is rewritten only once the consumer is done with it. */
		uint64_t pipe = cfg->pipe_size > r->pipe_size ? cfg->pipe_size
							       : r->pipe_size;

		if (pipe < 65536)	/* not known yet: the usual default */
			pipe = 65536;
		c->nbufs = 2 + (size_t)((2 * pipe + c->size - 1) / c->size);
		c->wait_consumer = true;
	} else {
		c->nbufs = 1;		/* write(2) copies; gift: fresh pages */
		c->wait_consumer = false;
	}
	c->bufs = calloc(c->nbufs, sizeof(*c->bufs));
	if (!c->bufs)
		return -ENOMEM;
	for (i = 0; i < c->nbufs; i++) {
		ret = buf_alloc(&c->bufs[i], c->size, cfg->huge, &r->huge_refused);
		if (ret < 0)
			goto fail;
		/* pre-fault, and give the never-rewritten buffer its data */
		if (cfg->consumer == SB_VERIFY)
			sb_chunk_fill(c->bufs[i].p, c->size, 0);
		else
			memset(c->bufs[i].p, 'x', c->bufs[i].len);
		if (cfg->huge && !buf_is_huge(&c->bufs[i]))
			huge_ok = false;
	}
	if (c->mode == SB_GIFT && !cfg->unsafe_reuse &&
	    madvise(c->bufs[0].p, c->bufs[0].len, MADV_DONTNEED) < 0) {
		ret = -errno;
		goto fail;
	}
	if (cfg->consumer == SB_READ || cfg->consumer == SB_VERIFY) {
		ret = buf_alloc(&c->cbuf, c->size, cfg->huge, &r->huge_refused);
		if (ret < 0)
			goto fail;
		memset(c->cbuf.p, 0, c->cbuf.len);
		if (cfg->huge && !buf_is_huge(&c->cbuf))
			huge_ok = false;
	}
	r->huge = cfg->huge && huge_ok;
	return 0;
fail:
	snprintf(r->why, sizeof(r->why), "cannot allocate %zu bytes: %s",
		 c->size, tool_strerror(-ret));
	return ret;
}

static void teardown(struct ctx *c)
{
	size_t i;

	for (i = 0; c->bufs && i < c->nbufs; i++)
		buf_free(&c->bufs[i]);
	free(c->bufs);
	c->bufs = NULL;
	buf_free(&c->cbuf);
}

static int cmp_run_gbps(const void *a, const void *b)
{
	const struct sb_run *x = a, *y = b;
	double gx = sb_gbps(x->bytes, x->seconds), gy = sb_gbps(y->bytes, y->seconds);

	return (gx > gy) - (gx < gy);
}

/* Fold the runs into r: statistics of GB/s, CPU of the median run. */
static void summarise(struct sb_run *runs, int n, struct sb_result *r)
{
	double g[SB_MAX_RUNS], cp[SB_MAX_RUNS], cc[SB_MAX_RUNS];
	struct sb_stats st;
	int i;

	for (i = 0; i < n; i++) {
		g[i] = sb_gbps(runs[i].bytes, runs[i].seconds);
		r->sample_gbps[i] = g[i];
		r->sample_seconds[i] = runs[i].seconds;
		cp[i] = sb_cpu_s_per_gb(runs[i].cpu_producer, runs[i].bytes);
		cc[i] = sb_cpu_s_per_gb(runs[i].cpu_consumer, runs[i].bytes);
		r->chunks += runs[i].chunks;
		if (runs[i].corrupt && !r->corrupt) {
			r->first_bad = runs[i].first_bad;
			r->first_bad_chunk = runs[i].first_bad_chunk;
			r->first_bad_seq = runs[i].first_bad_seq;
		}
		r->corrupt += runs[i].corrupt;
	}
	sb_stats_compute(g, n, &r->gbps);
	sb_stats_compute(cp, n, &st);
	r->cpu_producer = st.median;
	sb_stats_compute(cc, n, &st);
	r->cpu_consumer = st.median;
	qsort(runs, (size_t)n, sizeof(*runs), cmp_run_gbps);
	r->bytes = runs[n / 2].bytes;
	r->runs = n;
}

/* A point across the rounds: its output descriptor and its runs. */
struct point {
	struct sb_result *r;
	int outfd;
	struct sb_run *runs;
	int done;		/* measured runs finished */
	bool huge_ok;
};

volatile sig_atomic_t sb_stop;

int sb_open_file_consumer(const char *path, char *why, size_t whylen)
{
	int fd = tool_out_open_stream(path);	/* outfile.h */

	if (fd == -EINVAL)
		snprintf(why, whylen, "refusing %s: it is %s, not a regular file",
			 path, tool_file_kind(path));
	else if (fd < 0)
		snprintf(why, whylen, "cannot open %s: %s", path, tool_strerror(-fd));
	return fd;
}

static int point_open(const struct sb_config *cfg, struct point *p)
{
	p->outfd = -1;
	p->huge_ok = true;
	p->runs = calloc((size_t)cfg->runs, sizeof(*p->runs));
	if (!p->runs) {
		snprintf(p->r->why, sizeof(p->r->why), "out of memory");
		return -ENOMEM;
	}
	if (cfg->consumer == SB_FILE) {
		p->outfd = sb_open_file_consumer(cfg->file_path, p->r->why,
						 sizeof(p->r->why));
		return p->outfd < 0 ? p->outfd : 0;
	}
	if (cfg->consumer != SB_NULL)
		return 0;
	p->outfd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (p->outfd < 0) {
		int ret = -errno;

		snprintf(p->r->why, sizeof(p->r->why), "cannot open /dev/null: %s",
			 tool_strerror(errno));
		return ret;
	}
	return 0;
}

/* One run of one point (run < 0: the warm-up), buffers set up afresh. */
static int point_run(const struct sb_config *cfg, struct point *p, int run)
{
	struct sb_result *r = p->r;
	struct ctx c = { .cfg = cfg, .mode = r->mode, .size = (size_t)r->size,
			 .rfd = -1, .wfd = -1, .outfd = p->outfd };
	struct sb_run tmp;
	int ret;

	if (cfg->total)
		c.nchunks = (cfg->total + r->size - 1) / r->size;
	ret = setup(&c, r);
	if (ret == 0) {
		struct sb_run *out = run < 0 ? &tmp : &p->runs[run];

		p->huge_ok &= r->huge;
		ret = one_run(&c, out, r->why, sizeof(r->why));
		/* A run that moved nothing has no rate: never 0.00 GB/s. */
		if (ret == 0 && !out->bytes) {
			snprintf(r->why, sizeof(r->why),
				 "no data moved: the consumer got no byte before the end of the data");
			ret = -ENODATA;
		}
		r->pipe_size = c.pipe_size;
	}
	teardown(&c);
	return ret;
}

int sb_run_points(const struct sb_config *cfg, struct sb_result *res, int n)
{
	struct point *pts = xcalloc((size_t)n, sizeof(*pts));
	int i, run, failed = 0, total = 0, done = 0;
	struct timespec t0, t1;
	char what[96], a[32];

	for (i = 0; i < n; i++) {
		pts[i].r = &res[i];
		pts[i].outfd = -1;
		res[i].huge_requested = cfg->huge;
		if (!res[i].failed && point_open(cfg, &pts[i]) < 0) {
			res[i].failed = true;
			failed++;
		}
	}
	/*
	 * Round by round: a warm-up run of every point, then run 1 of every
	 * point, and so on, so that a busy spell on a shared machine is
	 * spread over all points instead of spoiling one.
	 */
	for (i = 0; i < n; i++)
		total += res[i].failed ? 0 : cfg->runs + 1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (run = -1; run < cfg->runs && !sb_stop; run++) {
		for (i = 0; i < n && !sb_stop; i++) {
			if (res[i].failed)
				continue;
			if (cfg->progress) {
				clock_gettime(CLOCK_MONOTONIC, &t1);
				if (run < 0)
					snprintf(what, sizeof(what), "%s %s, warm-up",
						 sb_mode_name(res[i].mode),
						 sb_format_size(res[i].size, a, sizeof(a)));
				else
					snprintf(what, sizeof(what), "%s %s, run %d of %d",
						 sb_mode_name(res[i].mode),
						 sb_format_size(res[i].size, a, sizeof(a)),
						 run + 1, cfg->runs);
				sb_progress(what, done, total, ts_diff(&t0, &t1));
			}
			done++;
			if (point_run(cfg, &pts[i], run) < 0) {
				res[i].failed = true;
				failed++;
			} else if (run >= 0) {
				pts[i].done++;
			}
		}
	}
	if (cfg->progress)
		sb_progress_end();
	for (i = 0; i < n; i++) {
		if (!res[i].failed && !pts[i].done) {	/* sb_stop */
			res[i].failed = res[i].interrupted = true;
			snprintf(res[i].why, sizeof(res[i].why),
				 "interrupted before its first run");
		}
		if (!res[i].failed) {
			summarise(pts[i].runs, pts[i].done, &res[i]);
			res[i].huge = cfg->huge && pts[i].huge_ok;
		}
		if (pts[i].outfd >= 0)
			close(pts[i].outfd);
		free(pts[i].runs);
	}
	free(pts);
	return failed;
}

/* ---- probes and the memcpy baseline -------------------------------------- */

int sb_probe_vmsplice(unsigned int flags)
{
	static char page[4096] __attribute__((aligned(4096)));
	struct iovec iov = { .iov_base = page, .iov_len = sizeof(page) };
	int fds[2], ret = 0;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
	if (vmsplice(fds[1], &iov, 1, flags | SPLICE_F_NONBLOCK) < 0)
		ret = -errno;
	close(fds[0]);
	close(fds[1]);
	return ret;
}

static double memcpy_run(uint8_t *dst, const uint8_t *src, size_t len,
			 uint64_t total)
{
	struct timespec a, b;
	uint64_t done;

	clock_gettime(CLOCK_MONOTONIC, &a);
	for (done = 0; done < total; done += len) {
		memcpy(dst, src, len);
		__asm__ volatile("" : : "r"(dst) : "memory");
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	return sb_gbps(done, ts_diff(&a, &b));
}

static void baseline_one(size_t len, uint64_t total, int runs,
			 struct sb_stats *st, double *samples)
{
	uint8_t *src = malloc(len), *dst = malloc(len);
	double g[SB_MAX_RUNS];
	int i;

	memset(st, 0, sizeof(*st));
	if (!src || !dst)
		goto out;
	memset(src, 'x', len);
	memset(dst, 0, len);
	(void)memcpy_run(dst, src, len, total);	/* warm-up */
	for (i = 0; i < runs && !sb_stop; i++)
		g[i] = memcpy_run(dst, src, len, total);
	if (i)		/* SIGINT: the runs done, or none */
		sb_stats_compute(g, i, st);
	memcpy(samples, g, (size_t)i * sizeof(*g));
out:
	free(src);
	free(dst);
}

/* One fresh-page run: fault, fill and drop len bytes until total. */
static double fresh_run(uint8_t *p, size_t len, uint64_t total, double *cpu)
{
	struct timespec a, b;
	uint64_t done;
	double c0 = thread_cpu();

	clock_gettime(CLOCK_MONOTONIC, &a);
	for (done = 0; done < total; done += len) {
		memset(p, (int)(done & 0xff) | 1, len);
		if (madvise(p, len, MADV_DONTNEED) < 0)
			return 0;
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	*cpu = sb_cpu_s_per_gb(thread_cpu() - c0, done);
	return sb_gbps(done, ts_diff(&a, &b));
}

/*
 * The price of fresh pages (gift's per-chunk cost) without a pipe: the
 * gift rows read against it.
 */
static void baseline_fresh(struct sb_baseline *b, uint64_t total, int runs)
{
	double g[SB_BASE_RUNS], cpu[SB_BASE_RUNS], c;
	struct sb_stats st;
	uint8_t *p;
	int i;

	memset(&b->fresh, 0, sizeof(b->fresh));
	p = mmap(NULL, b->fresh_size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return;
	(void)fresh_run(p, b->fresh_size, total / 4, &c);	/* warm-up */
	for (i = 0; i < runs && !sb_stop; i++) {
		g[i] = fresh_run(p, b->fresh_size, total, &cpu[i]);
		if (g[i] <= 0)
			break;
	}
	if (i) {
		sb_stats_compute(g, i, &b->fresh);
		sb_stats_compute(cpu, i, &st);
		b->fresh_cpu = st.median;
		memcpy(b->fresh_samples, g, (size_t)i * sizeof(*g));
	}
	munmap(p, b->fresh_size);
}

static uint64_t clamp64(uint64_t v, uint64_t lo, uint64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

void sb_run_baseline(const struct sb_config *cfg, struct sb_baseline *b)
{
	/* as much as a run moves, within bounds that keep it meaningful */
	uint64_t want = cfg->total ? cfg->total : UINT64_MAX;
	int runs = cfg->runs < SB_BASE_RUNS ? cfg->runs : SB_BASE_RUNS;

	b->hot_size = 256u << 10;
	b->ram_size = 128u << 20;	/* beyond any last-level cache */
	if (cfg->progress)
		sb_progress("memcpy baseline", 0, 0, 0);
	baseline_one(b->hot_size, clamp64(want, 256ull << 20,
					  cfg->quick ? 256ull << 20 : 4ull << 30),
		     runs, &b->hot, b->hot_samples);
	baseline_one(b->ram_size, clamp64(want, 2 * b->ram_size,
					  cfg->quick ? 2 * b->ram_size : 2ull << 30),
		     runs, &b->ram, b->ram_samples);
	b->fresh_size = b->hot_size;
	baseline_fresh(b, clamp64(want, 64ull << 20,
				  cfg->quick ? 64ull << 20 : 1ull << 30), runs);
}
