/*
 * A reference parser for one /proc/likely_prof row: the format's rules
 * written one byte at a time, as plainly as possible, for the tests and
 * fuzz targets that check the library's fast parser against it.  Same
 * contract as kattr_profile_parse_likely_row(); see lib/profile/parse.c.
 */
#ifndef REF_LIKELY_ROW_H
#define REF_LIKELY_ROW_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "kattr/profile.h"

static inline bool ref_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static inline bool ref_ctl(char c)
{
	return (unsigned char)c < 0x20 || c == 0x7f;
}

static inline bool ref_number(char **s, uint64_t *v)
{
	uint64_t x = 0;
	char *p = *s;

	if (*p < '0' || *p > '9')
		return false;
	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned int d = (unsigned int)(*p - '0');

		if (x > (UINT64_MAX - d) / 10)
			return false;
		x = x * 10 + d;
	}
	*s = p;
	*v = x;
	return true;
}

static inline int ref_likely_row(char *line, struct kattr_profile_entry *e)
{
	char *p = line, *func, *sep, *file, *at = NULL;
	uint64_t t, f, ln;
	bool likely;

	if (*p != '+' && *p != '-' && *p != ' ')
		return -EINVAL;
	p++;
	if (!strncmp(p, "unlikely", 8))
		likely = false, p += 8;
	else if (!strncmp(p, "likely", 6))
		likely = true, p += 6;
	else
		return -EINVAL;
	while (ref_blank(*p))
		p++;
	if (*p++ != '|')
		return -EINVAL;
	while (ref_blank(*p))
		p++;
	if (!ref_number(&p, &t) || *p++ != '|')
		return -EINVAL;
	while (ref_blank(*p))
		p++;
	if (!ref_number(&p, &f) || (*p != '\t' && *p != ' '))
		return -EINVAL;
	while (ref_blank(*p))
		p++;
	func = p;
	/* the function: to the first "()@:", no blank or control byte */
	for (sep = func; strncmp(sep, "()@:", 4); sep++)
		if (ref_blank(*sep) || ref_ctl(*sep))
			return -EINVAL;
	if (sep == func)
		return -EINVAL;
	file = sep + 4;
	/* the file: to the last '@', no control byte */
	for (char *q = file; *q; q++)
		if (*q == '@')
			at = q;
	if (!at || at == file)
		return -EINVAL;
	for (char *q = file; q < at; q++)
		if (ref_ctl(*q))
			return -EINVAL;
	p = at + 1;
	if (!ref_number(&p, &ln) || ln > 0x7fffffff)
		return -EINVAL;
	while (ref_blank(*p))
		p++;
	if (*p)
		return -EINVAL;
	*sep = '\0';
	*at = '\0';
	memset(e, 0, sizeof(*e));
	e->function = func;
	e->file = file;
	e->line = (unsigned int)ln;
	e->hint = likely ? KATTR_PROFILE_HINT_LIKELY : KATTR_PROFILE_HINT_UNLIKELY;
	e->correct = likely ? t : f;
	e->incorrect = likely ? f : t;
	return 0;
}

/* Two parsed entries say the same thing. */
static inline bool ref_same_entry(const struct kattr_profile_entry *a,
			   const struct kattr_profile_entry *b)
{
	return a->hint == b->hint && a->correct == b->correct &&
	       a->incorrect == b->incorrect && a->constant == b->constant &&
	       a->has_constant == b->has_constant && a->line == b->line &&
	       !strcmp(a->function, b->function) && !strcmp(a->file, b->file);
}

#endif
