// SPDX-License-Identifier: LGPL-2.1-or-later
/* Attributes and directories beneath a mount handle. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kattr/kattr.h"
#include "kattr/private_core.h"

int kattr_grow(void **v, size_t *cap, size_t n, size_t elem)
{
	size_t want;
	void *tmp;

	if (n < *cap)
		return 0;
	want = *cap ? *cap * 2 : 8;
	if (want < *cap || want > SIZE_MAX / elem)
		return -ENOMEM;
	tmp = realloc(*v, want * elem);
	if (!tmp)
		return -ENOMEM;
	*v = tmp;
	*cap = want;
	return 0;
}

/* The first buffer for fd: 4 KiB, or room for what a regular file says
 * it holds (a 15 MB profile re-read every second then takes no
 * regrowth); at most KATTR_READ_MAX. */
static size_t read_first_cap(int fd)
{
	struct stat st;

	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size <= 4096)
		return 4096;
	if ((uint64_t)st.st_size >= KATTR_READ_MAX - 4096)
		return KATTR_READ_MAX;
	return (size_t)st.st_size + 4096;
}

int kattr_read_fd(int fd, char **out, size_t *len)
{
	size_t cap = read_first_cap(fd), n = 0;
	char *buf = malloc(cap), *tmp;
	ssize_t r;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		if (n + 1 >= cap) {
			if (cap >= KATTR_READ_MAX) {
				free(buf);
				return -EFBIG;
			}
			cap = cap > KATTR_READ_MAX / 2 ? KATTR_READ_MAX : cap * 2;
			tmp = realloc(buf, cap);
			if (!tmp) {
				free(buf);
				return -ENOMEM;
			}
			buf = tmp;
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			free(buf);
			return (int)r;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	buf[n] = '\0';
	*out = buf;
	if (len)
		*len = n;
	return 0;
}

int kattr_read_alloc(struct kattr_mount *m, const char *rel, char **out,
		     size_t *len)
{
	int fd = kattr_open(m, rel, O_RDONLY), ret;

	if (fd < 0)
		return fd;
	ret = kattr_read_fd(fd, out, len);
	close(fd);
	return ret;
}

ssize_t kattr_read(struct kattr_mount *m, const char *rel, char *buf,
		   size_t size)
{
	size_t len;
	char *tmp;
	int ret;

	if (!size)
		return -EINVAL;
	ret = kattr_read_alloc(m, rel, &tmp, &len);
	if (ret < 0)
		return ret;
	if (len + 1 > size) {
		free(tmp);
		return -EOVERFLOW;
	}
	memcpy(buf, tmp, len + 1);
	free(tmp);
	return (ssize_t)len;
}

int kattr_read_u64(struct kattr_mount *m, const char *rel, uint64_t *value)
{
	char buf[64], *p, *end;
	unsigned long long v;
	ssize_t n;

	n = kattr_read(m, rel, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	for (p = buf; *p == ' ' || *p == '\t' || *p == '\n'; p++)
		;
	if (*p < '0' || *p > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(p, &end, 10);
	if (errno)
		return -errno;
	while (*end == ' ' || *end == '\t' || *end == '\n')
		end++;
	if (*end)
		return -EINVAL;
	*value = v;
	return 0;
}

static bool is_pseudo_fs(unsigned long magic)
{
	switch (magic) {
	case KATTR_MAGIC_CONFIGFS:
	case KATTR_MAGIC_CGROUP1:
	case KATTR_MAGIC_CGROUP2:
	case KATTR_MAGIC_PROC:
	case KATTR_MAGIC_SYSFS:
	case KATTR_MAGIC_TRACEFS:
	case KATTR_MAGIC_DEBUGFS:
	case KATTR_MAGIC_FUSE:
		return true;
	default:
		return false;
	}
}

int kattr_write(struct kattr_mount *m, const char *rel, const void *buf,
		size_t len)
{
	int fd, ret = 0;
	ssize_t n;

	if (m->kind == KATTR_HANDLE_DIR)
		return -EROFS;	/* a plain directory: read only */
	fd = kattr_open(m, rel, O_WRONLY);
	if (fd < 0)
		return fd;
	/* Kernel attributes take a value per write; an ordinary file (a
	 * captured tree under a sysroot) must not keep a longer old value. */
	if (!is_pseudo_fs(m->magic) && ftruncate(fd, 0) < 0) {
		ret = -errno;
		close(fd);
		return ret;
	}
	n = write(fd, buf, len);
	if (n < 0)
		ret = -errno;
	else if ((size_t)n != len)
		ret = -EIO;
	if (close(fd) < 0 && ret == 0 && errno != EINTR)
		ret = -errno;
	return ret;
}

int kattr_write_str(struct kattr_mount *m, const char *rel, const char *s)
{
	return kattr_write(m, rel, s, strlen(s));
}

static int cmp_dirent(const void *a, const void *b)
{
	const struct kattr_dirent *x = a, *y = b;

	return strcmp(x->name, y->name);
}

void kattr_list_free(struct kattr_dirent *ents, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(ents[i].name);
	free(ents);
}

int kattr_list(struct kattr_mount *m, const char *rel,
	       struct kattr_dirent **ents, size_t *n)
{
	struct kattr_dirent *v = NULL;
	size_t cnt = 0, cap = 0;
	struct dirent *de;
	DIR *d;
	int fd, ret = 0;

	fd = kattr_open(m, rel, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return fd;
	d = fdopendir(fd);
	if (!d) {
		ret = -errno;
		close(fd);
		return ret;
	}
	errno = 0;
	while ((de = readdir(d))) {
		unsigned char type = de->d_type;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (type == DT_UNKNOWN) {
			struct stat st;

			if (fstatat(dirfd(d), de->d_name, &st,
				    AT_SYMLINK_NOFOLLOW) == 0)
				type = IFTODT(st.st_mode);
		}
		if (kattr_grow((void **)&v, &cap, cnt, sizeof(*v)) < 0) {
			ret = -ENOMEM;
			goto out_free;
		}
		v[cnt].name = strdup(de->d_name);
		if (!v[cnt].name) {
			ret = -ENOMEM;
			goto out_free;
		}
		v[cnt++].type = type;
		errno = 0;
	}
	if (errno) {
		ret = -errno;
		goto out_free;
	}
	closedir(d);
	if (cnt)
		qsort(v, cnt, sizeof(*v), cmp_dirent);
	*ents = v;
	*n = cnt;
	return 0;

out_free:
	kattr_list_free(v, cnt);
	closedir(d);
	return ret;
}

/*
 * Open the parent of rel beneath m and point *base at its last
 * component, which must be a real name (not "", "." or "..").
 */
static int open_parent(struct kattr_mount *m, const char *rel, char *buf,
		       size_t size, const char **base)
{
	char *slash;
	size_t len;

	if (!rel || rel[0] == '/')
		return -EXDEV;
	len = strlen(rel);
	while (len > 1 && rel[len - 1] == '/')
		len--;
	if (len + 1 > size)
		return -ENAMETOOLONG;
	memcpy(buf, rel, len);
	buf[len] = '\0';
	slash = strrchr(buf, '/');
	*base = slash ? slash + 1 : buf;
	if (!**base || !strcmp(*base, "."))
		return -EINVAL;
	if (!strcmp(*base, ".."))
		return -EXDEV;
	if (slash) {
		*slash = '\0';
		return kattr_open(m, buf, O_PATH | O_DIRECTORY);
	}
	return kattr_open(m, ".", O_PATH | O_DIRECTORY);
}

/* mkdir (rmdir false) or rmdir rel beneath m: 0 or -errno. */
static int mkdir_rmdir(struct kattr_mount *m, const char *rel, bool rmdir,
		       mode_t mode)
{
	char buf[PATH_MAX];
	const char *base;
	int pfd, ret = 0;

	if (m->kind == KATTR_HANDLE_DIR)
		return -EROFS;
	pfd = open_parent(m, rel, buf, sizeof(buf), &base);
	if (pfd < 0)
		return pfd;
	if ((rmdir ? unlinkat(pfd, base, AT_REMOVEDIR) :
		     mkdirat(pfd, base, mode)) < 0)
		ret = -errno;
	close(pfd);
	return ret;
}

int kattr_mkdir(struct kattr_mount *m, const char *rel, mode_t mode)
{
	return mkdir_rmdir(m, rel, false, mode);
}

int kattr_rmdir(struct kattr_mount *m, const char *rel)
{
	return mkdir_rmdir(m, rel, true, 0);
}

int kattr_stat(struct kattr_mount *m, const char *rel, struct stat *st)
{
	int fd = kattr_open(m, rel, O_PATH), ret = 0;

	if (fd < 0)
		return fd;
	if (fstat(fd, st) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

int kattr_file_read(const char *path, char **out, size_t *len)
{
	return kattr_root_file_read(NULL, path, out, len);
}

int kattr_root_file_read(const struct kattr_root *root, const char *path,
			 char **out, size_t *len)
{
	int fd, ret;

	fd = kattr_root_open_path(root, path, O_RDONLY);
	if (fd < 0)
		return fd;
	ret = kattr_read_fd(fd, out, len);
	close(fd);
	return ret;
}
