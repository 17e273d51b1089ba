// SPDX-License-Identifier: GPL-2.0-or-later
/* splicebench: command-line values.  Pure functions, unit-tested and fuzzed. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sb.h"
#include "parse.h"
#include "tool.h"

static const char *const mode_names[SB_NMODES] = { "copy", "vmsplice", "gift" };

const char *sb_mode_name(enum sb_mode m)
{
	return (unsigned int)m < SB_NMODES ? mode_names[m] : "?";
}

const char *sb_consumer_name(enum sb_consumer c)
{
	switch (c) {
	case SB_NULL:	return "null";
	case SB_READ:	return "read";
	case SB_VERIFY:	return "verify";
	case SB_FILE:	return "file";
	}
	return "?";
}

/* Parse one size from s up to end (exclusive). */
static int parse_size_n(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0, mult = 1;
	size_t i = 0;

	if (n == 0 || !isdigit((unsigned char)s[0]))
		return -EINVAL;
	for (; i < n && isdigit((unsigned char)s[i]); i++) {
		if (v > (UINT64_MAX - 9) / 10)
			return -ERANGE;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (i < n) {
		switch (s[i]) {
		case 'k': case 'K': mult = 1ull << 10; break;
		case 'm': case 'M': mult = 1ull << 20; break;
		case 'g': case 'G': mult = 1ull << 30; break;
		default: return -EINVAL;
		}
		i++;
		/* "KiB" and "KB" are accepted as the same thing as "K" */
		if (i < n && s[i] == 'i')
			i++;
		if (i < n && (s[i] == 'B' || s[i] == 'b'))
			i++;
		if (i != n)
			return -EINVAL;
	}
	if (v > UINT64_MAX / mult)
		return -ERANGE;
	*out = v * mult;
	return 0;
}

int sb_parse_size(const char *s, uint64_t *out)
{
	return parse_size_n(s, strlen(s), out);
}

int sb_parse_size_list(const char *s, uint64_t *out, int max)
{
	int n = 0;

	for (;;) {
		const char *comma = strchr(s, ',');
		size_t len = comma ? (size_t)(comma - s) : strlen(s);
		int ret;

		if (n == max)
			return -E2BIG;
		ret = parse_size_n(s, len, &out[n]);
		if (ret < 0)
			return ret;
		n++;
		if (!comma)
			return n;
		s = comma + 1;
	}
}

int sb_parse_modes(const char *s, unsigned int *mask)
{
	unsigned int m = 0;

	for (;;) {
		const char *comma = strchr(s, ',');
		size_t len = comma ? (size_t)(comma - s) : strlen(s);
		int i, found = 0;

		for (i = 0; i < SB_NMODES; i++) {
			if (strlen(mode_names[i]) == len &&
			    strncmp(s, mode_names[i], len) == 0) {
				m |= 1u << i;
				found = 1;
			}
		}
		if (!found)
			return -EINVAL;
		if (!comma)
			break;
		s = comma + 1;
	}
	*mask = m;
	return 0;
}

int sb_parse_consumer(const char *s, enum sb_consumer *c, const char **path)
{
	*path = NULL;
	if (strcmp(s, "null") == 0)
		*c = SB_NULL;
	else if (strcmp(s, "read") == 0)
		*c = SB_READ;
	else if (strcmp(s, "verify") == 0)
		*c = SB_VERIFY;
	else if (strncmp(s, "file:", 5) == 0 && s[5]) {
		*c = SB_FILE;
		*path = s + 5;
	} else
		return -EINVAL;
	return 0;
}

static int parse_cpu(const char *s, size_t n, int *cpu)
{
	long v = 0;
	size_t i;

	if (n == 0 || n > 5)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -EINVAL;
		v = v * 10 + (s[i] - '0');
	}
	if (v >= 8192)		/* beyond any cpu_set_t we allocate */
		return -ERANGE;
	*cpu = (int)v;
	return 0;
}

int sb_parse_pin(const char *s, int *p, int *c)
{
	const char *comma = strchr(s, ',');

	if (!comma || strchr(comma + 1, ','))
		return -EINVAL;
	if (parse_cpu(s, (size_t)(comma - s), p) < 0)
		return -EINVAL;
	return parse_cpu(comma + 1, strlen(comma + 1), c) < 0 ? -EINVAL : 0;
}

int sb_parse_seconds(const char *s, double *out)
{
	double v;

	if (!tool_parse_seconds(s, 0, 86400, &v) || v <= 0)
		return -EINVAL;
	*out = v;
	return 0;
}

const char *sb_format_size(uint64_t n, char *buf, size_t size)
{
	static const char units[] = "KMG";
	int u;

	for (u = 2; u >= 0; u--) {
		uint64_t m = 1ull << (10 * (u + 1));

		if (n >= m && n % m == 0) {
			snprintf(buf, size, "%" PRIu64 "%c", n / m, units[u]);
			return buf;
		}
		if (n >= m && (n * 10) % m == 0 && n < 1000 * m) {
			snprintf(buf, size, "%.1f%c", (double)n / (double)m,
				 units[u]);
			return buf;
		}
	}
	snprintf(buf, size, "%" PRIu64, n);
	return buf;
}
