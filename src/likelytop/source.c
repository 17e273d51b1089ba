// SPDX-License-Identifier: GPL-2.0-or-later
/* likelytop sources: files, stdin, procfs, tracefs, user-space profiles. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kattr/private_core.h"
#include "source.h"
#include "tool.h"

static const char *const trace_dirs[] = {
	"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
};

/*
 * Filesystems whose stat of a regular file changes whenever its content
 * does: disk and memory filesystems that keep real sizes and mtimes.
 * procfs, sysfs, tracefs and debugfs report size 0 (or a fixed size) and a
 * fixed mtime while the content moves; FUSE and network filesystems may do
 * either.  Only on these is "same stat" taken for "same content".
 */
static const unsigned long stat_tracks_content[] = {
	0xEF53UL,		/* ext2, ext3, ext4 */
	0x58465342UL,		/* xfs */
	0x9123683EUL,		/* btrfs */
	0xF2F52010UL,		/* f2fs */
	0x2FC12FC1UL,		/* zfs */
	0x794C7630UL,		/* overlayfs: its layers' stat */
	KATTR_MAGIC_TMPFS,
	0x858458F6UL,		/* ramfs */
};

static bool stat_is_trustworthy(int fd)
{
	struct statfs sfs;

	if (fstatfs(fd, &sfs) < 0)
		return false;
	for (size_t i = 0; i < sizeof(stat_tracks_content) /
			      sizeof(stat_tracks_content[0]); i++)
		if ((unsigned long)sfs.f_type == stat_tracks_content[i])
			return true;
	return false;
}

/* The same file, unchanged since the last read, by its stat. */
static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino &&
	       a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
	       a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
	       a->st_ctim.tv_sec == b->st_ctim.tv_sec &&
	       a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

/*
 * Read a file the user named, or a user-space profile: regular files and
 * character devices only, never a FIFO that would block us.  1 when the
 * file is the one last read, unchanged: only where its stat can tell.
 */
static int read_path(struct lt_source *s, bool nofollow, char **buf,
		     size_t *len)
{
	const char *path = s->path;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK |
		      (nofollow ? O_NOFOLLOW : 0));
	struct stat st;
	int ret;

	if (fd < 0)
		return errno == ELOOP && nofollow ? -ELOOP : -errno;
	if (fstat(fd, &st) < 0 || S_ISDIR(st.st_mode)) {
		ret = S_ISDIR(st.st_mode) ? -EISDIR : -errno;
		close(fd);
		return ret;
	}
	if (!S_ISREG(st.st_mode) && !S_ISCHR(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	if (S_ISREG(st.st_mode) && s->have_last && same_file(&st, &s->last)) {
		close(fd);
		return 1;
	}
	ret = kattr_read_fd(fd, buf, len);
	s->read_trusted = false;
	if (ret == 0 && S_ISREG(st.st_mode) && stat_is_trustworthy(fd)) {
		s->last = st;
		s->have_last = true;
		s->read_trusted = true;
	}
	close(fd);
	return ret;
}

int lt_prof_dir(char *buf, size_t size)
{
	const char *d = getenv(LT_PROF_DIR_ENV);
	int n;

	if (d && *d)
		n = snprintf(buf, size, "%s", d);
	else if ((d = getenv("XDG_RUNTIME_DIR")) && *d)
		n = snprintf(buf, size, "%s/likely_prof", d);
	else if ((d = getenv("HOME")) && *d)
		n = snprintf(buf, size, "%s/.cache/likely_prof", d);
	else
		return -ENOENT;
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

int lt_source_file(struct lt_source *s, const char *path)
{
	memset(s, 0, sizeof(*s));
	if (!strcmp(path, "-")) {
		s->kind = LT_SRC_STDIN;
		s->name = strdup("standard input");
		return s->name ? 0 : -ENOMEM;
	}
	s->kind = LT_SRC_FILE;
	s->name = strdup(path);
	s->path = strdup(path);
	return s->name && s->path ? 0 : -ENOMEM;
}

static int set_user(struct lt_source *s, const char *dir, pid_t pid)
{
	if (asprintf(&s->path, "%s/%d", dir, (int)pid) < 0) {
		s->path = NULL;
		return -ENOMEM;
	}
	if (asprintf(&s->name, "pid %d (%s)", (int)pid, s->path) < 0) {
		s->name = NULL;
		return -ENOMEM;
	}
	s->kind = LT_SRC_USER;
	s->pid = pid;
	return 0;
}

int lt_source_pid(struct lt_source *s, pid_t pid, char *dir, size_t dirsize)
{
	struct stat st;
	int ret;

	memset(s, 0, sizeof(*s));
	ret = lt_prof_dir(dir, dirsize);
	if (ret < 0)
		return ret;
	ret = set_user(s, dir, pid);
	if (ret < 0)
		return ret;
	if (lstat(s->path, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;		/* there, but not a regular file */
	return 0;
}

static bool pid_alive(pid_t pid)
{
	return pid > 0 && (kill(pid, 0) == 0 || errno == EPERM);
}

/* The newest profile of a live process in dir; 0 with *pid, or -ENOENT. */
static int newest_live(const char *dir, pid_t *pid)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct timespec best = { 0, 0 };
	pid_t found = 0;

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		struct stat st;
		char *end;
		long v;

		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;	/* also skips '.' temporaries */
		errno = 0;
		v = strtol(de->d_name, &end, 10);
		if (*end || errno || v <= 0 || v > INT_MAX)
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISREG(st.st_mode) || !pid_alive((pid_t)v))
			continue;
		if (!found || st.st_mtim.tv_sec > best.tv_sec ||
		    (st.st_mtim.tv_sec == best.tv_sec &&
		     st.st_mtim.tv_nsec > best.tv_nsec)) {
			best = st.st_mtim;
			found = (pid_t)v;
		}
	}
	closedir(d);
	if (!found)
		return -ENOENT;
	*pid = found;
	return 0;
}

static int try_tracefs(struct lt_source *s, char *why, size_t whysize)
{
	int last = -ENOENT;

	for (size_t i = 0; i < sizeof(trace_dirs) / sizeof(trace_dirs[0]); i++) {
		struct kattr_mount *m;
		struct stat st;
		unsigned long magic;
		int ret = kattr_mount_open_at(tool_root(), trace_dirs[i], KATTR_MAGIC_TRACEFS,
					   KATTR_MOUNT_ANY_MAGIC, &m);

		if (ret < 0) {
			last = ret;
			continue;
		}
		magic = kattr_mount_magic(m);
		if (!tool_sysroot() && magic != KATTR_MAGIC_TRACEFS &&
		    magic != KATTR_MAGIC_DEBUGFS) {
			kattr_mount_close(m);
			last = -EMEDIUMTYPE;
			continue;
		}
		ret = kattr_stat(m, LT_TRACE_REL, &st);
		if (ret < 0) {
			kattr_mount_close(m);
			last = ret;
			continue;
		}
		s->kind = LT_SRC_TRACEFS;
		s->mnt = m;
		if (asprintf(&s->name, "%s/%s", trace_dirs[i], LT_TRACE_REL) < 0) {
			s->name = NULL;
			return -ENOMEM;
		}
		return 0;
	}
	if (last == -EACCES || last == -EPERM)
		snprintf(why, whysize, "%s/%s: permission denied (tracefs is readable by root only)",
			 trace_dirs[0], LT_TRACE_REL);
	else
		snprintf(why, whysize, "%s/%s: %s (needs a kernel built with CONFIG_PROFILE_ANNOTATED_BRANCHES and tracefs mounted)",
			 trace_dirs[0], LT_TRACE_REL,
			 last == -ENOENT ? "missing" : tool_strerror(-last));
	return -ENOENT;
}

int lt_source_detect(struct lt_source *s, struct lt_detect_report *r)
{
	char dir[PATH_MAX];
	pid_t pid = 0;
	int ret;

	memset(s, 0, sizeof(*s));
	memset(r, 0, sizeof(*r));
	ret = kattr_root_open_path(tool_root(), LT_PROC_PATH, O_PATH);	/* beneath --sysroot */
	if (ret >= 0) {
		close(ret);
		s->kind = LT_SRC_PROC;
		s->name = strdup(LT_PROC_PATH);
		s->path = strdup(LT_PROC_PATH);
		return s->name && s->path ? 0 : -ENOMEM;
	}
	snprintf(r->lines[0], sizeof(r->lines[0]),
		 "%s: missing (needs a kernel built with CONFIG_PROFILE_LIKELY, the 2006 -mm likely-profiling patch)",
		 LT_PROC_PATH);
	ret = try_tracefs(s, r->lines[1], sizeof(r->lines[1]));
	if (ret != -ENOENT)
		return ret;
	ret = lt_prof_dir(dir, sizeof(dir));
	if (ret < 0) {
		snprintf(r->lines[2], sizeof(r->lines[2]),
			 "user-space profiles: no directory (set LIKELY_PROF_DIR, XDG_RUNTIME_DIR or HOME)");
		return -ENOENT;
	}
	ret = newest_live(dir, &pid);
	if (ret == 0)
		return set_user(s, dir, pid);
	snprintf(r->lines[2], sizeof(r->lines[2]),
		 "%.300s: %s (needs a running program built with likely_prof.h; or use -p PID or --exec)",
		 dir, ret == -ENOENT ? "no profile of a live process" : tool_strerror(-ret));
	return -ENOENT;
}

static void rm_tmpdir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (d) {
		while ((de = readdir(d)))
			if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
				(void)unlinkat(dirfd(d), de->d_name, 0);
		closedir(d);
	}
	(void)rmdir(dir);
}

int lt_source_exec(struct lt_source *s, char *const argv[], int out_fd,
		   int err_fd)
{
	const char *tmp = getenv("TMPDIR");
	int pfd[2], err = 0, ret;
	sigset_t none;
	ssize_t r;
	pid_t pid;

	memset(s, 0, sizeof(*s));
	if (!tmp || !*tmp)
		tmp = "/tmp";
	if (asprintf(&s->tmpdir, "%s/likelytop.XXXXXX", tmp) < 0) {
		s->tmpdir = NULL;
		return -ENOMEM;
	}
	if (!mkdtemp(s->tmpdir)) {
		ret = -errno;
		free(s->tmpdir);
		s->tmpdir = NULL;
		return ret;
	}
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		ret = -errno;
		goto out_rmdir;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		close(pfd[0]);
		close(pfd[1]);
		goto out_rmdir;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR | O_CLOEXEC);

		close(pfd[0]);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		signal(SIGPIPE, SIG_DFL);	/* batch mode ignores it */
		if (null >= 0) {
			dup2(null, STDIN_FILENO);
			dup2(out_fd >= 0 ? out_fd : null, STDOUT_FILENO);
			dup2(err_fd >= 0 ? err_fd : null, STDERR_FILENO);
		}
		if (setenv(LT_PROF_DIR_ENV, s->tmpdir, 1) == 0)
			execvp(argv[0], argv);
		err = errno;
		if (write(pfd[1], &err, sizeof(err)) < 0)
			_exit(127);
		_exit(127);
	}
	close(pfd[1]);
	do
		r = read(pfd[0], &err, sizeof(err));
	while (r < 0 && errno == EINTR);
	close(pfd[0]);
	if (r == (ssize_t)sizeof(err)) {
		waitpid(pid, NULL, 0);
		ret = -err;
		goto out_rmdir;
	}
	s->child = pid;
	ret = set_user(s, s->tmpdir, pid);
	if (ret < 0)
		return ret;	/* lt_source_close() cleans up */
	free(s->name);
	if (asprintf(&s->name, "%s (pid %d)", argv[0], (int)pid) < 0)
		s->name = NULL;
	return s->name ? 0 : -ENOMEM;
out_rmdir:
	rm_tmpdir(s->tmpdir);
	free(s->tmpdir);
	s->tmpdir = NULL;
	return ret;
}

bool lt_source_child_done(struct lt_source *s)
{
	int status;

	if (s->child_exited)
		return true;
	if (!s->child)
		return false;
	if (waitpid(s->child, &status, WNOHANG) == s->child) {
		s->child_exited = true;
		s->child_status = status;
		s->child = 0;
		return true;
	}
	return false;
}

int lt_source_read(struct lt_source *s, char **buf, size_t *len)
{
	int ret;

	switch (s->kind) {
	case LT_SRC_STDIN:
		if (!s->stdin_done) {
			ret = kattr_read_fd(STDIN_FILENO, &s->stdin_data,
					   &s->stdin_len);
			if (ret < 0)
				return ret;
			s->stdin_done = true;
		}
		*buf = malloc(s->stdin_len + 1);
		if (!*buf)
			return -ENOMEM;
		memcpy(*buf, s->stdin_data, s->stdin_len + 1);
		*len = s->stdin_len;
		return 0;
	case LT_SRC_PROC:
		return kattr_root_file_read(tool_root(), s->path, buf, len);
	case LT_SRC_TRACEFS:
		return kattr_read_alloc(s->mnt, LT_TRACE_REL, buf, len);
	case LT_SRC_USER:
		/* Never follow a symlink a user planted in the directory. */
		return read_path(s, true, buf, len);
	default:
		return read_path(s, false, buf, len);
	}
}

void lt_source_close(struct lt_source *s)
{
	if (s->child > 0 && !s->child_exited) {
		kill(s->child, SIGTERM);
		waitpid(s->child, NULL, 0);
		s->child = 0;
	}
	if (s->tmpdir) {
		rm_tmpdir(s->tmpdir);
		free(s->tmpdir);
		s->tmpdir = NULL;
	}
	if (s->mnt)
		kattr_mount_close(s->mnt);
	s->mnt = NULL;
	free(s->name);
	free(s->path);
	free(s->stdin_data);
	s->name = s->path = s->stdin_data = NULL;
}
