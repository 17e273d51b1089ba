// SPDX-License-Identifier: LGPL-2.1-or-later
/* The sysroot prefix: every absolute path the library opens lives under it. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kattr/kattr.h"

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
