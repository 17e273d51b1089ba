/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * splicebench's CSV and JSON reports, rendered from a report and checked
 * (for fuzz_sb_output.c and test_sb_output.c): the CSV is RFC 4180 with the
 * header's 25 fields in every record, one record per baseline and result,
 * and an error message that was valid UTF-8 reads back unchanged; the JSON
 * parses strictly as UTF-8, with one result per point, and strings that
 * were valid UTF-8 read back unchanged; the text table (default, and raw
 * rows of every column) is valid UTF-8 with no control byte but the line
 * ends, and the raw rows are one line per point.  0, or -1 with why set.
 */
#ifndef KATTR_TESTS_SB_OUTPUT_CHECK_H
#define KATTR_TESTS_SB_OUTPUT_CHECK_H

#include <stdlib.h>

#include "sb.h"
#include "output/output.h"
#include "wellformed.h"

#define SB_CSV_FIELDS 25
#define SB_CSV_ERROR 19	/* the error field; samples, version, command... follow */

static inline char *sbc_render(const struct sb_report *rep, bool json, size_t *len)
{
	char *buf = NULL;
	FILE *fp = open_memstream(&buf, len);

	if (!fp)
		return NULL;
	if (json)
		sb_output_json(fp, rep);
	else
		sb_output_csv(fp, rep);
	if (fclose(fp) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static inline bool sbc_same(const char *want, json_object *v)
{
	/* a string the report held as valid UTF-8 must come back as it was */
	if (!wf_utf8(want, strlen(want)))
		return true;
	if (!*want)
		return true;	/* empty facts are null */
	return v && json_object_is_type(v, json_type_string) &&
	       !strcmp(json_object_get_string(v), want);
}

static inline int sbc_check_csv(const struct sb_report *rep, const char *buf,
			 size_t len, char *why, size_t size)
{
	static char err[4096];
	char *kept[SB_CSV_ERROR + 1] = { [SB_CSV_ERROR] = err };
	const char *p = buf, *end = buf + len;
	size_t records;

	if (wf_csv(buf, len, SB_CSV_FIELDS, &records, why, size) < 0)
		return -1;
	if (records != 4 + (size_t)rep->nres)	/* header, 3 baselines */
		return wf_fail(why, size, "csv: %zu records for %d results",
			       records, rep->nres);
	for (size_t rec = 0; p < end; rec++) {
		size_t nf;

		wf_csv_record(&p, end, &nf, kept, SB_CSV_ERROR + 1, sizeof(err),
			      why, size);
		if (rec < 4)	/* the header and the 3 baselines */
			continue;
		const struct sb_result *r = &rep->res[rec - 4];

		if (r->failed && wf_utf8(r->why, strlen(r->why)) &&
		    strcmp(err, r->why))
			return wf_fail(why, size, "csv: error '%s' read back as '%s'",
				       r->why, err);
		if (!r->failed && *err)
			return wf_fail(why, size, "csv: an error on a measured point");
	}
	return 0;
}

static inline int sbc_check_json(const struct sb_report *rep, const char *buf,
			  size_t len, char *why, size_t size)
{
	json_object *root, *sys, *res, *v;
	int ret = 0;

	if (wf_json(buf, len, false, &root, why, size) < 0)
		return -1;
	if (!json_object_object_get_ex(root, "system", &sys) ||
	    !json_object_object_get_ex(root, "results", &res) ||
	    !json_object_is_type(res, json_type_array) ||
	    json_object_array_length(res) != (size_t)rep->nres) {
		ret = wf_fail(why, size, "json: no system, or not %d results", rep->nres);
		goto out;
	}
	json_object_object_get_ex(sys, "cpu_model", &v);
	if (!sbc_same(rep->facts.cpu_model, v)) {
		ret = wf_fail(why, size, "json: cpu_model changed");
		goto out;
	}
	json_object_object_get_ex(sys, "kernel_release", &v);
	if (!sbc_same(rep->facts.kernel_release, v)) {
		ret = wf_fail(why, size, "json: kernel_release changed");
		goto out;
	}
	for (int i = 0; i < rep->nres; i++) {
		json_object *o = json_object_array_get_idx(res, (size_t)i);

		if (!rep->res[i].failed)
			continue;
		v = NULL;
		json_object_object_get_ex(o, "error", &v);
		if (!v || !json_object_is_type(v, json_type_string) ||
		    (wf_utf8(rep->res[i].why, strlen(rep->res[i].why)) &&
		     strcmp(json_object_get_string(v), rep->res[i].why))) {
			ret = wf_fail(why, size, "json: result %d: error changed", i);
			goto out;
		}
	}
out:
	json_object_put(root);
	return ret;
}

/* The text table: well-formed lines (see the top); raw rows counted. */
static inline int sbc_check_text(const struct sb_report *rep, bool raw,
				 char *why, size_t size)
{
	struct sb_table_opts t = { .raw = raw, .noheadings = raw };
	char *buf = NULL;
	size_t len = 0, lines = 0;
	FILE *fp = open_memstream(&buf, &len);
	int ret = 0;

	if (!fp)
		return 0;	/* out of memory */
	if (raw)
		sb_columns_all(&t);
	sb_output_text(fp, rep, &t);
	if (fclose(fp) != 0) {
		free(buf);
		return 0;
	}
	if (!wf_utf8(buf, len))
		ret = wf_fail(why, size, "text: invalid UTF-8");
	for (size_t i = 0; !ret && i < len; i++) {
		unsigned char c = (unsigned char)buf[i];

		if (c == '\n')
			lines++;
		else if (c < 0x20 || c == 0x7f ||
			 (c == 0xc2 && i + 1 < len && (unsigned char)buf[i + 1] < 0xa0))
			ret = wf_fail(why, size, "text: control byte 0x%02x at %zu", c, i);
	}
	if (!ret && len && buf[len - 1] != '\n')
		ret = wf_fail(why, size, "text: the last line has no end");
	if (!ret && raw && lines != (size_t)rep->nres)
		ret = wf_fail(why, size, "text: %zu raw lines for %d points", lines, rep->nres);
	free(buf);
	return ret;
}

/* Render rep as CSV, JSON and text and check each. */
static inline int sbc_check(const struct sb_report *rep, char *why, size_t size)
{
	if (sbc_check_text(rep, false, why, size) < 0 ||
	    sbc_check_text(rep, true, why, size) < 0)
		return -1;
	for (int json = 0; json < 2; json++) {
		size_t len = 0;
		char *buf = sbc_render(rep, json, &len);
		int ret;

		if (!buf)
			continue;	/* out of memory */
		ret = json ? sbc_check_json(rep, buf, len, why, size) :
			     sbc_check_csv(rep, buf, len, why, size);
		free(buf);
		if (ret < 0)
			return -1;
	}
	return 0;
}

#endif
