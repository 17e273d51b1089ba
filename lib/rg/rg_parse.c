// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Resource groups: the pure part (no I/O).  Names, pids, shares values and
 * the text the three backends print, so all of it is unit-tested and
 * fuzzed on its own.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kattr/rg.h"
#include "kattr/private_rg.h"
#include "rg_internal.h"

static const char *const backend_names[] = {
	[KATTR_RG_AUTO] = "auto",
	[KATTR_RG_RGCS] = "rgcs",
	[KATTR_RG_CGROUP1] = "cgroup1",
	[KATTR_RG_CGROUP2] = "cgroup2",
};

const char *kattr_rg_backend_name(enum kattr_rg_backend b)
{
	if ((unsigned int)b >= sizeof(backend_names) / sizeof(backend_names[0]))
		return "unknown";
	return backend_names[b];
}

int kattr_rg_backend_parse(const char *name, enum kattr_rg_backend *out)
{
	for (unsigned int i = 0;
	     i < sizeof(backend_names) / sizeof(backend_names[0]); i++) {
		if (name && strcmp(name, backend_names[i]) == 0) {
			*out = (enum kattr_rg_backend)i;
			return 0;
		}
	}
	return -EINVAL;
}

bool kattr_rg_name_is_root(const char *group)
{
	return !group || !group[0] || strcmp(group, "/") == 0;
}

int kattr_rg_name_check(const char *group, bool allow_root,
			struct kattr_why *why)
{
	if (kattr_rg_name_is_root(group))
		return allow_root ? 0 : kattr_why_set(why, KATTR_WHY_INVALID, -EINVAL,
						      "this is the root group");
	return kattr_name_check(group, why);
}

unsigned int kattr_rg_name_depth(const char *group)
{
	unsigned int d = 1;

	if (kattr_rg_name_is_root(group))
		return 0;
	for (const char *p = group; *p; p++)
		if (*p == '/' && p[1])
			d++;
	return d;
}

/* "010", "-01": a leading zero, which strtol base 0 (RGCS) reads as octal. */
static bool octal_looking(const char *s, size_t len)
{
	if (len && s[0] == '-') {
		s++;
		len--;
	}
	return len > 1 && s[0] == '0';
}

static int parse_cgroup(const char *value, long long lo, long long hi,
			struct kattr_rg_share *out, const char **why)
{
	long long v;
	int ret = kattr_parse_ll(value, strlen(value), true, &v);

	if (ret == 0 && octal_looking(value, strlen(value))) {
		*why = "a leading 0 is refused (it reads as octal elsewhere): write the number without it";
		return -EINVAL;
	}
	if (ret == -EINVAL) {
		*why = "not a decimal integer";
		return ret;
	}
	if (ret < 0 || v < lo || v > hi) {
		*why = "out of range";
		return -ERANGE;
	}
	snprintf(out->res, sizeof(out->res), "cpu");
	out->value = v;
	return 0;
}

static const char *const rgcs_keys[] = {
	"min_shares", "max_shares", "child_shares_divisor",
};

static bool valid_res_name(const char *s, size_t len)
{
	if (!len || len >= sizeof(((struct kattr_rg_share *)0)->res))
		return false;
	for (size_t i = 0; i < len; i++)
		if (!islower((unsigned char)s[i]) &&
		    !isdigit((unsigned char)s[i]) && s[i] != '_')
			return false;
	return true;
}

/* One "res=NAME" token into res; 0 or -EINVAL with *why. */
static int rgcs_res_token(const char *name, size_t len, char *res,
			  size_t res_size, const char **why)
{
	if (res[0]) {
		*why = "res= given twice";
		return -EINVAL;
	}
	if (!valid_res_name(name, len) || len >= res_size) {
		*why = "res= needs a controller name such as cpu or numtasks";
		return -EINVAL;
	}
	memcpy(res, name, len);
	res[len] = '\0';
	return 0;
}

/* One "KEY=VALUE" token of the three shares keys into vals/set. */
static int rgcs_key_token(const char *p, size_t klen, const char *v,
			  size_t vlen, long long vals[3], bool set[3],
			  const char **why)
{
	unsigned int k;

	for (k = 0; k < 3; k++)
		if (strlen(rgcs_keys[k]) == klen &&
		    memcmp(p, rgcs_keys[k], klen) == 0)
			break;
	if (k == 3) {
		*why = "unknown key (RGCS knows res, min_shares, max_shares, child_shares_divisor)";
		return -EINVAL;
	}
	if (set[k]) {
		*why = "a key is given twice";
		return -EINVAL;
	}
	if (kattr_parse_ll(v, vlen, true, &vals[k]) == -EINVAL) {
		*why = "a value is not a decimal integer";
		return -EINVAL;
	}
	if (octal_looking(v, vlen)) {
		*why = "a value has a leading 0 (RGCS would read it as octal): write it without";
		return -EINVAL;
	}
	if (vlen > 11 || vals[k] > INT_MAX || vals[k] < KATTR_RG_DONT_CARE) {
		*why = "a value is out of range (-3, -2, -1 or 0..2147483647)";
		return -ERANGE;
	}
	set[k] = true;
	return 0;
}

/* Parse "res=..,min_shares=..,.." into res and the three values. */
static int parse_rgcs_value(const char *value, char *res, size_t res_size,
			    long long vals[3], bool set[3], const char **why)
{
	const char *p = value;
	int ret = 0;

	res[0] = '\0';
	while (*p && ret == 0) {
		const char *comma = strchr(p, ','), *eq;
		size_t len = comma ? (size_t)(comma - p) : strlen(p), klen;

		eq = len ? memchr(p, '=', len) : NULL;
		klen = eq ? (size_t)(eq - p) : 0;
		if (len == 0) {
			/* empty tokens are skipped (ABI) */
		} else if (!eq) {
			*why = "expected KEY=VALUE tokens (min_shares=, max_shares=, child_shares_divisor=, res=)";
			ret = -EINVAL;
		} else if (klen == 3 && memcmp(p, "res", 3) == 0)
			ret = rgcs_res_token(eq + 1, len - 4, res, res_size, why);
		else
			ret = rgcs_key_token(p, klen, eq + 1, len - klen - 1,
					     vals, set, why);
		if (!comma)
			break;
		p = comma + 1;
	}
	return ret;
}

/* What RGCS refuses of a whole value, or would misread. */
static int rgcs_value_check(const char *res, const long long vals[3],
			    const bool set[3], const char **why)
{
	if (!valid_res_name(res, strlen(res))) {
		*why = "not a controller name";
		return -EINVAL;
	}
	if (!set[0] && !set[1] && !set[2]) {
		*why = "nothing to set (give min_shares=, max_shares= or child_shares_divisor=)";
		return -EINVAL;
	}
	if (set[2] && vals[2] == 0) {
		*why = "child_shares_divisor=0 is refused (children's shares are divided by it)";
		return -ERANGE;
	}
	if (set[0] && set[1] && vals[0] >= 0 && vals[1] >= 0 &&
	    vals[0] > vals[1]) {
		*why = "min_shares is larger than max_shares";
		return -ERANGE;
	}
	return 0;
}

static int parse_rgcs(const char *value, const char *res,
		      struct kattr_rg_share *out, unsigned int *keys,
		      const char **why)
{
	char given[32];
	long long vals[3] = { 0, 0, 0 };
	bool set[3] = { false, false, false };
	int ret;

	for (const char *c = value; *c; c++) {
		if (!isprint((unsigned char)*c) || *c == ' ') {
			*why = "the value contains a space or a non-printable byte";
			return -EINVAL;
		}
	}
	ret = parse_rgcs_value(value, given, sizeof(given), vals, set, why);
	if (ret < 0)
		return ret;
	if (res && given[0] && strcmp(res, given) != 0) {
		*why = "res= in the value differs from --res";
		return -EINVAL;
	}
	if (!res)
		res = given[0] ? given : "cpu";
	ret = rgcs_value_check(res, vals, set, why);
	if (ret < 0)
		return ret;
	snprintf(out->res, sizeof(out->res), "%s", res);
	out->value = out->min_shares = vals[0];
	out->max_shares = vals[1];
	out->child_shares_divisor = vals[2];
	for (unsigned int k = 0; k < 3; k++)
		if (set[k])
			*keys |= 1u << k;
	return 0;
}

/* kattr_rg_share_parse() with static words in *why. */
static int share_parse(enum kattr_rg_backend b, const char *value,
		       const char *res, struct kattr_rg_share *out,
		       unsigned int *keys, const char **why)
{
	memset(out, 0, sizeof(*out));
	*keys = 0;
	if (!value || !*value) {
		*why = "the value is empty";
		return -EINVAL;
	}
	switch (b) {
	case KATTR_RG_CGROUP1:
		return parse_cgroup(value, KATTR_RG_CG1_SHARES_MIN,
				    KATTR_RG_CG1_SHARES_MAX, out, why);
	case KATTR_RG_CGROUP2:
		return parse_cgroup(value, KATTR_RG_CG2_WEIGHT_MIN,
				    KATTR_RG_CG2_WEIGHT_MAX, out, why);
	case KATTR_RG_RGCS:
		return parse_rgcs(value, res, out, keys, why);
	default:
		*why = "no backend";
		return -EINVAL;
	}
}

int kattr_rg_share_parse(enum kattr_rg_backend b, const char *value,
			 const char *res, struct kattr_rg_share *out,
			 unsigned int *keys, struct kattr_why *why)
{
	unsigned int dummy_keys;
	const char *words = NULL;
	int ret;

	ret = share_parse(b, value, res, out, keys ? keys : &dummy_keys, &words);
	return ret < 0 ? kattr_why_set(why, KATTR_WHY_INVALID, ret, words) : ret;
}

int kattr_rg_share_text(enum kattr_rg_backend b, const struct kattr_rg_share *s,
			unsigned int keys, char *buf, size_t size)
{
	const long long vals[3] = { s->min_shares, s->max_shares,
				    s->child_shares_divisor };
	size_t off;

	if (b != KATTR_RG_RGCS)
		off = (size_t)snprintf(buf, size, "%lld", s->value);
	else if (keys & KATTR_RG_SHARE_SHORT)
		off = (size_t)snprintf(buf, size, "%s:%lld/%lld/%lld", s->res,
				       vals[0], vals[1], vals[2]);
	else {
		off = (size_t)snprintf(buf, size, "res=%s", s->res);
		for (unsigned int k = 0; k < 3 && off < size; k++)
			if (keys & (1u << k))
				off += (size_t)snprintf(buf + off, size - off,
							",%s=%lld", rgcs_keys[k],
							vals[k]);
	}
	return off < size ? 0 : -ENAMETOOLONG;
}

int kattr_rg_share_format(enum kattr_rg_backend b, const char *value,
			  const char *res, char *buf, size_t size,
			  struct kattr_why *why)
{
	struct kattr_rg_share s;
	unsigned int keys;
	int ret;

	ret = kattr_rg_share_parse(b, value, res, &s, &keys, why);
	if (ret < 0)
		return ret;
	ret = kattr_rg_share_text(b, &s, keys, buf, size);
	if (ret < 0)
		return kattr_why_set(why, KATTR_WHY_INVALID, ret, "buffer too small");
	return ret;
}

/* Next line of text: [*p, end) without the newline; false at the end. */
int kattr_rg_parse_rgcs_shares(const char *text, struct kattr_rg_share **out,
			       size_t *n)
{
	struct kattr_rg_share *v = NULL;
	size_t cnt = 0, cap = 0, len;
	const char *p = text, *line;
	int ret;

	while (kattr_next_line(&p, &line, &len)) {
		char buf[256], res[32];
		long long vals[3] = { 0, 0, 0 };
		bool set[3] = { false, false, false };
		const char *why;

		if (len == 0)
			continue;
		if (len >= sizeof(buf)) {
			ret = -EINVAL;
			goto out_free;
		}
		memcpy(buf, line, len);
		buf[len] = '\0';
		ret = parse_rgcs_value(buf, res, sizeof(res), vals, set, &why);
		if (ret == 0 && (!res[0] || !set[0] || !set[1] || !set[2]))
			ret = -EINVAL;
		if (ret < 0)
			goto out_free;
		ret = kattr_grow((void **)&v, &cap, cnt, sizeof(*v));
		if (ret < 0)
			goto out_free;
		memset(&v[cnt], 0, sizeof(v[cnt]));
		snprintf(v[cnt].res, sizeof(v[cnt].res), "%s", res);
		v[cnt].value = vals[0];
		v[cnt].min_shares = vals[0];
		v[cnt].max_shares = vals[1];
		v[cnt].child_shares_divisor = vals[2];
		cnt++;
	}
	*out = v;
	*n = cnt;
	return 0;

out_free:
	free(v);
	return ret;
}

void kattr_rg_stats_free(struct kattr_rg_stat *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].res);
		free(v[i].key);
		free(v[i].dev);
		free(v[i].file);
	}
	free(v);
}

static int stat_add(struct kattr_rg_stat **v, size_t *n, size_t *cap,
		    const char *res, size_t rlen, const char *key, size_t klen,
		    const long long *value)
{
	struct kattr_rg_stat *s;

	if (kattr_grow((void **)v, cap, *n, sizeof(**v)) < 0)
		return -ENOMEM;
	s = &(*v)[*n];
	memset(s, 0, sizeof(*s));
	s->res = strndup(res, rlen);
	s->key = strndup(key, klen);
	if (!s->res || !s->key) {
		free(s->res);
		free(s->key);
		return -ENOMEM;
	}
	s->has_value = value != NULL;
	s->value = value ? *value : 0;
	(*n)++;
	return 0;
}

/* "key=value, key=value" (the cpu controller's stats line). */
static int parse_kv_list(const char *res, size_t rlen, const char *s,
			 size_t len, struct kattr_rg_stat **v, size_t *n,
			 size_t *cap)
{
	while (len) {
		const char *comma = memchr(s, ',', len), *eq;
		size_t tlen = comma ? (size_t)(comma - s) : len;
		const char *t = s;
		long long val;
		int ret;

		s += tlen + (comma ? 1 : 0);
		len -= tlen + (comma ? 1 : 0);
		kattr_trim_span(&t, &tlen);
		if (!tlen)
			continue;
		eq = memchr(t, '=', tlen);
		if (eq) {
			const char *vs = eq + 1;
			size_t vlen = tlen - (size_t)(vs - t);

			kattr_trim_span(&vs, &vlen);
			if (kattr_parse_ll(vs, vlen, true, &val) == 0) {
				ret = stat_add(v, n, cap, res, rlen, t,
					       (size_t)(eq - t), &val);
				if (ret < 0)
					return ret;
				continue;
			}
		}
		ret = stat_add(v, n, cap, res, rlen, t, tlen, NULL);
		if (ret < 0)
			return ret;
	}
	return 0;
}

int kattr_rg_parse_rgcs_stats(const char *text, struct kattr_rg_stat **out,
			      size_t *nout)
{
	struct kattr_rg_stat *v = NULL;
	size_t n = 0, cap = 0, len;
	const char *p = text, *line;
	int ret = 0;

	while (kattr_next_line(&p, &line, &len)) {
		const char *colon = memchr(line, ':', len), *rest, *sp;
		size_t rlen, restlen;
		long long val;

		kattr_trim_span(&line, &len);
		if (!len)
			continue;
		colon = memchr(line, ':', len);
		if (!colon || colon == line) {
			ret = stat_add(&v, &n, &cap, "", 0, line, len, NULL);
			if (ret < 0)
				goto out_free;
			continue;
		}
		rlen = (size_t)(colon - line);
		rest = colon + 1;
		restlen = len - rlen - 1;
		kattr_trim_span(&rest, &restlen);
		if (memchr(rest, '=', restlen)) {
			ret = parse_kv_list(line, rlen, rest, restlen, &v, &n,
					    &cap);
		} else {
			/* "Current usage 3": the last word is the value */
			sp = rest + restlen;
			while (sp > rest && sp[-1] != ' ')
				sp--;
			if (sp > rest &&
			    kattr_parse_ll(sp, restlen - (size_t)(sp - rest), true,
					&val) == 0) {
				size_t klen = (size_t)(sp - rest);

				kattr_trim_span(&rest, &klen);
				ret = stat_add(&v, &n, &cap, line, rlen, rest,
					       klen, &val);
			} else {
				ret = stat_add(&v, &n, &cap, line, rlen, rest,
					       restlen, NULL);
			}
		}
		if (ret < 0)
			goto out_free;
	}
	*out = v;
	*nout = n;
	return 0;

out_free:
	kattr_rg_stats_free(v, n);
	return ret;
}

int kattr_rg_parse_keyed(const char *text, const char *res,
			 struct kattr_rg_stat **v, size_t *n)
{
	size_t cap = *n, len, start = *n;
	const char *p = text, *line;
	int ret;

	/* *v may hold *n entries already; kattr_grow() doubles from there. */
	while (kattr_next_line(&p, &line, &len)) {
		const char *sp;
		long long val;

		kattr_trim_span(&line, &len);
		if (!len)
			continue;
		sp = memchr(line, ' ', len);
		if (sp && kattr_parse_ll(sp + 1, len - (size_t)(sp - line) - 1,
				      true, &val) == 0)
			ret = stat_add(v, n, &cap, res, strlen(res), line,
				       (size_t)(sp - line), &val);
		else
			ret = stat_add(v, n, &cap, res, strlen(res), line, len,
				       NULL);
		if (ret < 0) {
			for (size_t i = start; i < *n; i++) {
				free((*v)[i].res);
				free((*v)[i].key);
			}
			*n = start;
			return ret;
		}
	}
	return 0;
}

int kattr_rg_parse_pids(const char *text, pid_t **pids, size_t *n)
{
	pid_t *v = NULL;
	size_t cnt = 0, cap = 0, len;
	const char *p = text, *line;

	while (kattr_next_line(&p, &line, &len)) {
		long long val;

		kattr_trim_span(&line, &len);
		if (!len)
			continue;
		if (kattr_parse_ll(line, len, false, &val) < 0 || val > INT_MAX) {
			free(v);
			return -EINVAL;
		}
		if (kattr_grow((void **)&v, &cap, cnt, sizeof(*v)) < 0) {
			free(v);
			return -ENOMEM;
		}
		v[cnt++] = (pid_t)val;
	}
	*pids = v;
	*n = cnt;
	return 0;
}
