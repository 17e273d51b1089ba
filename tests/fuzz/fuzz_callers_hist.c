// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * likelytop --callers' hist file reader on arbitrary bytes: it returns
 * -EINVAL or the number of histograms, and every entry it hands out is of
 * histogram 0 (calls) or 1 (wrong), after at least one trigger line.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "callers_hist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void on_entry(uint64_t addr, uint64_t hits, int which, void *arg)
{
	size_t *n = arg;

	(void)addr;
	(void)hits;
	if (which != 0 && which != 1)
		abort();
	(*n)++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t n = 0;
	uint64_t dropped;
	int ret = lt_hist_parse((const char *)data, size, "call_site", on_entry, &n,
				&dropped);

	if ((ret < 0 && ret != -EINVAL) || (ret == 0 && n))
		abort();
	return 0;
}
