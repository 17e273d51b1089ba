/* System facts: the parsers on real text, and a captured tree. */
#include "testutil.h"
#include <errno.h>
#include <limits.h>
#include <sys/stat.h>
#include "kattr/kattr.h"
#include "kattr/sysfacts.h"
#include "kattr/private.h"

static const char cpuinfo_x86[] =
	"processor\t: 0\n"
	"vendor_id\t: AuthenticAMD\n"
	"model name\t: AMD EPYC 7B13 64-Core Processor  \n"
	"flags\t\t: fpu vme de pse hypervisor lahf_lm\n\n";
static const char cpuinfo_arm[] =
	"processor\t: 0\n"
	"BogoMIPS\t: 108.00\n"
	"Features\t: fp asimd evtstrm\n"
	"CPU part\t: 0xd08\n\n"
	"Hardware\t: BCM2835\n"
	"Model\t\t: Raspberry Pi 4 Model B Rev 1.4\n";

static void cpuinfo_model(void **state)
{
	char buf[64];

	(void)state;
	assert_int_equal(kattr_cpuinfo_model(cpuinfo_x86, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "AMD EPYC 7B13 64-Core Processor");
	/* "Model" wins over "Hardware" on a Raspberry Pi */
	assert_int_equal(kattr_cpuinfo_model(cpuinfo_arm, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "Raspberry Pi 4 Model B Rev 1.4");
	assert_int_equal(kattr_cpuinfo_model("processor : 0\n", buf, sizeof(buf)),
			 -ENOENT);
	assert_int_equal(kattr_cpuinfo_model(cpuinfo_x86, buf, 8), -EOVERFLOW);
	/* "model" alone (x86 model number) is not "model name" */
	assert_int_equal(kattr_cpuinfo_model("model\t\t: 1\n", buf, sizeof(buf)),
			 -ENOENT);
}

static void cpuinfo_flags(void **state)
{
	(void)state;
	assert_true(kattr_cpuinfo_has_flag(cpuinfo_x86, "hypervisor"));
	assert_true(kattr_cpuinfo_has_flag(cpuinfo_x86, "fpu"));
	assert_true(kattr_cpuinfo_has_flag(cpuinfo_x86, "lahf_lm"));
	assert_false(kattr_cpuinfo_has_flag(cpuinfo_x86, "hyper"));
	assert_false(kattr_cpuinfo_has_flag(cpuinfo_x86, ""));
	assert_false(kattr_cpuinfo_has_flag(cpuinfo_arm, "fp"));
}

static void choice(void **state)
{
	char buf[16];

	(void)state;
	assert_int_equal(kattr_choice_selected("always [madvise] never\n", buf,
					       sizeof(buf)), 0);
	assert_string_equal(buf, "madvise");
	assert_int_equal(kattr_choice_selected("[always] madvise never", buf,
					       sizeof(buf)), 0);
	assert_string_equal(buf, "always");
	assert_int_equal(kattr_choice_selected("always madvise never", buf,
					       sizeof(buf)), -ENOENT);
	assert_int_equal(kattr_choice_selected("[] x", buf, sizeof(buf)), -ENOENT);
	assert_int_equal(kattr_choice_selected("[madvise", buf, sizeof(buf)),
			 -ENOENT);
	assert_int_equal(kattr_choice_selected("[madvise]", buf, 4), -EOVERFLOW);
}

static void cpulist(void **state)
{
	unsigned int n;

	(void)state;
	assert_int_equal(kattr_cpulist_count("0-1\n", &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(kattr_cpulist_count("0-3,8,10-11", &n), 0);
	assert_int_equal(n, 7);
	assert_int_equal(kattr_cpulist_count("5", &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(kattr_cpulist_count("", &n), -EINVAL);
	assert_int_equal(kattr_cpulist_count("3-1", &n), -EINVAL);
	assert_int_equal(kattr_cpulist_count("0-", &n), -EINVAL);
	assert_int_equal(kattr_cpulist_count("0,,1", &n), -EINVAL);
	assert_int_equal(kattr_cpulist_count("0-1x", &n), -EINVAL);
}

static const char smaps[] =
	"7f0000000000-7f0000400000 rw-p 00000000 00:00 0 \n"
	"Size:               4096 kB\n"
	"KernelPageSize:        4 kB\n"
	"AnonHugePages:      2048 kB\n"
	"VmFlags: rd wr mr mw me ac sd hg\n"
	"7f0000400000-7f0000401000 r--p 00000000 fe:00 42  /usr/lib/x.so\n"
	"Size:                  4 kB\n"
	"KernelPageSize:        4 kB\n"
	"AnonHugePages:         0 kB\n"
	"VmFlags: rd mr mw me\n";

static void smaps_fields(void **state)
{
	uint64_t kb;

	(void)state;
	assert_int_equal(kattr_smaps_field_kb(smaps, 0x7f0000000000, "AnonHugePages", &kb), 0);
	assert_int_equal(kb, 2048);
	assert_int_equal(kattr_smaps_field_kb(smaps, 0x7f00003fffff, "AnonHugePages", &kb), 0);
	assert_int_equal(kb, 2048);
	assert_int_equal(kattr_smaps_field_kb(smaps, 0x7f0000400000, "AnonHugePages", &kb), 0);
	assert_int_equal(kb, 0);
	assert_int_equal(kattr_smaps_field_kb(smaps, 0x7f0000401000, "AnonHugePages", &kb), -ENOENT);
	assert_int_equal(kattr_smaps_field_kb(smaps, 0x7f0000000000, "Rss", &kb), -ENOENT);
	assert_int_equal(kattr_smaps_field_kb("garbage\n", 0, "Size", &kb), -EINVAL);
	assert_int_equal(kattr_smaps_field_kb("", 0, "Size", &kb), -ENOENT);
	assert_int_equal(kattr_smaps_page_size(smaps, &kb), 0);
	assert_int_equal(kb, 4096);
	assert_int_equal(kattr_smaps_page_size("Size: 4 kB\n", &kb), -ENOENT);
}

/* The tree captured on the machine the suite was written on. */
static void captured_tree(void **state)
{
	struct kattr_sysfacts f;

	(void)state;
	assert_int_equal(kattr_set_sysroot(FIXTURES "/sysfacts-epyc-docker"), 0);
	assert_int_equal(kattr_sysfacts_read(&f), 0);
	assert_string_equal(f.kernel_release, "6.18.44-fc-v1098");
	assert_string_equal(f.cpu_model, "AMD EPYC");
	assert_int_equal(f.cpus_online, 2);
	assert_int_equal(f.page_size, 4096);
	assert_int_equal(f.pipe_max_size, 1048576);
	assert_string_equal(f.thp_mode, "madvise");
	assert_string_equal(f.virt, "vm");
	assert_string_equal(f.container, "docker");
	assert_int_equal(kattr_set_sysroot(NULL), 0);
}

/* tu_write_file() with the parent directories created. */
static void write_deep(const char *root, const char *rel, const char *content)
{
	char path[PATH_MAX];
	char *slash;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (slash = strchr(path + strlen(root) + 1, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			abort();
		*slash = '/';
	}
	tu_write_file(root, rel, content);
}

/* A tree with DMI data and half the files missing. */
static void partial_tree(void **state)
{
	char *root = tu_mkdtemp();
	struct kattr_sysfacts f;

	(void)state;
	write_deep(root, "sys/class/dmi/id/sys_vendor", "QEMU\n");
	write_deep(root, "proc/cpuinfo", cpuinfo_arm);
	write_deep(root, "sys/kernel/mm/transparent_hugepage/enabled",
		      "always madvise [never]\n");
	assert_int_equal(kattr_set_sysroot(root), 0);
	/* missing: release, cpus, page size, pipe-max-size */
	assert_int_equal(kattr_sysfacts_read(&f), 4);
	assert_string_equal(f.kernel_release, "");
	assert_string_equal(f.cpu_model, "Raspberry Pi 4 Model B Rev 1.4");
	assert_string_equal(f.virt, "qemu");
	assert_string_equal(f.thp_mode, "never");
	assert_string_equal(f.container, "none");
	assert_int_equal(f.pipe_max_size, 0);
	assert_int_equal(kattr_set_sysroot(NULL), 0);
	tu_rmtree(root);
	free(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cpuinfo_model),
		cmocka_unit_test(cpuinfo_flags),
		cmocka_unit_test(choice),
		cmocka_unit_test(cpulist),
		cmocka_unit_test(smaps_fields),
		cmocka_unit_test(captured_tree),
		cmocka_unit_test(partial_tree),
	};
	return cmocka_run_group_tests_name("sysfacts", tests, NULL, NULL);
}
