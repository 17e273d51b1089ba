/* libFuzzer: one mountinfo line, then the option matcher on its fields. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kattr/kattr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = malloc(size + 1);
	struct kattr_mnt m;

	if (!line)
		return 0;
	memcpy(line, data, size);
	line[size] = '\0';
	if (kattr_mountinfo_parse(line, &m) == 0) {
		(void)kattr_opt_has(m.super_opts, "cpu");
		(void)kattr_opt_has(m.mount_opts, "rw");
		(void)strlen(m.mount_point);
		(void)strlen(m.root);
		(void)strlen(m.source);
	}
	free(line);
	return 0;
}
