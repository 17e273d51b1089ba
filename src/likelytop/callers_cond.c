// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * likelytop --callers: a hint's condition as a set of values of one
 * argument (callers_cond.h).  A small recursive-descent parser over the
 * condition's tokens; each node is a value (the argument, or a
 * constant) or a set (a test on the argument).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callers_cond.h"

#define ERR_LO (UINT64_MAX - 4094)	/* (unsigned long)-MAX_ERRNO */
#define SIGN_BIT (UINT64_C(1) << 63)
#define DEPTH_MAX 64

enum tok { T_END, T_IDENT, T_NUM, T_NOT, T_LP, T_RP, T_STAR, T_MINUS,
	   T_EQ, T_NE, T_LT, T_LE, T_GT, T_GE, T_MEMBER, T_BAD };

struct parser {
	const char *s;
	size_t len, pos;
	enum tok tok;
	size_t tstart, tlen;	/* the current token's text */
	uint64_t num;
	int depth;
	uint64_t bias;		/* SIGN_BIT when signed: a value's key is value ^ bias */
	char *why;
	size_t whysize;
};

enum node_kind { N_VAR, N_CONST, N_SET };

struct node {
	enum node_kind kind;
	uint64_t value;		/* N_CONST */
	struct lt_cond set;	/* N_SET (and N_VAR: the name) */
};

__attribute__((format(printf, 2, 3)))
static int fail(struct parser *p, const char *fmt, ...)
{
	va_list ap;

	if (p->why && p->whysize && !p->why[0]) {
		va_start(ap, fmt);
		vsnprintf(p->why, p->whysize, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static bool is_id(int c, bool first)
{
	return c == '_' || isalpha(c) || (!first && isdigit(c));
}

static int lex_num(struct parser *p)
{
	const char *s = p->s + p->pos;
	size_t n = 0, max = p->len - p->pos;
	char buf[40];
	char *end;

	while (n < max && (isalnum((unsigned char)s[n])))
		n++;
	if (n >= sizeof(buf))
		return T_BAD;
	memcpy(buf, s, n);
	buf[n] = '\0';
	errno = 0;
	p->num = strtoull(buf, &end, 0);
	while (*end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
		end++;
	if (errno || *end || buf[0] == '-')
		return T_BAD;
	p->tlen = n;
	return T_NUM;
}

/* The next token into p->tok. */
static void next(struct parser *p)
{
	static const struct { const char *s; enum tok t; } ops[] = {
		{ "->", T_MEMBER }, { ".", T_MEMBER }, { "[", T_MEMBER },
		{ "==", T_EQ }, { "!=", T_NE }, { "<=", T_LE }, { ">=", T_GE },
		{ "<", T_LT }, { ">", T_GT }, { "!", T_NOT }, { "(", T_LP },
		{ ")", T_RP }, { "*", T_STAR }, { "-", T_MINUS },
	};
	const char *s;
	size_t n;

	p->pos += p->tlen;
	while (p->pos < p->len && isspace((unsigned char)p->s[p->pos]))
		p->pos++;
	p->tstart = p->pos;
	p->tlen = 0;
	if (p->pos >= p->len) {
		p->tok = T_END;
		return;
	}
	s = p->s + p->pos;
	if (is_id((unsigned char)*s, true)) {
		for (n = 1; p->pos + n < p->len && is_id((unsigned char)s[n], false); n++)
			;
		p->tlen = n;
		p->tok = T_IDENT;
		return;
	}
	if (isdigit((unsigned char)*s)) {
		p->tok = lex_num(p);
		return;
	}
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		n = strlen(ops[i].s);
		if (n <= p->len - p->pos && !memcmp(s, ops[i].s, n)) {
			p->tlen = n;
			p->tok = ops[i].t;
			return;
		}
	}
	p->tok = T_BAD;
}

static bool tok_is(const struct parser *p, const char *word)
{
	return p->tok == T_IDENT && strlen(word) == p->tlen &&
	       !memcmp(p->s + p->tstart, word, p->tlen);
}

/* ---- sets --------------------------------------------------------------- */

static void set_one(struct lt_cond *c, uint64_t lo, uint64_t hi)
{
	c->span[0].lo = lo;
	c->span[0].hi = hi;
	c->nspan = 1;
}

/*
 * Spans sorted and those that touch or overlap joined: the form negate()
 * and the filter expect (as keys, IS_ERR_OR_NULL's two spans of a signed
 * argument, -4095..-1 and 0, are one).
 */
static void set_norm(struct lt_cond *c)
{
	size_t n = 0;

	for (size_t i = 1; i < c->nspan; i++)	/* a few spans: insertion */
		for (size_t j = i; j && c->span[j].lo < c->span[j - 1].lo; j--) {
			struct lt_span t = c->span[j];

			c->span[j] = c->span[j - 1];
			c->span[j - 1] = t;
		}
	for (size_t i = 0; i < c->nspan; i++) {
		struct lt_span *last = n ? &c->span[n - 1] : NULL;

		if (last && (last->hi == UINT64_MAX || c->span[i].lo <= last->hi + 1)) {
			if (c->span[i].hi > last->hi)
				last->hi = c->span[i].hi;
		} else {
			c->span[n++] = c->span[i];
		}
	}
	c->nspan = n;
}

bool lt_cond_true(const struct lt_cond *c, uint64_t v)
{
	if (c->sign)
		v ^= SIGN_BIT;
	for (size_t i = 0; i < c->nspan; i++)
		if (v >= c->span[i].lo && v <= c->span[i].hi)
			return true;
	return false;
}

/* Spans are kept sorted and disjoint: the complement has at most one more. */
void lt_cond_negate(struct lt_cond *c)
{
	struct lt_span out[LT_COND_SPANS];
	size_t n = 0;
	uint64_t from = 0;
	bool open = true;	/* from..max not yet covered */

	for (size_t i = 0; i < c->nspan; i++) {
		if (c->span[i].lo > from && n < LT_COND_SPANS)
			out[n++] = (struct lt_span){ .lo = from, .hi = c->span[i].lo - 1 };
		if (c->span[i].hi == UINT64_MAX) {
			open = false;
			break;
		}
		from = c->span[i].hi + 1;
	}
	if (open && n < LT_COND_SPANS)
		out[n++] = (struct lt_span){ .lo = from, .hi = UINT64_MAX };
	memcpy(c->span, out, n * sizeof(out[0]));
	c->nspan = n;
}

/* var OP k as a set (k a key: the value ^ the parser's bias). */
static void set_compare(struct lt_cond *c, enum tok op, uint64_t k)
{
	switch (op) {
	case T_EQ:
		set_one(c, k, k);
		break;
	case T_NE:
		set_one(c, k, k);
		lt_cond_negate(c);
		break;
	case T_LT:
		c->nspan = 0;
		if (k)
			set_one(c, 0, k - 1);
		break;
	case T_LE:
		set_one(c, 0, k);
		break;
	case T_GT:
		c->nspan = 0;
		if (k != UINT64_MAX)
			set_one(c, k + 1, UINT64_MAX);
		break;
	default:	/* T_GE */
		set_one(c, k, UINT64_MAX);
		break;
	}
}

static enum tok swap_op(enum tok op)
{
	switch (op) {
	case T_LT: return T_GT;
	case T_LE: return T_GE;
	case T_GT: return T_LT;
	case T_GE: return T_LE;
	default: return op;
	}
}

/* ---- the grammar -------------------------------------------------------- */

static int parse_expr(struct parser *p, struct node *out);

/* A node as a test: the argument alone means "is not zero". */
static int as_set(struct parser *p, struct node *n)
{
	if (n->kind == N_CONST)
		return fail(p, "the condition is a constant, not a test on an argument");
	if (n->kind == N_VAR) {
		set_compare(&n->set, T_NE, p->bias);
		n->kind = N_SET;
	}
	return 0;
}

static const struct {
	const char *name;
	uint64_t lo1, hi1, lo2, hi2;	/* lo2 > hi2: one span */
} macros[] = {
	{ "ZERO_OR_NULL_PTR", 0, 16, 1, 0 },
	{ "IS_ERR", ERR_LO, UINT64_MAX, 1, 0 },
	{ "IS_ERR_VALUE", ERR_LO, UINT64_MAX, 1, 0 },
	{ "IS_ERR_OR_NULL", 0, 0, ERR_LO, UINT64_MAX },
};

/* NAME(expr): a known test macro, or likely()/unlikely(). */
static int parse_call(struct parser *p, const char *name, size_t nlen,
		      struct node *out)
{
	int ret, m = -1;

	for (size_t i = 0; i < sizeof(macros) / sizeof(macros[0]); i++)
		if (strlen(macros[i].name) == nlen && !memcmp(name, macros[i].name, nlen))
			m = (int)i;
	if (m < 0 && !(nlen == 6 && !memcmp(name, "likely", 6)) &&
	    !(nlen == 8 && !memcmp(name, "unlikely", 8)))
		return fail(p, "'%.*s(...)' is a call, not a test on an argument",
			    (int)nlen, name);
	next(p);	/* the '(' */
	ret = parse_expr(p, out);
	if (ret < 0)
		return ret;
	if (p->tok != T_RP)
		return fail(p, "')' expected after '%.*s(...'", (int)nlen, name);
	next(p);
	if (m < 0)	/* likely(x), unlikely(x): x as a test */
		return as_set(p, out);
	if (out->kind != N_VAR)
		return fail(p, "%s() of something other than an argument", macros[m].name);
	/* each span is all of one sign: as keys, still a span */
	set_one(&out->set, macros[m].lo1 ^ p->bias, macros[m].hi1 ^ p->bias);
	if (macros[m].lo2 <= macros[m].hi2)
		out->set.span[out->set.nspan++] = (struct lt_span){
			macros[m].lo2 ^ p->bias, macros[m].hi2 ^ p->bias };
	set_norm(&out->set);
	out->kind = N_SET;
	return 0;
}

/* After '(': a cast is type words and stars, then ')', then an operand. */
static bool is_cast(const struct parser *p)
{
	struct parser q = *p;
	bool words = false;

	while (q.tok == T_IDENT || q.tok == T_STAR) {
		words |= q.tok == T_IDENT;
		next(&q);
	}
	if (q.tok != T_RP || !words)
		return false;
	next(&q);
	return q.tok == T_IDENT || q.tok == T_NUM || q.tok == T_LP ||
	       q.tok == T_MINUS || q.tok == T_NOT;
}

static int parse_unary(struct parser *p, struct node *out);

static int parse_ident(struct parser *p, struct node *out)
{
	const char *name = p->s + p->tstart;
	size_t nlen = p->tlen;

	if (tok_is(p, "NULL") || tok_is(p, "false") || tok_is(p, "true")) {
		out->kind = N_CONST;
		out->value = tok_is(p, "true");
		next(p);
		return 0;
	}
	next(p);
	if (p->tok == T_LP)
		return parse_call(p, name, nlen, out);
	if (p->tok == T_MEMBER)
		return fail(p, "'%.*s%.*s...' reads into an argument: not a test on the argument's value",
			    (int)nlen, name, (int)p->tlen, p->s + p->tstart);
	if (nlen >= LT_COND_VAR_MAX)
		return fail(p, "argument name too long");
	memcpy(out->set.var, name, nlen);
	out->set.var[nlen] = '\0';
	out->kind = N_VAR;
	return 0;
}

static int parse_primary(struct parser *p, struct node *out)
{
	int ret;

	switch (p->tok) {
	case T_NUM:
		out->kind = N_CONST;
		out->value = p->num;
		next(p);
		return 0;
	case T_IDENT:
		return parse_ident(p, out);
	case T_LP:
		next(p);
		if (is_cast(p)) {
			while (p->tok != T_RP)
				next(p);
			next(p);
			return parse_unary(p, out);
		}
		ret = parse_expr(p, out);
		if (ret < 0)
			return ret;
		if (p->tok != T_RP)
			return fail(p, "')' expected");
		next(p);
		return 0;
	case T_END:
		return fail(p, "the condition ends too early");
	default:
		return fail(p, "'%.*s' is not part of a test on an argument",
			    (int)(p->tlen ? p->tlen : 1), p->s + p->tstart);
	}
}

static int parse_unary(struct parser *p, struct node *out)
{
	enum tok t = p->tok;
	int ret;

	if (++p->depth > DEPTH_MAX)
		return fail(p, "the condition nests too deeply");
	if (t != T_NOT && t != T_MINUS) {
		ret = parse_primary(p, out);
		p->depth--;
		return ret;
	}
	next(p);
	ret = parse_unary(p, out);
	p->depth--;
	if (ret < 0)
		return ret;
	if (t == T_MINUS) {
		if (out->kind != N_CONST)
			return fail(p, "'-' before something other than a number");
		out->value = -out->value;
	} else if (out->kind == N_CONST) {
		out->value = !out->value;
	} else if (out->kind == N_VAR) {
		set_compare(&out->set, T_EQ, p->bias);
		out->kind = N_SET;
	} else {
		lt_cond_negate(&out->set);
	}
	return 0;
}

/* unary [OP unary]: a comparison of the argument with a constant. */
static int parse_expr(struct parser *p, struct node *out)
{
	struct node rhs;
	enum tok op;
	int ret = parse_unary(p, out);

	if (ret < 0 || p->tok < T_EQ || p->tok > T_GE)
		return ret;
	op = p->tok;
	next(p);
	memset(&rhs, 0, sizeof(rhs));
	ret = parse_unary(p, &rhs);
	if (ret < 0)
		return ret;
	if (out->kind == N_CONST && rhs.kind == N_VAR) {
		uint64_t k = out->value;

		*out = rhs;
		out->value = k;
		op = swap_op(op);
	} else if (out->kind == N_VAR && rhs.kind == N_CONST) {
		out->value = rhs.value;
	} else {
		return fail(p, "a comparison that is not between an argument and a constant");
	}
	set_compare(&out->set, op, out->value ^ p->bias);
	out->kind = N_SET;
	return 0;
}

int lt_cond_parse(const char *text, size_t len, unsigned int flags,
		  struct lt_cond *c, char *why, size_t whysize)
{
	struct parser p = { .s = text, .len = len, .why = why, .whysize = whysize,
			    .bias = flags & LT_COND_SIGNED ? SIGN_BIT : 0 };
	struct node n;
	int ret;

	if (why && whysize)
		why[0] = '\0';
	memset(&n, 0, sizeof(n));
	memset(c, 0, sizeof(*c));
	next(&p);
	ret = parse_expr(&p, &n);
	if (ret == 0 && p.tok != T_END)
		ret = fail(&p, "'%.*s' after the test: not a test on one argument",
			   (int)(p.tlen ? p.tlen : 1), p.s + p.tstart);
	if (ret == 0)
		ret = as_set(&p, &n);
	if (ret == 0) {
		*c = n.set;
		c->sign = flags & LT_COND_SIGNED;
	}
	return ret;
}

/* The value of key k: a negative signed value in decimal ("-22"). */
static char *put_num(char *q, const struct lt_cond *c, uint64_t k)
{
	uint64_t v = c->sign ? k ^ SIGN_BIT : k;

	if (c->sign && (v & SIGN_BIT))
		return q + sprintf(q, "%" PRId64, (int64_t)v);
	return q + sprintf(q, v > 0xffff ? "0x%" PRIx64 : "%" PRIu64, v);
}

int lt_cond_filter(const struct lt_cond *c, const char *field, char *buf,
		   size_t size)
{
	char tmp[512], *q = tmp;

	if (strlen(field) > 64)
		return -ENOSPC;
	if (c->nspan == 0)
		q += sprintf(q, "%s == 0 && %s == 1", field, field);
	for (size_t i = 0; i < c->nspan; i++) {
		const struct lt_span *s = &c->span[i];

		if (i)
			q = stpcpy(q, " || ");
		if (s->lo == 0 && s->hi == UINT64_MAX)
			q = tmp;	/* always true: no filter */
		else if (s->lo == s->hi)
			q = put_num(q + sprintf(q, "%s == ", field), c, s->lo);
		else if (s->lo == 0)
			q = put_num(q + sprintf(q, "%s <= ", field), c, s->hi);
		else if (s->hi == UINT64_MAX)
			q = put_num(q + sprintf(q, "%s >= ", field), c, s->lo);
		else {
			q = put_num(q + sprintf(q, "(%s >= ", field), c, s->lo);
			q = put_num(q + sprintf(q, " && %s <= ", field), c, s->hi);
			*q++ = ')';
		}
	}
	*q = '\0';
	if ((size_t)(q - tmp) >= size)
		return -ENOSPC;
	memcpy(buf, tmp, (size_t)(q - tmp) + 1);
	return 0;
}
