/* libFuzzer: one /proc/likely_prof row.  The library's word-at-a-time
 * parser must agree with the plain reference parser on every input, and
 * an accepted row has a non-empty function and file without the
 * separators the format uses. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kattr/profile.h"
#include "kattr/private.h"
#include "../lib/profile/ref_likely_row.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = malloc(size + 1), *ref = malloc(size + 1);
	struct kattr_profile_entry e, r;
	int ret;

	if (!line || !ref) {
		free(line);
		free(ref);
		return 0;
	}
	memcpy(line, data, size);
	line[size] = '\0';
	memcpy(ref, line, size + 1);
	ret = kattr_profile_parse_likely_row(line, &e);
	if ((ret == 0) != (ref_likely_row(ref, &r) == 0))
		abort();	/* the fast parser and the reference disagree */
	if (ret == 0) {
		if (!ref_same_entry(&e, &r))
			abort();
		for (const char *c = e.file; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				abort();	/* would reach a terminal */
		if (!e.function[0] || !e.file[0] || strstr(e.function, "()@:") ||
		    (e.hint != KATTR_PROFILE_HINT_LIKELY &&
		     e.hint != KATTR_PROFILE_HINT_UNLIKELY))
			abort();
	}
	free(line);
	free(ref);
	return 0;
}
