/*
 * A reference parser for one tracefs branch_annotated / branch_all row,
 * written the plain way (split on blanks, then check each token), for the
 * tests and fuzz targets that check the library's one-pass parser against
 * it.  Same contract as kattr_profile_parse_trace_row(); see lib/profile/parse.c.
 */
#ifndef REF_TRACE_ROW_H
#define REF_TRACE_ROW_H

#include "ref_likely_row.h"

/* A whole token of decimal digits that fits in 64 bits. */
static inline bool ref_whole(char *s, uint64_t *v)
{
	return ref_number(&s, v) && !*s;
}

static inline int ref_trace_row(char *line, bool all, struct kattr_profile_entry *e)
{
	char *tok[7], *p = line, *slash;
	uint64_t a, b, c = 0, pct, ln;
	int n = 0;

	/* "%8lu %8lu %3ld %-30.30s %-20.20s %d": six blank-separated tokens */
	for (;;) {
		while (ref_blank(*p))
			p++;
		if (!*p)
			break;
		if (n == 7)
			return -EINVAL;
		tok[n++] = p;
		while (*p && !ref_blank(*p))
			p++;
		if (*p)
			*p++ = '\0';
	}
	if (n != 6)
		return -EINVAL;
	slash = strchr(tok[0], '/');	/* correct/constant (annotated) */
	if (slash) {
		if (all)
			return -EINVAL;
		*slash = '\0';
		if (!ref_whole(slash + 1, &c))
			return -EINVAL;
	}
	if (!ref_whole(tok[0], &a) || !ref_whole(tok[1], &b))
		return -EINVAL;
	if (!strcmp(tok[2], "X")) {
		if (a || b)	/* never evaluated, yet counted */
			return -EINVAL;
	} else if (!ref_whole(tok[2], &pct) || pct > 100) {
		return -EINVAL;
	}
	if (!ref_whole(tok[5], &ln) || ln > 0x7fffffff)
		return -EINVAL;
	for (int i = 3; i <= 4; i++)
		for (const char *q = tok[i]; *q; q++)
			if (ref_ctl(*q))
				return -EINVAL;
	memset(e, 0, sizeof(*e));
	e->function = tok[3];
	e->file = tok[4];
	e->line = (unsigned int)ln;
	e->hint = all ? KATTR_PROFILE_HINT_NONE : KATTR_PROFILE_HINT_ANNOTATED;
	e->correct = a;
	e->incorrect = b;
	e->constant = c;
	e->has_constant = !all;
	return 0;
}

#endif
