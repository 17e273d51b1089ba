/* LD_PRELOAD shim for the tests: every write(2) to a cgroup v1 member
 * file (cgroup.procs, tasks) is followed by $RGD_SLOW_ATTACH_US
 * microseconds of sleep (default 3000), so that a move through several
 * hierarchies takes long enough for the process moved to fork in the
 * middle of it (the child in the new group in the hierarchies written
 * before its fork, the old one in the others). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static ssize_t (*real_write)(int, const void *, size_t);

static int member_file(int fd)
{
	char link[64], path[4096];
	ssize_t n;
	const char *base;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n <= 0)
		return 0;
	path[n] = '\0';
	if (strncmp(path, "/sys/fs/cgroup/", 15) != 0)
		return 0;
	base = strrchr(path, '/') + 1;
	return strcmp(base, "cgroup.procs") == 0 || strcmp(base, "tasks") == 0;
}

ssize_t write(int fd, const void *buf, size_t len)
{
	ssize_t r;

	if (!real_write)
		real_write = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	r = real_write(fd, buf, len);
	if (r > 0 && member_file(fd)) {
		const char *e = getenv("RGD_SLOW_ATTACH_US");
		long us = e ? strtol(e, NULL, 10) : 3000;
		struct timespec t = { us / 1000000, (us % 1000000) * 1000 };

		nanosleep(&t, NULL);
	}
	return r;
}
