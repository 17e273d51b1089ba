// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A C lexer just good enough to find likely()/unlikely() calls: comments,
 * string and character constants and preprocessor lines are told apart,
 * parentheses matched; everything else is identifiers and punctuation.
 * It never fails on odd input (unterminated comments, strings, stray
 * bytes): it stops at the end of the text.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hintscan.h"

static bool is_ident(unsigned char c, bool first)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       (!first && c >= '0' && c <= '9');
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* At a comment or a quoted constant: the offset after it, else i. */
static size_t skip_trivia(const char *t, size_t len, size_t i,
			  unsigned int *line)
{
	char q;

	if (i + 1 < len && t[i] == '/' && t[i + 1] == '/') {
		while (i < len && t[i] != '\n')
			i++;
		return i;
	}
	if (i + 1 < len && t[i] == '/' && t[i + 1] == '*') {
		for (i += 2; i < len; i++) {
			if (t[i] == '\n')
				(*line)++;
			else if (t[i] == '*' && i + 1 < len && t[i + 1] == '/')
				return i + 2;
		}
		return len;
	}
	if (t[i] != '"' && t[i] != '\'')
		return i;
	/* A constant ends at its quote, or (unterminated) at the line end. */
	q = t[i++];
	while (i < len && t[i] != q && t[i] != '\n') {
		if (t[i] == '\\' && i + 1 < len) {
			if (t[i + 1] == '\n')
				(*line)++;
			i++;
		}
		i++;
	}
	return i < len && t[i] == q ? i + 1 : i;
}

/* Skip blanks, newlines and comments. */
static size_t skip_ws(const char *t, size_t len, size_t i, unsigned int *line)
{
	size_t j;

	while (i < len) {
		if (t[i] == '\n') {
			(*line)++;
			i++;
		} else if (is_space(t[i])) {
			i++;
		} else if (t[i] == '/' && (j = skip_trivia(t, len, i, line)) != i) {
			i = j;
		} else {
			break;
		}
	}
	return i;
}

/* The ')' matching the '(' at open, or SIZE_MAX; *line follows newlines. */
static size_t match_paren(const char *t, size_t len, size_t open,
			  unsigned int *line)
{
	size_t depth = 0, j;

	for (size_t i = open; i < len;) {
		j = skip_trivia(t, len, i, line);
		if (j != i) {
			i = j;
			continue;
		}
		if (t[i] == '\n')
			(*line)++;
		else if (t[i] == '(')
			depth++;
		else if (t[i] == ')' && --depth == 0)
			return i;
		i++;
	}
	return SIZE_MAX;
}

static int push(struct lt_hint_call **v, size_t *n, size_t *cap,
		const struct lt_hint_call *c)
{
	struct lt_hint_call *nv;

	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		nv = realloc(*v, *cap * sizeof(**v));
		if (!nv)
			return -ENOMEM;
		*v = nv;
	}
	(*v)[(*n)++] = *c;
	return 0;
}

/* The identifier at i..*end: a hint call?  Fill c if so. */
static bool hint_at(const char *t, size_t len, size_t i, size_t end,
		    unsigned int line, struct lt_hint_call *c)
{
	unsigned int l2 = line;
	size_t j;

	if (end - i == 6 && !memcmp(t + i, "likely", 6))
		c->kind = LT_HINT_LIKELY;
	else if (end - i == 8 && !memcmp(t + i, "unlikely", 8))
		c->kind = LT_HINT_UNLIKELY;
	else
		return false;
	j = skip_ws(t, len, end, &l2);
	if (j >= len || t[j] != '(')
		return false;
	c->line = line;
	c->name = i;
	c->open = j;
	c->close = match_paren(t, len, j, &l2);
	c->end_line = c->close == SIZE_MAX ? line : l2;
	return true;
}

int lt_hint_scan(const char *t, size_t len, struct lt_hint_call **calls,
		 size_t *n)
{
	struct lt_hint_call c = { 0 }, *v = NULL;
	unsigned int line = 1;
	bool bol = true, directive = false;
	size_t i = 0, j, cap = 0, cnt = 0;

	while (i < len) {
		if (t[i] == '\n') {
			if (!(i && t[i - 1] == '\\'))
				directive = false;
			line++;
			bol = true;
			i++;
			continue;
		}
		if (is_space(t[i])) {
			i++;
			continue;
		}
		j = skip_trivia(t, len, i, &line);
		if (j != i) {
			i = j;
			bol = false;
			continue;
		}
		if (bol && t[i] == '#')
			directive = true;
		bol = false;
		if (!is_ident((unsigned char)t[i], false)) {
			i++;
			continue;
		}
		/* Identifiers, and numbers whole (0x1likely is no call). */
		for (j = i; j < len && (is_ident((unsigned char)t[j], false) ||
					(t[j] == '.' && !is_ident((unsigned char)t[i], true))); j++)
			;
		if (is_ident((unsigned char)t[i], true) &&
		    hint_at(t, len, i, j, line, &c)) {
			c.in_define = directive;
			if (push(&v, &cnt, &cap, &c) < 0) {
				free(v);
				return -ENOMEM;
			}
		}
		i = j;
	}
	*calls = v;
	*n = cnt;
	return 0;
}

/* Offset of the start of line (1-based), or SIZE_MAX past the end. */
static size_t line_start(const char *t, size_t len, unsigned int line)
{
	unsigned int l = 1;
	size_t i = 0;

	while (l < line) {
		const char *nl = i < len ? memchr(t + i, '\n', len - i) : NULL;

		if (!nl)
			return SIZE_MAX;
		i = (size_t)(nl - t) + 1;
		l++;
	}
	return i < len ? i : SIZE_MAX;
}

/* The first name called on the line at i (not a keyword): a macro? */
static bool called_name(const char *t, size_t len, size_t i, char *name,
			size_t size)
{
	static const char *const kw[] = {
		"if", "while", "for", "switch", "return", "sizeof", "typeof",
		"__typeof__", "defined", "do", "else", "case", "_Alignof",
	};
	unsigned int line = 0;
	size_t j, k;

	while (i < len && t[i] != '\n') {
		j = skip_trivia(t, len, i, &line);
		if (j != i || !is_ident((unsigned char)t[i], true)) {
			i = j != i ? j : i + 1;
			continue;
		}
		for (j = i; j < len && is_ident((unsigned char)t[j], false); j++)
			;
		k = j;
		while (k < len && is_space(t[k]))
			k++;
		if (k < len && t[k] == '(') {
			bool keyword = false;

			for (size_t w = 0; w < sizeof(kw) / sizeof(kw[0]); w++)
				if (strlen(kw[w]) == j - i &&
				    !memcmp(kw[w], t + i, j - i))
					keyword = true;
			if (!keyword) {
				size_t m = j - i < size - 1 ? j - i : size - 1;

				if (size) {
					memcpy(name, t + i, m);
					name[m] = '\0';
				}
				return true;
			}
		}
		i = j;
	}
	return false;
}

static enum lt_locate check(const struct lt_hint_call *c)
{
	if (c->close == SIZE_MAX)
		return LT_LOC_UNBALANCED;
	if (c->in_define)
		return LT_LOC_DEFINE;
	return LT_LOC_OK;
}

enum lt_locate lt_hint_locate(const char *text, size_t len,
			      const struct lt_hint_call *calls, size_t n,
			      unsigned int line, enum lt_hint_kind kind,
			      size_t *idx, char *name, size_t namesize)
{
	size_t on = 0, other = 0, span = 0, hit = 0, start;

	if (!line || (start = line_start(text, len, line)) == SIZE_MAX)
		return LT_LOC_NO_LINE;
	for (size_t i = 0; i < n; i++) {
		if (calls[i].line != line)
			continue;
		if (kind == LT_HINT_ANY || calls[i].kind == kind) {
			on++;
			hit = i;
		} else {
			other++;
		}
	}
	if (on > 1)
		return LT_LOC_SEVERAL;
	if (!on) {
		if (other)
			return LT_LOC_KIND;
		for (size_t i = 0; i < n; i++) {
			if (calls[i].close == SIZE_MAX ||
			    calls[i].line >= line || calls[i].end_line < line ||
			    (kind != LT_HINT_ANY && calls[i].kind != kind))
				continue;
			span++;
			hit = i;
		}
		if (span > 1)
			return LT_LOC_SEVERAL;
		if (!span)
			return called_name(text, len, start, name, namesize) ?
			       LT_LOC_MACRO : LT_LOC_NONE;
	}
	*idx = hit;
	return check(&calls[hit]);
}

const char *lt_locate_reason(enum lt_locate r)
{
	switch (r) {
	case LT_LOC_OK:
		return "found";
	case LT_LOC_NO_LINE:
		return "line mismatch: the file is shorter than that";
	case LT_LOC_NONE:
		return "line mismatch: no likely() or unlikely() on that line";
	case LT_LOC_MACRO:
		return "no likely() or unlikely() on that line: hidden in a macro called there";
	case LT_LOC_SEVERAL:
		return "several hints on that line: cannot tell which one the profile counts";
	case LT_LOC_KIND:
		return "line mismatch: the line's hint is of the other kind";
	case LT_LOC_DEFINE:
		return "the hint is in a #define: the patch would change every user of the macro";
	case LT_LOC_UNBALANCED:
		return "the hint's parentheses never close";
	}
	return "unknown";
}

/* Does inner (a hint's argument) read the same without its parentheses
 * next to any operator?  Operands, prefix operators, member access,
 * calls and subscripts only. */
static bool is_simple(const char *t, size_t from, size_t to)
{
	unsigned int line = 0;
	bool operand = true;	/* expecting an operand */
	size_t depth = 0, j;

	for (size_t i = from; i < to;) {
		j = skip_trivia(t, to, i, &line);
		if (j != i) {
			i = j;
			operand = depth ? operand : false;
			continue;
		}
		if (t[i] == '(' || t[i] == '[') {
			depth++;
		} else if (t[i] == ')' || t[i] == ']') {
			if (depth && --depth == 0)
				operand = false;
		} else if (depth || is_space(t[i]) || t[i] == '\n') {
			/* inside a group, or a blank */
		} else if (is_ident((unsigned char)t[i], false)) {
			operand = false;
		} else if (t[i] == '.' || (t[i] == '-' && i + 1 < to &&
					    t[i + 1] == '>' && !operand)) {
			i += t[i] == '-';
			operand = true;
		} else if (operand && strchr("!~*&-+", t[i])) {
			/* a prefix operator */
		} else {
			return false;
		}
		i++;
	}
	return true;
}

/* Can the argument stand there without parentheses whatever it is? */
static bool bracketed(const char *t, size_t len, const struct lt_hint_call *c)
{
	size_t p = c->name, q = c->close + 1;
	bool left = false;

	while (p && (is_space(t[p - 1]) || t[p - 1] == '\n'))
		p--;
	while (q < len && (is_space(t[q]) || t[q] == '\n'))
		q++;
	if (p && (t[p - 1] == '(' || t[p - 1] == ','))
		left = true;
	else if (p > 1 && t[p - 1] == '=' && !strchr("=!<>", t[p - 2]))
		left = true;
	else if (p >= 6 && !memcmp(t + p - 6, "return", 6) &&
		 (p == 6 || !is_ident((unsigned char)t[p - 7], false)))
		left = true;
	return left && q < len && strchr("),;", t[q]);
}

/* The screen column of p on the line starting at ls (tabs of 8). */
static size_t vcol(const char *ls, const char *p)
{
	size_t c = 0;

	for (; ls < p; ls++)
		c = *ls == '\t' ? (c / 8 + 1) * 8 : c + 1;
	return c;
}

/*
 * The lines after the first of s continue the call: those indented to at
 * least col (aligned with its argument, kernel style) move by -d columns,
 * re-indented with tabs then spaces.  Returns the new text, or NULL.
 */
static char *realign(const char *s, size_t col, long d, size_t *outlen)
{
	size_t n = strlen(s), o = 0, lines = 1;
	const char *p = strchr(s, '\n');
	char *r;

	for (const char *q = s; (q = strchr(q, '\n')); q++)
		lines++;
	r = malloc(n + 8 * lines + 1);
	if (!r)
		return NULL;
	if (!p || d == 0) {
		memcpy(r, s, n + 1);
		*outlen = n;
		return r;
	}
	memcpy(r, s, (size_t)(p - s) + 1);
	o = (size_t)(p - s) + 1;
	for (p++; *p;) {
		const char *ws = p, *nl;
		size_t w;

		while (*p == ' ' || *p == '\t')
			p++;
		w = vcol(ws, p);
		if (*p && *p != '\n' && w >= col && (long)w - d >= 0) {
			w = (size_t)((long)w - d);
			memset(r + o, '\t', w / 8);
			o += w / 8;
			memset(r + o, ' ', w % 8);
			o += w % 8;
		} else {
			memcpy(r + o, ws, (size_t)(p - ws));
			o += (size_t)(p - ws);
		}
		nl = strchr(p, '\n');
		nl = nl ? nl + 1 : p + strlen(p);
		memcpy(r + o, p, (size_t)(nl - p));
		o += (size_t)(nl - p);
		p = nl;
	}
	r[o] = '\0';
	*outlen = o;
	return r;
}

int lt_hint_edit(const char *t, size_t len, const struct lt_hint_call *c,
		 bool flip, char **out, size_t *outlen, size_t *first,
		 size_t *last_end)
{
	size_t a, b, nlen = c->kind == LT_HINT_LIKELY ? 6 : 8, o = 0;
	bool paren = false;
	char *s;

	if (c->close == SIZE_MAX || c->close >= len || c->name >= len)
		return -EINVAL;
	for (a = c->name; a && t[a - 1] != '\n'; a--)
		;
	for (b = c->close; b < len && t[b] != '\n'; b++)
		;
	if (b < len)
		b++;
	if (memchr(t + a, '\0', b - a))	/* not C text: the edit is a string */
		return -EINVAL;
	s = malloc(b - a + 3);
	if (!s)
		return -ENOMEM;
	memcpy(s, t + a, c->name - a);
	o = c->name - a;
	if (flip) {
		const char *nn = c->kind == LT_HINT_LIKELY ? "unlikely" : "likely";

		memcpy(s + o, nn, strlen(nn));
		o += strlen(nn);
		memcpy(s + o, t + c->name + nlen, b - c->name - nlen);
		o += b - c->name - nlen;
	} else {
		/* Blanks or comments between the name and '(' stay, and then
		 * so do the parentheses. */
		size_t gap = c->open - c->name - nlen;

		for (size_t i = c->name + nlen; i < c->open; i++)
			if (t[i] == '\n' || t[i] == '/')
				break;
			else if (i + 1 == c->open)
				gap = 0;	/* blanks only: dropped */
		memcpy(s + o, t + c->name + nlen, gap);
		o += gap;
		paren = gap || (!bracketed(t, len, c) &&
				!is_simple(t, c->open + 1, c->close));
		if (paren)
			s[o++] = '(';
		memcpy(s + o, t + c->open + 1, c->close - c->open - 1);
		o += c->close - c->open - 1;
		if (paren)
			s[o++] = ')';
		memcpy(s + o, t + c->close + 1, b - c->close - 1);
		o += b - c->close - 1;
	}
	s[o] = '\0';
	if (c->end_line > c->line) {
		/* Continuation lines aligned with the argument follow it. */
		size_t col_old = vcol(t + a, t + c->open + 1), col_new;
		char *r;

		if (flip)
			col_new = col_old + (nlen == 6 ? 2 : 0) - (nlen == 8 ? 2 : 0);
		else
			col_new = vcol(t + a, t + c->name) + (paren ? 1 : 0);
		r = realign(s, col_old, (long)col_old - (long)col_new, &o);
		free(s);
		if (!r)
			return -ENOMEM;
		s = r;
	}
	*out = s;
	*outlen = o;
	*first = a;
	*last_end = b;
	return 0;
}
