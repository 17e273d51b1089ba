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

/* Where walk_in_root() is. */
struct walk {
	int rootfd;
	int dfd;		/* the directory reached (owned, or -errno) */
	char *rest;		/* the path still to walk (2 * PATH_MAX bytes) */
	const char *p;		/* its next component */
	char canon[PATH_MAX];	/* the directory reached, from the root */
	size_t clen;		/* (0: the root itself) */
	int links;		/* symlinks followed so far */
};

/* ".." from the directory reached: its parent, and the root's is the root. */
static int walk_up(struct walk *w)
{
	char *slash = strrchr(w->canon, '/');

	if (!w->clen)
		return 0;
	*slash = '\0';
	w->clen = (size_t)(slash - w->canon);
	close(w->dfd);
	w->dfd = kattr_walk_dirs(w->rootfd, w->canon, NULL);
	return w->dfd < 0 ? w->dfd : 0;
}

/*
 * Go on through the symlink fd (closed here): its target, then the rest
 * of the path; an absolute target starts again at the root.
 */
static int walk_link(struct walk *w, int fd)
{
	char link[PATH_MAX];
	ssize_t n = readlinkat(fd, "", link, sizeof(link) - 1);
	size_t rest = strlen(w->p);
	int err = n < 0 ? -errno : 0;

	close(fd);
	if (err < 0)
		return err;
	if (++w->links > 40)
		return -ELOOP;
	if ((size_t)n + 1 + rest + 1 > 2 * PATH_MAX)
		return -ENAMETOOLONG;
	memmove(w->rest + n + 1, w->p, rest + 1);
	memcpy(w->rest, link, (size_t)n);
	w->rest[n] = '/';
	w->p = w->rest;
	if (link[0] == '/') {
		close(w->dfd);
		w->dfd = fcntl(w->rootfd, F_DUPFD_CLOEXEC, 0);
		if (w->dfd < 0)
			return -errno;
		w->clen = 0;
		w->canon[0] = '\0';
	}
	return 0;
}

/* Open the last component name beneath dfd, never a symlink. */
static int open_last(int dfd, const char *name, int flags)
{
	int fd = openat(dfd, name, flags | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;

	if (fd < 0)
		return -errno;
	/* O_PATH|O_NOFOLLOW opens a symlink planted since the check. */
	if ((flags & O_PATH) && (fstat(fd, &st) < 0 || S_ISLNK(st.st_mode))) {
		close(fd);
		return -ELOOP;
	}
	return fd;
}

/* Walk w->p to its end: the descriptor opened with flags, or -errno. */
static int walk_steps(struct walk *w, int flags)
{
	char name[NAME_MAX + 1];
	struct stat st;
	size_t len;
	int fd, ret;
	bool last;

	for (;;) {
		while (*w->p == '/')
			w->p++;
		if (!*w->p) {	/* the path names the directory reached */
			fd = openat(w->dfd, ".", flags | O_CLOEXEC);
			return fd < 0 ? -errno : fd;
		}
		len = strcspn(w->p, "/");
		if (len > NAME_MAX)
			return -ENAMETOOLONG;
		memcpy(name, w->p, len);
		name[len] = '\0';
		for (w->p += len; *w->p == '/'; w->p++)
			;
		last = !*w->p;
		if (!strcmp(name, "."))
			continue;
		if (!strcmp(name, "..")) {
			ret = walk_up(w);
			if (ret < 0)
				return ret;
			continue;
		}
		fd = kattr_open_step(w->dfd, name, &st);
		if (fd < 0)
			return fd;
		if (S_ISLNK(st.st_mode)) {
			ret = walk_link(w, fd);
			if (ret < 0)
				return ret;
			continue;
		}
		if (w->clen + 1 + len >= sizeof(w->canon)) {
			close(fd);
			return -ENAMETOOLONG;
		}
		w->canon[w->clen++] = '/';
		memcpy(w->canon + w->clen, name, len + 1);
		w->clen += len;
		if (last || !S_ISDIR(st.st_mode)) {
			close(fd);
			return last ? open_last(w->dfd, name, flags) : -ENOTDIR;
		}
		close(w->dfd);
		w->dfd = fd;
	}
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
	struct walk w = { .rootfd = rootfd };
	int fd;

	if (strlen(path) >= 2 * PATH_MAX)
		return -ENAMETOOLONG;
	w.rest = malloc(2 * PATH_MAX);
	if (!w.rest)
		return -ENOMEM;
	strcpy(w.rest, path);
	w.p = w.rest;
	w.dfd = fcntl(rootfd, F_DUPFD_CLOEXEC, 0);
	fd = w.dfd < 0 ? -errno : walk_steps(&w, flags);
	if (fd >= 0 && canon &&
	    snprintf(canon, csize, "%s", w.clen ? w.canon : "/") >= (int)csize) {
		close(fd);
		fd = -ENAMETOOLONG;
	}
	if (w.dfd >= 0)
		close(w.dfd);
	free(w.rest);
	return fd;
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
