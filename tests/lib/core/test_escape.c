/*
 * --sysroot as an attacker: captured trees whose mountinfo names escaping
 * mount points and whose directories hold symlinks out of the tree.  Every
 * case opens the hierarchy (searching and with --root), creates a group and
 * sets shares; a canary tree outside the sysroot, laid out as a cgroup v1
 * cpu hierarchy and an RGCS res_groups so an escape would succeed, must
 * come out byte for byte the same.  Every case runs with openat2(2) and
 * with the per-component fallback.
 */
#include "testutil.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include "kattr/kattr.h"
#include "kattr/rg.h"
#include "kattr/private_core.h"

struct link {
	const char *path;	/* in the sysroot */
	const char *target;	/* %C: the canary directory */
};

struct hostile {
	const char *what;
	const char *mount_point;	/* as written in mountinfo (%C allowed) */
	const char *fstype;		/* cgroup (super opts rw,cpu) or configfs */
	struct link links[4];
};

/* ".." enough times to leave any temporary directory. */
#define UP "/../../../../../../../../../../../../../../../.."

static const struct hostile cases[] = {
	{ "'..' chain to the canary", UP "%C/sys/fs/cgroup/cpu", "cgroup", { { 0 } } },
	{ "'..' chain in the middle", "/sys/fs/cgroup/../../.." UP "%C/sys/fs/cgroup/cpu",
	  "cgroup", { { 0 } } },
	{ "'..' chain, escaped slash-dot", "/sys\\057..\\057..\\057.." UP "%C/sys/fs/cgroup/cpu",
	  "cgroup", { { 0 } } },
	{ "absolute symlink as the mount point", "/sys/fs/cgroup/cpu", "cgroup",
	  { { "sys/fs/cgroup/cpu", "%C/sys/fs/cgroup/cpu" } } },
	{ "relative '..' symlink as the mount point", "/sys/fs/cgroup/cpu", "cgroup",
	  { { "sys/fs/cgroup/cpu", "../../.." UP "%C/sys/fs/cgroup/cpu" } } },
	{ "symlink to / above the mount point", "/sys/fs/cgroup/cpu", "cgroup",
	  { { "sys", "/" } } },
	{ "symlink to the canary's parent tree", "/sys/fs/cgroup/cpu", "cgroup",
	  { { "sys", "%C/sys" } } },
	{ "chain of symlinks out", "/sys/fs/cgroup/cpu", "cgroup",
	  { { "sys/fs/cgroup/cpu", "/l1" }, { "l1", "l2" }, { "l2", "..%C/sys/fs/cgroup/cpu" } } },
	{ "symlink loop", "/sys/fs/cgroup/cpu", "cgroup",
	  { { "sys/fs/cgroup/cpu", "/loop/a" }, { "loop", "/loop" } } },
	{ "\\040 in the mount point, a symlink by that name", "/sys/fs/cgroup/cpu\\040x", "cgroup",
	  { { "sys/fs/cgroup/cpu x", "%C/sys/fs/cgroup/cpu" } } },
	{ "\\134 (backslash) and '..' in the mount point", "/sys\\134x/.." UP "%C/sys/fs/cgroup/cpu",
	  "cgroup", { { 0 } } },
	{ "proc/self/root -> / in the tree", "/proc/self/root" UP "%C/sys/fs/cgroup/cpu", "cgroup",
	  { { "proc/self/root", "/" } } },
	{ "symlink in the middle of /proc", "/sys/fs/cgroup/cpu", "cgroup",
	  { { "sys/fs/cgroup", "/proc/self/up" }, { "proc/self/up", "../../.." UP "%C/sys/fs/cgroup" } } },
	{ "RGCS: configfs mount point with '..'", UP "%C/config", "configfs", { { 0 } } },
	{ "RGCS: res_groups a symlink out", "/sys/kernel/config", "configfs",
	  { { "sys/kernel/config/res_groups", "%C/config/res_groups" } } },
};

static char *canary;	/* outside every sysroot */

static void subst(char *out, size_t size, const char *in)
{
	size_t w = 0;

	for (const char *p = in; *p && w + 1 < size; p++) {
		if (p[0] == '%' && p[1] == 'C') {
			w += (size_t)snprintf(out + w, size - w, "%s", canary);
			p++;
		} else {
			out[w++] = *p;
		}
	}
	out[w < size ? w : size - 1] = '\0';
}

static void mkdir_p(const char *dir, const char *rel)
{
	char p[PATH_MAX], *s;

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	for (s = p + strlen(dir) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	mkdir(p, 0755);
}

/* The canary: a cgroup v1 cpu hierarchy and an RGCS tree, as files. */
static void make_canary(void)
{
	canary = tu_mkdtemp();
	mkdir_p(canary, "sys/fs/cgroup/cpu");
	tu_write_file(canary, "sys/fs/cgroup/cpu/cpu.shares", "100\n");
	tu_write_file(canary, "sys/fs/cgroup/cpu/tasks", "");
	mkdir_p(canary, "config/res_groups");
	tu_write_file(canary, "config/res_groups/shares",
		      "res=cpu,min_shares=-3,max_shares=-3,child_shares_divisor=100\n");
	tu_write_file(canary, "config/res_groups/members", "");
}

/* Every entry of the canary with its type, size, mtime and content. */
static char snap[1 << 16];
static size_t snap_len;

static int snap_one(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	char buf[256] = "";
	int fd;

	(void)flag;
	(void)ftw;
	if (S_ISREG(st->st_mode) && (fd = open(path, O_RDONLY)) >= 0) {
		ssize_t n = read(fd, buf, sizeof(buf) - 1);

		buf[n > 0 ? n : 0] = '\0';
		close(fd);
	}
	snap_len += (size_t)snprintf(snap + snap_len, sizeof(snap) - snap_len,
				     "%s %o %lld %lld.%09ld [%s]\n", path,
				     (unsigned)st->st_mode, (long long)st->st_size,
				     (long long)st->st_mtim.tv_sec,
				     st->st_mtim.tv_nsec, buf);
	return 0;
}

static char *snapshot(void)
{
	snap_len = 0;
	assert_int_equal(nftw(canary, snap_one, 16, FTW_PHYS), 0);
	return strdup(snap);
}

static void build_tree(const char *root, const struct hostile *h)
{
	char line[PATH_MAX * 3], mp[PATH_MAX * 2], target[PATH_MAX * 2];

	mkdir_p(root, "proc/self");
	mkdir_p(root, "sys/fs/cgroup");
	mkdir_p(root, "sys/kernel/config");
	subst(mp, sizeof(mp), h->mount_point);
	if (strcmp(h->fstype, "cgroup") == 0)
		snprintf(line, sizeof(line),
			 "23 1 0:21 / / rw - ext4 /dev/sda1 rw\n"
			 "32 23 0:29 / %s rw - cgroup cgroup rw,cpu\n", mp);
	else
		snprintf(line, sizeof(line),
			 "23 1 0:21 / / rw - ext4 /dev/sda1 rw\n"
			 "32 23 0:29 / %s rw - configfs configfs rw\n", mp);
	tu_write_file(root, "proc/self/mountinfo", line);
	for (size_t i = 0; i < 4 && h->links[i].path; i++) {
		char p[PATH_MAX];
		struct stat st;

		snprintf(p, sizeof(p), "%s/%s", root, h->links[i].path);
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
			tu_rmtree(p);
		subst(target, sizeof(target), h->links[i].target);
		assert_int_equal(symlink(target, p), 0);
	}
}

/* Try every writing operation; return how many succeeded. */
static int attack(const struct hostile *h, const char *root_arg)
{
	enum kattr_rg_backend b = strcmp(h->fstype, "cgroup") == 0 ?
				  KATTR_RG_CGROUP1 : KATTR_RG_RGCS;
	const char *value = b == KATTR_RG_RGCS ? "min_shares=7" : "4096";
	struct kattr_rg *rg;
	char mp[PATH_MAX * 2];
	int wins = 0;

	if (root_arg) {
		subst(mp, sizeof(mp), root_arg);
		root_arg = mp;
	}
	if (kattr_rg_open(b, root_arg, &rg) < 0)
		return 0;
	wins += kattr_rg_create(rg, "escaped",
				&(const struct kattr_rg_create_args){ .flags = KATTR_RG_PARENTS },
				NULL) == 0;
	wins += kattr_rg_share_set(rg, "/", value, NULL, NULL) == 0;
	kattr_rg_close(rg);
	return wins;
}

static void run_cases(enum kattr_resolve_mode mode)
{
	int escapes = 0;

	kattr_set_resolve_mode(mode);
	make_canary();
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct hostile *h = &cases[i];
		char *root = tu_mkdtemp(), *before, *after;
		char unescaped[PATH_MAX * 2];

		build_tree(root, h);
		before = snapshot();
		assert_int_equal(kattr_set_sysroot(root), 0);
		attack(h, NULL);
		/* --root with the mount point as mountinfo decodes it */
		subst(unescaped, sizeof(unescaped), h->mount_point);
		{
			char line[PATH_MAX * 3];
			struct kattr_mnt mnt;

			snprintf(line, sizeof(line), "1 1 0:1 / %s rw - x x rw",
				 unescaped);
			if (kattr_mountinfo_parse(line, &mnt) == 0)
				attack(h, mnt.mount_point);
		}
		assert_int_equal(kattr_set_sysroot(NULL), 0);
		after = snapshot();
		if (strcmp(before, after) != 0) {
			print_message("case '%s' (%s): the canary outside the sysroot changed:\n--- before\n%s--- after\n%s",
				      h->what, mode == KATTR_RESOLVE_FALLBACK ? "fallback" : "openat2",
				      before, after);
			escapes++;
			tu_rmtree(canary);
			free(canary);
			make_canary();
		}
		free(before);
		free(after);
		tu_rmtree(root);
		free(root);
	}
	tu_rmtree(canary);
	free(canary);
	kattr_set_resolve_mode(KATTR_RESOLVE_AUTO);
	assert_int_equal(escapes, 0);
}

static void hostile_openat2(void **state)
{
	(void)state;
	run_cases(KATTR_RESOLVE_OPENAT2);
}

static void hostile_fallback(void **state)
{
	(void)state;
	run_cases(KATTR_RESOLVE_FALLBACK);
}

/*
 * The same trees, resolved: a symlink inside the sysroot is followed as in a
 * chroot, so an in-tree hierarchy reached through one still works.
 */
static char *in_tree_root;	/* removed by the teardown, failed or not */

static int in_tree_teardown(void **state)
{
	(void)state;
	kattr_set_sysroot(NULL);
	kattr_set_resolve_mode(KATTR_RESOLVE_AUTO);
	if (in_tree_root) {
		tu_rmtree(in_tree_root);
		free(in_tree_root);
		in_tree_root = NULL;
	}
	return 0;
}

static void in_tree_symlinks_work(void **state)
{
	static const enum kattr_resolve_mode modes[] = {
		KATTR_RESOLVE_OPENAT2, KATTR_RESOLVE_FALLBACK,
	};
	char *root = in_tree_root = tu_mkdtemp(), p[PATH_MAX], *canon;
	struct kattr_rg *rg;
	int fd;

	(void)state;
	mkdir_p(root, "proc/self");
	mkdir_p(root, "real/cpu");
	mkdir_p(root, "sys/fs/cgroup");
	tu_write_file(root, "real/cpu/cpu.shares", "1024\n");
	tu_write_file(root, "real/cpu/tasks", "");
	tu_write_file(root, "proc/self/mountinfo",
		      "23 1 0:21 / / rw - ext4 /dev/sda1 rw\n"
		      "32 23 0:29 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n");
	snprintf(p, sizeof(p), "%s/sys/fs/cgroup/cpu", root);
	assert_int_equal(symlink("/sys/../../real/./cpu", p), 0);
	for (size_t i = 0; i < 2; i++) {
		kattr_set_resolve_mode(modes[i]);
		assert_int_equal(kattr_set_sysroot(root), 0);
		fd = kattr_sysroot_open("/sys/fs/cgroup/cpu/cpu.shares", O_RDONLY);
		assert_true(fd >= 0);
		close(fd);
		assert_int_equal(kattr_sysroot_open("/sys/fs/cgroup/cpu/nothing", O_RDONLY),
				 -ENOENT);
		assert_int_equal(kattr_sysroot_canonical("/sys/fs/cgroup/cpu/../cpu", &canon), 0);
		assert_string_equal(canon, "/real/cpu");
		free(canon);
		assert_int_equal(kattr_rg_open(KATTR_RG_CGROUP1, NULL, &rg), 0);
		assert_int_equal(kattr_rg_share_set(rg, "/", "4096", NULL, NULL), 0);
		kattr_rg_close(rg);
		assert_int_equal(kattr_set_sysroot(NULL), 0);
	}
	snprintf(p, sizeof(p), "%s/real/cpu/cpu.shares", root);
	fd = open(p, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(read(fd, p, 5), 4);
	close(fd);
	assert_memory_equal(p, "4096", 4);
}

/*
 * Bind mounts of the same filesystem inside a handle (a directory and a
 * single attribute file): st_dev is the same on both sides, the mount is
 * not.  Both resolvers refuse to cross them (-EXDEV).
 */
static char *bind_top;	/* the test's directory, for the teardown */

static int bind_teardown(void **state)
{
	char p[PATH_MAX];

	(void)state;
	kattr_set_resolve_mode(KATTR_RESOLVE_AUTO);
	if (!bind_top)
		return 0;
	/* whatever failed, leave no mount behind */
	snprintf(p, sizeof(p), "%s/tree/value", bind_top);
	umount2(p, MNT_DETACH);
	snprintf(p, sizeof(p), "%s/tree/a", bind_top);
	umount2(p, MNT_DETACH);
	tu_rmtree(bind_top);
	free(bind_top);
	bind_top = NULL;
	return 0;
}

static void bind_mounts_not_crossed(void **state)
{
	static const enum kattr_resolve_mode modes[] = {
		KATTR_RESOLVE_OPENAT2, KATTR_RESOLVE_FALLBACK,
	};
	char *top, tree[PATH_MAX], out[PATH_MAX], dir[PATH_MAX], file[PATH_MAX];
	char src[PATH_MAX];
	struct kattr_mount *m;
	int fd;

	(void)state;
	TU_REQUIRE_ROOT();
	top = bind_top = tu_mkdtemp();
	mkdir_p(top, "tree/a");
	mkdir_p(top, "outside");
	tu_write_file(top, "tree/value", "1\n");
	tu_write_file(top, "tree/a/value", "2\n");
	tu_write_file(top, "outside/value", "outside\n");
	snprintf(tree, sizeof(tree), "%s/tree", top);
	snprintf(out, sizeof(out), "%s/outside", top);
	snprintf(dir, sizeof(dir), "%s/tree/a", top);
	snprintf(file, sizeof(file), "%s/tree/value", top);
	snprintf(src, sizeof(src), "%s/outside/value", top);
	if (mount(out, dir, NULL, MS_BIND, NULL) < 0) {
		print_message("skip: cannot bind-mount in %s: %s\n", top, strerror(errno));
		skip();
	}
	assert_int_equal(mount(src, file, NULL, MS_BIND, NULL), 0);
	for (size_t i = 0; i < 2; i++) {
		kattr_set_resolve_mode(modes[i]);
		assert_int_equal(kattr_mount_open(tree, 0, KATTR_MOUNT_ANY_MAGIC, &m), 0);
		assert_int_equal(kattr_open(m, "a/value", O_WRONLY), -EXDEV);
		assert_int_equal(kattr_open(m, "a", O_RDONLY | O_DIRECTORY), -EXDEV);
		assert_int_equal(kattr_open(m, "value", O_WRONLY), -EXDEV);
		assert_int_equal(kattr_write_str(m, "value", "x"), -EXDEV);
		fd = kattr_open(m, ".", O_RDONLY | O_DIRECTORY);
		assert_true(fd >= 0);
		close(fd);
		kattr_mount_close(m);
	}
	assert_int_equal(umount2(file, MNT_DETACH), 0);
	assert_int_equal(umount2(dir, MNT_DETACH), 0);
	fd = open(src, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(read(fd, src, 8), 8);
	close(fd);
	assert_memory_equal(src, "outside\n", 8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hostile_openat2),
		cmocka_unit_test(hostile_fallback),
		cmocka_unit_test_teardown(in_tree_symlinks_work, in_tree_teardown),
		cmocka_unit_test_teardown(bind_mounts_not_crossed, bind_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
