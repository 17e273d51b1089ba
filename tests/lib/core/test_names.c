/* kattr_name_check(): what may be a group name. */
#include "testutil.h"
#include <errno.h>
#include "kattr/kattr.h"

static void accepts_plain_names(void **state)
{
	(void)state;
	assert_int_equal(kattr_name_check("db", NULL), 0);
	assert_int_equal(kattr_name_check("db/batch", NULL), 0);
	assert_int_equal(kattr_name_check("a.b/c-d_e/...x", NULL), 0);
	assert_int_equal(kattr_name_check(".hidden", NULL), 0);
}

static void expect_refused(const char *name, const char *word)
{
	struct kattr_why why = { 0 };

	assert_int_equal(kattr_name_check(name, &why), -EINVAL);
	assert_non_null(why.text);
	assert_int_equal(why.code, KATTR_WHY_INVALID);
	if (!strstr(why.text, word))
		fail_msg("reason for '%s' is '%s', expected it to mention '%s'",
			 name, why.text, word);
}

static void refuses_bad_names(void **state)
{
	char longname[300];

	(void)state;
	expect_refused("", "empty");
	expect_refused("..", "..");
	expect_refused("db/..", "..");
	expect_refused("../etc", "..");
	expect_refused("db/../x", "..");
	expect_refused(".", "'.'");
	expect_refused("db/./x", "'.'");
	expect_refused("/db", "'/'");
	expect_refused("db//x", "empty component");
	expect_refused("db/", "ends with");
	expect_refused("d\nb", "non-printable");
	expect_refused("d\x7f", "non-printable");
	expect_refused("d\xc3\xa9", "non-ASCII");
	expect_refused("a b", "space");
	memset(longname, 'x', 256);
	longname[256] = '\0';
	expect_refused(longname, "255");
	longname[255] = '\0';
	assert_int_equal(kattr_name_check(longname, NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(accepts_plain_names),
		cmocka_unit_test(refuses_bad_names),
	};
	return cmocka_run_group_tests_name("names", tests, NULL, NULL);
}
