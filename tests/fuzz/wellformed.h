/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Well-formedness of the tools' JSON and CSV, for the fuzz targets and the
 * unit tests (rgctl's --json documents, splicebench's --format json/csv).
 *   wf_json  json-c's strict tokener with UTF-8 validation parses all of
 *            buf but a final newline (and one line only when asked); the
 *            value is returned for the caller's checks.
 *   wf_csv   RFC 4180: a quote only opens or closes a field or is doubled
 *            inside one, no bare CR, every record ended by '\n' and with
 *            the same number of fields; valid UTF-8.
 * Each returns 0, or -1 with why set.
 */
#ifndef KATTR_TESTS_WELLFORMED_H
#define KATTR_TESTS_WELLFORMED_H

#include <json-c/json.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static inline int wf_fail(char *why, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static inline int wf_fail(char *why, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, size, fmt, ap);
	va_end(ap);
	return -1;
}

/* Valid UTF-8 (no overlong form, surrogate or code point past U+10FFFF)? */
static inline bool wf_utf8(const char *buf, size_t len)
{
	const unsigned char *s = (const unsigned char *)buf;

	for (size_t i = 0; i < len;) {
		unsigned char c = s[i];
		size_t n;
		unsigned int cp;

		if (c < 0x80) {
			i++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf)
			n = 2, cp = c & 0x1f;
		else if (c >= 0xe0 && c <= 0xef)
			n = 3, cp = c & 0x0f;
		else if (c >= 0xf0 && c <= 0xf4)
			n = 4, cp = c & 0x07;
		else
			return false;
		if (n > len - i)
			return false;
		for (size_t k = 1; k < n; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return false;
			cp = cp << 6 | (s[i + k] & 0x3f);
		}
		if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
		    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return false;
		i += n;
	}
	return true;
}

static inline int wf_json(const char *buf, size_t len, bool one_line,
		   json_object **out, char *why, size_t size)
{
	struct json_tokener *tok = json_tokener_new();
	json_object *v;

	*out = NULL;
	if (!tok)
		return wf_fail(why, size, "json: no memory");
	if (!len || buf[len - 1] != '\n') {
		json_tokener_free(tok);
		return wf_fail(why, size, "json: does not end in a newline");
	}
	if (one_line && memchr(buf, '\n', len) != buf + len - 1) {
		json_tokener_free(tok);
		return wf_fail(why, size, "json: more than one line");
	}
	if (!wf_utf8(buf, len)) {
		json_tokener_free(tok);
		return wf_fail(why, size, "json: invalid UTF-8");
	}
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	v = json_tokener_parse_ex(tok, buf, (int)(len - 1));
	if (!v || json_tokener_get_error(tok) != json_tokener_success ||
	    json_tokener_get_parse_end(tok) != len - 1) {
		int ret = wf_fail(why, size, "json: does not parse: %s",
				  json_tokener_error_desc(json_tokener_get_error(tok)));

		json_object_put(v);
		json_tokener_free(tok);
		return ret;
	}
	json_tokener_free(tok);
	*out = v;
	return 0;
}

/*
 * One record from *pp: its field count; each field i < nkept with a
 * buffer kept[i] unquoted into it (NUL-terminated, cut at cap).
 */
static inline int wf_csv_record(const char **pp, const char *end, size_t *nf,
			 char *const *kept, size_t nkept, size_t cap,
			 char *why, size_t size)
{
	const char *p = *pp;

	*nf = 0;
	for (;;) {
		char *dst = *nf < nkept ? kept[*nf] : NULL;
		size_t dl = 0;

		if (p < end && *p == '"') {
			for (p++;; p++) {
				if (p >= end)
					return wf_fail(why, size, "csv: unterminated quote");
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
					return wf_fail(why, size, "csv: bare %s in an unquoted field",
						       *p == '"' ? "quote" : "CR");
				if (dst && dl + 1 < cap)
					dst[dl++] = *p;
			}
		}
		if (dst)
			dst[dl] = '\0';
		(*nf)++;
		if (p >= end)
			return wf_fail(why, size, "csv: record not ended by a newline");
		if (*p == '\n') {
			*pp = p + 1;
			return 0;
		}
		if (*p != ',')
			return wf_fail(why, size, "csv: '%c' after a quoted field", *p);
		p++;
	}
}

/* buf holds records of fields fields each; *records gets their count. */
static inline int wf_csv(const char *buf, size_t len, size_t fields, size_t *records,
		  char *why, size_t size)
{
	const char *p = buf, *end = buf + len;
	size_t nf;

	*records = 0;
	if (!wf_utf8(buf, len))
		return wf_fail(why, size, "csv: invalid UTF-8");
	while (p < end) {
		if (wf_csv_record(&p, end, &nf, NULL, 0, 0, why, size) < 0)
			return -1;
		if (nf != fields)
			return wf_fail(why, size, "csv: record %zu has %zu fields, not %zu",
				       *records, nf, fields);
		(*records)++;
	}
	return 0;
}

#endif
