// SPDX-License-Identifier: LGPL-2.1-or-later
/* String measures the library and the suite's tools share (private.h),
 * and the error detail (struct kattr_why) every layer fills. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "kattr/private_core.h"

/* One comparison: a against b, folded to lower case with icase. */
static bool same(char a, char b, bool icase)
{
	if (icase)
		return tolower((unsigned char)a) == tolower((unsigned char)b);
	return a == b;
}

size_t kattr_str_distance(const char *a, const char *b, size_t cap, bool icase)
{
	size_t la = strlen(a), lb = strlen(b), row[64], i, j;

	if (lb >= sizeof(row) / sizeof(row[0]) || (la > lb ? la - lb : lb - la) > cap)
		return cap + 1;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = row[0], best;

		row[0] = i;
		best = row[0];
		for (j = 1; j <= lb; j++) {
			size_t up = row[j], v = diag + !same(a[i - 1], b[j - 1], icase);

			if (up + 1 < v)
				v = up + 1;
			if (row[j - 1] + 1 < v)
				v = row[j - 1] + 1;
			diag = up;
			row[j] = v;
			if (v < best)
				best = v;
		}
		if (best > cap)
			return cap + 1;
	}
	return row[lb];
}

/* Strict decimal: digits only, optional leading '-' when neg_ok. */
int kattr_parse_ll(const char *s, size_t len, bool neg_ok, long long *out)
{
	long long v = 0;
	size_t i = 0;
	bool neg = false;

	if (len && s[0] == '-' && neg_ok) {
		neg = true;
		i = 1;
	}
	if (i == len)
		return -EINVAL;
	for (; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
		if (v > (LLONG_MAX - (s[i] - '0')) / 10)
			return -ERANGE;
		v = v * 10 + (s[i] - '0');
	}
	*out = neg ? -v : v;
	return 0;
}

bool kattr_next_line(const char **p, const char **start, size_t *len)
{
	const char *nl;

	if (!**p)
		return false;
	*start = *p;
	nl = strchr(*p, '\n');
	*len = nl ? (size_t)(nl - *p) : strlen(*p);
	*p = nl ? nl + 1 : *p + *len;
	return true;
}

/* ---- struct kattr_why ----------------------------------------------------- */

void kattr_why_clear(struct kattr_why *why)
{
	if (why) {
		why->code = KATTR_WHY_NONE;
		why->text = NULL;
	}
}

int kattr_why_set(struct kattr_why *why, int code, int err, const char *text)
{
	if (why) {
		why->code = code;
		why->text = text;
	}
	return err;
}

int kattr_why_vfmt(struct kattr_why *why, int code, int err,
		   const char *short_text, const char *fmt, va_list ap)
{
	if (!why)
		return err;
	why->code = code;
	if (!why->buf || !why->size) {
		why->text = short_text;
		return err;
	}
	vsnprintf(why->buf, why->size, fmt, ap);
	why->text = why->buf;
	return err;
}

int kattr_why_fmt(struct kattr_why *why, int code, int err,
		  const char *short_text, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err = kattr_why_vfmt(why, code, err, short_text, fmt, ap);
	va_end(ap);
	return err;
}

int kattr_why_words(struct kattr_why *why, int err, const char *words)
{
	return words ? kattr_why_set(why, KATTR_WHY_INVALID, err, words) : err;
}

const char *kattr_why_text(const struct kattr_why *why, int err)
{
	if (why && why->code != KATTR_WHY_NONE && why->text)
		return why->text;
	return err ? strerror(-err) : "";
}
