// SPDX-License-Identifier: GPL-2.0-or-later
/* --suggest's callers paragraph (callers_note.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "callers_note.h"
#include "esc.h"

size_t lt_callers_most(const struct lt_note_caller *top, size_t n, uint64_t wrong)
{
	if (n < 3 || !wrong)
		return 0;
	if (100.0 * (double)top[0].wrong >= LT_CALLERS_MOST * (double)wrong)
		return 1;
	if (100.0 * (double)(top[0].wrong + top[1].wrong) >= LT_CALLERS_MOST * (double)wrong)
		return 2;
	return 0;
}

char *lt_callers_note(const struct lt_note_caller *top, size_t n, uint64_t wrong,
		      const char *how)
{
	size_t k = lt_callers_most(top, n, wrong), len;
	char *out = NULL;
	FILE *f;

	f = k ? open_memstream(&out, &len) : NULL;
	if (!f)
		return NULL;
	fprintf(f, "  callers:   %s of its %zu callers made %.1f%% of the wrong\n"
		"             evaluations (%s):\n",
		k == 1 ? "one" : "two", n,
		100.0 * (double)(top[0].wrong + (k == 2 ? top[1].wrong : 0)) / (double)wrong,
		how);
	for (size_t i = 0; i < k; i++) {
		const char *mod = top[i].module;

		/* the names are the traced program's or a saved file's:
		 * escaped (esc.h), so that none begins a line of the mail */
		fputs("             ", f);
		tool_fputs_esc(top[i].name, f, 0);
		if (mod) {
			fputs(" [", f);
			tool_fputs_esc(mod, f, 0);
			fputc(']', f);
		}
		fprintf(f, ": %" PRIu64 " wrong of %" PRIu64 " calls\n",
			top[i].wrong, top[i].calls);
	}
	fprintf(f, "             Fixing %s, not the hint, is the alternative.\n",
		k == 1 ? "that caller" : "those callers");
	if (fclose(f) != 0) {
		free(out);
		return NULL;
	}
	return out;
}
