/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef KATTR_INTERNAL_H
#define KATTR_INTERNAL_H

#include <sys/types.h>

struct kattr_mount {
	char *path;
	int fd;			/* O_PATH on the mount directory */
	dev_t dev;
	unsigned long magic;
};

/* Read all of fd into a malloc'ed NUL-terminated buffer. */
int kattr_read_fd(int fd, char **out, size_t *len);

#endif
