// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * UTF-8 for the tools' outputs: names read from the system (group names,
 * comm, file and function names, paths in messages) are bytes, and JSON
 * and CSV promise valid UTF-8.  json-c escapes control characters but
 * passes bytes >= 0x80 through unchecked, so strings are repaired first.
 */
#include <json-c/json.h>
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

char *tool_text_esc_into(char *p, const char *s)
{
	static const char hex[] = "0123456789abcdef";

	while (*s) {
		unsigned char c = (unsigned char)*s;
		size_t n = tool_utf8_seq(s);

		if (n == 2 && c == 0xc2 && (unsigned char)s[1] < 0xa0)
			n = 0;		/* C1 controls (U+0080..U+009F) */
		else if (n == 1 && (c < 0x20 || c == 0x7f || c == '\\'))
			n = 0;
		if (n) {
			memcpy(p, s, n);
			p += n;
			s += n;
		} else {
			*p++ = '\\';
			*p++ = 'x';
			*p++ = hex[c >> 4];
			*p++ = hex[c & 15];
			s++;
		}
	}
	*p = '\0';
	return p;
}

int tool_fputs_esc(const char *s, FILE *f)
{
	char *buf = malloc(4 * strlen(s) + 1);
	int ret;

	if (!buf)
		return EOF;
	tool_text_esc_into(buf, s);
	ret = fputs(buf, f) == EOF ? EOF : 0;
	free(buf);
	return ret;
}

json_object *tool_json_str(const char *s)
{
	json_object *o;
	char *r;

	if (tool_utf8_valid(s))
		return json_object_new_string(s);
	r = tool_utf8_repair(s);
	if (!r)
		return NULL;
	o = json_object_new_string(r);
	free(r);
	return o;
}
