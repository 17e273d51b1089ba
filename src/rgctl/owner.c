// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Which groups rgctl created: apply --prune deletes only those, dump marks
 * them.  On cgroup v2 the group carries the xattr trusted.rgctl=1 (or
 * user.rgctl=1 where trusted.* is refused); elsewhere (cgroup v1, RGCS,
 * or a v2 kernel without cgroupfs xattrs) a state file holds the inode
 * numbers of the groups rgctl made:
 *
 *   $RGCTL_RUNDIR/owned.MAJ-MIN   (default /run/rgctl; MAJ-MIN: the
 *                                  hierarchy's device), "INO NAME" lines
 *
 * A cgroup's inode number is its id, never reused while the hierarchy is
 * mounted, so a group someone else makes later under the same name is
 * not taken for rgctl's.  The file is rewritten under flock(2).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "rgctl.h"
#include "rgctl_systemd.h"

#define OWN_RUNDIR "/run/rgctl"
#define OWN_VALUE "1"

static const char *const own_xattrs[] = { "trusted.rgctl", "user.rgctl" };

/* Open group's directory beneath the hierarchy (-errno). */
static int group_fd(struct kattr_rg *rg, const char *group)
{
	return kattr_rg_group_open(rg, group, O_RDONLY);
}

/* Tests: RGCTL_OWN_STATE=1 uses the state file on cgroup v2 too. */
static bool use_xattr(struct kattr_rg *rg)
{
	const char *e = getenv("RGCTL_OWN_STATE");

	return kattr_rg_backend_of(rg) == KATTR_RG_CGROUP2 && !(e && *e == '1');
}

/* Open (and create) the state file of rg's device, locked (-errno). */
static int state_open(struct kattr_rg *rg, int lock, bool create)
{
	const char *dir = getenv("RGCTL_RUNDIR");
	char path[PATH_MAX];
	struct stat st;
	int fd;

	if (!dir || !*dir)
		dir = OWN_RUNDIR;
	fd = kattr_rg_group_open(rg, "/", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) < 0) {
		int err = errno;

		close(fd);
		return -err;
	}
	close(fd);
	snprintf(path, sizeof(path), "%s/owned.%u-%u", dir, major(st.st_dev),
		 minor(st.st_dev));
	if (create && mkdir(dir, 0755) < 0 && errno != EEXIST)
		return -errno;
	fd = open(path, (lock == LOCK_SH ? O_RDONLY : O_RDWR) |
		  (create ? O_CREAT : 0) | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	while (flock(fd, lock) < 0)
		if (errno != EINTR) {
			close(fd);
			return -errno;
		}
	return fd;
}

/* The state file's text (malloc'ed, NUL-terminated) or NULL. */
static char *state_text(int fd)
{
	char *text;

	return kattr_read_fd(fd, &text, NULL) == 0 ? text : NULL;
}

/* The line of ino in text, or NULL. */
static char *state_find(char *text, unsigned long long ino)
{
	for (char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		char *end;
		unsigned long long v = strtoull(l, &end, 10);

		if (end != l && *end == ' ' && v == ino)
			return l;
	}
	return NULL;
}

/*
 * Whether the state file (opened with lock, made if create) lists ino;
 * the file stays open in *sfd for the caller to close (-errno: not open).
 */
static bool state_has(struct kattr_rg *rg, int lock, bool create,
		      unsigned long long ino, int *sfd)
{
	char *text;
	bool found;

	*sfd = state_open(rg, lock, create);
	if (*sfd < 0)
		return false;
	text = state_text(*sfd);
	found = text && state_find(text, ino);
	free(text);
	return found;
}

int rgctl_own_mark(struct kattr_rg *rg, const char *group)
{
	struct stat st;
	char line[PATH_MAX + 32];
	int fd, sfd, ret = 0;
	bool found;

	fd = group_fd(rg, group);
	if (fd < 0)
		return fd;
	if (use_xattr(rg))
		for (size_t i = 0; i < 2; i++)
			if (fsetxattr(fd, own_xattrs[i], OWN_VALUE, 1, 0) == 0) {
				close(fd);
				return 0;
			}
	if (fstat(fd, &st) < 0)
		ret = -errno;
	close(fd);
	if (ret < 0)
		return ret;
	found = state_has(rg, LOCK_EX, true, (unsigned long long)st.st_ino, &sfd);
	if (sfd < 0)
		return sfd;
	if (!found) {
		int n = snprintf(line, sizeof(line), "%llu %s\n",
				 (unsigned long long)st.st_ino,
				 kattr_rg_name_is_root(group) ? "/" : group);

		if (lseek(sfd, 0, SEEK_END) < 0 || write(sfd, line, (size_t)n) != n)
			ret = -EIO;
	}
	close(sfd);
	return ret;
}

bool rgctl_own_is_ours(struct kattr_rg *rg, const char *group)
{
	struct stat st;
	char v[8];
	bool ours = false;
	int fd, sfd;

	fd = group_fd(rg, group);
	if (fd < 0)
		return false;
	if (use_xattr(rg))
		for (size_t i = 0; i < 2 && !ours; i++) {
			ssize_t n = fgetxattr(fd, own_xattrs[i], v, sizeof(v) - 1);

			if (n > 0) {
				v[n] = '\0';
				ours = strcmp(v, OWN_VALUE) == 0;
			}
		}
	if (ours || fstat(fd, &st) < 0 || kattr_get_sysroot()) {
		close(fd);
		return ours;
	}
	close(fd);
	ours = state_has(rg, LOCK_SH, false, (unsigned long long)st.st_ino, &sfd);
	if (sfd >= 0)
		close(sfd);
	return ours;
}

/* Remove the line of ino from the state file (under its lock). */
static void state_drop(struct kattr_rg *rg, unsigned long long ino)
{
	char *text, *l, *nl;
	int sfd;

	if (kattr_get_sysroot())
		return;
	sfd = state_open(rg, LOCK_EX, false);

	if (sfd < 0)
		return;
	text = state_text(sfd);
	l = text ? state_find(text, ino) : NULL;
	if (l) {
		nl = strchr(l, '\n');
		memmove(l, nl ? nl + 1 : l + strlen(l), strlen(nl ? nl + 1 : "") + 1);
		if (ftruncate(sfd, 0) == 0 &&
		    pwrite(sfd, text, strlen(text), 0) != (ssize_t)strlen(text))
			tool_warn("cannot rewrite the state file of groups rgctl made: %s",
				  strerror(errno));
	}
	free(text);
	close(sfd);
}

unsigned long long rgctl_own_ino(struct kattr_rg *rg, const char *group)
{
	struct stat st;
	unsigned long long ino = 0;
	int fd = group_fd(rg, group);

	if (fd < 0)
		return 0;
	if (fstat(fd, &st) == 0)
		ino = (unsigned long long)st.st_ino;
	close(fd);
	return ino;
}

void rgctl_own_drop(struct kattr_rg *rg, unsigned long long ino)
{
	if (ino)
		state_drop(rg, ino);
}

/* group's first k components, into buf. */
static void prefix(const char *group, unsigned int k, char *buf, size_t size)
{
	const char *p = group;

	for (unsigned int i = 0; i < k && p; i++) {
		p = strchr(p, '/');
		if (p && i + 1 < k)
			p++;
	}
	snprintf(buf, size, "%.*s", p ? (int)(p - group) : (int)strlen(group), group);
}

unsigned int rgctl_own_existing(struct kattr_rg *rg, const char *group)
{
	unsigned int depth = kattr_rg_name_depth(group), k;
	char buf[PATH_MAX];

	for (k = 0; k < depth; k++) {
		prefix(group, k + 1, buf, sizeof(buf));
		if (kattr_rg_exists(rg, buf) < 0)
			break;
	}
	return k;
}

void rgctl_own_mark_made(struct kattr_rg *rg, const char *group,
			 unsigned int existing)
{
	unsigned int depth = kattr_rg_name_depth(group);
	char buf[PATH_MAX];

	for (unsigned int k = existing; k < depth; k++) {
		int ret;

		prefix(group, k + 1, buf, sizeof(buf));
		ret = rgctl_own_mark(rg, buf);
		if (ret < 0)
			tool_warn("cannot mark '%s' as made by rgctl (apply --prune will keep it): %s",
				  rgctl_q(buf), rgctl_strerror(ret));
	}
}
