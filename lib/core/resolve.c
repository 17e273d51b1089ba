// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Path resolution, the bottom of core: openat2(2) under the resolve mode,
 * mount ids, one step through a directory and the walk through many,
 * never through a symlink or "..".  The sysroot (sysroot.c) and the mount
 * handle (mount.c) stand on it; it calls neither.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kattr/private_core.h"

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

/*
 * Whether fd is on the handle's mount: st_dev alone does not see a bind
 * mount of the same filesystem, the mount id does (as RESOLVE_NO_XDEV).
 */
bool kattr_same_mount(const struct kattr_mount *m, int fd,
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
		      m && !kattr_same_mount(m, dfd, &st) ? -EXDEV : 0;
		if (err < 0)
			break;
	}
	if (err < 0) {
		close(dfd);
		return err;
	}
	return dfd;
}

