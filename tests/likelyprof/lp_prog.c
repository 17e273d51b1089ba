/*
 * A program with known branch outcomes, built with LIKELY_PROF, for the
 * likelyprof tests.  Usage: lp_prog MODE [ARG]
 *   known         unlikely(i % 10 == 0) and a wrong likely(i % 4 == 0), 1000 times
 *   threads N I   N threads x I iterations of unlikely(i % 4 == 0)
 *   dso           calls a site in a shared library linked at build time
 *   dlopen LIB    dlopen LIB, call its site 10 times, dlclose it
 *   run MS        hits a site every millisecond for MS milliseconds
 *   fork          the parent and a child each hit their own site
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <likely_prof.h>

int lp_dso_work(int n);

static volatile unsigned sink;

static void known(void)
{
	for (int i = 0; i < 1000; i++) {
		if (unlikely(i % 10 == 0)) /* SITE:known_unlikely */
			sink++;
		if (likely(i % 4 == 0)) /* SITE:known_wrong_likely */
			sink++;
	}
}

static long iters;

static void *thread_main(void *arg)
{
	for (long i = 0; i < iters; i++)
		if (unlikely(i % 4 == 0)) /* SITE:threads */
			sink++;
	return NULL;
}

static int threads(int n)
{
	pthread_t th[64];

	if (n < 1 || n > 64)
		return 2;
	for (int i = 0; i < n; i++)
		if (pthread_create(&th[i], NULL, thread_main, NULL) != 0)
			return 1;
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	return 0;
}

static int run_for(long ms)
{
	struct timespec d = { 0, 1000000 };

	for (long i = 0; i < ms; i++) {
		if (likely(i >= 0)) /* SITE:run */
			sink++;
		nanosleep(&d, NULL);
	}
	return 0;
}

static int with_dlopen(const char *lib)
{
	void *h = dlopen(lib, RTLD_NOW);
	int (*work)(int);

	if (!h) {
		fprintf(stderr, "dlopen: %s\n", dlerror());
		return 1;
	}
	*(void **)&work = dlsym(h, "lp_dso_work");
	if (!work)
		return 1;
	printf("%d\n", work(10));
	return dlclose(h) == 0 ? 0 : 1;
}

static int forked(void)
{
	pid_t pid;
	int st;

	if (unlikely(getpid() > 0)) /* SITE:fork_parent */
		sink++;
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		for (int i = 0; i < 3; i++)
			if (likely(i < 100)) /* SITE:fork_child */
				sink++;
		printf("%d\n", (int)getpid());
		exit(0);
	}
	if (waitpid(pid, &st, 0) != pid || st != 0)
		return 1;
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "known";

	if (!strcmp(mode, "known"))
		known();
	else if (!strcmp(mode, "threads") && argc == 4) {
		iters = atol(argv[3]);
		return threads(atoi(argv[2]));
	} else if (!strcmp(mode, "dso"))
		printf("%d\n", lp_dso_work(100));
	else if (!strcmp(mode, "dlopen") && argc == 3)
		return with_dlopen(argv[2]);
	else if (!strcmp(mode, "run") && argc == 3)
		return run_for(atol(argv[2]));
	else if (!strcmp(mode, "fork"))
		return forked();
	else {
		fprintf(stderr, "usage: lp_prog known|threads N I|dso|dlopen LIB|run MS|fork\n");
		return 2;
	}
	return 0;
}
