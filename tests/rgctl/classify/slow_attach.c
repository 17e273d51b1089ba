/* LD_PRELOAD shim for the tests: holds a move between two hierarchies,
 * at a point the test controls.  After a write(2) of pid P to a member
 * file (cgroup.procs, tasks) beneath $RGD_HOLD_AT (a v1 mount: the one
 * written first, the daemon's --root), when the fifo $RGD_HOLD_DIR/hold.P
 * exists: it is removed (P is held once), a byte is written to it (which
 * wakes the process or test that waits on it) and the write returns only
 * once $RGD_HOLD_DIR/go.P exists (at most 10 s).  So a process forked
 * while P is held is in the new group in the first hierarchy and in the
 * old one in the others: a half-done move, every time. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static ssize_t (*real_write)(int, const void *, size_t);

static int member_file(int fd, const char *at)
{
	char link[64], path[4096];
	ssize_t n;
	const char *base;
	size_t len = strlen(at);

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n <= 0)
		return 0;
	path[n] = '\0';
	if (strncmp(path, at, len) != 0 || path[len] != '/')
		return 0;
	base = strrchr(path, '/') + 1;
	return strcmp(base, "cgroup.procs") == 0 || strcmp(base, "tasks") == 0;
}

static void pause_ms(long ms)
{
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&t, NULL);
}

static void hold(const char *dir, const void *buf, size_t len)
{
	char pid[16], hold[4096], go[4096];
	struct stat st;
	size_t n = 0;
	int fd = -1;

	while (n < len && n < sizeof(pid) - 1 && ((const char *)buf)[n] >= '0' &&
	       ((const char *)buf)[n] <= '9') {
		pid[n] = ((const char *)buf)[n];
		n++;
	}
	pid[n] = '\0';
	if (!n)
		return;
	snprintf(hold, sizeof(hold), "%s/hold.%s", dir, pid);
	snprintf(go, sizeof(go), "%s/go.%s", dir, pid);
	if (lstat(hold, &st) < 0 || !S_ISFIFO(st.st_mode))
		return;
	for (int i = 0; i < 10000 && fd < 0; i++) {
		fd = open(hold, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0 && errno != ENXIO)	/* ENXIO: no reader yet */
			break;
		if (fd < 0)
			pause_ms(1);
	}
	unlink(hold);
	if (fd < 0)
		return;
	if (real_write(fd, "x\n", 2) < 0)
		fprintf(stderr, "slow_attach: %s: %s\n", hold, strerror(errno));
	close(fd);
	for (int i = 0; i < 10000 && access(go, F_OK) < 0; i++)
		pause_ms(1);
}

ssize_t write(int fd, const void *buf, size_t len)
{
	const char *at = getenv("RGD_HOLD_AT"), *dir = getenv("RGD_HOLD_DIR");
	ssize_t r;

	if (!real_write)
		real_write = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	r = real_write(fd, buf, len);
	if (r > 0 && at && dir && member_file(fd, at))
		hold(dir, buf, (size_t)r);
	return r;
}
