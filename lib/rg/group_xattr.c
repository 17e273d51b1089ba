// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A group's extended attributes: what a tool keeps on the group itself
 * (rgctl: who made it), gone when the group is.  The directory is opened
 * beneath the hierarchy without following a symlink (kattr_rg_group_open),
 * then f{get,set}xattr(2) act on that descriptor only.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "kattr/rgtool.h"

/* ENOTSUP and EOPNOTSUPP are one value on Linux; say one of them. */
static int xattr_err(int err)
{
	return err == ENOTSUP ? -EOPNOTSUPP : -err;
}

int kattr_rg_fxattr_get(int fd, const char *name, void *buf, size_t size)
{
	ssize_t n;

	if (fd < 0 || !name || (!buf && size))
		return -EINVAL;
	n = fgetxattr(fd, name, buf, size);
	if (n < 0)
		return xattr_err(errno);
	return n > 0x7fffffff ? -EOVERFLOW : (int)n;
}

int kattr_rg_fxattr_set(int fd, const char *name, const void *value,
			size_t size, int flags)
{
	if (fd < 0 || !name || (!value && size))
		return -EINVAL;
	return fsetxattr(fd, name, value, size, flags) < 0 ? xattr_err(errno) : 0;
}

int kattr_rg_xattr_get(struct kattr_rg *rg, const char *group,
		       const char *name, void *buf, size_t size)
{
	int fd = kattr_rg_group_open(rg, group, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return fd;
	ret = kattr_rg_fxattr_get(fd, name, buf, size);
	close(fd);
	return ret;
}

int kattr_rg_xattr_set(struct kattr_rg *rg, const char *group,
		       const char *name, const void *value, size_t size,
		       int flags)
{
	int fd = kattr_rg_group_open(rg, group, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return fd;
	ret = kattr_rg_fxattr_set(fd, name, value, size, flags);
	close(fd);
	return ret;
}
