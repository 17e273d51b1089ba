// SPDX-License-Identifier: GPL-2.0-or-later
/* Files the tools write: see outfile.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "outfile.h"
#include "tool.h"

/* Nothing, or a regular file, at name in dirfd: 0; -EINVAL otherwise. */
static int target_ok(int dirfd, const char *name)
{
	struct stat st;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : -errno;
	return S_ISREG(st.st_mode) ? 0 : -EINVAL;
}

static void out_release(struct tool_out *o)
{
	if (o->fd >= 0)
		close(o->fd);
	if (o->tmp)
		(void)unlinkat(o->dirfd, o->tmp, 0);	/* ours, nothing else */
	free(o->tmp);
	free(o->name);
	o->fd = -1;
	o->tmp = o->name = NULL;
}

/* Give anonfd (an O_TMPFILE file) the name o->tmp in o->dirfd: 0 or
 * -errno.  AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH; /proc/self/fd does
 * not. */
static int link_anon(struct tool_out *o, int anonfd)
{
	char proc[64];

	if (linkat(anonfd, "", o->dirfd, o->tmp, AT_EMPTY_PATH) == 0)
		return 0;
	if (errno != ENOENT && errno != EPERM)
		return -errno;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", anonfd);
	if (linkat(AT_FDCWD, proc, o->dirfd, o->tmp, AT_SYMLINK_FOLLOW) == 0)
		return 0;
	return -errno;
}

/* A new temporary name ".<base>.XXXXXX" beside name, in dirfd (what
 * mkostemp() does for a path): random suffixes until O_EXCL succeeds.
 * anonfd < 0: a new file of that name, its descriptor; else the
 * O_TMPFILE file anonfd linked at that name, 0. */
static int make_tmp(struct tool_out *o, int anonfd)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	const char *slash = strrchr(o->name, '/');
	int dlen = slash ? (int)(slash - o->name + 1) : 0;
	mode_t um = umask(0);
	unsigned int seed;

	umask(um);
	if (getrandom(&seed, sizeof(seed), GRND_NONBLOCK) != sizeof(seed))
		seed = (unsigned int)getpid() ^ (unsigned int)time(NULL);
	for (int tries = 0; tries < 100; tries++) {
		char rnd[7];
		int fd;

		for (int i = 0; i < 6; i++) {
			seed = seed * 1103515245u + 12345u + (unsigned int)tries;
			rnd[i] = chars[(seed >> 16) % (sizeof(chars) - 1)];
		}
		rnd[6] = '\0';
		free(o->tmp);
		if (asprintf(&o->tmp, "%.*s.%s.%s", dlen, o->name,
			     slash ? slash + 1 : o->name, rnd) < 0) {
			o->tmp = NULL;
			return -ENOMEM;
		}
		if (anonfd >= 0)
			fd = link_anon(o, anonfd) == 0 ? 0 : -1;
		else
			fd = openat(o->dirfd, o->tmp, O_WRONLY | O_CREAT | O_EXCL |
				    O_NOFOLLOW | O_CLOEXEC, 0666 & ~um);
		if (fd >= 0)
			return fd;
		if (errno != EEXIST) {
			int e = errno;

			free(o->tmp);
			o->tmp = NULL;
			return -e;
		}
	}
	free(o->tmp);
	o->tmp = NULL;
	return -EEXIST;
}

/*
 * The content is written first into a file with no name (O_TMPFILE in
 * the name's directory), so that a process killed while writing, even
 * by SIGKILL, leaves nothing behind; it gets a temporary name only at
 * commit, just before the rename.  A file system without O_TMPFILE gets
 * the named temporary file at once.
 */
static int open_anon(struct tool_out *o)
{
	const char *slash = strrchr(o->name, '/');
	char *dir = slash ? strndup(o->name, (size_t)(slash - o->name + 1)) : NULL;
	mode_t um = umask(0);
	int fd;

	umask(um);
	if (slash && !dir)
		return -ENOMEM;
	fd = openat(o->dirfd, dir ? dir : ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666 & ~um);
	free(dir);
	return fd < 0 ? -errno : fd;
}

int tool_out_openat(struct tool_out *o, int dirfd, const char *name)
{
	int ret;

	o->fd = -1;
	o->dirfd = dirfd;
	o->tmp = NULL;
	o->name = strdup(name);
	if (!o->name)
		return -ENOMEM;
	ret = target_ok(dirfd, name);
	if (ret == 0) {
		ret = open_anon(o);
		if (ret == -EOPNOTSUPP || ret == -EISDIR || ret == -EINVAL)
			ret = make_tmp(o, -1);	/* no O_TMPFILE there */
	}
	if (ret < 0) {
		out_release(o);
		return ret;
	}
	o->fd = ret;
	return 0;
}

int tool_out_open(struct tool_out *o, const char *path)
{
	return tool_out_openat(o, AT_FDCWD, path);
}

int tool_out_commit(struct tool_out *o)
{
	int ret = 0;

	if (fsync(o->fd) < 0 && errno != EINVAL && errno != EROFS)
		ret = -errno;
	if (ret == 0 && !o->tmp)	/* the O_TMPFILE file: its name now */
		ret = make_tmp(o, o->fd);
	if (close(o->fd) < 0 && ret == 0)
		ret = -errno;
	o->fd = -1;
	/* Again, just before: rename() replaces the name and never writes
	 * through it, but a device or FIFO planted meanwhile is not ours
	 * to replace either. */
	if (ret == 0)
		ret = target_ok(o->dirfd, o->name);
	if (ret == 0 && renameat(o->dirfd, o->tmp, o->dirfd, o->name) < 0)
		ret = -errno;
	if (ret == 0) {
		free(o->tmp);
		o->tmp = NULL;
	}
	out_release(o);
	return ret;
}

void tool_out_abort(struct tool_out *o)
{
	out_release(o);
}

int tool_out_open_stream(const char *path)
{
	struct stat st;
	int fd, ret;

	fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY |
		  O_CLOEXEC, 0666);
	if (fd < 0) {
		/* ELOOP: a symlink; ENXIO: a FIFO nobody reads; EISDIR,
		 * ENODEV...: not a regular file. */
		if (errno == ELOOP || errno == ENXIO || errno == EISDIR ||
		    errno == ENODEV || errno == EOPNOTSUPP)
			return -EINVAL;
		return -errno;
	}
	if (fstat(fd, &st) < 0) {
		ret = -errno;
		close(fd);
		return ret;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	if (fcntl(fd, F_SETFL, 0) < 0) {	/* blocking writes from here */
		ret = -errno;
		close(fd);
		return ret;
	}
	return fd;
}

size_t tool_dir_len(const char *dir)
{
	size_t n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		n--;
	return n;
}

int tool_dir_open_nofollow(const char *dir)
{
	char *d = strndup(dir, tool_dir_len(dir));
	struct stat st;
	int fd;

	/* "link/" resolves link: O_NOFOLLOW sees its last component only
	 * without the slashes */
	if (!d)
		return -ENOMEM;
	fd = open(d, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		fd = -errno;
		/* O_DIRECTORY says ENOTDIR for a symlink */
		if (fd == -ENOTDIR && lstat(d, &st) == 0 && S_ISLNK(st.st_mode))
			fd = -ELOOP;
	}
	free(d);
	return fd;
}

int tool_out_dir_open(const char *dir)
{
	int fd = tool_dir_open_nofollow(dir);

	return fd == -ELOOP ? -ENOTDIR : fd;
}

int tool_out_write(int dirfd, const char *name, tool_out_writer *write, void *arg)
{
	struct tool_out o;
	FILE *fp = NULL;
	int ret = tool_out_openat(&o, dirfd, name);
	int fd = ret == 0 ? dup(o.fd) : -1;

	if (ret < 0)
		return ret;
	if (fd < 0 || !(fp = fdopen(fd, "w")))
		ret = -errno;
	if (fp) {
		ret = write(fp, arg);
		if (ferror(fp) && ret == 0)
			ret = -EIO;
		if (fclose(fp) == EOF && ret == 0)
			ret = -errno;
	} else if (fd >= 0) {
		close(fd);
	}
	if (ret < 0) {
		tool_out_abort(&o);
		return ret;
	}
	return tool_out_commit(&o);
}

const char *tool_out_strerror(int err)
{
	if (err == -EINVAL)
		return "something other than a regular file is at that name";
	if (err == -ENOTDIR)
		return "not a directory (a symbolic link is not followed)";
	return tool_strerror(err);
}
