/* lib/core/str.c: kattr_str_distance(), the one edit distance. */
#include "testutil.h"
#include <string.h>
#include "kattr/private_core.h"

static void distances(void **state)
{
	char longer[80];

	(void)state;
	assert_int_equal(kattr_str_distance("list", "list", 2, false), 0);
	assert_int_equal(kattr_str_distance("lsit", "list", 2, false), 2);
	assert_int_equal(kattr_str_distance("lis", "list", 2, false), 1);
	assert_int_equal(kattr_str_distance("", "ab", 2, false), 2);
	/* above cap: cap + 1, whatever the real distance */
	assert_int_equal(kattr_str_distance("abcdef", "uvwxyz", 2, false), 3);
	assert_int_equal(kattr_str_distance("a", "abcdef", 2, false), 3);
	/* case: folded only when asked */
	assert_int_equal(kattr_str_distance("CPU", "cpu", 4, false), 3);
	assert_int_equal(kattr_str_distance("CPU", "cpu", 4, true), 0);
	assert_int_equal(kattr_str_distance("Memory.Mx", "memory.max", 4, true), 1);
	/* b of 64 bytes or more: never near */
	memset(longer, 'a', 64);
	longer[64] = '\0';
	assert_int_equal(kattr_str_distance(longer, longer, 4, false), 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(distances),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
