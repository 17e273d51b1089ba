// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * likelytop --callers -p PID: the PID.callers file liblikelyprof writes,
 * and a function's parameters in its source (callers_user.h).  Pure: no I/O.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callers_user.h"

#define MAGIC "likely_prof callers 1"

/* A field, unescaped (\\, \t, \n), malloc'ed; NULL on a bad escape. */
static char *unescape(const char *s, size_t len)
{
	char *out = malloc(len + 1), *o = out;

	if (!out)
		return NULL;
	for (size_t i = 0; i < len; i++) {
		if (s[i] != '\\') {
			*o++ = s[i];
			continue;
		}
		if (++i == len || (s[i] != '\\' && s[i] != 't' && s[i] != 'n')) {
			free(out);
			return NULL;
		}
		*o++ = s[i] == 't' ? '\t' : s[i] == 'n' ? '\n' : '\\';
	}
	*o = '\0';
	return out;
}

static bool number(const char *s, size_t len, int base, uint64_t max, uint64_t *v)
{
	char buf[24], *end;
	unsigned long long x;

	if (!len || len >= sizeof(buf) || s[0] == '-' || s[0] == '+' || s[0] == ' ')
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	x = strtoull(buf, &end, base);
	if (errno || *end || x > max)
		return false;
	*v = x;
	return true;
}

/* One line of 8 tab-separated fields into r: 0 or -EINVAL/-ENOMEM. */
static int parse_line(const char *l, size_t len, struct lt_ucaller_row *r)
{
	const char *f[8];
	size_t fl[8], k = 0;
	uint64_t line;

	f[0] = l;
	for (size_t i = 0; i < len; i++)
		if (l[i] == '\t') {
			if (++k == 8)
				return -EINVAL;
			fl[k - 1] = (size_t)(l + i - f[k - 1]);
			f[k] = l + i + 1;
		}
	if (k != 7)
		return -EINVAL;
	fl[7] = (size_t)(l + len - f[7]);
	if (fl[0] == 6 && !memcmp(f[0], "likely", 6))
		r->likely = 1;
	else if (fl[0] == 8 && !memcmp(f[0], "unlikely", 8))
		r->likely = 0;
	else
		return -EINVAL;
	if (!number(f[1], fl[1], 10, UINT64_MAX, &r->t) ||
	    !number(f[2], fl[2], 10, UINT64_MAX, &r->f) ||
	    !number(f[5], fl[5], 10, 10000000, &line) ||
	    fl[7] < 3 || f[7][0] != '0' || f[7][1] != 'x' ||
	    !number(f[7] + 2, fl[7] - 2, 16, UINT64_MAX, &r->off))
		return -EINVAL;
	r->line = (unsigned int)line;
	r->func = unescape(f[3], fl[3]);
	r->file = unescape(f[4], fl[4]);
	r->object = unescape(f[6], fl[6]);
	return r->func && r->file && r->object ? 0 : -EINVAL;
}

int lt_ucallers_parse(const char *text, size_t len, struct lt_ucaller_row **rows,
		      size_t *n, size_t *bad_line)
{
	const char *p = text, *end = text + len, *nl;
	size_t cap = 0, lineno = 1;
	int ret = 0;

	*rows = NULL;
	*n = 0;
	*bad_line = 1;
	nl = memchr(p, '\n', len);
	if (!nl || (size_t)(nl - p) != strlen(MAGIC) || memcmp(p, MAGIC, strlen(MAGIC)))
		return -EINVAL;
	for (p = nl + 1; p < end && ret == 0; p = nl + 1) {
		lineno++;
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			break;	/* a last line without its newline: cut, not read */
		if (*n == cap) {
			void *g = realloc(*rows, (cap = cap ? 2 * cap : 16) * sizeof(**rows));

			if (!g) {
				ret = -ENOMEM;
				break;
			}
			*rows = g;
		}
		memset(&(*rows)[*n], 0, sizeof(**rows));
		ret = parse_line(p, (size_t)(nl - p), &(*rows)[*n]);
		(*n)++;
	}
	if (ret < 0) {
		*bad_line = lineno;
		lt_ucallers_free(*rows, *n);
		*rows = NULL;
		*n = 0;
	}
	return ret;
}

void lt_ucallers_free(struct lt_ucaller_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(rows[i].func);
		free(rows[i].file);
		free(rows[i].object);
	}
	free(rows);
}

/* The width of a parameter's type: pointers and longs 64, int 32, ... */
static void param_type(const char *t, size_t len, int *bits, bool *sign)
{
	char buf[256];

	snprintf(buf, sizeof(buf), "%.*s", (int)(len < 255 ? len : 255), t);
	*sign = !strstr(buf, "unsigned") && !strstr(buf, "size_t") &&
		!strstr(buf, "uint") && !strstr(buf, "u32") && !strstr(buf, "u16") &&
		!strstr(buf, "u8") && !strstr(buf, "bool");
	if (strchr(buf, '*') || strstr(buf, "long") || strstr(buf, "size_t") ||
	    strstr(buf, "64") || strstr(buf, "ptr"))
		*bits = 64, *sign = false;
	else if (strstr(buf, "short") || strstr(buf, "16"))
		*bits = 16;
	else if (strstr(buf, "char") || strstr(buf, "bool") || strstr(buf, "8"))
		*bits = 8;
	else if (strstr(buf, "int") || strstr(buf, "32") || strstr(buf, "unsigned"))
		*bits = 32;
	else
		*bits = 64;
}

/* In the parameter list p (len bytes, without its parentheses), the
 * position (1...) of the parameter named var, and its width. */
static int param_index(const char *p, size_t len, const char *var, int *bits,
		       bool *sign)
{
	size_t start = 0, depth = 0;
	int idx = 1;

	for (size_t i = 0; i <= len; i++) {
		size_t e = i, b;
		const char *star;
		bool array = false;

		if (i < len && (p[i] == '(' || p[i] == '[')) {
			depth++;
			continue;
		}
		if (i < len && (p[i] == ')' || p[i] == ']')) {
			depth -= depth > 0;
			continue;
		}
		if (i < len && (p[i] != ',' || depth))
			continue;
		while (e > start && isspace((unsigned char)p[e - 1]))
			e--;
		if (e > start && p[e - 1] == ']') {	/* an array: before its '[' */
			array = true;
			while (e > start && p[e - 1] != '[')
				e--;
			e -= e > start;
			while (e > start && isspace((unsigned char)p[e - 1]))
				e--;
		}
		star = memmem(p + start, e - start, "(*", 2);
		if (star) {	/* a function pointer: (*name)(...) */
			b = (size_t)(star + 2 - p);
			for (e = b; e < i && (isalnum((unsigned char)p[e]) || p[e] == '_'); e++)
				;
		} else {
			b = e;
			while (b > start && (isalnum((unsigned char)p[b - 1]) || p[b - 1] == '_'))
				b--;
		}
		if (e - b == strlen(var) && !memcmp(p + b, var, e - b)) {
			if (star || array)	/* a pointer */
				*bits = 64, *sign = false;
			else
				param_type(p + start, b - start, bits, sign);
			return idx;
		}
		idx++;
		start = i + 1;
	}
	return 0;
}

/* The definition of fn in text: its parameter list (between its parens). */
static const char *find_params(const char *text, size_t len, const char *fn,
			       size_t *plen)
{
	size_t fl = strlen(fn);

	for (const char *p = text; (p = memmem(p, len - (size_t)(p - text), fn, fl)); p++) {
		const char *q = p + fl, *close;
		int depth = 1;

		if ((p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_')))
			continue;
		while (q < text + len && isspace((unsigned char)*q))
			q++;
		if (q >= text + len || *q != '(')
			continue;
		for (close = q + 1; close < text + len && depth; close++)
			depth += *close == '(' ? 1 : *close == ')' ? -1 : 0;
		if (depth)
			return NULL;
		*plen = (size_t)(close - 1 - (q + 1));
		while (close < text + len && isspace((unsigned char)*close))
			close++;
		if (close < text + len && *close == '{')
			return q + 1;
	}
	return NULL;
}

int lt_ucallers_param(const char *text, size_t len, const char *fn,
		      const char *var, int *bits, bool *sign)
{
	size_t plen;
	const char *params = find_params(text, len, fn, &plen);

	*bits = 64;
	*sign = false;
	return params ? param_index(params, plen, var, bits, sign) : 0;
}
