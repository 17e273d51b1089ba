// SPDX-License-Identifier: GPL-2.0-or-later
/* The cpu controller along a group's path on cgroup v2: why a group has
 * no shares, enabling cpu in the parents' cgroup.subtree_control and
 * saying so (the library does the enabling: kattr_rg_cpu_*). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rgctl.h"
#include "rgctl_cpu.h"

const char *rgctl_subtree_file_into(struct kattr_rg *rg, const char *group,
				    char *b, size_t size)
{
	const char *root = kattr_rg_root(rg);
	bool slash = root[0] && root[strlen(root) - 1] == '/';

	if (kattr_rg_name_is_root(group))
		snprintf(b, size, "%s%scgroup.subtree_control", root,
			 slash ? "" : "/");
	else
		snprintf(b, size, "%s%s%s/cgroup.subtree_control", root,
			 slash ? "" : "/", TOOL_Q(group));
	return b;
}

void rgctl_cpu_why(struct kattr_rg *rg, const char *group, char *buf,
		   size_t size)
{
	struct kattr_rg_cpu_path miss;
	size_t deepest;

	if (!kattr_rg_has_shares(rg)) {
		snprintf(buf, size, "%s has no %s (cgroup v2 without the cpu controller: "
			 "cpu is not in its cgroup.controllers)", kattr_rg_root(rg),
			 kattr_rg_share_file(rg));
		return;
	}
	if (kattr_rg_cpu_missing(rg, group, &miss) < 0 || miss.n == 0) {
		kattr_rg_cpu_path_free(&miss);
		snprintf(buf, size, "%s has no %s there", kattr_rg_root(rg),
			 kattr_rg_share_file(rg));
		return;
	}
	/* Name the deepest group that exists: the parent, when it does. */
	deepest = miss.n - 1;
	while (deepest > 0 && kattr_rg_exists(rg, miss.groups[deepest]) < 0)
		deepest--;
	if (deepest == 0)
		snprintf(buf, size, "cpu is not enabled in %s, so there is no %s below it",
			 rgctl_subtree_file(rg, miss.groups[0]), kattr_rg_share_file(rg));
	else
		snprintf(buf, size, "cpu is not enabled in %s (nor above it from %s down), "
			 "so there is no %s below it",
			 rgctl_subtree_file(rg, miss.groups[deepest]),
			 rgctl_subtree_file(rg, miss.groups[0]), kattr_rg_share_file(rg));
	kattr_rg_cpu_path_free(&miss);
}

void rgctl_cpu_enable_die(struct kattr_rg *rg, const struct kattr_rg_cpu_path *done,
			  int err, const char *nothing)
{
	const char *g = done->failed ? done->failed : "/";

	if (err == -EBUSY && !kattr_rg_name_is_root(g))
		tool_die(EXIT_FAIL, "cannot enable cpu in %s: group '%s' has member processes "
			 "and child groups with processes, and cgroup v2 then enables no controller "
			 "for its children (move its processes into a child group first); %s",
			 rgctl_subtree_file(rg, g), TOOL_Q(g), nothing);
	tool_die(EXIT_FAIL, "cannot enable cpu in %s: %s; %s",
		 rgctl_subtree_file(rg, g), rgctl_strerror(err), nothing);
}

void rgctl_cpu_enable(struct kattr_rg *rg, const char *group, bool no_enable,
		      struct kattr_rg_cpu_path *done, const char *nothing)
{
	struct kattr_rg_cpu_path miss;
	char why[3 * PATH_MAX];
	int ret;

	if (kattr_rg_backend_of(rg) != KATTR_RG_CGROUP2)
		return;
	ret = kattr_rg_cpu_missing(rg, group, &miss);
	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot read the cgroup.subtree_control files above '%s': %s; %s",
			 TOOL_Q(group), rgctl_strerror(ret), nothing);
	if (miss.n == 0) {
		kattr_rg_cpu_path_free(&miss);
		return;
	}
	kattr_rg_cpu_path_free(&miss);
	if (no_enable || !kattr_rg_has_shares(rg)) {
		rgctl_cpu_why(rg, group, why, sizeof(why));
		tool_die(EXIT_FAIL, "'%s' has no shares: %s%s; %s", TOOL_Q(group), why,
			 no_enable && kattr_rg_has_shares(rg) ? " (--no-enable)" : "",
			 nothing);
	}
	ret = kattr_rg_cpu_enable(rg, group, done);
	if (ret < 0)
		rgctl_cpu_enable_die(rg, done, ret, nothing);
}

void rgctl_cpu_report(struct kattr_rg *rg, struct kattr_rg_cpu_path *done)
{
	for (size_t i = 0; i < done->n; i++)
		tool_warn("enabled cpu in %s", rgctl_subtree_file(rg, done->groups[i]));
	kattr_rg_cpu_path_free(done);
}

