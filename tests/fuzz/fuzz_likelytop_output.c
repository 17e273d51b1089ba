/*
 * libFuzzer: likelytop's batch output from fuzzed profiles.  The input is
 * two snapshots separated by the first NUL byte (the second may be
 * missing); each is parsed, the second diffed against the first (rates,
 * resets), the rows (sorted by the first byte's choice) rendered in every
 * format (text, CSV, JSON) with a source name taken from the input too, and
 * each output checked by tests/likelytop/out_check.h: JSON parses with
 * json-c's strict tokener validating UTF-8, CSV has the header's field
 * count per record with RFC 4180 quoting, text has one line per row and no
 * control byte.  Any failure aborts.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kattr/profile.h"
#include "kattr/private.h"
#include "out_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void render_and_check(const struct kattr_profile *p, const char *source,
			     unsigned long iteration, enum kattr_profile_sort key)
{
	const struct kattr_profile_entry **rows = malloc((p->n ? p->n : 1) * sizeof(*rows));
	struct kattr_profile_filter f = { 0 };
	struct lt_out_meta meta = {
		.source = source, .format = p->format, .iteration = iteration,
		.sites = p->n, .bad_rows = p->bad_rows, .time = 0,
	};
	char why[256];
	size_t n;

	if (!rows)
		return;
	n = kattr_profile_select(p, &f, rows);
	kattr_profile_sort(rows, n, key, false);
	for (int fmt = LT_OUT_TEXT; fmt <= LT_OUT_JSON; fmt++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *fp = open_memstream(&buf, &len);

		if (!fp)
			break;
		if (lt_out_write(fp, (enum lt_out_format)fmt, &meta, rows, n) < 0) {
			fclose(fp);
			free(buf);
			continue;	/* out of memory */
		}
		fclose(fp);
		if (lt_check_output((enum lt_out_format)fmt, &meta, buf, len,
				    rows, n, why, sizeof(why)) < 0) {
			fprintf(stderr, "format %d: %s\n", fmt, why);
			abort();
		}
		free(buf);
	}
	free(rows);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, 0, size);
	size_t la = nul ? (size_t)(nul - data) : size;
	struct kattr_profile *a = NULL, *b = NULL;
	enum kattr_profile_sort key = size ? (enum kattr_profile_sort)(data[0] % KATTR_PROFILE_SORT_COUNT_) : 0;
	char source[64];
	size_t sl = la < sizeof(source) - 1 ? la : sizeof(source) - 1;

	/* the source's name: the first bytes of the input, any of them */
	memcpy(source, data, sl);
	source[sl] = '\0';
	if (kattr_profile_parse((const char *)data, la, 0, &a) < 0)
		return 0;
	render_and_check(a, source, 1, key);
	if (nul && kattr_profile_parse((const char *)nul + 1, size - la - 1, 0, &b) == 0) {
		if (kattr_profile_diff(a, b, 0.5) == 0)
			render_and_check(b, source, 2, key);
		kattr_profile_free(b);
	}
	kattr_profile_free(a);
	return 0;
}
