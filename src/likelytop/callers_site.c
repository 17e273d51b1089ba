// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * likelytop --callers: SITE resolved to a function with a tracepoint that
 * carries its caller, and its hint's condition (callers_site.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kattr/kattr.h>

#include "callers_site.h"
#include "suggest/hintscan.h"

/*
 * The functions whose own tracepoint records the caller (call_site) and
 * the argument a hint tests, with their hint as mainline has it (6.1 to
 * 6.18) for when no source is given.
 */
static const struct known {
	const char *function, *sys, *event, *field, *hint, *from;
} known[] = {
	{ "kfree", "kmem", "kfree", "ptr", "unlikely(ZERO_OR_NULL_PTR(object))",
	  "kfree() in Linux 6.1 to 6.18 (mm/slab_common.c, later mm/slub.c)" },
	{ "kmem_cache_free", "kmem", "kmem_cache_free", "ptr", NULL, NULL },
};

static const struct known *find_known(const char *fn)
{
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(known[i].function, fn))
			return &known[i];
	return NULL;
}

/*
 * hint: "likely(C)", "unlikely(C)" or a bare C (taken as unlikely);
 * flags: lt_cond_parse()'s.
 */
static void set_condition(struct lt_site *s, const char *hint, unsigned int flags)
{
	const char *c = hint;
	size_t len = strlen(hint);

	while (len && isspace((unsigned char)c[len - 1]))
		len--;
	while (len && isspace((unsigned char)*c)) {
		c++;
		len--;
	}
	s->likely = false;
	if (len > 8 && !strncmp(c, "likely(", 7) && c[len - 1] == ')') {
		s->likely = true;
		c += 7;
		len -= 8;
	} else if (len > 10 && !strncmp(c, "unlikely(", 9) && c[len - 1] == ')') {
		c += 9;
		len -= 10;
	}
	if (hint != s->hint)
		snprintf(s->hint, sizeof(s->hint), "%s", hint);
	s->split = lt_cond_parse(c, len, flags, &s->cond, s->why, sizeof(s->why)) == 0;
	if (s->split && s->likely)	/* likely(C) is wrong when C is false */
		lt_cond_negate(&s->cond);
}

/* Is l[0..n) the word __attribute__ (or __attribute) just before a '('? */
static bool attribute_word(const char *l, size_t n)
{
	while (n && isspace((unsigned char)l[n - 1]))
		n--;
	return (n >= 13 && !memcmp(l + n - 13, "__attribute__", 13)) ||
	       (n >= 11 && !memcmp(l + n - 11, "__attribute", 11));
}

/*
 * The parameter list's '(' on the line l[0..n): the last '(' outside any
 * parentheses that does not open __attribute__((...)), so attributes and
 * macros such as __printf(2, 3) before the name are passed over.
 */
static const char *params_paren(const char *l, size_t n)
{
	const char *found = NULL;
	int depth = 0;

	for (size_t i = 0; i < n; i++) {
		if (l[i] == '(' && depth++ == 0 && !attribute_word(l, i))
			found = l + i;
		else if (l[i] == ')' && depth > 0)
			depth--;
	}
	return found;
}

/* The function whose definition starts last at column 0 before off. */
static int enclosing_function(const char *text, size_t off, char *fn,
			      size_t size, size_t *open)
{
	size_t ls = off;

	while (ls > 0) {
		const char *l, *paren, *e;

		ls--;
		while (ls > 0 && text[ls - 1] != '\n')
			ls--;
		l = text + ls;
		if (!(isalpha((unsigned char)*l) || *l == '_'))
			continue;
		e = memchr(l, '\n', off - ls);
		paren = params_paren(l, e ? (size_t)(e - l) : off - ls);
		if (!paren || memchr(l, ';', (size_t)(paren - l)) ||
		    memchr(l, '=', (size_t)(paren - l)))
			continue;
		*open = (size_t)(paren - text);
		e = paren;
		while (e > l && isspace((unsigned char)e[-1]))
			e--;
		paren = e;
		while (e > l && (isalnum((unsigned char)e[-1]) || e[-1] == '_'))
			e--;
		if (e == paren || (size_t)(paren - e) >= size)
			continue;
		memcpy(fn, e, (size_t)(paren - e));
		fn[paren - e] = '\0';
		return 0;
	}
	return -ENOENT;
}

/* The parameter list after text[open] == '(' (up to off), on one line. */
static void copy_params(struct lt_site *s, const char *text, size_t open,
			size_t off)
{
	size_t k = 0;
	int depth = 0;

	for (size_t i = open; i < off && k + 1 < sizeof(s->params); i++) {
		char ch = isspace((unsigned char)text[i]) ? ' ' : text[i];

		depth += ch == '(';
		depth -= ch == ')';
		if (i > open && depth == 0)
			break;
		if (i > open && !(ch == ' ' && k && s->params[k - 1] == ' '))
			s->params[k++] = ch;
	}
	s->params[k] = '\0';
}

/* FILE:LINE: the hint there and its function. */
static int from_source(struct lt_site *s, const char *file, unsigned int line,
		       const char *srcdir)
{
	struct kattr_mount *m;
	struct lt_hint_call *calls = NULL;
	size_t n = 0, idx, len, clen, open = 0;
	char *text, name[64], hint[256];
	enum lt_locate r;
	int ret = kattr_dir_open(srcdir, &m);

	if (ret < 0) {
		snprintf(s->why, sizeof(s->why), "%.300s: %s", srcdir, strerror(-ret));
		return ret;
	}
	ret = kattr_read_alloc(m, file, &text, &len);
	kattr_mount_close(m);
	if (ret < 0) {
		snprintf(s->why, sizeof(s->why), "%.200s/%.200s: %s", srcdir, file,
			 ret == -ELOOP ? "a symbolic link (not followed)" : strerror(-ret));
		return ret;
	}
	ret = lt_hint_scan(text, len, &calls, &n);
	r = ret < 0 ? LT_LOC_NONE : lt_hint_locate(text, len, calls, n, line, LT_HINT_ANY,
						    &idx, name, sizeof(name));
	if (r != LT_LOC_OK) {
		snprintf(s->why, sizeof(s->why), "%s", lt_locate_reason(r));
		ret = -ENOENT;
		goto out;
	}
	clen = calls[idx].close == SIZE_MAX ? 0 : calls[idx].close + 1 - calls[idx].name;
	if (!clen || clen >= sizeof(hint) ||
	    enclosing_function(text, calls[idx].name, s->function, sizeof(s->function),
			       &open) < 0) {
		snprintf(s->why, sizeof(s->why), "%s", !clen || clen >= sizeof(hint) ?
			 "the hint's condition is unclosed or too long" :
			 "no function definition found above the hint");
		ret = -ENOENT;
		goto out;
	}
	if (text[open] == '(')
		copy_params(s, text, open, calls[idx].name);
	memcpy(hint, text + calls[idx].name, clen);
	hint[clen] = '\0';
	for (char *p = hint; *p; p++)	/* one line */
		if (isspace((unsigned char)*p))
			*p = ' ';
	set_condition(s, hint, 0);
	snprintf(s->hint_from, sizeof(s->hint_from), "%.300s:%u", file, line);
	ret = 0;
out:
	free(calls);
	free(text);
	return ret;
}

/* Does the declaration d (len bytes) hold the word w? */
static bool has_word(const char *d, size_t len, const char *w)
{
	size_t wl = strlen(w);

	for (size_t i = 0; i + wl <= len; i++)
		if (!memcmp(d + i, w, wl) &&
		    (i == 0 || !(isalnum((unsigned char)d[i - 1]) || d[i - 1] == '_')) &&
		    (i + wl == len || !(isalnum((unsigned char)d[i + wl]) || d[i + wl] == '_')))
			return true;
	return false;
}

/*
 * The kprobe fetch type for a parameter declared as d (len bytes): the
 * width, and signed (s32, s64) or not, as the kernel's filter will
 * compare the field (a pointer, and a typedef not known here, as the
 * whole register, unsigned).
 */
static const char *fetch_type(const char *d, size_t len)
{
	static const char *const wide[] = { "long", "u64", "s64", "size_t", "ssize_t",
		"loff_t", "off_t", "ktime_t", "sector_t", "pgoff_t", "phys_addr_t",
		"dma_addr_t", "uintptr_t", "time64_t" };
	static const char *const swide[] = { "s64", "ssize_t", "loff_t", "off_t",
		"ktime_t", "time64_t" };
	static const char *const u32w[] = { "unsigned", "u32", "u16", "u8", "gfp_t",
		"fmode_t", "uint" };

	if (memchr(d, '*', len) || memchr(d, '[', len))
		return "x64";
	for (size_t i = 0; i < sizeof(swide) / sizeof(swide[0]); i++)
		if (has_word(d, len, swide[i]))
			return "s64";
	for (size_t i = 0; i < sizeof(wide) / sizeof(wide[0]); i++)
		if (has_word(d, len, wide[i]))	/* long: signed unless unsigned */
			return has_word(d, len, "long") && !has_word(d, len, "unsigned") ?
			       "s64" : "x64";
	if (has_word(d, len, "bool") || has_word(d, len, "_Bool"))
		return "u8";
	for (size_t i = 0; i < sizeof(u32w) / sizeof(u32w[0]); i++)
		if (has_word(d, len, u32w[i]))
			return "u32";
	if (has_word(d, len, "int") || has_word(d, len, "s32") || has_word(d, len, "short") ||
	    has_word(d, len, "char"))
		return "s32";
	return "x64";	/* a typedef not known here: the whole register */
}

/*
 * The tested variable's place among the parameters (1..6, the registers
 * of the x86_64 calling convention): argN names it, or s->params.
 */
static void find_argument(struct lt_site *s)
{
	const char *v = s->cond.var, *p = s->params, *d;
	char *end;
	unsigned long n;
	unsigned int pos = 1;
	int depth = 0;

	if (!strncmp(v, "arg", 3) && isdigit((unsigned char)v[3])) {
		n = strtoul(v + 3, &end, 10);
		if (!*end && n >= 1 && n <= 6) {
			s->argpos = (unsigned int)n;
			snprintf(s->argtype, sizeof(s->argtype), "x64");
			return;
		}
	}
	for (d = p;; p++) {
		if (*p == '(' || *p == '[')
			depth++;
		else if (*p == ')' || *p == ']')
			depth--;
		if (*p && (*p != ',' || depth))
			continue;
		/* d..p: one declaration; its name is its last word */
		const char *e = p, *b;

		while (e > d && (isspace((unsigned char)e[-1]) || e[-1] == ']' || e[-1] == '['))
			e--;
		b = e;
		while (b > d && (isalnum((unsigned char)b[-1]) || b[-1] == '_'))
			b--;
		if ((size_t)(e - b) == strlen(v) && !memcmp(b, v, (size_t)(e - b)) && pos <= 6) {
			s->argpos = pos;
			snprintf(s->argtype, sizeof(s->argtype), "%s",
				 fetch_type(d, (size_t)(b - d)));
			return;
		}
		if (!*p)
			break;
		d = p + 1;
		pos++;
	}
	s->split = false;
	if (s->params[0])
		snprintf(s->why, sizeof(s->why),
			 "%.64s is not one of %.128s's first six parameters (%.200s): a kprobe at its entry cannot read it",
			 v, s->function, s->params);
	else
		snprintf(s->why, sizeof(s->why),
			 "which argument of %.128s %.64s is cannot be known without the source (-S SRCDIR); or name it argN in --condition",
			 s->function, v);
}

/* "FILE:LINE": file and line; false if site is not of that form. */
static bool split_file_line(const char *site, char *file, size_t size,
			    unsigned int *line)
{
	const char *colon = strrchr(site, ':');
	char *end;
	unsigned long l;

	if (!colon || colon == site || !isdigit((unsigned char)colon[1]))
		return false;
	l = strtoul(colon + 1, &end, 10);
	if (*end || !l || l > 10000000 || (size_t)(colon - site) >= size)
		return false;
	memcpy(file, site, (size_t)(colon - site));
	file[colon - site] = '\0';
	*line = (unsigned int)l;
	return true;
}

int lt_site_resolve(struct lt_site *s, const char *site, const char *srcdir,
		    const char *condition)
{
	const struct known *k;
	char file[4096];
	unsigned int line;
	int ret;

	memset(s, 0, sizeof(*s));
	if (split_file_line(site, file, sizeof(file), &line)) {
		ret = from_source(s, file, line, srcdir ? srcdir : ".");
		if (ret < 0)
			return ret;
	} else if (strlen(site) < sizeof(s->function)) {
		snprintf(s->function, sizeof(s->function), "%s", site);
	} else {
		snprintf(s->why, sizeof(s->why), "the function name is too long");
		return -EINVAL;
	}
	k = find_known(s->function);
	if (k) {
		s->sys = k->sys;
		s->event = k->event;
		s->field = k->field;
	} else {
		s->field = "arg";	/* the kprobe event's (callers_kprobe.h) */
	}
	if (condition) {
		set_condition(s, condition, 0);
		snprintf(s->hint_from, sizeof(s->hint_from), "--condition");
	} else if (!s->hint[0] && k && k->hint) {
		set_condition(s, k->hint, 0);
		snprintf(s->hint_from, sizeof(s->hint_from), "%s", k->from);
	} else if (!s->hint[0]) {
		snprintf(s->why, sizeof(s->why), "no hint known for %s (give --condition)",
			 s->function);
	}
	if (!k && s->split)
		find_argument(s);
	return 0;
}

int lt_site_resolve_user(struct lt_site *s, const char *site, const char *srcdir,
			 const char *condition)
{
	char file[4096];
	unsigned int line;
	int ret;

	memset(s, 0, sizeof(*s));
	if (srcdir && split_file_line(site, file, sizeof(file), &line)) {
		ret = from_source(s, file, line, srcdir);
		if (ret < 0)
			return ret;
	} else if (strlen(site) < sizeof(s->function)) {
		snprintf(s->function, sizeof(s->function), "%s", site);
	} else {
		snprintf(s->why, sizeof(s->why), "the function name is too long");
		return -EINVAL;
	}
	if (condition) {
		set_condition(s, condition, 0);
		snprintf(s->hint_from, sizeof(s->hint_from), "--condition");
	} else if (!s->hint[0]) {
		snprintf(s->why, sizeof(s->why),
			 "no hint known for %s (give --condition, or FILE:LINE with -S)",
			 s->function);
	}
	return 0;
}

void lt_site_signed(struct lt_site *s)
{
	if (s->split && !s->cond.sign)
		set_condition(s, s->hint, LT_COND_SIGNED);
}
