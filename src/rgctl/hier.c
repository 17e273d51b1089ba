// SPDX-License-Identifier: GPL-2.0-or-later
/* The hierarchy rgctl works on: opening it (rgctl_rg()), the causes of
 * its errors in words, the checks of group names and pids, and its
 * shares as JSON (the command line itself: cli.c). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kattr/private_core.h"
#include "rgctl.h"
#include "rgctl_plan.h"
#include "rgctl_systemd.h"

/* The hierarchy rgctl_rg() opened, for the causes that depend on it. */
static const struct kattr_rg *opened;

const char *rgctl_no_shares_why(const struct kattr_rg *rg)
{
	switch (rg ? kattr_rg_backend_of(rg) : KATTR_RG_AUTO) {
	case KATTR_RG_CGROUP1:
		return "a cgroup v1 hierarchy without the cpu controller";
	case KATTR_RG_CGROUP2:
		return "cgroup v2 without the cpu controller enabled";
	default:
		return "no cpu controller";
	}
}

const char *rgctl_strerror(int err)
{
	static char buf[128];

	switch (-err) {
	case ESRCH:
		return "no such process";
	case EPERM:
	case EACCES:
		return "permission denied (needs root, or a subtree delegated to this user)";
	case ENOENT:
		return "no such group";
	case ENOTDIR:
		return "not a group (not a directory)";
	case ELOOP:
		return "the path goes through a symbolic link (refused)";
	case EXDEV:
		return "the path leaves the hierarchy (refused)";
	case EMLINK:
		return "RGCS groups nest at most 5 levels below the root";
	case EMEDIUMTYPE:
		return "not an RGCS/cgroup mount";
	case EOPNOTSUPP:
		snprintf(buf, sizeof(buf), "no shares here (%s)",
			 rgctl_no_shares_why(opened));
		return buf;
	case ENOSPC:
		/* the same errno, another cause on each backend */
		switch (opened ? kattr_rg_backend_of(opened) : KATTR_RG_AUTO) {
		case KATTR_RG_RGCS:
			return "the list is longer than one page (the RGCS file fails with ENOSPC)";
		case KATTR_RG_CGROUP1:
			return "no space: a cgroup v1 cpuset group takes no task until its cpuset.cpus and cpuset.mems are set (ENOSPC)";
		case KATTR_RG_CGROUP2:
			return "no space: the group's cpuset has no usable CPU or memory node (ENOSPC)";
		default:
			return tool_strerror(err);
		}
	case EEXIST:
		return "a group or an attribute file of that name exists";
	case EIO:
		return "the kernel took only part of the value (short write)";
	case EBADMSG:
		return "a file of the group holds text that is not what the kernel writes there";
	case ENAMETOOLONG:
		return "a group's path is longer than 4095 bytes (nested too deep to be named)";
	case ENODEV:
	case ESTALE:
		return "the group was removed meanwhile";
	case EROFS:
		return "the hierarchy is mounted read-only";
	default:
		return tool_strerror(err);
	}
}

static const char *open_cause(int err)
{
	switch (-err) {
	case ENOENT:
		return "the directory is missing";
	case ENOTDIR:
		return "not a directory";
	case ELOOP:
		return "too many symbolic links on the way";
	case EXDEV:
		return "it leads out of the --sysroot tree";
	case EPERM:
	case EACCES:
		return "permission denied";
	default:
		return rgctl_strerror(err);
	}
}

static void die_open(struct rgctl *ctx, int err)
{
	const char *want = kattr_rg_backend_name(ctx->backend);
	enum kattr_rg_backend kind;

	if (ctx->root && err == -EMEDIUMTYPE) {
		if (ctx->backend != KATTR_RG_AUTO &&
		    kattr_rg_probe(tool_root(), ctx->root, &kind) == 0 &&
		    kind != ctx->backend)
			tool_die(EXIT_FAIL, "'%s' is a %s hierarchy, not %s",
				 TOOL_Q(ctx->root), kattr_rg_backend_name(kind),
				 want);
		tool_die(EXIT_FAIL, "'%s' is not an RGCS/cgroup mount (refusing to write into it)",
			 TOOL_Q(ctx->root));
	}
	if (ctx->root)
		tool_die(EXIT_FAIL, "cannot use '%s': %s", TOOL_Q(ctx->root),
			 open_cause(err));
	if (err == -ENOENT && ctx->backend == KATTR_RG_RGCS) {
		char *cfs = NULL;

		if (kattr_mountinfo_find_at(tool_root(), "configfs", NULL, &cfs) == 0)
			tool_die(EXIT_FAIL, "no rgcs hierarchy is mounted: configfs at %s has no res_groups (the kernel has no Resource Groups)",
				 TOOL_Q(cfs));
		tool_die(EXIT_FAIL, "no rgcs hierarchy is mounted: no configfs with res_groups");
	}
	if (err == -ENOENT)
		tool_die(EXIT_FAIL, ctx->backend == KATTR_RG_AUTO ?
			 "no RGCS, cgroup v2 or cgroup v1 cpu hierarchy is mounted" :
			 "no %s hierarchy is mounted", want);
	if (ctx->backend == KATTR_RG_AUTO)
		tool_die(EXIT_FAIL, "cannot open the hierarchy the mount table names: %s",
			 open_cause(err));
	tool_die(EXIT_FAIL, "cannot open the %s hierarchy the mount table names: %s",
		 want, open_cause(err));
}

/*
 * The hierarchy: --root, else what detection finds (kattr_rg_open_at()
 * reads the mount table beneath tool_root() and opens the first that
 * fits); on a systemd host, rgctl's delegated subtree of the v2 tree
 * detection found, narrowed from that handle (kattr_rg_open_below(): the
 * hierarchy is looked up once).  The choice is rgctl_sd_subtree(), which
 * opens nothing.
 */
struct kattr_rg *rgctl_rg(struct rgctl *ctx)
{
	const char *sub;
	struct kattr_rg *rg;
	int ret;

	if (ctx->rg)
		return ctx->rg;
	ret = kattr_rg_open_at(tool_root(), ctx->backend, ctx->root, &ctx->rg);
	if (ret < 0)
		die_open(ctx, ret);
	sub = ctx->root ? NULL : rgctl_sd_subtree(ctx->rg);
	if (sub && kattr_rg_open_below(ctx->rg, sub, &rg) == 0) {
		kattr_rg_close(ctx->rg);	/* else the whole tree, still guarded */
		ctx->rg = rg;
	}
	rgctl_own_install(ctx->rg);	/* what rgctl makes, it marks */
	rgctl_journal_recover(ctx->rg, false);	/* what a dead rgctl left half-done */
	opened = ctx->rg;
	return ctx->rg;
}

void rgctl_check_group(const char *group, bool allow_root)
{
	struct kattr_why why = { 0 };

	if (kattr_rg_name_check(group, allow_root, &why) < 0)
		tool_die(EXIT_USAGE, "invalid group name '%s': %s", TOOL_Q(group),
			 why.text);
}

int rgctl_parse_pid(const char *arg, pid_t *pid)
{
	int ret = kattr_rg_parse_pid(arg, pid);

	if (ret == -ERANGE)
		tool_warn("invalid pid '%s': too large", TOOL_Q(arg));
	else if (ret < 0)
		tool_warn("invalid pid '%s': not a plain decimal number > 0",
			  TOOL_Q(arg));
	return ret;
}

void rgctl_json_print(json_object *obj)
{
	puts(rgctl_json_text(obj));
	json_object_put(obj);
}

json_object *rgctl_json_share(const struct kattr_rg *rg,
			      const struct kattr_rg_share *s)
{
	return rgctl_json_share_of(kattr_rg_backend_of(rg) == KATTR_RG_RGCS,
				   kattr_rg_share_file(rg), s);
}
