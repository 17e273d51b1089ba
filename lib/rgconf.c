// SPDX-License-Identifier: LGPL-2.1-or-later
/* The rgctl configuration model (libconfig) and rule matching. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kattr/rgconf.h"

static void set_err(char *err, size_t errsz, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void set_err(char *err, size_t errsz, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errsz)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errsz, fmt, ap);
	va_end(ap);
}

KATTR_API void kattr_rgconf_free(struct kattr_rgconf *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->ngroups; i++) {
		free(c->groups[i].name);
		free(c->groups[i].shares);
	}
	for (i = 0; i < c->nrules; i++) {
		struct kattr_rgconf_rule *r = &c->rules[i];

		free(r->group);
		free(r->comm);
		free(r->exe);
		free(r->user);
		free(r->ugroup);
	}
	free(c->groups);
	free(c->rules);
	free(c->backend);
	free(c->file);
	free(c);
}

KATTR_API const struct kattr_rgconf_group *
kattr_rgconf_find_group(const struct kattr_rgconf *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->ngroups; i++)
		if (strcmp(c->groups[i].name, name) == 0)
			return &c->groups[i];
	return NULL;
}

/* ---- formatting ------------------------------------------------------ */

struct sbuf {
	char *s;
	size_t len, cap;
	bool oom;
};

static void sb_add(struct sbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void sb_add(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->oom)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->s ? b->s + b->len : NULL,
			      b->s ? b->cap - b->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->oom = true;
			return;
		}
		if (b->s && b->len + (size_t)n < b->cap) {
			b->len += (size_t)n;
			return;
		}
		size_t cap = (b->cap ? b->cap : 256);
		while (cap <= b->len + (size_t)n)
			cap *= 2;
		char *s = realloc(b->s, cap);
		if (!s) {
			b->oom = true;
			return;
		}
		b->s = s;
		b->cap = cap;
	}
}

static void sb_str(struct sbuf *b, const char *s)
{
	sb_add(b, "\"");
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			sb_add(b, "\\%c", ch);
		else if (ch == '\n')
			sb_add(b, "\\n");
		else if (ch == '\t')
			sb_add(b, "\\t");
		else if (ch < 0x20 || ch >= 0x7f)
			sb_add(b, "\\x%02x", ch);
		else
			sb_add(b, "%c", ch);
	}
	sb_add(b, "\"");
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

KATTR_API char *kattr_rgconf_format(const struct kattr_rgconf *c)
{
	struct sbuf b = { 0 };
	size_t i;

	if (c->backend) {
		sb_add(&b, "backend = ");
		sb_str(&b, c->backend);
		sb_add(&b, ";\n");
	}
	sb_add(&b, "groups = (");
	for (i = 0; i < c->ngroups; i++) {
		const struct kattr_rgconf_group *g = &c->groups[i];

		sb_add(&b, "%s\n  { name = ", i ? "," : "");
		sb_str(&b, g->name);
		sb_add(&b, ";");
		if (g->shares) {
			sb_add(&b, " shares = ");
			if (is_decimal(g->shares))
				sb_add(&b, "%s", g->shares);
			else
				sb_str(&b, g->shares);
			sb_add(&b, ";");
		}
		sb_add(&b, " }");
	}
	sb_add(&b, "%s);\n", c->ngroups ? "\n" : " ");
	sb_add(&b, "rules = (");
	for (i = 0; i < c->nrules; i++) {
		const struct kattr_rgconf_rule *r = &c->rules[i];

		sb_add(&b, "%s\n  { group = ", i ? "," : "");
		sb_str(&b, r->group);
		sb_add(&b, ";");
#define STRKEY(k, f) if (r->f) { sb_add(&b, " " k " = "); sb_str(&b, r->f); sb_add(&b, ";"); }
		STRKEY("comm", comm)
		STRKEY("exe", exe)
		STRKEY("user", user)
		STRKEY("unix_group", ugroup)
#undef STRKEY
		if (r->has_uid)
			sb_add(&b, " uid = %u;", r->uid);
		if (r->has_gid)
			sb_add(&b, " gid = %u;", r->gid);
		sb_add(&b, " }");
	}
	sb_add(&b, "%s);\n", c->nrules ? "\n" : " ");
	if (b.oom) {
		free(b.s);
		return NULL;
	}
	return b.s;
}

/* ---- processes ------------------------------------------------------- */

static int parse_u32(const char *s, char **end, uint32_t *v)
{
	unsigned long n;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	n = strtoul(s, end, 10);
	if (errno || n > UINT32_MAX)
		return -EINVAL;
	*v = (uint32_t)n;
	return 0;
}

/* The value of "Key:\t..." in status text, or NULL. */
static const char *status_field(const char *text, const char *key)
{
	size_t kl = strlen(key);
	const char *p = text;

	while (p && *p) {
		if (strncmp(p, key, kl) == 0 && p[kl] == ':') {
			p += kl + 1;
			while (*p == ' ' || *p == '\t')
				p++;
			return p;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

/* The second number of an "Uid:" line: the effective id. */
static int effective_id(const char *v, uint32_t *id)
{
	char *end;
	uint32_t real;

	if (!v || parse_u32(v, &end, &real) < 0)
		return -EINVAL;
	while (*end == ' ' || *end == '\t')
		end++;
	return parse_u32(end, &end, id);
}

KATTR_API int kattr_rgproc_parse_status(const char *text, struct kattr_rgproc *p)
{
	const char *v;
	char *end;
	uint32_t n;

	if (effective_id(status_field(text, "Uid"), &p->uid) < 0 ||
	    effective_id(status_field(text, "Gid"), &p->gid) < 0)
		return -EINVAL;
	v = status_field(text, "PPid");
	if (!v || parse_u32(v, &end, &n) < 0 || n > INT_MAX)
		return -EINVAL;
	p->ppid = (pid_t)n;
	p->ngroups = 0;
	v = status_field(text, "Groups");
	while (v && *v && *v != '\n') {
		if (parse_u32(v, &end, &n) < 0)
			return -EINVAL;
		if (p->ngroups < KATTR_RGPROC_MAX_GROUPS)
			p->groups[p->ngroups++] = n;
		v = end;
		while (*v == ' ' || *v == '\t')
			v++;
	}
	v = status_field(text, "Kthread");
	p->kthread = (v && *v == '1') || p->ppid == 2 || p->pid == 2;
	return 0;
}

KATTR_API int kattr_rgproc_parse_stat(const char *text, struct kattr_rgproc *p)
{
	const char *open = strchr(text, '('), *close = strrchr(text, ')');
	unsigned long long flags, start;
	char state;
	int ppid;
	size_t n;

	if (!open || !close || close < open)
		return -EINVAL;
	n = (size_t)(close - open - 1);
	if (n >= sizeof(p->comm))
		n = sizeof(p->comm) - 1;
	memcpy(p->comm, open + 1, n);
	p->comm[n] = '\0';
	/* state ppid pgrp session tty_nr tpgid flags (9), ..., starttime (22) */
	if (sscanf(close + 1, " %c %d %*d %*d %*d %*d %llu %*u %*u %*u %*u %*u %*u"
		   " %*d %*d %*d %*d %*d %*d %llu", &state, &ppid, &flags, &start) != 4 ||
	    ppid < 0)
		return -EINVAL;
	p->ppid = ppid;
	p->starttime = start;
	p->kthread = (flags & 0x00200000ULL) != 0;	/* PF_KTHREAD */
	return 0;
}

KATTR_API unsigned int kattr_rgconf_needs(const struct kattr_rgconf *c)
{
	unsigned int what = 0;

	for (size_t i = 0; i < c->nrules; i++) {
		const struct kattr_rgconf_rule *r = &c->rules[i];

		if (r->exe)
			what |= KATTR_RGPROC_EXE;
		if (r->user || r->ugroup || r->has_uid || r->has_gid)
			what |= KATTR_RGPROC_IDS;
	}
	return what;
}

KATTR_API int kattr_rgproc_read(pid_t pid, unsigned int what,
				struct kattr_rgproc *p)
{
	char path[64], full[PATH_MAX];
	char *text;
	bool kthread;
	ssize_t n;
	int r;

	memset(p, 0, sizeof(*p));
	p->pid = pid;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	r = kattr_file_read(path, &text, NULL);
	if (r < 0)
		return r == -ENOENT ? -ESRCH : r;
	r = kattr_rgproc_parse_stat(text, p);
	free(text);
	if (r < 0)
		return r;
	kthread = p->kthread;
	if (what & KATTR_RGPROC_IDS) {
		char comm[sizeof(p->comm)];
		pid_t ppid = p->ppid;

		uint64_t start = p->starttime;

		memcpy(comm, p->comm, sizeof(comm));
		snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
		r = kattr_file_read(path, &text, NULL);
		if (r < 0)
			return r == -ENOENT ? -ESRCH : r;
		r = kattr_rgproc_parse_status(text, p);
		free(text);
		if (r < 0)
			return r;
		memcpy(p->comm, comm, sizeof(comm));
		p->ppid = ppid;
		p->starttime = start;
		p->kthread = kthread;
	}
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	if ((what & KATTR_RGPROC_EXE) && !p->kthread &&
	    kattr_sysroot_path(path, full, sizeof(full)) == 0) {
		n = readlink(full, p->exe, sizeof(p->exe) - 1);
		p->exe[n > 0 ? n : 0] = '\0';
	}
	return 0;
}

static bool in_groups(const struct kattr_rgproc *p, uint32_t gid)
{
	size_t i;

	if (p->gid == gid)
		return true;
	for (i = 0; i < p->ngroups; i++)
		if (p->groups[i] == gid)
			return true;
	return false;
}

KATTR_API int kattr_rgconf_match(const struct kattr_rgconf *c,
				 const struct kattr_rgproc *p)
{
	size_t i;

	if (p->kthread)
		return -1;
	for (i = 0; i < c->nrules; i++) {
		const struct kattr_rgconf_rule *r = &c->rules[i];

		if (r->comm && strcmp(r->comm, p->comm) != 0)
			continue;
		if (r->exe && strcmp(r->exe, p->exe) != 0)
			continue;
		if (r->user && (!r->resolved || p->uid != r->user_uid))
			continue;
		if (r->has_uid && p->uid != r->uid)
			continue;
		if (r->has_gid && !in_groups(p, r->gid))
			continue;
		if (r->ugroup && (!r->resolved || !in_groups(p, r->ugroup_gid)))
			continue;
		return (int)i;
	}
	return -1;
}

KATTR_API int kattr_rgconf_resolve(struct kattr_rgconf *c, char *err, size_t errsz)
{
	size_t i;

	for (i = 0; i < c->nrules; i++) {
		struct kattr_rgconf_rule *r = &c->rules[i];

		if (r->user) {
			struct passwd *pw;

			errno = 0;
			pw = getpwnam(r->user);
			if (!pw) {
				set_err(err, errsz, "%s:%u: rules[%zu].user: no such user '%s'",
					c->file, r->line, i + 1, r->user);
				return errno ? -errno : -ENOENT;
			}
			r->user_uid = pw->pw_uid;
		}
		if (r->ugroup) {
			struct group *gr;

			errno = 0;
			gr = getgrnam(r->ugroup);
			if (!gr) {
				set_err(err, errsz, "%s:%u: rules[%zu].unix_group: no such group '%s'",
					c->file, r->line, i + 1, r->ugroup);
				return errno ? -errno : -ENOENT;
			}
			r->ugroup_gid = gr->gr_gid;
		}
		r->resolved = true;
	}
	return 0;
}

/* ---- parsing --------------------------------------------------------- */

#if WITH_LIBCONFIG

#include <libconfig.h>

struct pctx {
	const char *file;
	char *err;
	size_t errsz;
	struct kattr_rgconf *c;
};

static int bad(struct pctx *x, const config_setting_t *s, const char *key,
	       const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int bad(struct pctx *x, const config_setting_t *s, const char *key,
	       const char *fmt, ...)
{
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	set_err(x->err, x->errsz, "%s:%u: %s: %s", x->file,
		s ? config_setting_source_line(s) : 0, key, why);
	return -EINVAL;
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
		return bad(x, s, key, "%lld is out of range", v);
	*out = (uint32_t)v;
	return 0;
}

static int check_name(struct pctx *x, const config_setting_t *s, const char *key,
		      const char *name)
{
	const char *why = NULL;

	if (kattr_name_check(name, &why) < 0)
		return bad(x, s, key, "bad group name '%s': %s", name,
			   why ? why : "invalid");
	return 0;
}

static int parse_group(struct pctx *x, const config_setting_t *el, size_t idx,
		       struct kattr_rgconf_group *g)
{
	char key[64];
	int i, r;

	g->line = config_setting_source_line(el);
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
			r = bad(x, s, key, "unknown key (known: name, shares)");
		}
		if (r < 0)
			return r;
	}
	if (!g->name) {
		snprintf(key, sizeof(key), "groups[%zu].name", idx + 1);
		return bad(x, el, key, "missing");
	}
	return 0;
}

static int parse_rule(struct pctx *x, const config_setting_t *el, size_t idx,
		      struct kattr_rgconf_rule *rl)
{
	char key[64];
	int i, r, nmatch = 0;

	rl->line = config_setting_source_line(el);
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

KATTR_API int kattr_rgconf_parse_string(const char *text, const char *file,
					struct kattr_rgconf **out,
					char *err, size_t errsz)
{
	struct pctx x = { .file = file ? file : "<string>", .err = err, .errsz = errsz };
	config_t cfg;
	int r;

	x.c = calloc(1, sizeof(*x.c));
	if (!x.c)
		return -ENOMEM;
	x.c->file = strdup(x.file);
	if (!x.c->file) {
		free(x.c);
		return -ENOMEM;
	}
	config_init(&cfg);
	config_set_options(&cfg, 0);	/* no auto-conversion */
	if (config_read_string(&cfg, text) != CONFIG_TRUE) {
		set_err(err, errsz, "%s:%d: %s", x.file, config_error_line(&cfg),
			config_error_text(&cfg));
		r = -EINVAL;
	} else {
		r = parse_root(&x, &cfg);
	}
	config_destroy(&cfg);
	if (r < 0) {
		if (r == -ENOMEM)
			set_err(err, errsz, "%s: out of memory", x.file);
		kattr_rgconf_free(x.c);
		return r;
	}
	*out = x.c;
	return 0;
}

KATTR_API int kattr_rgconf_parse_file(const char *path, struct kattr_rgconf **out,
				      char *err, size_t errsz)
{
	FILE *f = fopen(path, "re");
	char *text = NULL;
	size_t cap = 0, len = 0;
	int r = 0;

	if (!f) {
		r = -errno;
		set_err(err, errsz, "%s: %s", path, strerror(-r));
		return r;
	}
	for (;;) {
		if (len + 4096 + 1 > cap) {
			char *t;

			cap = cap ? cap * 2 : 8192;
			if (cap > (16u << 20)) {
				r = -EFBIG;
				break;
			}
			t = realloc(text, cap);
			if (!t) {
				r = -ENOMEM;
				break;
			}
			text = t;
		}
		size_t n = fread(text + len, 1, cap - len - 1, f);
		len += n;
		if (n == 0) {
			if (ferror(f))
				r = -EIO;
			break;
		}
	}
	fclose(f);
	if (r == 0 && memchr(text, '\0', len))
		r = -EINVAL;
	if (r < 0) {
		set_err(err, errsz, "%s: %s", path,
			r == -EINVAL ? "contains a NUL byte" : strerror(-r));
		free(text);
		return r;
	}
	text[len] = '\0';
	r = kattr_rgconf_parse_string(text, path, out, err, errsz);
	free(text);
	return r;
}

#else /* !WITH_LIBCONFIG */

KATTR_API int kattr_rgconf_parse_string(const char *text, const char *file,
					struct kattr_rgconf **out,
					char *err, size_t errsz)
{
	set_err(err, errsz, "built without libconfig");
	return -EOPNOTSUPP;
}

KATTR_API int kattr_rgconf_parse_file(const char *path, struct kattr_rgconf **out,
				      char *err, size_t errsz)
{
	set_err(err, errsz, "built without libconfig");
	return -EOPNOTSUPP;
}

#endif
