/*
 * Processes for the rgctl classify/stats tests (not a test itself):
 *   task_helper spin SECONDS             burn CPU
 *   task_helper setuid UID MS SECONDS    sleep MS, become UID, sleep SECONDS
 *   task_helper tree SECONDS             fork a child that execs
 *                                       "sleep SECONDS" at once, print its
 *                                       pid, then sleep SECONDS
 *   task_helper storm SHORT LONG PROG SECONDS
 *       start SHORT short-lived processes (fork, exit) while LONG
 *       long-lived ones exec "PROG tree SECONDS"; print the pid of every
 *       long-lived process and of each one's child, one per line, and
 *       exit once all have reported.
 *   task_helper runs N WANT PROG [ARGS...]
 *       run PROG N times, one after the other, each with its standard
 *       output in a pipe; print how many printed a line ending in
 *       ":WANT" (selfcg's /proc/self/cgroup: in group WANT)
 *   task_helper execs N PROG             run PROG (no arguments) N times
 *   task_helper threads N SECONDS        start N threads besides the main
 *                                       one, print every thread id (main
 *                                       first) on one line, sleep SECONDS
 *   task_helper rtree SEED DEPTH GROUP FD SECONDS MATCHED
 *       one node of a random process tree (see rtree() below): the shape
 *       follows from SEED alone, so a failing seed reproduces.  Every
 *       long-lived process writes "PID GROUP" to FD, GROUP being the group
 *       it must end in (a subreaper adds " reaper"); RGD_TREE_PROGS names
 *       the programs exec chains use.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
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
		perror("task_helper tree: fork");
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
				perror("task_helper storm: exec");
				_exit(127);
			}
			if (p < 0) {
				perror("task_helper storm: fork");
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

/* Whether buf (n bytes of lines) has a line ending in ":want". */
static int has_line(const char *buf, size_t n, const char *want)
{
	size_t wl = strlen(want);

	for (size_t i = 0; i < n;) {
		const char *nl = memchr(buf + i, '\n', n - i);
		size_t end = nl ? (size_t)(nl - buf) : n;

		if (end - i > wl && buf[end - wl - 1] == ':' &&
		    memcmp(buf + end - wl, want, wl) == 0)
			return 1;
		i = end + 1;
	}
	return 0;
}

static int runs(int n, const char *want, char **argv)
{
	int hits = 0;

	for (int i = 0; i < n; i++) {
		char buf[8192];
		size_t len = 0;
		ssize_t got;
		int fds[2];
		pid_t p;

		if (pipe(fds) < 0 || (p = xfork()) < 0)
			return 1;
		if (p == 0) {
			dup2(fds[1], STDOUT_FILENO);
			close(fds[0]);
			close(fds[1]);
			execv(argv[0], argv);
			_exit(127);
		}
		close(fds[1]);
		while (len < sizeof(buf) &&
		       (got = read(fds[0], buf + len, sizeof(buf) - len)) > 0)
			len += (size_t)got;
		close(fds[0]);
		waitpid(p, NULL, 0);
		hits += has_line(buf, len, want);
	}
	printf("%d\n", hits);
	return 0;
}

static int execs(int n, const char *prog)
{
	for (int i = 0; i < n; i++) {
		pid_t p = xfork();

		if (p < 0)
			return 1;
		if (p == 0) {
			execl(prog, prog, (char *)NULL);
			_exit(127);
		}
		waitpid(p, NULL, 0);
	}
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

/* ---- random process trees ------------------------------------------- */

/* splitmix64: the next number of *s */
static uint64_t rnd(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

struct node {
	uint64_t seed;
	int depth;
	char group[64];
	int fd;
	const char *secs;
	int matched;		/* a rule matches its program: stays alive */
};

static void node_run(struct node n) __attribute__((noreturn));

/* Become node n in a new program: one of RGD_TREE_PROGS (T:O:plain). */
static void node_exec(struct node n, int which) __attribute__((noreturn));
static void node_exec(struct node n, int which)
{
	char *progs = getenv("RGD_TREE_PROGS"), *p[3] = { 0 }, *save = NULL;
	char seed[32], depth[16], fd[16], matched[4];

	if (!progs)
		_exit(126);
	progs = strdup(progs);
	p[0] = strtok_r(progs, ":", &save);
	p[1] = strtok_r(NULL, ":", &save);
	p[2] = strtok_r(NULL, ":", &save);
	if (!p[0] || !p[1] || !p[2])
		_exit(126);
	/* The rule of the program run decides; a plain one keeps the group. */
	n.matched = which != 2;
	if (which == 0)
		snprintf(n.group, sizeof(n.group), "tree");
	else if (which == 1)
		snprintf(n.group, sizeof(n.group), "other");
	snprintf(seed, sizeof(seed), "%llu", (unsigned long long)n.seed);
	snprintf(depth, sizeof(depth), "%d", n.depth);
	snprintf(fd, sizeof(fd), "%d", n.fd);
	snprintf(matched, sizeof(matched), "%d", n.matched);
	execl(p[which], p[which], "rtree", seed, depth, n.group, fd, n.secs,
	      matched, (char *)NULL);
	_exit(127);
}

static void *idle_thread(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

struct tfork {
	struct node n;
};

/* A thread that forks the child (the child has only this thread). */
static void *forking_thread(void *arg)
{
	struct tfork *t = arg;

	if (xfork() == 0)
		node_run(t->n);
	return NULL;
}

enum kind { K_FORK, K_DOUBLE, K_SETSID, K_THREAD, K_EXEC, K_SUBREAPER, K_KINDS };

static void child_of(struct node *parent, uint64_t *s, enum kind k)
{
	struct node c = *parent;

	c.seed = rnd(s);
	c.depth = parent->depth - 1;
	c.matched = 0;
	switch (k) {
	case K_FORK:
		if (xfork() == 0)
			node_run(c);
		break;
	case K_DOUBLE:		/* the middle exits at once: c is orphaned */
		if (xfork() == 0) {
			if (xfork() == 0)
				node_run(c);
			_exit(0);
		}
		break;
	case K_SETSID:
		if (xfork() == 0) {
			setsid();
			node_run(c);
		}
		break;
	case K_THREAD: {
		struct tfork t = { c };
		pthread_t th;

		if (pthread_create(&th, NULL, forking_thread, &t) == 0)
			pthread_join(th, NULL);
		break;
	}
	case K_EXEC:		/* a chain of one to three programs */
		if (xfork() == 0) {
			uint64_t s2 = c.seed;
			int more = (int)(rnd(&s2) % 3);

			c.depth = -(c.depth * 8 + more) - 1;
			node_exec(c, more ? 2 : (int)(rnd(&s2) % 3));
		}
		break;
	case K_SUBREAPER:	/* a subreaper whose grandchild is orphaned */
		if (xfork() == 0) {
			struct node m = c;

			prctl(PR_SET_CHILD_SUBREAPER, 1);
			m.depth = 1;
			dprintf(c.fd, "%d %s reaper\n", (int)getpid(), c.group);
			child_of(&m, &c.seed, K_DOUBLE);
			sleep((unsigned)atoi(c.secs));
			_exit(0);
		}
		break;
	default:
		break;
	}
}

/*
 * A node: a depth below 0 is an exec chain still to run (-1 - 8*D - L:
 * L more programs, then a node of depth D).  The programs of a chain but
 * the last match no rule (a rule is only promised to see a program that
 * stays).  A node reports itself unless it exits early (then its children
 * are orphaned; never one a rule matched: it must stay to be seen), may
 * start idle threads, and makes up to three children of random kinds.
 */
static void node_run(struct node n)
{
	uint64_t s = n.seed;
	int kids, early;

	if (n.depth < 0) {
		int v = -n.depth - 1, left = v % 8;

		n.depth = v / 8;
		n.seed = rnd(&s);
		if (left > 0) {
			n.depth = -(n.depth * 8 + left - 1) - 1;
			node_exec(n, left > 1 ? 2 : (int)(rnd(&s) % 3));
		}
	}
	signal(SIGCHLD, SIG_IGN);
	early = n.depth > 0 && !n.matched && rnd(&s) % 4 == 0;
	kids = n.depth > 0 ? (int)(rnd(&s) % 4) : 0;
	for (int i = 0; i < kids; i++)
		child_of(&n, &s, (enum kind)(rnd(&s) % K_KINDS));
	if (early)
		_exit(0);
	/* Idle threads after the forks: only K_THREAD forks from a process
	 * with several threads (sanitizer runtimes may deadlock in others). */
	for (int i = (int)(rnd(&s) % 3); i > 0; i--) {
		pthread_t th;

		if (pthread_create(&th, NULL, idle_thread, NULL) == 0)
			pthread_detach(th);
	}
	dprintf(n.fd, "%d %s\n", (int)getpid(), n.group);
	sleep((unsigned)atoi(n.secs));
	_exit(0);
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
	if (argc == 8 && strcmp(argv[1], "rtree") == 0) {
		struct node n = {
			.seed = strtoull(argv[2], NULL, 10), .depth = atoi(argv[3]),
			.fd = atoi(argv[5]), .secs = argv[6], .matched = atoi(argv[7]),
		};

		snprintf(n.group, sizeof(n.group), "%s", argv[4]);
		node_run(n);
	}
	if (argc == 6 && strcmp(argv[1], "storm") == 0)
		return storm(atoi(argv[2]), atoi(argv[3]), argv[4], argv[5]);
	if (argc >= 5 && strcmp(argv[1], "runs") == 0)
		return runs(atoi(argv[2]), argv[3], argv + 4);
	if (argc == 4 && strcmp(argv[1], "execs") == 0)
		return execs(atoi(argv[2]), argv[3]);
	fprintf(stderr, "usage: see the source\n");
	return 2;
}
