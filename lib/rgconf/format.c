// SPDX-License-Identifier: LGPL-2.1-or-later
/* The configuration in the file format (kattr_rgconf_format()). */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "kattr/private_rgconf.h"
#include "rgconf_internal.h"

static void sb_str(struct rgconf_sbuf *b, const char *s)
{
	rgconf_sb_add(b, "\"");
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			rgconf_sb_add(b, "\\%c", ch);
		else if (ch == '\n')
			rgconf_sb_add(b, "\\n");
		else if (ch == '\t')
			rgconf_sb_add(b, "\\t");
		else if (ch < 0x20 || ch >= 0x7f)
			rgconf_sb_add(b, "\\x%02x", ch);
		else
			rgconf_sb_add(b, "%c", ch);
	}
	rgconf_sb_add(b, "\"");
}

static bool is_decimal(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > 15)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return n == 1 || s[-(long)n] != '0';
}

/* A group's resources: memory_max = "1G"; io_max = ( "8:0 rbps=1M", ... ); */
static void format_res(struct rgconf_sbuf *b, const struct kattr_rgconf_group *g)
{
	for (size_t k = 0; k < g->nres; k++) {
		const char *eq = strchr(g->res[k], '=');
		size_t klen = eq ? (size_t)(eq - g->res[k]) : 0, more = 0;
		bool first = true;

		if (!eq)
			continue;
		for (size_t j = 0; j < k && first; j++)
			first = strncmp(g->res[j], g->res[k], klen + 1) != 0;
		if (!first)
			continue;	/* written with the first of its key */
		for (size_t j = k + 1; j < g->nres; j++)
			more += strncmp(g->res[j], g->res[k], klen + 1) == 0;
		rgconf_sb_add(b, " ");
		for (size_t i = 0; i < klen; i++)
			rgconf_sb_add(b, "%c", g->res[k][i] == '.' ? '_' : g->res[k][i]);
		rgconf_sb_add(b, " = %s", more ? "( " : "");
		for (size_t j = k; j < g->nres; j++) {
			if (strncmp(g->res[j], g->res[k], klen + 1) != 0)
				continue;
			rgconf_sb_add(b, "%s", j > k ? ", " : "");
			sb_str(b, g->res[j] + klen + 1);
		}
		rgconf_sb_add(b, "%s;", more ? " )" : "");
	}
}

char *kattr_rgconf_format(const struct kattr_rgconf *c)
{
	struct rgconf_sbuf b = { 0 };
	size_t i;

	if (c->backend) {
		rgconf_sb_add(&b, "backend = ");
		sb_str(&b, c->backend);
		rgconf_sb_add(&b, ";\n");
	}
	rgconf_sb_add(&b, "groups = (");
	for (i = 0; i < c->ngroups; i++) {
		const struct kattr_rgconf_group *g = &c->groups[i];

		rgconf_sb_add(&b, "%s\n  { name = ", i ? "," : "");
		sb_str(&b, g->name);
		rgconf_sb_add(&b, ";");
		if (g->shares) {
			rgconf_sb_add(&b, " shares = ");
			if (is_decimal(g->shares))
				rgconf_sb_add(&b, "%s", g->shares);
			else
				sb_str(&b, g->shares);
			rgconf_sb_add(&b, ";");
		}
		format_res(&b, g);
		rgconf_sb_add(&b, " }");
	}
	rgconf_sb_add(&b, "%s);\n", c->ngroups ? "\n" : " ");
	rgconf_sb_add(&b, "rules = (");
	for (i = 0; i < c->nrules; i++) {
		const struct kattr_rgconf_rule *r = &c->rules[i];

		rgconf_sb_add(&b, "%s\n  { group = ", i ? "," : "");
		sb_str(&b, r->group);
		rgconf_sb_add(&b, ";");
#define STRKEY(k, f) if (r->f) { rgconf_sb_add(&b, " " k " = "); sb_str(&b, r->f); rgconf_sb_add(&b, ";"); }
		STRKEY("comm", comm)
		STRKEY("exe", exe)
		STRKEY("user", user)
		STRKEY("unix_group", ugroup)
#undef STRKEY
		if (r->has_uid)
			rgconf_sb_add(&b, " uid = %u;", r->uid);
		if (r->has_gid)
			rgconf_sb_add(&b, " gid = %u;", r->gid);
		rgconf_sb_add(&b, " }");
	}
	rgconf_sb_add(&b, "%s);\n", c->nrules ? "\n" : " ");
	if (b.oom) {
		free(b.s);
		return NULL;
	}
	return b.s;
}
