/*
 * The snapshot is byte for byte what /proc/likely_prof printed: the same
 * three header lines and, per site, the row lp_seq_show() of the 2006 patch
 * printed (rebuilt below from its seq_printf calls, with its int
 * comparisons), newest first-hit first, sites never hit absent.
 */
#include <errno.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include "testutil.h"
#include <likely_prof.h>

static volatile unsigned sink;

/* lp_seq_show() of seed 003, with seq_printf() appending to out. */
static void seed_show(char *out, size_t size, int type, int t, int f,
		      const char *func, const char *file, int line)
{
	size_t n = strlen(out);

	if (!type) {
		if (t > f)
			n += (size_t)snprintf(out + n, size - n, "+");
		else
			n += (size_t)snprintf(out + n, size - n, " ");
		n += (size_t)snprintf(out + n, size - n, "unlikely ");
	} else {
		if (t < f)
			n += (size_t)snprintf(out + n, size - n, "-");
		else
			n += (size_t)snprintf(out + n, size - n, " ");
		n += (size_t)snprintf(out + n, size - n, "likely   ");
	}
	snprintf(out + n, size - n, "|%9u|%9u\t%s()@:%s@%d\n", t, f, func,
		 file, line);
}

static char *dump(void)
{
	int fd = memfd_create("snapshot", 0);
	static char buf[1 << 16];
	ssize_t n;

	assert_true(fd >= 0);
	assert_int_equal(likely_prof_dump(fd), 0);
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	assert_true(n > 0);
	buf[n] = '\0';
	close(fd);
	return buf;
}

static int lines[8];

/* Each site is hit for the first time in the order a, b, c, d, e. */
static void sites(long n, long big)
{
	for (long i = 0; i < n; i++) {
		lines[0] = __LINE__ + 1;
		if (unlikely(i % 10 == 0))	/* a: right, 100|900 */
			sink++;
		lines[1] = __LINE__ + 1;
		if (unlikely(i % 10 != 0))	/* b: wrong, '+' */
			sink++;
		lines[2] = __LINE__ + 1;
		if (likely(i % 4 == 0))		/* c: wrong, '-' */
			sink++;
		lines[3] = __LINE__ + 1;
		if (likely(i & 1))		/* d: 500|500, no flag */
			sink++;
	}
	for (long i = 0; i < big; i++) {
		lines[4] = __LINE__ + 1;
		if (likely(i >= 0))		/* e: 9 digits */
			sink++;
	}
	lines[5] = __LINE__ + 1;
	if (unlikely(n < 0))			/* f: never true, hit once */
		sink++;
	if (n < 0 && unlikely(big > 0))	/* g: never evaluated: absent */
		sink++;
}

static void test_format_matches_seed(void **state)
{
	const char *F = __FILE__;
	char want[8192] = "Likely Profiling Results\n"
		" --------------------------------------------------------------------\n"
		"[+- ] Type | # True | # False | Function:Filename@Line\n";
	char *got;

	sites(1000, 123456789);
	got = dump();
	seed_show(want, sizeof(want), 0, 0, 1, "sites", F, lines[5]);
	seed_show(want, sizeof(want), 1, 123456789, 0, "sites", F, lines[4]);
	seed_show(want, sizeof(want), 1, 500, 500, "sites", F, lines[3]);
	seed_show(want, sizeof(want), 1, 250, 750, "sites", F, lines[2]);
	seed_show(want, sizeof(want), 0, 900, 100, "sites", F, lines[1]);
	seed_show(want, sizeof(want), 0, 100, 900, "sites", F, lines[0]);
	assert_string_equal(got, want);
	/* spot checks of the seed's conventions, independent of seed_show() */
	assert_non_null(strstr(got, "\n+unlikely |      900|      100\tsites()@:"));
	assert_non_null(strstr(got, "\n-likely   |      250|      750\tsites()@:"));
	assert_non_null(strstr(got, "\n likely   |123456789|        0\tsites()@:"));
}

/* likely_prof_save() writes <dir>/<pid>: the same text, and no temp file. */
static void test_save_writes_pid_file(void **state)
{
	const char *dir = getenv("LIKELY_PROF_DIR");
	char path[4096], tmp[4096], *want, file[1 << 16];
	FILE *f;
	size_t n;

	want = strdup(dump());
	assert_int_equal(likely_prof_save(), 0);
	snprintf(path, sizeof(path), "%s/%d", dir, (int)getpid());
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(file, 1, sizeof(file) - 1, f);
	fclose(f);
	file[n] = '\0';
	assert_string_equal(file, want);
	snprintf(tmp, sizeof(tmp), "%s/.%d.tmp", dir, (int)getpid());
	assert_int_equal(access(tmp, F_OK), -1);
	free(want);
}

/* The counts are 64-bit and printed whole: 5,000,000,001 is not printed
 * modulo 2^32 (705032705), so a reader never takes a restart for a wrap. */
static void test_counts_are_64_bit(void **state)
{
	int line = 0;
	char want[4096 + 128];	/* __FILE__ is the checkout's absolute path */

	for (int i = 0; i < 3; i++) {
		line = __LINE__ + 1;
		if (unlikely(i == 1))
			sink++;
	}
	for (struct likely_prof_site *s = __start_likely_prof_sites;
	     s < __stop_likely_prof_sites; s++)
		if (s->line == line)
			__atomic_fetch_add(&s->count[1], 5000000000ULL,
					   __ATOMIC_RELAXED);
	snprintf(want, sizeof(want),
		 "\n+unlikely |5000000001|        2\ttest_counts_are_64_bit()@:%s@%d\n",
		 __FILE__, line);
	assert_non_null(strstr(dump(), want));
}

/*
 * Objects planted where the temporary file goes (a shared
 * LIKELY_PROF_DIR): a symlink is neither followed nor removed, a FIFO is
 * not opened (it would block), and the profile is still written.
 */
static void test_save_beside_planted_objects(void **state)
{
	const char *dir = getenv("LIKELY_PROF_DIR");
	char tmp[4096], path[4096], target[4096], buf[64];
	struct stat st;
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s/.%d.tmp", dir, (int)getpid());
	snprintf(path, sizeof(path), "%s/%d", dir, (int)getpid());
	snprintf(target, sizeof(target), "%s/target", dir);
	f = fopen(target, "w");
	assert_non_null(f);
	fputs("precious\n", f);
	fclose(f);
	for (int round = 0; round < 2; round++) {
		unlink(path);
		if (round == 0)
			assert_int_equal(symlink(target, tmp), 0);
		else
			assert_int_equal(mkfifo(tmp, 0600), 0);
		assert_int_equal(likely_prof_save(), 0);
		assert_int_equal(lstat(tmp, &st), 0);
		assert_true(round == 0 ? S_ISLNK(st.st_mode) : S_ISFIFO(st.st_mode));
		assert_int_equal(lstat(path, &st), 0);
		assert_true(S_ISREG(st.st_mode));
		assert_true(st.st_size > 0);
		unlink(tmp);
	}
	f = fopen(target, "r");
	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal(buf, "precious\n");
	unlink(target);
}

static char *profile_dir;

static int teardown(void **state)
{
	tu_rmtree(profile_dir);
	free(profile_dir);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_matches_seed),
		cmocka_unit_test(test_save_writes_pid_file),
		cmocka_unit_test(test_counts_are_64_bit),
		cmocka_unit_test(test_save_beside_planted_objects),
	};

	/* before the first hit: profiles go here, not to ~/.cache */
	profile_dir = tu_mkdtemp();
	setenv("LIKELY_PROF_DIR", profile_dir, 1);
	setenv("LIKELY_PROF_INTERVAL_MS", "0", 1);
	return cmocka_run_group_tests(tests, NULL, teardown);
}
