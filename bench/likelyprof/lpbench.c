/*
 * lpbench [ITERATIONS [ROUNDS]]: the cost of one profiled branch, per
 * variant of loop.c, with one thread and with two threads running the same
 * site, all in this one run (the rounds interleave the variants, so noise
 * hits them alike).  Prints ns per loop iteration (one branch each), the
 * median over the rounds, and the extra cost over plain __builtin_expect.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef uint64_t (*loop_fn)(long, volatile uint64_t *);
uint64_t lp_plain(long n, volatile uint64_t *sink);
uint64_t lp_prof(long n, volatile uint64_t *sink);
uint64_t lp_prof_callers(long n, volatile uint64_t *sink);
uint64_t lp_atomic(long n, volatile uint64_t *sink);
uint64_t lp_racy(long n, volatile uint64_t *sink);
uint64_t lp_gcov(long n, volatile uint64_t *sink);
uint64_t lp_gcov_atomic(long n, volatile uint64_t *sink);

static const struct variant {
	const char *name, *what;
	loop_fn fn;
} variants[] = {
	{ "plain", "__builtin_expect (no profiling)", lp_plain },
	{ "likely_prof", "likely_prof.h, per-thread counters (this suite)", lp_prof },
	{ "lp_callers", "likely_prof.h with LIKELY_PROF_CALLERS (per caller too)", lp_prof_callers },
	{ "atomic", "one relaxed atomic fetch_add per site (alternative)", lp_atomic },
	{ "racy", "shared plain ++ per site, inexact (2006 patch)", lp_racy },
	{ "gcov", "gcc -fprofile-arcs -fprofile-update=single", lp_gcov },
	{ "gcov-atomic", "gcc -fprofile-arcs -fprofile-update=atomic", lp_gcov_atomic },
};
#define NV (sizeof(variants) / sizeof(variants[0]))

struct job {
	loop_fn fn;
	long n;
	volatile uint64_t sink;
	uint64_t taken;
	double cpu_ns;		/* this thread's CPU time */
	double t0, t1;		/* wall clock at its start and end */
};

static double thread_cpu_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static double wall_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static pthread_barrier_t start;
/*
 * Of the last 2-thread run: CPU time of both threads over the wall time
 * from the first start to the last end.  2.0: both really ran at once all
 * along (so they contended for the site); 1.0: the machine was busy and
 * they took turns, so the 2-thread figures say nothing about contention.
 */
static double parallelism;

static void *worker(void *arg)
{
	struct job *j = arg;
	double t0;

	pthread_barrier_wait(&start);
	j->t0 = wall_ns();
	t0 = thread_cpu_ns();
	j->taken = j->fn(j->n, &j->sink);
	j->cpu_ns = thread_cpu_ns() - t0;
	j->t1 = wall_ns();
	return NULL;
}

/*
 * CPU ns per iteration, averaged over nthreads threads running the same
 * loop (so the same sites) at once.  CPU time rather than wall time: the
 * machine may be shared, and a thread waiting for a CPU costs nothing here.
 */
static double measure(loop_fn fn, long n, int nthreads)
{
	pthread_t th[2];
	struct job *jobs = aligned_alloc(128, 128 * 2);
	double sum = 0;

	memset(jobs, 0, 128 * 2);
	for (int i = 0; i < nthreads; i++) {
		struct job *j = (struct job *)((char *)jobs + 128 * i);

		j->fn = fn;
		j->n = n;
	}
	pthread_barrier_init(&start, NULL, (unsigned)nthreads);
	for (int i = 0; i < nthreads; i++)
		if (pthread_create(&th[i], NULL, worker, (char *)jobs + 128 * i)) {
			perror("pthread_create");
			exit(1);
		}
	for (int i = 0; i < nthreads; i++)
		pthread_join(th[i], NULL);
	pthread_barrier_destroy(&start);
	for (int i = 0; i < nthreads; i++) {
		struct job *j = (struct job *)((char *)jobs + 128 * i);

		if (j->taken != (uint64_t)(n + 9) / 10) {
			fprintf(stderr, "lpbench: wrong result\n");
			exit(1);
		}
		sum += j->cpu_ns;
	}
	if (nthreads == 2) {
		struct job *a = jobs, *b = (struct job *)((char *)jobs + 128);
		double all = (a->t1 > b->t1 ? a->t1 : b->t1) -
			     (a->t0 < b->t0 ? a->t0 : b->t0);

		parallelism = all > 0 ? (a->cpu_ns + b->cpu_ns) / all : 0;
	}
	free(jobs);
	return sum / nthreads / (double)n;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 50000000;
	int rounds = argc > 2 ? atoi(argv[2]) : 7;
	double (*r)[2][64] = calloc(NV, sizeof(*r));
	double ov[NV][64], med[NV][2];

	if (n < 1 || rounds < 1 || rounds > 64) {
		fprintf(stderr, "usage: lpbench [ITERATIONS [ROUNDS<=64]]\n");
		return 2;
	}
	for (int k = 0; k < rounds; k++)
		for (size_t v = 0; v < NV; v++) {
			r[v][0][k] = measure(variants[v].fn, n, 1);
			r[v][1][k] = measure(variants[v].fn, n, 2);
			ov[v][k] = parallelism;
		}
	for (size_t v = 0; v < NV; v++)
		for (int t = 0; t < 2; t++) {
			qsort(r[v][t], (size_t)rounds, sizeof(double), cmp);
			med[v][t] = r[v][t][rounds / 2];
		}
	for (size_t v = 0; v < NV; v++)
		qsort(ov[v], (size_t)rounds, sizeof(double), cmp);
	printf("# %ld iterations (one hinted branch each), median of %d rounds, CPU ns per branch per thread\n",
	       n, rounds);
	printf("# par: CPU time of the 2 threads / wall time (2.00 = truly parallel, 1.00 = took turns)\n");
	printf("%-12s %9s %9s %11s %9s %8s  %s\n", "variant", "1 thread", "extra",
	       "2 threads", "extra", "par", "what");
	for (size_t v = 0; v < NV; v++)
		printf("%-12s %9.2f %+9.2f %11.2f %+9.2f %8.2f  %s\n",
		       variants[v].name, med[v][0], med[v][0] - med[0][0],
		       med[v][1], med[v][1] - med[0][1], ov[v][rounds / 2],
		       variants[v].what);
	if (ov[2][rounds / 2] < 1.8)
		printf("# note: the 2 threads did not run in parallel (par < 1.8): the machine is busy; the 2-thread figures do not show contention\n");
	free(r);
	return 0;
}
