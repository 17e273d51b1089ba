// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * likelytop --suggest: a profile's hinted rows as sites, and the helpers
 * the other files of suggest/ share (internal.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "esc.h"
#include "internal.h"

char *lts_strndup_clean(const char *s, size_t n)
{
	char *d = strndup(s, n);

	for (char *p = d; p && *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return d;
}

char *lts_esc_dup(const char *s)
{
	char *d = malloc(TOOL_ESC_SIZE(strlen(s)));

	if (d)
		tool_esc(d, s, 0);
	return d;
}

double lts_site_pct(const struct site *st)
{
	uint64_t t = st->correct + st->incorrect;

	return t ? (double)st->incorrect * 100.0 / (double)t : -1;
}

/* "55.5", with two decimals where one would round to 100.0 or 0.0. */
const char *lts_fmt_pct(char *buf, size_t size, double pct)
{
	snprintf(buf, size, (pct > 99.95 && pct < 100) || (pct > 0 && pct < 0.05) ?
		 "%.2f" : "%.1f", pct);
	return buf;
}

const char *lts_kind_name(enum lt_hint_kind k)
{
	return k == LT_HINT_LIKELY ? "likely" : "unlikely";
}

enum lt_hint_kind lts_kind_of(enum kattr_profile_hint h)
{
	if (h == KATTR_PROFILE_HINT_LIKELY)
		return LT_HINT_LIKELY;
	if (h == KATTR_PROFILE_HINT_UNLIKELY)
		return LT_HINT_UNLIKELY;
	return LT_HINT_ANY;
}

static int cmp_site(const void *a, const void *b)
{
	const struct site *x = a, *y = b;
	int c = strcmp(x->file, y->file);

	if (c)
		return c;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return (int)x->hint - (int)y->hint;
}

/* The hinted rows as sites, duplicates summed, sorted by file and line. */
int lts_gather(const struct kattr_profile_entry *const *rows, size_t n,
	       struct site **out, size_t *nout)
{
	struct site *v = calloc(n ? n : 1, sizeof(*v));
	size_t k = 0;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct kattr_profile_entry *e = rows[i];

		if (e->hint == KATTR_PROFILE_HINT_NONE || !e->file || !e->function)
			continue;
		v[k].function = e->function;
		v[k].file = e->file;
		v[k].line = e->line;
		v[k].hint = e->hint;
		v[k].correct = e->correct;
		v[k].incorrect = e->incorrect;
		v[k].rows = 1;
		k++;
	}
	qsort(v, k, sizeof(*v), cmp_site);
	n = k;
	k = 0;
	for (size_t i = 0; i < n; i++) {
		if (k && !cmp_site(&v[k - 1], &v[i])) {
			v[k - 1].correct += v[i].correct;
			v[k - 1].incorrect += v[i].incorrect;
			v[k - 1].rows++;
			continue;
		}
		v[k++] = v[i];
	}
	*out = v;
	*nout = k;
	return 0;
}

void lts_site_free(struct site *st)
{
	free(st->relbuf);
	free(st->note);
	free(st->expr);
	free(st->new_lines);
}

static int cmp_located(const void *a, const void *b)
{
	const struct site *x = *(const struct site *const *)a;
	const struct site *y = *(const struct site *const *)b;
	int c = strcmp(x->rel, y->rel);

	if (c)
		return c;
	return x->call.line < y->call.line ? -1 : x->call.line > y->call.line;
}

/* By file, then line. */
void lts_sort_located(struct site **ok, size_t n)
{
	qsort(ok, n, sizeof(*ok), cmp_located);
}
