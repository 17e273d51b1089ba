// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Handles (verified kernel mounts, plain directories) and name resolution
 * beneath them: never through a symlink, never up through "..", never into
 * another mount.  Stands on resolve.c, sysroot.c and mountinfo.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kattr/private_core.h"

/* A handle on the directory fd (taken over, closed on failure). */
static int handle_new(int fd, const char *path, unsigned long magic,
		      unsigned int kind, struct kattr_mount **out)
{
	struct kattr_mount *m;
	struct statfs sfs;
	struct stat st;
	int ret;

	if (fstatfs(fd, &sfs) < 0 || fstat(fd, &st) < 0) {
		ret = -errno;
		goto out_close;
	}
	if (kind == KATTR_HANDLE_MOUNT && (unsigned long)sfs.f_type != magic) {
		ret = -EMEDIUMTYPE;
		goto out_close;
	}
	m = calloc(1, sizeof(*m));
	if (!m || !(m->path = strdup(path))) {
		free(m);
		ret = -ENOMEM;
		goto out_close;
	}
	m->fd = fd;
	m->dev = st.st_dev;
	if (kattr_fd_mnt_id(fd, &m->mnt_id) < 0)
		m->mnt_id = 0;
	m->magic = (unsigned long)sfs.f_type;
	m->kind = kind;
	*out = m;
	return 0;

out_close:
	close(fd);
	return ret;
}

int kattr_dir_open(const char *path, struct kattr_mount **out)
{
	int fd;

	if (!path)
		return -EINVAL;
	fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	return handle_new(fd, path, 0, KATTR_HANDLE_DIR, out);
}

int kattr_mount_open_at(const struct kattr_root *root, const char *path,
			unsigned long magic, unsigned int flags,
			struct kattr_mount **out)
{
	unsigned int kind = KATTR_HANDLE_MOUNT;
	int fd;

	if (flags & KATTR_MOUNT_HOST_DIR)	/* the old spelling */
		return kattr_dir_open(path, out);
	/* Beneath the root: a captured tree's symlinks and ".." stay in it,
	 * and it is an ordinary directory (no magic to check). */
	fd = kattr_root_open_path(root, path, O_PATH | O_DIRECTORY);
	if (fd < 0)
		return fd;
	if ((flags & KATTR_MOUNT_ANY_MAGIC) || kattr_root_sysroot(root))
		kind = KATTR_HANDLE_ANY;
	return handle_new(fd, path, magic, kind, out);
}

int kattr_mount_open(const char *path, unsigned long magic, unsigned int flags,
		     struct kattr_mount **out)
{
	return kattr_mount_open_at(NULL, path, magic, flags, out);
}

int kattr_mount_find_at(const struct kattr_root *root, const char *fstype,
			const char *super_opt, unsigned long magic,
			unsigned int flags, struct kattr_mount **out)
{
	char *mp;
	int ret;

	ret = kattr_mountinfo_find_at(root, fstype, super_opt, &mp);
	if (ret < 0)
		return ret;
	ret = kattr_mount_open_at(root, mp, magic, flags, out);
	free(mp);
	return ret;
}

int kattr_mount_find(const char *fstype, const char *super_opt,
		     unsigned long magic, unsigned int flags,
		     struct kattr_mount **out)
{
	return kattr_mount_find_at(NULL, fstype, super_opt, magic, flags, out);
}

void kattr_mount_close(struct kattr_mount *m)
{
	if (!m)
		return;
	close(m->fd);
	free(m->path);
	free(m);
}

const char *kattr_mount_path(const struct kattr_mount *m)
{
	return m->path;
}

unsigned long kattr_mount_magic(const struct kattr_mount *m)
{
	return m->magic;
}

int kattr_mount_fd(const struct kattr_mount *m)
{
	return m->fd;
}

int kattr_name_check(const char *rel, struct kattr_why *why)
{
	const char *p, *reason = NULL;
	size_t comp = 0, total = 0;

	if (!rel || !*rel)
		reason = "the name is empty";
	else if (rel[0] == '/')
		reason = "the name starts with '/' (give it relative to the root group)";
	for (p = rel; !reason && *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (++total > 4095) {
			reason = "the name is longer than 4095 bytes";
		} else if (c == '/') {
			if (comp == 0)
				reason = "the name has an empty component ('//')";
			comp = 0;
		} else if (c < 0x21 || c > 0x7e) {
			reason = c == ' ' ? "the name contains a space" :
				 "the name contains a non-printable or non-ASCII byte";
		} else if (++comp > 255) {
			reason = "a component of the name is longer than 255 bytes";
		} else if (c == '.' && comp == 1 &&
			   (p[1] == '/' || p[1] == '\0' ||
			    (p[1] == '.' && (p[2] == '/' || p[2] == '\0')))) {
			reason = p[1] == '.' ? "the name contains '..'" :
				 "the name contains a '.' component";
		}
	}
	if (!reason && rel && *rel && comp == 0)
		reason = "the name ends with '/'";
	if (reason)
		return kattr_why_set(why, KATTR_WHY_INVALID, -EINVAL, reason);
	return 0;
}

/*
 * Split rel into components in buf; reject ".." and absolute names with
 * -EXDEV (what openat2 RESOLVE_BENEATH says for an escape).
 */
static int normalise(const char *rel, char *buf, size_t size)
{
	const char *p = rel;
	size_t w = 0;

	if (!rel)
		return -EINVAL;
	if (rel[0] == '/')
		return -EXDEV;
	while (*p) {
		const char *slash = strchr(p, '/');
		size_t len = slash ? (size_t)(slash - p) : strlen(p);

		if (len == 2 && p[0] == '.' && p[1] == '.')
			return -EXDEV;
		if (len && !(len == 1 && p[0] == '.')) {
			if (w + len + 2 > size)
				return -ENAMETOOLONG;
			if (w)
				buf[w++] = '/';
			memcpy(buf + w, p, len);
			w += len;
		}
		p += len;
		if (*p == '/')
			p++;
	}
	if (!w)
		buf[w++] = '.';
	buf[w] = '\0';
	return 0;
}

/* Per-component walk for kernels without openat2(2). */
static int open_fallback(struct kattr_mount *m, char *name, int flags)
{
	char *slash = strrchr(name, '/'), *last = name;
	struct stat st;
	int dfd, fd;

	if (slash) {
		*slash = '\0';
		last = slash + 1;
	}
	dfd = kattr_walk_dirs(m->fd, slash ? name : "", m);
	if (slash)
		*slash = '/';
	if (dfd < 0)
		return dfd;
	fd = openat(dfd, last, flags | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		fd = -errno;
		close(dfd);
		return fd;
	}
	close(dfd);
	if (fstat(fd, &st) < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	if (!kattr_same_mount(m, fd, &st)) {
		close(fd);
		return -EXDEV;
	}
	return fd;
}

int kattr_open(struct kattr_mount *m, const char *rel, int flags)
{
	char name[PATH_MAX];
	struct stat st;
	int fd, ret;

	ret = normalise(rel, name, sizeof(name));
	if (ret < 0)
		return ret;
	fd = kattr_openat2(m->fd, name, flags | O_NOFOLLOW,
			   RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
			   RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV);
	if (fd == -ENOSYS)
		fd = open_fallback(m, name, flags);
	/* O_DIRECTORY|O_NOFOLLOW on a symlink says ENOTDIR: say ELOOP. */
	if (fd == -ENOTDIR && (flags & O_DIRECTORY)) {
		int pfd = kattr_open(m, name, O_PATH);

		if (pfd == -ELOOP)
			return -ELOOP;
		if (pfd >= 0)
			close(pfd);
	}
	if (fd < 0)
		return fd;
	/*
	 * O_PATH|O_NOFOLLOW opens a trailing symlink itself: refuse it.  With
	 * O_DIRECTORY the kernel already did (ENOTDIR: only a directory is
	 * opened), so no fstat(2): every create and delete opens a parent so.
	 */
	if ((flags & O_PATH) && !(flags & O_DIRECTORY)) {
		ret = fstat(fd, &st) < 0 ? -errno : S_ISLNK(st.st_mode) ? -ELOOP : 0;
		if (ret < 0) {
			close(fd);
			return ret;
		}
	}
	return fd;
}
