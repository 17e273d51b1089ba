// SPDX-License-Identifier: LGPL-2.1-or-later
/* Rules against a process (kattr_rgconf_match()), and what they look at. */
#include <string.h>

#include "kattr/private_rgconf.h"
#include "rgconf_internal.h"

unsigned int kattr_rgconf_needs(const struct kattr_rgconf *c)
{
	unsigned int what = 0;

	for (size_t i = 0; i < c->nrules; i++) {
		const struct kattr_rgconf_rule *r = &c->rules[i];

		if (r->exe)
			what |= KATTR_PROC_EXE;
		if (r->user || r->ugroup || r->has_uid || r->has_gid)
			what |= KATTR_PROC_IDS;
	}
	return what;
}

static bool in_groups(const struct kattr_proc *p, uint32_t gid)
{
	size_t i;

	if (p->gid == gid)
		return true;
	for (i = 0; i < p->ngroups; i++)
		if (p->groups[i] == gid)
			return true;
	return false;
}

int kattr_rgconf_match(const struct kattr_rgconf *c,
				 const struct kattr_proc *p)
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
