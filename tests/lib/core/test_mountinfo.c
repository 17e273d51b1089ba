/* mountinfo parsing and mount discovery. */
#include "testutil.h"
#include <errno.h>
#include <limits.h>
#include "kattr/kattr.h"
#include "kattr/private_core.h"

static void parses_real_lines(void **state)
{
	char l1[] = "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n";
	char l2[] = "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime shared:5 master:1 - cgroup2 cgroup2 rw,nsdelegate\n";
	char l3[] = "50 23 0:40 /sub /mnt/with\\040space rw - fuse.rgcsfs rgcsfs rw,user_id=0\n";
	struct kattr_mnt m;

	(void)state;
	assert_int_equal(kattr_mountinfo_parse(l1, &m), 0);
	assert_int_equal(m.id, 32);
	assert_int_equal(m.parent_id, 31);
	assert_string_equal(m.mount_point, "/sys/fs/cgroup/cpu");
	assert_string_equal(m.fstype, "cgroup");
	assert_string_equal(m.super_opts, "rw,cpu");
	assert_int_equal(kattr_mountinfo_parse(l2, &m), 0);
	assert_string_equal(m.fstype, "cgroup2");
	assert_string_equal(m.super_opts, "rw,nsdelegate");
	assert_int_equal(kattr_mountinfo_parse(l3, &m), 0);
	assert_string_equal(m.mount_point, "/mnt/with space");
	assert_string_equal(m.root, "/sub");
	assert_string_equal(m.fstype, "fuse.rgcsfs");
}

static void refuses_malformed_lines(void **state)
{
	char a[] = "";
	char b[] = "x 31 0:29 / /a rw - cgroup cgroup rw";
	char c[] = "32 31 0:29 / /a rw cgroup cgroup rw";	/* no '-' */
	char d[] = "32 31 0:29 / /a rw -";
	struct kattr_mnt m;

	(void)state;
	assert_int_equal(kattr_mountinfo_parse(a, &m), -EINVAL);
	assert_int_equal(kattr_mountinfo_parse(b, &m), -EINVAL);
	assert_int_equal(kattr_mountinfo_parse(c, &m), -EINVAL);
	assert_int_equal(kattr_mountinfo_parse(d, &m), -EINVAL);
}

/* What the kernel escapes is decoded; fstab lines are not mountinfo. */
static void decodes_like_the_kernel_writes(void **state)
{
	char l1[] = "32 31 0:29 /r\\134x /a\\011b\\012c rw - cgroup my\\040src rw,cpu";
	char l2[] = "1 1 0:1 / /x\\040(deleted) rw shared:1 master:2 - tmpfs tmpfs rw\n";
	char l3[] = "20 1 0:5 / /../../../tmp/x rw - cgroup cgroup rw,cpu\n";
	char f1[] = "a b c d";		/* an fstab line, not mountinfo */
	char f2[] = "a b c d 0 0\n";
	char two[] = "1 1 0:1 / /one rw - t s o\n2 1 0:1 / /two rw - t s o\n";
	struct kattr_mnt m;

	(void)state;
	assert_int_equal(kattr_mountinfo_parse(l1, &m), 0);
	assert_string_equal(m.root, "/r\\x");
	assert_string_equal(m.mount_point, "/a\tb\nc");
	assert_string_equal(m.source, "my src");
	assert_string_equal(m.super_opts, "rw,cpu");
	assert_int_equal(kattr_mountinfo_parse(l2, &m), 0);
	assert_string_equal(m.mount_point, "/x (deleted)");
	assert_string_equal(m.mount_opts, "rw");
	/* kept as written: the sysroot resolver makes it harmless */
	assert_int_equal(kattr_mountinfo_parse(l3, &m), 0);
	assert_string_equal(m.mount_point, "/../../../tmp/x");
	assert_int_equal(kattr_mountinfo_parse(f1, &m), -EINVAL);
	assert_int_equal(kattr_mountinfo_parse(f2, &m), -EINVAL);
	/* one line: the first */
	assert_int_equal(kattr_mountinfo_parse(two, &m), 0);
	assert_int_equal(m.id, 1);
	assert_string_equal(m.mount_point, "/one");
}

static void option_lists(void **state)
{
	(void)state;
	assert_true(kattr_opt_has("rw,cpu", "cpu"));
	assert_true(kattr_opt_has("rw,cpu,cpuacct", "cpuacct"));
	assert_false(kattr_opt_has("rw,cpuacct", "cpu"));
	assert_false(kattr_opt_has("rw,cpuset", "cpu"));
	assert_false(kattr_opt_has("", "cpu"));
}

static void finds_proc_on_this_machine(void **state)
{
	char *mp = NULL;

	(void)state;
	assert_int_equal(kattr_mountinfo_find("proc", NULL, &mp), 0);
	assert_string_equal(mp, "/proc");
	free(mp);
	assert_int_equal(kattr_mountinfo_find("no-such-fs", NULL, &mp), -ENOENT);
}

/* A captured tree: <root>/proc/<pid>/mountinfo is read beneath the sysroot. */
static void finds_mounts_in_a_sysroot(void **state)
{
	char *root = tu_mkdtemp(), dir[PATH_MAX], *mp = NULL;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/proc", root);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(dir, sizeof(dir), "%s/proc/self", root);
	assert_int_equal(mkdir(dir, 0755), 0);
	tu_write_file(root, "proc/self/mountinfo",
		      "20 1 0:5 / / rw - ext4 /dev/sda1 rw\n"
		      "garbage line\n"
		      "33 20 0:31 / /config rw - configfs configfs rw\n");
	assert_int_equal(kattr_set_sysroot(root), 0);
	assert_int_equal(kattr_mountinfo_find("configfs", NULL, &mp), 0);
	assert_string_equal(mp, "/config");
	free(mp);
	assert_int_equal(kattr_mountinfo_find("cgroup2", NULL, &mp), -ENOENT);
	/* garbage first: each line's fate is its own (libmount, which
	 * guesses the format from the first line, read it all as an fstab) */
	tu_write_file(root, "proc/self/mountinfo",
		      "garbage line\n"
		      "20 1 0:5 / / rw - ext4 /dev/sda1 rw\n"
		      "a b c d\n"
		      "34 20 0:32 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n");
	assert_int_equal(kattr_mountinfo_find("cgroup", "cpu", &mp), 0);
	assert_string_equal(mp, "/sys/fs/cgroup/cpu");
	free(mp);
	assert_int_equal(kattr_mountinfo_find("b", NULL, &mp), -ENOENT);
	assert_int_equal(kattr_set_sysroot(NULL), 0);
	tu_rmtree(root);
	free(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_real_lines),
		cmocka_unit_test(refuses_malformed_lines),
		cmocka_unit_test(decodes_like_the_kernel_writes),
		cmocka_unit_test(option_lists),
		cmocka_unit_test(finds_proc_on_this_machine),
		cmocka_unit_test(finds_mounts_in_a_sysroot),
	};
	return cmocka_run_group_tests_name("mountinfo", tests, NULL, NULL);
}
