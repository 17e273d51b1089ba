/* libFuzzer: one /proc/likely_prof row; an accepted row has a non-empty
 * function and file without the separators the format uses. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kattr/profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = malloc(size + 1);
	struct kattr_prof_entry e;

	if (!line)
		return 0;
	memcpy(line, data, size);
	line[size] = '\0';
	if (kattr_prof_parse_likely_row(line, &e) == 0) {
		for (const char *c = e.file; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				abort();	/* would reach a terminal */
		if (!e.function[0] || !e.file[0] || strstr(e.function, "()@:") ||
		    (e.hint != KATTR_PROF_HINT_LIKELY &&
		     e.hint != KATTR_PROF_HINT_UNLIKELY))
			abort();
	}
	free(line);
	return 0;
}
