/* The profile model: parsers on the three formats (the reference rows
 * included), bad input, diffs and wrap, every sort order, filters. */
#include "testutil.h"
#include <errno.h>
#include "kattr/profile.h"
#include "kattr/private.h"
#include "ref_likely_row.h"
#include "ref_trace_row.h"
#include "table_check.h"
#include "live_check.h"

/* kattr_profile_wrong() the long way. */
static size_t count_wrong(const struct kattr_profile *p)
{
	size_t n = 0;

	for (size_t i = 0; i < p->n; i++)
		n += kattr_profile_entry_is_wrong(&p->entries[i]);
	return n;
}

static const char LIKELY_SAMPLE[] =
	"Likely Profiling Results\n"
	" --------------------------------------------------------------------\n"
	"[+- ] Type | # True | # False | Function:Filename@Line\n"
	" unlikely |        0|        3\ttcp_sacktag_write_queue()@:net/ipv4/tcp_input.c@1215\n"
	"+unlikely |     5050|        0\tdo_sys_vm86()@:arch/i386/kernel/vm86.c@314\n"
	"-likely   |        0|     1945\taudit_free()@:kernel/auditsc.c@715\n";

static const char ANNOTATED_SAMPLE[] =
	" correct incorrect  %        Function                  File              Line\n"
	" ------- ---------  -        --------                  ----              ----\n"
	"       0    17127 100 ip_neigh_for_gw                route.h              393\n"
	"       5/12       3  37 some_function                  file.c               42\n"
	"       0        0   X never_hit                      never.c              7\n";

static const char ALL_SAMPLE[] =
	"   miss      hit    %        Function                  File              Line\n"
	" ------- ---------  -        --------                  ----              ----\n"
	"     300      100  25 do_thing                       thing.c              10\n"
	"       0       50 100 always                         thing.c              20\n";

static struct kattr_profile *parse(const char *s, enum kattr_profile_format f)
{
	struct kattr_profile *p = NULL;

	assert_int_equal(kattr_profile_parse(s, strlen(s), f, &p), 0);
	assert_non_null(p);
	return p;
}

static void likely_prof_reference_rows(void **state)
{
	struct kattr_profile *p = parse(LIKELY_SAMPLE, KATTR_PROFILE_FMT_UNKNOWN);
	const struct kattr_profile_entry *e = p->entries;

	(void)state;
	assert_int_equal(p->format, KATTR_PROFILE_FMT_LIKELY_PROF);
	assert_true(p->has_header);
	assert_int_equal(p->n, 3);
	assert_int_equal(p->bad_rows, 0);
	assert_int_equal(p->counter_bits, 32);
	/* unlikely: correct = # False, incorrect = # True */
	assert_int_equal(e[0].hint, KATTR_PROFILE_HINT_UNLIKELY);
	assert_int_equal(e[0].correct, 3);
	assert_int_equal(e[0].incorrect, 0);
	assert_string_equal(e[0].function, "tcp_sacktag_write_queue");
	assert_string_equal(e[0].file, "net/ipv4/tcp_input.c");
	assert_int_equal(e[0].line, 1215);
	assert_false(e[0].has_constant);
	assert_int_equal(e[1].incorrect, 5050);
	assert_int_equal(e[1].correct, 0);
	assert_true(kattr_profile_entry_is_wrong(&e[1]));
	/* likely: correct = # True, incorrect = # False */
	assert_int_equal(e[2].hint, KATTR_PROFILE_HINT_LIKELY);
	assert_int_equal(e[2].correct, 0);
	assert_int_equal(e[2].incorrect, 1945);
	assert_string_equal(e[2].function, "audit_free");
	assert_string_equal(e[2].file, "kernel/auditsc.c");
	assert_int_equal(e[2].line, 715);
	assert_true(kattr_profile_entry_is_wrong(&e[2]));
	assert_false(kattr_profile_entry_is_wrong(&e[0]));
	kattr_profile_free(p);
}

static void likely_prof_edge_rows(void **state)
{
	/* Counters at 2^32-1 widen the column; the kernel's flag compared
	 * signed ints, so it is ignored; '@' inside a path; header only. */
	static const char s[] =
		"Likely Profiling Results\n"
		" --------------------------------------------------------------------\n"
		"[+- ] Type | # True | # False | Function:Filename@Line\n"
		" unlikely |4294967295|        1\tkfree()@:/home/u/my@src/slab.c@3380\n"
		"-likely   |       10|       20\tf()@:a.c@1\r\n";
	struct kattr_profile *p = parse(s, KATTR_PROFILE_FMT_UNKNOWN);

	(void)state;
	assert_int_equal(p->n, 2);
	assert_int_equal(p->entries[0].incorrect, 4294967295ULL);
	assert_string_equal(p->entries[0].file, "/home/u/my@src/slab.c");
	assert_int_equal(p->entries[0].line, 3380);
	assert_true(kattr_profile_entry_is_wrong(&p->entries[0]));
	assert_int_equal(p->entries[1].line, 1);
	kattr_profile_free(p);

	p = parse("Likely Profiling Results\n", KATTR_PROFILE_FMT_UNKNOWN);
	assert_int_equal(p->n, 0);
	assert_int_equal(p->format, KATTR_PROFILE_FMT_LIKELY_PROF);
	kattr_profile_free(p);
}

static void annotated_reference_rows(void **state)
{
	struct kattr_profile *p = parse(ANNOTATED_SAMPLE, KATTR_PROFILE_FMT_UNKNOWN);
	const struct kattr_profile_entry *e = p->entries;

	(void)state;
	assert_int_equal(p->format, KATTR_PROFILE_FMT_ANNOTATED);
	assert_int_equal(p->n, 3);
	assert_int_equal(p->bad_rows, 0);
	assert_int_equal(p->counter_bits, 64);
	assert_int_equal(e[0].hint, KATTR_PROFILE_HINT_ANNOTATED);
	assert_int_equal(e[0].correct, 0);
	assert_int_equal(e[0].incorrect, 17127);
	assert_string_equal(e[0].function, "ip_neigh_for_gw");
	assert_string_equal(e[0].file, "route.h");
	assert_int_equal(e[0].line, 393);
	assert_true(e[0].has_constant);
	assert_int_equal(e[1].correct, 5);
	assert_int_equal(e[1].constant, 12);
	assert_int_equal(e[1].incorrect, 3);
	assert_int_equal((int)kattr_profile_entry_pct(&e[1]), 37);
	assert_true(kattr_profile_entry_pct(&e[2]) < 0);
	kattr_profile_free(p);
}

static void all_branches_rows(void **state)
{
	struct kattr_profile *p = parse(ALL_SAMPLE, KATTR_PROFILE_FMT_UNKNOWN);

	(void)state;
	assert_int_equal(p->format, KATTR_PROFILE_FMT_ALL);
	assert_int_equal(p->n, 2);
	assert_int_equal(p->entries[0].hint, KATTR_PROFILE_HINT_NONE);
	assert_int_equal(p->entries[0].correct, 300);	/* not taken */
	assert_int_equal(p->entries[0].incorrect, 100);	/* taken */
	assert_int_equal((int)kattr_profile_entry_pct(&p->entries[0]), 25);
	/* No hint, so never "wrong". */
	assert_false(kattr_profile_entry_is_wrong(&p->entries[1]));
	kattr_profile_free(p);
}

static void bad_input(void **state)
{
	struct kattr_profile *p = NULL;
	static const char bin[] = "\x01\x02\0\xff\n\0\0";
	static const char mixed[] =
		"Likely Profiling Results\n"
		" unlikely |        0|        3\tok()@:a.c@1\n"
		" unlikely |        0|        3\ttrunc()@:a.c@\n"
		" unlikely |        0|        3\ttrunc()@:a.c\n"
		" unlikely |        0|     \n"
		" unlikely |99999999999999999999|        3\tbig()@:a.c@1\n"
		" unlikely |18446744073709551615|        3\tmax()@:a.c@2\n"
		" maybe    |        0|        3\tx()@:a.c@1\n"
		"garbage\n"
		" likely   |        1|        2\tneg()@:a.c@-5\n"
		" likely   |        1|        2\t()@:a.c@5\n"
		" correct incorrect  %        Function                  File              Line\n"
		" likely   |        1|        2\tsp ace()@:a.c@5\n"
		" likely   |        1|        2\tesc\033[2J()@:a.c@5\n"
		" likely   |        1|        2\tf()@:a\033]0;x\007.c@5\n";
	char *longline;
	size_t n = 1 << 20;

	(void)state;
	assert_int_equal(kattr_profile_parse("", 0, 0, &p), -ENODATA);
	assert_int_equal(kattr_profile_parse(bin, sizeof(bin), 0, &p), -ENODATA);
	assert_int_equal(kattr_profile_parse("garbage\nmore\n", 13, 0, &p),
			 -ENODATA);
	p = parse(mixed, 0);
	assert_int_equal(p->n, 2);
	assert_int_equal(p->bad_rows, 12);
	assert_string_equal(p->entries[0].function, "ok");
	assert_int_equal(p->entries[1].incorrect, UINT64_MAX);
	assert_int_equal(p->counter_bits, 64);
	kattr_profile_free(p);

	/* Truncated mid-row (a torn read): the last row is skipped. */
	p = parse("Likely Profiling Results\n likely   |        1|        2\tf()@:a.c@1\n likely   |   ",
		  0);
	assert_int_equal(p->n, 1);
	assert_int_equal(p->bad_rows, 1);
	kattr_profile_free(p);

	/* A very long line (a 1 MiB function name) parses or is skipped,
	 * never truncated into a wrong name. */
	longline = malloc(n + 64);
	assert_non_null(longline);
	strcpy(longline, " likely   |        1|        2\t");
	memset(longline + strlen(longline), 'f', n);
	strcpy(longline + 31 + n, "()@:a.c@9\n");
	p = parse(longline, KATTR_PROFILE_FMT_LIKELY_PROF);
	assert_int_equal(p->n, 1);
	assert_int_equal(strlen(p->entries[0].function), n);
	kattr_profile_free(p);
	free(longline);

	/* A NUL hides the rest of its row: that row is bad, wherever it
	 * is (between other rows, in the last few bytes). */
	{
		static const char row[] = " likely   |        1|        2\tf()@:a.c@7\n";
		static const char bad[] = " likely   |        1|        2\tf()@:a.c@7\0junk\n";
		size_t rl = sizeof(row) - 1, bl = sizeof(bad) - 1;
		char *t = malloc(200 * rl + bl + 1);
		size_t at, len;

		assert_non_null(t);
		for (at = 0; at <= 200; at += 100) {
			struct kattr_profile *q = NULL;

			len = 0;
			for (int i = 0; i < 200; i++) {
				if ((size_t)i == at) {
					memcpy(t + len, bad, bl);
					len += bl;
				}
				memcpy(t + len, row, rl);
				len += rl;
			}
			if (at == 200) {
				memcpy(t + len, bad, bl);
				len += bl;
			}
			assert_int_equal(kattr_profile_parse(t, len, 0, &q), 0);
			assert_int_equal(q->n, 200);
			assert_int_equal(q->bad_rows, 1);
			kattr_profile_free(q);
		}
		free(t);
	}

	/* Trace rows: wrong token counts, X with counts, bad percent. */
	p = parse(" correct incorrect  %        Function                  File              Line\n"
		  "       1        2  66 f a.c 3\n"
		  "       1        2  66 f a.c\n"
		  "       1        2   X f a.c 3\n"
		  "       1        2 101 f a.c 3\n"
		  "       1/x      2  66 f a.c 3\n"
		  "       1        2  66 f a.c 3 extra\n"
		  "       1        2  66 f\033[1m a.c 3\n", 0);
	assert_int_equal(p->n, 1);
	assert_int_equal(p->bad_rows, 6);
	kattr_profile_free(p);
}

static void headerless_rows(void **state)
{
	struct kattr_profile *p;

	(void)state;
	p = parse(" likely   |        7|        2\tf()@:a.c@1\n", 0);
	assert_int_equal(p->format, KATTR_PROFILE_FMT_LIKELY_PROF);
	assert_int_equal(p->entries[0].correct, 7);
	kattr_profile_free(p);
	p = parse("       4        2  33 f a.c 3\n", 0);
	assert_int_equal(p->format, KATTR_PROFILE_FMT_ANNOTATED);
	kattr_profile_free(p);
}

static void counter_wrap(void **state)
{
	(void)state;
	assert_int_equal(kattr_profile_counter_delta(5, 9, 32), 4);
	assert_int_equal(kattr_profile_counter_delta(4294967290ULL, 5, 32), 11);
	assert_int_equal(kattr_profile_counter_delta(4294967295ULL, 0, 32), 1);
	/* A 64-bit counter going down was reset: count from zero. */
	assert_int_equal(kattr_profile_counter_delta(100, 7, 64), 7);
	/* A 32-bit one too, unless the step is a plausible wrap (< 2^31):
	 * 1,829,768 -> 12 is a restart, not 4,293,137,540 new events. */
	assert_int_equal(kattr_profile_counter_delta(1829768, 12, 32), 12);
	assert_int_equal(kattr_profile_counter_delta(1u << 31, 0, 32), 0);
	assert_int_equal(kattr_profile_counter_delta((1u << 31) + 1, 0, 32),
			 (1u << 31) - 1);
}

/* Every step forward of less than 2^31 across the wrap is a wrap; every
 * step back, and every longer one, is a reset (delta = the new count). */
static void counter_wrap_or_reset(void **state)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL;

	(void)state;
	for (int i = 0; i < 200000; i++) {
		uint64_t a, d, b;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		a = x & UINT32_MAX;
		d = (x >> 32) & ((1ull << 31) - 1);
		b = (a + d) & UINT32_MAX;
		assert_int_equal(kattr_profile_counter_delta(a, b, 32), d);
		/* a step of at least 2^31 back is no wrap */
		b = (a + d + (1ull << 31)) & UINT32_MAX;
		if (b < a)
			assert_int_equal(kattr_profile_counter_delta(a, b, 32), b);
		/* 64 bits: any step back is a reset */
		if (a + d < x)
			assert_int_equal(kattr_profile_counter_delta(x, a + d, 64),
					 a + d);
	}
}

/* A counter that goes down (a program restarted, a file replaced): the
 * site is marked reset and has no rate, in every format. */
static void diff_reset(void **state)
{
	static const char *const before[] = {
		"Likely Profiling Results\n"
		" --------------------------------------------------------------------\n"
		"[+- ] Type | # True | # False | Function:Filename@Line\n"
		"-likely   |     1000|  1829768\tg()@:b.c@2\n"
		" likely   |        5|        1\tf()@:a.c@1\n",
		" correct incorrect  %        Function                  File              Line\n"
		" ------- ---------  -        --------                  ----              ----\n"
		"    1000  1829768  99 g                          b.c                  2\n"
		"       5        1  16 f                          a.c                  1\n",
		"   miss      hit    %        Function                  File              Line\n"
		" ------- ---------  -        --------                  ----              ----\n"
		"    1000  1829768  99 g                          b.c                  2\n"
		"       5        1  16 f                          a.c                  1\n",
	};
	static const char *const after[] = {
		"Likely Profiling Results\n"
		" --------------------------------------------------------------------\n"
		"[+- ] Type | # True | # False | Function:Filename@Line\n"
		"-likely   |        3|       12\tg()@:b.c@2\n"
		" likely   |        9|        2\tf()@:a.c@1\n",
		" correct incorrect  %        Function                  File              Line\n"
		" ------- ---------  -        --------                  ----              ----\n"
		"       3       12  80 g                          b.c                  2\n"
		"       9        2  18 f                          a.c                  1\n",
		"   miss      hit    %        Function                  File              Line\n"
		" ------- ---------  -        --------                  ----              ----\n"
		"       3       12  80 g                          b.c                  2\n"
		"       9        2  18 f                          a.c                  1\n",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(before) / sizeof(before[0]); i++) {
		struct kattr_profile *pa = parse(before[i], 0), *pb = parse(after[i], 0);
		const struct kattr_profile_entry *e = pb->entries;

		assert_int_equal(pa->format, pb->format);
		assert_int_equal(kattr_profile_diff(pa, pb, 1.0), 0);
		assert_int_equal(pb->n, 2);
		assert_true(e[0].reset);
		assert_false(e[0].has_rate);
		assert_true(e[0].rate == 0);
		assert_int_equal(e[0].d_incorrect, 12);	/* since the reset */
		assert_false(e[1].reset);
		assert_true(e[1].has_rate);
		assert_int_equal(e[1].d_incorrect, 1);
		/* the next interval has a rate again */
		assert_int_equal(kattr_profile_diff(pb, pa, 1.0), 0);
		assert_false(pa->entries[0].reset);
		assert_true(pa->entries[0].has_rate);
		assert_true(pa->entries[1].reset);
		kattr_profile_free(pa);
		kattr_profile_free(pb);
	}
}

static void diff_and_rates(void **state)
{
	static const char a[] =
		"Likely Profiling Results\n"
		" unlikely |        0|        3\tf()@:a.c@1\n"
		"-likely   |        0|4294967290\tg()@:b.c@2\n"
		" likely   |        5|        0\tdup()@:c.c@3\n"
		" likely   |        7|        0\tdup()@:c.c@3\n";
	static const char b[] =
		"Likely Profiling Results\n"
		" likely   |       20|        1\tnew()@:n.c@9\n"
		" unlikely |       10|        3\tf()@:a.c@1\n"
		"-likely   |        0|       10\tg()@:b.c@2\n"
		" likely   |       15|        0\tdup()@:c.c@3\n"
		" likely   |       17|        0\tdup()@:c.c@3\n";
	struct kattr_profile *pa = parse(a, 0), *pb = parse(b, 0);
	const struct kattr_profile_entry *e = pb->entries;

	(void)state;
	assert_int_equal(kattr_profile_diff(pa, pb, 2.0), 0);
	assert_true(e[0].has_rate);
	assert_int_equal(e[0].d_incorrect, 1);	/* new site counts from 0 */
	assert_int_equal(e[1].d_incorrect, 10);
	assert_int_equal(e[1].d_correct, 0);
	assert_true(e[1].rate > 4.99 && e[1].rate < 5.01);
	assert_int_equal(e[2].d_incorrect, 16);	/* wrapped */
	assert_true(e[2].rate > 7.99 && e[2].rate < 8.01);
	assert_int_equal(e[3].d_correct, 10);	/* k-th duplicate to k-th */
	assert_int_equal(e[4].d_correct, 10);
	assert_int_equal(kattr_profile_diff(pa, pb, 0), -EINVAL);
	assert_int_equal(kattr_profile_diff(NULL, pb, 1), 0);
	assert_false(pb->entries[1].has_rate);

	/* Zero: counts since the base. */
	assert_int_equal(kattr_profile_rebase(pa, pb), 0);
	assert_int_equal(e[1].incorrect, 10);
	assert_int_equal(e[1].correct, 0);
	assert_int_equal(e[2].incorrect, 16);
	assert_int_equal(e[0].correct, 20);
	assert_int_equal(kattr_profile_wrong(pb), count_wrong(pb));	/* counted again */
	kattr_profile_free(pa);
	kattr_profile_free(pb);

	/* Another format: no rates. */
	pa = parse(ANNOTATED_SAMPLE, 0);
	pb = parse(LIKELY_SAMPLE, 0);
	assert_int_equal(kattr_profile_diff(pa, pb, 1), 0);
	assert_false(pb->entries[0].has_rate);
	kattr_profile_free(pa);
	kattr_profile_free(pb);
}

/* Sites in another order (a re-sorted tracefs read): matched by hash. */
static void diff_reordered(void **state)
{
	static const char a[] =
		"Likely Profiling Results\n"
		" likely   |        5|        0\tdup()@:c.c@3\n"
		" unlikely |        0|        3\tf()@:a.c@1\n"
		" likely   |        7|        0\tdup()@:c.c@3\n"
		" likely   |        1|        1\tgone()@:g.c@1\n";
	static const char b[] =
		"Likely Profiling Results\n"
		" unlikely |        4|        3\tf()@:a.c@1\n"
		" likely   |        9|        0\tdup()@:c.c@3\n"
		" likely   |       15|        0\tdup()@:c.c@3\n"
		" unlikely |        4|        3\tf()@:a.c@2\n";
	struct kattr_profile *pa = parse(a, 0), *pb = parse(b, 0);
	size_t idx[4];

	(void)state;
	assert_int_equal(kattr_profile_match(pa, pb, idx), 0);
	assert_int_equal(idx[0], 1);
	assert_int_equal(idx[1], 0);	/* first dup to first dup */
	assert_int_equal(idx[2], 2);
	assert_int_equal(idx[3], SIZE_MAX);	/* another line: a new site */
	assert_int_equal(kattr_profile_diff(pa, pb, 1.0), 0);
	assert_int_equal(pb->entries[0].d_incorrect, 4);
	assert_int_equal(pb->entries[1].d_correct, 4);
	assert_int_equal(pb->entries[2].d_correct, 8);
	assert_int_equal(pb->entries[3].d_incorrect, 4);
	kattr_profile_free(pa);
	kattr_profile_free(pb);
}

static const char SORT_SAMPLE[] =
	"Likely Profiling Results\n"
	" likely   |       90|       10\tb_fn()@:z.c@5\n"	/* 10%  t100 */
	"-likely   |        1|       30\ta_fn()@:y.c@7\n"	/* 96%  t31  */
	" unlikely |       50|      500\tc_fn()@:x.c@9\n"	/* 9%   t550 */
	" unlikely |        0|        0\td_fn()@:x.c@1\n";	/* X    t0   */

static void expect_order(struct kattr_profile *p, enum kattr_profile_sort k,
			 bool rev, const char *want)
{
	const struct kattr_profile_entry *v[8];
	char got[16] = "";
	size_t n = kattr_profile_select(p, NULL, v);

	kattr_profile_sort(v, n, k, rev);
	for (size_t i = 0; i < n; i++)
		got[i] = v[i]->function[0];
	got[n] = '\0';
	if (strcmp(got, want))
		fail_msg("sort %s%s: got %s, want %s", kattr_profile_sort_name(k),
			 rev ? " reversed" : "", got, want);
}

static void every_sort(void **state)
{
	struct kattr_profile *p = parse(SORT_SAMPLE, 0);
	enum kattr_profile_sort k;

	(void)state;
	/* unlikely c: correct = # False = 500, incorrect = # True = 50 */
	expect_order(p, KATTR_PROFILE_SORT_INCORRECT, false, "cabd");
	expect_order(p, KATTR_PROFILE_SORT_INCORRECT, true, "dbac");
	expect_order(p, KATTR_PROFILE_SORT_CORRECT, false, "cbad");
	expect_order(p, KATTR_PROFILE_SORT_PERCENT, false, "abcd");
	expect_order(p, KATTR_PROFILE_SORT_TOTAL, false, "cbad");
	expect_order(p, KATTR_PROFILE_SORT_FUNCTION, false, "abcd");
	expect_order(p, KATTR_PROFILE_SORT_FUNCTION, true, "dcba");
	expect_order(p, KATTR_PROFILE_SORT_FILE, false, "dcab");
	/* No rates yet: all equal, so the site order decides. */
	expect_order(p, KATTR_PROFILE_SORT_RATE, false, "abcd");
	p->entries[3].has_rate = true;
	p->entries[3].rate = 3;
	p->entries[0].has_rate = true;
	p->entries[0].rate = 1;
	expect_order(p, KATTR_PROFILE_SORT_RATE, false, "dbac");
	expect_order(p, KATTR_PROFILE_SORT_RATE, true, "cabd");

	assert_int_equal(kattr_profile_sort_parse("percent", &k), 0);
	assert_int_equal(k, KATTR_PROFILE_SORT_PERCENT);
	assert_int_equal(kattr_profile_sort_parse("bogus", &k), -EINVAL);
	for (int i = 0; i < KATTR_PROFILE_SORT_COUNT_; i++) {
		assert_int_equal(kattr_profile_sort_parse(
			kattr_profile_sort_name((enum kattr_profile_sort)i), &k), 0);
		assert_int_equal(k, i);
	}
	kattr_profile_free(p);
}

/* 0 when a and b are the same site with the same counts (a duplicate
 * row may come in either order). */
static int cmp_site_of(const struct kattr_profile_entry *a,
		       const struct kattr_profile_entry *b)
{
	return a->line != b->line || a->hint != b->hint ||
	       a->correct != b->correct || a->incorrect != b->incorrect ||
	       strcmp(a->function, b->function) || strcmp(a->file, b->file);
}

/* kattr_profile_sort_top(): the first k entries equal a full sort's. */
static void sort_top_k(void **state)
{
	enum { N = 3000 };
	char *text = malloc(N * 80 + 64), *p = text;
	const struct kattr_profile_entry **full, **top;
	struct kattr_profile *prof;
	unsigned int seed = 7;
	char seen[N];

	(void)state;
	assert_non_null(text);
	p += sprintf(p, "Likely Profiling Results\n");
	for (int i = 0; i < N; i++) {
		seed = seed * 1103515245u + 12345u;
		/* few distinct counts: many ties, broken by name */
		p += sprintf(p, " %s |%9u|%9u\tf%u()@:d/%u.c@%d\n",
			     seed & 1 ? "likely  " : "unlikely", (seed >> 8) % 50,
			     (seed >> 16) % 40, (seed >> 4) % 500, i % 7, i);
	}
	prof = parse(text, 0);
	full = malloc(N * sizeof(*full));
	top = malloc(N * sizeof(*top));
	assert_non_null(full);
	assert_non_null(top);
	for (int key = 0; key < KATTR_PROFILE_SORT_COUNT_; key++) {
		for (int rev = 0; rev < 2; rev++) {
			static const size_t ks[] = { 1, 2, 9, 40, 1000, N - 1, N };

			kattr_profile_select(prof, NULL, full);
			kattr_profile_sort(full, N, (enum kattr_profile_sort)key, rev);
			for (size_t j = 0; j < sizeof(ks) / sizeof(ks[0]); j++) {
				kattr_profile_select(prof, NULL, top);
				kattr_profile_sort_top(top, N, (enum kattr_profile_sort)key,
						    rev, ks[j]);
				for (size_t i = 0; i < ks[j]; i++)
					if (top[i] != full[i])
						fail_msg("sort %s%s top %zu: row %zu differs",
							 kattr_profile_sort_name((enum kattr_profile_sort)key),
							 rev ? " reversed" : "", ks[j], i);
				/* the others are all still there */
				memset(seen, 0, N);
				for (size_t i = 0; i < N; i++)
					seen[top[i] - prof->entries]++;
				for (size_t i = 0; i < N; i++)
					if (seen[i] != 1)
						fail_msg("sort %s top %zu: entry %zu seen %d times",
							 kattr_profile_sort_name((enum kattr_profile_sort)key),
							 ks[j], i, seen[i]);
			}
			/* worst first: every entry displaces the heap's top */
			for (size_t i = 0; i < N; i++)
				top[i] = full[N - 1 - i];
			kattr_profile_sort_top(top, N, (enum kattr_profile_sort)key, rev, 40);
			for (size_t i = 0; i < 40; i++)
				if (top[i] != full[i])
					fail_msg("sort %s%s top 40 of reversed input: row %zu differs",
						 kattr_profile_sort_name((enum kattr_profile_sort)key),
						 rev ? " reversed" : "", i);
		}
	}
	free(full);
	free(top);
	free(text);
	kattr_profile_free(prof);
}

/* kattr_profile_sort()'s radix passes give the reference comparison sort's
 * order: every key, both directions, counts across all 8 bytes, long runs
 * of ties (every rate 0), duplicate sites. */
static void sort_radix_same_as_ref(void **state)
{
	enum { N = 5000 };
	char *text = malloc(N * 100 + 64), *p = text;
	const struct kattr_profile_entry **got, **want;
	struct kattr_profile *prof;
	uint64_t seed = 11;

	(void)state;
	assert_non_null(text);
	p += sprintf(p, "Likely Profiling Results\n");
	for (int i = 0; i < N; i++) {
		unsigned long long t, f;

		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		t = seed >> (seed & 63);	/* any width, 0 to 2^64 - 1 */
		f = (seed >> 20) % 3 ? (seed >> 33) % 7 : seed >> 7;
		p += sprintf(p, " %s |%9llu|%9llu\tfn%u()@:d/%u.c@%d\n",
			     seed & 1 ? "likely  " : "unlikely", t, f,
			     (unsigned int)(seed >> 40) % 300,
			     (unsigned int)(seed >> 50) % 5, i % 900);
	}
	prof = parse(text, 0);
	got = malloc(N * sizeof(*got));
	want = malloc(N * sizeof(*want));
	assert_non_null(got);
	assert_non_null(want);
	for (int key = 0; key < KATTR_PROFILE_SORT_COUNT_; key++) {
		for (int rev = 0; rev < 2; rev++) {
			size_t n = kattr_profile_select(prof, NULL, got);

			kattr_profile_select(prof, NULL, want);
			kattr_profile_sort(got, n, (enum kattr_profile_sort)key, rev);
			kattr_profile_sort_ref(want, n, (enum kattr_profile_sort)key, rev);
			for (size_t i = 0; i < n; i++)
				if (cmp_site_of(got[i], want[i]))
					fail_msg("sort %s%s: row %zu differs from the reference",
						 kattr_profile_sort_name((enum kattr_profile_sort)key),
						 rev ? " reversed" : "", i);
		}
	}
	free(got);
	free(want);
	free(text);
	kattr_profile_free(prof);
}

/* The fast row parser (word-at-a-time names and numbers) agrees with the
 * plain reference on rows built to hit its edges: number widths around
 * the 8-byte word, overflow, names with '@', '(' and control bytes, rows
 * cut short at every length. */
static void likely_row_matches_reference(void **state)
{
	static const char *const counts[] = {
		"0", "7", "12345678", "123456789", "4294967295",
		"18446744073709551615", "18446744073709551616",
		"99999999999999999999", "00000000000000000000001", "",
		"1a", "-1",
	};
	static const char *const sites[] = {
		"kfree()@:mm/slab.c@3061", "f()@:a@b.c@12", "f(x)()@:f.c@1",
		"f()@:()@:g.c@2", "f g()@:h.c@3", "f()@:h\x01.c@3", "f()@:h.c@3\x01",
		"f()@:h.c@", "f()@:@9", "()@:h.c@1", "f()@:h.c@2147483648",
		"f()@:h.c@2147483647  ", "f()@:h.c@12\r", "f\x7f()@:h.c@1",
		"f()@:h.c@12x",
	};
	char line[256], a[256], b[256];
	size_t rows = 0, accepted = 0;

	(void)state;
	for (size_t t = 0; t < sizeof(counts) / sizeof(counts[0]); t++)
	for (size_t f = 0; f < sizeof(counts) / sizeof(counts[0]); f += 3)
	for (size_t s = 0; s < sizeof(sites) / sizeof(sites[0]); s++) {
		int n = snprintf(line, sizeof(line), "%cunlikely |%9s|%9s\t%s",
				 t & 1 ? '+' : ' ', counts[t], counts[f], sites[s]);

		for (int cut = n; cut >= 0; cut -= (cut > n - 12 ? 1 : 7)) {
			struct kattr_profile_entry e = { 0 }, r = { 0 };
			int r1, r2;

			memcpy(a, line, (size_t)cut);
			a[cut] = '\0';
			memcpy(b, a, (size_t)cut + 1);
			r1 = kattr_profile_parse_likely_row(a, &e);
			r2 = ref_likely_row(b, &r);
			rows++;
			if ((r1 == 0) != (r2 == 0))
				fail_msg("row \"%.*s\": parser %d, reference %d",
					 cut, line, r1, r2);
			if (r1 == 0 && !ref_same_entry(&e, &r))
				fail_msg("row \"%.*s\": entries differ", cut, line);
			accepted += r1 == 0;
		}
	}
	/* both outcomes were exercised */
	assert_true(accepted > 100);
	assert_true(rows - accepted > 100);
}

/* Parse text2 after text1 with kattr_profile_parse_next() and alone:
 * the same entries, and matched to text1 the same way. */
static char *memdup0(const char *s, size_t n)
{
	char *d = malloc(n + 1);

	assert_non_null(d);
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

/* text2 may hold NULs: n2 bytes of it */
/* kattr_profile_parse_diff(prev, text) against kattr_profile_parse_buf()
 * and kattr_profile_diff(): every field of every entry the same. */
static void check_parse_diff(const struct kattr_profile *prev,
			     const char *text, size_t n, double seconds)
{
	struct kattr_profile *fast = NULL, *slow = NULL;

	assert_int_equal(kattr_profile_parse_diff(prev, memdup0(text, n), n,
						  seconds, &fast), 0);
	assert_int_equal(kattr_profile_parse_buf(memdup0(text, n), n, 0, &slow), 0);
	assert_int_equal(kattr_profile_diff(prev, slow, seconds), 0);
	assert_int_equal(fast->n, slow->n);
	assert_int_equal(fast->counter_bits, slow->counter_bits);
	assert_int_equal(kattr_profile_wrong(fast), count_wrong(slow));
	for (size_t i = 0; i < fast->n; i++) {
		const struct kattr_profile_entry *f = &fast->entries[i], *s = &slow->entries[i];

		if (!ref_same_entry(f, s) || f->has_rate != s->has_rate ||
		    f->reset != s->reset || f->d_correct != s->d_correct ||
		    f->d_incorrect != s->d_incorrect || f->rate != s->rate)
			fail_msg("entry %zu differs after parse_diff", i);
	}
	kattr_profile_free(fast);
	kattr_profile_free(slow);
}

/* The next live snapshot (text, after lprev: seconds later) and the
 * reference for it (*ref: parsed alone, diffed against rprev, lprev's
 * reference), checked against each other. */
static struct kattr_profile *live_step(const struct kattr_profile *lprev,
				       const struct kattr_profile *rprev,
				       const char *text, size_t n,
				       double seconds,
				       struct kattr_profile **ref)
{
	struct kattr_profile *live = NULL;
	const char *why;

	assert_int_equal(kattr_profile_parse_live(lprev, memdup0(text, n), n,
						  seconds, &live), 0);
	assert_int_equal(kattr_profile_parse_buf(memdup0(text, n), n, 0, ref), 0);
	if (rprev && seconds > 0)
		assert_int_equal(kattr_profile_diff(rprev, *ref, seconds), 0);
	why = live_check(live, *ref);
	if (why)
		fail_msg("live snapshot: %s", why);
	return live;
}

/* A live view's snapshots of text1 and text2 in turn, checked against
 * parse and diff; the entries made on demand (kattr_profile_entries())
 * as the next one's prev; rates zeroed. */
static void check_live(const char *text1, const char *text2, size_t n)
{
	struct kattr_profile *l[6], *r[6];
	const char *why;

	l[0] = live_step(NULL, NULL, text1, strlen(text1), 0, &r[0]);
	l[1] = live_step(l[0], r[0], text2, n, 1.5, &r[1]);
	l[2] = live_step(l[1], r[1], text1, strlen(text1), 0.25, &r[2]);
	l[2]->counter_bits = r[2]->counter_bits = 64;	/* a reset, no wrap */
	l[3] = live_step(l[2], r[2], text2, n, 2, &r[3]);
	assert_int_equal(kattr_profile_entries(l[3]), 0);
	l[4] = live_step(l[3], r[3], text1, strlen(text1), 1, &r[4]);
	l[5] = live_step(l[4], NULL, text2, n, 0, &r[5]);	/* no rates */
	/* rebased on an earlier snapshot (a zero base): l[4], l[5] as parsed */
	for (int b = 0; b < 4; b++)
		for (int c = 4; c < 6; c++) {
			struct kattr_profile_entry *x = calloc(r[c]->n + 1, sizeof(*x));
			struct kattr_profile_entry *y = calloc(r[c]->n + 1, sizeof(*y));

			assert_non_null(x);
			assert_non_null(y);
			assert_int_equal(kattr_profile_entries(l[b]), 0);
			assert_int_equal(kattr_profile_rebase_into(l[b], l[c], x), 0);
			assert_int_equal(kattr_profile_rebase_into(r[b], r[c], y), 0);
			for (size_t i = 0; i < r[c]->n; i++)
				if (!live_same_entry(&x[i], &y[i]))
					fail_msg("snapshot %d rebased on %d: entry %zu differs",
						 c, b, i);
			free(x);
			free(y);
		}
	for (int i = 0; i < 6; i++) {
		why = live_check_zero(l[i], r[i]);
		if (why)
			fail_msg("live snapshot %d zeroed: %s", i, why);
		why = live_check_zero(l[i], r[i]);	/* zeroed again */
		if (why)
			fail_msg("live snapshot %d zeroed twice: %s", i, why);
		kattr_profile_free(l[i]);
		kattr_profile_free(r[i]);
	}
}

static void check_next_n(const char *text1, const char *text2, size_t n)
{
	struct kattr_profile *a = parse(text1, 0), *fast = NULL, *slow = NULL;
	size_t *i1, *i2;

	assert_int_equal(kattr_profile_parse_next(a, memdup0(text2, n), n, &fast), 0);
	assert_int_equal(kattr_profile_parse_buf(memdup0(text2, n), n, 0, &slow), 0);
	assert_int_equal(fast->n, slow->n);
	assert_int_equal(fast->bad_rows, slow->bad_rows);
	assert_int_equal(fast->counter_bits, slow->counter_bits);
	assert_int_equal(kattr_profile_wrong(fast), count_wrong(fast));
	assert_int_equal(kattr_profile_wrong(slow), count_wrong(slow));
	i1 = malloc((fast->n + 1) * sizeof(*i1));
	i2 = malloc((fast->n + 1) * sizeof(*i2));
	assert_non_null(i1);
	assert_non_null(i2);
	assert_int_equal(kattr_profile_match(a, fast, i1), 0);
	assert_int_equal(kattr_profile_match(a, slow, i2), 0);
	for (size_t i = 0; i < fast->n; i++) {
		if (!ref_same_entry(&fast->entries[i], &slow->entries[i]))
			fail_msg("entry %zu differs after parse_next", i);
		if (i1[i] != i2[i])
			fail_msg("entry %zu matched to %zd, should be %zd", i,
				 (ssize_t)i1[i], (ssize_t)i2[i]);
	}
	/* and the diff is right: text2's counts minus text1's */
	assert_int_equal(kattr_profile_diff(a, fast, 1.0), 0);
	assert_int_equal(kattr_profile_diff(a, slow, 1.0), 0);
	for (size_t i = 0; i < fast->n; i++)
		assert_int_equal(fast->entries[i].d_incorrect,
				 slow->entries[i].d_incorrect);
	/* parsed and diffed in one pass: after a snapshot parsed alone, one
	 * parsed after another (its sites from the parse), back to text1
	 * (counts down: wraps and resets), and in 64 bits (a user-space
	 * profile's: a count going down is a reset) */
	check_parse_diff(a, text2, n, 1.5);
	check_parse_diff(fast, text1, strlen(text1), 0.25);
	check_parse_diff(fast, text2, n, 2);
	fast->counter_bits = 64;
	check_parse_diff(fast, text1, strlen(text1), 1);
	check_live(text1, text2, n);
	free(i1);
	free(i2);
	kattr_profile_free(a);
	kattr_profile_free(fast);
	kattr_profile_free(slow);
}

static void check_next(const char *text1, const char *text2)
{
	check_next_n(text1, text2, strlen(text2));
}

/* text1, then text1 with one row changed: pre, each of rows[0..n), post */
static void check_next_rows(const char *text1, const char *pre,
			    const char *const *rows, size_t n, const char *post)
{
	char t[1024];

	for (size_t i = 0; i < n; i++) {
		snprintf(t, sizeof(t), "%s%s%s", pre, rows[i], post);
		check_next(text1, t);
	}
}

#define HDR "Likely Profiling Results\n[+- ] Type | # True | # False | Function:Filename@Line\n"
#define R1 " unlikely |        1|        3\tkfree()@:mm/slab.c@3061\n"
#define R2 "+unlikely |     5050|        0\tdo_sys_vm86()@:arch/i386/kernel/vm86.c@314\n"
#define R3 "-likely   |        0|     1945\taudit_free()@:kernel/auditsc.c@715\n"

/* The one-pass trace row parser against the plain split-and-check one,
 * on rows built to hit the edges, with every truncation of each. */
static void trace_row_matches_reference(void **state)
{
	static const char *const nums[] = {
		"0", "7", "12345678", "123456789", "18446744073709551615",
		"18446744073709551616", "00000000000000000000001", "1a", "-1",
		"5/12", "5/", "/5", "5/1/2", "",
	};
	static const char *const pcts[] = { "0", "37", "100", "101", "X", "Xy", "007", "" };
	static const char *const names[] = {
		"f", "some_function_with_a_long_name_here", "a\001b", "ab\x7f",
		"r\xc3\xa9seau", "a\x1b[2J", "42",
	};
	static const char *const tails[] = {
		"1", "2147483647", "2147483648", "12x", "", "3 extra", "4  ", "5\r",
	};
	static const char *const seps[] = { " ", "\t", "   ", "\v" };
	char line[512], a[512], b[512];
	size_t rows = 0, accepted = 0, k = 0;

	(void)state;
	for (size_t x = 0; x < sizeof(nums) / sizeof(nums[0]); x++)
	for (size_t y = 0; y < sizeof(nums) / sizeof(nums[0]); y += 4)
	for (size_t z = 0; z < sizeof(pcts) / sizeof(pcts[0]); z++)
	for (size_t f = 0; f < sizeof(names) / sizeof(names[0]); f++)
	for (size_t t = 0; t < sizeof(tails) / sizeof(tails[0]); t++, k++) {
		const char *sp = seps[k % 4];
		int n = snprintf(line, sizeof(line), "%s%s%s%s%s%s%s%s%s%s%s",
				 k % 3 ? "   " : "", nums[x], sp, nums[y], sp, pcts[z],
				 sp, names[f], sp, names[(f + k) % 7], sp);

		n += snprintf(line + n, sizeof(line) - (size_t)n, "%s", tails[t]);
		for (int cut = n; cut >= 0; cut -= (cut > n - 6 ? 1 : 11)) {
			for (int all = 0; all <= 1; all++) {
				struct kattr_profile_entry e = { 0 }, r = { 0 };
				int r1, r2;

				memcpy(a, line, (size_t)cut);
				a[cut] = '\0';
				memcpy(b, a, (size_t)cut + 1);
				r1 = kattr_profile_parse_trace_row(a, all, &e);
				r2 = ref_trace_row(b, all, &r);
				rows++;
				if ((r1 == 0) != (r2 == 0))
					fail_msg("row \"%.*s\" (all %d): parser %d, reference %d",
						 cut, line, all, r1, r2);
				if (r1 == 0 && !ref_same_entry(&e, &r))
					fail_msg("row \"%.*s\": entries differ", cut, line);
				accepted += r1 == 0;
			}
		}
	}
	/* both sides of each edge were reached */
	assert_true(rows > 100000);
	assert_true(accepted > 1000);
	assert_true(accepted < rows / 2);
}

/* Random small profiles, many sites alike (ties of every key, one site on
 * several rows, names sharing their first 8 bytes): a live profile's
 * first k in kattr_profile_sort_top()'s order, in every format. */
static void live_top_ties(void **state)
{
	static const char *const fn[] = {
		"mntput_no_expire", "copy_mnt_ns", "follow_dotdot", "a", "ab",
		"mntput_no_expire2",
	};
	unsigned int seed = 1;
	char buf[4096];

	(void)state;
	for (int it = 0; it < 600; it++) {
		struct kattr_profile *a, *l;
		size_t o = 0;
		int rows = 1 + rand_r(&seed) % 30, fmt = it % 3;
		const char *why;

		if (fmt == 0)
			o += (size_t)snprintf(buf + o, sizeof(buf) - o, HDR);
		else
			o += (size_t)snprintf(buf + o, sizeof(buf) - o, fmt == 1 ?
					      " correct incorrect  %%  F  F  L\n" :
					      "   miss      hit    %%  F  F  L\n");
		for (int r = 0; r < rows; r++) {
			int c = rand_r(&seed) % 3, i = rand_r(&seed) % 3;
			const char *f = fn[rand_r(&seed) % 6];
			const char *file = rand_r(&seed) % 2 ? "x.c" : "y.c";
			int line = 1 + rand_r(&seed) % 3;

			if (fmt == 0)
				o += (size_t)snprintf(buf + o, sizeof(buf) - o,
						      "%clikely |%9d|%9d\t%s()@:%s@%d\n",
						      r % 2 ? ' ' : 'u', c, i, f, file, line);
			else
				o += (size_t)snprintf(buf + o, sizeof(buf) - o,
						      "%8d %8d %3d %-30s %-20s %d\n",
						      c, i, 0, f, file, line);
		}
		a = parse(buf, 0);
		assert_int_equal(kattr_profile_parse_live(NULL, memdup0(buf, o), o,
							  0, &l), 0);
		why = live_check(l, a);
		if (why)
			fail_msg("profile %d: %s:\n%s", it, why, buf);
		kattr_profile_free(a);
		kattr_profile_free(l);
	}
}

static void parse_next_same_as_parse(void **state)
{
	struct kattr_profile *a, *b;

	(void)state;
	/* counts moved, sites in place */
	check_next(HDR R1 R2 R3, HDR
		   " unlikely |        9|        3\tkfree()@:mm/slab.c@3061\n"
		   "+unlikely |     6050|        0\tdo_sys_vm86()@:arch/i386/kernel/vm86.c@314\n"
		   "-likely   |        1|     2945\taudit_free()@:kernel/auditsc.c@715\n");
	/* a new site in front (/proc/likely_prof's order) */
	check_next(HDR R1 R2 R3, HDR "  likely |        1|        1\tnew()@:n.c@1\n" R1 R2 R3);
	/* two: the rows after them are runs again (likely_run()) */
	check_next(HDR R1 R2 R3, HDR "  likely |        1|        1\tnew()@:n.c@1\n"
		   "  likely |        2|        2\tnew2()@:n.c@2\n" R1 R2 R3);
	/* a site gone */
	check_next(HDR R1 R2 R3, HDR R1 R3);
	/* the last row lacking its newline */
	check_next(HDR R1 R2 R3, HDR R1 R2
		   "-likely   |        0|     1946\taudit_free()@:kernel/auditsc.c@715");
	{
		static const char *const r2[] = {
			/* renamed, moved to another line or hint */
			"+unlikely |     5050|        0\tdo_sys_vm87()@:arch/i386/kernel/vm86.c@314\n",
			"+unlikely |     5050|        0\tdo_sys_vm86()@:arch/i386/kernel/vm86.c@315\n",
			"-likely   |     5050|        0\tdo_sys_vm86()@:arch/i386/kernel/vm86.c@314\n",
			/* the same name followed by more '@': the file runs to the last one */
			"+unlikely |     5050|        0\tdo_sys_vm86()@:arch/i386/kernel/vm86.c@314@315\n",
			/* turned bad; a control byte after the same name */
			"+unlikely |     5050|   \n",
			"+unlikely |     5050|        0\tdo_sys_vm86()@:arch/i386/kernel/vm86.c@3\00114\n",
			/* a CR and blanks at the end, a count grown past its
			 * padding or beyond 64 bits, tabs for blanks */
			"+unlikely |     5050|        0\tdo_sys_vm86()@:arch/i386/kernel/vm86.c@314 \r\n",
			"+unlikely |12345678901|        0\tdo_sys_vm86()@:arch/i386/kernel/vm86.c@314\n",
			"+unlikely |99999999999999999999|        0\tdo_sys_vm86()@:arch/i386/kernel/vm86.c@314\n",
			"+unlikely\t|\t5050|\t0\tdo_sys_vm86()@:arch/i386/kernel/vm86.c@314\n",
			/* the "%9u" fields read in place (padded9()): full,
			 * zeros, blanks only, a tab or a sign in the padding,
			 * a blank among or after the digits, a blank for the
			 * tab, a blank before the bar */
			"+unlikely |123456789|987654321\tdo_sys_vm86()@:arch/i386/kernel/vm86.c@314\n",
			"+unlikely |000005050|000000000\tdo_sys_vm86()@:arch/i386/kernel/vm86.c@314\n",
			"+unlikely |         |        0\tdo_sys_vm86()@:arch/i386/kernel/vm86.c@314\n",
			"+unlikely |    \t5050|        0\tdo_sys_vm86()@:arch/i386/kernel/vm86.c@314\n",
			"+unlikely |    +5050|        0\tdo_sys_vm86()@:arch/i386/kernel/vm86.c@314\n",
			"+unlikely |    50 50|        0\tdo_sys_vm86()@:arch/i386/kernel/vm86.c@314\n",
			"+unlikely |1    5050|        0\tdo_sys_vm86()@:arch/i386/kernel/vm86.c@314\n",
			"+unlikely |    5050 |        0\tdo_sys_vm86()@:arch/i386/kernel/vm86.c@314\n",
			"+unlikely |     5050|        0 do_sys_vm86()@:arch/i386/kernel/vm86.c@314\n",
			"+unlikely  |    5050|        0\tdo_sys_vm86()@:arch/i386/kernel/vm86.c@314\n",
			"+unlikely |4294967295|4294967295\tdo_sys_vm86()@:arch/i386/kernel/vm86.c@314\n",
			"+unlikely |     5049|        0\tdo_sys_vm86()@:arch/i386/kernel/vm86.c@314\n",
		};

		check_next_rows(HDR R1 R2 R3, HDR R1, r2, sizeof(r2) / sizeof(r2[0]), R3);
	}
	/* a NUL in a row */
	{
		static const char nul[] = HDR R1
			"+unlikely |     5050|        0\tdo_sys_vm86()@:arch/i386/kernel/vm86.c@314\0\n" R3;

		check_next_n(HDR R1 R2 R3, nul, sizeof(nul) - 1);
	}
	/* tracefs rows: counts moved (wider: the columns shift), a
	 * constant count, X, a name, a line or the token count changed,
	 * a '/' in branch_all, a count beyond 64 bits, blanks around */
#define AH " correct incorrect  %        Function                  File              Line\n"
#define A1 "       0    17127 100 ip_neigh_for_gw                route.h              393\n"
#define A2 "       5/12       3  37 some_function                  file.c               42\n"
#define A3 "       0        0   X never_hit                      never.c              7\n"
	check_next(AH A1 A2 A3, AH
		   "       1    17128  99 ip_neigh_for_gw                route.h              393\n"
		   "  123456789012/13       4  37 some_function                  file.c               42\n"
		   "       0        0   X never_hit                      never.c              7");
	{
		static const char *const a3[] = {
			"       1        0   X never_hit                      never.c              7\n",
			"       0        0   Y never_hit                      never.c              7\n",
		};
		static const char *const a2[] = {
			"       5/12       3  37 some_functioN                  file.c               42\n",
			"       5/12       3  37 some_function                  file.h               42\n",
			"       5/12       3  37 some_function                  file.c               43\n",
			"       5/12       3  37 some_function                  file.c               42 x\n",
			"       5/12       3 101 some_function                  file.c               42\n",
			"       5/1/2      3  37 some_function                  file.c               42\n",
			"\t5/12\t3\t37\tsome_function\tfile.c\t42\r\n",
		};

		check_next_rows(AH A1 A2 A3, AH A1 A2, a3, sizeof(a3) / sizeof(a3[0]), "");
		check_next_rows(AH A1 A2 A3, AH A1, a2, sizeof(a2) / sizeof(a2[0]), A3);
	}
	check_next(ALL_SAMPLE, "   miss      hit    %        Function                  File              Line\n"
		   "     301      100  25 do_thing                       thing.c              10\n"
		   "       0       51 100 always                         thing.c              20\n"
		   "     301      100  25 do_thing                       thing.c              10\n");
	check_next(ALL_SAMPLE, "   miss      hit    %        Function                  File              Line\n"
		   " ------- ---------  -        --------                  ----              ----\n"
		   "     301/1      100  25 do_thing                       thing.c              10\n"
		   "99999999999999999999 50 100 always thing.c 20\n");
	check_next(ALL_SAMPLE, "     301      100  25 do_thing thing.c 10\n"
		   "       1       51 100 always thing.c 20\n");
	/* ... and a snapshot whose every row is the same site again
	 * matches the previous one row for row */
	{
		struct kattr_profile *x = parse(AH A1 A2 A3, 0), *y = NULL;
		static const char t[] = AH A1 A2 A3;
		size_t idx[3];

		assert_int_equal(kattr_profile_parse_next(x, strdup(t), strlen(t), &y), 0);
		assert_int_equal(kattr_profile_match(x, y, idx), 0);
		assert_int_equal(idx[0], 0);
		assert_int_equal(idx[2], 2);
		assert_non_null(y->priv);
		kattr_profile_free(x);
		kattr_profile_free(y);
	}
#undef AH
#undef A1
#undef A2
#undef A3
	/* another format, garbage, no previous snapshot */
	check_next(HDR R1 R2 R3, ALL_SAMPLE);
	check_next(ALL_SAMPLE, HDR R1 R2 R3);
	a = NULL;
	assert_int_equal(kattr_profile_parse_next(NULL, strdup(HDR R1), strlen(HDR R1), &a), 0);
	assert_int_equal(a->n, 1);
	b = NULL;
	assert_int_equal(kattr_profile_parse_next(a, strdup("garbage\n"), 8, &b), -ENODATA);
	assert_null(b);
	kattr_profile_free(a);
}

static void filters(void **state)
{
	struct kattr_profile *p = parse(SORT_SAMPLE, 0);
	const struct kattr_profile_entry *v[8];
	struct kattr_profile_filter f = { 0 };

	(void)state;
	f.substr = "y.c";
	assert_int_equal(kattr_profile_select(p, &f, v), 1);
	assert_string_equal(v[0]->function, "a_fn");
	f.substr = "_fn";
	assert_int_equal(kattr_profile_select(p, &f, v), 4);
	f.substr = "c_f";
	assert_int_equal(kattr_profile_select(p, &f, v), 1);
	f.substr = NULL;
	f.wrong_only = true;
	assert_int_equal(kattr_profile_select(p, &f, v), 1);
	assert_string_equal(v[0]->function, "a_fn");
	f.wrong_only = false;
	f.min_total = 100;
	assert_int_equal(kattr_profile_select(p, &f, v), 2);
	kattr_profile_free(p);
}

/* kattr_profile_rebase_into() leaves cur as it is and gives what
 * kattr_profile_rebase() makes of cur; kattr_profile_select_entries() selects
 * from an entry array as kattr_profile_select() does from the profile. */
static void rebase_into_and_select_entries(void **state)
{
	static const char a[] =
		"Likely Profiling Results\n"
		" unlikely |        0|        3\tf()@:a.c@1\n"
		"-likely   |        0|        0\tg()@:b.c@2\n";
	static const char b[] =
		"Likely Profiling Results\n"
		" likely   |       20|        1\tnew()@:n.c@9\n"
		" unlikely |        4|       10\tf()@:a.c@1\n"
		"-likely   |        0|       10\tg()@:b.c@2\n";
	struct kattr_profile *pa = parse(a, 0), *pb = parse(b, 0);
	struct kattr_profile *pc = parse(b, 0);
	const struct kattr_profile_entry *v1[3], *v2[3];
	struct kattr_profile_entry out[3];
	struct kattr_profile_filter f = { .wrong_only = true };

	(void)state;
	assert_int_equal(kattr_profile_rebase_into(pa, pb, out), 0);
	assert_int_equal(kattr_profile_rebase(pa, pc), 0);
	assert_int_equal(pb->entries[1].correct, 10);	/* cur untouched */
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(out[i].correct, pc->entries[i].correct);
		assert_int_equal(out[i].incorrect, pc->entries[i].incorrect);
		assert_string_equal(out[i].function, pb->entries[i].function);
	}
	assert_int_equal(out[1].correct, 7);	/* # False 10 - 3 */
	assert_int_equal(out[1].incorrect, 4);
	assert_int_equal(kattr_profile_select_entries(pc->entries, pc->n, &f, v1),
			 kattr_profile_select(pc, &f, v2));
	assert_int_equal(kattr_profile_select_entries(out, 3, &f, v1), 1);
	assert_ptr_equal(v1[0], &out[2]);
	assert_int_equal(kattr_profile_select_entries(out, 3, NULL, v1), 3);
	kattr_profile_free(pa);
	kattr_profile_free(pb);
	kattr_profile_free(pc);
}

/* kattr_profile_match() (so diff and rebase) on snapshots parsed one after
 * the other against the same texts parsed alone: a chain of aligned
 * snapshots lines up end to end (a zero base two snapshots back), a
 * sibling (a second snapshot parsed after the same one) does not. */
static void chain_of_snapshots(void **state)
{
#define CF " unlikely |        4|       10\tf()@:a.c@1\n"
#define CG "-likely   |        0|       10\tg()@:b.c@2\n"
	static const char *const texts[] = {
		"Likely Profiling Results\n" CF CG,
		"Likely Profiling Results\n likely   |        2|        1\tx()@:n.c@9\n" CF CG,
		"Likely Profiling Results\n likely   |        3|        1\ty()@:n.c@8\n"
		" likely   |        2|        1\tx()@:n.c@9\n" CF CG,
		"Likely Profiling Results\n likely   |        5|        1\tz()@:n.c@7\n" CF CG,
	};
	/* b after a, c after b, s after a (b's sibling) */
	static const int after[] = { -1, 0, 1, 0 };
	struct kattr_profile *p[4], *alone[4];
	struct kattr_profile_entry out1[4], out2[4];
	size_t i1[4], i2[4];

	(void)state;
	for (int i = 0; i < 4; i++) {
		alone[i] = parse(texts[i], 0);
		p[i] = NULL;
		assert_int_equal(kattr_profile_parse_next(after[i] < 0 ? NULL : p[after[i]],
							  strdup(texts[i]), strlen(texts[i]),
							  &p[i]), 0);
	}
	for (int a = 0; a < 4; a++) {
		for (int b = 0; b < 4; b++) {
			assert_int_equal(kattr_profile_match(p[a], p[b], i1), 0);
			assert_int_equal(kattr_profile_match(alone[a], alone[b], i2), 0);
			for (size_t i = 0; i < p[b]->n; i++)
				if (i1[i] != i2[i])
					fail_msg("snapshot %d against %d: row %zu matched to %zd, should be %zd",
						 b, a, i, (ssize_t)i1[i], (ssize_t)i2[i]);
			assert_int_equal(kattr_profile_rebase_into(p[a], p[b], out1), 0);
			assert_int_equal(kattr_profile_rebase_into(alone[a], alone[b], out2), 0);
			for (size_t i = 0; i < p[b]->n; i++)
				assert_true(ref_same_entry(&out1[i], &out2[i]));
		}
	}
	for (int i = 0; i < 4; i++) {
		kattr_profile_free(p[i]);
		kattr_profile_free(alone[i]);
	}
#undef CF
#undef CG
}

/* Text of n random rows in format fmt (any count width, ties of small
 * counts, duplicate sites) for the table checks. */
static char *random_profile(int n, enum kattr_profile_format fmt, uint64_t seed)
{
	char *text = malloc((size_t)n * 120 + 128), *p = text;

	assert_non_null(text);
	if (fmt == KATTR_PROFILE_FMT_LIKELY_PROF)
		p += sprintf(p, "Likely Profiling Results\n");
	else
		p += sprintf(p, "%s\n", fmt == KATTR_PROFILE_FMT_ALL ?
			     " miss hit %% Function File Line" :
			     " correct incorrect %% Function File Line");
	for (int i = 0; i < n; i++) {
		unsigned long long t, f, c;
		unsigned int fn, file;

		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		t = seed >> (seed & 63);	/* any width, 0 to 2^64 - 1 */
		f = (seed >> 20) % 3 ? (seed >> 33) % 7 : seed >> 7;
		c = (seed >> 13) % 5;
		fn = (unsigned int)(seed >> 40) % 300;
		file = (unsigned int)(seed >> 50) % 5;
		if (fmt == KATTR_PROFILE_FMT_LIKELY_PROF)
			p += sprintf(p, " %s |%9llu|%9llu\tfn%u()@:d/%u.c@%d\n",
				     seed & 1 ? "likely  " : "unlikely", t, f,
				     fn, file, i % 900);
		else if (fmt == KATTR_PROFILE_FMT_ALL)
			p += sprintf(p, "%8llu %8llu %3d fn%u d/%u.c %d\n", t, f,
				     (int)(seed % 101), fn, file, i % 900);
		else
			p += sprintf(p, "%8llu/%llu %8llu %3d fn%u d/%u.c %d\n", t,
				     c, f, (int)(seed % 101), fn, file, i % 900);
		if (i % 97 == 5)	/* a malformed row now and then */
			p += sprintf(p, "garbage %d\n", i);
	}
	return text;
}

static void expect_table(const char *text, size_t len)
{
	const char *why = table_check(text, len);

	if (why)
		fail_msg("table: %s, for:\n%.300s", why, text);
}

/* kattr_profile_table_*(): the same sites as kattr_profile_parse_buf(), in
 * the reference sort's order for every key, direction and filter. */
static void table_same_as_profile(void **state)
{
	static const char nul[] = "Likely Profiling Results\n"
		" likely   |        1|        2\tf()@:a.c@1\n"
		" likely   |  \0     1|        2\tg()@:a.c@2\n"
		" likely   |        1|        2\th()@:a.c@3\n";
	static const char *const texts[] = {
		LIKELY_SAMPLE, ANNOTATED_SAMPLE, ALL_SAMPLE, SORT_SAMPLE,
		"Likely Profiling Results\n", "", "garbage\n\n\x01\n",
		HDR R1 R2 R3 R1 R1, "not a row\n" R2 "  \n" R3,
	};
	static const enum kattr_profile_format fmts[] = {
		KATTR_PROFILE_FMT_LIKELY_PROF, KATTR_PROFILE_FMT_ANNOTATED,
		KATTR_PROFILE_FMT_ALL,
	};
	struct kattr_profile_table *t;
	char *buf;

	(void)state;
	for (size_t i = 0; i < sizeof(texts) / sizeof(*texts); i++)
		expect_table(texts[i], strlen(texts[i]));
	expect_table(nul, sizeof(nul) - 1);
	for (size_t i = 0; i < sizeof(fmts) / sizeof(*fmts); i++) {
		char *text = random_profile(3000, fmts[i], 7 + i);

		expect_table(text, strlen(text));
		free(text);
	}
	/* the text kept is its names: a table needs no more */
	buf = strdup(LIKELY_SAMPLE);
	assert_non_null(buf);
	assert_int_equal(kattr_profile_table_parse_buf(buf, strlen(buf), 0, &t), 0);
	assert_int_equal(t->n, 3);
	kattr_profile_table_free(t);
	buf = strdup("");
	assert_non_null(buf);
	assert_int_equal(kattr_profile_table_parse_buf(buf, 0, 0, &t), -ENODATA);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(likely_prof_reference_rows),
		cmocka_unit_test(likely_prof_edge_rows),
		cmocka_unit_test(annotated_reference_rows),
		cmocka_unit_test(all_branches_rows),
		cmocka_unit_test(bad_input),
		cmocka_unit_test(headerless_rows),
		cmocka_unit_test(counter_wrap),
		cmocka_unit_test(counter_wrap_or_reset),
		cmocka_unit_test(diff_reset),
		cmocka_unit_test(diff_and_rates),
		cmocka_unit_test(diff_reordered),
		cmocka_unit_test(every_sort),
		cmocka_unit_test(sort_top_k),
		cmocka_unit_test(sort_radix_same_as_ref),
		cmocka_unit_test(likely_row_matches_reference),
		cmocka_unit_test(trace_row_matches_reference),
		cmocka_unit_test(parse_next_same_as_parse),
		cmocka_unit_test(live_top_ties),
		cmocka_unit_test(filters),
		cmocka_unit_test(rebase_into_and_select_entries),
		cmocka_unit_test(table_same_as_profile),
		cmocka_unit_test(chain_of_snapshots),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
