// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The rgctl.conf model (kattr/rgconf.h): its free, group lookup, user and
 * group names resolved; and the text helpers the layer's files share (the
 * error message, the growing string).
 */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kattr/private_rgconf.h"
#include "rgconf_internal.h"

void rgconf_set_err(char *err, size_t errsz, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errsz)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errsz, fmt, ap);
	va_end(ap);
}

void rgconf_why_begin(struct kattr_why *why)
{
	kattr_why_clear(why);
	if (why && why->buf && why->size)
		why->buf[0] = '\0';
}

int rgconf_why_end(struct kattr_why *why, int ret)
{
	if (ret >= 0 || !why)
		return ret;
	return kattr_why_set(why, KATTR_WHY_INVALID, ret,
			     why->buf && why->size && why->buf[0] ? why->buf :
			     "the configuration cannot be used");
}

void kattr_rgconf_free(struct kattr_rgconf *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->ngroups; i++) {
		free(c->groups[i].name);
		free(c->groups[i].shares);
		free(c->groups[i].file);
		for (size_t k = 0; k < c->groups[i].nres; k++)
			free(c->groups[i].res[k]);
		free(c->groups[i].res);
	}
	for (i = 0; i < c->nrules; i++) {
		struct kattr_rgconf_rule *r = &c->rules[i];

		free(r->group);
		free(r->file);
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

const struct kattr_rgconf_group *
kattr_rgconf_find_group(const struct kattr_rgconf *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->ngroups; i++)
		if (strcmp(c->groups[i].name, name) == 0)
			return &c->groups[i];
	return NULL;
}

static int resolve(struct kattr_rgconf *c, char *err, size_t errsz)
{
	size_t i;

	for (i = 0; i < c->nrules; i++) {
		struct kattr_rgconf_rule *r = &c->rules[i];

		if (r->user) {
			struct passwd *pw;

			errno = 0;
			pw = getpwnam(r->user);
			if (!pw) {
				rgconf_set_err(err, errsz, "%s:%u: rules[%zu].user: no such user '%s'",
					r->file ? r->file : c->file, r->line, i + 1, r->user);
				return errno ? -errno : -ENOENT;
			}
			r->user_uid = pw->pw_uid;
		}
		if (r->ugroup) {
			struct group *gr;

			errno = 0;
			gr = getgrnam(r->ugroup);
			if (!gr) {
				rgconf_set_err(err, errsz, "%s:%u: rules[%zu].unix_group: no such group '%s'",
					r->file ? r->file : c->file, r->line, i + 1, r->ugroup);
				return errno ? -errno : -ENOENT;
			}
			r->ugroup_gid = gr->gr_gid;
		}
		r->resolved = true;
	}
	return 0;
}

/* ---- the growing string ---------------------------------------------- */

void rgconf_sb_add(struct rgconf_sbuf *b, const char *fmt, ...)
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

int kattr_rgconf_resolve(struct kattr_rgconf *c, struct kattr_why *why)
{
	rgconf_why_begin(why);
	return rgconf_why_end(why, resolve(c, RGCONF_WHY_ERR(why)));
}
