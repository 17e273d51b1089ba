// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * likelytop --suggest: the rule (suggest.h).  A hinted site is a
 * candidate when it was evaluated often enough and misses more than the
 * limit; its hint is located in the tree and edited, or the site is
 * refused with the reason.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "tool.h"

static bool is_candidate(const struct lt_suggest *s, const struct site *st)
{
	return st->correct + st->incorrect >= s->o.min_total &&
	       st->correct + st->incorrect > 0 &&
	       lts_site_pct(st) > s->o.min_miss;
}

/* Find the site's hint and make its edit: 0, or -1 with why (static or
 * in whybuf). */
static int locate(struct lt_suggest *s, struct site *st, const char **why,
		  char *whybuf, size_t whysize)
{
	struct loaded *l;
	enum lt_locate r;
	char name[64] = "";
	size_t idx, len;
	const char *e;
	int ret;

	if (lts_resolve(s, st, why, whybuf, whysize) < 0)
		return -1;
	l = lts_load(s, st->rel);
	if (l->err < 0) {
		snprintf(whybuf, whysize, "cannot read %s: %s", st->rel,
			 tool_strerror(-l->err));
		*why = whybuf;
		return -1;
	}
	r = lt_hint_locate(l->text, l->len, l->calls, l->ncalls, st->line,
			   lts_kind_of(st->hint), &idx, name, sizeof(name));
	if (r == LT_LOC_MACRO) {
		snprintf(whybuf, whysize, "%s (%s())", lt_locate_reason(r), name);
		*why = whybuf;
		return -1;
	}
	if (r != LT_LOC_OK) {
		*why = lt_locate_reason(r);
		return -1;
	}
	st->call = l->calls[idx];
	st->flip = lts_site_pct(st) > s->o.flip_miss;
	e = memchr(l->text + st->call.name, '\n', l->len - st->call.name);
	len = (e ? (size_t)(e - l->text) : l->len) - st->call.name;
	if (st->call.end_line == st->call.line)
		len = st->call.close + 1 - st->call.name;
	if (len > 60) {
		st->expr = lts_strndup_clean(l->text + st->call.name, 57);
		if (st->expr && (e = realloc(st->expr, 61)))
			strcat(st->expr = (char *)e, "...");
	} else {
		st->expr = lts_strndup_clean(l->text + st->call.name, len);
		if (st->call.end_line != st->call.line && st->expr &&
		    (e = realloc(st->expr, len + 4)))
			strcat(st->expr = (char *)e, "...");
	}
	ret = st->expr ? lt_hint_edit(l->text, l->len, &st->call, st->flip,
				      &st->new_lines, &len, &st->first,
				      &st->last_end) : -ENOMEM;
	if (ret < 0) {
		*why = ret == -EINVAL ? "the hint's lines hold a NUL byte: not C text" :
		       "out of memory";
		return -1;
	}
	return 0;
}

static int refuse(struct lt_suggestions *sg, const struct site *st,
		  const char *why)
{
	struct lt_refusal *nv = realloc(sg->refused,
					(sg->nrefused + 1) * sizeof(*nv));
	struct lt_refusal *r;
	char *fn, *file, pct[16];

	if (!nv)
		return -ENOMEM;
	sg->refused = nv;
	r = &sg->refused[sg->nrefused];
	fn = lts_esc_dup(st->function);
	file = lts_esc_dup(st->file);
	r->site = NULL;
	if (fn && file &&
	    asprintf(&r->site, "%s() %s:%u (%s, %s%% of %llu missed)", fn,
		     file, st->line, kattr_profile_hint_name(st->hint),
		     lts_fmt_pct(pct, sizeof(pct), lts_site_pct(st)),
		     (unsigned long long)(st->correct + st->incorrect)) < 0)
		r->site = NULL;
	free(fn);
	free(file);
	r->why = strdup(why);
	if (!r->site || !r->why) {
		free(r->site);
		free(r->why);
		return -ENOMEM;
	}
	sg->nrefused++;
	return 0;
}

static int drop_overlaps(struct site **ok, size_t *n, struct lt_suggestions *sg)
{
	size_t k = 0;

	lts_sort_located(ok, *n);
	for (size_t i = 0; i < *n; i++) {
		if (k && !strcmp(ok[k - 1]->rel, ok[i]->rel) &&
		    ok[i]->call.line <= ok[k - 1]->call.end_line) {
			if (refuse(sg, ok[i], "its line is part of another hint's edit") < 0)
				return -ENOMEM;
			continue;
		}
		ok[k++] = ok[i];
	}
	*n = k;
	return 0;
}

int lt_suggest_all(struct lt_suggest *s,
		   const struct kattr_profile_entry *const *rows, size_t n,
		   struct lt_suggestions *sg)
{
	struct site *v, **ok;
	size_t nv, nok = 0;
	char whybuf[512];
	const char *why;
	int ret;

	memset(sg, 0, sizeof(*sg));
	ret = lts_gather(rows, n, &v, &nv);
	if (ret < 0)
		return ret;
	ok = calloc(nv ? nv : 1, sizeof(*ok));
	if (!ok) {
		free(v);
		return -ENOMEM;
	}
	for (size_t i = 0; i < nv && ret == 0; i++) {
		if (!is_candidate(s, &v[i]))
			continue;
		sg->candidates++;
		if (locate(s, &v[i], &why, whybuf, sizeof(whybuf)) == 0)
			ok[nok++] = &v[i];
		else
			ret = refuse(sg, &v[i], why);
	}
	if (ret == 0)
		ret = drop_overlaps(ok, &nok, sg);
	if (ret == 0)
		ret = lts_build(s, ok, nok, sg);
	for (size_t i = 0; i < nv; i++)
		lts_site_free(&v[i]);
	free(ok);
	free(v);
	if (ret < 0)
		lt_suggestions_free(sg);
	return ret;
}

int lt_suggest_site(struct lt_suggest *s,
		    const struct kattr_profile_entry *const *rows, size_t n,
		    const struct kattr_profile_entry *e, char **text)
{
	struct site *v, *st = NULL;
	struct lt_patch p = { 0 };
	char whybuf[512], pct[16];
	const char *why = NULL;
	size_t nv;
	int ret;

	*text = NULL;
	ret = lts_gather(rows, n, &v, &nv);
	if (ret < 0)
		return ret;
	for (size_t i = 0; i < nv && !st; i++)
		if (v[i].line == e->line && v[i].hint == e->hint &&
		    !strcmp(v[i].file, e->file))
			st = &v[i];
	if (!st || e->hint == KATTR_PROFILE_HINT_NONE)
		why = "a plain if: no hint to change";
	else if (st->correct + st->incorrect < s->o.min_total)
		ret = asprintf(text, "nothing to suggest: %llu evaluations, fewer than --min-total %llu",
			       (unsigned long long)(st->correct + st->incorrect),
			       (unsigned long long)s->o.min_total);
	else if (!(lts_site_pct(st) > s->o.min_miss))
		ret = asprintf(text, "nothing to suggest: the hint misses %s%%, not more than %g%%",
			       lts_fmt_pct(pct, sizeof(pct), lts_site_pct(st)), s->o.min_miss);
	else if (locate(s, st, &why, whybuf, sizeof(whybuf)) == 0)
		ret = lts_make_patch(s, (const struct site *const *)&st, 1, &p);
	if (why && asprintf(text, "refused: %s", why) < 0)
		ret = -ENOMEM;
	else if (p.text)
		*text = p.text;
	else if (ret > 0)
		ret = 0;
	free(p.subject);
	for (size_t i = 0; i < nv; i++)
		lts_site_free(&v[i]);
	free(v);
	if (ret < 0 || !*text) {
		free(*text);
		*text = NULL;
		return -ENOMEM;
	}
	return 0;
}

void lt_suggestions_free(struct lt_suggestions *sg)
{
	for (size_t i = 0; i < sg->npatches; i++) {
		free(sg->patches[i].subject);
		free(sg->patches[i].text);
	}
	for (size_t i = 0; i < sg->nrefused; i++) {
		free(sg->refused[i].site);
		free(sg->refused[i].why);
	}
	free(sg->patches);
	free(sg->refused);
	memset(sg, 0, sizeof(*sg));
}
