/*
 * Mount handles, resolution beneath them, attributes and directories.
 * Every test runs twice: with openat2(2) and with the per-component
 * O_NOFOLLOW fallback.
 */
#include "testutil.h"
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include "kattr/kattr.h"
#include "kattr/private_core.h"

struct fixture {
	char *dir;		/* the tree: a/b/value, a/link -> /etc, ... */
	char *outside;		/* a directory next to it */
	struct kattr_mount *m;
};

static void mk(const char *dir, const char *rel)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	assert_int_equal(mkdir(p, 0755), 0);
}

static void ln(const char *target, const char *dir, const char *rel)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	assert_int_equal(symlink(target, p), 0);
}

static int setup(void **state, enum kattr_resolve_mode mode)
{
	struct fixture *f = calloc(1, sizeof(*f));

	kattr_set_resolve_mode(mode);
	f->dir = tu_mkdtemp();
	f->outside = tu_mkdtemp();
	tu_write_file(f->outside, "secret", "outside\n");
	mk(f->dir, "a");
	mk(f->dir, "a/b");
	tu_write_file(f->dir, "a/b/value", "1024\n");
	tu_write_file(f->dir, "top", "top\n");
	ln(f->outside, f->dir, "a/out");		/* dir symlink out */
	ln("b", f->dir, "a/inside");			/* dir symlink within */
	ln("b/value", f->dir, "a/vlink");		/* file symlink */
	assert_int_equal(kattr_mount_open(f->dir, 0, KATTR_MOUNT_ANY_MAGIC, &f->m), 0);
	*state = f;
	return 0;
}

static int setup_openat2(void **state) { return setup(state, KATTR_RESOLVE_OPENAT2); }
static int setup_fallback(void **state) { return setup(state, KATTR_RESOLVE_FALLBACK); }

static int teardown(void **state)
{
	struct fixture *f = *state;

	kattr_mount_close(f->m);
	tu_rmtree(f->dir);
	tu_rmtree(f->outside);
	free(f->dir);
	free(f->outside);
	free(f);
	kattr_set_resolve_mode(KATTR_RESOLVE_AUTO);
	return 0;
}

static void magic_is_checked(void **state)
{
	struct fixture *f = *state;
	struct kattr_mount *m;

	assert_int_equal(kattr_mount_open("/proc", KATTR_MAGIC_PROC, 0, &m), 0);
	assert_int_equal(kattr_mount_magic(m), KATTR_MAGIC_PROC);
	kattr_mount_close(m);
	/* an ordinary directory is not a configfs or cgroup mount */
	assert_int_equal(kattr_mount_open(f->dir, KATTR_MAGIC_CONFIGFS, 0, &m), -EMEDIUMTYPE);
	assert_int_equal(kattr_mount_open("/proc", KATTR_MAGIC_CGROUP1, 0, &m), -EMEDIUMTYPE);
	assert_int_equal(kattr_mount_open("/nonexistent/kattr", 0, KATTR_MOUNT_ANY_MAGIC, &m), -ENOENT);
	assert_int_equal(kattr_mount_open("/proc/version", KATTR_MAGIC_PROC, 0, &m), -ENOTDIR);
	assert_int_equal(kattr_mount_find("proc", NULL, KATTR_MAGIC_PROC, 0, &m), 0);
	assert_string_equal(kattr_mount_path(m), "/proc");
	assert_true(kattr_mount_fd(m) >= 0);
	kattr_mount_close(m);
	assert_int_equal(kattr_mount_find("no-such-fs", NULL, 0, 0, &m), -ENOENT);
}

static void never_leaves_the_tree(void **state)
{
	struct fixture *f = *state;
	char buf[64];

	assert_int_equal(kattr_open(f->m, "..", O_RDONLY), -EXDEV);
	assert_int_equal(kattr_open(f->m, "a/../../x", O_RDONLY), -EXDEV);
	assert_int_equal(kattr_open(f->m, "/etc/passwd", O_RDONLY), -EXDEV);
	assert_int_equal(kattr_open(f->m, "a/out/secret", O_RDONLY), -ELOOP);
	assert_int_equal(kattr_read(f->m, "a/out/secret", buf, sizeof(buf)), -ELOOP);
	/* even a symlink that stays inside is not followed */
	assert_int_equal(kattr_read(f->m, "a/inside/value", buf, sizeof(buf)), -ELOOP);
	assert_int_equal(kattr_read(f->m, "a/vlink", buf, sizeof(buf)), -ELOOP);
	assert_int_equal(kattr_write_str(f->m, "a/vlink", "1"), -ELOOP);
	assert_int_equal(kattr_open(f->m, "a/vlink", O_PATH), -ELOOP);
	/* the real path works, with "." and empty components tolerated */
	assert_int_equal(kattr_read(f->m, "a/./b//value", buf, sizeof(buf)), 5);
	assert_string_equal(buf, "1024\n");
}

static void does_not_cross_mounts(void **state)
{
	struct kattr_mount *root;
	int fd;

	(void)state;
	assert_int_equal(kattr_mount_open("/", 0, KATTR_MOUNT_ANY_MAGIC, &root), 0);
	/* /proc is another mount beneath / */
	assert_int_equal(kattr_open(root, "proc/version", O_RDONLY), -EXDEV);
	fd = kattr_open(root, "", O_RDONLY | O_DIRECTORY);
	assert_true(fd >= 0);
	close(fd);
	kattr_mount_close(root);
}

static void reads_fresh_every_time(void **state)
{
	struct fixture *f = *state;
	char big[10000], *buf;
	size_t len;
	uint64_t v;

	assert_int_equal(kattr_read_u64(f->m, "a/b/value", &v), 0);
	assert_int_equal(v, 1024);
	tu_write_file(f->dir, "a/b/value", "  7\n");
	assert_int_equal(kattr_read_u64(f->m, "a/b/value", &v), 0);
	assert_int_equal(v, 7);
	tu_write_file(f->dir, "a/b/value", "0x10\n");
	assert_int_equal(kattr_read_u64(f->m, "a/b/value", &v), -EINVAL);
	tu_write_file(f->dir, "a/b/value", "-1\n");
	assert_int_equal(kattr_read_u64(f->m, "a/b/value", &v), -EINVAL);
	tu_write_file(f->dir, "a/b/value", "12 13\n");
	assert_int_equal(kattr_read_u64(f->m, "a/b/value", &v), -EINVAL);
	/* longer than one page: read whole */
	memset(big, 'z', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	tu_write_file(f->dir, "top", big);
	assert_int_equal(kattr_read_alloc(f->m, "top", &buf, &len), 0);
	assert_int_equal(len, sizeof(big) - 1);
	assert_string_equal(buf, big);
	free(buf);
	assert_int_equal(kattr_read(f->m, "top", big, 100), -EOVERFLOW);
	assert_int_equal(kattr_read_alloc(f->m, "missing", &buf, &len), -ENOENT);
	assert_int_equal(kattr_read_alloc(f->m, "a", &buf, &len), -EISDIR);
}

static void writes_one_value(void **state)
{
	struct fixture *f = *state;
	char buf[64];

	assert_int_equal(kattr_write_str(f->m, "a/b/value", "2048"), 0);
	assert_int_equal(kattr_read(f->m, "a/b/value", buf, sizeof(buf)), 4);
	/* exactly what was given: no newline added, nothing appended */
	assert_string_equal(buf, "2048");
	assert_int_equal(kattr_write(f->m, "a/b/value", "12\n", 3), 0);
	assert_int_equal(kattr_read(f->m, "a/b/value", buf, sizeof(buf)), 3);
	assert_int_equal(kattr_write_str(f->m, "a/b/missing", "1"), -ENOENT);
	assert_int_equal(kattr_write_str(f->m, "a/b", "1"), -EISDIR);
}

/* The kernel's errno comes back as it is. */
static void write_returns_kernel_errno(void **state)
{
	struct kattr_mount *proc;
	int ret;

	(void)state;
	TU_REQUIRE_ROOT();
	assert_int_equal(kattr_mount_open("/proc", KATTR_MAGIC_PROC, 0, &proc), 0);
	/* swappiness takes an integer: proc_dointvec says EINVAL */
	ret = kattr_write_str(proc, "sys/vm/swappiness", "not-a-number");
	kattr_mount_close(proc);
	assert_int_equal(ret, -EINVAL);
}

static void lists_sorted_without_dots(void **state)
{
	struct fixture *f = *state;
	struct kattr_dirent *e;
	size_t n;

	assert_int_equal(kattr_list(f->m, "a", &e, &n), 0);
	assert_int_equal(n, 4);
	assert_string_equal(e[0].name, "b");
	assert_int_equal(e[0].type, DT_DIR);
	assert_string_equal(e[1].name, "inside");
	assert_int_equal(e[1].type, DT_LNK);
	assert_string_equal(e[2].name, "out");
	assert_string_equal(e[3].name, "vlink");
	kattr_list_free(e, n);
	assert_int_equal(kattr_list(f->m, "a/out", &e, &n), -ELOOP);
	assert_int_equal(kattr_list(f->m, "a/b/value", &e, &n), -ENOTDIR);
	assert_int_equal(kattr_list(f->m, "a/b", &e, &n), 0);
	assert_int_equal(n, 1);
	kattr_list_free(e, n);
}

static void mkdir_and_rmdir_beneath(void **state)
{
	struct fixture *f = *state;
	char p[PATH_MAX];
	struct stat st;

	assert_int_equal(kattr_mkdir(f->m, "a/b/new", 0755), 0);
	assert_int_equal(kattr_stat(f->m, "a/b/new", &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(kattr_mkdir(f->m, "a/b/new", 0755), -EEXIST);
	assert_int_equal(kattr_rmdir(f->m, "a/b/new"), 0);
	assert_int_equal(kattr_stat(f->m, "a/b/new", &st), -ENOENT);
	assert_int_equal(kattr_mkdir(f->m, "x/y", 0755), -ENOENT);
	/* never through a symlink, never up */
	assert_int_equal(kattr_mkdir(f->m, "a/out/evil", 0755), -ELOOP);
	snprintf(p, sizeof(p), "%s/evil", f->outside);
	assert_int_equal(stat(p, &st), -1);
	assert_int_equal(kattr_mkdir(f->m, "../evil", 0755), -EXDEV);
	assert_int_equal(kattr_mkdir(f->m, "a/..", 0755), -EXDEV);
	assert_int_equal(kattr_rmdir(f->m, "a/out"), -ENOTDIR);
	snprintf(p, sizeof(p), "%s", f->outside);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(kattr_rmdir(f->m, ""), -EINVAL);
	assert_int_equal(kattr_rmdir(f->m, "a"), -ENOTEMPTY);
}

#define BOTH(t) cmocka_unit_test_setup_teardown(t, setup_openat2, teardown), \
		cmocka_unit_test_setup_teardown(t, setup_fallback, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		BOTH(magic_is_checked),
		BOTH(never_leaves_the_tree),
		BOTH(does_not_cross_mounts),
		BOTH(reads_fresh_every_time),
		BOTH(writes_one_value),
		BOTH(lists_sorted_without_dots),
		BOTH(mkdir_and_rmdir_beneath),
	};
	const struct CMUnitTest root_tests[] = {
		cmocka_unit_test(write_returns_kernel_errno),
	};
	int failed = cmocka_run_group_tests_name("attr", tests, NULL, NULL);

	return failed + cmocka_run_group_tests_name("attr-kernel", root_tests, NULL, NULL);
}
