/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The cpu controller along a group's path on cgroup v2 (cpu.c). */
#ifndef RGCTL_CPU_H
#define RGCTL_CPU_H

#include <stdbool.h>

#include "rgctl.h"

/*
 * cgroup v2: enable cpu along the path to group (kattr_rg_cpu_enable())
 * unless no_enable, where shares are about to be set; dies with one
 * message naming the group that refused (or, with no_enable, the parent
 * that lacks cpu), ending with "; <nothing>" (e.g. "nothing was changed").
 * done gets what was enabled.
 */
void rgctl_cpu_enable(struct kattr_rg *rg, const char *group, bool no_enable,
		      struct kattr_rg_cpu_path *done, const char *nothing);
/* The message for a failed enable (done->failed set): "cannot enable ...". */
__attribute__((noreturn))
void rgctl_cpu_enable_die(struct kattr_rg *rg, const struct kattr_rg_cpu_path *done,
			  int err, const char *nothing);
/* Why group has no cpu.weight (cgroup v2), into buf: "cpu is not enabled
 * in P/cgroup.subtree_control ..." or the root's lack of cpu. */
void rgctl_cpu_why(struct kattr_rg *rg, const char *group, char *buf,
		   size_t size);
/* "rgctl: enabled cpu in ROOT/G/cgroup.subtree_control" for each of done's
 * groups, on stderr, and free done. */
void rgctl_cpu_report(struct kattr_rg *rg, struct kattr_rg_cpu_path *done);
/* The cgroup.subtree_control file of group as the user sees it, into
 * b; rgctl_subtree_file() into a buffer of the caller's block (as
 * TOOL_Q()). */
const char *rgctl_subtree_file_into(struct kattr_rg *rg, const char *group,
				    char *b, size_t size);
#define rgctl_subtree_file(rg, group) \
	rgctl_subtree_file_into((rg), (group), (char[RGCTL_FILE_TEXT]){ 0 }, RGCTL_FILE_TEXT)

#endif
