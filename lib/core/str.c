// SPDX-License-Identifier: LGPL-2.1-or-later
/* String measures the library and the suite's tools share (private.h). */
#include <ctype.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "kattr/private_core.h"

/* One comparison: a against b, folded to lower case with icase. */
static bool same(char a, char b, bool icase)
{
	if (icase)
		return tolower((unsigned char)a) == tolower((unsigned char)b);
	return a == b;
}

size_t kattr_str_distance(const char *a, const char *b, size_t cap, bool icase)
{
	size_t la = strlen(a), lb = strlen(b), row[64], i, j;

	if (lb >= sizeof(row) / sizeof(row[0]) || (la > lb ? la - lb : lb - la) > cap)
		return cap + 1;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = row[0], best;

		row[0] = i;
		best = row[0];
		for (j = 1; j <= lb; j++) {
			size_t up = row[j], v = diag + !same(a[i - 1], b[j - 1], icase);

			if (up + 1 < v)
				v = up + 1;
			if (row[j - 1] + 1 < v)
				v = row[j - 1] + 1;
			diag = up;
			row[j] = v;
			if (v < best)
				best = v;
		}
		if (best > cap)
			return cap + 1;
	}
	return row[lb];
}
