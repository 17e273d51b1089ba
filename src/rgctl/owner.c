// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Which groups rgctl made: apply --prune deletes only those, dump marks
 * them, delete forgets them.  Ownership is a property of the group:
 *
 * - the extended attribute trusted.rgctl on the group's directory (cgroup
 *   v1 and v2: kernfs keeps trusted.*; user.rgctl when trusted.* is
 *   refused to a user without CAP_SYS_ADMIN), set right after the mkdir
 *   (kattr_rg_on_create(): a group that cannot be marked is removed
 *   again), gone with the group.  Its value says who made it, when, with
 *   what, and under which name:
 *
 *	rgctl-owner 1\n name=G\n uid=U\n pid=P\n time=T\n cmd=C\n [conf=F\n]
 *
 *   A group is rgctl's only if that value is there and its name's last
 *   component is the group's (a group renamed since, by another tool, is
 *   not).  As root only trusted.rgctl counts (user.* is writable by any
 *   owner of a delegated directory).
 *
 * - where the filesystem keeps no extended attributes (EOPNOTSUPP: RGCS
 *   on configfs, the FUSE emulator, old kernels), a registry in rgctl's
 *   run-state directory (state.c):
 *
 *	marks.MAJ-MIN-RINO	"rgctl-marks 1 " + the mount's identity, then
 *				one "INO SEAL NAME" line per group
 *
 *   The identity is the boot id, the mount's id (the never-reused 64-bit
 *   one from Linux 6.8 on), the device and the root's inode: a remount
 *   makes a new one, and a file of another identity counts for nothing.
 *   SEAL is HMAC-SHA256 (nettle), keyed by owner.key (32 random bytes,
 *   mode 0600), of identity, inode and name: a line written or changed by
 *   hand does not verify.  A group counts as rgctl's when a sealed line
 *   has both its inode and its name.  Every write drops the lines whose
 *   group is gone (or no longer has that inode), and replaces the file
 *   whole (written as marks-new.KEY, renamed over it) under an exclusive
 *   flock on marks-lock.KEY: a kill at any point leaves the old registry
 *   or the new one, never a cut one.  Files owned.MAJ-MIN of older
 *   versions are never read.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include <nettle/hmac.h>

#include "rgctl.h"
#include "rgctl_systemd.h"

#ifndef STATX_MNT_ID
#define STATX_MNT_ID 0x00001000U
#endif
#ifndef STATX_MNT_ID_UNIQUE
#define STATX_MNT_ID_UNIQUE 0x00004000U
#endif

#define OWN_XATTR	"trusted.rgctl"
#define OWN_XATTR_USER	"user.rgctl"
#define OWN_MAGIC	"rgctl-owner 1\n"
#define REG_MAGIC	"rgctl-marks 1 "
#define REG_KEY		"owner.key"
#define KEY_LEN		32
#define SEAL_LEN	16		/* bytes of the HMAC kept (32 hex digits) */
#define VALUE_MAX	2048

static const char *own_cmd = "rgctl";
static const char *own_conf;
/* who marks: asked once, not for each group made */
static unsigned int own_uid;
static int own_pid;

void rgctl_own_context(const char *cmd, const char *conf)
{
	if (cmd)
		own_cmd = cmd;
	own_conf = conf;
}

/* The last component of name ("a/b/" -> "b", length in *len). */
static const char *last_comp(const char *name, size_t *len)
{
	size_t n = strlen(name);
	const char *p;

	while (n > 1 && name[n - 1] == '/')
		n--;
	p = name + n;
	while (p > name && p[-1] != '/')
		p--;
	*len = (size_t)(name + n - p);
	return p;
}

/* The xattr's value for group, into buf; its length. */
static size_t own_value(const char *group, char *buf, size_t size)
{
	char conf[1024] = "";
	int n;

	if (!own_pid) {
		own_uid = (unsigned int)geteuid();
		own_pid = (int)getpid();
	}
	if (own_conf) {
		snprintf(conf, sizeof(conf), "conf=%s\n", own_conf);
		for (char *p = conf + 5; *p && p[1]; p++)
			if (*p == '\n')
				*p = '?';
	}
	n = snprintf(buf, size, OWN_MAGIC "name=%s\nuid=%u\npid=%d\ntime=%lld\ncmd=%s\n%s",
		     group, own_uid, own_pid,
		     (long long)time(NULL), own_cmd, conf);
	return n < 0 ? 0 : (size_t)n >= size ? size - 1 : (size_t)n;
}

/* Whether value v (n bytes) names group (its last component) and, for
 * uid != -1, was written by uid. */
static bool value_ok(const char *v, int n, const char *group, long uid)
{
	char buf[VALUE_MAX + 1], *name;
	size_t glen, vlen, len;
	const char *g = last_comp(group, &glen), *c;
	bool more;

	if (n <= 0 || n > VALUE_MAX)
		return false;
	memcpy(buf, v, (size_t)n);
	buf[n] = '\0';
	if (strncmp(buf, OWN_MAGIC, strlen(OWN_MAGIC)) != 0)
		return false;
	name = strstr(buf, "\nname=");
	if (!name)
		return false;
	name += 6;
	len = strcspn(name, "\n");
	more = name[len] != '\0';
	name[len] = '\0';
	c = last_comp(name, &vlen);
	if (vlen != glen || memcmp(c, g, glen) != 0)
		return false;
	if (uid < 0)
		return true;
	/* the line after the name: "uid=U" */
	return more && strncmp(name + len + 1, "uid=", 4) == 0 &&
	       strtol(name + len + 5, NULL, 10) == uid;
}

/* ---- the registry (filesystems without extended attributes) ------------ */

struct reg {
	int dir;			/* the state directory */
	int lock;			/* marks-lock.KEY, flocked */
	int fd;				/* the marks file (-1: none yet) */
	char file[96];			/* its name */
	unsigned int maj, min;		/* the hierarchy's device, */
	unsigned long long ino;		/* its root: the files' key */
	char id[256];			/* the mount's identity */
	unsigned char key[KEY_LEN];
};

/* The boot id, or "" (the identity then relies on the rest). */
static void boot_id(char *buf, size_t size)
{
	int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, size - 1);

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

/* rg's mount identity into r->id, the marks file's name into file. */
static int mount_ident(struct kattr_rg *rg, struct reg *r, char *file,
		       size_t size)
{
	struct statx stx;
	char boot[64];
	int fd = kattr_rg_group_open(rg, "/", O_RDONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return fd;
	if (statx(fd, "", AT_EMPTY_PATH, STATX_INO | STATX_MNT_ID |
		  STATX_MNT_ID_UNIQUE | STATX_BTIME, &stx) < 0)
		ret = -errno;
	close(fd);
	if (ret < 0)
		return ret;
	boot_id(boot, sizeof(boot));
	snprintf(r->id, sizeof(r->id), "boot=%s mnt%s=%llu dev=%u:%u root=%llu btime=%lld",
		 boot, (stx.stx_mask & STATX_MNT_ID_UNIQUE) ? "u" :
		 (stx.stx_mask & STATX_MNT_ID) ? "" : "?",
		 (unsigned long long)stx.stx_mnt_id, stx.stx_dev_major,
		 stx.stx_dev_minor, (unsigned long long)stx.stx_ino,
		 (stx.stx_mask & STATX_BTIME) ? (long long)stx.stx_btime.tv_sec : 0LL);
	r->maj = stx.stx_dev_major;
	r->min = stx.stx_dev_minor;
	r->ino = (unsigned long long)stx.stx_ino;
	rgctl_state_key(file, size, "marks", r->maj, r->min, r->ino, NULL);
	return 0;
}

/* A file of the state directory fit to trust: ours, regular, private. */
static int check_file(int fd, mode_t deny)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	return st.st_uid != geteuid() || (st.st_mode & deny) ? -EPERM : 0;
}

/* Make the key file: written aside, then linked into place. */
static void key_make(int dir)
{
	unsigned char key[KEY_LEN];
	char tmp[64];
	int fd;

	if (getrandom(key, sizeof(key), 0) != (ssize_t)sizeof(key))
		return;
	snprintf(tmp, sizeof(tmp), REG_KEY ".%d", (int)getpid());
	fd = openat(dir, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		    0600);
	if (fd < 0)
		return;
	/* linkat failing with EEXIST: another run won, its key stands */
	if (write(fd, key, sizeof(key)) == (ssize_t)sizeof(key) &&
	    linkat(dir, tmp, dir, REG_KEY, 0) < 0 && errno != EEXIST)
		errno = 0;	/* the key is read back below either way */
	close(fd);
	unlinkat(dir, tmp, 0);
}

/* Read the key (made first if create). */
static int key_read(int dir, bool create, unsigned char *key)
{
	int fd = openat(dir, REG_KEY, O_RDONLY | O_NOFOLLOW | O_CLOEXEC), ret;

	if (fd < 0 && errno == ENOENT && create) {
		key_make(dir);
		fd = openat(dir, REG_KEY, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	}
	if (fd < 0)
		return -errno;
	ret = check_file(fd, 077);
	if (ret == 0 && read(fd, key, KEY_LEN) != KEY_LEN)
		ret = -EINVAL;
	close(fd);
	return ret;
}

static void reg_close(struct reg *r)
{
	if (r->fd >= 0)
		close(r->fd);
	if (r->lock >= 0)
		close(r->lock);
	close(r->dir);
}

/*
 * Open rg's registry: its lock taken (exclusive if write: the lock file
 * made if missing), then its marks file (r->fd -1 when there is none
 * yet and write).
 */
static int reg_open(struct kattr_rg *rg, bool write, struct reg *r)
{
	char lock[128], shown[PATH_MAX];
	int ret;

	ret = mount_ident(rg, r, r->file, sizeof(r->file));
	if (ret < 0)
		return ret;
	r->dir = rgctl_state_dir(write, shown, sizeof(shown));
	if (r->dir < 0)
		return r->dir;
	r->lock = r->fd = -1;
	ret = key_read(r->dir, write, r->key);
	if (ret < 0)
		goto fail;
	rgctl_state_key(lock, sizeof(lock), "marks-lock", r->maj, r->min, r->ino, NULL);
	r->lock = openat(r->dir, lock, (write ? O_RDWR | O_CREAT : O_RDONLY) |
			 O_NOFOLLOW | O_CLOEXEC, 0600);
	ret = r->lock < 0 ? -errno : check_file(r->lock, 022);
	while (ret == 0 && flock(r->lock, write ? LOCK_EX : LOCK_SH) < 0)
		if (errno != EINTR)
			ret = -errno;
	/* a reader needs no lock (a write is one rename); a registry of
	 * an older rgctl has no lock file */
	if (ret == -ENOENT && !write)
		ret = 0;
	if (ret < 0)
		goto fail;
	r->fd = openat(r->dir, r->file, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	ret = r->fd < 0 ? -errno : check_file(r->fd, 022);
	if (ret == -ENOENT && write)
		return 0;
	if (ret == 0)
		return 0;
fail:
	if (r->lock >= 0)
		close(r->lock);
	if (r->fd >= 0)
		close(r->fd);
	close(r->dir);
	return ret;
}

/* Replace rg's marks file with out[len]: written aside, renamed over it. */
static int reg_replace(struct reg *r, const char *out, size_t len)
{
	char tmp[128];
	int fd, ret = 0;

	rgctl_state_key(tmp, sizeof(tmp), "marks-new", r->maj, r->min, r->ino, NULL);
	fd = openat(r->dir, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
		    0600);
	if (fd < 0)
		return -errno;
	if (write(fd, out, len) != (ssize_t)len)
		ret = -EIO;
	if (close(fd) < 0 && ret == 0)
		ret = -errno;
	if (ret == 0 && renameat(r->dir, tmp, r->dir, r->file) < 0)
		ret = -errno;
	if (ret < 0)
		unlinkat(r->dir, tmp, 0);
	return ret;
}

/* The seal of (identity, ino, name), in hex. */
static void seal(const struct reg *r, unsigned long long ino, const char *name,
		 char out[2 * SEAL_LEN + 1])
{
	struct hmac_sha256_ctx c;
	uint8_t d[SEAL_LEN];
	char n[32];
	int len = snprintf(n, sizeof(n), "\n%llu\n", ino);

	hmac_sha256_set_key(&c, KEY_LEN, r->key);
	hmac_sha256_update(&c, strlen(r->id), (const uint8_t *)r->id);
	hmac_sha256_update(&c, (size_t)len, (const uint8_t *)n);
	hmac_sha256_update(&c, strlen(name), (const uint8_t *)name);
	hmac_sha256_digest(&c, SEAL_LEN, d);
	for (int i = 0; i < SEAL_LEN; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

/*
 * The next sealed line of text after *pos ("INO SEAL NAME"), cut in
 * place: its inode and name.  false at the end.  Lines that do not parse
 * or verify are skipped.
 */
static bool reg_next(const struct reg *r, char **pos, unsigned long long *ino,
		     const char **name)
{
	char want[2 * SEAL_LEN + 1];

	while (*pos && **pos) {
		char *l = *pos, *nl = strchr(l, '\n'), *end, *s;

		*pos = nl ? nl + 1 : NULL;
		if (!nl)
			break;			/* a line cut short */
		*nl = '\0';
		*ino = strtoull(l, &end, 10);
		if (end == l || *end != ' ' || !*ino)
			continue;
		s = end + 1;
		if (strlen(s) < 2 * SEAL_LEN + 2 || s[2 * SEAL_LEN] != ' ')
			continue;
		*name = s + 2 * SEAL_LEN + 1;
		seal(r, *ino, *name, want);
		if (memcmp(s, want, 2 * SEAL_LEN) == 0)
			return true;
	}
	return false;
}

/* The registry's lines after its header (or NULL: another mount's). */
static char *reg_body(const struct reg *r, char *text)
{
	size_t m = strlen(REG_MAGIC), n = strlen(r->id);

	if (!text || strncmp(text, REG_MAGIC, m) != 0 ||
	    strncmp(text + m, r->id, n) != 0 || text[m + n] != '\n')
		return NULL;
	return text + m + n + 1;
}

/* Whether a sealed line of rg's registry has both ino and group. */
static bool reg_has(struct kattr_rg *rg, unsigned long long ino,
		    const char *group)
{
	struct reg r;
	unsigned long long i;
	const char *name;
	char *text = NULL, *pos;
	bool found = false;

	if (reg_open(rg, false, &r) < 0)
		return false;
	if (kattr_read_fd(r.fd, &text, NULL) == 0)
		for (pos = reg_body(&r, text); !found && reg_next(&r, &pos, &i, &name);)
			found = i == ino && strcmp(name, group) == 0;
	free(text);
	reg_close(&r);
	return found;
}

/* Whether group still exists with inode ino. */
static bool still_there(struct kattr_rg *rg, const char *group,
			unsigned long long ino)
{
	struct stat st;
	int fd = kattr_rg_group_open(rg, group, O_RDONLY | O_CLOEXEC);
	bool there;

	if (fd < 0)
		return false;
	there = fstat(fd, &st) == 0 && (unsigned long long)st.st_ino == ino;
	close(fd);
	return there;
}

/* Append "INO SEAL NAME\n" to out. */
static void reg_line(const struct reg *r, FILE *out, unsigned long long ino,
		     const char *name)
{
	char s[2 * SEAL_LEN + 1];

	seal(r, ino, name, s);
	fprintf(out, "%llu %s %s\n", ino, s, name);
}

/*
 * Rewrite rg's registry: its sealed lines of groups still there, without
 * ino's (drop), with ino's for group (add: group not NULL).
 */
static int reg_update(struct kattr_rg *rg, unsigned long long ino,
		      const char *group)
{
	struct reg r;
	unsigned long long i;
	const char *name;
	char *text = NULL, *pos, *out = NULL;
	size_t len = 0;
	FILE *f;
	int ret;

	ret = reg_open(rg, true, &r);
	if (ret < 0)
		return ret;
	f = open_memstream(&out, &len);
	if (!f || (r.fd >= 0 && kattr_read_fd(r.fd, &text, NULL) < 0)) {
		ret = -ENOMEM;
		goto out;
	}
	fprintf(f, REG_MAGIC "%s\n", r.id);
	for (pos = reg_body(&r, text); reg_next(&r, &pos, &i, &name);)
		if (i != ino && still_there(rg, name, i))
			reg_line(&r, f, i, name);
	if (group)
		reg_line(&r, f, ino, group);
	if (fclose(f) != 0) {
		f = NULL;
		ret = -ENOMEM;
		goto out;
	}
	f = NULL;
	ret = reg_replace(&r, out, len);
out:
	if (f)
		fclose(f);
	free(out);
	free(text);
	reg_close(&r);
	return ret;
}

/* ---- marking and asking -------------------------------------------------- */

/* Mark the group open at fd (named group) as rgctl's. */
static int mark_fd(struct kattr_rg *rg, int fd, const char *group)
{
	char v[VALUE_MAX];
	size_t n = own_value(group, v, sizeof(v));
	struct stat st;
	int ret;

	ret = kattr_rg_fxattr_set(fd, OWN_XATTR, v, n, 0);
	if (ret == -EPERM)
		ret = kattr_rg_fxattr_set(fd, OWN_XATTR_USER, v, n, 0);
	if (ret != -EOPNOTSUPP)
		return ret;
	if (fstat(fd, &st) < 0)
		return -errno;
	return reg_update(rg, (unsigned long long)st.st_ino, group);
}

/* kattr_rg_on_create()'s hook: every directory rgctl makes is marked. */
static int own_made(int fd, const char *group, void *data)
{
	return mark_fd(data, fd, group);
}

void rgctl_own_install(struct kattr_rg *rg)
{
	kattr_rg_on_create(rg, own_made, rg);
}

int rgctl_own_mark(struct kattr_rg *rg, const char *group)
{
	int fd = kattr_rg_group_open(rg, group, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return fd;
	ret = mark_fd(rg, fd, group);
	close(fd);
	return ret;
}

bool rgctl_own_is_ours(struct kattr_rg *rg, const char *group)
{
	char v[VALUE_MAX];
	struct stat st;
	bool ours = false;
	int fd, n;

	if (kattr_rg_name_is_root(group))
		return false;
	fd = kattr_rg_group_open(rg, group, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = kattr_rg_fxattr_get(fd, OWN_XATTR, v, sizeof(v));
	if (n >= 0) {
		ours = value_ok(v, n, group, -1);
	} else if ((n == -ENODATA || n == -EPERM) && geteuid() != 0) {
		/* a user's own: user.rgctl, written by this user, on a
		 * directory this user owns */
		n = kattr_rg_fxattr_get(fd, OWN_XATTR_USER, v, sizeof(v));
		ours = n >= 0 && fstat(fd, &st) == 0 && st.st_uid == geteuid() &&
		       value_ok(v, n, group, (long)geteuid());
	} else if (n == -EOPNOTSUPP && fstat(fd, &st) == 0) {
		ours = reg_has(rg, (unsigned long long)st.st_ino, group);
	}
	close(fd);
	return ours;
}

unsigned long long rgctl_own_ino(struct kattr_rg *rg, const char *group)
{
	struct stat st;
	unsigned long long ino = 0;
	int fd = kattr_rg_group_open(rg, group, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	/* Only the registry has anything to forget (an xattr goes with
	 * its group). */
	if (kattr_rg_fxattr_get(fd, OWN_XATTR, NULL, 0) == -EOPNOTSUPP &&
	    fstat(fd, &st) == 0)
		ino = (unsigned long long)st.st_ino;
	close(fd);
	return ino;
}

void rgctl_own_drop(struct kattr_rg *rg, unsigned long long ino)
{
	int ret;

	if (!ino)
		return;
	ret = reg_update(rg, ino, NULL);
	if (ret < 0)
		tool_warn("cannot update the registry of groups rgctl made: %s",
			  rgctl_state_strerror(ret));
}
