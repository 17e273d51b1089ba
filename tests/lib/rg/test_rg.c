/* lib/rg/rg_parse.c, base.c and rg.c: names, pids, shares values, backend text,
 * and opening a hierarchy from a captured tree (--sysroot). */
#include "testutil.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "kattr/rg.h"
#include "kattr/private.h"
#include "kattr/rgplan.h"

/* kattr_rg_create() with its arguments spelled out, as a test reads best. */
static int create_why(struct kattr_rg *rg, const char *group,
		      unsigned int flags, const char *shares, const char *res,
		      struct kattr_why *why)
{
	const struct kattr_rg_create_args a = {
		.flags = flags, .shares = shares, .res = res,
	};

	return kattr_rg_create(rg, group, &a, why);
}

static int create5(struct kattr_rg *rg, const char *group,
		   unsigned int flags, const char *shares, const char *res)
{
	return create_why(rg, group, flags, shares, res, NULL);
}

static void backend_names(void **state)
{
	enum kattr_rg_backend b;

	(void)state;
	assert_int_equal(kattr_rg_backend_parse("rgcs", &b), 0);
	assert_int_equal(b, KATTR_RG_RGCS);
	assert_int_equal(kattr_rg_backend_parse("cgroup1", &b), 0);
	assert_int_equal(b, KATTR_RG_CGROUP1);
	assert_int_equal(kattr_rg_backend_parse("cgroup2", &b), 0);
	assert_int_equal(b, KATTR_RG_CGROUP2);
	assert_int_equal(kattr_rg_backend_parse("cgroup", &b), -EINVAL);
	assert_int_equal(kattr_rg_backend_parse("", &b), -EINVAL);
	assert_string_equal(kattr_rg_backend_name(KATTR_RG_CGROUP2), "cgroup2");
}

static void names(void **state)
{
	struct kattr_why why = { 0 };
	char longc[300];

	(void)state;
	assert_int_equal(kattr_rg_name_check("db", false, &why), 0);
	assert_int_equal(kattr_rg_name_check("db/batch", false, &why), 0);
	assert_int_equal(kattr_rg_name_check("/", true, &why), 0);
	assert_int_equal(kattr_rg_name_check("/", false, &why), -EINVAL);
	assert_int_equal(kattr_rg_name_check("../x", true, &why), -EINVAL);
	assert_non_null(strstr(why.text, ".."));
	assert_int_equal(kattr_rg_name_check("a/../b", true, &why), -EINVAL);
	assert_int_equal(kattr_rg_name_check("/db", true, &why), -EINVAL);
	assert_int_equal(kattr_rg_name_check("a//b", true, &why), -EINVAL);
	assert_int_equal(kattr_rg_name_check("a\nb", true, &why), -EINVAL);
	assert_int_equal(kattr_rg_name_check("a\x7f", true, &why), -EINVAL);
	memset(longc, 'x', 256);
	longc[256] = '\0';
	assert_int_equal(kattr_rg_name_check(longc, true, &why), -EINVAL);
	longc[255] = '\0';
	assert_int_equal(kattr_rg_name_check(longc, true, &why), 0);
	assert_true(kattr_rg_name_is_root("/"));
	assert_true(kattr_rg_name_is_root(""));
	assert_false(kattr_rg_name_is_root("db"));
	assert_int_equal(kattr_rg_name_depth("/"), 0);
	assert_int_equal(kattr_rg_name_depth("a"), 1);
	assert_int_equal(kattr_rg_name_depth("a/b/c/d/e/f"), 6);
}

#define FMT(b, v, res, want_ret, want)                                       \
	do {                                                                 \
		char buf_[256] = "";                                         \
		struct kattr_why why_ = { 0 };                               \
		int r_ = kattr_rg_share_format(b, v, res, buf_,             \
						sizeof(buf_), &why_);        \
		assert_int_equal(r_, want_ret);                              \
		if (r_ == 0)                                                 \
			assert_string_equal(buf_, want);                     \
		else                                                         \
			assert_non_null(why_.text);                          \
	} while (0)

static void shares_cgroup(void **state)
{
	(void)state;
	FMT(KATTR_RG_CGROUP1, "2", NULL, 0, "2");
	FMT(KATTR_RG_CGROUP1, "1024", NULL, 0, "1024");
	FMT(KATTR_RG_CGROUP1, "262144", NULL, 0, "262144");
	FMT(KATTR_RG_CGROUP1, "1", NULL, -ERANGE, "");
	FMT(KATTR_RG_CGROUP1, "262145", NULL, -ERANGE, "");
	FMT(KATTR_RG_CGROUP1, "-5", NULL, -ERANGE, "");
	FMT(KATTR_RG_CGROUP1, "99999999999999999999999", NULL, -ERANGE, "");
	FMT(KATTR_RG_CGROUP1, "abc", NULL, -EINVAL, "");
	FMT(KATTR_RG_CGROUP1, "1e3", NULL, -EINVAL, "");
	FMT(KATTR_RG_CGROUP1, " 5", NULL, -EINVAL, "");
	FMT(KATTR_RG_CGROUP1, "0x10", NULL, -EINVAL, "");
	FMT(KATTR_RG_CGROUP1, "", NULL, -EINVAL, "");
	/* octal-looking values are refused, as rgctl(8) says */
	FMT(KATTR_RG_CGROUP1, "010", NULL, -EINVAL, "");
	FMT(KATTR_RG_CGROUP1, "01024", NULL, -EINVAL, "");
	FMT(KATTR_RG_CGROUP1, "-010", NULL, -EINVAL, "");
	FMT(KATTR_RG_CGROUP1, "00", NULL, -EINVAL, "");
	FMT(KATTR_RG_CGROUP2, "0100", NULL, -EINVAL, "");
	FMT(KATTR_RG_CGROUP1, "100", NULL, 0, "100");
	FMT(KATTR_RG_CGROUP2, "1", NULL, 0, "1");
	FMT(KATTR_RG_CGROUP2, "10000", NULL, 0, "10000");
	FMT(KATTR_RG_CGROUP2, "0", NULL, -ERANGE, "");
	FMT(KATTR_RG_CGROUP2, "10001", NULL, -ERANGE, "");
	FMT(KATTR_RG_CGROUP2, "min_shares=1", NULL, -EINVAL, "");
}

static void shares_rgcs(void **state)
{
	(void)state;
	FMT(KATTR_RG_RGCS, "min_shares=10", NULL, 0, "res=cpu,min_shares=10");
	FMT(KATTR_RG_RGCS, "min_shares=10", "numtasks", 0,
	    "res=numtasks,min_shares=10");
	FMT(KATTR_RG_RGCS, "res=numtasks,max_shares=5", NULL, 0,
	    "res=numtasks,max_shares=5");
	FMT(KATTR_RG_RGCS, "child_shares_divisor=100,max_shares=-3,min_shares=-2",
	    NULL, 0, "res=cpu,min_shares=-2,max_shares=-3,child_shares_divisor=100");
	FMT(KATTR_RG_RGCS, ",,min_shares=1,,", NULL, 0, "res=cpu,min_shares=1");
	FMT(KATTR_RG_RGCS, "min_shares=-1", NULL, 0, "res=cpu,min_shares=-1");
	FMT(KATTR_RG_RGCS, "res=cpu,min_shares=5", "cpu", 0, "res=cpu,min_shares=5");
	/* keys other than the four of the ABI */
	FMT(KATTR_RG_RGCS, "guarantee=10", NULL, -EINVAL, "");
	FMT(KATTR_RG_RGCS, "attrib=1", NULL, -EINVAL, "");
	FMT(KATTR_RG_RGCS, "min_shares", NULL, -EINVAL, "");
	FMT(KATTR_RG_RGCS, "10", NULL, -EINVAL, "");
	FMT(KATTR_RG_RGCS, "min_shares=abc", NULL, -EINVAL, "");
	FMT(KATTR_RG_RGCS, "min_shares=0x10", NULL, -EINVAL, "");
	FMT(KATTR_RG_RGCS, "min_shares=", NULL, -EINVAL, "");
	FMT(KATTR_RG_RGCS, "min_shares=010", NULL, -EINVAL, "");
	FMT(KATTR_RG_RGCS, "max_shares=-01", NULL, -EINVAL, "");
	FMT(KATTR_RG_RGCS, "child_shares_divisor=0100", NULL, -EINVAL, "");
	FMT(KATTR_RG_RGCS, "min_shares=0", NULL, 0, "res=cpu,min_shares=0");
	/* a divisor of 0 would divide by zero */
	FMT(KATTR_RG_RGCS, "child_shares_divisor=0", NULL, -ERANGE, "");
	FMT(KATTR_RG_RGCS, "min_shares=1,child_shares_divisor=0", NULL, -ERANGE, "");
	FMT(KATTR_RG_RGCS, "child_shares_divisor=1", NULL, 0,
	    "res=cpu,child_shares_divisor=1");
	FMT(KATTR_RG_RGCS, "min_shares=-4", NULL, -ERANGE, "");
	FMT(KATTR_RG_RGCS, "min_shares=2147483648", NULL, -ERANGE, "");
	FMT(KATTR_RG_RGCS, "min_shares=1,min_shares=2", NULL, -EINVAL, "");
	FMT(KATTR_RG_RGCS, "res=cpu,res=cpu,min_shares=1", NULL, -EINVAL, "");
	FMT(KATTR_RG_RGCS, "res=numtasks,min_shares=1", "cpu", -EINVAL, "");
	FMT(KATTR_RG_RGCS, "res=,min_shares=1", NULL, -EINVAL, "");
	FMT(KATTR_RG_RGCS, "res=CPU,min_shares=1", NULL, -EINVAL, "");
	FMT(KATTR_RG_RGCS, "min_shares=10,max_shares=5", NULL, -ERANGE, "");
	FMT(KATTR_RG_RGCS, "min_shares=10,max_shares=-3", NULL, 0,
	    "res=cpu,min_shares=10,max_shares=-3");
	FMT(KATTR_RG_RGCS, "res=cpu", NULL, -EINVAL, "");
	/* RGCS would cut at the newline and apply only the first part */
	FMT(KATTR_RG_RGCS, "min_shares=1\nmax_shares=2", NULL, -EINVAL, "");
	FMT(KATTR_RG_RGCS, "min_shares=1 ", NULL, -EINVAL, "");
	FMT(KATTR_RG_AUTO, "1", NULL, -EINVAL, "");
}

static void rgcs_shares_text(void **state)
{
	const char *text =
		"res=numtasks,min_shares=-3,max_shares=-3,child_shares_divisor=100\n"
		"res=cpu,min_shares=0,max_shares=-2,child_shares_divisor=100\n";
	struct kattr_rg_share *v;
	size_t n;

	(void)state;
	assert_int_equal(kattr_rg_parse_rgcs_shares(text, &v, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(v[0].res, "numtasks");
	assert_int_equal(v[0].min_shares, -3);
	assert_int_equal(v[0].child_shares_divisor, 100);
	assert_string_equal(v[1].res, "cpu");
	assert_int_equal(v[1].min_shares, 0);
	assert_int_equal(v[1].max_shares, -2);
	free(v);
	assert_int_equal(kattr_rg_parse_rgcs_shares("", &v, &n), 0);
	assert_int_equal(n, 0);
	free(v);
	assert_int_equal(kattr_rg_parse_rgcs_shares("res=cpu,min_shares=0\n", &v, &n),
			 -EINVAL);
	assert_int_equal(kattr_rg_parse_rgcs_shares("garbage\n", &v, &n), -EINVAL);
}

static void rgcs_stats_text(void **state)
{
	const char *text =
		"numtasks: Current usage 3\n"
		"numtasks: Number of successes 10\n"
		"numtasks: Number of failures 0\n"
		"numtasks: Number of forkrate failures 0\n"
		"cpu:effective_min_shares=25, load=4\n"
		"odd line\n";
	struct kattr_rg_stat *v;
	size_t n;

	(void)state;
	assert_int_equal(kattr_rg_parse_rgcs_stats(text, &v, &n), 0);
	assert_int_equal(n, 7);
	assert_string_equal(v[0].res, "numtasks");
	assert_string_equal(v[0].key, "Current usage");
	assert_true(v[0].has_value);
	assert_int_equal(v[0].value, 3);
	assert_string_equal(v[1].key, "Number of successes");
	assert_int_equal(v[1].value, 10);
	assert_string_equal(v[4].res, "cpu");
	assert_string_equal(v[4].key, "effective_min_shares");
	assert_int_equal(v[4].value, 25);
	assert_string_equal(v[5].key, "load");
	assert_int_equal(v[5].value, 4);
	assert_false(v[6].has_value);
	assert_string_equal(v[6].key, "odd line");
	kattr_rg_stats_free(v, n);
}

static void keyed_text(void **state)
{
	struct kattr_rg_stat *v = NULL;
	size_t n = 0;

	(void)state;
	assert_int_equal(kattr_rg_parse_keyed("usage_usec 1537\nuser_usec 1500\n"
					      "system_usec 37\n", "cpu", &v, &n), 0);
	assert_int_equal(kattr_rg_parse_keyed("usage 123456789\n", "cpuacct",
					      &v, &n), 0);
	assert_int_equal(n, 4);
	assert_string_equal(v[0].key, "usage_usec");
	assert_int_equal(v[0].value, 1537);
	assert_string_equal(v[3].res, "cpuacct");
	assert_int_equal(v[3].value, 123456789);
	kattr_rg_stats_free(v, n);
}

static void pid_lists(void **state)
{
	pid_t *v;
	size_t n;

	(void)state;
	assert_int_equal(kattr_rg_parse_pids("12\n7\n\n3\n", &v, &n), 0);
	assert_int_equal(n, 3);
	assert_int_equal(v[0], 12);
	assert_int_equal(v[2], 3);
	free(v);
	assert_int_equal(kattr_rg_parse_pids("", &v, &n), 0);
	assert_int_equal(n, 0);
	free(v);
	assert_int_equal(kattr_rg_parse_pids("12\nx\n", &v, &n), -EINVAL);
}

static void mkdirs(const char *root, const char *rel)
{
	char path[PATH_MAX], *p;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	mkdir(path, 0755);
}

static void open_from_sysroot(void **state)
{
	char *root = tu_mkdtemp(), mi[PATH_MAX], line[1024];
	struct kattr_rg_share *sh;
	struct kattr_rg_info *info;
	enum kattr_rg_backend kind;
	struct kattr_rg *rg;
	size_t n;

	(void)state;
	snprintf(mi, sizeof(mi), "proc/%ld", (long)getpid());
	mkdirs(root, mi);
	mkdirs(root, "sys/fs/cgroup/cpu/db");
	mkdirs(root, "sys/fs/cgroup/unified");
	mkdirs(root, "tmp");
	snprintf(line, sizeof(line),
		 "23 1 0:21 / / rw - ext4 /dev/sda1 rw\n"
		 "31 23 0:28 / /sys/fs/cgroup rw - tmpfs tmpfs rw\n"
		 "32 31 0:29 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu,cpuacct\n"
		 "41 31 0:38 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n");
	snprintf(mi, sizeof(mi), "proc/%ld/mountinfo", (long)getpid());
	tu_write_file(root, mi, line);
	tu_write_file(root, "sys/fs/cgroup/cpu/cpu.shares", "1024\n");
	tu_write_file(root, "sys/fs/cgroup/cpu/tasks", "1\n2\n");
	tu_write_file(root, "sys/fs/cgroup/cpu/db/cpu.shares", "512\n");
	tu_write_file(root, "sys/fs/cgroup/cpu/db/tasks", "");
	tu_write_file(root, "sys/fs/cgroup/unified/cgroup.subtree_control", "\n");
	assert_int_equal(kattr_set_sysroot(root), 0);

	/* detection: no RGCS, v2 without cpu, so the v1 cpu hierarchy */
	assert_int_equal(kattr_rg_open(KATTR_RG_AUTO, NULL, &rg), 0);
	assert_int_equal(kattr_rg_backend_of(rg), KATTR_RG_CGROUP1);
	assert_string_equal(kattr_rg_root(rg), "/sys/fs/cgroup/cpu");
	assert_true(kattr_rg_has_shares(rg));
	assert_int_equal(kattr_rg_share_get(rg, "db", &sh, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(sh[0].value, 512);
	free(sh);
	assert_int_equal(kattr_rg_share_set(rg, "db", "2048", NULL, NULL), 0);
	assert_int_equal(kattr_rg_share_get(rg, "db", &sh, &n), 0);
	assert_int_equal(sh[0].value, 2048);
	free(sh);
	assert_int_equal(kattr_rg_share_set(rg, "db", "1", NULL, NULL), -ERANGE);
	assert_int_equal(kattr_rg_share_get(rg, "nope", &sh, &n), -ENOENT);
	assert_int_equal(kattr_rg_list(rg, "/", &info, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(info[0].name, "/");
	assert_int_equal(info[0].nr_tasks, 2);
	assert_string_equal(info[1].name, "db");
	assert_int_equal(info[1].depth, 1);
	assert_int_equal(info[1].shares[0].value, 2048);
	kattr_rg_list_free(info, n);
	assert_int_equal(kattr_rg_delete(rg, "/", 0), -EPERM);
	/* create validates shares before it makes anything */
	assert_int_equal(create5(rg, "web", 0, "1", NULL), -ERANGE);
	assert_int_equal(kattr_rg_exists(rg, "web"), -ENOENT);
	assert_int_equal(create5(rg, "a/b", 0, NULL, NULL), -ENXIO);
	assert_int_equal(kattr_rg_exists(rg, "a"), -ENOENT);
	assert_int_equal(create5(rg, "db", 0, NULL, NULL), -EEXIST);
	kattr_rg_close(rg);

	assert_int_equal(kattr_rg_open(KATTR_RG_CGROUP2, NULL, &rg), 0);
	assert_false(kattr_rg_has_shares(rg));
	assert_int_equal(kattr_rg_share_get(rg, "/", &sh, &n), -EOPNOTSUPP);
	kattr_rg_close(rg);
	assert_int_equal(kattr_rg_open(KATTR_RG_RGCS, NULL, &rg), -ENOENT);
	assert_int_equal(kattr_rg_open(KATTR_RG_AUTO, "/tmp", &rg), -EMEDIUMTYPE);
	assert_int_equal(kattr_rg_open(KATTR_RG_CGROUP1, "/sys/fs/cgroup/unified",
				       &rg), -EMEDIUMTYPE);
	assert_int_equal(kattr_rg_probe(NULL, "/sys/fs/cgroup/unified", &kind), 0);
	assert_int_equal(kind, KATTR_RG_CGROUP2);
	assert_int_equal(kattr_rg_probe(NULL, "/tmp", &kind), -EMEDIUMTYPE);
	assert_int_equal(kattr_set_sysroot(NULL), 0);
	tu_rmtree(root);
	free(root);
}

/* Whether rel is a directory below root. */
static bool is_dir(const char *root, const char *rel)
{
	char path[PATH_MAX];
	struct stat st;
	int n = snprintf(path, sizeof(path), "%s/%s", root, rel);

	assert_true(n > 0 && (size_t)n < sizeof(path));
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* How many of the hierarchies below sys/fs/cgroup hold group g. */
static int spans(const char *root, const char *g)
{
	static const char *const h[] = { "cpu", "cpuacct", "memory", "pids",
					 "cpuset", "systemd" };
	char rel[PATH_MAX];
	int n = 0;

	for (size_t i = 0; i < sizeof(h) / sizeof(*h); i++) {
		snprintf(rel, sizeof(rel), "sys/fs/cgroup/%s/%s", h[i], g);
		n += is_dir(root, rel);
	}
	return n;
}

/* cgroup v1 in a captured tree: a group is a directory in each hierarchy
 * of cpu, cpuacct, memory, pids (not cpuset, nor a named one), all or none. */
static void v1_spans_from_sysroot(void **state)
{
	char *root = tu_mkdtemp(), mi[PATH_MAX], buf[128];
	char rb[192];
	struct kattr_why r = KATTR_WHY_BUF(rb);
	struct kattr_rg *rg;

	(void)state;
	snprintf(mi, sizeof(mi), "proc/%ld", (long)getpid());
	mkdirs(root, mi);
	mkdirs(root, "sys/fs/cgroup/cpu/only");
	mkdirs(root, "sys/fs/cgroup/cpuacct");
	mkdirs(root, "sys/fs/cgroup/memory");
	mkdirs(root, "sys/fs/cgroup/pids");
	mkdirs(root, "sys/fs/cgroup/cpuset");
	mkdirs(root, "sys/fs/cgroup/systemd");
	mkdirs(root, "mnt/mem2");
	snprintf(mi, sizeof(mi), "proc/%ld/mountinfo", (long)getpid());
	tu_write_file(root, mi,
		"23 1 0:21 / / rw - ext4 /dev/sda1 rw\n"
		"30 23 0:30 / /sys/fs/cgroup/systemd rw - cgroup cgroup rw,xattr,name=systemd\n"
		"32 23 0:29 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n"
		"33 23 0:31 / /sys/fs/cgroup/cpuacct rw - cgroup cgroup rw,cpuacct\n"
		"34 23 0:32 / /sys/fs/cgroup/cpuset rw - cgroup cgroup rw,cpuset\n"
		"35 23 0:33 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n"
		"36 23 0:33 / /mnt/mem2 rw - cgroup cgroup rw,memory\n"
		"37 23 0:34 / /sys/fs/cgroup/pids rw - cgroup cgroup rw,pids\n");
	tu_write_file(root, "sys/fs/cgroup/cpu/cpu.shares", "1024\n");
	assert_int_equal(kattr_set_sysroot(root), 0);

	assert_int_equal(kattr_rg_open(KATTR_RG_AUTO, NULL, &rg), 0);
	assert_int_equal(kattr_rg_backend_of(rg), KATTR_RG_CGROUP1);
	assert_int_equal(create5(rg, "g", 0, NULL, NULL), 0);
	assert_int_equal(spans(root, "g"), 4);
	assert_false(is_dir(root, "sys/fs/cgroup/cpuset/g"));
	assert_false(is_dir(root, "mnt/mem2/g") && !is_dir(root, "sys/fs/cgroup/memory/g"));
	assert_int_equal(kattr_rg_missing(rg, "g", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "");
	/* a fault in the third hierarchy (a file of that name): none made */
	tu_write_file(root, "sys/fs/cgroup/memory/g/x", "");
	r.code = -1;
	assert_int_equal(create_why(rg, "g/x", 0, NULL, NULL, &r),
			 -EEXIST);
	assert_int_equal(r.code, KATTR_RG_WHY_ATTR);
	assert_non_null(strstr(r.text, "memory"));
	assert_false(is_dir(root, "sys/fs/cgroup/cpu/g/x"));
	assert_false(is_dir(root, "sys/fs/cgroup/cpuacct/g/x"));
	/* a group made in cpu only: shown as it is, the rest named */
	mkdirs(root, "sys/fs/cgroup/cpu/lone");
	assert_int_equal(kattr_rg_missing(rg, "lone", buf, sizeof(buf)), 3);
	assert_string_equal(buf, "cpuacct, memory, pids");
	assert_int_equal(kattr_rg_missing(rg, "nope", buf, sizeof(buf)), -ENOENT);
	/* a child of it: the parent completed where it lacks a directory */
	assert_int_equal(create5(rg, "lone/kid", 0, NULL, NULL), 0);
	assert_int_equal(spans(root, "lone/kid"), 4);
	assert_int_equal(kattr_rg_missing(rg, "lone", buf, sizeof(buf)), 0);
	/* delete: every hierarchy; what is below it in another one too */
	assert_int_equal(kattr_rg_delete(rg, "lone", KATTR_RG_RECURSIVE), 0);
	assert_int_equal(spans(root, "lone"), 0);
	snprintf(mi, sizeof(mi), "%s/sys/fs/cgroup/memory/g/x", root);
	assert_int_equal(unlink(mi), 0);
	mkdirs(root, "sys/fs/cgroup/pids/g/left");
	assert_int_equal(kattr_rg_delete(rg, "g", 0), 0);
	assert_int_equal(spans(root, "g"), 0);
	kattr_rg_close(rg);

	/* --root at a group made in cpu only: the others are not spanned */
	assert_int_equal(kattr_rg_open(KATTR_RG_CGROUP1, "/sys/fs/cgroup/cpu/only",
				       &rg), 0);
	assert_int_equal(create5(rg, "x", 0, NULL, NULL), 0);
	assert_int_equal(spans(root, "only/x"), 1);
	assert_int_equal(kattr_rg_missing(rg, "x", buf, sizeof(buf)), 0);
	assert_int_equal(kattr_rg_delete(rg, "x", 0), 0);
	kattr_rg_close(rg);
	assert_int_equal(kattr_set_sysroot(NULL), 0);
	tu_rmtree(root);
	free(root);
}

/* Run f (mkdir, rmdir) on the directory rel of the captured tree. */
static void tree_op(int (*f)(const char *), const char *root, const char *rel)
{
	char path[PATH_MAX];
	int n = snprintf(path, sizeof(path), "%s/%s", root, rel);

	assert_true(n > 0 && (size_t)n < sizeof(path));
	assert_int_equal(f(path), 0);
}

static int mkdir_0755(const char *path)
{
	return mkdir(path, 0755);
}

static ino_t ino_of(const char *root, const char *rel)
{
	char path[PATH_MAX];
	struct stat st;
	int n = snprintf(path, sizeof(path), "%s/%s", root, rel);

	assert_true(n > 0 && (size_t)n < sizeof(path));
	assert_int_equal(stat(path, &st), 0);
	return st.st_ino;
}

/* kattr_rg_on_create()'s hook: the inode of the directory it is given. */
static int ino_hook(int fd, const char *group, void *data)
{
	struct stat st;

	(void)group;
	if (fstat(fd, &st) < 0)
		return -errno;
	*(ino_t *)data = st.st_ino;
	return 0;
}

/*
 * Groups made in a batch (kattr_rg_create_batch()): in every hierarchy,
 * the hook given each one, and the outcome the batchless one when another
 * tool removes the held parent meanwhile; a rename shows it is held.
 */
static void v1_batch_from_sysroot(void **state)
{
	static const char *const h[] = { "cpuacct", "memory", "pids" };
	char *root = tu_mkdtemp(), rel[PATH_MAX];
	char rb[192];
	struct kattr_why r = KATTR_WHY_BUF(rb);
	struct kattr_rg *rg;
	ino_t hooked = 0;

	(void)state;
	snprintf(rel, sizeof(rel), "proc/%ld/mountinfo", (long)getpid());
	mkdirs(root, rel);
	tree_op(rmdir, root, rel);
	mkdirs(root, "sys/fs/cgroup/cpu/b");
	for (size_t i = 0; i < 3; i++) {
		snprintf(rel, sizeof(rel), "sys/fs/cgroup/%s/b", h[i]);
		mkdirs(root, rel);
	}
	snprintf(rel, sizeof(rel), "proc/%ld/mountinfo", (long)getpid());
	tu_write_file(root, rel,
		"23 1 0:21 / / rw - ext4 /dev/sda1 rw\n"
		"32 23 0:29 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n"
		"33 23 0:31 / /sys/fs/cgroup/cpuacct rw - cgroup cgroup rw,cpuacct\n"
		"35 23 0:33 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n"
		"37 23 0:34 / /sys/fs/cgroup/pids rw - cgroup cgroup rw,pids\n");
	assert_int_equal(kattr_set_sysroot(root), 0);
	assert_int_equal(kattr_rg_open(KATTR_RG_CGROUP1, NULL, &rg), 0);
	kattr_rg_on_create(rg, ino_hook, &hooked);
	kattr_rg_create_batch(rg, true);
	for (int i = 1; i <= 3; i++) {
		char g[32];

		snprintf(g, sizeof(g), "b/g%d", i);
		assert_int_equal(create5(rg, g, 0, NULL, NULL), 0);
		assert_int_equal(spans(root, g), 4);
		snprintf(rel, sizeof(rel), "sys/fs/cgroup/cpu/%s", g);
		assert_true(hooked == ino_of(root, rel));
	}
	/* the parent removed from memory and made again: the new one gets it */
	tree_op(rmdir, root, "sys/fs/cgroup/memory/b/g1");
	tree_op(rmdir, root, "sys/fs/cgroup/memory/b/g2");
	tree_op(rmdir, root, "sys/fs/cgroup/memory/b/g3");
	tree_op(rmdir, root, "sys/fs/cgroup/memory/b");
	tree_op(mkdir_0755, root, "sys/fs/cgroup/memory/b");
	assert_int_equal(create5(rg, "b/g4", 0, NULL, NULL), 0);
	assert_int_equal(spans(root, "b/g4"), 4);
	/* removed from pids only: made there again, as without a batch */
	for (int i = 1; i <= 4; i++) {
		snprintf(rel, sizeof(rel), "sys/fs/cgroup/pids/b/g%d", i);
		tree_op(rmdir, root, rel);
	}
	tree_op(rmdir, root, "sys/fs/cgroup/pids/b");
	assert_int_equal(create5(rg, "b/g5", 0, NULL, NULL), 0);
	assert_int_equal(spans(root, "b/g5"), 4);
	/* an error and its reason are the batchless ones */
	r.code = -1;
	assert_int_equal(create_why(rg, "b/g5", 0, NULL, NULL, &r),
			 -EEXIST);
	assert_int_equal(r.code, KATTR_RG_WHY_EXISTS);
	/* deleted through the handle, then made again */
	assert_int_equal(kattr_rg_delete(rg, "b/g1", 0), 0);
	assert_int_equal(spans(root, "b/g1"), 0);
	assert_int_equal(create5(rg, "b/g1", 0, NULL, NULL), 0);
	assert_int_equal(spans(root, "b/g1"), 4);
	/* held: a parent renamed meanwhile gets the next group (as if the
	 * batch had run before the rename); its hook is given that one */
	{
		char from[PATH_MAX], to[PATH_MAX];

		snprintf(from, sizeof(from), "%s/sys/fs/cgroup/cpu/b", root);
		snprintf(to, sizeof(to), "%s/sys/fs/cgroup/cpu/b2", root);
		assert_int_equal(rename(from, to), 0);
	}
	assert_int_equal(create5(rg, "b/g6", 0, NULL, NULL), 0);
	assert_true(is_dir(root, "sys/fs/cgroup/cpu/b2/g6"));
	assert_true(hooked == ino_of(root, "sys/fs/cgroup/cpu/b2/g6"));
	/* the batch over: by name, and b is gone from cpu */
	kattr_rg_create_batch(rg, false);
	assert_int_equal(create5(rg, "b/g7", 0, NULL, NULL), -ENXIO);
	assert_int_equal(spans(root, "b/g7"), 0);
	kattr_rg_create_batch(rg, true);	/* closed with the handle */
	assert_int_equal(create5(rg, "b2/g7", 0, NULL, NULL), 0);
	kattr_rg_close(rg);
	assert_int_equal(kattr_set_sysroot(NULL), 0);
	tu_rmtree(root);
	free(root);
}

/* RGCS in a captured tree: detection, /proc/PID/task/PID/res_group, depth. */
static void rgcs_from_sysroot(void **state)
{
	char *root = tu_mkdtemp(), rel[PATH_MAX], *group;
	struct kattr_rg_share *sh;
	struct kattr_rg_stat *st;
	struct kattr_rg *rg;
	size_t n;

	(void)state;
	snprintf(rel, sizeof(rel), "proc/%ld", (long)getpid());
	mkdirs(root, rel);
	mkdirs(root, "proc/4242/task/4242");
	mkdirs(root, "proc/77/task/77");
	mkdirs(root, "config/res_groups/db/batch");
	mkdirs(root, "sys/fs/cgroup/cpu");
	snprintf(rel, sizeof(rel), "proc/%ld/mountinfo", (long)getpid());
	tu_write_file(root, rel,
		      "23 1 0:21 / / rw - ext4 /dev/sda1 rw\n"
		      "32 23 0:29 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n"
		      "40 23 0:40 / /config rw - configfs configfs rw\n");
	tu_write_file(root, "proc/4242/task/4242/res_group", "/db/batch\n");
	tu_write_file(root, "proc/77/task/77/res_group", "/\n");
	tu_write_file(root, "config/res_groups/db/shares",
		      "res=numtasks,min_shares=-3,max_shares=-3,child_shares_divisor=100\n"
		      "res=cpu,min_shares=10,max_shares=-2,child_shares_divisor=100\n");
	tu_write_file(root, "config/res_groups/db/stats",
		      "numtasks: Current usage 1\ncpu:effective_min_shares=10, load=0\n");
	tu_write_file(root, "config/res_groups/db/members", "4242\n");
	assert_int_equal(kattr_set_sysroot(root), 0);

	/* RGCS wins the detection over cgroup v1 */
	assert_int_equal(kattr_rg_open(KATTR_RG_AUTO, NULL, &rg), 0);
	assert_int_equal(kattr_rg_backend_of(rg), KATTR_RG_RGCS);
	assert_string_equal(kattr_rg_root(rg), "/config/res_groups");
	assert_int_equal(kattr_rg_whereis(rg, 4242, &group), 0);
	assert_string_equal(group, "db/batch");
	free(group);
	assert_int_equal(kattr_rg_whereis(rg, 77, &group), 0);
	assert_string_equal(group, "/");
	free(group);
	assert_int_equal(kattr_rg_whereis(rg, 5, &group), -ESRCH);
	assert_int_equal(kattr_rg_share_get(rg, "db", &sh, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(sh[1].min_shares, 10);
	free(sh);
	assert_int_equal(kattr_rg_share_set(rg, "db", "min_shares=20", NULL, NULL), 0);
	{
		char *text;

		assert_int_equal(kattr_file_read("/config/res_groups/db/shares",
						 &text, NULL), 0);
		assert_string_equal(text, "res=cpu,min_shares=20");
		free(text);
	}
	assert_int_equal(kattr_rg_stats(rg, "db", &st, &n), 0);
	assert_int_equal(n, 3);
	kattr_rg_stats_free(st, n);
	/* the depth limit is checked before anything is made */
	assert_int_equal(create5(rg, "a/b/c/d/e/f", KATTR_RG_PARENTS,
					 NULL, NULL), -EMLINK);
	assert_int_equal(kattr_rg_exists(rg, "a"), -ENOENT);
	kattr_rg_close(rg);
	/* --root at the configfs mount or at res_groups itself */
	assert_int_equal(kattr_rg_open(KATTR_RG_RGCS, "/config", &rg), 0);
	assert_string_equal(kattr_rg_root(rg), "/config/res_groups");
	kattr_rg_close(rg);
	assert_int_equal(kattr_rg_open(KATTR_RG_AUTO, "/config/res_groups", &rg), 0);
	assert_int_equal(kattr_rg_backend_of(rg), KATTR_RG_RGCS);
	kattr_rg_close(rg);
	assert_int_equal(kattr_rg_open(KATTR_RG_RGCS, "/sys/fs/cgroup/cpu", &rg),
			 -EMEDIUMTYPE);
	assert_int_equal(kattr_set_sysroot(NULL), 0);
	tu_rmtree(root);
	free(root);
}

/* The one share parser and formatter (kattr_rg_share_parse/_text). */
static void share_text(void **state)
{
	struct kattr_rg_share s;
	struct kattr_why why = { 0 };
	unsigned int keys = 99;
	char buf[128];

	(void)state;
	assert_int_equal(kattr_rg_share_parse(KATTR_RG_CGROUP1, "1024", NULL, &s,
					      &keys, &why), 0);
	assert_int_equal(s.value, 1024);
	assert_string_equal(s.res, "cpu");
	assert_int_equal(keys, 0);
	assert_int_equal(kattr_rg_share_text(KATTR_RG_CGROUP1, &s, 0, buf,
					     sizeof(buf)), 0);
	assert_string_equal(buf, "1024");
	assert_int_equal(kattr_rg_share_parse(KATTR_RG_CGROUP2, "0", NULL, &s,
					      &keys, &why), -ERANGE);
	assert_string_equal(why.text, "out of range");
	assert_int_equal(kattr_rg_share_parse(KATTR_RG_RGCS,
					      "max_shares=50,res=numtasks", NULL,
					      &s, &keys, &why), 0);
	assert_int_equal(keys, KATTR_RG_SHARE_MAX);
	assert_string_equal(s.res, "numtasks");
	assert_int_equal(s.max_shares, 50);
	assert_int_equal(kattr_rg_share_text(KATTR_RG_RGCS, &s, keys, buf,
					     sizeof(buf)), 0);
	assert_string_equal(buf, "res=numtasks,max_shares=50");
	s.min_shares = 10;
	s.child_shares_divisor = 100;
	assert_int_equal(kattr_rg_share_text(KATTR_RG_RGCS, &s, KATTR_RG_SHARE_ALL,
					     buf, sizeof(buf)), 0);
	assert_string_equal(buf, "res=numtasks,min_shares=10,max_shares=50,child_shares_divisor=100");
	assert_int_equal(kattr_rg_share_text(KATTR_RG_RGCS, &s, KATTR_RG_SHARE_SHORT,
					     buf, sizeof(buf)), 0);
	assert_string_equal(buf, "numtasks:10/50/100");
	assert_int_equal(kattr_rg_share_text(KATTR_RG_RGCS, &s, KATTR_RG_SHARE_ALL,
					     buf, 12), -ENAMETOOLONG);
	/* the parser refuses what the formatter would refuse */
	assert_int_equal(kattr_rg_share_parse(KATTR_RG_RGCS,
					      "min_shares=5,max_shares=1", NULL,
					      &s, &keys, &why), -ERANGE);
	assert_int_equal(kattr_rg_share_parse(KATTR_RG_RGCS, "cpu", NULL, &s, &keys,
					      &why), -EINVAL);
	assert_non_null(why.text);
	/* parse then text is what kattr_rg_share_format() writes */
	assert_int_equal(kattr_rg_share_parse(KATTR_RG_RGCS,
					      "child_shares_divisor=4,min_shares=-1",
					      "cpu", &s, &keys, NULL), 0);
	assert_int_equal(kattr_rg_share_text(KATTR_RG_RGCS, &s, keys, buf,
					     sizeof(buf)), 0);
	assert_string_equal(buf, "res=cpu,min_shares=-1,child_shares_divisor=4");
}

/* A cgroup v1 cpu hierarchy with group db (and an attribute file "file")
 * and processes 4242 (threads 4242, 4243) and 77 in a captured tree. */
static char *v1_tree(void)
{
	char *root = tu_mkdtemp(), rel[PATH_MAX];

	snprintf(rel, sizeof(rel), "proc/%ld", (long)getpid());
	mkdirs(root, rel);
	mkdirs(root, "proc/4242/task/4242");
	mkdirs(root, "proc/4242/task/4243");
	mkdirs(root, "proc/77/task/77");
	mkdirs(root, "proc/sys");
	mkdirs(root, "sys/fs/cgroup/cpu/db");
	snprintf(rel, sizeof(rel), "proc/%ld/mountinfo", (long)getpid());
	tu_write_file(root, rel,
		      "23 1 0:21 / / rw - ext4 /dev/sda1 rw\n"
		      "32 23 0:29 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n");
	tu_write_file(root, "sys/fs/cgroup/cpu/cpu.shares", "1024\n");
	tu_write_file(root, "sys/fs/cgroup/cpu/tasks", "1\n");
	tu_write_file(root, "sys/fs/cgroup/cpu/file", "x\n");
	tu_write_file(root, "sys/fs/cgroup/cpu/db/cpu.shares", "512\n");
	tu_write_file(root, "sys/fs/cgroup/cpu/db/tasks", "");
	assert_int_equal(kattr_set_sysroot(root), 0);
	return root;
}

static void v1_tree_free(char *root)
{
	assert_int_equal(kattr_set_sysroot(NULL), 0);
	tu_rmtree(root);
	free(root);
}

#define WHY(call, want_ret, want_what)                                       \
	do {                                                                 \
		char b_[192];                                                \
		struct kattr_why r_ = KATTR_WHY_BUF(b_);                     \
		r_.code = 0x55;                                              \
		assert_int_equal(call, want_ret);                            \
		assert_int_equal(r_.code, want_what);                        \
		if (want_what != KATTR_RG_WHY_NONE)                          \
			assert_true(r_.text && r_.text[0]);                     \
	} while (0)

/* kattr_rg_create(): a reason each, with KATTR_RG_CHECK and without. */
static void create_reasons(void **state)
{
	char rb[192];
	struct kattr_why r = KATTR_WHY_BUF(rb);
	char *root = v1_tree();
	struct kattr_rg *rg;

	(void)state;
	assert_int_equal(kattr_rg_open(KATTR_RG_CGROUP1, NULL, &rg), 0);
	WHY(create_why(rg, "/", KATTR_RG_CHECK, NULL, NULL, &r_), -EINVAL, KATTR_RG_WHY_ROOT);
	WHY(create_why(rg, "../x", KATTR_RG_CHECK, NULL, NULL, &r_), -EINVAL, KATTR_RG_WHY_NAME);
	WHY(create_why(rg, "web", KATTR_RG_CHECK, "100", "cpu", &r_), -EINVAL, KATTR_RG_WHY_RES);
	WHY(create_why(rg, "web", KATTR_RG_CHECK, "1", NULL, &r_), -ERANGE, KATTR_RG_WHY_SHARES);
	WHY(create_why(rg, "a/b/c/d/e/f/g", KATTR_RG_CHECK, "100", NULL, &r_), 0, KATTR_RG_WHY_NONE);
	WHY(create_why(rg, "a/b", 0, NULL, NULL, &r_), -ENXIO, KATTR_RG_WHY_PARENT);
	WHY(create_why(rg, "db", 0, NULL, NULL, &r_), -EEXIST, KATTR_RG_WHY_EXISTS);
	WHY(create_why(rg, "file", 0, NULL, NULL, &r_), -EEXIST, KATTR_RG_WHY_ATTR);
	WHY(create_why(rg, "file/x", KATTR_RG_PARENTS, NULL, NULL, &r_),
	    -ENOTDIR, KATTR_RG_WHY_ATTR_ABOVE);
	/* nothing was made by the refused ones */
	assert_int_equal(kattr_rg_exists(rg, "web"), -ENOENT);
	assert_int_equal(kattr_rg_exists(rg, "a"), -ENOENT);
	/* a directory in a captured tree has no cpu.shares: made, then removed */
	WHY(create_why(rg, "web", 0, "2048", NULL, &r_), -EOPNOTSUPP,
	    KATTR_RG_WHY_NO_SHARES);
	assert_int_equal(kattr_rg_exists(rg, "web"), -ENOENT);
	assert_int_equal(create_why(rg, "web", 0, NULL, NULL, &r), 0);
	assert_int_equal(kattr_rg_exists(rg, "web"), 0);
	assert_string_equal(kattr_why_text(&r, -ENOENT), strerror(ENOENT));
	/* struct kattr_why without a buf: the static words; NULL: none wanted */
	{
		struct kattr_why w = { 0 };

		assert_int_equal(create_why(rg, "a/b", 0, NULL, NULL, &w), -ENXIO);
		assert_int_equal(w.code, KATTR_RG_WHY_PARENT);
		assert_string_equal(w.text, "its parent group does not exist");
		assert_string_equal(kattr_why_text(&w, -ENXIO), w.text);
		assert_int_equal(create_why(rg, "a/b", 0, NULL, NULL, NULL), -ENXIO);
		assert_string_equal(kattr_why_text(NULL, -ENXIO), strerror(ENXIO));
	}
	kattr_rg_close(rg);
	v1_tree_free(root);
}

/* An attach target, a group's fd. */
static void targets(void **state)
{
	char *root = v1_tree(), *text;
	struct kattr_rg_target *t;
	struct kattr_rg *rg;
	struct stat st;
	int fd;

	(void)state;
	assert_int_equal(kattr_rg_open(KATTR_RG_CGROUP1, NULL, &rg), 0);
	assert_int_equal(kattr_rg_target_open(rg, "nope", 0, &t), -ENOENT);
	assert_int_equal(kattr_rg_target_open(rg, "../x", 0, &t), -EINVAL);
	assert_int_equal(kattr_rg_target_open(rg, "db", 0, &t), 0);
	assert_int_equal(kattr_rg_target_attach(t, 0), -EINVAL);
	assert_int_equal(kattr_rg_target_attach(t, 4242), 0);
	kattr_rg_target_close(t);
	assert_int_equal(kattr_file_read("/sys/fs/cgroup/cpu/db/tasks", &text, NULL), 0);
	assert_string_equal(text, "4242");
	free(text);
	fd = kattr_rg_group_open(rg, "db", O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	close(fd);
	fd = kattr_rg_group_open(rg, "/", O_RDONLY);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(kattr_rg_group_open(rg, "nope", O_RDONLY), -ENOENT);
	assert_int_equal(kattr_rg_group_open(rg, "file", O_RDONLY), -ENOTDIR);
	kattr_rg_close(rg);
	v1_tree_free(root);
}

static int count_pid(pid_t id, void *data)
{
	int *n = data;

	assert_true(id > 0);
	(*n)++;
	return id == 4243 ? 7 : 0;
}

/*
 * A hierarchy opened beneath a root handle (kattr_rg_open_at()), with no
 * default sysroot set: the mount table, the mount and the groups are the
 * captured tree's, not the host's.
 */
static void open_at_root(void **state)
{
	char *dir = v1_tree();
	struct kattr_root *root;
	struct kattr_rg *rg;

	(void)state;
	mkdirs(dir, "sys/fs/cgroup/cpu/only_in_the_tree");
	assert_int_equal(kattr_set_sysroot(NULL), 0);
	assert_int_equal(kattr_root_open(dir, &root), 0);
	assert_int_equal(kattr_rg_open_at(root, KATTR_RG_CGROUP1, NULL, &rg), 0);
	assert_string_equal(kattr_rg_root(rg), "/sys/fs/cgroup/cpu");
	assert_int_equal(kattr_rg_exists(rg, "only_in_the_tree"), 0);
	{
		struct kattr_rg *sub = NULL;	/* v1 spans: not narrowed */

		assert_int_equal(kattr_rg_open_below(rg, "only_in_the_tree", &sub),
				 -EOPNOTSUPP);
		assert_null(sub);
	}
	kattr_rg_close(rg);
	assert_int_equal(kattr_rg_open_at(root, KATTR_RG_CGROUP1,
					  "/sys/fs/cgroup/cpu/db", &rg), 0);
	kattr_rg_close(rg);
	kattr_root_close(root);
	v1_tree_free(dir);
}

/*
 * kattr_rg_open_below(): a subtree of the v2 tree detection found, with
 * the mount table not read again (it is gone from the tree before the
 * call), its place in the hierarchy right, and no way out of rg.
 */
static void open_below(void **state)
{
	char *dir = tu_mkdtemp(), rel[PATH_MAX];
	struct kattr_root *root;
	struct kattr_rg *rg, *sub;

	(void)state;
	snprintf(rel, sizeof(rel), "proc/%ld", (long)getpid());
	mkdirs(dir, rel);
	mkdirs(dir, "sys/fs/cgroup/rgctl.slice/rgctl.service/db");
	snprintf(rel, sizeof(rel), "proc/%ld/mountinfo", (long)getpid());
	tu_write_file(dir, rel, "23 1 0:21 / / rw - ext4 /dev/sda1 rw\n"
		      "41 23 0:38 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n");
	tu_write_file(dir, "sys/fs/cgroup/cgroup.controllers", "memory\n");
	tu_write_file(dir, "sys/fs/cgroup/rgctl.slice/rgctl.service/cgroup.controllers",
		      "cpu memory\n");
	tu_write_file(dir, "sys/fs/cgroup/rgctl.slice/rgctl.service/db/cpu.weight",
		      "100\n");
	assert_int_equal(kattr_root_open(dir, &root), 0);
	assert_int_equal(kattr_rg_open_at(root, KATTR_RG_CGROUP2, NULL, &rg), 0);
	assert_false(kattr_rg_has_shares(rg));
	tu_write_file(dir, rel, "");	/* read again, it would find nothing */
	assert_int_equal(kattr_rg_open_below(rg, "rgctl.slice/rgctl.service", &sub), 0);
	kattr_rg_close(rg);
	assert_string_equal(kattr_rg_root(sub), "/sys/fs/cgroup/rgctl.slice/rgctl.service");
	assert_true(kattr_rg_has_shares(sub));
	assert_int_equal(kattr_rg_exists(sub, "db"), 0);
	assert_int_equal(kattr_rg_exists(sub, "rgctl.service"), -ENOENT);
	/* below a narrowed handle too; bad names, missing groups */
	assert_int_equal(kattr_rg_open_below(sub, "db", &rg), 0);
	assert_string_equal(kattr_rg_root(rg), "/sys/fs/cgroup/rgctl.slice/rgctl.service/db");
	kattr_rg_close(rg);
	assert_int_equal(kattr_rg_open_below(sub, "../rgctl.service", &rg), -EINVAL);
	assert_int_equal(kattr_rg_open_below(sub, "/", &rg), -EINVAL);
	assert_int_equal(kattr_rg_open_below(sub, "nope", &rg), -ENOENT);
	kattr_rg_close(sub);
	kattr_root_close(root);
	tu_rmtree(dir);
	free(dir);
}

/* /proc's processes and a process's threads, beneath the sysroot. */
static void proc_pids(void **state)
{
	char *root = v1_tree();
	int n = 0, ret;

	(void)state;
	assert_int_equal(kattr_proc_foreach(0, count_pid, &n), 0);
	assert_int_equal(n, 3);		/* ours, 4242, 77; not "sys" */
	n = 0;
	assert_int_equal(kattr_proc_foreach(77, count_pid, &n), 0);
	assert_int_equal(n, 1);
	n = 0;
	ret = kattr_proc_foreach(4242, count_pid, &n);
	assert_true(ret == 7);		/* the callback stopped the walk */
	assert_int_equal(kattr_proc_foreach(5, count_pid, &n), -ESRCH);
	v1_tree_free(root);
}

/*
 * cgroup v2's subtree_control around a plan (issue 30): the groups above
 * each step's group recorded once, parents first, up to the first that
 * does not exist; the restore writes "-ctl" for each controller enabled
 * since, deepest group first, passing over a group gone; cgroup v1 records
 * nothing.  (A captured tree: plain files, each write the file's text.)
 */
static char *read_at(const char *root, const char *rel)
{
	char path[PATH_MAX], *text = calloc(1, 256);
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(text);
	assert_true(fread(text, 1, 255, f) < 255);
	fclose(f);
	return text;
}

static void subtree_control(void **state)
{
	char *root = tu_mkdtemp(), mi[PATH_MAX], *text;
	struct kattr_rgplan p = { 0 };
	struct kattr_rgplan_step *s;
	struct kattr_rg *rg;
	size_t bad = 99;

	(void)state;
	snprintf(mi, sizeof(mi), "proc/%ld", (long)getpid());
	mkdirs(root, mi);
	mkdirs(root, "sys/fs/cgroup/unified/a/b");
	mkdirs(root, "sys/fs/cgroup/unified/x");
	mkdirs(root, "sys/fs/cgroup/cpu");
	snprintf(mi, sizeof(mi), "proc/%ld/mountinfo", (long)getpid());
	tu_write_file(root, mi,
		      "23 1 0:21 / / rw - ext4 /dev/sda1 rw\n"
		      "32 23 0:29 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu,cpuacct\n"
		      "41 23 0:38 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n");
	tu_write_file(root, "sys/fs/cgroup/unified/cgroup.subtree_control", "memory\n");
	tu_write_file(root, "sys/fs/cgroup/unified/a/cgroup.subtree_control", "\n");
	tu_write_file(root, "sys/fs/cgroup/unified/a/b/cgroup.subtree_control", "pids\n");
	tu_write_file(root, "sys/fs/cgroup/unified/x/cgroup.subtree_control", "\n");
	assert_int_equal(kattr_set_sysroot(root), 0);
	assert_int_equal(kattr_rg_open(KATTR_RG_CGROUP2, NULL, &rg), 0);
	assert_int_equal(kattr_rgplan_add(&p, KATTR_RGPLAN_RES, "a/b/c/d", &s), 0);
	assert_int_equal(kattr_rgplan_add(&p, KATTR_RGPLAN_CREATE, "a/n", &s), 0);
	assert_int_equal(kattr_rgplan_add(&p, KATTR_RGPLAN_CREATE, "x/y", &s), 0);
	assert_int_equal(kattr_rgplan_sc_save(rg, &p), 0);
	assert_int_equal(p.nsc, 4);
	assert_string_equal(p.sc[0].group, "/");
	assert_string_equal(p.sc[0].words, "memory");
	assert_string_equal(p.sc[1].group, "a");
	assert_string_equal(p.sc[1].words, "");
	assert_string_equal(p.sc[2].group, "a/b");
	assert_string_equal(p.sc[2].words, "pids");
	assert_string_equal(p.sc[3].group, "x");
	/* the run enabled cpu in the root and a (and nothing in a/b) */
	tu_write_file(root, "sys/fs/cgroup/unified/cgroup.subtree_control", "cpu memory\n");
	tu_write_file(root, "sys/fs/cgroup/unified/a/cgroup.subtree_control", "cpu\n");
	snprintf(mi, sizeof(mi), "%s/sys/fs/cgroup/unified/x/cgroup.subtree_control", root);
	assert_int_equal(unlink(mi), 0);
	snprintf(mi, sizeof(mi), "%s/sys/fs/cgroup/unified/x", root);
	assert_int_equal(rmdir(mi), 0);
	assert_int_equal(kattr_rgplan_sc_restore(rg, &p, &bad), 0);
	assert_int_equal(bad, 99);
	text = read_at(root, "sys/fs/cgroup/unified/cgroup.subtree_control");
	assert_string_equal(text, "-cpu");
	free(text);
	text = read_at(root, "sys/fs/cgroup/unified/a/cgroup.subtree_control");
	assert_string_equal(text, "-cpu");
	free(text);
	text = read_at(root, "sys/fs/cgroup/unified/a/b/cgroup.subtree_control");
	assert_string_equal(text, "pids\n");
	free(text);
	kattr_rg_close(rg);
	kattr_rgplan_free(&p);
	/* cgroup v1 delegates nothing: nothing recorded */
	assert_int_equal(kattr_rg_open(KATTR_RG_CGROUP1, "/sys/fs/cgroup/cpu", &rg), 0);
	assert_int_equal(kattr_rgplan_add(&p, KATTR_RGPLAN_CREATE, "a/n", &s), 0);
	assert_int_equal(kattr_rgplan_sc_save(rg, &p), 0);
	assert_int_equal(p.nsc, 0);
	kattr_rg_close(rg);
	kattr_rgplan_free(&p);
	assert_int_equal(kattr_set_sysroot(NULL), 0);
	tu_rmtree(root);
	free(root);
}

/*
 * The captured trees hold processes 77, 4242 and 4243 beside our own: when
 * our pid is one of them (CI, 2026-12-05: 4243, and proc_pids' walk
 * stopped at ourselves), run the tests in a child, whose pid differs.
 */
static void avoid_fixture_pids(void)
{
	int status;
	pid_t child;

	while (getpid() == 77 || getpid() == 4242 || getpid() == 4243) {
		child = fork();
		if (child < 0)
			exit(1);
		if (child == 0)
			continue;
		if (waitpid(child, &status, 0) < 0)
			exit(1);
		exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(backend_names),
		cmocka_unit_test(names),
		cmocka_unit_test(shares_cgroup),
		cmocka_unit_test(shares_rgcs),
		cmocka_unit_test(rgcs_shares_text),
		cmocka_unit_test(rgcs_stats_text),
		cmocka_unit_test(keyed_text),
		cmocka_unit_test(pid_lists),
		cmocka_unit_test(open_from_sysroot),
		cmocka_unit_test(rgcs_from_sysroot),
		cmocka_unit_test(v1_spans_from_sysroot),
		cmocka_unit_test(v1_batch_from_sysroot),
		cmocka_unit_test(share_text),
		cmocka_unit_test(create_reasons),
		cmocka_unit_test(targets),
		cmocka_unit_test(proc_pids),
		cmocka_unit_test(open_at_root),
		cmocka_unit_test(open_below),
		cmocka_unit_test(subtree_control),
	};

	avoid_fixture_pids();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
