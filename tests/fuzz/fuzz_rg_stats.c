/* libFuzzer: the statistics parsers (lib/rg/rgstats.c) on arbitrary text:
 * io.stat, v1 blkio, PSI, memory.events-like keyed files (renamed and
 * scaled keys, known-only), and single numbers.  The first byte picks the
 * format.  Invariants, not just crashes: every figure has res, key and
 * file; a value is never negative (the kernel's files hold none, and junk
 * is text only); a PSI average is at most 100.00 percent... of what parses
 * as d+.dd (junk may be larger, but never negative); io figures name a
 * device; an entry without a value has no unit unless it is n/a. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kattr/rg.h"
#include "kattr/private.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct kattr_rg_figkey keys[] = {
	{ "throttled_time", "throttled_usec", KATTR_RG_UNIT_USEC, 1, 1000, true },
	{ "user", "user_usec", KATTR_RG_UNIT_USEC, 1000000, 0, true },
	{ "big", "big_usec", KATTR_RG_UNIT_USEC, 4000000000u, 1, true },
	{ NULL, NULL, 0, 0, 0, false },
};

static void check(const struct kattr_rg_stat *v, size_t n,
		  const struct kattr_rg_figsrc *src)
{
	for (size_t i = 0; i < n; i++) {
		const struct kattr_rg_stat *s = &v[i];

		if (!s->res || !s->key || !s->file || s->absent ||
		    strcmp(s->res, src->res) != 0)
			abort();
		if (s->has_value && s->value < 0)
			abort();
		if (!s->has_value && s->unit != KATTR_RG_UNIT_NONE)
			abort();
		if ((src->fmt == KATTR_RG_FIG_IO_STAT ||
		     src->fmt == KATTR_RG_FIG_BLKIO) && !s->dev)
			abort();
		if (src->fmt == KATTR_RG_FIG_PSI && strncmp(s->key, "pressure.", 9))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kattr_rg_figsrc src = {
		.res = "io", .file = "f", .unit = KATTR_RG_UNIT_COUNT,
		.counter = true, .mul = 1, .div = 1,
	};
	struct kattr_rg_stat *v = NULL;
	size_t n = 0;
	char *text;

	if (size < 1)
		return 0;
	text = malloc(size);
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	src.fmt = (enum kattr_rg_figfmt)(data[0] % 5);
	src.name = src.fmt == KATTR_RG_FIG_BLKIO ? "bytes" :
		   src.fmt == KATTR_RG_FIG_FLAT ? "current" :
		   (data[0] & 0x80) ? "events." : NULL;
	if (src.fmt == KATTR_RG_FIG_KEYED) {
		src.keys = keys;
		if (data[0] & 0x40)
			src.flags = KATTR_RG_FIG_KNOWN;
	}
	if (src.fmt == KATTR_RG_FIG_FLAT && (data[0] & 0x40)) {
		src.mul = 1000000;
		src.div = 0;	/* USER_HZ */
	}
	/* twice: the second appends after the first's entries */
	if (kattr_rg_parse_figures(text, &src, &v, &n) == 0 &&
	    kattr_rg_parse_figures(text, &src, &v, &n) == 0)
		check(v, n, &src);
	kattr_rg_stats_free(v, n);
	free(text);
	return 0;
}
