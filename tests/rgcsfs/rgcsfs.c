/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * NAME
 *	rgcsfs - the RGCS (Resource Groups configfs, 2006) interface, emulated
 *	with FUSE, for testing rgctl on a kernel without it
 *
 * SYNOPSIS
 *	rgcsfs MOUNTPOINT [-f] [-d]
 *	rgcsfs --help | --version
 *
 * DESCRIPTION
 *	Mounts at MOUNTPOINT a tree whose only entry is res_groups/, the
 *	default (root) group of /work/shared/reference/rgcs-abi.md.  The mount
 *	shows as source "rgcsfs", type "fuse.rgcsfs" in /proc/self/mountinfo
 *	(its statfs magic is FUSE's, not configfs's).  -f stays in the
 *	foreground, -d also prints FUSE's request log.  SIGTERM, SIGINT and
 *	SIGHUP unmount and exit 0; if the process dies anyway, fusermount3's
 *	auto_unmount helper removes the mount.  Tests use it through
 *	tests/rgcsfs/lib.sh (rgcsfs_start / rgcsfs_stop).
 *
 *	Reproduced from the ABI:
 *	- mkdir makes a group, at most 5 levels below res_groups (deeper:
 *	  ENOMEM); mkdir beside res_groups: EPERM.  rmdir res_groups: EPERM;
 *	  a group with child groups: ENOTEMPTY; a group with members
 *	  succeeds and moves them to the parent.  No other file can be made:
 *	  open(O_CREAT) EACCES, mknod/unlink/rename/link/symlink/chmod EPERM.
 *	- every group has shares, stats, members (mode 0644).  A read fills
 *	  the open file's buffer once (re-open, or write, to refresh); a
 *	  failed fill (ENOSPC) is reported once, then reads give EOF.  More
 *	  than 4096 bytes of text: ENOSPC.
 *	- one write(2) is one value: at most 4095 bytes are looked at, cut at
 *	  the first byte the kernel's isprint() rejects (0x00-0x1f,
 *	  0x7f-0x9f); O_TRUNC and truncate(2) are accepted and ignored.
 *	- members: the kernel's simple_strtol(buf, NULL, 0) (0x10 is 16, 017
 *	  is 15, trailing text ignored; unlike glibc no leading blanks or
 *	  '+'), pid <= 0 EINVAL, no /proc/<pid> ESRCH; only that thread
 *	  moves.  Read: one id per line, most recently added first.
 *	- shares: "res=NAME,min_shares=N,max_shares=N,child_shares_divisor=N"
 *	  per attached controller (numtasks and cpu, depth <= 3).  Write:
 *	  comma-separated keys, empty tokens skipped, numbers as match_int
 *	  (base 0, nothing may follow); EINVAL for an unknown key, a bad
 *	  number, a second res=, an unknown or unattached controller, a value
 *	  not in {-3,-2,>=0}, min > max, min/max above the parent's divisor,
 *	  a divisor below a child's min/max.  -1 leaves a field alone; a
 *	  field that is -2 stays.  A write without res= (an oops in 2006)
 *	  fails with EINVAL.
 *	- stats: numtasks' four lines (Current usage = members of the group)
 *	  and "cpu:effective_min_shares=N, load=N".  Write "res=NAME[,...]"
 *	  resets that controller (EINVAL without res=, unknown or unattached).
 *
 *	Emulation choices (the ABI leaves them open): root shares are
 *	numtasks -3,-3,100 and cpu -3,-2,100; new groups numtasks -3,-3,100
 *	and cpu 0,-2,100.  effective_min_shares is 100 at the root, else
 *	parent's * min_shares / parent's child_shares_divisor (0 when either
 *	is not quantitative).  load is the CPU time the group's members used
 *	since they joined or since the last reset, in percent of all CPUs.
 *	numtasks counts successes for tasks moved in and for tasks found to
 *	be forked inside the group; forks are never refused, so the failure
 *	counters stay 0.  res_groups' members are all tasks (threads) in
 *	/proc not moved elsewhere; /proc is re-read on every members/stats
 *	read: tasks that are gone drop out, new ones join the group of their
 *	parent (threads: of their leader).
 */
#define FUSE_USE_VERSION 31

#include <errno.h>
#include <signal.h>
#include <fuse.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "rgcs_model.h"

enum node { N_TOP, N_GROUP, N_ATTR };

struct handle {
	struct rgcs_group *g;
	enum rgcs_attr attr;
	bool filled;
	size_t len;
	char buf[RGCS_PAGE + 1];
};

static struct rgcs_fs the_fs;
static time_t mount_time;

static struct rgcs_fs *fs(void)
{
	return &the_fs;
}

/* Resolve an absolute PATH to the top, a group, or a group's attribute. */
static int resolve(const char *path, struct rgcs_group **gp, int *attrp)
{
	char *copy, *save = NULL, *comp;
	struct rgcs_group *g = NULL;
	int attr = -1, rc = N_TOP;

	copy = strdup(path);
	if (!copy)
		return -ENOMEM;
	for (comp = strtok_r(copy, "/", &save); comp; comp = strtok_r(NULL, "/", &save)) {
		if (attr >= 0) {
			rc = -ENOTDIR;
			break;
		}
		if (!g) {
			if (strcmp(comp, "res_groups")) {
				rc = -ENOENT;
				break;
			}
			g = fs()->root;
			rc = N_GROUP;
			continue;
		}
		struct rgcs_group *c = rgcs_child(g, comp);

		if (c) {
			g = c;
		} else if ((attr = rgcs_attr_index(comp)) >= 0) {
			rc = N_ATTR;
		} else {
			rc = -ENOENT;
			break;
		}
	}
	free(copy);
	*gp = g;
	*attrp = attr;
	return rc;
}

/* Split PATH into its parent and last component (PARENT is malloc'ed). */
static int split(const char *path, char **parent, const char **name)
{
	const char *slash = strrchr(path, '/');

	if (!slash || !slash[1])
		return -EINVAL;
	*parent = strndup(path, (size_t)(slash - path) + (slash == path));
	if (!*parent)
		return -ENOMEM;
	*name = slash + 1;
	return 0;
}

static void *rgcsfs_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
	cfg->direct_io = 1;
	cfg->kernel_cache = 0;
	cfg->entry_timeout = 0;
	cfg->attr_timeout = 0;
	cfg->negative_timeout = 0;
	return NULL;
}

static int rgcsfs_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
	struct rgcs_group *g, *c;
	int attr, rc = resolve(path, &g, &attr);

	if (rc < 0)
		return rc;
	memset(st, 0, sizeof(*st));
	st->st_uid = getuid();
	st->st_gid = getgid();
	st->st_atime = st->st_mtime = st->st_ctime = mount_time;
	switch (rc) {
	case N_TOP:
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 3;
		break;
	case N_GROUP:
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
		for (c = g->children; c; c = c->next)
			st->st_nlink++;
		break;
	default:
		st->st_mode = S_IFREG | 0644;
		st->st_nlink = 1;
		st->st_size = RGCS_PAGE;
		st->st_blksize = RGCS_PAGE;
		break;
	}
	return 0;
}

static int rgcsfs_readdir(const char *path, void *buf, fuse_fill_dir_t filler, off_t off,
			  struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
	struct rgcs_group *g, *c;
	int attr, i, rc = resolve(path, &g, &attr);

	if (rc < 0)
		return rc;
	if (rc == N_ATTR)
		return -ENOTDIR;
	filler(buf, ".", NULL, 0, 0);
	filler(buf, "..", NULL, 0, 0);
	if (rc == N_TOP) {
		filler(buf, "res_groups", NULL, 0, 0);
		return 0;
	}
	for (i = 0; i < RGCS_NATTR; i++)
		filler(buf, rgcs_attr_names[i], NULL, 0, 0);
	for (c = g->children; c; c = c->next)
		filler(buf, c->name, NULL, 0, 0);
	return 0;
}

static int rgcsfs_mkdir(const char *path, mode_t mode)
{
	struct rgcs_group *g;
	const char *name;
	char *parent;
	int attr, rc = split(path, &parent, &name);

	if (rc)
		return rc;
	rc = resolve(parent, &g, &attr);
	free(parent);
	if (rc < 0)
		return rc;
	if (rc == N_TOP)
		return -EPERM;	/* the configfs root takes no mkdir */
	if (rc == N_ATTR)
		return -ENOTDIR;
	return rgcs_mkdir(fs(), g, name);
}

static int rgcsfs_rmdir(const char *path)
{
	struct rgcs_group *g;
	int attr, rc = resolve(path, &g, &attr);

	if (rc < 0)
		return rc;
	if (rc == N_TOP)
		return -EBUSY;
	if (rc == N_ATTR)
		return -ENOTDIR;
	return rgcs_rmdir(fs(), g);
}

static int rgcsfs_open(const char *path, struct fuse_file_info *fi)
{
	struct rgcs_group *g;
	struct handle *h;
	int attr, rc = resolve(path, &g, &attr);

	if (rc < 0)
		return rc;
	if (rc != N_ATTR)
		return -EISDIR;
	h = calloc(1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	h->g = g;
	h->attr = (enum rgcs_attr)attr;
	rgcs_group_get(g);
	fi->fh = (uint64_t)(uintptr_t)h;
	fi->direct_io = 1;
	return 0;
}

static int rgcsfs_read(const char *path, char *buf, size_t size, off_t off,
		       struct fuse_file_info *fi)
{
	struct handle *h = (struct handle *)(uintptr_t)fi->fh;

	if (!h->filled) {
		long n = rgcs_show(fs(), h->g, h->attr, h->buf);

		h->filled = true;	/* configfs: needs_read_fill = 0, even on error */
		h->len = 0;
		if (n < 0)
			return (int)n;
		h->len = (size_t)n;
	}
	if (off < 0 || (size_t)off >= h->len)
		return 0;
	if (size > h->len - (size_t)off)
		size = h->len - (size_t)off;
	memcpy(buf, h->buf + off, size);
	return (int)size;
}

static int rgcsfs_write(const char *path, const char *data, size_t size, off_t off,
			struct fuse_file_info *fi)
{
	struct handle *h = (struct handle *)(uintptr_t)fi->fh;
	int rc = rgcs_store(fs(), h->g, h->attr, data, size);

	if (rc)
		return rc;
	h->filled = false;	/* configfs refills the read buffer after a write */
	return (int)size;
}

static int rgcsfs_release(const char *path, struct fuse_file_info *fi)
{
	struct handle *h = (struct handle *)(uintptr_t)fi->fh;

	rgcs_group_put(h->g);
	free(h);
	return 0;
}

static int rgcsfs_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
	struct rgcs_group *g;
	int attr, rc = resolve(path, &g, &attr);

	if (rc < 0)
		return rc;
	return rc == N_ATTR ? 0 : -EISDIR;	/* size changes are ignored */
}

static int rgcsfs_utimens(const char *path, const struct timespec tv[2],
			  struct fuse_file_info *fi)
{
	struct rgcs_group *g;
	int attr, rc = resolve(path, &g, &attr);

	return rc < 0 ? rc : 0;
}

static int rgcsfs_create(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	return -EACCES;		/* configfs directories have no ->create */
}

static int rgcsfs_mknod(const char *path, mode_t mode, dev_t dev)
{
	return -EPERM;
}

static int rgcsfs_unlink(const char *path)
{
	return -EPERM;
}

static int rgcsfs_rename(const char *from, const char *to, unsigned int flags)
{
	return -EPERM;
}

static int rgcsfs_link(const char *from, const char *to)
{
	return -EPERM;
}

static int rgcsfs_symlink(const char *target, const char *path)
{
	return -EPERM;
}

static int rgcsfs_chmod(const char *path, mode_t mode, struct fuse_file_info *fi)
{
	return -EPERM;
}

static int rgcsfs_chown(const char *path, uid_t uid, gid_t gid, struct fuse_file_info *fi)
{
	return -EPERM;
}

static int rgcsfs_statfs(const char *path, struct statvfs *sv)
{
	memset(sv, 0, sizeof(*sv));
	sv->f_bsize = RGCS_PAGE;
	sv->f_frsize = RGCS_PAGE;
	sv->f_namemax = 255;
	return 0;
}

static const struct fuse_operations rgcsfs_ops = {
	.init = rgcsfs_init,
	.getattr = rgcsfs_getattr,
	.readdir = rgcsfs_readdir,
	.mkdir = rgcsfs_mkdir,
	.rmdir = rgcsfs_rmdir,
	.open = rgcsfs_open,
	.read = rgcsfs_read,
	.write = rgcsfs_write,
	.release = rgcsfs_release,
	.truncate = rgcsfs_truncate,
	.utimens = rgcsfs_utimens,
	.create = rgcsfs_create,
	.mknod = rgcsfs_mknod,
	.unlink = rgcsfs_unlink,
	.rename = rgcsfs_rename,
	.link = rgcsfs_link,
	.symlink = rgcsfs_symlink,
	.chmod = rgcsfs_chmod,
	.chown = rgcsfs_chown,
	.statfs = rgcsfs_statfs,
};

static void usage(FILE *f)
{
	fprintf(f, "Usage: rgcsfs MOUNTPOINT [-f] [-d]\n"
		"Mount an emulation of the 2006 RGCS configfs interface (res_groups/)\n"
		"at MOUNTPOINT, for tests.\n"
		"  -f  stay in the foreground    -d  FUSE debug log (implies -f)\n");
}

/*
 * Mount, serve single-threaded until unmounted or signalled, unmount.
 * fuse_main() would report SIGTERM as a failure; here it is the normal end.
 */
static int serve(const char *mnt, bool fg, bool debug)
{
	char opts[160];
	char *fargv[5];
	int fargc = 0, rc = 1, loop;
	struct fuse_args args;
	struct fuse_session *se;
	struct fuse *f;

	snprintf(opts, sizeof(opts),
		 "fsname=rgcsfs,subtype=rgcsfs,default_permissions,auto_unmount%s",
		 geteuid() == 0 ? ",allow_other" : "");
	fargv[fargc++] = (char *)"rgcsfs";
	fargv[fargc++] = (char *)"-o";
	fargv[fargc++] = opts;
	if (debug)
		fargv[fargc++] = (char *)"-d";
	fargv[fargc] = NULL;
	args = (struct fuse_args)FUSE_ARGS_INIT(fargc, fargv);
	f = fuse_new(&args, &rgcsfs_ops, sizeof(rgcsfs_ops), NULL);
	if (!f)
		goto out_args;
	if (fuse_mount(f, mnt)) {
		fprintf(stderr, "rgcsfs: cannot mount on %s (see above)\n", mnt);
		goto out_destroy;
	}
	se = fuse_get_session(f);
	if (fuse_daemonize(fg) || fuse_set_signal_handlers(se))
		goto out_unmount;
	loop = fuse_loop(f);
	fuse_remove_signal_handlers(se);
	if (loop == 0 || loop == SIGTERM || loop == SIGINT || loop == SIGHUP)
		rc = 0;
	else
		fprintf(stderr, "rgcsfs: serving %s failed: %s\n", mnt,
			strerror(loop < 0 ? -loop : loop));
out_unmount:
	fuse_unmount(f);
out_destroy:
	fuse_destroy(f);
out_args:
	fuse_opt_free_args(&args);
	return rc;
}

int main(int argc, char **argv)
{
	const char *mnt = NULL;
	bool fg = false, debug = false;
	int i, rc;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-f")) {
			fg = true;
		} else if (!strcmp(argv[i], "-d")) {
			debug = true;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "-V") || !strcmp(argv[i], "--version")) {
			printf("rgcsfs (kattr suite) %s\n", SUITE_VERSION);
			return 0;
		} else if (argv[i][0] == '-' || mnt) {
			fprintf(stderr, "rgcsfs: unexpected argument '%s'\n", argv[i]);
			usage(stderr);
			return 2;
		} else {
			mnt = argv[i];
		}
	}
	if (!mnt) {
		fprintf(stderr, "rgcsfs: no mount point given\n");
		usage(stderr);
		return 2;
	}
	rc = rgcs_init(&the_fs, "/proc");
	if (rc) {
		fprintf(stderr, "rgcsfs: cannot read the task list in /proc: %s\n", strerror(-rc));
		return 1;
	}
	mount_time = time(NULL);
	rc = serve(mnt, fg || debug, debug);
	rgcs_fini(&the_fs);
	return rc;
}
