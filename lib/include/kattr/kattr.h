/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libkattr: safe access to kernel attribute filesystems (configfs, cgroupfs,
 * procfs, tracefs) for the rgctl/likelytop/splicebench suite.
 *
 * Rules every function follows:
 *  - it never prints and never exits;
 *  - errors are returned as -errno (0 or a non-negative value on success);
 *  - names beneath a mount handle are resolved without following a symlink
 *    or ".." and without crossing into another mount;
 *  - every path the caller gives as absolute is taken beneath a root
 *    handle (struct kattr_root): the one passed, or for the calls without
 *    one (and a NULL root) the default root, which kattr_set_sysroot()
 *    sets.
 */
#ifndef KATTR_KATTR_H
#define KATTR_KATTR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KATTR_API __attribute__((visibility("default")))

/* statfs(2) f_type values of the filesystems the suite works on. */
#define KATTR_MAGIC_CONFIGFS	0x62656570UL
#define KATTR_MAGIC_CGROUP1	0x0027e0ebUL
#define KATTR_MAGIC_CGROUP2	0x63677270UL
#define KATTR_MAGIC_PROC	0x00009fa0UL
#define KATTR_MAGIC_SYSFS	0x62656572UL
#define KATTR_MAGIC_TRACEFS	0x74726163UL
#define KATTR_MAGIC_DEBUGFS	0x64626720UL
#define KATTR_MAGIC_TMPFS	0x01021994UL
#define KATTR_MAGIC_FUSE	0x65735546UL

/* Environment variable read by kattr_sysroot_from_env(). */
#define KATTR_SYSROOT_ENV	"KATTR_SYSROOT"

/* Largest attribute kattr_read_alloc() accepts (-EFBIG beyond). */
#define KATTR_READ_MAX		(64u << 20)

/*
 * Read all of fd (to its end, at most KATTR_READ_MAX bytes) into a
 * malloc'ed NUL-terminated buffer: *out and its length *len; 0, or
 * -EFBIG, -ENOMEM or read(2)'s -errno (nothing allocated then).
 */
KATTR_API int kattr_read_fd(int fd, char **out, size_t *len);

/* ---- roots ------------------------------------------------------------- */

/*
 * A root handle: the directory absolute paths are taken beneath (the
 * host's "/", or a captured tree, as util-linux's --sysroot), passed
 * explicitly as util-linux passes a struct path_cxt.  Wherever a call
 * takes one, NULL means the default root (below).
 */
struct kattr_root;

/*
 * Open a root handle on dir (NULL, "" or "/": the host's root).  The
 * directory must exist; it is kept canonicalised.  -ENOTDIR / -ENOENT /
 * -ENAMETOOLONG / -ENOMEM.
 */
KATTR_API int kattr_root_open(const char *dir, struct kattr_root **out);
KATTR_API void kattr_root_close(struct kattr_root *root);
/*
 * Open path (absolute) with open(2) flags beneath root: symlinks and ".."
 * in a captured tree are resolved as if root were "/" (openat2
 * RESOLVE_IN_ROOT, or a per-component walk doing the same), so nothing in
 * the tree leads out of it; on the host's root it is open(2).  Returns a
 * descriptor (O_CLOEXEC) or -errno (-EINVAL for a relative path).
 */
KATTR_API int kattr_root_open_path(const struct kattr_root *root,
				   const char *path, int flags);

/*
 * The default root, for the calls that take none (a shim kept from before
 * root handles): set it to dir (as util-linux's --sysroot).  NULL or ""
 * clears it.  The directory must exist; it is stored canonicalised.
 * -ENOTDIR / -ENOENT / -ENAMETOOLONG on error.
 */
KATTR_API int kattr_set_sysroot(const char *dir);
/* The prefix in force, or NULL when none. */
KATTR_API const char *kattr_get_sysroot(void);
/* Set the prefix from $KATTR_SYSROOT when set and non-empty; 0 otherwise. */
KATTR_API int kattr_sysroot_from_env(void);
/*
 * kattr_root_open_path() beneath the default root.  Prefer either to
 * pasting the prefix before a path: a symlink in the tree can lead such a
 * string anywhere.
 */
KATTR_API int kattr_sysroot_open(const char *path, int flags);

/* ---- mountinfo ------------------------------------------------------- */

/* One line of /proc/PID/mountinfo, pointing into the parsed line. */
struct kattr_mnt {
	unsigned int id;
	unsigned int parent_id;
	const char *root;
	const char *mount_point;
	const char *mount_opts;
	const char *fstype;
	const char *source;
	const char *super_opts;
};

/*
 * Parse one mountinfo line in place (octal escapes such as \040 are
 * decoded).  -EINVAL when the line is malformed.
 */
KATTR_API int kattr_mountinfo_parse(char *line, struct kattr_mnt *out);

/*
 * Find the first mount of type fstype whose super options contain
 * super_opt (NULL: any).  *mount_point is malloc'ed and is the path as
 * the mounting process sees it (without the sysroot).  -ENOENT if none.
 */
KATTR_API int kattr_mountinfo_find(const char *fstype, const char *super_opt,
				   char **mount_point);

/* ---- mount handles ---------------------------------------------------- */

struct kattr_mount;

enum kattr_mount_flags {
	/* Do not verify the statfs magic (the caller checks
	 * kattr_mount_magic() itself). */
	KATTR_MOUNT_ANY_MAGIC = 1u << 0,
	/* The old spelling of kattr_dir_open(path, out): a plain directory,
	 * not beneath the sysroot; magic ignored. */
	KATTR_MOUNT_HOST_DIR = 1u << 1,
};

/*
 * Open a handle on the directory path (absolute; the sysroot prefix is
 * applied; symlinks in path itself are followed, since the administrator
 * named it).  Unless KATTR_MOUNT_ANY_MAGIC is given or a sysroot is set
 * (a captured tree is an ordinary directory), the statfs magic must equal
 * magic: -EMEDIUMTYPE otherwise.
 */
KATTR_API int kattr_mount_open(const char *path, unsigned long magic,
			       unsigned int flags, struct kattr_mount **out);
/* The same beneath root (NULL: the default root), "sysroot" above
 * meaning root. */
KATTR_API int kattr_mount_open_at(const struct kattr_root *root,
				  const char *path, unsigned long magic,
				  unsigned int flags, struct kattr_mount **out);
/*
 * A handle on a plain directory such as a source tree: path relative (to
 * the working directory) or absolute, opened as given, never beneath a
 * root, of any filesystem.  Names opened through it stay beneath it as
 * with a mount handle; it is read only: kattr_write(), kattr_mkdir() and
 * kattr_rmdir() through it are -EROFS.  Closed with kattr_mount_close().
 */
KATTR_API int kattr_dir_open(const char *path, struct kattr_mount **out);
/* kattr_mountinfo_find() followed by kattr_mount_open(). */
KATTR_API int kattr_mount_find(const char *fstype, const char *super_opt,
			       unsigned long magic, unsigned int flags,
			       struct kattr_mount **out);
KATTR_API void kattr_mount_close(struct kattr_mount *m);
/* The path as given (without the sysroot). */
KATTR_API const char *kattr_mount_path(const struct kattr_mount *m);
/* The statfs f_type seen when the handle was opened. */
KATTR_API unsigned long kattr_mount_magic(const struct kattr_mount *m);
/* The O_PATH directory descriptor of the handle (owned by it). */
KATTR_API int kattr_mount_fd(const struct kattr_mount *m);

/* ---- error detail ------------------------------------------------------ */

/*
 * Why a call failed, in words: the one convention of the library for
 * detail beyond -errno.  A call that can say more takes a struct
 * kattr_why * as its last argument (NULL: not wanted); the caller owns
 * it.  On failure code says which check refused (0: none, the -errno
 * alone tells; the values are the call's, listed in its header, 1 =
 * KATTR_WHY_INVALID for the checks that have one kind of refusal) and
 * text the words a caller prints after "cannot ...: " (NULL with code
 * 0).  text is static, or, where the words name things (a hierarchy, a
 * depth), written into the caller's buf of size bytes (cut to size);
 * without a buf (NULL, as { 0 } leaves it) such words are a static
 * shorter form.  Nothing fixed-size is frozen here: buf is the caller's.
 */
struct kattr_why {
	int code;
	const char *text;
	char *buf;
	size_t size;
};
#define KATTR_WHY_NONE		0
#define KATTR_WHY_INVALID	1
/* A struct kattr_why with the array b (char b[N]) as its buffer. */
#define KATTR_WHY_BUF(b)	{ .code = 0, .text = NULL, .buf = (b), .size = sizeof(b) }
/* w's words (w may be NULL), or strerror(-err) when it has none. */
KATTR_API const char *kattr_why_text(const struct kattr_why *w, int err);

/* ---- names ------------------------------------------------------------- */

/*
 * Check a relative name such as "db/batch" before it touches any tree:
 * no leading '/', no empty, "." or ".." component, only printable ASCII
 * other than '/' inside components, at most 255 bytes per component and
 * at most 4095 in all.  Returns 0, or -EINVAL with why (may be NULL)
 * saying how (KATTR_WHY_INVALID, static English words).
 */
KATTR_API int kattr_name_check(const char *rel, struct kattr_why *why);

/*
 * Open rel beneath the handle ("" or "." is the handle's root) with
 * open(2) flags (O_CLOEXEC and O_NOFOLLOW are always added).  Returns a
 * descriptor or -errno: -EXDEV for ".." or an absolute name, -ELOOP for
 * a symlink on the way or at the end, -ENOENT, and so on.
 */
KATTR_API int kattr_open(struct kattr_mount *m, const char *rel, int flags);

/* ---- attributes -------------------------------------------------------- */

/*
 * Read the whole attribute rel, opening it afresh (configfs fills its
 * buffer once per open).  *out is malloc'ed and NUL-terminated; *len
 * (if not NULL) excludes the NUL.
 */
KATTR_API int kattr_read_alloc(struct kattr_mount *m, const char *rel,
			       char **out, size_t *len);
/*
 * Write buf in exactly one write(2) and return 0 or the kernel's -errno;
 * a short write is -EIO.  Nothing is appended (no newline).
 */
KATTR_API int kattr_write(struct kattr_mount *m, const char *rel,
			  const void *buf, size_t len);
KATTR_API int kattr_write_str(struct kattr_mount *m, const char *rel,
			      const char *s);

/* ---- directories ------------------------------------------------------- */

struct kattr_dirent {
	char *name;
	unsigned char type;	/* DT_DIR, DT_REG, ... (DT_UNKNOWN resolved) */
};

/* List rel (without "." and ".."), sorted by name. */
KATTR_API int kattr_list(struct kattr_mount *m, const char *rel,
			 struct kattr_dirent **ents, size_t *n);
KATTR_API void kattr_list_free(struct kattr_dirent *ents, size_t n);
KATTR_API int kattr_mkdir(struct kattr_mount *m, const char *rel, mode_t mode);
KATTR_API int kattr_rmdir(struct kattr_mount *m, const char *rel);
/* fstatat rel beneath the handle without following symlinks. */
KATTR_API int kattr_stat(struct kattr_mount *m, const char *rel,
			 struct stat *st);

/* ---- plain files --------------------------------------------------------- */

/*
 * Read a whole file named by an absolute path (sysroot applied), such as
 * /proc/sys/fs/pipe-max-size.  Same contract as kattr_read_alloc().
 */
KATTR_API int kattr_file_read(const char *path, char **out, size_t *len);

#ifdef __cplusplus
}
#endif

#endif /* KATTR_KATTR_H */
