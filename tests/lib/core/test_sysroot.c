/* The sysroot prefix. */
#include "testutil.h"
#include <errno.h>
#include <limits.h>
#include "kattr/kattr.h"
#include "kattr/private_core.h"

static void set_and_clear(void **state)
{
	char *root = tu_mkdtemp(), buf[PATH_MAX], real[PATH_MAX];

	(void)state;
	assert_null(kattr_get_sysroot());
	assert_int_equal(kattr_set_sysroot(root), 0);
	assert_non_null(realpath(root, real));
	assert_string_equal(kattr_get_sysroot(), real);
	assert_int_equal(kattr_sysroot_path("/proc/1/cgroup", buf, sizeof(buf)), 0);
	assert_true(strncmp(buf, real, strlen(real)) == 0);
	assert_string_equal(buf + strlen(real), "/proc/1/cgroup");
	assert_int_equal(kattr_sysroot_path("relative", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(kattr_sysroot_path("/x", buf, 4), -ENAMETOOLONG);
	assert_int_equal(kattr_set_sysroot(""), 0);
	assert_null(kattr_get_sysroot());
	assert_int_equal(kattr_sysroot_path("/proc", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/proc");
	tu_rmtree(root);
	free(root);
}

static void refuses_missing_or_file(void **state)
{
	char *root = tu_mkdtemp(), file[PATH_MAX];

	(void)state;
	assert_int_equal(kattr_set_sysroot("/nonexistent/kattr"), -ENOENT);
	tu_write_file(root, "f", "x");
	snprintf(file, sizeof(file), "%s/f", root);
	assert_int_equal(kattr_set_sysroot(file), -ENOTDIR);
	assert_null(kattr_get_sysroot());
	tu_rmtree(root);
	free(root);
}

static void from_environment(void **state)
{
	char *root = tu_mkdtemp();

	(void)state;
	setenv(KATTR_SYSROOT_ENV, root, 1);
	assert_int_equal(kattr_sysroot_from_env(), 0);
	assert_non_null(kattr_get_sysroot());
	setenv(KATTR_SYSROOT_ENV, "/nonexistent/kattr", 1);
	assert_int_equal(kattr_sysroot_from_env(), -ENOENT);
	unsetenv(KATTR_SYSROOT_ENV);
	assert_int_equal(kattr_set_sysroot(NULL), 0);
	assert_int_equal(kattr_sysroot_from_env(), 0);
	assert_null(kattr_get_sysroot());
	tu_rmtree(root);
	free(root);
}

/* kattr_file_read() and kattr_mount_open() honour the prefix. */
static void files_and_mounts_beneath_it(void **state)
{
	char *root = tu_mkdtemp(), dir[PATH_MAX], *buf;
	struct kattr_mount *m;
	size_t len;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/sys", root);
	assert_int_equal(mkdir(dir, 0755), 0);
	tu_write_file(root, "sys/value", "42\n");
	assert_int_equal(kattr_set_sysroot(root), 0);
	assert_int_equal(kattr_file_read("/sys/value", &buf, &len), 0);
	assert_string_equal(buf, "42\n");
	assert_int_equal(len, 3);
	free(buf);
	/* a captured tree is an ordinary directory: no magic check */
	assert_int_equal(kattr_mount_open("/sys", KATTR_MAGIC_CGROUP1, 0, &m), 0);
	assert_string_equal(kattr_mount_path(m), "/sys");
	kattr_mount_close(m);
	assert_int_equal(kattr_set_sysroot(NULL), 0);
	assert_int_equal(kattr_file_read("/nonexistent/kattr", &buf, &len), -ENOENT);
	tu_rmtree(root);
	free(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(set_and_clear),
		cmocka_unit_test(refuses_missing_or_file),
		cmocka_unit_test(from_environment),
		cmocka_unit_test(files_and_mounts_beneath_it),
	};
	return cmocka_run_group_tests_name("sysroot", tests, NULL, NULL);
}
