/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libkattr: the rgctl configuration model (rgctl.conf(5)): groups with
 * their shares and classification rules, read with libconfig, and rule
 * matching over a process description.
 *
 * Parsing needs WITH_LIBCONFIG (-EOPNOTSUPP without it); the model,
 * the formatter and matching do not.
 */
#ifndef KATTR_RGCONF_H
#define KATTR_RGCONF_H

/* Inside lib/, only a layer that uses rgconf/ includes this: a call up the
 * layers fails to compile (lib/CMakeLists.txt sets KATTR_USES_*). */
#if defined(KATTR_BUILDING_LIB) && !defined(KATTR_USES_RGCONF)
#error "lib/: this layer does not use rgconf/ (a layer uses only the layers below it: lib/README)"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "kattr/kattr.h"
#include "kattr/rgproc.h"

#ifdef __cplusplus
extern "C" {
#endif

struct kattr_rgconf_group {
	char *name;		/* "db/batch": relative, checked */
	char *shares;		/* backend-native text, NULL when not given */
	/* resources (kattr/rgres.h), each "KEY=VALUE" with rgctl's key
	 * ("memory.max=1G"), checked for form (not yet against the machine) */
	char **res;
	size_t nres;
	unsigned line;
	char *file;		/* where line is: an @include'd file or the
				 * configuration's file (NULL: c->file) */
};

struct kattr_rgconf_rule {
	char *group;		/* a group named in groups */
	char *comm;		/* exact /proc/PID/comm, NULL: any */
	char *exe;		/* exact /proc/PID/exe target, NULL: any */
	char *user;		/* user name (effective uid), NULL: any */
	char *ugroup;		/* unix group name (effective or supplementary) */
	bool has_uid, has_gid;
	uint32_t uid;		/* effective uid */
	uint32_t gid;		/* effective or supplementary gid */
	/* Filled by kattr_rgconf_resolve() from user/ugroup. */
	bool resolved;
	uint32_t user_uid, ugroup_gid;
	unsigned line;
	char *file;		/* as in kattr_rgconf_group */
};

struct kattr_rgconf {
	char *file;		/* as given, for messages */
	char *backend;		/* NULL when not given */
	struct kattr_rgconf_group *groups;
	size_t ngroups;
	struct kattr_rgconf_rule *rules;
	size_t nrules;
};

/* Read and parse path (sysroot not applied: a user's file).  -errno of
 * the read with why naming the file; -EINVAL for anything but a regular
 * file (opened without blocking: a FIFO is refused, not read).
 * @include "PATH" (at the start of a line) reads PATH the same way,
 * relative to the including file's directory, at most 10 levels deep;
 * messages name the included file and its line. */
int kattr_rgconf_parse_file(const char *path, struct kattr_rgconf **out,
			    struct kattr_why *why);
void kattr_rgconf_free(struct kattr_rgconf *c);

/*
 * Resolve user and group names of the rules (getpwnam/getgrnam).
 * -ENOENT with why "FILE:LINE: rules[N].user: no such user 'x'".
 */
int kattr_rgconf_resolve(struct kattr_rgconf *c, struct kattr_why *why);

/* The configuration in the file format (malloc'ed), NULL on ENOMEM. */
char *kattr_rgconf_format(const struct kattr_rgconf *c);

/* The group named name, or NULL. */
const struct kattr_rgconf_group *
kattr_rgconf_find_group(const struct kattr_rgconf *c, const char *name);

/* ---- rule matching (the process: kattr/rgproc.h) -------------------------------------- */

/* What the rules of c look at (kattr_proc_what bits). */
unsigned int kattr_rgconf_needs(const struct kattr_rgconf *c);

/* Index of the first rule that matches p, or -1 (kernel threads: -1). */
int kattr_rgconf_match(const struct kattr_rgconf *c,
				 const struct kattr_proc *p);

#ifdef __cplusplus
}
#endif

#endif /* KATTR_RGCONF_H */
