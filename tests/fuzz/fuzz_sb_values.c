/* libFuzzer: splicebench's command-line value parsers. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* the parsers are the tool's own pure module, built in here */
#include "../../src/splicebench/parse.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1), buf[32];
	uint64_t v, list[SB_MAX_SIZES];
	enum sb_consumer c;
	const char *path;
	unsigned int mask;
	double secs;
	int p, q;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (sb_parse_size(s, &v) == 0)
		(void)sb_format_size(v, buf, sizeof(buf));
	(void)sb_parse_size_list(s, list, SB_MAX_SIZES);
	(void)sb_parse_modes(s, &mask);
	(void)sb_parse_consumer(s, &c, &path);
	(void)sb_parse_pin(s, &p, &q);
	(void)sb_parse_seconds(s, &secs);
	free(s);
	return 0;
}
