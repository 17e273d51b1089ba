// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * rgctl.conf(5) parsed: the preprocessed text (pre.c) read by libconfig,
 * its tree checked and turned into the model (kattr/rgconf.h).
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kattr/private_rgconf.h"
#include "rgconf_internal.h"

#if WITH_LIBCONFIG

#include <libconfig.h>

struct pctx {
	const char *file;
	char *err;
	size_t errsz;
	struct kattr_rgconf *c;
	const struct rgconf_pre *pre;
};

/* FILE:LINE of setting s as the user wrote it. */
static void where(const struct pctx *x, const config_setting_t *s,
		  const char **file, unsigned int *line)
{
	rgconf_pre_where(x->pre, s ? (unsigned int)config_setting_source_line(s) : 0,
		  file, line);
}

static int bad(struct pctx *x, const config_setting_t *s, const char *key,
	       const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int bad(struct pctx *x, const config_setting_t *s, const char *key,
	       const char *fmt, ...)
{
	const char *file;
	unsigned int line;
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	where(x, s, &file, &line);
	rgconf_set_err(x->err, x->errsz, "%s:%u: %s: %s", file, line, key, why);
	return -EINVAL;
}

/* Where the element el was written, into *file (strdup) and *line. */
static int set_where(const struct pctx *x, const config_setting_t *el,
		     char **file, unsigned int *line)
{
	const char *f;

	where(x, el, &f, line);
	*file = strdup(f);
	return *file ? 0 : -ENOMEM;
}

static bool is_int(const config_setting_t *s)
{
	int t = config_setting_type(s);

	return t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64;
}

/* A string value into *out (strdup). */
static int get_str(struct pctx *x, const config_setting_t *s, const char *key,
		   char **out)
{
	const char *v;

	if (config_setting_type(s) != CONFIG_TYPE_STRING)
		return bad(x, s, key, "must be a string");
	v = config_setting_get_string(s);
	if (*out)
		return bad(x, s, key, "given twice");
	*out = strdup(v ? v : "");
	return *out ? 0 : -ENOMEM;
}

static int get_id(struct pctx *x, const config_setting_t *s, const char *key,
		  uint32_t *out)
{
	long long v;

	if (!is_int(s))
		return bad(x, s, key, "must be an integer");
	v = config_setting_get_int64(s);
	if (v < 0 || v >= UINT32_MAX)
		return bad(x, s, key, "%lld is out of range (0..%u)", v,
			   UINT32_MAX - 1);
	*out = (uint32_t)v;
	return 0;
}

static int check_name(struct pctx *x, const config_setting_t *s, const char *key,
		      const char *name)
{
	struct kattr_why why = { 0 };

	if (kattr_name_check(name, &why) < 0)
		return bad(x, s, key, "bad group name '%s': %s", name,
			   why.text ? why.text : "invalid");
	return 0;
}

/* One value of a resource: checked for form, kept as "key=value". */
static int add_res(struct pctx *x, const config_setting_t *s, const char *key,
		   const struct kattr_rgres *res, const char *value,
		   struct kattr_rgconf_group *g)
{
	/* the machine is not known here: a generous one for the form */
	static const struct kattr_rgres_limits any = {
		.mem_total = 1ULL << 50, .page_size = 1,
	};
	struct kattr_rgres_value v;
	struct kattr_why why = { 0 };
	char **tmp;

	if (kattr_rgres_parse(res->key, value, &any, &v, &why) < 0)
		return bad(x, s, key, "'%s': %s", value, why.text ? why.text : "invalid");
	tmp = realloc(g->res, (g->nres + 1) * sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	g->res = tmp;
	if (asprintf(&g->res[g->nres], "%s=%s", res->key, value) < 0)
		return -ENOMEM;
	g->nres++;
	return 0;
}

/* A resource key of a group (memory_max, or systemd's MemoryMax): a
 * string, an integer, or for io_max a list of strings. */
static int parse_res(struct pctx *x, const config_setting_t *s, const char *key,
		     const char *n, struct kattr_rgconf_group *g)
{
	char name[64], num[32];
	const struct kattr_rgres *res;
	int field;

	snprintf(name, sizeof(name), "%s", n ? n : "");
	for (char *p = name; *p; p++)
		if (*p == '_')
			*p = '.';
	res = kattr_rgres_find(name, &field);
	if (!res)
		return bad(x, s, key, "unknown key (known: name, shares, and the resources of rgctl(8), with _ for .)");
	if (field >= 0)
		return bad(x, s, key, "write io_max = \"DEV rbps=N wbps=N riops=N wiops=N\"");
	for (size_t k = 0; k < g->nres; k++)
		if (!strncmp(g->res[k], res->key, strlen(res->key)) &&
		    g->res[k][strlen(res->key)] == '=')
			return bad(x, s, key, "given twice (as %s)", res->key);
	if (is_int(s)) {
		snprintf(num, sizeof(num), "%lld", (long long)config_setting_get_int64(s));
		return add_res(x, s, key, res, num, g);
	}
	if (config_setting_type(s) == CONFIG_TYPE_STRING)
		return add_res(x, s, key, res, config_setting_get_string(s), g);
	if (res->type != KATTR_RGRES_IO_MAX ||
	    (config_setting_type(s) != CONFIG_TYPE_LIST &&
	     config_setting_type(s) != CONFIG_TYPE_ARRAY))
		return bad(x, s, key, "must be a string or an integer%s",
			   res->type == KATTR_RGRES_IO_MAX ? " (io_max: or a list of strings)" : "");
	for (int i = 0; i < config_setting_length(s); i++) {
		const config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
		int r;

		if (config_setting_type(e) != CONFIG_TYPE_STRING)
			return bad(x, e, key, "must be a list of strings");
		r = add_res(x, e, key, res, config_setting_get_string(e), g);
		if (r < 0)
			return r;
	}
	return 0;
}

static int parse_group(struct pctx *x, const config_setting_t *el, size_t idx,
		       struct kattr_rgconf_group *g)
{
	char key[64];
	int i, r;

	r = set_where(x, el, &g->file, &g->line);
	if (r < 0)
		return r;
	if (config_setting_type(el) != CONFIG_TYPE_GROUP) {
		snprintf(key, sizeof(key), "groups[%zu]", idx + 1);
		return bad(x, el, key, "must be a group { name = ...; }");
	}
	for (i = 0; i < config_setting_length(el); i++) {
		const config_setting_t *s = config_setting_get_elem(el, (unsigned)i);
		const char *n = config_setting_name(s);

		snprintf(key, sizeof(key), "groups[%zu].%s", idx + 1, n ? n : "?");
		if (n && strcmp(n, "name") == 0) {
			r = get_str(x, s, key, &g->name);
			if (r == 0)
				r = check_name(x, s, key, g->name);
		} else if (n && strcmp(n, "shares") == 0) {
			if (is_int(s)) {
				long long v = config_setting_get_int64(s);

				if (v <= 0)
					return bad(x, s, key, "%lld is not a positive number", v);
				if (v > KATTR_RG_CG1_SHARES_MAX)
					return bad(x, s, key, "%lld is out of range (at most %d: cgroup1 cpu.shares 2..%d, cgroup2 cpu.weight 1..%d)",
						   v, KATTR_RG_CG1_SHARES_MAX,
						   KATTR_RG_CG1_SHARES_MAX,
						   KATTR_RG_CG2_WEIGHT_MAX);
				if (asprintf(&g->shares, "%lld", v) < 0) {
					g->shares = NULL;
					return -ENOMEM;
				}
				r = 0;
			} else if (config_setting_type(s) == CONFIG_TYPE_STRING) {
				r = get_str(x, s, key, &g->shares);
				if (r == 0 && !g->shares[0])
					r = bad(x, s, key, "empty");
			} else {
				r = bad(x, s, key, "must be an integer or a string");
			}
		} else {
			r = parse_res(x, s, key, n, g);
		}
		if (r < 0)
			return r;
	}
	if (!g->name) {
		snprintf(key, sizeof(key), "groups[%zu].name", idx + 1);
		return bad(x, el, key, "missing");
	}
	for (size_t k = 0; g->shares && k < g->nres; k++)
		if (strncmp(g->res[k], "cpu.weight=", 11) == 0) {
			snprintf(key, sizeof(key), "groups[%zu].cpu_weight", idx + 1);
			return bad(x, el, key, "give shares or cpu_weight, not both (shares is its short form)");
		}
	return 0;
}

static int parse_rule(struct pctx *x, const config_setting_t *el, size_t idx,
		      struct kattr_rgconf_rule *rl)
{
	char key[64];
	int i, r, nmatch = 0;

	r = set_where(x, el, &rl->file, &rl->line);
	if (r < 0)
		return r;
	if (config_setting_type(el) != CONFIG_TYPE_GROUP) {
		snprintf(key, sizeof(key), "rules[%zu]", idx + 1);
		return bad(x, el, key, "must be a group { group = ...; ... }");
	}
	for (i = 0; i < config_setting_length(el); i++) {
		const config_setting_t *s = config_setting_get_elem(el, (unsigned)i);
		const char *n = config_setting_name(s);

		if (!n)
			n = "?";
		snprintf(key, sizeof(key), "rules[%zu].%s", idx + 1, n);
		if (strcmp(n, "group") == 0) {
			r = get_str(x, s, key, &rl->group);
			nmatch--;
		} else if (strcmp(n, "comm") == 0) {
			r = get_str(x, s, key, &rl->comm);
			if (r == 0 && (!rl->comm[0] || strlen(rl->comm) > 15))
				r = bad(x, s, key, "must be 1 to 15 bytes (the kernel keeps 15)");
		} else if (strcmp(n, "exe") == 0) {
			r = get_str(x, s, key, &rl->exe);
			if (r == 0 && rl->exe[0] != '/')
				r = bad(x, s, key, "must be a full path");
		} else if (strcmp(n, "user") == 0) {
			r = get_str(x, s, key, &rl->user);
			if (r == 0 && !rl->user[0])
				r = bad(x, s, key, "empty");
		} else if (strcmp(n, "unix_group") == 0) {
			r = get_str(x, s, key, &rl->ugroup);
			if (r == 0 && !rl->ugroup[0])
				r = bad(x, s, key, "empty");
		} else if (strcmp(n, "uid") == 0) {
			r = get_id(x, s, key, &rl->uid);
			rl->has_uid = true;
		} else if (strcmp(n, "gid") == 0) {
			r = get_id(x, s, key, &rl->gid);
			rl->has_gid = true;
		} else {
			r = bad(x, s, key,
				"unknown key (known: group, comm, exe, user, uid, gid, unix_group)");
		}
		if (r < 0)
			return r;
		nmatch++;
	}
	if (!rl->group) {
		snprintf(key, sizeof(key), "rules[%zu].group", idx + 1);
		return bad(x, el, key, "missing");
	}
	if (nmatch == 0) {
		snprintf(key, sizeof(key), "rules[%zu]", idx + 1);
		return bad(x, el, key,
			   "no condition (give comm, exe, user, uid, gid or unix_group)");
	}
	if (!kattr_rgconf_find_group(x->c, rl->group)) {
		snprintf(key, sizeof(key), "rules[%zu].group", idx + 1);
		return bad(x, el, key, "group '%s' is not declared in groups",
			   rl->group);
	}
	return 0;
}

static int parse_list(struct pctx *x, const config_setting_t *s, const char *key,
		      bool groups)
{
	struct kattr_rgconf *c = x->c;
	int n = config_setting_length(s);
	int i, r;

	if (config_setting_type(s) != CONFIG_TYPE_LIST)
		return bad(x, s, key, "must be a list ( {...}, {...} )");
	if ((groups && c->groups) || (!groups && c->rules))
		return bad(x, s, key, "given twice");
	if (groups) {
		c->groups = calloc((size_t)n + 1, sizeof(*c->groups));
		if (!c->groups)
			return -ENOMEM;
	} else {
		c->rules = calloc((size_t)n + 1, sizeof(*c->rules));
		if (!c->rules)
			return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		const config_setting_t *el = config_setting_get_elem(s, (unsigned)i);

		if (groups) {
			struct kattr_rgconf_group *g = &c->groups[c->ngroups++];

			r = parse_group(x, el, (size_t)i, g);
			if (r < 0)
				return r;
			if (kattr_rgconf_find_group(c, g->name) != g) {
				char k[64];

				snprintf(k, sizeof(k), "groups[%d].name", i + 1);
				return bad(x, el, k, "group '%s' is declared twice", g->name);
			}
		} else {
			r = parse_rule(x, el, (size_t)i, &c->rules[c->nrules++]);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

/* Every nested group's parent must be declared before it is used. */
static int check_parents(struct pctx *x, const config_setting_t *list)
{
	struct kattr_rgconf *c = x->c;
	size_t i;

	for (i = 0; i < c->ngroups; i++) {
		const char *name = c->groups[i].name;
		const char *slash = strrchr(name, '/');
		char parent[4096], key[64];

		if (!slash)
			continue;
		snprintf(parent, sizeof(parent), "%.*s", (int)(slash - name), name);
		if (!kattr_rgconf_find_group(c, parent)) {
			snprintf(key, sizeof(key), "groups[%zu].name", i + 1);
			return bad(x, config_setting_get_elem(list, (unsigned)i), key,
				   "parent group '%s' of '%s' is not declared",
				   parent, name);
		}
	}
	return 0;
}

static int parse_root(struct pctx *x, config_t *cfg)
{
	const config_setting_t *root = config_root_setting(cfg);
	const config_setting_t *groups = NULL, *rules = NULL;
	int i, r;

	for (i = 0; i < config_setting_length(root); i++) {
		const config_setting_t *s = config_setting_get_elem(root, (unsigned)i);
		const char *n = config_setting_name(s);

		if (!n)
			n = "?";
		if (strcmp(n, "backend") == 0) {
			r = get_str(x, s, n, &x->c->backend);
			if (r == 0 && strcmp(x->c->backend, "rgcs") != 0 &&
			    strcmp(x->c->backend, "cgroup1") != 0 &&
			    strcmp(x->c->backend, "cgroup2") != 0)
				r = bad(x, s, n, "'%s' is not a backend (rgcs, cgroup1, cgroup2)",
					x->c->backend);
		} else if (strcmp(n, "groups") == 0) {
			groups = s;
			r = 0;
		} else if (strcmp(n, "rules") == 0) {
			rules = s;
			r = 0;
		} else {
			r = bad(x, s, n, "unknown key (known: backend, groups, rules)");
		}
		if (r < 0)
			return r;
	}
	/* Groups first: rules name them. */
	if (groups) {
		r = parse_list(x, groups, "groups", true);
		if (r == 0)
			r = check_parents(x, groups);
		if (r < 0)
			return r;
	}
	if (rules)
		return parse_list(x, rules, "rules", false);
	return 0;
}

/* Parse text (named file), reading @include'd files when allow_include. */
static int parse_text(const char *text, const char *file, bool allow_include,
		      struct kattr_rgconf **out, char *err, size_t errsz)
{
	struct rgconf_pre pre = { .allow_include = allow_include, .err = err,
			   .errsz = errsz, .out_line = 1 };
	struct pctx x = { .file = file, .err = err, .errsz = errsz, .pre = &pre };
	const char *efile;
	unsigned int eline;
	config_t cfg;
	int r;

	pre.total = strlen(text);
	r = rgconf_pre_text(&pre, text, file, 0);
	if (r < 0) {
		if (r == -ENOMEM)
			rgconf_set_err(err, errsz, "%s: out of memory", file);
		rgconf_pre_free(&pre);
		return r == -ERANGE ? -EINVAL : r;
	}
	x.c = calloc(1, sizeof(*x.c));
	if (!x.c || !(x.c->file = strdup(file))) {
		free(x.c);
		rgconf_pre_free(&pre);
		rgconf_set_err(err, errsz, "%s: out of memory", file);
		return -ENOMEM;
	}
	config_init(&cfg);
	config_set_options(&cfg, 0);	/* no auto-conversion */
	if (config_read_string(&cfg, pre.out.s ? pre.out.s : "") != CONFIG_TRUE) {
		rgconf_pre_where(&pre, (unsigned int)config_error_line(&cfg), &efile, &eline);
		rgconf_set_err(err, errsz, "%s:%u: %s", efile, eline, config_error_text(&cfg));
		r = -EINVAL;
	} else {
		r = parse_root(&x, &cfg);
	}
	config_destroy(&cfg);
	rgconf_pre_free(&pre);
	if (r < 0) {
		if (r == -ENOMEM)
			rgconf_set_err(err, errsz, "%s: out of memory", file);
		kattr_rgconf_free(x.c);
		return r;
	}
	*out = x.c;
	return 0;
}

static int parse_string(const char *text, const char *file,
			struct kattr_rgconf **out, char *err, size_t errsz)
{
	return parse_text(text, file ? file : "<string>", false, out, err, errsz);
}

static int parse_file(const char *path, struct kattr_rgconf **out,
		      char *err, size_t errsz)
{
	struct rgconf_pre pre = { .err = err, .errsz = errsz };
	char *text;
	size_t len;
	int r;

	r = rgconf_read_regular(&pre, path, "", &text, &len);
	if (r < 0)
		return r;
	r = parse_text(text, path, true, out, err, errsz);
	free(text);
	return r;
}

#else /* !WITH_LIBCONFIG */

static int parse_string(const char *text, const char *file,
			struct kattr_rgconf **out, char *err, size_t errsz)
{
	rgconf_set_err(err, errsz, "built without libconfig");
	return -EOPNOTSUPP;
}

static int parse_file(const char *path, struct kattr_rgconf **out,
		      char *err, size_t errsz)
{
	rgconf_set_err(err, errsz, "built without libconfig");
	return -EOPNOTSUPP;
}

#endif

int kattr_rgconf_parse_string(const char *text, const char *file,
			      struct kattr_rgconf **out, struct kattr_why *why)
{
	rgconf_why_begin(why);
	return rgconf_why_end(why, parse_string(text, file, out, RGCONF_WHY_ERR(why)));
}

int kattr_rgconf_parse_file(const char *path, struct kattr_rgconf **out,
			    struct kattr_why *why)
{
	rgconf_why_begin(why);
	return rgconf_why_end(why, parse_file(path, out, RGCONF_WHY_ERR(why)));
}
