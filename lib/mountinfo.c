// SPDX-License-Identifier: LGPL-2.1-or-later
/* /proc/PID/mountinfo: parse lines and find mounts by filesystem type. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kattr/kattr.h"
#include "likely_prof.h"

/* Decode the \ooo escapes the kernel uses for space, tab, newline, '\'. */
static void unescape(char *s)
{
	char *w = s;

	while (*s) {
		if (unlikely(s[0] == '\\') && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 4;
		} else {
			*w++ = *s++;
		}
	}
	*w = '\0';
}

static char *next_field(char **p)
{
	char *s = *p, *start;

	while (*s == ' ')
		s++;
	if (!*s || *s == '\n')
		return NULL;
	start = s;
	while (*s && *s != ' ' && *s != '\n')
		s++;
	if (*s)
		*s++ = '\0';
	*p = s;
	return start;
}

static int parse_uint(const char *s, unsigned int *out)
{
	char *end;
	unsigned long v;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v > UINT_MAX)
		return -EINVAL;
	*out = (unsigned int)v;
	return 0;
}

int kattr_mountinfo_parse(char *line, struct kattr_mnt *out)
{
	char *p = line, *f;

	memset(out, 0, sizeof(*out));
	if (parse_uint(next_field(&p), &out->id) < 0 ||
	    parse_uint(next_field(&p), &out->parent_id) < 0)
		return -EINVAL;
	if (!next_field(&p))			/* major:minor */
		return -EINVAL;
	out->root = next_field(&p);
	out->mount_point = next_field(&p);
	out->mount_opts = next_field(&p);
	if (!out->root || !out->mount_point || !out->mount_opts)
		return -EINVAL;
	/* optional fields, up to the "-" separator */
	for (;;) {
		f = next_field(&p);
		if (unlikely(!f))
			return -EINVAL;
		if (strcmp(f, "-") == 0)
			break;
	}
	out->fstype = next_field(&p);
	out->source = next_field(&p);
	out->super_opts = next_field(&p);
	if (!out->fstype || !out->source || !out->super_opts)
		return -EINVAL;
	unescape((char *)out->root);
	unescape((char *)out->mount_point);
	unescape((char *)out->source);
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
