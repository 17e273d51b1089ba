// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The smallest honest pipe benchmark, to check that splicebench's harness
 * adds nothing measurable: two threads, a pipe, a barrier, one clock.
 *
 *   sb_minloop copy|vmsplice read|null SIZE PIPE_SIZE TOTAL P C RUNS
 *
 * P and C are the CPUs of the producer and the consumer (-1: not pinned).
 * After one warm-up run, prints the GB/s of each run, one per line.
 */
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

static int vm, to_null, pin_p, pin_c, rfd, wfd, devnull;
static size_t size, pipe_size;
static unsigned long long total;
static char *src, *dst;
static pthread_barrier_t bar;
static double secs;

static void pin(int cpu)
{
	cpu_set_t s;

	if (cpu < 0)		/* -1: not pinned */
		return;
	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	pthread_setaffinity_np(pthread_self(), sizeof(s), &s);
}

static void *producer(void *arg)
{
	unsigned long long left = (total + size - 1) / size;

	(void)arg;
	pin(pin_p);
	pthread_barrier_wait(&bar);
	for (; left; left--) {
		struct iovec iov = { src, size };

		while (iov.iov_len) {
			ssize_t n = vm ? vmsplice(wfd, &iov, 1, 0)
				       : write(wfd, iov.iov_base, iov.iov_len);
			if (n < 0)
				exit(1);
			iov.iov_base = (char *)iov.iov_base + n;
			iov.iov_len -= (size_t)n;
		}
	}
	close(wfd);
	return NULL;
}

static void *consumer(void *arg)
{
	struct timespec a, b;
	ssize_t n;

	(void)arg;
	pin(pin_c);
	pthread_barrier_wait(&bar);
	clock_gettime(CLOCK_MONOTONIC, &a);
	do {
		n = to_null ? splice(rfd, NULL, devnull, NULL, pipe_size, 0)
			    : read(rfd, dst, size);
	} while (n > 0);
	if (n < 0)
		exit(1);
	clock_gettime(CLOCK_MONOTONIC, &b);
	secs = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	close(rfd);
	return NULL;
}

int main(int argc, char **argv)
{
	int runs, i, fds[2];

	if (argc != 9) {
		fprintf(stderr, "usage: sb_minloop copy|vmsplice read|null SIZE PIPE TOTAL P C RUNS\n");
		return 2;
	}
	vm = strcmp(argv[1], "vmsplice") == 0;
	to_null = strcmp(argv[2], "null") == 0;
	size = strtoul(argv[3], NULL, 0);
	pipe_size = strtoul(argv[4], NULL, 0);
	total = strtoull(argv[5], NULL, 0);
	pin_p = atoi(argv[6]);
	pin_c = atoi(argv[7]);
	runs = atoi(argv[8]);
	src = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	dst = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	memset(src, 'x', size);
	memset(dst, 0, size);
	devnull = open("/dev/null", O_WRONLY);
	for (i = -1; i < runs; i++) {
		pthread_t p, c;

		if (pipe(fds) < 0 || fcntl(fds[1], F_SETPIPE_SZ, (int)pipe_size) < 0)
			return 1;
		rfd = fds[0];
		wfd = fds[1];
		pthread_barrier_init(&bar, NULL, 2);
		pthread_create(&c, NULL, consumer, NULL);
		pthread_create(&p, NULL, producer, NULL);
		pthread_join(p, NULL);
		pthread_join(c, NULL);
		pthread_barrier_destroy(&bar);
		if (i >= 0)
			printf("%.4f\n", (double)((total + size - 1) / size * size) / 1e9 / secs);
	}
	return 0;
}
