/* libFuzzer: rgctl.conf text through the parser (integer rewriting, the
 * @include refusal of text given as a string), the formatter (whose
 * output must parse back to the same text) and the matcher. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "kattr/rgconf.h"
#include "kattr/private.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kattr_rgconf *c = NULL, *d = NULL;
	struct kattr_proc p;
	char err[256];
	char *text, *t1, *t2;

	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (kattr_rgconf_parse_string(text, "fuzz", &c, &(struct kattr_why)KATTR_WHY_BUF(err)) == 0) {
		t1 = kattr_rgconf_format(c);
		if (t1) {
			if (kattr_rgconf_parse_string(t1, "fuzz", &d, &(struct kattr_why)KATTR_WHY_BUF(err)) != 0)
				abort();	/* the formatter wrote what cannot be read */
			t2 = kattr_rgconf_format(d);
			if (t2 && strcmp(t1, t2) != 0)
				abort();
			free(t2);
			kattr_rgconf_free(d);
			free(t1);
		}
		memset(&p, 0, sizeof(p));
		strcpy(p.comm, "postgres");
		strcpy(p.exe, "/usr/bin/backup");
		(void)kattr_rgconf_match(c, &p);
		kattr_rgconf_free(c);
	}
	free(text);
	return 0;
}
