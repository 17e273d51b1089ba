// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * LD_PRELOAD shim for the tests: the kernel refuses every filtered hist
 * trigger ("hist:... if ...") written to a tracefs trigger file, with
 * EINVAL, as a kernel that cannot take likelytop's wrong-count histogram
 * would (tests/vm/callers.sh: the fallback to streaming, on the real 6.1
 * kernel, where likelytop's own filters are all taken).  Every other
 * write goes through.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

ssize_t write(int fd, const void *buf, size_t n)
{
	static ssize_t (*real)(int, const void *, size_t);
	char link[64], path[4096];
	ssize_t l;

	if (n > 5 && !memcmp(buf, "hist:", 5) && memmem(buf, n, " if ", 4)) {
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		l = readlink(link, path, sizeof(path) - 1);
		if (l > 8 && !memcmp(path + l - 8, "/trigger", 8)) {
			errno = EINVAL;
			return -1;
		}
	}
	if (!real)
		real = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	return real(fd, buf, n);
}
