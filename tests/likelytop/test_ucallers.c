// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * likelytop --callers -p PID without a process: the PID.callers file
 * (callers_ufile.c), a function's parameters in its source, ELF symbols
 * (callers_elf.c, on this test's own executable) and a user-space SITE
 * resolved (callers_site.c).
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

#include "callers_elf.h"
#include "callers_site.h"
#include "callers_user.h"

static int parse(const char *text, struct lt_ucaller_row **rows, size_t *n,
		 size_t *bad)
{
	return lt_ucallers_parse(text, strlen(text), rows, n, bad);
}

static void callers_file(void **state)
{
	struct lt_ucaller_row *r;
	size_t n, bad;

	(void)state;
	assert_int_equal(parse("likely_prof callers 1\n"
			       "unlikely\t300\t29700\thinted\t/src/p.c\t26\t/bin/p\t0x28cd\n"
			       "likely\t1\t2\tf\\tx\tfi\\\\le\\n\t3\t\t0x10\n"
			       "unlikely\t1\t2\tcut", &r, &n, &bad), 0);
	assert_int_equal(n, 2);	/* the last line, without its newline, is cut */
	assert_int_equal(r[0].likely, 0);
	assert_int_equal(r[0].t, 300);
	assert_int_equal(r[0].f, 29700);
	assert_string_equal(r[0].func, "hinted");
	assert_int_equal(r[0].line, 26);
	assert_string_equal(r[0].object, "/bin/p");
	assert_int_equal(r[0].off, 0x28cd);
	assert_int_equal(r[1].likely, 1);
	assert_string_equal(r[1].func, "f\tx");
	assert_string_equal(r[1].file, "fi\\le\n");
	assert_string_equal(r[1].object, "");
	lt_ucallers_free(r, n);

	assert_int_equal(parse("likely_prof callers 2\n", &r, &n, &bad), -EINVAL);
	assert_int_equal(bad, 1);
	assert_int_equal(parse("", &r, &n, &bad), -EINVAL);
	static const char *const bad_rows[] = {
		"maybe\t1\t2\tf\tfile\t3\tobj\t0x1\n",
		"likely\t-1\t2\tf\tfile\t3\tobj\t0x1\n",
		"likely\t1\t2\tf\tfile\t3\tobj\t16\n",
		"likely\t1\t2\tf\tfile\t3\tobj\n",
		"likely\t1\t2\tf\tfile\t3\tobj\t0x1\textra\n",
		"likely\t1\t2\tf\\x\tfile\t3\tobj\t0x1\n",
		"likely\t1\t2\tf\tfile\t3\tobj\\\t0x1\n",
		"likely\t18446744073709551616\t2\tf\tfile\t3\tobj\t0x1\n",
	};
	for (size_t i = 0; i < sizeof(bad_rows) / sizeof(bad_rows[0]); i++) {
		char text[256];

		snprintf(text, sizeof(text), "likely_prof callers 1\n"
			 "unlikely\t1\t2\tf\tfile\t3\tobj\t0x1\n%s", bad_rows[i]);
		assert_int_equal(parse(text, &r, &n, &bad), -EINVAL);
		assert_int_equal(bad, 3);
		assert_null(r);
	}
}

static void params(void **state)
{
	static const char src[] =
		"int f(int);\n"
		"static long g(void (*cb)(int, int), const char *name, unsigned int n[4],\n"
		"\t      short s, unsigned char c, size_t len)\n"
		"{\n\treturn 0;\n}\n"
		"int f(int x)\n{\n\treturn x;\n}\n";
	int bits;
	bool sign;

	(void)state;
	assert_int_equal(lt_ucallers_param(src, strlen(src), "g", "cb", &bits, &sign), 1);
	assert_int_equal(bits, 64);
	assert_int_equal(lt_ucallers_param(src, strlen(src), "g", "name", &bits, &sign), 2);
	assert_int_equal(bits, 64);
	assert_false(sign);
	assert_int_equal(lt_ucallers_param(src, strlen(src), "g", "n", &bits, &sign), 3);
	assert_int_equal(bits, 64);	/* an array parameter is a pointer */
	assert_int_equal(lt_ucallers_param(src, strlen(src), "g", "s", &bits, &sign), 4);
	assert_int_equal(bits, 16);
	assert_true(sign);
	assert_int_equal(lt_ucallers_param(src, strlen(src), "g", "c", &bits, &sign), 5);
	assert_int_equal(bits, 8);
	assert_false(sign);
	assert_int_equal(lt_ucallers_param(src, strlen(src), "g", "len", &bits, &sign), 6);
	assert_int_equal(bits, 64);
	/* the definition, not the declaration */
	assert_int_equal(lt_ucallers_param(src, strlen(src), "f", "x", &bits, &sign), 1);
	assert_int_equal(bits, 32);
	assert_true(sign);
	assert_int_equal(lt_ucallers_param(src, strlen(src), "f", "y", &bits, &sign), 0);
	assert_int_equal(lt_ucallers_param(src, strlen(src), "h", "x", &bits, &sign), 0);
	assert_int_equal(lt_ucallers_param("f(int x", 7, "f", "x", &bits, &sign), 0);
}

__attribute__((noinline, used)) int ucallers_probe_target(int x);
__attribute__((noinline, used)) int ucallers_probe_target(int x)
{
	return x + 1;
}

static void elf_symbols(void **state)
{
	struct lt_elf e;
	uint64_t va, off;
	char name[256], exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	(void)state;
	assert_true(n > 0);
	exe[n] = '\0';
	assert_int_equal(lt_elf_load(&e, exe), 0);
	assert_int_equal(lt_elf_func(&e, "ucallers_probe_target", &va, &off), 0);
	lt_elf_name(&e, off, name, sizeof(name));
	assert_string_equal(name, "ucallers_probe_target+0");
	lt_elf_name(&e, off + 1, name, sizeof(name));
	assert_string_equal(name, "ucallers_probe_target+0x1");
	assert_int_equal(lt_elf_func(&e, "no_such_function_here", &va, &off), -ENOENT);
	lt_elf_free(&e);
	assert_int_equal(lt_elf_load(&e, "/proc/self/status"), -ENOEXEC);
	lt_elf_free(&e);
	assert_int_equal(lt_elf_load(&e, "/nonexistent/x"), -ENOENT);
	lt_elf_free(&e);
	assert_int_equal(lt_elf_load_mem(&e, "junk", "not an elf", 10), -ENOEXEC);
	lt_elf_name(&e, 5, name, sizeof(name));
	assert_string_equal(name, "0x5");
	lt_elf_free(&e);
}

static void user_site(void **state)
{
	struct lt_site s;
	char dir[] = "/tmp/test_ucallers.XXXXXX", path[64];
	FILE *f;

	(void)state;
	assert_int_equal(lt_site_resolve_user(&s, "hinted", NULL, "unlikely(!arg1)"), 0);
	assert_string_equal(s.function, "hinted");
	assert_true(s.split);
	assert_string_equal(s.cond.var, "arg1");
	assert_int_equal(lt_site_resolve_user(&s, "hinted", NULL, NULL), 0);
	assert_false(s.split);
	assert_non_null(strstr(s.why, "--condition"));
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/p.c", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("int hinted(const char *p)\n{\n\tif (likely(p != NULL))\n\t\treturn 1;\n\treturn 0;\n}\n", f);
	fclose(f);
	assert_int_equal(lt_site_resolve_user(&s, "p.c:3", dir, NULL), 0);
	assert_string_equal(s.function, "hinted");
	assert_string_equal(s.hint_from, "p.c:3");
	assert_true(s.likely);
	assert_true(s.split);
	assert_true(lt_cond_true(&s.cond, 0));	/* likely(p): wrong when NULL */
	assert_false(lt_cond_true(&s.cond, 1));
	assert_int_equal(lt_site_resolve_user(&s, "p.c:1", dir, NULL), -ENOENT);
	unlink(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(callers_file),
		cmocka_unit_test(params),
		cmocka_unit_test(elf_symbols),
		cmocka_unit_test(user_site),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
