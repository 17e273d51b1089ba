// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * runcost [-q] CMD [ARG...] [-- CMD [ARG...]]...: run the commands one
 * after the other (each waited for; stdout inherited, or /dev/null with
 * -q; stdin and stderr inherited) and print
 * "WALL_US CPU_US" on one line: the wall time of the whole sequence and
 * the user + system time its processes used (wait4's rusage), with no
 * shell in between to blur a few milliseconds.  Exit status: 0, or 1 if
 * a command could not run or did not exit 0 (the rest are not run).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long us(const struct timeval *tv)
{
	return (long long)tv->tv_sec * 1000000 + tv->tv_usec;
}

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Run argv (ends at NULL); add its CPU time to *cpu; 0 if it exited 0. */
static int run(char **argv, bool quiet, long long *cpu)
{
	struct rusage ru;
	int status;
	pid_t pid = fork();

	if (pid < 0) {
		perror("runcost: fork");
		return -1;
	}
	if (pid == 0) {
		int null = quiet ? open("/dev/null", O_WRONLY) : -1;

		if (null >= 0)
			dup2(null, STDOUT_FILENO);
		execvp(argv[0], argv);
		fprintf(stderr, "runcost: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0) {
		perror("runcost: wait4");
		return -1;
	}
	*cpu += us(&ru.ru_utime) + us(&ru.ru_stime);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
	long long t0 = now_us(), cpu = 0;
	bool quiet = argc > 1 && strcmp(argv[1], "-q") == 0;
	int i = quiet ? 2 : 1, ret = 0;

	if (argc <= i) {
		fprintf(stderr, "usage: runcost [-q] CMD [ARG...] [-- CMD [ARG...]]...\n");
		return 2;
	}
	while (i < argc && ret == 0) {
		int start = i;

		while (i < argc && strcmp(argv[i], "--") != 0)
			i++;
		argv[i < argc ? i : argc] = NULL;
		if (i > start)
			ret = run(argv + start, quiet, &cpu);
		i++;
	}
	printf("%lld %lld\n", now_us() - t0, cpu);
	return ret ? 1 : 0;
}
