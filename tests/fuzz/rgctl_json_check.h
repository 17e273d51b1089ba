/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rgctl's outputs made from arbitrary bytes and checked, for
 * fuzz_rgctl_json.c and tests/rgctl/test_json.c.  The input is cut at NUL
 * bytes into strings: group names, stat keys, comm, a whereis answer; the
 * documents of list, stats, members, whereis and stats --delay are
 * rendered (src/rgctl/json.c) and must each be one line that json-c's
 * strict tokener accepts as UTF-8, with every string that was valid UTF-8
 * read back unchanged.  dump's text (kattr_rgconf_format()) of groups whose
 * names rgctl accepts must parse back to the same names.  The text form of
 * every string (tool_esc() with each of its flags: what list, whereis,
 * stats and stats --delay print) must be valid UTF-8 without a control
 * byte, and decode back to the string: differing names never print the
 * same.  stats --format openmetrics of the same figures (any units,
 * devices, two groups) must be valid UTF-8, each sample named as a metric,
 * each family declared once, and end with "# EOF".
 */
#ifndef KATTR_TESTS_RGCTL_JSON_CHECK_H
#define KATTR_TESTS_RGCTL_JSON_CHECK_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "kattr/kattr.h"
#include "kattr/rgconf.h"
#include "kattr/private.h"
#include "rgctl.h"
#include "rgctl_stats.h"
#include "wellformed.h"

#define RGC_MAX 16

struct rgc_in {
	char *s[RGC_MAX];	/* the strings */
	size_t n;
	long long num[RGC_MAX];
	char *copy;
};

static inline void rgc_split(struct rgc_in *in, const uint8_t *data, size_t size)
{
	char *p, *end;

	memset(in, 0, sizeof(*in));
	in->copy = malloc(size + 1);
	if (!in->copy)
		return;
	memcpy(in->copy, data, size);
	in->copy[size] = '\0';
	p = in->copy;
	end = in->copy + size;
	while (in->n < RGC_MAX) {
		size_t l = strlen(p);

		unsigned long long v = 0;

		/* the bytes as an unsigned number, then any long long */
		for (size_t k = 0; k < l && k < 8; k++)
			v = v << 8 | (unsigned char)p[k];
		in->num[in->n] = (long long)v;
		in->s[in->n++] = p;
		if (p + l >= end)
			break;
		p += l + 1;
	}
}

/* json's text; its strings that were valid UTF-8 in want[] appear. */
static inline int rgc_parse(json_object *doc, json_object **out, char *why, size_t size)
{
	const char *text = rgctl_json_text(doc);
	size_t len = strlen(text);
	char *line = malloc(len + 2);
	int ret;

	if (!line)
		return wf_fail(why, size, "no memory");
	memcpy(line, text, len);
	line[len] = '\n';
	line[len + 1] = '\0';
	ret = wf_json(line, len + 1, true, out, why, size);
	free(line);
	return ret;
}

static inline bool rgc_same(json_object *v, const char *want)
{
	if (!tool_utf8_valid(want))
		return v && json_object_is_type(v, json_type_string);
	return v && json_object_is_type(v, json_type_string) &&
	       !strcmp(json_object_get_string(v), want);
}

static inline int rgc_list(const struct rgc_in *in, char *why, size_t size)
{
	struct kattr_rg_info v[RGC_MAX];
	struct kattr_rg_share sh[RGC_MAX];
	char *miss[RGC_MAX];
	struct rgctl_json_hier h = {
		.backend = in->s[0], .root = in->s[in->n - 1],
		.shares_file = in->s[in->n / 2], .rgcs = in->num[0] & 1,
	};
	json_object *doc, *a, *g;
	int ret = 0;

	for (size_t i = 0; i < in->n; i++) {
		memset(&sh[i], 0, sizeof(sh[i]));
		snprintf(sh[i].res, sizeof(sh[i].res), "%s", in->s[in->n - 1 - i]);
		sh[i].value = in->num[i];
		sh[i].min_shares = -in->num[i];
		v[i].name = in->s[i];
		v[i].depth = (unsigned int)in->num[i];
		v[i].nr_tasks = in->num[i] & 2 ? -1 : in->num[i];
		v[i].shares = &sh[i];
		v[i].nr_shares = (size_t)(in->num[i] & 1);
		/* any bytes as "memory, pids" */
		miss[i] = in->num[i] & 4 ? in->s[in->n - 1 - i] : NULL;
	}
	doc = rgctl_json_list(&h, v, in->n, miss);
	if (rgc_parse(doc, &a, why, size) < 0) {
		json_object_put(doc);
		return -1;
	}
	json_object_put(doc);
	if (!json_object_object_get_ex(a, "groups", &g) ||
	    json_object_array_length(g) != in->n) {
		ret = wf_fail(why, size, "list: not %zu groups", in->n);
		goto out;
	}
	for (size_t i = 0; i < in->n; i++) {
		json_object *name;

		json_object_object_get_ex(json_object_array_get_idx(g, i), "name", &name);
		if (!rgc_same(name, in->s[i])) {
			ret = wf_fail(why, size, "list: group %zu: name changed", i);
			goto out;
		}
	}
out:
	json_object_put(a);
	return ret;
}

/* Each sample line's name a metric name; each family's TYPE once. */
static inline int rgc_metric_lines(char *text, char *why, size_t size)
{
	char *types[4 * RGC_MAX], *line, *save = NULL;
	size_t nt = 0;

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "# TYPE ", 7)) {
			*strchrnul(line + 7, ' ') = '\0';
			for (size_t k = 0; k < nt; k++)
				if (!strcmp(types[k], line + 7))
					return wf_fail(why, size, "metrics: %s declared twice", line + 7);
			if (nt < sizeof(types) / sizeof(*types))
				types[nt++] = line + 7;
		} else if (line[0] != '#') {
			*strchrnul(line, strchr(line, '{') ? '{' : ' ') = '\0';
			if (!tool_om_name_ok(line, false))
				return wf_fail(why, size, "metrics: '%s' is not a metric name", line);
		}
	}
	return 0;
}

static inline int rgc_metrics(const struct rgc_in *in, const struct kattr_rg_stat *v,
			      char *why, size_t size)
{
	struct kattr_rg_stat w[RGC_MAX];
	struct rgctl_om_group g[2] = {
		{ in->s[0], w, in->n }, { in->s[in->n - 1], w, in->n },
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	int ret;

	if (!fp)
		return wf_fail(why, size, "metrics: no memory");
	for (size_t i = 0; i < in->n; i++) {
		w[i] = v[i];
		w[i].unit = (enum kattr_rg_unit)((unsigned long long)in->num[i] % 5);
		w[i].counter = in->num[i] & 8;
		w[i].dev = in->num[i] & 16 ? in->s[(i + 2) % in->n] : NULL;
	}
	ret = rgctl_stats_om_write(fp, TOOL_OM_OPENMETRICS, g, 2);
	if (fclose(fp) != 0 || ret < 0 || !buf)
		ret = wf_fail(why, size, "metrics: not written (%d)", ret);
	else if (!tool_utf8_valid(buf))
		ret = wf_fail(why, size, "metrics: not valid UTF-8");
	else if (len < 6 || strcmp(buf + len - 6, "# EOF\n") != 0)
		ret = wf_fail(why, size, "metrics: no # EOF at the end");
	else
		ret = rgc_metric_lines(buf, why, size);
	free(buf);
	return ret;
}

static inline int rgc_stats(const struct rgc_in *in, char *why, size_t size)
{
	struct kattr_rg_stat v[RGC_MAX];
	json_object *doc, *a, *s;
	int ret = 0;

	memset(v, 0, sizeof(v));
	for (size_t i = 0; i < in->n; i++) {
		v[i].res = in->s[(i + 1) % in->n];
		v[i].key = in->s[i];
		v[i].value = in->num[i];
		v[i].has_value = !(in->num[i] & 4);
	}
	doc = rgctl_json_stats(in->s[0], in->s[in->n - 1], v, in->n);
	if (rgc_parse(doc, &a, why, size) < 0) {
		json_object_put(doc);
		return -1;
	}
	json_object_put(doc);
	if (!json_object_object_get_ex(a, "stats", &s) ||
	    !json_object_is_type(s, json_type_object))
		ret = wf_fail(why, size, "stats: no stats object");
	for (size_t i = 0; !ret && i < in->n; i++) {
		json_object *r, *k;

		if (!tool_utf8_valid(v[i].res) || !tool_utf8_valid(v[i].key))
			continue;
		if (!json_object_object_get_ex(s, v[i].res, &r) ||
		    !json_object_object_get_ex(r, v[i].key, &k))
			ret = wf_fail(why, size, "stats: %zu: key lost", i);
	}
	json_object_put(a);
	/* the figures array: one object per figure, valid whatever the bytes */
	if (!ret) {
		json_object *f;

		doc = json_object_new_object();
		json_object_object_add(doc, "figures", rgctl_json_figures(v, in->n, NULL));
		a = NULL;
		if (rgc_parse(doc, &a, why, size) < 0)
			ret = -1;
		else if (!json_object_object_get_ex(a, "figures", &f) ||
			 json_object_array_length(f) != in->n)
			ret = wf_fail(why, size, "figures: one per figure");
		json_object_put(a);
		json_object_put(doc);
	}
	return ret ? ret : rgc_metrics(in, v, why, size);
}

static inline int rgc_small(const struct rgc_in *in, char *why, size_t size)
{
	pid_t pids[RGC_MAX];
	struct kattr_rg_place pl[RGC_MAX];
	struct kattr_taskstats t;
	json_object *doc[3], *a, *v;
	int ret = 0;

	for (size_t i = 0; i < in->n; i++)
		pids[i] = (pid_t)in->num[i];
	memset(&t, 0, sizeof(t));
	snprintf(t.comm, sizeof(t.comm), "%s", in->s[in->n - 1]);
	memcpy(&t.cpu_count, &in->num[0], sizeof(t.cpu_count));
	memcpy(&t.cpu_delay_total, &in->num[in->n - 1], sizeof(t.cpu_delay_total));
	doc[0] = rgctl_json_members(in->s[0], in->num[0] & 1, pids, in->n, NULL, NULL);
	doc[1] = rgctl_json_whereis(pids[0], in->s[in->n - 1], in->s[0]);
	for (size_t i = 0; i < in->n; i++) {	/* whereis's places: any bytes */
		pl[i].hier = in->s[i];
		pl[i].group = in->num[i] & 1 ? NULL : in->s[in->n - 1 - i];
		pl[i].path = in->num[i] & 2 ? NULL : in->s[i];
	}
	json_object_object_add(doc[1], "hierarchies", rgctl_json_places(pl, in->n));
	doc[2] = rgctl_json_taskstats(pids[0], &t);
	for (int d = 0; d < 3; d++) {
		const char *key = d == 2 ? "comm" : "group";
		const char *want = d == 0 ? in->s[0] : d == 1 ? in->s[in->n - 1] : t.comm;

		if (rgc_parse(doc[d], &a, why, size) < 0) {
			ret = -1;
		} else {
			v = NULL;
			json_object_object_get_ex(a, key, &v);
			if (!(d == 2 && !*want) && !rgc_same(v, want))
				ret = wf_fail(why, size, "document %d: %s changed", d, key);
			json_object_put(a);
		}
		json_object_put(doc[d]);
		if (ret < 0) {
			while (++d < 3)
				json_object_put(doc[d]);
			break;
		}
	}
	return ret;
}

/* dump: groups with names rgctl accepts must read back. */
static inline int rgc_dump(const struct rgc_in *in, char *why, size_t size)
{
	struct kattr_rgconf_group g[RGC_MAX];
	static const char *const backends[] = { "cgroup1", "cgroup2", "rgcs", NULL };
	struct kattr_rgconf c = { .backend = (char *)backends[in->num[0] & 3], .groups = g };
	struct kattr_rgconf *back = NULL;
	char shares[RGC_MAX][24], err[256];
	struct kattr_why no = { 0 };
	char *text;
	int ret = 0;

	if (!WITH_LIBCONFIG)
		return 0;	/* no parser to read it back */
	memset(g, 0, sizeof(g));
	for (size_t i = 1; i < in->n; i++) {
		bool dup = false;

		if (kattr_name_check(in->s[i], &no) < 0)
			continue;
		const char *slash = strrchr(in->s[i], '/');
		bool parent = !slash;

		/* a listing has every parent before its children */
		for (size_t k = 0; k < c.ngroups; k++) {
			dup |= !strcmp(g[k].name, in->s[i]);
			parent |= slash && strlen(g[k].name) == (size_t)(slash - in->s[i]) &&
				  !strncmp(g[k].name, in->s[i], (size_t)(slash - in->s[i]));
		}
		if (dup || !parent)
			continue;
		snprintf(shares[i], sizeof(shares[i]), "%lld", in->num[i] & 0xffff);
		g[c.ngroups].name = in->s[i];
		g[c.ngroups++].shares = in->num[i] & 1 ? shares[i] : NULL;
	}
	text = kattr_rgconf_format(&c);
	if (!text)
		return 0;
	if (kattr_rgconf_parse_string(text, "dump", &back, &(struct kattr_why)KATTR_WHY_BUF(err)) < 0) {
		ret = wf_fail(why, size, "dump: does not read back: %s", err);
		free(text);
		return ret;
	}
	if (back->ngroups != c.ngroups)
		ret = wf_fail(why, size, "dump: %zu groups read back for %zu",
			      back->ngroups, c.ngroups);
	for (size_t i = 0; !ret && i < c.ngroups; i++)
		if (strcmp(back->groups[i].name, g[i].name))
			ret = wf_fail(why, size, "dump: group %zu changed", i);
	kattr_rgconf_free(back);
	free(text);
	return ret;
}

static inline int rgc_hex(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* The escape t of s with flags: no control byte, no space with
 * TOOL_ESC_BLANK, ASCII only with TOOL_ESC_ASCII, valid UTF-8; decoded
 * here and by tool_unesc() back to s; tool_esc_width() its columns. */
static inline int rgc_esc_one(const char *s, const char *t, unsigned int flags,
			      char *back, char *why, size_t size)
{
	size_t cols = 0;
	char *q = back;

	if (!wf_utf8(t, strlen(t)))
		return wf_fail(why, size, "text: invalid UTF-8 (flags %u)", flags);
	for (const char *p = t; *p; p++, cols++) {
		unsigned char c = (unsigned char)*p;

		if (c < 0x20 || c == 0x7f || (c == 0xc2 && (unsigned char)p[1] < 0xa0))
			return wf_fail(why, size, "text: control byte 0x%02x", c);
		if ((c == ' ' && (flags & TOOL_ESC_BLANK)) ||
		    (c >= 0x80 && (flags & TOOL_ESC_ASCII)))
			return wf_fail(why, size, "text: byte 0x%02x kept (flags %u)", c, flags);
		if (c >= 0x80) {	/* one column per character */
			size_t n = tool_utf8_seq(p);

			*q++ = *p;
			while (--n)
				*q++ = *++p;
		} else if (c != '\\') {
			*q++ = (char)c;
		} else if (p[1] != 'x' || rgc_hex(p[2]) < 0 || rgc_hex(p[3]) < 0) {
			return wf_fail(why, size, "text: a backslash that is no \\xNN");
		} else {
			*q++ = (char)(rgc_hex(p[2]) << 4 | rgc_hex(p[3]));
			p += 3;
			cols += 3;
		}
	}
	*q = '\0';
	if (strcmp(back, s) != 0)
		return wf_fail(why, size, "text: does not decode back (flags %u)", flags);
	if (cols != tool_esc_width(s, flags))
		return wf_fail(why, size, "text: %zu columns, tool_esc_width() says %zu",
			       cols, tool_esc_width(s, flags));
	if (tool_unesc(back, t) < 0 || strcmp(back, s) != 0)
		return wf_fail(why, size, "text: tool_unesc() does not give it back");
	return 0;
}

/* A cut escape (tool_esc_to()) is the start of the whole one, then "...". */
static inline int rgc_esc_cut(const char *s, const char *t, char *why, size_t size)
{
	char buf[24];
	size_t len = strlen(t), k;

	tool_esc_to(buf, sizeof(buf), s, 0);
	k = strlen(buf);
	if (len < sizeof(buf))
		return strcmp(buf, t) ? wf_fail(why, size, "text: tool_esc_to() cut a short name") : 0;
	if (k < 3 || strcmp(buf + k - 3, "...") || strncmp(buf, t, k - 3))
		return wf_fail(why, size, "text: tool_esc_to() gave '%s' for '%.30s'", buf, t);
	return 0;
}

/* Text: each string escaped with each set of flags, checked, and decoded
 * back, so that differing names never print the same. */
static inline int rgc_text(const struct rgc_in *in, char *why, size_t size)
{
	for (size_t i = 0; i < in->n; i++) {
		const char *s = in->s[i];
		size_t len = strlen(s);
		char *t = malloc(TOOL_ESC_SIZE(len)), *back = malloc(len + 1);
		int ret = 0;

		if (!t || !back) {
			free(t);
			free(back);
			return 0;
		}
		for (unsigned int flags = 0; !ret && flags < 4; flags++) {
			tool_esc(t, s, flags);
			ret = rgc_esc_one(s, t, flags, back, why, size);
			if (!ret && !flags)
				ret = rgc_esc_cut(s, t, why, size);
		}
		free(t);
		free(back);
		if (ret) {
			char inner[256];

			snprintf(inner, sizeof(inner), "%s", why);
			return wf_fail(why, size, "string %zu: %s", i, inner);
		}
	}
	return 0;
}

static inline int rgc_check(const uint8_t *data, size_t size, char *why, size_t wsize)
{
	struct rgc_in in;
	int ret;

	rgc_split(&in, data, size);
	if (!in.copy)
		return 0;
	ret = rgc_list(&in, why, wsize);
	if (!ret)
		ret = rgc_stats(&in, why, wsize);
	if (!ret)
		ret = rgc_small(&in, why, wsize);
	if (!ret)
		ret = rgc_dump(&in, why, wsize);
	if (!ret)
		ret = rgc_text(&in, why, wsize);
	free(in.copy);
	return ret;
}

#endif
