/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Every file a tool of the suite writes is opened here (outfile.c), the
 * same way: never through a symlink, and never into a FIFO, a device or a
 * directory planted at the name.
 *
 *  - A file written whole (likelytop --suggest-out, splicebench --plot):
 *    tool_out_open() creates a file with no name in the name's directory
 *    (O_TMPFILE, mode 0666 & ~umask: a process killed while writing, by
 *    any signal, leaves nothing), tool_out_commit() links it at a
 *    temporary name beside it (".<name>.XXXXXX", at once where the file
 *    system has no O_TMPFILE) and renames that
 *    over the name: an existing regular file is replaced atomically, the
 *    name is never written through, and a failure (tool_out_abort())
 *    leaves the old file as it was.  Anything but a regular file (or
 *    nothing) at the name is refused, before and again just before the
 *    rename.
 *  - A file written as a stream (splicebench --consumer file:PATH):
 *    tool_out_open_stream() opens the name itself, O_NOFOLLOW, without
 *    blocking on a FIFO, and keeps it only when it is a regular file.
 *
 * Library-style: nothing printed; 0 or -errno, -EINVAL for a name that is
 * not a regular file (tool_file_kind() says what it is).
 */
#ifndef SUITE_OUTFILE_H
#define SUITE_OUTFILE_H

#include <stdio.h>

struct tool_out {
	int fd;			/* write here */
	int dirfd;		/* the directory of the name (AT_FDCWD) */
	char *name;		/* the name in dirfd */
	char *tmp;		/* the temporary name in dirfd, or NULL (none yet) */
};

/*
 * Open path (or name in the directory dirfd, AT_FDCWD for none) for a
 * whole new content: o->fd is a new temporary file beside it.  -EINVAL
 * when something other than a regular file is at the name, -errno else.
 */
int tool_out_open(struct tool_out *o, const char *path);
int tool_out_openat(struct tool_out *o, int dirfd, const char *name);
/* fsync and close the temporary file, then rename it over the name
 * (refused, -EINVAL, if a non-regular file appeared there meanwhile).
 * On failure the temporary file is removed.  o is released either way. */
int tool_out_commit(struct tool_out *o);
/* Drop the temporary file: the name stays as it was. */
void tool_out_abort(struct tool_out *o);

/* Open path in place for streamed writes (created 0666 & ~umask when
 * missing, not truncated): a blocking fd on a regular file, or -errno
 * (-EINVAL: not a regular file: symlink, FIFO, device, directory). */
int tool_out_open_stream(const char *path);

/*
 * A directory files are written into (--textfile DIR), opened once:
 * never through a symlink, with or without trailing slashes ("link/"
 * names the link's target: the slashes are stripped before the
 * O_NOFOLLOW open).  The descriptor, or -errno (-ENOTDIR also for a
 * symlink).
 */
int tool_out_dir_open(const char *dir);
/* The same, -ELOOP for a symlink. */
int tool_dir_open_nofollow(const char *dir);
/* strlen(dir) without its trailing slashes ("/" keeps its one). */
size_t tool_dir_len(const char *dir);
/*
 * name in dirfd (AT_FDCWD: a path) written whole by write(f, arg) on a
 * stdio stream, then committed (tool_out_commit); a failure of write (its
 * -errno), of the stream or of the commit leaves the old file as it was.
 */
typedef int tool_out_writer(FILE *f, void *arg);
int tool_out_write(int dirfd, const char *name, tool_out_writer *write, void *arg);
/* The cause of a tool_out_*() failure, for a message: the -EINVAL and
 * -ENOTDIR of the functions above in words, else tool_strerror(). */
const char *tool_out_strerror(int err);

#endif
