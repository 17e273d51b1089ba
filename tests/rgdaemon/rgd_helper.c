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
 *   rgd_helper threads N SECONDS        start N threads besides the main
 *                                       one, print every thread id (main
 *                                       first) on one line, sleep SECONDS
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <sys/syscall.h>
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

/* fork(), retried while the system is out of processes for a moment. */
static pid_t xfork(void)
{
	for (int i = 0; i < 200; i++) {
		pid_t p = fork();

		if (p >= 0 || errno != EAGAIN)
			return p;
		usleep(5000);
	}
	return -1;
}

static int tree(const char *secs)
{
	pid_t c = xfork();

	if (c < 0) {
		perror("rgd_helper tree: fork");
		return 1;
	}
	if (c == 0) {
		int null = open("/dev/null", O_WRONLY);

		/* Not the storm's pipe: it would never see EOF. */
		if (null >= 0)
			dup2(null, STDOUT_FILENO);
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
	int started = 0, fds[2];
	char buf[4096];
	ssize_t n;

	/* The trees report through a pipe; EOF once all have. */
	if (pipe(fds) < 0)
		return 1;

	signal(SIGCHLD, SIG_IGN);	/* no zombies from the short ones */
	for (int i = 0; i < nshort || started < nlong; i++) {
		pid_t p;

		if (started < nlong && i % every == 0) {
			p = xfork();
			if (p == 0) {
				dup2(fds[1], STDOUT_FILENO);
				close(fds[0]);
				close(fds[1]);
				execl(prog, prog, "tree", secs, (char *)NULL);
				perror("rgd_helper storm: exec");
				_exit(127);
			}
			if (p < 0) {
				perror("rgd_helper storm: fork");
				return 1;
			}
			started++;
		}
		if (i < nshort) {
			p = xfork();
			if (p == 0)
				_exit(0);
		}
	}
	close(fds[1]);
	while ((n = read(fds[0], buf, sizeof(buf))) > 0)
		if (write(STDOUT_FILENO, buf, (size_t)n) != n)
			return 1;
	return 0;
}

static pthread_mutex_t tid_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t tid_cond = PTHREAD_COND_INITIALIZER;
static int tids_seen;

static void *sleeper(void *arg)
{
	pid_t *tid = arg;

	pthread_mutex_lock(&tid_lock);
	*tid = (pid_t)syscall(SYS_gettid);
	tids_seen++;
	pthread_cond_signal(&tid_cond);
	pthread_mutex_unlock(&tid_lock);
	for (;;)
		pause();
	return NULL;
}

static int threads(int n, const char *secs)
{
	pid_t tids[64];
	pthread_t t;

	if (n < 1 || n > 64)
		return 2;
	for (int i = 0; i < n; i++)
		if (pthread_create(&t, NULL, sleeper, &tids[i]) != 0)
			return 1;
	pthread_mutex_lock(&tid_lock);
	while (tids_seen < n)
		pthread_cond_wait(&tid_cond, &tid_lock);
	pthread_mutex_unlock(&tid_lock);
	printf("%d", (int)getpid());
	for (int i = 0; i < n; i++)
		printf(" %d", (int)tids[i]);
	printf("\n");
	fflush(stdout);
	sleep((unsigned)atoi(secs));
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "threads") == 0)
		return threads(atoi(argv[2]), argv[3]);
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
