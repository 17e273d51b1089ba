/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Well-formedness of likelytop's batch output, for the unit test and the
 * fuzz target: lt_check_output() takes what lt_out_write() printed for
 * rows[0..n) and says what is wrong with it, or returns 0.
 *   text  the summary, a blank line, the titles, then exactly one line per
 *         row and a blank line; no control byte but '\n'; valid UTF-8.
 *   csv   (iteration 1) the header, then one record per row with the
 *         header's 11 fields, RFC 4180 quoting (a quote only to open or
 *         close a field or doubled inside one); valid UTF-8; a name that
 *         was valid UTF-8 reads back unchanged.
 *   json  json-c's strict tokener with UTF-8 validation accepts it; an
 *         array of n objects; names that were valid UTF-8 read back
 *         unchanged; "reset" rows have no "rate".
 */
#ifndef LT_OUT_CHECK_H
#define LT_OUT_CHECK_H

#include <json-c/json.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "output.h"

#define LT_CSV_FIELDS 11

static int lt_check_fail(char *why, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int lt_check_fail(char *why, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, size, fmt, ap);
	va_end(ap);
	return -1;
}

/* Length of the valid UTF-8 sequence at s[0..len), 0 if invalid. */
static size_t lt_check_utf8_seq(const unsigned char *s, size_t len)
{
	unsigned char c = s[0];
	size_t n;
	unsigned int cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, cp = c & 0x07;
	else
		return 0;
	if (n > len)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

static bool lt_check_utf8(const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;

	for (size_t i = 0; i < len;) {
		size_t n = lt_check_utf8_seq(u + i, len - i);

		if (!n)
			return false;
		i += n;
	}
	return true;
}

static int lt_check_text(const char *buf, size_t len, size_t n, char *why,
			 size_t size)
{
	size_t lines = 0;

	if (!lt_check_utf8(buf, len))
		return lt_check_fail(why, size, "text: invalid UTF-8");
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)buf[i];

		if (c == '\n')
			lines++;
		else if (c < 0x20 || c == 0x7f)
			return lt_check_fail(why, size,
					     "text: control byte 0x%02x at %zu", c, i);
		else if (c == 0xc2 && i + 1 < len &&
			 (unsigned char)buf[i + 1] >= 0x80 &&
			 (unsigned char)buf[i + 1] < 0xa0)
			return lt_check_fail(why, size, "text: C1 control at %zu", i);
	}
	if (!len || buf[len - 1] != '\n')
		return lt_check_fail(why, size, "text: does not end in a newline");
	/* summary, blank, titles, rows, blank */
	if (lines != n + 4)
		return lt_check_fail(why, size, "text: %zu lines for %zu rows",
				     lines, n);
	if (len < 2 || buf[len - 2] != '\n')
		return lt_check_fail(why, size, "text: no blank line at the end");
	return 0;
}

/*
 * One CSV record from *p (RFC 4180): the fields' count, and the unquoted
 * text of fields 6 and 7 (function, file) copied into f6/f7 (size cap).
 */
static int lt_check_csv_record(const char **pp, const char *end, size_t *nf,
			       char *f6, char *f7, size_t cap, char *why,
			       size_t size)
{
	const char *p = *pp;

	*nf = 0;
	for (;;) {
		char *dst = *nf == 6 ? f6 : *nf == 7 ? f7 : NULL;
		size_t dl = 0;

		if (p < end && *p == '"') {
			for (p++;; p++) {
				if (p >= end)
					return lt_check_fail(why, size, "csv: unterminated quote");
				if (*p == '"') {
					if (p + 1 < end && p[1] == '"') {
						p++;
					} else {
						p++;
						break;
					}
				}
				if (dst && dl + 1 < cap)
					dst[dl++] = *p;
			}
		} else {
			for (; p < end && *p != ',' && *p != '\n'; p++) {
				if (*p == '"' || *p == '\r')
					return lt_check_fail(why, size,
							     "csv: bare %s in an unquoted field",
							     *p == '"' ? "quote" : "CR");
				if (dst && dl + 1 < cap)
					dst[dl++] = *p;
			}
		}
		if (dst)
			dst[dl] = '\0';
		(*nf)++;
		if (p >= end)
			return lt_check_fail(why, size, "csv: record not ended by a newline");
		if (*p == '\n') {
			*pp = p + 1;
			return 0;
		}
		if (*p != ',')
			return lt_check_fail(why, size, "csv: '%c' after a quoted field", *p);
		p++;
	}
}

static int lt_check_csv(const char *buf, size_t len,
			const struct kattr_profile_entry *const *rows, size_t n,
			bool header, char *why, size_t size)
{
	static char f6[1 << 16], f7[1 << 16];
	const char *p = buf, *end = buf + len;
	size_t nf, rec = 0;

	if (!lt_check_utf8(buf, len))
		return lt_check_fail(why, size, "csv: invalid UTF-8");
	while (p < end) {
		if (lt_check_csv_record(&p, end, &nf, f6, f7, sizeof(f6), why,
					size) < 0)
			return -1;
		if (nf != LT_CSV_FIELDS)
			return lt_check_fail(why, size, "csv: record %zu has %zu fields",
					     rec, nf);
		if (header && rec == 0) {
			rec++;
			continue;
		}
		if (rec - header >= n)
			return lt_check_fail(why, size, "csv: more records than rows");
		{
			const struct kattr_profile_entry *e = rows[rec - header];

			if (strlen(e->function) < sizeof(f6) - 1 &&
			    lt_check_utf8(e->function, strlen(e->function)) &&
			    strcmp(f6, e->function))
				return lt_check_fail(why, size, "csv: function '%s' read back as '%s'",
						     e->function, f6);
			if (strlen(e->file) < sizeof(f7) - 1 &&
			    lt_check_utf8(e->file, strlen(e->file)) &&
			    strcmp(f7, e->file))
				return lt_check_fail(why, size, "csv: file '%s' read back as '%s'",
						     e->file, f7);
		}
		rec++;
	}
	if (rec != n + header)
		return lt_check_fail(why, size, "csv: %zu records for %zu rows", rec, n);
	return 0;
}

static int lt_check_json(const char *buf, size_t len,
			 const struct kattr_profile_entry *const *rows, size_t n,
			 char *why, size_t size)
{
	struct json_tokener *tok = json_tokener_new();
	json_object *a;
	int ret = 0;

	if (!tok)
		return lt_check_fail(why, size, "json: no memory");
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	if (!len || buf[len - 1] != '\n' || memchr(buf, '\n', len) != buf + len - 1) {
		json_tokener_free(tok);
		return lt_check_fail(why, size, "json: not exactly one line");
	}
	a = json_tokener_parse_ex(tok, buf, (int)(len - 1));
	if (!a || json_tokener_get_error(tok) != json_tokener_success ||
	    json_tokener_get_parse_end(tok) != len - 1) {
		ret = lt_check_fail(why, size, "json: does not parse: %s",
				    json_tokener_error_desc(json_tokener_get_error(tok)));
		goto out;
	}
	if (!json_object_is_type(a, json_type_array) ||
	    json_object_array_length(a) != n) {
		ret = lt_check_fail(why, size, "json: not an array of %zu objects", n);
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		json_object *o = json_object_array_get_idx(a, i), *v;
		const struct kattr_profile_entry *e = rows[i];
		const char *name[2] = { "function", "file" };
		const char *want[2] = { e->function, e->file };

		for (int k = 0; k < 2; k++) {
			if (!json_object_object_get_ex(o, name[k], &v) ||
			    !json_object_is_type(v, json_type_string)) {
				ret = lt_check_fail(why, size, "json: row %zu: no %s", i, name[k]);
				goto out;
			}
			if (lt_check_utf8(want[k], strlen(want[k])) &&
			    strcmp(json_object_get_string(v), want[k])) {
				ret = lt_check_fail(why, size, "json: row %zu: %s changed", i, name[k]);
				goto out;
			}
		}
		if (json_object_object_get_ex(o, "reset", &v) !=
		    e->reset || (e->reset && json_object_object_get_ex(o, "rate", NULL))) {
			ret = lt_check_fail(why, size, "json: row %zu: reset/rate wrong", i);
			goto out;
		}
	}
out:
	json_object_put(a);
	json_tokener_free(tok);
	return ret;
}

/* What lt_out_write(f, meta, rows, n) printed: 0, or -1 with why set. */
static inline int lt_check_output(enum lt_out_format f,
				  const struct lt_out_meta *meta,
				  const char *buf, size_t len,
				  const struct kattr_profile_entry *const *rows,
				  size_t n, char *why, size_t size)
{
	switch (f) {
	case LT_OUT_CSV:
		return lt_check_csv(buf, len, rows, n, meta->iteration <= 1, why, size);
	case LT_OUT_JSON:
		return lt_check_json(buf, len, rows, n, why, size);
	default:
		return lt_check_text(buf, len, n, why, size);
	}
}

#endif
