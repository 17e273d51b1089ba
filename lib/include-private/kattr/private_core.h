/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libkattr core/, private: the mount handle's insides, path resolution
 * (resolve.c), the root handle's (sysroot.c), the mount table walk, the
 * library's string helpers and growing array.
 *
 * Not installed, not exported (lib/libkattr.map lists what is); one
 * private header per layer of lib/ (lib/README): a layer's files include
 * its own and, through it, only the layers below, so a call up a layer
 * fails to compile.  Same rules as the public headers: no printing, no
 * exit, -errno.
 */
#ifndef KATTR_PRIVATE_CORE_H
#define KATTR_PRIVATE_CORE_H

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "kattr/kattr.h"

/* What a handle stands on (mount.c). */
enum kattr_handle_kind {
	KATTR_HANDLE_MOUNT,	/* a kernel mount, its statfs magic checked */
	KATTR_HANDLE_ANY,	/* beneath a root, magic not checked (a
				 * captured tree, KATTR_MOUNT_ANY_MAGIC) */
	KATTR_HANDLE_DIR,	/* a plain directory (kattr_dir_open()):
				 * read only, no sysroot */
};

struct kattr_mount {
	char *path;
	int fd;			/* O_PATH on the mount directory */
	dev_t dev;
	uint64_t mnt_id;	/* the mount's id (0: unknown) */
	unsigned long magic;
	unsigned int kind;	/* enum kattr_handle_kind */
};

/*
 * The library's growing array: room for one element after n in *v (of
 * elem bytes each, capacity *cap doubled as needed, from 8); 0 or -ENOMEM
 * (*v is then unchanged and still the caller's to free).
 */
/*
 * Fill why (may be NULL) and return err: code and the static text, or
 * with kattr_why_fmt() (_vfmt()) fmt's words in why's buf (short, static, when it
 * has none).  kattr_why_clear() empties it (code 0, text NULL).
 */
int kattr_why_set(struct kattr_why *why, int code, int err,
		  const char *text);
int kattr_why_fmt(struct kattr_why *why, int code, int err,
		  const char *short_text, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
int kattr_why_vfmt(struct kattr_why *why, int code, int err,
		   const char *short_text, const char *fmt, va_list ap)
	__attribute__((format(printf, 5, 0)));
void kattr_why_clear(struct kattr_why *why);
/* A lower layer's static words (may be NULL: why untouched) into why
 * (KATTR_WHY_INVALID); returns err. */
int kattr_why_words(struct kattr_why *why, int err, const char *words);
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

/* ---- resolve.c: path resolution, below everything else in core -------- */

/* The id of the mount fd is on (statx STATX_MNT_ID, else
 * name_to_handle_at), or -errno. */
int kattr_fd_mnt_id(int fd, uint64_t *id);

/*
 * Open the single component name beneath dfd as O_PATH without following
 * it, and fstat it into *st: the descriptor or -errno.
 */
int kattr_open_step(int dfd, const char *name, struct stat *st);

/*
 * Whether fd (whose fstat is st) is on m's mount: st_dev alone does not
 * see a bind mount of the same filesystem, the mount id does (as
 * RESOLVE_NO_XDEV).
 */
bool kattr_same_mount(const struct kattr_mount *m, int fd,
		      const struct stat *st);

/*
 * The one walk through directories: open the '/'-separated components of
 * path ("" or "/": dfd itself; none may be "..") one at a time beneath dfd,
 * following no symlink, each checked to be a directory (on m's mount when
 * m is not NULL).  The last one's O_PATH descriptor, or -ELOOP (a symlink),
 * -ENOTDIR, -EXDEV (another mount) or -errno.
 */
int kattr_walk_dirs(int dfd, const char *path, const struct kattr_mount *m);

/* ---- sysroot.c: root handles (NULL: the default root) ------------------ */

/* The default root: the one kattr_set_sysroot() sets. */
const struct kattr_root *kattr_root_default(void);
/* The root's directory, or NULL for the host's "/". */
const char *kattr_root_sysroot(const struct kattr_root *root);
/*
 * Canonical form of path (absolute, as seen inside the root, resolved as
 * openat2 RESOLVE_IN_ROOT would): *out is malloc'ed.
 */
int kattr_root_canonical(const struct kattr_root *root, const char *path,
			 char **out);
/* The same beneath the default root. */
int kattr_sysroot_canonical(const char *path, char **out);
/*
 * Write "<root><path>" into buf.  path must be absolute.  -EINVAL for a
 * relative path, -ENAMETOOLONG when it does not fit.
 */
int kattr_root_path(const struct kattr_root *root, const char *path,
		    char *buf, size_t size);


/* ---- core (kattr/kattr.h): paths, mount table, resolution, reads -- */

/* kattr_root_path() beneath the default root. */
int kattr_sysroot_path(const char *path, char *buf, size_t size);
/* kattr_file_read() beneath root (NULL: the default root). */
int kattr_root_file_read(const struct kattr_root *root, const char *path,
			 char **out, size_t *len);

/*
 * The edit distance (Levenshtein: insert, delete, replace one byte) of a
 * and b, ASCII case folded with icase; cap + 1 for anything above cap
 * (also when b is 64 bytes or longer).  For "did you mean": the library's
 * kattr_rgres_suggest() and the tools' tool_closest().
 */
size_t kattr_str_distance(const char *a, const char *b, size_t cap, bool icase);
/* Strict decimal of s[0..len): digits only, a leading '-' when neg_ok.
 * -EINVAL (not a number), -ERANGE (past long long). */
int kattr_parse_ll(const char *s, size_t len, bool neg_ok, long long *out);
/* The next line of the text at *p (without its '\n'): start and len,
 * *p moved past it; false at the end. */
bool kattr_next_line(const char **p, const char **start, size_t *len);

/* true when the comma-separated list opts contains exactly opt. */
bool kattr_opt_has(const char *opts, const char *opt);

/*
 * Call cb for every mount of the calling process (read from
 * <sysroot>/proc/<pid>/mountinfo).  cb returns 0 to go on, > 0 to stop
 * (that value is returned), < 0 to fail (returned as is).
 */
typedef int (*kattr_mnt_cb)(const struct kattr_mnt *mnt, void *data);
int kattr_mountinfo_foreach(kattr_mnt_cb cb, void *data);
/* The same beneath root (<root>/proc/<pid>/mountinfo). */
int kattr_mountinfo_foreach_at(const struct kattr_root *root, kattr_mnt_cb cb,
			       void *data);
/* kattr_mountinfo_find() beneath root. */
int kattr_mountinfo_find_at(const struct kattr_root *root, const char *fstype,
			    const char *super_opt, char **mount_point);
/* kattr_mount_find() beneath root. */
int kattr_mount_find_at(const struct kattr_root *root, const char *fstype,
			const char *super_opt, unsigned long magic,
			unsigned int flags, struct kattr_mount **out);

/* How names are resolved; KATTR_RESOLVE_AUTO uses openat2(2) when the
 * kernel has it.  The others exist so both paths can be tested. */
enum kattr_resolve_mode {
	KATTR_RESOLVE_AUTO = 0,
	KATTR_RESOLVE_OPENAT2,
	KATTR_RESOLVE_FALLBACK,
};
void kattr_set_resolve_mode(enum kattr_resolve_mode mode);

/* Same into a caller buffer; returns the length, -EOVERFLOW if the value
 * (plus its NUL) does not fit. */
ssize_t kattr_read(struct kattr_mount *m, const char *rel,
		   char *buf, size_t size);
/* Read a decimal unsigned integer (surrounding whitespace allowed). */
int kattr_read_u64(struct kattr_mount *m, const char *rel,
		   uint64_t *value);

#endif /* KATTR_PRIVATE_CORE_H */
