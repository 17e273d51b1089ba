/*
 * Processes for the rgctl classify/stats tests (not a test itself):
 *   rgd_helper spin SECONDS             burn CPU
 *   rgd_helper setuid UID MS SECONDS    sleep MS, become UID, sleep SECONDS
 *   rgd_helper tree SECONDS             fork a child that execs
 *                                       "sleep SECONDS" at once, print its
 *                                       pid, then sleep SECONDS
 *   rgd_helper storm SHORT LONG PROG SECONDS
 *       start SHORT short-lived processes (fork, exit) while LONG
 *       long-lived ones exec "PROG tree SECONDS"; print the pid of every
 *       long-lived process and of each one's child, one per line, and
 *       exit once all have reported.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void spin(double secs)
{
	struct timespec a, b;
	volatile unsigned long x = 0;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do {
		for (int i = 0; i < 100000; i++)
			x++;
		clock_gettime(CLOCK_MONOTONIC, &b);
	} while ((double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9 < secs);
}

static int tree(const char *secs)
{
	pid_t c = fork();

	if (c < 0)
		return 1;
	if (c == 0) {
		execlp("sleep", "sleep", secs, (char *)NULL);
		_exit(127);
	}
	printf("%d\n%d\n", (int)getpid(), (int)c);
	fflush(stdout);
	/* Do not keep the storm's pipe open. */
	if (!freopen("/dev/null", "w", stdout))
		return 1;
	sleep((unsigned)atoi(secs));
	kill(c, SIGTERM);
	waitpid(c, NULL, 0);
	return 0;
}

static int storm(int nshort, int nlong, const char *prog, const char *secs)
{
	int every = nlong ? (nshort / nlong) + 1 : nshort + 1;
	int started = 0;

	signal(SIGCHLD, SIG_IGN);	/* no zombies from the short ones */
	for (int i = 0; i < nshort || started < nlong; i++) {
		pid_t p;

		if (started < nlong && i % every == 0) {
			p = fork();
			if (p == 0) {
				execl(prog, prog, "tree", secs, (char *)NULL);
				_exit(127);
			}
			if (p > 0)
				started++;
		}
		if (i < nshort) {
			p = fork();
			if (p == 0)
				_exit(0);
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "spin") == 0) {
		spin(atof(argv[2]));
		return 0;
	}
	if (argc == 5 && strcmp(argv[1], "setuid") == 0) {
		uid_t uid = (uid_t)atoi(argv[2]);

		usleep((useconds_t)atoi(argv[3]) * 1000);
		if (setresuid(uid, uid, uid) < 0) {
			perror("setresuid");
			return 1;
		}
		sleep((unsigned)atoi(argv[4]));
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "tree") == 0)
		return tree(argv[2]);
	if (argc == 6 && strcmp(argv[1], "storm") == 0)
		return storm(atoi(argv[2]), atoi(argv[3]), argv[4], argv[5]);
	fprintf(stderr, "usage: see the source\n");
	return 2;
}
