// SPDX-License-Identifier: GPL-2.0-or-later
/* Saved `likelytop --callers -J` snapshots for --suggest (callers_saved.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "callers_note.h"
#include "callers_saved.h"

void lt_saved_free(struct lt_saved *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->v[i].function);
		free(s->v[i].name);
		free(s->v[i].module);
	}
	free(s->v);
	memset(s, 0, sizeof(*s));
}

static bool same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* Add calls and wrong to (function, name, module)'s entry. */
static int add(struct lt_saved *s, const char *function, const char *name,
	       const char *module, uint64_t calls, uint64_t wrong)
{
	struct lt_saved_caller *c;

	for (size_t i = 0; i < s->n; i++) {
		c = &s->v[i];
		if (!strcmp(c->function, function) && !strcmp(c->name, name) &&
		    same(c->module, module)) {
			c->calls += calls;
			c->wrong += wrong;
			return 0;
		}
	}
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;

		c = realloc(s->v, cap * sizeof(*c));
		if (!c)
			return -ENOMEM;
		s->v = c;
		s->cap = cap;
	}
	c = &s->v[s->n];
	c->function = strdup(function);
	c->name = strdup(name);
	c->module = module ? strdup(module) : NULL;
	c->calls = calls;
	c->wrong = wrong;
	if (!c->function || !c->name || (module && !c->module)) {
		free(c->function);
		free(c->name);
		free(c->module);
		return -ENOMEM;
	}
	s->n++;
	return 0;
}

/* A count: a JSON integer >= 0. */
static bool count_of(json_object *o, uint64_t *v)
{
	int64_t i;

	if (!o || !json_object_is_type(o, json_type_int))
		return false;
	i = json_object_get_int64(o);
	if (i < 0)
		return false;
	*v = (uint64_t)i;
	return true;
}

/* One caller object of a snapshot of function into s. */
static int one_caller(struct lt_saved *s, const char *function, json_object *c,
		      const char **why)
{
	json_object *name, *mod, *calls, *wrong;
	uint64_t nc, nw;

	if (!json_object_is_type(c, json_type_object) ||
	    !json_object_object_get_ex(c, "caller", &name) ||
	    !json_object_is_type(name, json_type_string)) {
		*why = "a caller without its name (\"caller\")";
		return -EINVAL;
	}
	json_object_object_get_ex(c, "module", &mod);
	json_object_object_get_ex(c, "calls", &calls);
	json_object_object_get_ex(c, "wrong", &wrong);
	if ((mod && !json_object_is_type(mod, json_type_string)) ||
	    !count_of(calls, &nc) || !count_of(wrong, &nw) || nw > nc) {
		*why = "a caller whose module, calls or wrong are not what --callers -J writes";
		return -EINVAL;
	}
	return add(s, function, json_object_get_string(name),
		   mod ? json_object_get_string(mod) : NULL, nc, nw);
}

/* One line: a snapshot (-EINVAL with *why when it is not one). */
static int one_line(struct lt_saved *s, const char *p, size_t n, const char **why)
{
	json_object *o, *site, *fn, *callers, *wrong;
	int ret = -EINVAL;
	char *line = strndup(p, n);

	if (!line)
		return -ENOMEM;
	o = json_tokener_parse(line);
	free(line);
	*why = "not JSON";
	if (!o)
		return -EINVAL;
	*why = "not a snapshot of likelytop --callers -J (site.function, callers)";
	if (json_object_is_type(o, json_type_object) &&
	    json_object_object_get_ex(o, "site", &site) &&
	    json_object_object_get_ex(site, "function", &fn) &&
	    json_object_is_type(fn, json_type_string) &&
	    json_object_object_get_ex(o, "callers", &callers) &&
	    json_object_is_type(callers, json_type_array)) {
		ret = 0;
		/* the split unknown (wrong: null): nothing to say of it */
		if (json_object_object_get_ex(o, "wrong", &wrong) && wrong)
			for (size_t i = 0; ret == 0 && i < json_object_array_length(callers); i++)
				ret = one_caller(s, json_object_get_string(fn),
						 json_object_array_get_idx(callers, i), why);
	}
	json_object_put(o);
	return ret;
}

int lt_saved_parse(const char *text, size_t len, struct lt_saved *s,
		   size_t *bad_line, const char **why)
{
	const char *p = text, *end = text + len;
	int ret = 0;

	memset(s, 0, sizeof(*s));
	*bad_line = 0;
	*why = NULL;
	while (p < end && ret == 0) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (nl ? (size_t)(nl - p) : (size_t)(end - p));

		++*bad_line;
		if (n && memchr(p, '\0', n)) {
			*why = "a NUL byte";
			ret = -EINVAL;
		} else if (n) {
			ret = one_line(s, p, n, why);
		}
		p += n + 1;
	}
	if (ret < 0)
		lt_saved_free(s);
	else
		*bad_line = 0;
	return ret;
}

static int by_wrong(const void *a, const void *b)
{
	const struct lt_saved_caller *x = *(const struct lt_saved_caller *const *)a;
	const struct lt_saved_caller *y = *(const struct lt_saved_caller *const *)b;

	if (x->wrong != y->wrong)
		return x->wrong < y->wrong ? 1 : -1;
	if (x->calls != y->calls)
		return x->calls < y->calls ? 1 : -1;
	return strcmp(x->name, y->name);
}

char *lt_saved_note(void *ctx, const char *func, const char *file,
		    unsigned int line)
{
	struct lt_note_caller top[2] = { { 0 } };
	const struct lt_saved *s = ctx;
	struct lt_saved_caller **v;
	uint64_t wrong = 0;
	size_t n = 0;
	char *out;

	(void)file;
	(void)line;
	v = malloc((s->n ? s->n : 1) * sizeof(*v));
	if (!v)
		return NULL;
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].function, func)) {
			v[n++] = &s->v[i];
			wrong += s->v[i].wrong;
		}
	qsort(v, n, sizeof(*v), by_wrong);
	for (size_t i = 0; i < 2 && i < n; i++)
		top[i] = (struct lt_note_caller){ .name = v[i]->name,
			.module = v[i]->module, .calls = v[i]->calls, .wrong = v[i]->wrong };
	out = lt_callers_note(top, n, wrong, "traced by likelytop --callers");
	free(v);
	return out;
}
