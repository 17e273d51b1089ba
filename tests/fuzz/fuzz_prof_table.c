/* libFuzzer: kattr_profile_table_*() against the profile: any input parsed as
 * a table must give kattr_profile_parse_buf()'s sites, and ordered, the
 * reference sort's order for every key, direction and a few filters
 * (tests/lib/profile/table_check.h). */
#include <stdint.h>
#include <stdlib.h>

#include "../lib/profile/table_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > (1 << 16))
		return 0;	/* 14 orders each: keep a run fast */
	if (table_check((const char *)data, size))
		abort();
	return 0;
}
