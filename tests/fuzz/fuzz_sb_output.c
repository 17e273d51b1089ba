/*
 * libFuzzer: splicebench's CSV and JSON reports from a report made of the
 * input's bytes (tests/fuzz/sb_report_gen.h: facts, results, error
 * messages, doubles with NaN and infinities), each checked by
 * tests/fuzz/sb_output_check.h.  Any failure aborts.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "sb_output_check.h"
#include "sb_report_gen.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sbgen g;
	char why[512];

	sbgen_fill(&g, data, size);
	if (sbc_check(&g.rep, why, sizeof(why)) < 0) {
		fprintf(stderr, "%s\n", why);
		abort();
	}
	return 0;
}
