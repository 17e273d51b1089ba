/* libFuzzer: one tracefs branch_annotated / branch_all row. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kattr/profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = malloc(size + 1);
	struct kattr_prof_entry e;

	if (!line || !size) {
		free(line);
		return 0;
	}
	memcpy(line, data + 1, size - 1);
	line[size - 1] = '\0';
	if (kattr_prof_parse_trace_row(line, data[0] & 1, &e) == 0) {
		if (!e.function[0] || !e.file[0] || strchr(e.function, ' '))
			abort();
		for (const char *c = e.function; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				abort();	/* would reach a terminal */
		if ((data[0] & 1) && e.constant)
			abort();
	}
	free(line);
	return 0;
}
