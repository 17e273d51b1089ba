// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Mount handles and name resolution beneath them: never through a symlink,
 * never up through "..", never into another mount.
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

#include "kattr/kattr.h"
#include "kattr/private.h"
#include "internal.h"

static enum kattr_resolve_mode resolve_mode = KATTR_RESOLVE_AUTO;
static int have_openat2 = -1;	/* unknown until first use */

void kattr_set_resolve_mode(enum kattr_resolve_mode mode)
{
	resolve_mode = mode;
}

int kattr_openat2(int dfd, const char *name, int flags,
		  unsigned long long resolve)
{
	struct open_how how = {
		.flags = (unsigned long long)(flags | O_CLOEXEC),
		.resolve = resolve,
	};
	int tries = 0;
	long fd;

	if (resolve_mode == KATTR_RESOLVE_FALLBACK || have_openat2 == 0)
		return -ENOSYS;
	do {
		fd = syscall(SYS_openat2, dfd, name, &how, sizeof(how));
	} while (fd < 0 && errno == EAGAIN && ++tries < 16);
	if (fd < 0 && (errno == ENOSYS || errno == E2BIG)) {
		if (resolve_mode == KATTR_RESOLVE_OPENAT2)
			return -EOPNOTSUPP;
		have_openat2 = 0;
		return -ENOSYS;
	}
	have_openat2 = 1;
	return fd < 0 ? -errno : (int)fd;
}

int kattr_fd_mnt_id(int fd, uint64_t *id)
{
	struct statx stx;
	struct {
		struct file_handle fh;
		unsigned char buf[MAX_HANDLE_SZ];
	} h;
	int mnt;

	if (statx(fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, STATX_MNT_ID,
		  &stx) == 0 && (stx.stx_mask & STATX_MNT_ID)) {
		*id = stx.stx_mnt_id;
		return 0;
	}
	/* Kernels before 5.8: the handle call reports the mount id too
	 * (EOVERFLOW for a too-small handle still fills it). */
	h.fh.handle_bytes = MAX_HANDLE_SZ;
	if (name_to_handle_at(fd, "", &h.fh, &mnt, AT_EMPTY_PATH) == 0 ||
	    errno == EOVERFLOW) {
		*id = (uint64_t)(unsigned int)mnt;
		return 0;
	}
	return -errno;
}

int kattr_mount_open(const char *path, unsigned long magic, unsigned int flags,
		     struct kattr_mount **out)
{
	struct kattr_mount *m;
	struct statfs sfs;
	struct stat st;
	int fd, ret;

	/* Beneath the sysroot: a captured tree's symlinks and ".." stay in it;
	 * a host directory as the user named it. */
	if (flags & KATTR_MOUNT_HOST_DIR) {
		fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		flags |= KATTR_MOUNT_ANY_MAGIC;
	} else {
		fd = kattr_sysroot_open(path, O_PATH | O_DIRECTORY);
		if (fd < 0)
			return fd;
	}
	if (fstatfs(fd, &sfs) < 0 || fstat(fd, &st) < 0) {
		ret = -errno;
		goto out_close;
	}
	if (!(flags & KATTR_MOUNT_ANY_MAGIC) && !kattr_get_sysroot() &&
	    (unsigned long)sfs.f_type != magic) {
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
	*out = m;
	return 0;

out_close:
	close(fd);
	return ret;
}

int kattr_mount_find(const char *fstype, const char *super_opt,
		     unsigned long magic, unsigned int flags,
		     struct kattr_mount **out)
{
	char *mp;
	int ret;

	ret = kattr_mountinfo_find(fstype, super_opt, &mp);
	if (ret < 0)
		return ret;
	ret = kattr_mount_open(mp, magic, flags, out);
	free(mp);
	return ret;
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

int kattr_name_check(const char *rel, const char **why)
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
	if (reason) {
		if (why)
			*why = reason;
		return -EINVAL;
	}
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

/*
 * Whether fd is on the handle's mount: st_dev alone does not see a bind
 * mount of the same filesystem, the mount id does (as RESOLVE_NO_XDEV).
 */
static bool same_mount(const struct kattr_mount *m, int fd,
		       const struct stat *st)
{
	uint64_t id;

	if (st->st_dev != m->dev)
		return false;
	if (!m->mnt_id)
		return true;	/* no mount ids: st_dev is all there is */
	return kattr_fd_mnt_id(fd, &id) == 0 && id == m->mnt_id;
}

int kattr_open_step(int dfd, const char *name, struct stat *st)
{
	int fd = openat(dfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC), err;

	if (fd < 0)
		return -errno;
	if (fstat(fd, st) < 0) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

int kattr_walk_dirs(int dfd, const char *path, const struct kattr_mount *m)
{
	char name[NAME_MAX + 1];
	struct stat st;
	size_t len;
	int fd, err = 0;

	dfd = fcntl(dfd, F_DUPFD_CLOEXEC, 0);
	if (dfd < 0)
		return -errno;
	for (; *path; path += len) {
		len = strcspn(path, "/");
		if (!len) {
			len = 1;	/* a '/' */
			continue;
		}
		if (len > NAME_MAX) {
			err = -ENAMETOOLONG;
			break;
		}
		memcpy(name, path, len);
		name[len] = '\0';
		fd = kattr_open_step(dfd, name, &st);
		if (fd < 0) {
			err = fd;
			break;
		}
		close(dfd);
		dfd = fd;
		err = S_ISLNK(st.st_mode) ? -ELOOP : !S_ISDIR(st.st_mode) ? -ENOTDIR :
		      m && !same_mount(m, dfd, &st) ? -EXDEV : 0;
		if (err < 0)
			break;
	}
	if (err < 0) {
		close(dfd);
		return err;
	}
	return dfd;
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
	if (!same_mount(m, fd, &st)) {
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
	/* O_PATH|O_NOFOLLOW opens a trailing symlink itself: refuse it. */
	if (flags & O_PATH) {
		ret = fstat(fd, &st) < 0 ? -errno : S_ISLNK(st.st_mode) ? -ELOOP : 0;
		if (ret < 0) {
			close(fd);
			return ret;
		}
	}
	return fd;
}
