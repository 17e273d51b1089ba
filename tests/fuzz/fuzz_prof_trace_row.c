/* libFuzzer: one tracefs branch_annotated / branch_all row, parsed by the
 * library and by the plain reference parser: they must agree, and an
 * accepted name never holds a byte that would reach a terminal. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kattr/profile.h"
#include "kattr/private.h"
#include "../lib/profile/ref_trace_row.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line, *ref;
	struct kattr_profile_entry e, r;
	bool all;
	int r1, r2;

	if (!size)
		return 0;
	all = data[0] & 1;
	line = malloc(size);
	ref = malloc(size);
	if (!line || !ref) {
		free(line);
		free(ref);
		return 0;
	}
	memcpy(line, data + 1, size - 1);
	line[size - 1] = '\0';
	memcpy(ref, line, size);
	r1 = kattr_profile_parse_trace_row(line, all, &e);
	r2 = ref_trace_row(ref, all, &r);
	if ((r1 == 0) != (r2 == 0))
		abort();
	if (r1 == 0) {
		if (!ref_same_entry(&e, &r) || !e.function[0] || !e.file[0] ||
		    strchr(e.function, ' '))
			abort();
		for (const char *c = e.function; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				abort();	/* would reach a terminal */
		if (all && e.constant)
			abort();
	}
	free(line);
	free(ref);
	return 0;
}
