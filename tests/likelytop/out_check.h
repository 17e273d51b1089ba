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

#include <stdbool.h>
#include <string.h>

#include "output.h"
#include "wellformed.h"

#define LT_CSV_FIELDS 11

static int lt_check_text(const char *buf, size_t len, size_t n, char *why,
			 size_t size)
{
	size_t lines = 0;

	if (!wf_utf8(buf, len))
		return wf_fail(why, size, "text: invalid UTF-8");
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)buf[i];

		if (c == '\n')
			lines++;
		else if (c < 0x20 || c == 0x7f)
			return wf_fail(why, size,
					     "text: control byte 0x%02x at %zu", c, i);
		else if (c == 0xc2 && i + 1 < len &&
			 (unsigned char)buf[i + 1] >= 0x80 &&
			 (unsigned char)buf[i + 1] < 0xa0)
			return wf_fail(why, size, "text: C1 control at %zu", i);
	}
	if (!len || buf[len - 1] != '\n')
		return wf_fail(why, size, "text: does not end in a newline");
	/* summary, blank, titles, rows, blank */
	if (lines != n + 4)
		return wf_fail(why, size, "text: %zu lines for %zu rows",
				     lines, n);
	if (len < 2 || buf[len - 2] != '\n')
		return wf_fail(why, size, "text: no blank line at the end");
	return 0;
}

static int lt_check_csv(const char *buf, size_t len,
			const struct kattr_profile_entry *const *rows, size_t n,
			bool header, char *why, size_t size)
{
	static char f6[1 << 16], f7[1 << 16];
	char *kept[8] = { [6] = f6, [7] = f7 };
	const char *p = buf, *end = buf + len;
	size_t nf, rec = 0;

	if (!wf_utf8(buf, len))
		return wf_fail(why, size, "csv: invalid UTF-8");
	while (p < end) {
		if (wf_csv_record(&p, end, &nf, kept, 8, sizeof(f6), why, size) < 0)
			return -1;
		if (nf != LT_CSV_FIELDS)
			return wf_fail(why, size, "csv: record %zu has %zu fields",
					     rec, nf);
		if (header && rec == 0) {
			rec++;
			continue;
		}
		if (rec - header >= n)
			return wf_fail(why, size, "csv: more records than rows");
		{
			const struct kattr_profile_entry *e = rows[rec - header];

			if (strlen(e->function) < sizeof(f6) - 1 &&
			    wf_utf8(e->function, strlen(e->function)) &&
			    strcmp(f6, e->function))
				return wf_fail(why, size, "csv: function '%s' read back as '%s'",
						     e->function, f6);
			if (strlen(e->file) < sizeof(f7) - 1 &&
			    wf_utf8(e->file, strlen(e->file)) &&
			    strcmp(f7, e->file))
				return wf_fail(why, size, "csv: file '%s' read back as '%s'",
						     e->file, f7);
		}
		rec++;
	}
	if (rec != n + header)
		return wf_fail(why, size, "csv: %zu records for %zu rows", rec, n);
	return 0;
}

static int lt_check_json(const char *buf, size_t len,
			 const struct kattr_profile_entry *const *rows, size_t n,
			 char *why, size_t size)
{
	json_object *a;
	int ret = 0;

	if (wf_json(buf, len, true, &a, why, size) < 0)
		return -1;
	if (!json_object_is_type(a, json_type_array) ||
	    json_object_array_length(a) != n) {
		ret = wf_fail(why, size, "json: not an array of %zu objects", n);
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
				ret = wf_fail(why, size, "json: row %zu: no %s", i, name[k]);
				goto out;
			}
			if (wf_utf8(want[k], strlen(want[k])) &&
			    strcmp(json_object_get_string(v), want[k])) {
				ret = wf_fail(why, size, "json: row %zu: %s changed", i, name[k]);
				goto out;
			}
		}
		if (json_object_object_get_ex(o, "reset", &v) !=
		    e->reset || (e->reset && json_object_object_get_ex(o, "rate", NULL))) {
			ret = wf_fail(why, size, "json: row %zu: reset/rate wrong", i);
			goto out;
		}
	}
out:
	json_object_put(a);
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
