// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the resource tests in the guest (tests/vm/resources.sh) run inside
 * a limited group:
 *   res_helper alloc MIB   allocate MIB MiB, touch every page, say so, exit 0
 *                          (memory.max: the OOM killer ends it first)
 *   res_helper forks N     fork up to N children that wait; print
 *                          "forked K: ERRNO_NAME" (the errno of the fork
 *                          that failed, or "none"), end them, exit 0
 *                          (pids.max: EAGAIN)
 * (cpu.max's busy loop is tests/rgctl/task_helper spin.)
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static int alloc(long mib)
{
	size_t size = (size_t)mib << 20;
	long page = sysconf(_SC_PAGESIZE);
	volatile char *p = malloc(size);

	if (!p) {
		fprintf(stderr, "res_helper: cannot allocate %ld MiB\n", mib);
		return 1;
	}
	for (size_t i = 0; i < size; i += (size_t)page)
		p[i] = (char)i;
	printf("touched %ld MiB\n", mib);
	return 0;
}

static const char *errno_name(int err)
{
	switch (err) {
	case 0: return "none";
	case EAGAIN: return "EAGAIN";
	case ENOMEM: return "ENOMEM";
	case EPERM: return "EPERM";
	default: return strerror(err);
	}
}

static int forks(long n)
{
	pid_t *kids = calloc((size_t)n + 1, sizeof(*kids));
	long k = 0;
	int err = 0;

	if (!kids)
		return 1;
	for (; k < n; k++) {
		pid_t pid = fork();

		if (pid == 0) {	/* wait for the parent's SIGKILL (or its end) */
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			for (;;)
				pause();
		}
		if (pid < 0) {
			err = errno;
			break;
		}
		kids[k] = pid;
	}
	printf("forked %ld: %s\n", k, errno_name(err));
	fflush(stdout);
	for (long i = 0; i < k; i++)
		kill(kids[i], SIGKILL);
	for (long i = 0; i < k; i++)
		waitpid(kids[i], NULL, 0);
	free(kids);
	return 0;
}

int main(int argc, char **argv)
{
	long n = argc > 2 ? strtol(argv[2], NULL, 10) : 0;

	if (argc == 3 && strcmp(argv[1], "alloc") == 0 && n > 0)
		return alloc(n);
	if (argc == 3 && strcmp(argv[1], "forks") == 0 && n > 0)
		return forks(n);
	fprintf(stderr, "usage: res_helper alloc MIB | forks N\n");
	return 2;
}
