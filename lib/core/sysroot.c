// SPDX-License-Identifier: LGPL-2.1-or-later
/* The sysroot prefix: every absolute path the library opens lives under it. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kattr/kattr.h"
#include "kattr/private.h"
#include "internal.h"

static char sysroot[PATH_MAX];

int kattr_set_sysroot(const char *dir)
{
	char real[PATH_MAX];
	struct stat st;

	if (!dir || !*dir) {
		sysroot[0] = '\0';
		return 0;
	}
	if (!realpath(dir, real))
		return -errno;
	if (stat(real, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	/* "/" as a sysroot is the same as none. */
	if (strcmp(real, "/") == 0)
		real[0] = '\0';
	memcpy(sysroot, real, strlen(real) + 1);
	return 0;
}

const char *kattr_get_sysroot(void)
{
	return sysroot[0] ? sysroot : NULL;
}

int kattr_sysroot_from_env(void)
{
	const char *env = getenv(KATTR_SYSROOT_ENV);

	if (!env || !*env)
		return 0;
	return kattr_set_sysroot(env);
}

int kattr_sysroot_path(const char *path, char *buf, size_t size)
{
	int n;

	if (!path || path[0] != '/')
		return -EINVAL;
	n = snprintf(buf, size, "%s%s", sysroot, path);
	if (n < 0 || (size_t)n >= size)
		return -ENAMETOOLONG;
	return 0;
}

/* ---- resolving beneath the sysroot ---------------------------------------- */

/* The sysroot's directory, "/" when none is set. */
static int open_root(void)
{
	int fd = open(sysroot[0] ? sysroot : "/",
		      O_PATH | O_DIRECTORY | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/* Open the canonical directory canon ("" is the root) again from rootfd. */
static int reopen_canon(int rootfd, const char *canon)
{
	char buf[PATH_MAX], *comp, *save;
	struct stat st;
	int dfd, fd;

	if (strlen(canon) >= sizeof(buf))
		return -ENAMETOOLONG;
	strcpy(buf, canon);
	dfd = fcntl(rootfd, F_DUPFD_CLOEXEC, 0);
	if (dfd < 0)
		return -errno;
	for (comp = strtok_r(buf, "/", &save); comp;
	     comp = strtok_r(NULL, "/", &save)) {
		fd = openat(dfd, comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		close(dfd);
		if (fd < 0)
			return -errno;
		/* A component turned into a symlink under us: give up. */
		if (fstat(fd, &st) < 0 || !S_ISDIR(st.st_mode)) {
			close(fd);
			return -ELOOP;
		}
		dfd = fd;
	}
	return dfd;
}

/*
 * The fallback of openat2(RESOLVE_IN_ROOT): walk path one component at a
 * time from rootfd, never following a symlink or ".." above the root (an
 * absolute symlink restarts at the root, ".." at the root stays there, as
 * in a chroot).  canon (if not NULL) receives the path reached, inside
 * the root.
 */
static int walk_in_root(int rootfd, const char *path, int flags, char *canon,
			size_t csize)
{
	char *rest = malloc(2 * PATH_MAX), *tmp = malloc(2 * PATH_MAX);
	char name[NAME_MAX + 1], link[PATH_MAX], cbuf[PATH_MAX];
	size_t clen = 0, len;
	int dfd = -1, fd = -1, links = 0, ret;
	struct stat st;
	const char *p;
	ssize_t n;

	if (!rest || !tmp) {
		ret = -ENOMEM;
		goto out;
	}
	if (strlen(path) >= 2 * PATH_MAX) {
		ret = -ENAMETOOLONG;
		goto out;
	}
	strcpy(rest, path);
	cbuf[0] = '\0';
	dfd = fcntl(rootfd, F_DUPFD_CLOEXEC, 0);
	if (dfd < 0) {
		ret = -errno;
		goto out;
	}
	p = rest;
	for (;;) {
		const char *comp, *next;
		bool last;

		while (*p == '/')
			p++;
		if (!*p) {	/* the path names a directory already open */
			fd = openat(dfd, ".", flags | O_CLOEXEC);
			ret = fd < 0 ? -errno : 0;
			break;
		}
		comp = p;
		len = strcspn(p, "/");
		for (next = p + len; *next == '/'; next++)
			;
		last = !*next;
		p = next;
		if (len == 1 && comp[0] == '.')
			continue;
		if (len == 2 && comp[0] == '.' && comp[1] == '.') {
			char *slash = strrchr(cbuf, '/');

			if (!clen)
				continue;	/* ".." of the root is the root */
			*slash = '\0';
			clen = (size_t)(slash - cbuf);
			close(dfd);
			dfd = reopen_canon(rootfd, cbuf);
			if (dfd < 0) {
				ret = dfd;
				break;
			}
			if (last) {
				fd = openat(dfd, ".", flags | O_CLOEXEC);
				ret = fd < 0 ? -errno : 0;
				break;
			}
			continue;
		}
		if (len > NAME_MAX) {
			ret = -ENAMETOOLONG;
			break;
		}
		memcpy(name, comp, len);
		name[len] = '\0';
		fd = openat(dfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st) < 0) {
			ret = -errno;
			break;
		}
		if (S_ISLNK(st.st_mode)) {
			n = readlinkat(fd, "", link, sizeof(link) - 1);
			close(fd);
			fd = -1;
			if (n < 0) {
				ret = -errno;
				break;
			}
			if (++links > 40) {
				ret = -ELOOP;
				break;
			}
			link[n] = '\0';
			if ((size_t)n + 1 + strlen(p) + 1 > 2 * PATH_MAX) {
				ret = -ENAMETOOLONG;
				break;
			}
			/* The rest of the path continues from the target. */
			len = (size_t)n;
			memcpy(tmp, link, len);
			tmp[len] = '/';
			strcpy(tmp + len + 1, p);
			strcpy(rest, tmp);
			p = rest;
			if (link[0] == '/') {
				close(dfd);
				dfd = fcntl(rootfd, F_DUPFD_CLOEXEC, 0);
				if (dfd < 0) {
					ret = -errno;
					break;
				}
				clen = 0;
				cbuf[0] = '\0';
			}
			continue;
		}
		if (clen + 1 + len >= sizeof(cbuf)) {
			ret = -ENAMETOOLONG;
			break;
		}
		cbuf[clen++] = '/';
		memcpy(cbuf + clen, name, len + 1);
		clen += len;
		if (last) {
			close(fd);
			/* O_NOFOLLOW: a symlink planted since the check fails. */
			fd = openat(dfd, name, flags | O_NOFOLLOW | O_CLOEXEC);
			ret = fd < 0 ? -errno : 0;
			if (fd >= 0 && (flags & O_PATH) &&
			    (fstat(fd, &st) < 0 || S_ISLNK(st.st_mode)))
				ret = -ELOOP;
			break;
		}
		if (!S_ISDIR(st.st_mode)) {
			ret = -ENOTDIR;
			break;
		}
		close(dfd);
		dfd = fd;
		fd = -1;
	}
	if (ret == 0 && canon) {
		if (snprintf(canon, csize, "%s", clen ? cbuf : "/") >= (int)csize)
			ret = -ENAMETOOLONG;
	}
out:
	if (dfd >= 0)
		close(dfd);
	if (ret < 0 && fd >= 0)
		close(fd);
	free(rest);
	free(tmp);
	return ret < 0 ? ret : fd;
}

int kattr_sysroot_open(const char *path, int flags)
{
	int rootfd, fd;

	if (!path || path[0] != '/')
		return -EINVAL;
	if (!sysroot[0]) {
		fd = open(path, flags | O_CLOEXEC);
		return fd < 0 ? -errno : fd;
	}
	rootfd = open_root();
	if (rootfd < 0)
		return rootfd;
	fd = kattr_openat2(rootfd, path, flags,
			   RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS);
	if (fd == -ENOSYS)
		fd = walk_in_root(rootfd, path, flags, NULL, 0);
	close(rootfd);
	return fd;
}

int kattr_sysroot_canonical(const char *path, char **out)
{
	char real[PATH_MAX];
	int rootfd, fd;

	if (!path || path[0] != '/')
		return -EINVAL;
	if (!sysroot[0]) {
		if (!realpath(path, real))
			return -errno;
	} else {
		rootfd = open_root();
		if (rootfd < 0)
			return rootfd;
		fd = walk_in_root(rootfd, path, O_PATH, real, sizeof(real));
		close(rootfd);
		if (fd < 0)
			return fd;
		close(fd);
	}
	*out = strdup(real);
	return *out ? 0 : -ENOMEM;
}
