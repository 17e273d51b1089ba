// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rgctl's run-state directory, opened in one place for everyone who keeps
 * state there (owner.c: the registry of groups made where a hierarchy has
 * no extended attributes; cmd_classify.c: the daemon's lock):
 *
 *   $RGCTL_RUNDIR   when set (not empty): that path, as given, on the host;
 *   /run/rgctl      otherwise, resolved beneath the --sysroot tree when one
 *                   is given (a captured tree's hierarchy is there, and
 *                   nothing is written outside it; a symlink planted in the
 *                   tree is not followed out of it).
 *
 * The last component is made (0755) when asked for; a symlink in its place
 * is refused, and so is a directory owned by another user or writable by
 * group or others (a registry others can write is no registry).
 *
 * A file kept there for one hierarchy is named after its root directory's
 * device and inode: PREFIX.MAJ-MIN[-INO][SUFFIX] (rgctl_state_name()):
 * marks.MAJ-MIN-INO (owner.c), journal.MAJ-MIN-INO (planrun.c),
 * classify.MAJ-MIN.lock (cmd_classify.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "rgctl.h"

#define STATE_RUNDIR "/run/rgctl"

/* dir/name made if create, then opened as a directory (no symlink). */
static int open_last(int dir, const char *name, bool create)
{
	int fd;

	if (create && mkdirat(dir, name, 0755) < 0 && errno != EEXIST)
		return -errno;
	fd = openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* $RGCTL_RUNDIR: its parent opened as given, the last component beneath. */
static int open_env(const char *path, bool create)
{
	char parent[4096];
	const char *slash = strrchr(path, '/'), *last = slash ? slash + 1 : path;
	int dir, fd;

	if (!*last || strcmp(last, ".") == 0 || strcmp(last, "..") == 0) {
		/* "dir/", "." and the like: the directory itself */
		fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		return fd < 0 ? -errno : fd;
	}
	if (!slash)
		return open_last(AT_FDCWD, last, create);
	snprintf(parent, sizeof(parent), "%.*s",
		 slash == path ? 1 : (int)(slash - path), path);
	dir = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		return -errno;
	fd = open_last(dir, last, create);
	close(dir);
	return fd;
}

int rgctl_state_dir(bool create, char *shown, size_t size)
{
	const char *env = getenv("RGCTL_RUNDIR");
	const char *sysroot = tool_sysroot();
	struct stat st;
	int fd, run;

	if (env && *env) {
		snprintf(shown, size, "%s", env);
		fd = open_env(env, create);
	} else {
		snprintf(shown, size, "%s%s", sysroot ? sysroot : "", STATE_RUNDIR);
		run = kattr_root_open_path(tool_root(), "/run", O_RDONLY | O_DIRECTORY);
		if (run < 0)
			return run;
		fd = open_last(run, "rgctl", create);
		close(run);
	}
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) < 0 || st.st_uid != geteuid() ||
	    (st.st_mode & (S_IWGRP | S_IWOTH))) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

const char *rgctl_state_strerror(int err)
{
	switch (err) {
	case -ELOOP:
	case -ENOTDIR:
		return "not a directory";
	case -EPERM:
		return "owned by another user or writable by others";
	default:
		return tool_strerror(-err);
	}
}

void rgctl_state_key(char *name, size_t size, const char *prefix, unsigned int maj,
		     unsigned int min, unsigned long long ino, const char *suffix)
{
	char i[32] = "";

	if (ino)
		snprintf(i, sizeof(i), "-%llu", ino);
	snprintf(name, size, "%s.%u-%u%s%s", prefix, maj, min, i, suffix ? suffix : "");
}

int rgctl_state_name(struct kattr_rg *rg, const char *prefix, bool ino,
		     const char *suffix, char *name, size_t size)
{
	struct stat st;
	int fd = kattr_rg_group_open(rg, "/", O_RDONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return fd;
	if (fstat(fd, &st) < 0)
		ret = -errno;
	close(fd);
	if (ret == 0)
		rgctl_state_key(name, size, prefix, major(st.st_dev), minor(st.st_dev),
				ino ? (unsigned long long)st.st_ino : 0, suffix);
	return ret;
}
