// SPDX-License-Identifier: LGPL-2.1-or-later
/* /proc/PID/mountinfo: parse lines and find mounts by filesystem type. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kattr/private_core.h"
#include "likely_prof.h"

/*
 * The kernel writes each line as show_mountinfo() (fs/proc_namespace.c)
 * does, a format stable since 2.6.26 (Documentation/filesystems/proc.rst,
 * "3.5 /proc/<pid>/mountinfo"):
 *
 *   ID PARENT MAJ:MIN ROOT MOUNT_POINT MOUNT_OPTS [OPTIONAL...] - FSTYPE SOURCE SUPER_OPTS
 *
 * fields separated by one space, a space, tab, newline or backslash inside
 * a field written as a 3-digit octal escape (\040).  This is all we read
 * of it, so it is parsed here rather than through libmount: libmount
 * cost every rgctl call more than the call's own work (four shared
 * libraries, libselinux's start-up probes, a table and an fmemopen(3)
 * per line, and a getcwd(2) and readlink(2) per line to guess a thread
 * id we never use).  What libmount did for us and is kept: fields come
 * back decoded, a line that is not mountinfo (an fstab's "a b c d",
 * garbage) is refused on its own and the others still read, and the
 * file is opened beneath the root by kattr_root_open_path(), never
 * through a symlink out of a captured tree.  What a field names (a mount
 * point such as /../../../tmp/x) is resolved beneath the sysroot by
 * whoever opens it (kattr_mount_open_at()).
 */

/* The next field of *p (separated by spaces or tabs), NUL-terminated in
 * place; NULL at the end of the line. */
static char *next_field(char **p)
{
	char *s = *p, *e;

	s += strspn(s, " \t");
	if (!*s)
		return NULL;
	e = s + strcspn(s, " \t");
	if (*e)
		*e++ = '\0';
	*p = e;
	return s;
}

static bool is_octal(char c)
{
	return c >= '0' && c <= '7';
}

/* Decode \ooo escapes in place (as the kernel's mangle() wrote them). */
static char *unescape(char *s)
{
	char *r = s, *w = s;

	while (*r) {
		if (r[0] == '\\' && is_octal(r[1]) && is_octal(r[2]) &&
		    is_octal(r[3]) && r[1] <= '3') {
			*w++ = (char)((r[1] - '0') << 6 | (r[2] - '0') << 3 |
				      (r[3] - '0'));
			r += 4;
		} else {
			*w++ = *r++;
		}
	}
	*w = '\0';
	return s;
}

/* A decimal number 0..INT_MAX, the whole of s; -1 if not. */
static long number(const char *s, const char **end)
{
	long v = 0;
	const char *p = s;

	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (*p - '0');
		if (v > INT_MAX)
			return -1;
	}
	if (p == s)
		return -1;
	*end = p;
	return v;
}

static bool is_number(const char *s, long *v)
{
	const char *end = NULL;

	*v = s ? number(s, &end) : -1;
	return *v >= 0 && !*end;
}

/* "MAJ:MIN", both decimal. */
static bool is_dev(const char *s)
{
	const char *end = NULL;
	long v;

	if (!s || number(s, &end) < 0 || *end != ':')
		return false;
	return is_number(end + 1, &v);
}

int kattr_mountinfo_parse(char *line, struct kattr_mnt *out)
{
	char *p = line, *f, *dev, *v[6] = { NULL };	/* root ... super_opts */
	long id, parent;

	memset(out, 0, sizeof(*out));
	line[strcspn(line, "\n")] = '\0';
	if (!is_number(next_field(&p), &id) ||
	    !is_number(next_field(&p), &parent))
		return -EINVAL;
	dev = next_field(&p);
	for (int i = 0; i < 3; i++)	/* root, mount point, mount options */
		v[i] = next_field(&p);
	/* the optional fields (shared:N, master:N, ...) end at "-" */
	while ((f = next_field(&p)) && strcmp(f, "-") != 0)
		;
	for (int i = 3; f && i < 6; i++)	/* fstype, source, super options */
		v[i] = next_field(&p);
	if (!is_dev(dev) || !v[2] || !v[5])
		return -EINVAL;
	out->id = (unsigned int)id;
	out->parent_id = (unsigned int)parent;
	out->root = unescape(v[0]);
	out->mount_point = unescape(v[1]);
	out->mount_opts = unescape(v[2]);
	out->fstype = unescape(v[3]);
	out->source = unescape(v[4]);
	out->super_opts = unescape(v[5]);
	return 0;
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

/* The whole of fd's file, NUL-terminated, into *buf (malloc'ed). */
static int read_all(int fd, char **buf, size_t *size)
{
	size_t cap = 8192, len = 0;
	char *b = malloc(cap), *nb;
	ssize_t n;

	if (!b)
		return -ENOMEM;
	/* /proc hands out whole lines, at most a page per read */
	while ((n = read(fd, b + len, cap - len - 1)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			free(b);
			return -errno;
		}
		len += (size_t)n;
		if (len > 64 << 20) {	/* no mount table is that long */
			free(b);
			return -EFBIG;
		}
		if (cap - len - 1 < 4096) {
			nb = realloc(b, cap * 2);
			if (!nb) {
				free(b);
				return -ENOMEM;
			}
			b = nb;
			cap *= 2;
		}
	}
	b[len] = '\0';
	*buf = b;
	*size = len;
	return 0;
}

int kattr_mountinfo_foreach_at(const struct kattr_root *root, kattr_mnt_cb cb,
			       void *data)
{
	char path[64], *text = NULL, *line, *next, *end;
	size_t len = 0;
	int fd, ret;

	/* /proc/self is a symlink; name our own pid so a captured tree can
	 * hold a plain directory there as well. */
	snprintf(path, sizeof(path), "/proc/%ld/mountinfo", (long)getpid());
	fd = kattr_root_open_path(root, path, O_RDONLY);
	if (fd == -ENOENT && kattr_root_sysroot(root))
		/* captured trees keep it as proc/self/mountinfo */
		fd = kattr_root_open_path(root, "/proc/self/mountinfo", O_RDONLY);
	if (fd < 0)
		return fd;
	ret = read_all(fd, &text, &len);
	close(fd);
	if (ret < 0)
		return ret;
	end = text + len;
	for (line = text; line < end && ret == 0; line = next) {
		struct kattr_mnt mnt;

		next = memchr(line, '\n', (size_t)(end - line));
		next = next ? next : end;
		*next++ = '\0';	/* (end is the NUL read_all() put there) */
		if (unlikely(kattr_mountinfo_parse(line, &mnt) < 0))
			continue;
		ret = cb(&mnt, data);
	}
	free(text);
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

int kattr_mountinfo_foreach(kattr_mnt_cb cb, void *data)
{
	return kattr_mountinfo_foreach_at(NULL, cb, data);
}

int kattr_mountinfo_find_at(const struct kattr_root *root, const char *fstype,
			    const char *super_opt, char **mount_point)
{
	struct find_ctx ctx = { fstype, super_opt, NULL };
	int ret;

	if (!fstype || !mount_point)
		return -EINVAL;
	ret = kattr_mountinfo_foreach_at(root, find_cb, &ctx);
	if (ret < 0)
		return ret;
	if (!ctx.found)
		return -ENOENT;
	*mount_point = ctx.found;
	return 0;
}

int kattr_mountinfo_find(const char *fstype, const char *super_opt,
			 char **mount_point)
{
	return kattr_mountinfo_find_at(NULL, fstype, super_opt, mount_point);
}
