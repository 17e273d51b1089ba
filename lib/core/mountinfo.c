// SPDX-License-Identifier: LGPL-2.1-or-later
/* /proc/PID/mountinfo, read with libmount: parse lines and find mounts by
 * filesystem type. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libmount/libmount.h>

#include "kattr/kattr.h"
#include "kattr/private.h"
#include "likely_prof.h"

/*
 * Each line goes to libmount (mnt_table_parse_stream()) on its own, through
 * fmemopen(3).  Two things libmount does not do for us, and why:
 *  - it guesses the format from the first line it reads and offers no way
 *    to force mountinfo: a captured file whose first line is garbage would
 *    be read as an fstab and every mount lost (the old parser skipped that
 *    line and read the rest).  One line per table keeps each line's fate
 *    its own; mnt_fs_is_kernel() tells a mountinfo entry from a line that
 *    merely parsed as fstab ("a b c d").
 *  - mnt_table_parse_file() opens the path itself, following symlinks:
 *    under a sysroot that could leave the captured tree.  The file is
 *    opened with kattr_sysroot_open() and read here instead.
 * Fields come back decoded (\040 and friends) as libmount returns them;
 * what they name (a mount point such as /../../../tmp/x) is resolved
 * beneath the sysroot by whoever opens it (kattr_mount_open()).
 */
static int skip_line(struct libmnt_table *tb, const char *file, int line)
{
	(void)tb;
	(void)file;
	(void)line;
	return 1;		/* a malformed line: ignore it */
}

/* Copy s to *w (within end), advancing it; the copy, or NULL if no room. */
static const char *put_field(char **w, const char *end, const char *s)
{
	size_t n = s ? strlen(s) : 0;
	char *start = *w;

	if (!s || n + 1 > (size_t)(end - *w))
		return NULL;
	memcpy(start, s, n + 1);
	*w += n + 1;
	return start;
}

int kattr_mountinfo_parse(char *line, struct kattr_mnt *out)
{
	size_t len = strcspn(line, "\n");
	struct libmnt_table *tb;
	struct libmnt_fs *fs = NULL;
	int ret = -EINVAL, id, parent;
	char *w = line, *end = line + strlen(line) + 1;
	FILE *f;

	memset(out, 0, sizeof(*out));
	if (!len)
		return -EINVAL;
	tb = mnt_new_table();
	if (!tb)
		return -ENOMEM;
	mnt_table_set_parser_errcb(tb, skip_line);
	f = fmemopen(line, len, "r");
	if (!f) {
		ret = -errno;
		goto out_table;
	}
	if (mnt_table_parse_stream(tb, f, "mountinfo") < 0 ||
	    mnt_table_get_nents(tb) != 1 || mnt_table_first_fs(tb, &fs) != 0 ||
	    !mnt_fs_is_kernel(fs))
		goto out_file;
	id = mnt_fs_get_id(fs);
	parent = mnt_fs_get_parent_id(fs);
	if (id < 0 || parent < 0)
		goto out_file;
	fclose(f);
	f = NULL;
	/* The decoded fields are never longer than the line they came from:
	 * they go back into it, as the caller's line owns them. */
	out->id = (unsigned int)id;
	out->parent_id = (unsigned int)parent;
	out->root = put_field(&w, end, mnt_fs_get_root(fs));
	out->mount_point = put_field(&w, end, mnt_fs_get_target(fs));
	out->mount_opts = put_field(&w, end, mnt_fs_get_vfs_options(fs));
	out->fstype = put_field(&w, end, mnt_fs_get_fstype(fs));
	out->source = put_field(&w, end, mnt_fs_get_source(fs));
	out->super_opts = put_field(&w, end, mnt_fs_get_fs_options(fs));
	if (out->root && out->mount_point && out->mount_opts && out->fstype &&
	    out->source && out->super_opts)
		ret = 0;
	else
		memset(out, 0, sizeof(*out));
out_file:
	if (f)
		fclose(f);
out_table:
	mnt_unref_table(tb);
	return ret;
}

bool kattr_opt_has(const char *opts, const char *opt)
{
	size_t n = strlen(opt);
	const char *p = opts;

	if (!opts || !n)
		return false;
	while (*p) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		if (len == n && memcmp(p, opt, n) == 0)
			return true;
		if (!comma)
			break;
		p = comma + 1;
	}
	return false;
}

int kattr_mountinfo_foreach(kattr_mnt_cb cb, void *data)
{
	char path[64], *line = NULL;
	size_t cap = 0;
	FILE *f;
	int fd, ret = 0;

	/* /proc/self is a symlink; name our own pid so a captured tree can
	 * hold a plain directory there as well. */
	snprintf(path, sizeof(path), "/proc/%ld/mountinfo", (long)getpid());
	fd = kattr_sysroot_open(path, O_RDONLY);
	if (fd == -ENOENT && kattr_get_sysroot())
		/* captured trees keep it as proc/self/mountinfo */
		fd = kattr_sysroot_open("/proc/self/mountinfo", O_RDONLY);
	if (fd < 0)
		return fd;
	f = fdopen(fd, "re");
	if (!f) {
		ret = -errno;
		close(fd);
		return ret;
	}
	ret = 0;
	while (getline(&line, &cap, f) > 0) {
		struct kattr_mnt mnt;

		if (unlikely(kattr_mountinfo_parse(line, &mnt) < 0))
			continue;
		ret = cb(&mnt, data);
		if (ret != 0)
			break;
	}
	free(line);
	fclose(f);
	return ret;
}

struct find_ctx {
	const char *fstype;
	const char *opt;
	char *found;
};

static int find_cb(const struct kattr_mnt *mnt, void *data)
{
	struct find_ctx *ctx = data;

	if (likely(strcmp(mnt->fstype, ctx->fstype) != 0))
		return 0;
	if (ctx->opt && !kattr_opt_has(mnt->super_opts, ctx->opt))
		return 0;
	ctx->found = strdup(mnt->mount_point);
	return ctx->found ? 1 : -ENOMEM;
}

int kattr_mountinfo_find(const char *fstype, const char *super_opt,
			 char **mount_point)
{
	struct find_ctx ctx = { fstype, super_opt, NULL };
	int ret;

	if (!fstype || !mount_point)
		return -EINVAL;
	ret = kattr_mountinfo_foreach(find_cb, &ctx);
	if (ret < 0)
		return ret;
	if (!ctx.found)
		return -ENOENT;
	*mount_point = ctx.found;
	return 0;
}
