/* libFuzzer: the /proc/PID/stat and /proc/PID/status parsers classify and
 * whereis read every process through (kattr_proc_parse_stat, _status).
 * The first byte picks the parser; the rest is the file's text.  Checks:
 * comm stays terminated within its array, ngroups within its bound, and a
 * parse that succeeds on stat sets a ppid that is not negative. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kattr/rgconf.h"
#include "kattr/private.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kattr_proc p;
	char *text;
	int r;

	if (size < 1)
		return 0;
	text = malloc(size);
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';		/* the readers hand over NUL-terminated text */
	memset(&p, 0, sizeof(p));
	if (data[0] & 1) {
		r = kattr_proc_parse_status(text, &p);
		if (p.ngroups > KATTR_PROC_MAX_GROUPS)
			abort();
	} else {
		r = kattr_proc_parse_stat(text, &p);
		if (r == 0 && p.ppid < 0)
			abort();
	}
	if (strnlen(p.comm, sizeof(p.comm)) == sizeof(p.comm))
		abort();
	free(text);
	return 0;
}
