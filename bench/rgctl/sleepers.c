// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sleepers N PIDFILE: start N child processes that only sleep, write their
 * pids to PIDFILE (one per line), then wait for SIGTERM or SIGINT (or the
 * death of whoever started sleepers), kill them all and reap them.  The
 * children die with sleepers too (PR_SET_PDEATHSIG), so nothing outlives
 * a benchmark.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	long n, started = 0;
	pid_t *pids, parent = getpid();
	sigset_t block, old;
	FILE *f;

	if (argc != 3 || (n = strtol(argv[1], NULL, 10)) <= 0) {
		fprintf(stderr, "usage: sleepers N PIDFILE\n");
		return 2;
	}
	pids = calloc((size_t)n, sizeof(*pids));
	if (!pids)
		return 1;
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	/* Blocked until sigsuspend(): a signal cannot slip in between. */
	sigprocmask(SIG_BLOCK, &block, &old);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	for (; started < n; started++) {
		pid_t p = fork();

		if (p < 0) {
			perror("sleepers: fork");
			break;
		}
		if (p == 0) {
			sigprocmask(SIG_SETMASK, &old, NULL);
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() != parent)
				_exit(0);
			for (;;)
				pause();
		}
		pids[started] = p;
	}
	f = fopen(argv[2], "w");
	for (long i = 0; f && i < started; i++)
		fprintf(f, "%d\n", (int)pids[i]);
	if (!f || fclose(f) != 0)
		perror("sleepers: pid file");
	else if (started == n)
		while (!stop)
			sigsuspend(&old);
	for (long i = 0; i < started; i++)
		kill(pids[i], SIGKILL);
	for (long i = 0; i < started; i++)
		while (waitpid(pids[i], NULL, 0) < 0 && errno == EINTR)
			;
	free(pids);
	return started == n ? 0 : 1;
}
