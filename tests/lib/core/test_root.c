/*
 * Root handles passed explicitly (kattr_root_open) beside the default root
 * of kattr_set_sysroot(), and plain-directory handles (kattr_dir_open).
 */
#include "testutil.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include "kattr/kattr.h"
#include "kattr/private_core.h"

/* A captured tree with /sys/value holding text and /l -> /sys. */
static char *tree(const char *text)
{
	char *t = tu_mkdtemp(), p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/sys", t);
	assert_int_equal(mkdir(p, 0755), 0);
	tu_write_file(t, "sys/value", text);
	snprintf(p, sizeof(p), "%s/l", t);
	assert_int_equal(symlink("/sys", p), 0);
	return t;
}

/* The first bytes of what fd holds (fd closed). */
static void expect_fd_text(int fd, const char *want)
{
	char buf[64];
	ssize_t n;

	assert_true(fd >= 0);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	assert_true(n >= 0);
	buf[n] = '\0';
	assert_string_equal(buf, want);
}

/*
 * Two roots at once, each its own tree whatever the default root is
 * (with openat2, and with the walk that stands in for it).
 */
static void explicit_roots_in(enum kattr_resolve_mode mode)
{
	char *a = tree("a\n"), *b = tree("b\n"), host_path[PATH_MAX];
	struct kattr_root *ra, *rb, *host;

	kattr_set_resolve_mode(mode);
	assert_int_equal(kattr_root_open(a, &ra), 0);
	assert_int_equal(kattr_root_open(b, &rb), 0);
	assert_int_equal(kattr_root_open(NULL, &host), 0);
	assert_null(kattr_root_sysroot(host));
	assert_non_null(kattr_root_sysroot(ra));
	assert_int_equal(kattr_set_sysroot(b), 0);
	expect_fd_text(kattr_root_open_path(ra, "/sys/value", O_RDONLY), "a\n");
	/* an absolute symlink in the tree stays in it */
	expect_fd_text(kattr_root_open_path(ra, "/l/value", O_RDONLY), "a\n");
	expect_fd_text(kattr_root_open_path(rb, "/l/../sys/value", O_RDONLY), "b\n");
	/* NULL is the default root */
	expect_fd_text(kattr_root_open_path(NULL, "/sys/value", O_RDONLY), "b\n");
	expect_fd_text(kattr_sysroot_open("/sys/value", O_RDONLY), "b\n");
	/* the host's root ignores the default one */
	snprintf(host_path, sizeof(host_path), "%s/sys/value", a);
	expect_fd_text(kattr_root_open_path(host, host_path, O_RDONLY), "a\n");
	assert_int_equal(kattr_root_open_path(ra, "sys/value", O_RDONLY), -EINVAL);
	assert_int_equal(kattr_set_sysroot(NULL), 0);
	kattr_root_close(ra);
	kattr_root_close(rb);
	kattr_root_close(host);
	kattr_set_resolve_mode(KATTR_RESOLVE_AUTO);
	tu_rmtree(a);
	tu_rmtree(b);
	free(a);
	free(b);
}

static void explicit_roots(void **state)
{
	(void)state;
	explicit_roots_in(KATTR_RESOLVE_AUTO);
}

static void explicit_roots_walked(void **state)
{
	(void)state;
	explicit_roots_in(KATTR_RESOLVE_FALLBACK);
}

static void refuses_missing_or_file(void **state)
{
	char *t = tree("x"), file[PATH_MAX];
	struct kattr_root *r = NULL;

	(void)state;
	assert_int_equal(kattr_root_open("/nonexistent/kattr", &r), -ENOENT);
	snprintf(file, sizeof(file), "%s/sys/value", t);
	assert_int_equal(kattr_root_open(file, &r), -ENOTDIR);
	assert_null(r);
	kattr_root_close(NULL);
	tu_rmtree(t);
	free(t);
}

/* Mount handles and the mount table beneath an explicit root. */
static void mounts_beneath_a_root(void **state)
{
	char *t = tree("x"), dir[PATH_MAX], *mp;
	struct kattr_root *r, *host;
	struct kattr_mount *m;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/proc", t);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(dir, sizeof(dir), "%s/proc/self", t);
	assert_int_equal(mkdir(dir, 0755), 0);
	tu_write_file(t, "proc/self/mountinfo",
		      "30 1 0:26 / /sys rw - cgroup2 cgroup2 rw\n");
	assert_int_equal(kattr_root_open(t, &r), 0);
	assert_int_equal(kattr_root_open(NULL, &host), 0);
	/* a captured tree is an ordinary directory: no magic check */
	assert_int_equal(kattr_mount_open_at(r, "/sys", KATTR_MAGIC_CGROUP2, 0, &m), 0);
	assert_string_equal(kattr_mount_path(m), "/sys");
	kattr_mount_close(m);
	/* on the host the magic is checked */
	assert_int_equal(kattr_mount_open_at(host, t, KATTR_MAGIC_CGROUP2, 0, &m),
			 -EMEDIUMTYPE);
	assert_int_equal(kattr_mountinfo_find_at(r, "cgroup2", NULL, &mp), 0);
	assert_string_equal(mp, "/sys");
	free(mp);
	assert_int_equal(kattr_mount_find_at(r, "cgroup2", NULL, KATTR_MAGIC_CGROUP2,
					     0, &m), 0);
	kattr_mount_close(m);
	assert_int_equal(kattr_mountinfo_find_at(r, "configfs", NULL, &mp), -ENOENT);
	kattr_root_close(r);
	kattr_root_close(host);
	tu_rmtree(t);
	free(t);
}

/*
 * A plain directory: relative to the working directory, never beneath
 * the sysroot, read only, and nothing through it leaves it.
 */
static void plain_directories(void **state)
{
	char *t = tree("src\n"), cwd[PATH_MAX], *text;
	struct kattr_mount *m;
	size_t len;

	(void)state;
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(t), 0);
	/* a mount handle takes absolute paths beneath a root only */
	assert_int_equal(kattr_mount_open("sys", 0, KATTR_MOUNT_ANY_MAGIC, &m), -EINVAL);
	assert_int_equal(kattr_set_sysroot("/nonexistent/kattr"), -ENOENT);
	assert_int_equal(kattr_set_sysroot(cwd), 0);	/* any other tree */
	assert_int_equal(kattr_dir_open("sys", &m), 0);
	assert_int_equal(kattr_read_alloc(m, "value", &text, &len), 0);
	assert_string_equal(text, "src\n");
	free(text);
	assert_int_equal(kattr_write_str(m, "value", "w"), -EROFS);
	assert_int_equal(kattr_mkdir(m, "d", 0755), -EROFS);
	assert_int_equal(kattr_rmdir(m, "d"), -EROFS);
	assert_int_equal(kattr_open(m, "../l", O_RDONLY), -EXDEV);
	kattr_mount_close(m);
	/* the old spelling is the same handle */
	assert_int_equal(kattr_mount_open("sys", 0, KATTR_MOUNT_HOST_DIR, &m), 0);
	assert_int_equal(kattr_write_str(m, "value", "w"), -EROFS);
	kattr_mount_close(m);
	assert_int_equal(kattr_dir_open("missing", &m), -ENOENT);
	assert_int_equal(kattr_dir_open("", &m), -ENOENT);	/* as open(2) */
	assert_int_equal(kattr_dir_open(NULL, &m), -EINVAL);
	assert_int_equal(kattr_set_sysroot(NULL), 0);
	assert_int_equal(chdir(cwd), 0);
	tu_rmtree(t);
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(explicit_roots),
		cmocka_unit_test(explicit_roots_walked),
		cmocka_unit_test(refuses_missing_or_file),
		cmocka_unit_test(mounts_beneath_a_root),
		cmocka_unit_test(plain_directories),
	};
	return cmocka_run_group_tests_name("root", tests, NULL, NULL);
}
