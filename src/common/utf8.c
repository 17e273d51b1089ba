// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * UTF-8 for the tools' outputs: names read from the system (group names,
 * comm, file and function names, paths in messages) are bytes, and JSON
 * and CSV promise valid UTF-8: the checks and the repair (U+FFFD) they
 * use.  Escaping for text is in esc.c.
 */
#include <stdlib.h>
#include <string.h>

#include "tool.h"

size_t tool_utf8_seq(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	unsigned char c = s[0];

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		return (s[1] & 0xc0) == 0x80 ? 2 : 0;
	if (c >= 0xe0 && c <= 0xef) {
		unsigned char lo = c == 0xe0 ? 0xa0 : 0x80;
		unsigned char hi = c == 0xed ? 0x9f : 0xbf;

		return s[1] >= lo && s[1] <= hi && (s[2] & 0xc0) == 0x80 ? 3 : 0;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		unsigned char lo = c == 0xf0 ? 0x90 : 0x80;
		unsigned char hi = c == 0xf4 ? 0x8f : 0xbf;

		return s[1] >= lo && s[1] <= hi && (s[2] & 0xc0) == 0x80 &&
		       (s[3] & 0xc0) == 0x80 ? 4 : 0;
	}
	return 0;
}

bool tool_utf8_valid(const char *s)
{
	while (*s) {
		size_t n = tool_utf8_seq(s);

		if (!n)
			return false;
		s += n;
	}
	return true;
}

char *tool_utf8_repair_into(char *p, const char *s)
{
	while (*s) {
		size_t n = tool_utf8_seq(s);

		if (n) {
			memcpy(p, s, n);
			p += n;
			s += n;
		} else {
			memcpy(p, "\xef\xbf\xbd", 3);
			p += 3;
			s++;
		}
	}
	*p = '\0';
	return p;
}

char *tool_utf8_repair(const char *s)
{
	char *r = malloc(3 * strlen(s) + 1);

	if (r)
		tool_utf8_repair_into(r, s);
	return r;
}
