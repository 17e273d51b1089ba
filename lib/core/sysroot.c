// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Root handles: the directory every absolute path is taken beneath (the
 * host's "/", or a captured tree given as --sysroot).  A caller passes its
 * handle explicitly; NULL means the default root, which the old calls
 * kattr_set_sysroot() and kattr_sysroot_from_env() set (a shim kept for
 * them and their callers, as util-linux kept its global prefix beside
 * struct path_cxt).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kattr/private_core.h"

struct kattr_root {
	char path[PATH_MAX];	/* canonical; "" for the host's "/" */
};

/* The shim's root: what kattr_set_sysroot() set, the host's "/" until then. */
static struct kattr_root default_root;

static const struct kattr_root *root_or_default(const struct kattr_root *r)
{
	return r ? r : &default_root;
}

const struct kattr_root *kattr_root_default(void)
{
	return &default_root;
}

/* Point r at dir (NULL, "" or "/": the host's root). */
static int root_set(struct kattr_root *r, const char *dir)
{
	char real[PATH_MAX];
	struct stat st;

	if (!dir || !*dir) {
		r->path[0] = '\0';
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
	memcpy(r->path, real, strlen(real) + 1);
	return 0;
}

int kattr_root_open(const char *dir, struct kattr_root **out)
{
	struct kattr_root *r = calloc(1, sizeof(*r));
	int ret;

	if (!r)
		return -ENOMEM;
	ret = root_set(r, dir);
	if (ret < 0) {
		free(r);
		return ret;
	}
	*out = r;
	return 0;
}

void kattr_root_close(struct kattr_root *r)
{
	free(r);
}

const char *kattr_root_sysroot(const struct kattr_root *r)
{
	r = root_or_default(r);
	return r->path[0] ? r->path : NULL;
}

int kattr_set_sysroot(const char *dir)
{
	return root_set(&default_root, dir);
}

const char *kattr_get_sysroot(void)
{
	return kattr_root_sysroot(&default_root);
}

int kattr_sysroot_from_env(void)
{
	const char *env = getenv(KATTR_SYSROOT_ENV);

	if (!env || !*env)
		return 0;
	return kattr_set_sysroot(env);
}

int kattr_root_path(const struct kattr_root *r, const char *path, char *buf,
		    size_t size)
{
	int n;

	r = root_or_default(r);
	if (!path || path[0] != '/')
		return -EINVAL;
	n = snprintf(buf, size, "%s%s", r->path, path);
	if (n < 0 || (size_t)n >= size)
		return -ENAMETOOLONG;
	return 0;
}

int kattr_sysroot_path(const char *path, char *buf, size_t size)
{
	return kattr_root_path(&default_root, path, buf, size);
}

/* ---- resolving beneath the sysroot ---------------------------------------- */

/* The root's directory. */
static int open_root(const struct kattr_root *r)
{
	int fd = open(r->path[0] ? r->path : "/",
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

int kattr_root_open_path(const struct kattr_root *r, const char *path,
			 int flags)
{
	int rootfd, fd;

	r = root_or_default(r);
	if (!path || path[0] != '/')
		return -EINVAL;
	if (!r->path[0]) {
		fd = open(path, flags | O_CLOEXEC);
		return fd < 0 ? -errno : fd;
	}
	rootfd = open_root(r);
	if (rootfd < 0)
		return rootfd;
	fd = kattr_openat2(rootfd, path, flags,
			   RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS);
	if (fd == -ENOSYS)
		fd = walk_in_root(rootfd, path, flags, NULL, 0);
	close(rootfd);
	return fd;
}

int kattr_sysroot_open(const char *path, int flags)
{
	return kattr_root_open_path(&default_root, path, flags);
}

int kattr_root_canonical(const struct kattr_root *r, const char *path,
			 char **out)
{
	char real[PATH_MAX];
	int rootfd, fd;

	r = root_or_default(r);
	if (!path || path[0] != '/')
		return -EINVAL;
	if (!r->path[0]) {
		if (!realpath(path, real))
			return -errno;
	} else {
		rootfd = open_root(r);
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

int kattr_sysroot_canonical(const char *path, char **out)
{
	return kattr_root_canonical(&default_root, path, out);
}
