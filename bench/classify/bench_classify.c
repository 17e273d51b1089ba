/*
 * Driver for bench/classify/run.sh (one binary, several roles):
 *
 *   bench_classify latency N TARGET CGPATH [RAWFILE]
 *       N times, one after the other: fork, exec TARGET (a copy of this
 *       binary under the name a rule matches) in "wait" mode, which polls
 *       /proc/self/cgroup until its cpu line reads CGPATH and reports how
 *       long after the exec call that was.  Prints the distribution and
 *       appends each latency in ns (-1: not within 2 s) to RAWFILE.
 *   bench_classify storm SHORT LONG TARGET CGPATH SETTLE_MS
 *       SHORT short-lived processes (fork, exit) while LONG long-lived
 *       ones exec TARGET in "tree" mode (each forks a child at once that
 *       execs sleep: the fork race); after SETTLE_MS counts the processes
 *       not in CGPATH.
 *   bench_classify execs N PROG
 *       N times, one after the other: fork, exec PROG (no arguments),
 *       wait; prints the elapsed ns (the exec storm whose cost a daemon
 *       adds).
 *   (wait T0_NS CGPATH | tree SECS): the TARGET roles; "wait" also says
 *   whether its first look found it in CGPATH already (placed at exec).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TIMEOUT_NS (2000000000LL)

static int64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* Whether process pid ("self" when 0) is in the cpu group cgpath. */
static int in_group(pid_t pid, const char *cgpath)
{
	char path[64], buf[4096];
	size_t want = strlen(cgpath);
	ssize_t n;
	int fd;

	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)pid);
	else
		snprintf(path, sizeof(path), "/proc/self/cgroup");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	for (char *line = buf; line && *line;) {
		char *nl = strchr(line, '\n'), *c1, *c2;

		if (nl)
			*nl = '\0';
		c1 = strchr(line, ':');
		c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (c2) {
			*c2 = '\0';
			/* the controller list holds "cpu" */
			char *ctl = c1 + 1, *tok, *save;

			for (tok = strtok_r(ctl, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
				if (strcmp(tok, "cpu") == 0)
					return strlen(c2 + 1) == want && strcmp(c2 + 1, cgpath) == 0;
		}
		line = nl ? nl + 1 : NULL;
	}
	return 0;
}

static int role_wait(const char *t0s, const char *cgpath)
{
	int64_t t0 = atoll(t0s), tmain = now_ns(), t;
	int first = in_group(0, cgpath) == 1;

	for (;;) {
		t = now_ns();
		if (in_group(0, cgpath) == 1)
			break;
		if (t - t0 > TIMEOUT_NS) {
			printf("-1 -1 0\n");
			return 0;
		}
	}
	/* from the exec call, from this program's first instructions, and
	 * whether it was in its group when it first looked */
	printf("%lld %lld %d\n", (long long)(t - t0), (long long)(t - tmain), first);
	return 0;
}

static int role_tree(const char *secs)
{
	pid_t c = fork();

	if (c < 0)
		return 1;
	if (c == 0) {
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0)
			dup2(null, STDOUT_FILENO);
		execlp("sleep", "sleep", secs, (char *)NULL);
		_exit(127);
	}
	printf("%d %d\n", (int)getpid(), (int)c);
	fflush(stdout);
	if (!freopen("/dev/null", "w", stdout))
		return 1;
	sleep((unsigned)atoi(secs));
	kill(c, SIGTERM);
	waitpid(c, NULL, 0);
	return 0;
}

static int cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

static int latency(int n, const char *target, const char *cgpath,
		   const char *raw)
{
	FILE *rf = raw ? fopen(raw, "a") : NULL;

	int64_t *v = calloc((size_t)n, sizeof(*v));
	int64_t *m = calloc((size_t)n, sizeof(*m));
	int got = 0, timeouts = 0, outside = 0;

	if (!v || !m)
		return 1;
	for (int i = 0; i < n; i++) {
		int fds[2];
		char t0[32], line[64];
		FILE *f;
		pid_t p;

		if (pipe(fds) < 0)
			return 1;
		p = fork();
		if (p == 0) {
			dup2(fds[1], STDOUT_FILENO);
			close(fds[0]);
			close(fds[1]);
			snprintf(t0, sizeof(t0), "%lld", (long long)now_ns());
			execl(target, target, "wait", t0, cgpath, (char *)NULL);
			_exit(127);
		}
		close(fds[1]);
		f = fdopen(fds[0], "r");
		if (f && fgets(line, sizeof(line), f)) {
			long long ns = -1, ms = -1;
			int first = 0;

			if (sscanf(line, "%lld %lld %d", &ns, &ms, &first) != 3 || ns < 0)
				ns = -1;
			outside += !first;
			if (rf)
				fprintf(rf, "%lld %d\n", ns, first);
			if (ns < 0) {
				timeouts++;
			} else {
				m[got] = ms;
				v[got++] = ns;
			}
		}
		if (f)
			fclose(f);
		waitpid(p, NULL, 0);
		usleep(2000);
	}
	qsort(v, (size_t)got, sizeof(*v), cmp64);
	qsort(m, (size_t)got, sizeof(*m), cmp64);
	if (got)
		printf("execs %d classified %d timeouts(>2s) %d | from exec(): median_us %.1f p90_us %.1f p99_us %.1f max_us %.1f"
		       " | from main(): median_us %.1f p99_us %.1f | ran_outside %d\n",
		       n, got, timeouts, v[got / 2] / 1e3, v[(got * 90) / 100] / 1e3,
		       v[(got * 99) / 100] / 1e3, v[got - 1] / 1e3,
		       m[got / 2] / 1e3, m[(got * 99) / 100] / 1e3, outside);
	else
		printf("execs %d classified 0 timeouts(>2s) %d median_us - p90_us - p99_us - max_us -\n",
		       n, timeouts);
	free(v);
	free(m);
	if (rf)
		fclose(rf);
	return 0;
}

static int storm(int nshort, int nlong, const char *target, const char *cgpath,
		 int settle_ms)
{
	int every = nlong ? nshort / nlong + 1 : nshort + 1;
	int started = 0, fds[2], np = 0, miss_parent = 0, miss_child = 0;
	pid_t (*pairs)[2] = calloc((size_t)nlong + 1, sizeof(*pairs));
	int64_t t0 = now_ns();
	FILE *f;

	if (!pairs || pipe(fds) < 0)
		return 1;
	signal(SIGCHLD, SIG_IGN);
	for (int i = 0; i < nshort || started < nlong; i++) {
		pid_t p;

		if (started < nlong && i % every == 0) {
			p = fork();
			if (p == 0) {
				dup2(fds[1], STDOUT_FILENO);
				close(fds[0]);
				close(fds[1]);
				execl(target, target, "tree", "60", (char *)NULL);
				_exit(127);
			}
			if (p > 0)
				started++;
		}
		if (i < nshort && fork() == 0)
			_exit(0);
	}
	close(fds[1]);
	f = fdopen(fds[0], "r");
	while (f && np < nlong && fscanf(f, "%d %d", &pairs[np][0], &pairs[np][1]) == 2)
		np++;
	if (f)
		fclose(f);
	int64_t t1 = now_ns();
	usleep((useconds_t)settle_ms * 1000);
	for (int i = 0; i < np; i++) {
		if (in_group(pairs[i][0], cgpath) != 1)
			miss_parent++;
		if (in_group(pairs[i][1], cgpath) != 1)
			miss_child++;
		kill(pairs[i][0], SIGKILL);
		kill(pairs[i][1], SIGKILL);
	}
	printf("short %d long %d reported %d storm_ms %.0f missed_matching %d missed_children %d\n",
	       nshort, nlong, np, (t1 - t0) / 1e6, miss_parent, miss_child);
	free(pairs);
	return 0;
}

static int execs(int n, const char *prog)
{
	int64_t t0 = now_ns();

	for (int i = 0; i < n; i++) {
		pid_t p = fork();

		if (p < 0)
			return 1;
		if (p == 0) {
			execl(prog, prog, (char *)NULL);
			_exit(127);
		}
		waitpid(p, NULL, 0);
	}
	printf("%lld\n", (long long)(now_ns() - t0));
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "execs") == 0)
		return execs(atoi(argv[2]), argv[3]);
	if (argc == 4 && strcmp(argv[1], "wait") == 0)
		return role_wait(argv[2], argv[3]);
	if (argc == 3 && strcmp(argv[1], "tree") == 0)
		return role_tree(argv[2]);
	if ((argc == 5 || argc == 6) && strcmp(argv[1], "latency") == 0)
		return latency(atoi(argv[2]), argv[3], argv[4], argc == 6 ? argv[5] : NULL);
	if (argc == 7 && strcmp(argv[1], "storm") == 0)
		return storm(atoi(argv[2]), atoi(argv[3]), argv[4], argv[5], atoi(argv[6]));
	fprintf(stderr, "usage: see the source of bench_classify\n");
	return 2;
}
