// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * likelytop --suggest's C-source hint locator on arbitrary text: scan,
 * locate every line with every kind, and edit what is found.  The edit
 * must keep the number of lines (so a patch never shifts the file), and
 * offsets must stay inside the text.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hintscan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t count_nl(const char *s, size_t n)
{
	size_t c = 0;

	for (size_t i = 0; i < n; i++)
		c += s[i] == '\n';
	return c;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *t = (const char *)data;
	struct lt_hint_call *calls;
	size_t n, lines = count_nl(t, size) + 2;

	if (lt_hint_scan(t, size, &calls, &n) < 0)
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (calls[i].name >= size || calls[i].open >= size ||
		    (calls[i].close != SIZE_MAX && calls[i].close >= size) ||
		    calls[i].end_line < calls[i].line)
			abort();
	}
	for (unsigned int line = 0; line <= lines && line < 4096; line++) {
		for (int k = LT_HINT_ANY; k <= LT_HINT_UNLIKELY; k++) {
			size_t idx, len, first, last;
			char name[16], *out;

			if (lt_hint_locate(t, size, calls, n, line, k, &idx, name,
					   sizeof(name)) != LT_LOC_OK)
				continue;
			for (int flip = 0; flip < 2; flip++) {
				if (lt_hint_edit(t, size, &calls[idx], flip, &out,
						 &len, &first, &last) < 0)
					continue;
				if (first > last || last > size ||
				    count_nl(out, len) != count_nl(t + first, last - first))
					abort();
				free(out);
			}
		}
	}
	free(calls);
	return 0;
}
