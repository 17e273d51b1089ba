/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef KATTR_INTERNAL_H
#define KATTR_INTERNAL_H

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

struct kattr_mount {
	char *path;
	int fd;			/* O_PATH on the mount directory */
	dev_t dev;
	uint64_t mnt_id;	/* the mount's id (0: unknown) */
	unsigned long magic;
};

/*
 * The library's growing array: room for one element after n in *v (of
 * elem bytes each, capacity *cap doubled as needed, from 8); 0 or -ENOMEM
 * (*v is then unchanged and still the caller's to free).
 */
int kattr_grow(void **v, size_t *cap, size_t n, size_t elem);

/* ---- the library's string helpers, written once ------------------------ */

/* s ends with suffix. */
static inline bool kattr_ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

/* s without the blanks and line ends it ends with (cut in place). */
static inline void kattr_rtrim(char *s)
{
	size_t n = strlen(s);

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
}

/* The span [*s, *s + *len) without white space at either end. */
static inline void kattr_trim_span(const char **s, size_t *len)
{
	while (*len && isspace((unsigned char)**s)) {
		(*s)++;
		(*len)--;
	}
	while (*len && isspace((unsigned char)(*s)[*len - 1]))
		(*len)--;
}


/*
 * openat2(2) with how.resolve = resolve, under the resolve mode in force:
 * the descriptor, -errno, or -ENOSYS when the caller must use its
 * fallback (no openat2, or KATTR_RESOLVE_FALLBACK).
 */
int kattr_openat2(int dfd, const char *name, int flags,
		  unsigned long long resolve);

/* The id of the mount fd is on (statx STATX_MNT_ID, else
 * name_to_handle_at), or -errno. */
int kattr_fd_mnt_id(int fd, uint64_t *id);

/*
 * Open the single component name beneath dfd as O_PATH without following
 * it, and fstat it into *st: the descriptor or -errno.
 */
int kattr_open_step(int dfd, const char *name, struct stat *st);

/*
 * The one walk through directories: open the '/'-separated components of
 * path ("" or "/": dfd itself; none may be "..") one at a time beneath dfd,
 * following no symlink, each checked to be a directory (on m's mount when
 * m is not NULL).  The last one's O_PATH descriptor, or -ELOOP (a symlink),
 * -ENOTDIR, -EXDEV (another mount) or -errno.
 */
int kattr_walk_dirs(int dfd, const char *path, const struct kattr_mount *m);

/*
 * Canonical form of path (absolute, as seen inside the sysroot, resolved
 * as openat2 RESOLVE_IN_ROOT would): *out is malloc'ed.
 */
int kattr_sysroot_canonical(const char *path, char **out);

#endif
