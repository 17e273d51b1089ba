/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rgctl on a systemd host (systemd.c) and the ownership of groups
 * (owner.c): which groups rgctl may write, and which it created.
 */
#ifndef RGCTL_SYSTEMD_H
#define RGCTL_SYSTEMD_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include <json-c/json.h>

#include "rgctl.h"

/* rgctl's delegated subtree, relative to the cgroup v2 mount: the
 * cgroup of rgctl.service (Delegate=yes) in rgctl.slice. */
#define RGCTL_SD_SUBTREE "rgctl.slice/rgctl.service"

struct rgctl_sd {
	bool pid1;		/* /proc/1/comm is "systemd" */
	bool init_scope;	/* the v2 tree has init.scope */
	bool manages;		/* both: systemd manages the v2 tree */
	bool subtree_present;	/* RGCTL_SD_SUBTREE exists */
	char *mnt;		/* the cgroup2 mount point, or NULL */
	struct kattr_mount *m;	/* a handle on it, or NULL */
};

/* Detect once (beneath --sysroot); never fails. */
const struct rgctl_sd *rgctl_sd_probe(void);

/* Who owns a group of the v2 tree systemd manages. */
struct rgctl_sd_owner {
	char path[PATH_MAX];	/* the group within the tree ("" = its root) */
	char unit[256];		/* "system.slice", "-.slice" for the root */
	char unit_path[PATH_MAX]; /* the unit's cgroup ("" for -.slice) */
	bool is_unit_cgroup;	/* path is the unit's cgroup itself */
	bool delegated;		/* the unit's cgroup has trusted/user.delegate=1 */
};
/* -ENOENT when systemd does not manage rg's hierarchy. */
int rgctl_sd_owner(struct kattr_rg *rg, const char *group,
		   struct rgctl_sd_owner *o);

/*
 * The root rgctl works in when no --root was given and detection found
 * rg: on a systemd host, where rg is the whole v2 tree systemd manages,
 * rgctl's delegated subtree (its name below rg) when it exists; NULL: rg
 * itself.  Opens and closes nothing (rgctl_rg() narrows rg to it).
 */
const char *rgctl_sd_subtree(const struct kattr_rg *rg);

enum rgctl_sd_op {
	RGCTL_SD_CREATE,
	RGCTL_SD_DELETE,
	RGCTL_SD_SHARES,
	RGCTL_SD_ATTACH,
	RGCTL_SD_ENABLE,	/* write cgroup.subtree_control */
};
/* Die (exit 1) naming the owning unit and how to delegate, when op on
 * group is outside a delegated subtree (unless --force). */
void rgctl_sd_check(struct rgctl *ctx, const char *group, enum rgctl_sd_op op);
/* The same for every existing group whose cgroup.subtree_control would
 * get cpu for group's shares. */
void rgctl_sd_check_enable(struct rgctl *ctx, const char *group);
/* {"pid1":..,"init_scope":..,"manages":..,"unit":..,"delegated":..} */
json_object *rgctl_sd_json(struct kattr_rg *rg);
/* One line for list's text output, only where systemd manages rg. */
void rgctl_sd_print(struct kattr_rg *rg);
/* Tell the service manager state ("READY=1"...) when rgctl runs under
 * one ($NOTIFY_SOCKET; the datagram protocol of sd_notify(3), spoken
 * here: no libsystemd); else nothing.  A failure is warned about. */
void rgctl_sd_notify(const char *state);
/* The watchdog interval the manager asked for ($WATCHDOG_USEC, for this
 * process by $WATCHDOG_PID), 0: none. */
uint64_t rgctl_sd_watchdog_usec(void);

/* ---- ownership (owner.c) ------------------------------------------------ */

/* What the marks say made a group: the command, and the configuration
 * file (NULL: none). */
void rgctl_own_context(const char *cmd, const char *conf);
/* Mark every group rg's creations make, right after its mkdir (a group
 * that cannot be marked is removed again and the creation fails). */
void rgctl_own_install(struct kattr_rg *rg);
/* Mark group as made by rgctl: xattr trusted.rgctl (user.rgctl when
 * trusted.* is refused), else a sealed line in the registry.  0, -errno. */
int rgctl_own_mark(struct kattr_rg *rg, const char *group);
/* Whether rgctl made group: its own mark says so, under its name. */
bool rgctl_own_is_ours(struct kattr_rg *rg, const char *group);
/* Before deleting group: what the registry must forget after (0: nothing,
 * its mark goes with it), and forgetting it once the group is gone. */
unsigned long long rgctl_own_ino(struct kattr_rg *rg, const char *group);
void rgctl_own_drop(struct kattr_rg *rg, unsigned long long ino);

/* ---- exec (spawn.c) -------------------------------------------------------- */

/*
 * cgroup v2: run argv in group with clone3(CLONE_INTO_CGROUP) and wait
 * for it; returns its exit status, -ENOSYS where the kernel (or the
 * backend) cannot (the caller then moves itself and execs), else -errno.
 */
int rgctl_exec_clone3(struct kattr_rg *rg, const char *group, char **argv);

#endif
