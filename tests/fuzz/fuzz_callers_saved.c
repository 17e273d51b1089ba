// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --callers-from's reader of saved `likelytop --callers -J` snapshots on
 * arbitrary bytes: 0 or -EINVAL (with the line and a cause) or -ENOMEM;
 * what it keeps has no caller with more wrong than calls, and the
 * paragraph for any function it holds is well-formed when there is one.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "callers_saved.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lt_saved s;
	const char *why;
	size_t bad;
	int ret = lt_saved_parse((const char *)data, size, &s, &bad, &why);

	if (ret == -EINVAL && (!bad || !why))
		abort();
	if (ret < 0) {
		if (ret != -EINVAL && ret != -ENOMEM)
			abort();
		return 0;
	}
	for (size_t i = 0; i < s.n; i++) {
		char *note;

		if (s.v[i].wrong > s.v[i].calls)
			abort();
		note = lt_saved_note(&s, s.v[i].function, "", 0);
		if (note && strncmp(note, "  callers:   ", 13))
			abort();
		free(note);
	}
	lt_saved_free(&s);
	return 0;
}
