// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The tools' one escaper, CSV quoter and JSON string builder (esc.h says
 * the rule).  likelytop escapes every row of a 200,000-row profile with
 * these: plain ASCII, the usual case, takes one test per byte.
 */
#include <errno.h>
#include <json-c/json.h>
#include <langinfo.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "esc.h"
#include "tool.h"

static const char hex[] = "0123456789abcdef";

/*
 * At u: how many bytes print as they are (1 to 4), or 0 when u[0] is
 * escaped.  lo is the lowest plain ASCII byte (0x21 with TOOL_ESC_BLANK).
 */
static inline size_t kept(const unsigned char *u, unsigned char lo,
			  unsigned int flags)
{
	size_t n;

	if (u[0] < 0x80)
		return u[0] >= lo && u[0] != 0x7f && u[0] != '\\';
	if (flags & TOOL_ESC_ASCII)
		return 0;
	n = tool_utf8_seq((const char *)u);
	if (n == 2 && u[0] == 0xc2 && u[1] < 0xa0)
		return 0;	/* C1 controls (U+0080..U+009F) */
	return n;
}

static inline unsigned char lowest(unsigned int flags)
{
	return flags & TOOL_ESC_BLANK ? 0x21 : 0x20;
}

static inline char *put_hex(char *p, unsigned char c)
{
	p[0] = '\\';
	p[1] = 'x';
	p[2] = hex[c >> 4];
	p[3] = hex[c & 15];
	return p + 4;
}

/* One step: the n bytes at *u as they are (n from kept()), or *u's \xNN
 * when n is 0; both pointers move on. */
static inline char *put_step(char *p, const unsigned char **u, size_t n)
{
	if (!n)
		return put_hex(p, *(*u)++);
	memcpy(p, *u, n);
	*u += n;
	return p + n;
}

/* Eight bytes are printable ASCII but the backslash: exact as a yes/no
 * answer (borrows and carries start only at a byte that is itself one
 * of the others). */
static inline bool plain_word(uint64_t w)
{
	const uint64_t ones = 0x0101010101010101ULL, highs = ones << 7;
	uint64_t bs = w ^ (ones * '\\');

	/* a byte < 0x20, >= 0x7f (w + 1 carries into bit 7), or '\\' */
	return !(((w - ones * 0x20) | (w + ones) | w | ((bs - ones) & ~bs)) & highs);
}

bool tool_esc_plain(const char *s, size_t n)
{
	uint64_t w;
	size_t i = 0;

	if (n < 8) {
		for (; i < n; i++)
			if ((unsigned char)s[i] < 0x20 ||
			    (unsigned char)s[i] >= 0x7f || s[i] == '\\')
				return false;
		return true;
	}
	for (; i + 8 < n; i += 8) {
		memcpy(&w, s + i, 8);
		if (!plain_word(w))
			return false;
	}
	memcpy(&w, s + n - 8, 8);	/* the last 8, overlapping */
	return plain_word(w);
}

char *tool_esc(char *p, const char *s, unsigned int flags)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned char lo = lowest(flags);

	while (*u) {
		const unsigned char *a = u;
		size_t n;

		/* printable ASCII but the backslash: the usual run of bytes */
		while (*a >= lo && *a < 0x7f && *a != '\\')
			a++;
		if (a != u) {
			memcpy(p, u, (size_t)(a - u));
			p += a - u;
			u = a;
			continue;
		}
		n = kept(u, lo, flags);
		p = put_step(p, &u, n);
	}
	*p = '\0';
	return p;
}

char *tool_esc_to(char *buf, size_t size, const char *s, unsigned int flags)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned char lo = lowest(flags);
	char *p = buf, *cut = NULL;

	if (size < 4) {
		if (size)
			*buf = '\0';
		return buf;
	}
	while (*u) {
		size_t n = kept(u, lo, flags), w = n ? n : 4;

		/* past here, only "..." and the NUL would fit */
		if (!cut && (size_t)(p - buf) + w > size - 4)
			cut = p;
		if ((size_t)(p - buf) + w > size - 1) {
			memcpy(cut, "...", 4);
			return buf;
		}
		p = put_step(p, &u, n);
	}
	*p = '\0';
	return buf;
}

size_t tool_esc_width(const char *s, unsigned int flags)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned char lo = lowest(flags);
	size_t w = 0;

	while (*u) {
		size_t n = kept(u, lo, flags);

		w += n ? 1 : 4;
		u += n ? n : 1;
	}
	return w;
}

int tool_fputs_esc(const char *s, FILE *f, unsigned int flags)
{
	char *buf = malloc(TOOL_ESC_SIZE(strlen(s)));
	int ret;

	if (!buf)
		return EOF;
	tool_esc(buf, s, flags);
	ret = fputs(buf, f) == EOF ? EOF : 0;
	free(buf);
	return ret;
}

unsigned int tool_esc_locale(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs && strcmp(cs, "UTF-8") == 0 ? 0 : TOOL_ESC_ASCII;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int tool_unesc(char *p, const char *s)
{
	while (*s) {
		int hi, lo;

		if (*s != '\\') {
			*p++ = *s++;
			continue;
		}
		if (s[1] != 'x')
			return -EINVAL;
		hi = hexval(s[2]);
		lo = hi < 0 ? -1 : hexval(s[3]);
		if (lo < 0 || (hi | lo) == 0)
			return -EINVAL;
		*p++ = (char)(hi << 4 | lo);
		s += 4;
	}
	*p = '\0';
	return 0;
}

/* A CSV field must be quoted: it holds a separator, a quote or a line
 * break, or a reader could trim a blank at either end. */
static bool csv_quoted(const char *s)
{
	size_t len = strlen(s);

	return strpbrk(s, ",\"\r\n") ||
	       (len && (s[0] == ' ' || s[0] == '\t' ||
			s[len - 1] == ' ' || s[len - 1] == '\t'));
}

char *tool_csv(char *p, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	bool quote = csv_quoted(s);

	if (!quote) {		/* the usual name: nothing to do */
		const unsigned char *a = u;

		while (*a && *a < 0x80)
			a++;
		if (!*a)
			return stpcpy(p, s);
	}
	if (quote)
		*p++ = '"';
	while (*u) {
		size_t n;

		if (*u < 0x80) {
			if (*u == '"')
				*p++ = '"';
			*p++ = (char)*u++;
			continue;
		}
		n = tool_utf8_seq((const char *)u);
		if (n) {
			memcpy(p, u, n);
			p += n;
		} else {
			memcpy(p, "\xef\xbf\xbd", 3);
			p += 3;
			n = 1;
		}
		u += n;
	}
	if (quote)
		*p++ = '"';
	*p = '\0';
	return p;
}

int tool_fputs_csv(const char *s, FILE *f)
{
	char *buf = malloc(3 * strlen(s) + 3);
	int ret;

	if (!buf)
		return EOF;
	tool_csv(buf, s);
	ret = fputs(buf, f) == EOF ? EOF : 0;
	free(buf);
	return ret;
}

const char *tool_json_text(const char *s, char **buf, size_t *cap)
{
	size_t need;

	if (tool_utf8_valid(s))
		return s;
	need = 3 * strlen(s) + 1;
	if (need > *cap) {
		size_t c = *cap ? *cap : 64;
		char *b;

		while (c < need)
			c = c > SIZE_MAX / 2 ? need : 2 * c;
		b = realloc(*buf, c);
		if (!b)
			return NULL;
		*buf = b;
		*cap = c;
	}
	tool_utf8_repair_into(*buf, s);
	return *buf;
}

json_object *tool_json_str(const char *s)
{
	char *buf = NULL;
	size_t cap = 0;
	const char *t = tool_json_text(s, &buf, &cap);
	json_object *o = t ? json_object_new_string(t) : NULL;

	free(buf);
	return o;
}

char *tool_json_quote(char *p, const char *s)
{
	static const char *const named[0x23] = {
		['"'] = "\\\"", ['\b'] = "\\b", ['\n'] = "\\n", ['\r'] = "\\r",
		['\t'] = "\\t", ['\f'] = "\\f",
	};
	size_t n = strlen(s);

	*p++ = '"';
	if (tool_esc_plain(s, n) && !memchr(s, '"', n)) {
		memcpy(p, s, n);
		p += n;
	} else {
		for (const unsigned char *u = (const unsigned char *)s; *u; u++) {
			if (*u == '\\') {
				p = stpcpy(p, "\\\\");
			} else if (*u < 0x23 && named[*u]) {
				p = stpcpy(p, named[*u]);
			} else if (*u < 0x20) {
				p = stpcpy(p, "\\u00");
				*p++ = hex[*u >> 4];
				*p++ = hex[*u & 15];
			} else {
				*p++ = (char)*u;
			}
		}
	}
	*p++ = '"';
	*p = '\0';
	return p;
}
