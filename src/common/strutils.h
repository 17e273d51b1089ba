/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Small string helpers the tools share (util-linux keeps its own in
 * include/strutils.h): written once here, not per file.
 */
#ifndef SUITE_STRUTILS_H
#define SUITE_STRUTILS_H

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The len bytes at s end with suffix. */
static inline bool str_ends_with_n(const char *s, size_t len, const char *suffix)
{
	size_t k = strlen(suffix);

	return len >= k && memcmp(s + len - k, suffix, k) == 0;
}

static inline bool str_ends_with(const char *s, const char *suffix)
{
	return str_ends_with_n(s, strlen(s), suffix);
}

/* The same, ASCII letters of either case alike (".SVG" ends with ".svg"). */
static inline bool str_ends_with_icase(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcasecmp(s + n - k, suffix) == 0;
}

/* s without the spaces, tabs and line ends it ends with (cut in place);
 * returns s. */
static inline char *str_rtrim(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\t' ||
		     s[n - 1] == '\r'))
		s[--n] = '\0';
	return s;
}

/*
 * A plain decimal number at s, up to its end or the first byte of stop
 * (NULL: none): digits only (no sign, blank or base prefix), at most max.
 * 0, -EINVAL (not a number, or s NULL) or -ERANGE (above max); *end, when
 * asked, is where it stopped.
 */
static inline int str_parse_uint(const char *s, unsigned long long max,
				 const char *stop, unsigned long long *out,
				 const char **end)
{
	unsigned long long v = 0;
	const char *p = s;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned int d = (unsigned int)(*p - '0');

		if (d > max || v > (max - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	if (*p && !(stop && strchr(stop, *p)))
		return -EINVAL;
	*out = v;
	if (end)
		*end = p;
	return 0;
}

#endif
