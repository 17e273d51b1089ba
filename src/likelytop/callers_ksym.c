// SPDX-License-Identifier: GPL-2.0-or-later
/* likelytop --callers: /proc/kallsyms' text symbols, sorted by address. */
#include <errno.h>
#include <stdbool.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callers_ksym.h"

static int by_addr(const void *a, const void *b)
{
	const struct lt_ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* One line "ADDR TYPE NAME [MODULE]", cut in place; false if not text. */
static bool parse_line(char *line, struct lt_ksym *s)
{
	char *end, *type, *name, *mod;

	s->addr = strtoull(line, &end, 16);
	if (end == line || *end != ' ')
		return false;
	type = end + 1;
	if ((*type != 't' && *type != 'T' && *type != 'w' && *type != 'W') ||
	    type[1] != ' ')
		return false;
	name = type + 2;
	end = strpbrk(name, " \t");
	s->module = NULL;
	if (end) {
		*end = '\0';
		mod = strchr(end + 1, '[');
		if (mod && strchr(mod, ']')) {
			*strchr(mod, ']') = '\0';
			s->module = mod + 1;
		}
	}
	s->name = name;
	return *name != '\0';
}

int lt_ksyms_load(struct lt_ksyms *k, char *text, size_t len)
{
	size_t cap = 0, lines = 0;
	char *line = text, *nl;
	bool nonzero = false;
	struct lt_ksym s;

	memset(k, 0, sizeof(*k));
	k->text = text;
	for (size_t i = 0; i < len; i++)
		lines += text[i] == '\n';
	cap = lines + 1;
	k->sym = malloc(cap * sizeof(*k->sym));
	if (!k->sym)
		return -ENOMEM;
	for (; line < text + len; line = nl + 1) {
		nl = memchr(line, '\n', (size_t)(text + len - line));
		if (!nl)
			break;		/* the text ends in a NUL after len */
		*nl = '\0';
		if (!parse_line(line, &s) || k->n >= cap)
			continue;
		nonzero |= s.addr != 0;
		k->sym[k->n++] = s;
	}
	if (!k->n)
		return -ENODATA;
	if (!nonzero)
		return -EPERM;
	qsort(k->sym, k->n, sizeof(*k->sym), by_addr);
	return 0;
}

void lt_ksyms_free(struct lt_ksyms *k)
{
	free(k->sym);
	free(k->text);
	memset(k, 0, sizeof(*k));
}

void lt_ksyms_name(const struct lt_ksyms *k, uint64_t addr, char *buf,
		   size_t size, const char **module)
{
	size_t lo = 0, hi = k->n;
	const struct lt_ksym *s;

	*module = NULL;
	while (lo < hi) {	/* the first symbol above addr */
		size_t mid = lo + (hi - lo) / 2;

		if (k->sym[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo) {
		snprintf(buf, size, "0x%" PRIx64, addr);
		return;
	}
	s = &k->sym[lo - 1];
	*module = s->module;
	snprintf(buf, size, "%s+0x%" PRIx64 "%s%s%s", s->name, addr - s->addr,
		 s->module ? " [" : "", s->module ? s->module : "",
		 s->module ? "]" : "");
}
