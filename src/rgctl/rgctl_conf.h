/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The configuration file apply, classify and stats --delay read (conf.c),
 * and apply's fault hooks for the tests' build. */
#ifndef RGCTL_CONF_H
#define RGCTL_CONF_H

#include "kattr/rgconf.h"
#include "rgctl.h"

/*
 * Parse and resolve FILE (dies with "FILE:LINE: KEY: reason", or "built
 * without libconfig"), and take its backend unless --backend disagrees.
 */
struct kattr_rgconf *rgctl_conf_load(struct rgctl *ctx, const char *file);
/* Take c's backend into ctx (dies when --backend names another). */
void rgctl_conf_set_backend(struct rgctl *ctx, const struct kattr_rgconf *c);

struct kattr_rgplan_ops;
/*
 * Set fault hooks in apply's operations: a no-op in rgctl; rgctl-faults,
 * the tests' build, links tests/rgctl/apply/apply_faults.c's instead.
 */
void rgctl_apply_faults(struct kattr_rgplan_ops *ops);

#endif
