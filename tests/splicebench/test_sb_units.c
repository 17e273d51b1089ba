/* splicebench's pure modules: statistics, command-line values, chunks. */
#include "testutil.h"
#include <errno.h>
#include <math.h>
#include "sb.h"
#include "parse.h"

static void stats_odd_even(void **state)
{
	const double odd[] = { 3.0, 1.0, 2.0, 10.0, 4.0 };
	const double even[] = { 4.0, 1.0, 3.0, 2.0 };
	const double one[] = { 7.5 };
	struct sb_stats st;

	(void)state;
	assert_int_equal(sb_stats_compute(odd, 5, &st), 0);
	assert_int_equal(st.n, 5);
	assert_true(st.median == 3.0);
	assert_true(st.min == 1.0);
	assert_true(st.max == 10.0);
	assert_true(fabs(st.spread - 3.0) < 1e-12);	/* (10-1)/3 */
	/* the input is left as it was */
	assert_true(odd[0] == 3.0 && odd[3] == 10.0);
	assert_int_equal(sb_stats_compute(even, 4, &st), 0);
	assert_true(st.median == 2.5);
	assert_true(fabs(st.spread - 1.2) < 1e-12);
	assert_int_equal(sb_stats_compute(one, 1, &st), 0);
	assert_true(st.median == 7.5 && st.min == 7.5 && st.max == 7.5);
	assert_true(st.spread == 0);
	assert_int_equal(sb_stats_compute(one, 0, &st), -EINVAL);
}

static void stats_zero_median(void **state)
{
	const double z[] = { 0, 0, 0 };
	struct sb_stats st;

	(void)state;
	assert_int_equal(sb_stats_compute(z, 3, &st), 0);
	assert_true(st.spread == 0);
}

static void rates(void **state)
{
	(void)state;
	assert_true(fabs(sb_gbps(2000000000ull, 0.5) - 4.0) < 1e-12);
	assert_true(sb_gbps(1000, 0) == 0);
	assert_true(sb_gbps(1000, -1) == 0);
	assert_true(fabs(sb_cpu_s_per_gb(0.25, 500000000ull) - 0.5) < 1e-12);
	assert_true(sb_cpu_s_per_gb(1.0, 0) == 0);
}

static void sizes(void **state)
{
	uint64_t v, l[4];

	(void)state;
	assert_int_equal(sb_parse_size("4096", &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(sb_parse_size("64K", &v), 0);
	assert_int_equal(v, 65536);
	assert_int_equal(sb_parse_size("64k", &v), 0);
	assert_int_equal(v, 65536);
	assert_int_equal(sb_parse_size("1M", &v), 0);
	assert_int_equal(v, 1 << 20);
	assert_int_equal(sb_parse_size("2G", &v), 0);
	assert_int_equal(v, 2ull << 30);
	assert_int_equal(sb_parse_size("256KiB", &v), 0);
	assert_int_equal(v, 256 << 10);
	assert_int_equal(sb_parse_size("", &v), -EINVAL);
	assert_int_equal(sb_parse_size("K", &v), -EINVAL);
	assert_int_equal(sb_parse_size("-1", &v), -EINVAL);
	assert_int_equal(sb_parse_size("1T", &v), -EINVAL);
	assert_int_equal(sb_parse_size("1 M", &v), -EINVAL);
	assert_int_equal(sb_parse_size("1MM", &v), -EINVAL);
	assert_int_equal(sb_parse_size("99999999999999999999", &v), -ERANGE);
	assert_int_equal(sb_parse_size("17179869184G", &v), -ERANGE);
	assert_int_equal(sb_parse_size_list("4K,64K,1M", l, 4), 3);
	assert_int_equal(l[0], 4096);
	assert_int_equal(l[2], 1 << 20);
	assert_int_equal(sb_parse_size_list("4K", l, 4), 1);
	assert_int_equal(sb_parse_size_list("4K,", l, 4), -EINVAL);
	assert_int_equal(sb_parse_size_list(",4K", l, 4), -EINVAL);
	assert_int_equal(sb_parse_size_list("1,2,3,4,5", l, 4), -E2BIG);
}

static void format_sizes(void **state)
{
	char b[32];

	(void)state;
	assert_string_equal(sb_format_size(65536, b, sizeof(b)), "64K");
	assert_string_equal(sb_format_size(1 << 20, b, sizeof(b)), "1M");
	assert_string_equal(sb_format_size(3ull << 30, b, sizeof(b)), "3G");
	assert_string_equal(sb_format_size(1536 << 10, b, sizeof(b)), "1.5M");
	assert_string_equal(sb_format_size(1000, b, sizeof(b)), "1000");
	assert_string_equal(sb_format_size(4104, b, sizeof(b)), "4104");
	assert_string_equal(sb_format_size(0, b, sizeof(b)), "0");
}

static void modes_consumers_pin(void **state)
{
	enum sb_consumer c;
	const char *path;
	unsigned int m;
	double s;
	int p, q;

	(void)state;
	assert_int_equal(sb_parse_modes("copy,vmsplice,gift", &m), 0);
	assert_int_equal(m, 7);
	assert_int_equal(sb_parse_modes("gift", &m), 0);
	assert_int_equal(m, 1u << SB_GIFT);
	assert_int_equal(sb_parse_modes("copy,", &m), -EINVAL);
	assert_int_equal(sb_parse_modes("splice", &m), -EINVAL);
	assert_int_equal(sb_parse_modes("cop", &m), -EINVAL);
	assert_int_equal(sb_parse_consumer("null", &c, &path), 0);
	assert_int_equal(c, SB_NULL);
	assert_int_equal(sb_parse_consumer("verify", &c, &path), 0);
	assert_int_equal(c, SB_VERIFY);
	assert_int_equal(sb_parse_consumer("file:/tmp/x", &c, &path), 0);
	assert_int_equal(c, SB_FILE);
	assert_string_equal(path, "/tmp/x");
	assert_int_equal(sb_parse_consumer("file:", &c, &path), -EINVAL);
	assert_int_equal(sb_parse_consumer("tee", &c, &path), -EINVAL);
	assert_int_equal(sb_parse_pin("0,1", &p, &q), 0);
	assert_int_equal(p, 0);
	assert_int_equal(q, 1);
	assert_int_equal(sb_parse_pin("3,3", &p, &q), 0);
	assert_int_equal(sb_parse_pin("0", &p, &q), -EINVAL);
	assert_int_equal(sb_parse_pin("0,1,2", &p, &q), -EINVAL);
	assert_int_equal(sb_parse_pin("a,1", &p, &q), -EINVAL);
	assert_int_equal(sb_parse_pin("0,-1", &p, &q), -EINVAL);
	assert_int_equal(sb_parse_pin("0,99999", &p, &q), -EINVAL);
	assert_int_equal(sb_parse_seconds("0.5", &s), 0);
	assert_true(s == 0.5);
	assert_int_equal(sb_parse_seconds("0", &s), -EINVAL);
	assert_int_equal(sb_parse_seconds("-1", &s), -EINVAL);
	assert_int_equal(sb_parse_seconds("1s", &s), -EINVAL);
	assert_int_equal(sb_parse_seconds("nan", &s), -EINVAL);
	assert_int_equal(sb_parse_seconds("1e9", &s), -EINVAL);
}

static void chunks(void **state)
{
	uint64_t buf[512], other[512], got;

	(void)state;
	sb_chunk_fill(buf, sizeof(buf), 42);
	assert_int_equal(buf[0], 42);
	assert_int_equal(sb_chunk_check(buf, sizeof(buf), 42, &got), SB_CHUNK_OK);
	/* another chunk's data, as when a buffer is reused too early */
	sb_chunk_fill(other, sizeof(other), 44);
	assert_int_equal(sb_chunk_check(other, sizeof(other), 42, &got),
			 SB_CHUNK_BAD_SEQ);
	assert_int_equal(got, 44);
	/* one flipped bit anywhere in the payload */
	buf[300] ^= 1ull << 17;
	assert_int_equal(sb_chunk_check(buf, sizeof(buf), 42, &got),
			 SB_CHUNK_BAD_SUM);
	buf[300] ^= 1ull << 17;
	/* the header rewritten for the right sequence, the payload not */
	memcpy(other, buf, 16);
	assert_int_equal(sb_chunk_check(other, sizeof(other), 42, &got),
			 SB_CHUNK_BAD_SUM);
	/* the smallest chunk: a header only */
	sb_chunk_fill(buf, 16, 7);
	assert_int_equal(sb_chunk_check(buf, 16, 7, &got), SB_CHUNK_OK);
	assert_int_equal(sb_chunk_check(buf, 16, 8, &got), SB_CHUNK_BAD_SEQ);
	/* two chunks differ in their payload, not only in the header */
	sb_chunk_fill(buf, sizeof(buf), 1);
	sb_chunk_fill(other, sizeof(other), 2);
	assert_true(buf[100] != other[100]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stats_odd_even),
		cmocka_unit_test(stats_zero_median),
		cmocka_unit_test(rates),
		cmocka_unit_test(sizes),
		cmocka_unit_test(format_sizes),
		cmocka_unit_test(modes_consumers_pin),
		cmocka_unit_test(chunks),
	};
	return cmocka_run_group_tests_name("splicebench units", tests, NULL, NULL);
}
