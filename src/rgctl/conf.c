// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The configuration file (rgctl.conf(5)) as apply, classify and stats
 * --delay load it: parsed, resolved, and its backend taken.
 */
#include <errno.h>

#include "kattr/rgconf.h"
#include "rgctl.h"
#include "rgctl_conf.h"

/* Load the file or die with the parser's FILE:LINE message. */
static struct kattr_rgconf *load(const char *file)
{
	struct kattr_rgconf *c = NULL;
	char err[1024];
	int ret;

	ret = kattr_rgconf_parse_file(file, &c, &(struct kattr_why)KATTR_WHY_BUF(err));
	if (ret == -EOPNOTSUPP)
		tool_die(EXIT_FAIL, "rgctl was built without libconfig: configuration files are not supported");
	if (ret < 0)
		tool_die(EXIT_FAIL, "%s", err);
	ret = kattr_rgconf_resolve(c, &(struct kattr_why)KATTR_WHY_BUF(err));
	if (ret < 0)
		tool_die(EXIT_FAIL, "%s", err);
	return c;
}

void rgctl_conf_set_backend(struct rgctl *ctx, const struct kattr_rgconf *c)
{
	enum kattr_rg_backend b;

	if (!c->backend)
		return;
	if (kattr_rg_backend_parse(c->backend, &b) < 0)
		tool_die(EXIT_FAIL, "%s: unknown backend '%s'", c->file,
			 TOOL_Q(c->backend));
	if (ctx->backend != KATTR_RG_AUTO && ctx->backend != b)
		tool_die(EXIT_FAIL, "%s names backend %s but --backend is %s", c->file,
			 c->backend, kattr_rg_backend_name(ctx->backend));
	ctx->backend = b;
}

struct kattr_rgconf *rgctl_conf_load(struct rgctl *ctx, const char *file)
{
	struct kattr_rgconf *c = load(file);

	rgctl_conf_set_backend(ctx, c);
	return c;
}
