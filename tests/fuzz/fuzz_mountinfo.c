/*
 * libFuzzer: one mountinfo line through kattr_mountinfo_parse() (the
 * library's own parser), then the option matcher on its fields.  The fields
 * must point into the caller's line, as the API says, and be strings.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kattr/kattr.h"
#include "kattr/private.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void inside(const char *field, const char *line, size_t size)
{
	if (!field || field < line || field + strlen(field) >= line + size + 1)
		abort();
}

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
		inside(m.root, line, size);
		inside(m.mount_point, line, size);
		inside(m.mount_opts, line, size);
		inside(m.fstype, line, size);
		inside(m.source, line, size);
		inside(m.super_opts, line, size);
	}
	free(line);
	return 0;
}
