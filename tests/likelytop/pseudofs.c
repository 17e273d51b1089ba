// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pseudofs: a FUSE file system that behaves like procfs and tracefs for
 * likelytop's tests: its files report size 0, a fixed mtime, ctime and
 * inode, while their content changes from one open to the next.
 *
 *   pseudofs SRCDIR MOUNTPOINT [fuse options]
 *
 * The file NAME exists when SRCDIR/NAME.1 does.  The k-th open of NAME
 * serves SRCDIR/NAME.k, or the highest-numbered one once k runs past the
 * last, so a test knows exactly which snapshot each read saw.
 */
#define FUSE_USE_VERSION 31
#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_FILES 16

struct served {
	char name[NAME_MAX + 1];
	unsigned opens;
};

static char *srcdir;
static struct served files[MAX_FILES];
static unsigned nfiles;

struct snapshot {
	char *data;
	size_t len;
};

static bool exists(const char *name, unsigned k)
{
	char p[PATH_MAX];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s.%u", srcdir, name, k);
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static struct served *find(const char *path)
{
	const char *name = path + 1;

	if (path[0] != '/' || !*name || strchr(name, '/') ||
	    strlen(name) > NAME_MAX || !exists(name, 1))
		return NULL;
	for (unsigned i = 0; i < nfiles; i++)
		if (!strcmp(files[i].name, name))
			return &files[i];
	if (nfiles == MAX_FILES)
		return NULL;
	strcpy(files[nfiles].name, name);
	return &files[nfiles++];
}

static void *ps_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	(void)conn;
	cfg->use_ino = 1;
	cfg->attr_timeout = 0;
	cfg->entry_timeout = 0;
	return NULL;
}

static int ps_getattr(const char *path, struct stat *st,
		      struct fuse_file_info *fi)
{
	struct served *f;

	(void)fi;
	memset(st, 0, sizeof(*st));
	if (!strcmp(path, "/")) {
		st->st_mode = S_IFDIR | 0555;
		st->st_nlink = 2;
		st->st_ino = 1;
		return 0;
	}
	f = find(path);
	if (!f)
		return -ENOENT;
	/* What procfs and tracefs say of a file whatever it holds. */
	st->st_mode = S_IFREG | 0444;
	st->st_nlink = 1;
	st->st_ino = 2 + (ino_t)(f - files);
	st->st_size = 0;
	st->st_mtim.tv_sec = st->st_ctim.tv_sec = st->st_atim.tv_sec = 1000000000;
	return 0;
}

static int ps_readdir(const char *path, void *buf, fuse_fill_dir_t fill,
		      off_t off, struct fuse_file_info *fi,
		      enum fuse_readdir_flags flags)
{
	(void)off;
	(void)fi;
	(void)flags;
	if (strcmp(path, "/"))
		return -ENOTDIR;
	fill(buf, ".", NULL, 0, 0);
	fill(buf, "..", NULL, 0, 0);
	for (unsigned i = 0; i < nfiles; i++)
		fill(buf, files[i].name, NULL, 0, 0);
	return 0;
}

static int load(const char *name, unsigned k, struct snapshot *s)
{
	char p[PATH_MAX];
	FILE *f;
	long n;

	snprintf(p, sizeof(p), "%s/%s.%u", srcdir, name, k);
	f = fopen(p, "rb");
	if (!f)
		return -errno;
	if (fseek(f, 0, SEEK_END) < 0 || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) < 0) {
		fclose(f);
		return -EIO;
	}
	s->data = malloc((size_t)n + 1);
	if (!s->data) {
		fclose(f);
		return -ENOMEM;
	}
	s->len = fread(s->data, 1, (size_t)n, f);
	fclose(f);
	return 0;
}

static int ps_open(const char *path, struct fuse_file_info *fi)
{
	struct served *f = find(path);
	struct snapshot *s;
	unsigned k;
	int ret;

	if (!f)
		return -ENOENT;
	if ((fi->flags & O_ACCMODE) != O_RDONLY)
		return -EACCES;
	k = ++f->opens;
	while (k > 1 && !exists(f->name, k))
		k--;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	ret = load(f->name, k, s);
	if (ret < 0) {
		free(s);
		return ret;
	}
	fi->fh = (uint64_t)(uintptr_t)s;
	fi->direct_io = 1;	/* size 0: the page cache would read nothing */
	return 0;
}

static int ps_read(const char *path, char *buf, size_t size, off_t off,
		   struct fuse_file_info *fi)
{
	struct snapshot *s = (struct snapshot *)(uintptr_t)fi->fh;

	(void)path;
	if (off < 0 || (size_t)off >= s->len)
		return 0;
	if (size > s->len - (size_t)off)
		size = s->len - (size_t)off;
	memcpy(buf, s->data + off, size);
	return (int)size;
}

static int ps_release(const char *path, struct fuse_file_info *fi)
{
	struct snapshot *s = (struct snapshot *)(uintptr_t)fi->fh;

	(void)path;
	free(s->data);
	free(s);
	return 0;
}

static const struct fuse_operations ps_ops = {
	.init = ps_init,
	.getattr = ps_getattr,
	.readdir = ps_readdir,
	.open = ps_open,
	.read = ps_read,
	.release = ps_release,
};

int main(int argc, char *argv[])
{
	if (argc < 3) {
		fprintf(stderr, "usage: pseudofs SRCDIR MOUNTPOINT [fuse options]\n");
		return 2;
	}
	srcdir = realpath(argv[1], NULL);
	if (!srcdir) {
		perror(argv[1]);
		return 1;
	}
	argv[1] = argv[0];
	return fuse_main(argc - 1, argv + 1, &ps_ops, NULL);
}
