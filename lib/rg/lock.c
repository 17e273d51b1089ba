// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The locks of the tools that change a hierarchy (kattr/rgplan.h): an
 * exclusive flock(2), waited for in 20 ms polls up to a bound (a caller's
 * stop hook ends the wait early), whose holder is named from /proc/locks.
 * Two objects are locked: the hierarchy's root directory (the apply lock,
 * kattr_rg_lock(): every command that changes the groups), and a file
 * of a run-state directory (kattr_lock_file(): the classify daemon's,
 * held for its life).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "kattr/private_rg.h"

/* The pid holding a flock on fd's inode, from /proc/locks (0: unknown). */
static pid_t lock_holder(const struct kattr_root *root, int fd)
{
	unsigned int maj, min;
	unsigned long long ino;
	struct stat st;
	char *text, *line, *save = NULL;
	pid_t holder = 0;

	if (fstat(fd, &st) < 0 || kattr_root_file_read(root, "/proc/locks", &text, NULL) < 0)
		return 0;
	for (line = strtok_r(text, "\n", &save); line && !holder;
	     line = strtok_r(NULL, "\n", &save)) {
		int pid;

		if (strstr(line, "->"))
			continue;	/* a waiter */
		if (sscanf(line, "%*s FLOCK %*s %*s %d %x:%x:%llu", &pid, &maj, &min, &ino) == 4 &&
		    makedev(maj, min) == st.st_dev && ino == (unsigned long long)st.st_ino &&
		    pid != getpid())
			holder = pid;
	}
	free(text);
	return holder;
}

static long long ms_since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (long long)(now.tv_sec - t0->tv_sec) * 1000 +
	       (now.tv_nsec - t0->tv_nsec) / 1000000;
}

int kattr_lock_wait(const struct kattr_root *root, int fd, unsigned int wait_ms,
		    int (*stop)(void *arg), void *arg, pid_t *holder)
{
	struct timespec start;
	int e;

	if (holder)
		*holder = 0;
	clock_gettime(CLOCK_MONOTONIC, &start);
	while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		e = errno;
		if (e == EINTR)
			continue;
		if (e == EWOULDBLOCK && stop && stop(arg))
			return -EINTR;
		if (e == EWOULDBLOCK && ms_since(&start) < (long long)wait_ms) {
			usleep(20000);
			continue;
		}
		if (e == EWOULDBLOCK && holder)
			*holder = lock_holder(root, fd);
		return -e;
	}
	return 0;
}

int kattr_rg_lock_wait(struct kattr_rg *rg, unsigned int wait_ms,
		       int (*stop)(void *arg), void *arg, pid_t *holder)
{
	int fd, ret;

	if (holder)
		*holder = 0;
	fd = kattr_rg_group_open(rg, "/", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fd;
	ret = kattr_lock_wait(kattr_rg_root_handle(rg), fd, wait_ms, stop, arg, holder);
	if (ret < 0) {
		close(fd);
		return ret;
	}
	return fd;
}

int kattr_rg_lock(struct kattr_rg *rg, unsigned int wait_ms, pid_t *holder)
{
	return kattr_rg_lock_wait(rg, wait_ms, NULL, NULL, holder);
}

/* The pid a lock file holds (its first line), 0 if none. */
static pid_t file_pid(int fd)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	long pid;

	buf[n > 0 ? n : 0] = '\0';
	pid = strtol(buf, NULL, 10);
	return pid > 0 && pid <= 0x7fffffff ? (pid_t)pid : 0;
}

int kattr_lock_file(const struct kattr_root *root, int dir, const char *name,
		    unsigned int wait_ms, pid_t *holder)
{
	struct stat st;
	int fd, ret;

	if (holder)
		*holder = 0;
	/* O_NONBLOCK: a FIFO planted there is opened, not waited on */
	fd = openat(dir, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0644);
	if (fd < 0)
		return -errno;
	ret = fstat(fd, &st) < 0 ? -errno : !S_ISREG(st.st_mode) ? -EINVAL : 0;
	if (ret < 0) {
		close(fd);
		return ret;
	}
	ret = kattr_lock_wait(root, fd, wait_ms, NULL, NULL, holder);
	if (ret == -EWOULDBLOCK && holder && !*holder)
		*holder = file_pid(fd);
	if (ret < 0) {
		close(fd);
		return ret;
	}
	return fd;
}
