// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The /proc pid walker (processes, or the threads of one), the pid
 * vector helpers built on it, and the pid parser.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kattr/private_proc.h"

int kattr_rg_parse_pid(const char *s, pid_t *out)
{
	long long v;
	int ret;

	if (!s || !*s || s[0] == '0')
		return -EINVAL;
	ret = kattr_parse_ll(s, strlen(s), false, &v);
	if (ret < 0)
		return ret;
	if (v > INT_MAX)
		return -ERANGE;
	*out = (pid_t)v;
	return 0;
}

/* ---- tasks ---------------------------------------------------------------- */

int kattr_proc_foreach(pid_t pid, int (*cb)(pid_t id, void *data),
			  void *data)
{
	return kattr_proc_foreach_at(NULL, pid, cb, data);
}

int kattr_proc_foreach_at(const struct kattr_root *root, pid_t pid,
			  int (*cb)(pid_t id, void *data), void *data)
{
	char rel[64];
	struct dirent *de;
	int fd, ret = 0;
	DIR *d;

	if (pid)
		snprintf(rel, sizeof(rel), "/proc/%d/task", (int)pid);
	/* Resolved beneath the sysroot, like every /proc/PID file read: a
	 * symlink planted in a captured tree is never followed out of it. */
	fd = kattr_root_open_path(root, pid ? rel : "/proc", O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return fd == -ENOENT && pid ? -ESRCH : fd;
	d = fdopendir(fd);
	if (!d) {
		ret = -errno;
		close(fd);
		return ret;
	}
	while (ret == 0 && (de = readdir(d))) {
		pid_t id;

		if (kattr_rg_parse_pid(de->d_name, &id) == 0)
			ret = cb(id, data);
	}
	closedir(d);
	return ret;
}

int kattr_pid_vec_add(pid_t id, void *data)
{
	struct kattr_pid_vec *pv = data;

	if (kattr_grow((void **)&pv->v, &pv->cap, pv->n, sizeof(*pv->v)) < 0)
		return -ENOMEM;
	pv->v[pv->n++] = id;
	return 0;
}

/* The thread ids of process pid, from /proc/PID/task. */
int kattr_proc_tids(const struct kattr_root *root, pid_t pid, pid_t **tids,
		    size_t *n)
{
	struct kattr_pid_vec pv = { 0 };
	int ret = kattr_proc_foreach_at(root, pid, kattr_pid_vec_add, &pv);

	if (ret == 0 && pv.n == 0)
		ret = -ESRCH;
	if (ret < 0) {
		free(pv.v);
		return ret;
	}
	*tids = pv.v;
	*n = pv.n;
	return 0;
}

bool kattr_pid_in(const pid_t *v, size_t n, pid_t p)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == p)
			return true;
	return false;
}
