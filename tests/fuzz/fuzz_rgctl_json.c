/*
 * libFuzzer: rgctl's --json documents (list, stats, members, whereis,
 * stats --delay) and dump's text, from strings and numbers cut out of the
 * input (tests/fuzz/rgctl_json_check.h).  Any failure aborts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "rgctl_json_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char why[512];

	if (rgc_check(data, size, why, sizeof(why)) < 0) {
		fprintf(stderr, "%s\n", why);
		abort();
	}
	return 0;
}
