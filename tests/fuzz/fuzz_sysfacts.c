/* libFuzzer: the system-facts parsers on arbitrary text. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kattr/sysfacts.h"
#include "kattr/private.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), buf[64];
	uint64_t v;
	unsigned int n;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	(void)kattr_cpuinfo_model(text, buf, sizeof(buf));
	(void)kattr_cpuinfo_has_flag(text, "hypervisor");
	(void)kattr_choice_selected(text, buf, sizeof(buf));
	(void)kattr_cpulist_count(text, &n);
	(void)kattr_smaps_field_kb(text, 0x7f0000001000, "AnonHugePages", &v);
	(void)kattr_smaps_page_size(text, &v);
	free(text);
	return 0;
}
