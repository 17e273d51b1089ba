// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * likelytop --callers without a kernel: the hint's condition as a set and
 * as an ftrace filter (callers_cond.c), event format files and
 * ring-buffer pages (callers_rb.c), kallsyms names (callers_ksym.c) and
 * FILE:LINE resolved from a source tree, with a kprobe's argument
 * (callers_site.c), and hist files (callers_hist.c's parser).
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "callers_cond.h"
#include "callers_hist.h"
#include "callers_ksym.h"
#include "callers_rb.h"
#include "callers_site.h"

#define ERR_LO "0xfffffffffffff001"

static void filter_as(const char *cond, unsigned int flags, const char *want)
{
	struct lt_cond c;
	char why[128], f[256];

	if (lt_cond_parse(cond, strlen(cond), flags, &c, why, sizeof(why)) < 0)
		fail_msg("'%s' refused: %s", cond, why);
	assert_int_equal(lt_cond_filter(&c, "ptr", f, sizeof(f)), 0);
	if (strcmp(f, want))
		fail_msg("'%s': filter '%s', expected '%s'", cond, f, want);
}

static void filter_is(const char *cond, const char *want)
{
	filter_as(cond, 0, want);
}

static void test_conditions(void **state)
{
	(void)state;
	filter_is("!p", "ptr == 0");
	filter_is("p == NULL", "ptr == 0");
	filter_is("NULL == p", "ptr == 0");
	filter_is("p != NULL", "ptr >= 1");
	filter_is("p", "ptr >= 1");
	filter_is("!!p", "ptr >= 1");
	filter_is("ZERO_OR_NULL_PTR(object)", "ptr <= 16");
	filter_is("!ZERO_OR_NULL_PTR(object)", "ptr >= 17");
	filter_is("unlikely(ZERO_OR_NULL_PTR(object))", "ptr <= 16");
	filter_is("IS_ERR(p)", "ptr >= " ERR_LO);
	filter_is("!IS_ERR(p)", "ptr <= 0xfffffffffffff000");
	filter_is("IS_ERR_OR_NULL(p)", "ptr == 0 || ptr >= " ERR_LO);
	filter_is("!IS_ERR_OR_NULL(p)", "(ptr >= 1 && ptr <= 0xfffffffffffff000)");
	filter_is("x == 3", "ptr == 3");
	filter_is("x != 3", "ptr <= 2 || ptr >= 4");
	filter_is("x < 0x10UL", "ptr <= 15");
	filter_is("x <= 16", "ptr <= 16");
	filter_is("!(x < 16)", "ptr >= 16");
	filter_is("x > 5", "ptr >= 6");
	filter_is("5 > x", "ptr <= 4");
	filter_is("x >= 100000", "ptr >= 0x186a0");
	filter_is("x == -1", "ptr == 0xffffffffffffffff");
	filter_is("(void *)p == (void *)0", "ptr == 0");
	filter_is("( p )", "ptr >= 1");
	filter_is("x < 0", "ptr == 0 && ptr == 1");
	filter_is("!(x < 0)", "");
}

/*
 * A signed argument (an int, a long: the event field says signed:1):
 * x < 0 holds for negative values, and the filter writes them as the
 * kernel reads a signed field's constant (-100; 0xffffffffffffff9c is
 * refused there).
 */
static void test_signed(void **state)
{
	static const int64_t probe[] = { INT64_MIN, -4096, -101, -100, -99, -1, 0, 1,
					 4, 5, 6, 100, INT64_MAX };
	struct lt_cond c;

	(void)state;
	filter_as("x < 0", LT_COND_SIGNED, "ptr <= -1");
	filter_as("!(x < 0)", LT_COND_SIGNED, "ptr >= 0");
	filter_as("x >= 0", LT_COND_SIGNED, "ptr >= 0");
	filter_as("dfd == -100", LT_COND_SIGNED, "ptr == -100");
	filter_as("dfd != -100", LT_COND_SIGNED, "ptr <= -101 || ptr >= -99");
	filter_as("x == 0xffffffffffffff9c", LT_COND_SIGNED, "ptr == -100");
	filter_as("x > -5", LT_COND_SIGNED, "ptr >= -4");
	filter_as("-5 < x", LT_COND_SIGNED, "ptr >= -4");
	filter_as("!x", LT_COND_SIGNED, "ptr == 0");
	filter_as("x", LT_COND_SIGNED, "ptr <= -1 || ptr >= 1");
	filter_as("x < 100000", LT_COND_SIGNED, "ptr <= 0x1869f");
	filter_as("IS_ERR_VALUE(x)", LT_COND_SIGNED, "(ptr >= -4095 && ptr <= -1)");
	filter_as("IS_ERR_OR_NULL(x)", LT_COND_SIGNED, "(ptr >= -4095 && ptr <= 0)");
	filter_as("!IS_ERR_OR_NULL(x)", LT_COND_SIGNED, "ptr <= -4096 || ptr >= 1");
	/* a site read again as signed: its hint, negated for likely() */
	{
		struct lt_site st;
		char f[256];

		assert_int_equal(lt_site_resolve(&st, "somefn", NULL, "likely(arg1 >= 0)"), 0);
		assert_true(st.split);
		assert_int_equal(lt_cond_filter(&st.cond, st.field, f, sizeof(f)), 0);
		assert_string_equal(f, "arg == 0 && arg == 1");	/* unsigned: never wrong */
		lt_site_signed(&st);
		assert_true(st.split && st.cond.sign && st.likely);
		assert_string_equal(st.hint, "likely(arg1 >= 0)");
		assert_int_equal(lt_cond_filter(&st.cond, st.field, f, sizeof(f)), 0);
		assert_string_equal(f, "arg <= -1");
		lt_site_signed(&st);	/* once is enough */
		assert_int_equal(lt_cond_filter(&st.cond, st.field, f, sizeof(f)), 0);
		assert_string_equal(f, "arg <= -1");
	}
	/* unsigned, as before: no value is below 0 */
	filter_as("x < 0", 0, "ptr == 0 && ptr == 1");
	/* the evaluation agrees with the order of signed numbers */
	for (size_t i = 0; i < sizeof(probe) / sizeof(probe[0]); i++) {
		assert_int_equal(lt_cond_parse("x < 0", 5, LT_COND_SIGNED, &c, NULL, 0), 0);
		assert_true(c.sign);
		assert_int_equal(lt_cond_true(&c, (uint64_t)probe[i]), probe[i] < 0);
		assert_int_equal(lt_cond_parse("x > -100", 8, LT_COND_SIGNED, &c, NULL, 0), 0);
		assert_int_equal(lt_cond_true(&c, (uint64_t)probe[i]), probe[i] > -100);
		lt_cond_negate(&c);
		assert_int_equal(lt_cond_true(&c, (uint64_t)probe[i]), probe[i] <= -100);
		assert_int_equal(lt_cond_parse("x <= 5", 6, LT_COND_SIGNED, &c, NULL, 0), 0);
		assert_int_equal(lt_cond_true(&c, (uint64_t)probe[i]), probe[i] <= 5);
	}
}

static void refused(const char *cond, const char *why_part)
{
	struct lt_cond c;
	char why[256];

	if (lt_cond_parse(cond, strlen(cond), 0, &c, why, sizeof(why)) == 0)
		fail_msg("'%s' accepted", cond);
	if (!strstr(why, why_part))
		fail_msg("'%s': reason '%s' lacks '%s'", cond, why, why_part);
}

static void test_refusals(void **state)
{
	(void)state;
	refused("!folio_test_slab(folio)", "'folio_test_slab(...)' is a call");
	refused("p->x == 0", "'p->...' reads into an argument");
	refused("s.len < 4", "'s....' reads into an argument");
	refused("a == b", "not between an argument and a constant");
	refused("1", "a constant");
	refused("", "ends too early");
	refused("x == 1 && y", "after the test");
	refused("(x", "')' expected");
	refused("x == 99999999999999999999999", "'9");
	refused("IS_ERR(1)", "IS_ERR() of something");
}

static void test_eval_matches_filter(void **state)
{
	static const uint64_t probe[] = { 0, 1, 15, 16, 17, 100, ~0ULL - 4095,
					  ~0ULL - 4094, ~0ULL };
	struct lt_cond c;

	(void)state;
	assert_int_equal(lt_cond_parse("IS_ERR_OR_NULL(p)", 17, 0, &c, NULL, 0), 0);
	for (size_t i = 0; i < sizeof(probe) / sizeof(probe[0]); i++) {
		bool in = probe[i] == 0 || probe[i] >= ~0ULL - 4094;

		assert_int_equal(lt_cond_true(&c, probe[i]), in);
		lt_cond_negate(&c);
		assert_int_equal(lt_cond_true(&c, probe[i]), !in);
		lt_cond_negate(&c);
	}
}

/* events/kmem/kfree/format of Linux 6.18. */
static const char kfree_format[] =
	"name: kfree\nID: 657\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:unsigned long call_site;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:const void * ptr;\toffset:16;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"call_site=%pS ptr=%p\", (void *)REC->call_site, REC->ptr\n";

static void test_format(void **state)
{
	struct lt_rb_field cs, ptr, pid;
	unsigned int id;

	(void)state;
	assert_int_equal(lt_rb_format_parse(kfree_format, strlen(kfree_format),
					    "call_site", &cs, "ptr", &ptr, &id), 0);
	assert_int_equal(id, 657);
	assert_int_equal(cs.offset, 8);
	assert_int_equal(cs.size, 8);
	assert_int_equal(ptr.offset, 16);
	assert_false(ptr.is_signed);
	assert_int_equal(lt_rb_format_parse(kfree_format, strlen(kfree_format),
					    "common_pid", &pid, NULL, NULL, &id), 0);
	assert_true(pid.is_signed);
	assert_int_equal(lt_rb_format_parse(kfree_format, strlen(kfree_format),
					    "name", &pid, NULL, NULL, &id), -EINVAL);
	assert_int_equal(lt_rb_format_parse("ID: x\n", 6, NULL, NULL, NULL, NULL, &id),
			 -EINVAL);
}

struct seen {
	int n;
	uint64_t site[8], ptr[8];
	struct lt_rb_field cs, ptr_f;
};

static void on_record(const unsigned char *rec, size_t len, void *arg)
{
	struct seen *s = arg;

	if (s->n < 8) {
		s->site[s->n] = lt_rb_field_get(&s->cs, rec, len);
		s->ptr[s->n] = lt_rb_field_get(&s->ptr_f, rec, len);
	}
	s->n++;
}

static size_t put_event(unsigned char *p, bool long_form, uint64_t site, uint64_t ptr)
{
	unsigned char rec[24] = { 0x91, 0x02 };	/* common_type 657 */
	uint32_t hdr;

	memcpy(rec + 8, &site, 8);
	memcpy(rec + 16, &ptr, 8);
	if (long_form) {	/* type_len 0, the length word (itself + data) */
		uint32_t w = 4 + 24;

		hdr = 0 | (7u << 5);
		memcpy(p, &hdr, 4);
		memcpy(p + 4, &w, 4);
		memcpy(p + 8, rec, 24);
		return 32;
	}
	hdr = 6 | (3u << 5);	/* 6 words of data */
	memcpy(p, &hdr, 4);
	memcpy(p + 4, rec, 24);
	return 28;
}

static void test_page(void **state)
{
	unsigned char page[4096];
	struct seen s = { 0 };
	size_t off = 16;
	uint64_t commit;
	uint32_t ext = 30;	/* a time extension: 8 bytes */
	bool missed;

	(void)state;
	memset(page, 0xee, sizeof(page));
	off += put_event(page + off, false, 0xffffffff815fb3fcULL, 0);
	memcpy(page + off, &ext, 4);
	off += 8;
	off += put_event(page + off, true, 0xffffffff81000010ULL, 0xffff888000001000ULL);
	commit = (off - 16) | (1ULL << 31);
	memcpy(page + 8, &commit, 8);
	assert_int_equal(lt_rb_format_parse(kfree_format, strlen(kfree_format),
					    "call_site", &s.cs, "ptr", &s.ptr_f, &(unsigned int){0}), 0);
	assert_int_equal(lt_rb_page_foreach(page, sizeof(page), on_record, &s, &missed), 2);
	assert_true(missed);
	assert_int_equal(s.site[0], 0xffffffff815fb3fcULL);
	assert_int_equal(s.ptr[0], 0);
	assert_int_equal(s.site[1], 0xffffffff81000010ULL);
	assert_int_equal(s.ptr[1], 0xffff888000001000ULL);
	/* a commit longer than the page read, a header alone: bounded */
	commit = 1 << 20;
	memcpy(page + 8, &commit, 8);
	assert_true(lt_rb_page_foreach(page, 44, on_record, &s, NULL) >= 0);
	assert_int_equal(lt_rb_page_foreach(page, 8, on_record, &s, NULL), -EINVAL);
}

static void test_ksyms(void **state)
{
	const char text[] =
		"ffffffff81000000 T _stext\n"
		"ffffffff815fb3e0 T vm_area_free\n"
		"ffffffff815fb400 d some_data\n"
		"ffffffffc0001000 t snd_foo\t[snd]\n";
	struct lt_ksyms k;
	const char *mod;
	char buf[128], *t = strdup(text);

	(void)state;
	assert_int_equal(lt_ksyms_load(&k, t, strlen(text)), 0);
	assert_int_equal(k.n, 3);
	lt_ksyms_name(&k, 0xffffffff815fb3fcULL, buf, sizeof(buf), &mod);
	assert_string_equal(buf, "vm_area_free+0x1c");
	assert_null(mod);
	lt_ksyms_name(&k, 0xffffffffc0001010ULL, buf, sizeof(buf), &mod);
	assert_string_equal(buf, "snd_foo+0x10 [snd]");
	assert_string_equal(mod, "snd");
	lt_ksyms_name(&k, 0x1000, buf, sizeof(buf), &mod);
	assert_string_equal(buf, "0x1000");
	lt_ksyms_free(&k);
	t = strdup("0000000000000000 T _stext\n0000000000000000 T kfree\n");
	assert_int_equal(lt_ksyms_load(&k, t, strlen(t)), -EPERM);
	lt_ksyms_free(&k);
}

static void test_site_from_source(void **state)
{
	char dir[] = "/tmp/lt_callers_XXXXXX", path[64];
	struct lt_site s;
	FILE *fp;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/slab.c", dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("void kfree(const void *object)\n{\n\tstruct slab *slab;\n\n"
	      "\ttrace_kfree(_RET_IP_, object);\n\tif (unlikely(!object))\n"
	      "\t\treturn;\n\tif (likely(folio_test_slab(f)))\n\t\treturn;\n}\n", fp);
	fclose(fp);
	assert_int_equal(lt_site_resolve(&s, "slab.c:6", dir, NULL), 0);
	assert_string_equal(s.function, "kfree");
	assert_string_equal(s.hint, "unlikely(!object)");
	assert_true(s.split);
	assert_false(s.likely);
	assert_true(lt_cond_true(&s.cond, 0));
	assert_int_equal(lt_site_resolve(&s, "kfree", NULL, "likely(p != NULL)"), 0);
	assert_true(s.likely);
	assert_true(lt_cond_true(&s.cond, 0));	/* wrong: the NULL calls */
	assert_false(lt_cond_true(&s.cond, 1));
	assert_int_equal(lt_site_resolve(&s, "slab.c:8", dir, NULL), 0);
	assert_true(s.likely);
	assert_false(s.split);
	assert_non_null(strstr(s.why, "is a call"));
	assert_int_equal(lt_site_resolve(&s, "slab.c:3", dir, NULL), -ENOENT);
	/* no tracepoint known: a kprobe's site, the argument by its place */
	assert_int_equal(lt_site_resolve(&s, "no_such_function", dir, NULL), 0);
	assert_null(s.sys);
	assert_false(s.split);
	assert_int_equal(lt_site_resolve(&s, "f", NULL, "unlikely(arg3 == 2)"), 0);
	assert_null(s.sys);
	assert_true(s.split);
	assert_int_equal(s.argpos, 3);
	assert_string_equal(s.field, "arg");
	assert_int_equal(lt_site_resolve(&s, "f", NULL, "unlikely(!name)"), 0);
	assert_false(s.split);
	assert_non_null(strstr(s.why, "-S SRCDIR"));
	assert_int_equal(lt_site_resolve(&s, "kfree", NULL, NULL), 0);
	assert_string_equal(s.field, "ptr");
	assert_int_equal(lt_site_resolve(&s, "kfree", NULL, "unlikely(!objp)"), 0);
	assert_string_equal(s.hint_from, "--condition");
	unlink(path);
	/* the tested variable's place and type from the definition */
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("static struct dentry *__d_alloc(struct super_block *sb,\n"
	      "\t\t\t\tconst struct qstr *name)\n{\n\tif (unlikely(!name))\n\t\tx();\n"
	      "}\nint g(void (*fn)(int, int), unsigned int flags, int n, bool b)\n{\n"
	      "\tif (unlikely(flags == 2)) x();\n\tif (unlikely(n < 0)) x();\n"
	      "\tif (likely(b)) x();\n\tif (unlikely(!local)) x();\n}\n", fp);
	fclose(fp);
	assert_int_equal(lt_site_resolve(&s, "slab.c:4", dir, NULL), 0);
	assert_string_equal(s.function, "__d_alloc");
	assert_true(s.split);
	assert_int_equal(s.argpos, 2);
	assert_string_equal(s.argtype, "x64");
	assert_int_equal(lt_site_resolve(&s, "slab.c:9", dir, NULL), 0);
	assert_int_equal(s.argpos, 2);
	assert_string_equal(s.argtype, "u32");
	assert_int_equal(lt_site_resolve(&s, "slab.c:10", dir, NULL), 0);
	assert_int_equal(s.argpos, 3);
	assert_string_equal(s.argtype, "s32");
	assert_int_equal(lt_site_resolve(&s, "slab.c:11", dir, NULL), 0);
	assert_int_equal(s.argpos, 4);
	assert_string_equal(s.argtype, "u8");
	assert_int_equal(lt_site_resolve(&s, "slab.c:12", dir, NULL), 0);
	assert_false(s.split);
	assert_non_null(strstr(s.why, "is not one of g's first six parameters"));
	unlink(path);
	/* attributes and macros before the name are not the name */
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("static __attribute__((nonnull(1))) int h(void *p, int n)\n{\n"
	      "\tif (unlikely(n == 3)) x();\n}\n"
	      "__printf(2, 3) void k(int a, const char *fmt, ...)\n{\n"
	      "\tif (unlikely(!fmt)) x();\n}\n"
	      "int m(long v) __attribute__((cold))\n{\n\tif (unlikely(v < 0)) x();\n}\n", fp);
	fclose(fp);
	assert_int_equal(lt_site_resolve(&s, "slab.c:3", dir, NULL), 0);
	assert_string_equal(s.function, "h");
	assert_int_equal(s.argpos, 2);
	assert_int_equal(lt_site_resolve(&s, "slab.c:7", dir, NULL), 0);
	assert_string_equal(s.function, "k");
	assert_int_equal(s.argpos, 2);
	assert_int_equal(lt_site_resolve(&s, "slab.c:11", dir, NULL), 0);
	assert_string_equal(s.function, "m");
	assert_int_equal(s.argpos, 1);
	assert_string_equal(s.argtype, "s64");	/* long: signed, all 64 bits */
	unlink(path);
	/* 64-bit types: signed or not, as the kernel will compare them */
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("int w(unsigned long a, ssize_t b, size_t c, loff_t d, u64 e, long long f)\n{\n"
	      "\tif (unlikely(a < 0)) x();\n\tif (unlikely(b < 0)) x();\n"
	      "\tif (unlikely(c < 0)) x();\n\tif (unlikely(d < 0)) x();\n"
	      "\tif (unlikely(e < 0)) x();\n\tif (unlikely(f < 0)) x();\n}\n", fp);
	fclose(fp);
	{
		static const char *const want[] = { "x64", "s64", "x64", "s64", "x64", "s64" };
		char at[16];

		for (unsigned int i = 0; i < 6; i++) {
			snprintf(at, sizeof(at), "slab.c:%u", i + 3);
			assert_int_equal(lt_site_resolve(&s, at, dir, NULL), 0);
			assert_int_equal(s.argpos, i + 1);
			assert_string_equal(s.argtype, want[i]);
		}
	}
	unlink(path);
	rmdir(dir);
}

struct hist_sums {
	uint64_t calls, wrong, n;
};

static void hist_seen(uint64_t addr, uint64_t hits, int which, void *arg)
{
	struct hist_sums *v = arg;

	v->n++;
	if (which)
		v->wrong += addr == 18446744071581256535ULL ? hits : 1000000;
	else
		v->calls += hits;
}

static void test_hist_parse(void **state)
{
	/* two histograms of one event, as 6.1's hist file shows them */
	static const char text[] =
		"# event histogram\n#\n# trigger info: hist:keys=call_site:vals=hitcount:"
		"sort=hitcount:size=8192 [active]\n#\n\n"
		"{ call_site: 18446744071583236961 } hitcount:          2\n"
		"{ call_site: 18446744071581256535 } hitcount:        586\n\n"
		"Totals:\n    Hits: 588\n    Entries: 2\n    Dropped: 3\n\n"
		"# event histogram\n#\n# trigger info: hist:keys=call_site:vals=hitcount:"
		"sort=hitcount:size=8192 if ptr <= 16 [active]\n#\n\n"
		"{ call_site: 18446744071581256535 } hitcount:         40\n\n"
		"Totals:\n    Hits: 40\n    Entries: 1\n    Dropped: 0\n";
	static const char bad[] = "# trigger info: hist:x\n{ call_site: x }\n";
	struct hist_sums v = { 0, 0, 0 };
	uint64_t dropped;

	(void)state;
	assert_int_equal(lt_hist_parse(text, strlen(text), "call_site", hist_seen, &v,
				       &dropped), 2);
	assert_int_equal(v.n, 3);
	assert_int_equal(v.calls, 588);
	assert_int_equal(v.wrong, 40);
	assert_int_equal(dropped, 3);
	/* an entry that does not parse; and no histogram at all */
	assert_int_equal(lt_hist_parse(bad, strlen(bad), "call_site", hist_seen, &v, NULL),
			 -EINVAL);
	assert_int_equal(lt_hist_parse("", 0, "call_site", hist_seen, &v, NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_conditions),
		cmocka_unit_test(test_signed),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_eval_matches_filter),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_page),
		cmocka_unit_test(test_ksyms),
		cmocka_unit_test(test_site_from_source),
		cmocka_unit_test(test_hist_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
