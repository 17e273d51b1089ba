/* libFuzzer: kattr_name_check() must never accept "..", "/x" or bytes
 * outside printable ASCII. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kattr/kattr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *name = malloc(size + 1);
	struct kattr_why why = { 0 };

	if (!name)
		return 0;
	memcpy(name, data, size);
	name[size] = '\0';
	if (kattr_name_check(name, &why) == 0) {
		if (name[0] == '/' || strstr(name, "//"))
			abort();
		for (const char *c = strtok(name, "/"); c; c = strtok(NULL, "/"))
			if (!strcmp(c, "..") || !strcmp(c, "."))
				abort();
	} else if (!why.text) {
		abort();
	}
	free(name);
	return 0;
}
