/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rgctl's resources (cmd_res.c): what set, get and create --set share. */
#ifndef RGCTL_RES_H
#define RGCTL_RES_H

#include <stddef.h>

#include "kattr/rgres.h"
#include "rgctl.h"

/*
 * Parse KEY=VALUE words (keys or systemd names): dies with exit 2 naming
 * the word and the cause (did you mean ..., out of range, ...).
 * malloc'ed, n values.
 */
struct kattr_rgres_value *rgctl_res_parse(char *const *args, size_t n);
/*
 * Write v to group (kattr_rgres_set() with flags), saying what was
 * enabled; on failure one message ending "; <nothing>" and the exit
 * status (2: a value the backend cannot take, 1: failed).
 */
int rgctl_res_write(struct rgctl *ctx, const char *group,
		    const struct kattr_rgres_value *v, size_t n,
		    unsigned int flags, const char *nothing);

/* ---- apply and dump (apply_res.c) ---------------------------------------- */

struct kattr_rgconf;
struct kattr_rgconf_group;
struct kattr_rgplan_res;
/* "memory.max=1G (was max), pids.max=200 (was max)" */
void rgctl_res_change_text(const struct kattr_rgplan_res *ch, char *buf,
			   size_t size);
/* The group's resources that differ from a new group's, "key=value" each
 * (for dump), into *res and *n (malloc'ed). */
void rgctl_res_dump(struct kattr_rg *rg, const char *group, char ***res,
		    size_t *n);

#endif
