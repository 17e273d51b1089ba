/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Resource-group functions the suite's own tools (rgctl, rgctl-top) call
 * beyond the public <kattr/rg.h>: the apply engine's cpu delegation, the
 * create variants with reasons, hooks and batches, extended attributes,
 * a task's place in every cgroup v1 hierarchy, and command-line parsing.
 * Not exported from libkattr.so and not installed: the tools link
 * libkattr.a (lib/README, "Public and private").  Same rules as the
 * public headers: no printing, no exit, -errno.
 */
#ifndef KATTR_RGTOOL_H
#define KATTR_RGTOOL_H

/* Inside lib/, only a layer that uses rg/ includes this: a call up the
 * layers fails to compile (lib/CMakeLists.txt sets KATTR_USES_*). */
#if defined(KATTR_BUILDING_LIB) && !defined(KATTR_USES_RG)
#error "lib/: this layer does not use rg/ (a layer uses only the layers below it: lib/README)"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "kattr/rg.h"
#include "kattr/rgproc.h"

/* The reverse; -EINVAL for an unknown name ("auto" is accepted). */
int kattr_rg_backend_parse(const char *name,
			   enum kattr_rg_backend *out);

/* The root handle rg reads beneath (kattr_rg_open_at()'s; NULL: the
 * default root). */
const struct kattr_root *kattr_rg_root_handle(const struct kattr_rg *rg);
/*
 * Which backend the filesystem holding root is (without opening it), its
 * mount table read beneath r (NULL: the default root): -EMEDIUMTYPE when
 * it is none of them, -ENOENT when root is missing.
 */
int kattr_rg_probe(const struct kattr_root *r, const char *root,
		   enum kattr_rg_backend *kind);

/* The file that holds shares ("shares", "cpu.shares", "cpu.weight"). */
const char *kattr_rg_share_file(const struct kattr_rg *rg);

/* Number of components ("db/batch" = 2, root = 0). */
unsigned int kattr_rg_name_depth(const char *group);

/*
 * cgroup v2: groups whose cgroup.subtree_control got (or lacks) the cpu
 * controller, top-down, "/" for the root.  After a failed
 * kattr_rg_cpu_enable() or kattr_rg_create() (KATTR_RG_ENABLE), failed names the
 * group whose cgroup.subtree_control refused (-EBUSY: it has member
 * processes, which cgroup v2 forbids below the root for a group with
 * controllers enabled for its children), else NULL.
 */
struct kattr_rg_cpu_path {
	char **groups;
	size_t n;
	char *failed;
};
void kattr_rg_cpu_path_free(struct kattr_rg_cpu_path *p);
/*
 * cgroup v2: the groups from the root down to group's parent whose
 * cgroup.subtree_control does not enable cpu (a missing group counts as
 * lacking it), into *out (empty when group has, or would have, cpu.weight;
 * always empty on the other backends and for the root group).
 */
int kattr_rg_cpu_missing(struct kattr_rg *rg, const char *group,
			 struct kattr_rg_cpu_path *out);
/*
 * cgroup v2: write "+cpu" to the cgroup.subtree_control of each group
 * kattr_rg_cpu_missing() names, top-down, appending each one to done.
 * When a write fails, what this call enabled is disabled again, done is
 * as before, done->failed names the group and the error is returned.
 * -EOPNOTSUPP when cpu is not available at the root (has_shares false).
 */
int kattr_rg_cpu_enable(struct kattr_rg *rg, const char *group,
			struct kattr_rg_cpu_path *done);
/*
 * Disable cpu again in done's groups, deepest first, and empty done.
 * Returns the first error (the others are still tried).
 */
int kattr_rg_cpu_undo(struct kattr_rg *rg,
		      struct kattr_rg_cpu_path *done);

/*
 * Extended attribute name of a group's directory: kattr_rg_fxattr_*() on
 * a descriptor from kattr_rg_group_open(), kattr_rg_xattr_*() open group
 * (beneath the root, no symlink followed) for the one call.  _get copies
 * the value into buf (size bytes; 0: just its length) and returns its
 * length; _set is fsetxattr(2) (flags: XATTR_CREATE, XATTR_REPLACE).
 * -ENODATA: not set; -EOPNOTSUPP: the filesystem keeps no extended
 * attributes (configfs, a FUSE emulator, old kernels); -ERANGE: buf is
 * too small; -EPERM: not allowed (trusted.* needs CAP_SYS_ADMIN).
 */
int kattr_rg_fxattr_get(int fd, const char *name, void *buf,
			size_t size);
int kattr_rg_fxattr_set(int fd, const char *name, const void *value,
			size_t size, int flags);
int kattr_rg_xattr_get(struct kattr_rg *rg, const char *group,
		       const char *name, void *buf, size_t size);
int kattr_rg_xattr_set(struct kattr_rg *rg, const char *group,
		       const char *name, const void *value,
		       size_t size, int flags);

/*
 * A hook on creation: kattr_rg_create() calls fn on every directory they
 * make (the group and, with KATTR_RG_PARENTS, each parent made), right
 * after its mkdir, with its directory opened beneath the root (fd, no
 * symlink followed, closed after the call) and its name.  fn returning
 * -errno fails the creation: what was made is removed again, and why's
 * code is KATTR_RG_WHY_HOOK.  It is how a caller marks what it made in
 * the same step (an extended attribute).  fn NULL: no hook.
 */
typedef int (*kattr_rg_made_fn)(int fd, const char *group, void *data);
void kattr_rg_on_create(struct kattr_rg *rg, kattr_rg_made_fn fn,
			void *data);

/*
 * Creating many groups: on, the kattr_rg_create() calls that follow hold
 * the parent of the last group made open in each place a group is made,
 * so that groups with the same parent cost one mkdir(2) per place (and
 * their parents are not looked for again); off (and kattr_rg_close())
 * closes it.  The outcome is the one without a batch: a held parent
 * removed meanwhile by another tool is found again by name, and
 * kattr_rg_delete() drops what is held.  One difference: a parent
 * renamed by another tool during the batch gets the later groups too (as
 * if the batch had run before the rename): keep a batch to one call.
 */
void kattr_rg_create_batch(struct kattr_rg *rg, bool on);

/* One hierarchy's answer of kattr_rg_whereis_each(). */
struct kattr_rg_place {
	char *hier;	/* the hierarchy by its controllers ("memory",
			 * "cpu,cpuacct"); cgroup v2, RGCS: the backend */
	char *group;	/* the task's group there ("/": the root); NULL:
			 * outside the root's part of it, or not in it */
	char *path;	/* cgroup v1: its place in /proc/PID/cgroup,
			 * absolute in the hierarchy; else NULL */
};

/*
 * The group of task pid in each hierarchy a group spans: cgroup v1's cpu,
 * cpuacct, memory, pids and blkio where mounted, and cpuset where the
 * task's group has a directory there, read at once from /proc/PID/cgroup;
 * one place on the other backends.  (*v)[0] is the root's own hierarchy,
 * kattr_rg_whereis()'s answer, with its errors.  *v is freed with
 * kattr_rg_places_free().  Returns how many of the others name another
 * group than (*v)[0] (0: they agree), or -errno.
 */
int kattr_rg_whereis_each(struct kattr_rg *rg, pid_t pid,
			  struct kattr_rg_place **v, size_t *n);
void kattr_rg_places_free(struct kattr_rg_place *v, size_t n);

/*
 * cgroup v1: the hierarchies where group holds other tasks than in the
 * root's own hierarchy, as kattr_rg_missing() (kattr/rg.h) names those
 * where it has no directory.
 */
int kattr_rg_disagree(struct kattr_rg *rg, const char *group,
		      char *buf, size_t size);

/*
 * The hierarchies a group is a directory in (cgroup v1: the root's own,
 * [0], then cpuacct, memory, pids, blkio and cpuset where mounted; one on
 * the other backends), for what saves and restores a group whole (the
 * apply engine's deletion and its undo).  A hierarchy is named by its
 * controllers ("memory", "cpu,cpuacct"), as the journal records it.
 * kattr_rg_hier_place(): the root's place in hierarchy i (i 0: rg's own
 * mount), -ENOENT when the root has no directory there, -ENODEV no such
 * hierarchy.  kattr_rg_hier_index(): i for a name, -ENODEV none.
 */
size_t kattr_rg_hier_count(const struct kattr_rg *rg);
const char *kattr_rg_hier_name(const struct kattr_rg *rg, size_t i);
int kattr_rg_hier_index(const struct kattr_rg *rg, const char *name);
int kattr_rg_hier_place(struct kattr_rg *rg, size_t i, struct kattr_mount **m);

/* ---- the locks (lib/rg/lock.c: apply, classify) ------------------------------------------------------ */

/*
 * An exclusive flock(2) on fd, waiting up to wait_ms (20 ms polls); stop
 * (may be NULL) is asked at each poll and a nonzero answer (a signal)
 * ends the wait.  0 (held until fd is closed), -EWOULDBLOCK when still
 * held after wait_ms (*holder, may be NULL: the holder's pid from
 * /proc/locks beneath root, 0 if unknown), -EINTR when stop ended the wait, or -errno.
 */
int kattr_lock_wait(const struct kattr_root *root, int fd, unsigned int wait_ms,
		    int (*stop)(void *arg), void *arg, pid_t *holder);
/*
 * The apply lock of a hierarchy: kattr_lock_wait() on its root directory,
 * taken by every command that changes the groups.  Returns the descriptor
 * holding it (close it to unlock) or kattr_lock_wait()'s -errno, or the
 * root's when it cannot be opened.  kattr_rg_lock(): without a stop hook.
 */
int kattr_rg_lock_wait(struct kattr_rg *rg, unsigned int wait_ms,
		       int (*stop)(void *arg), void *arg, pid_t *holder);
int kattr_rg_lock(struct kattr_rg *rg, unsigned int wait_ms, pid_t *holder);
/*
 * The lock file dir/name (made 0644 if missing; a symlink there is not
 * followed): kattr_lock_wait() on it.  Returns the descriptor holding it,
 * -EINVAL when dir/name is not a regular file, or kattr_lock_wait()'s
 * -errno; on -EWOULDBLOCK *holder falls back to the pid the file's first
 * line holds (the holder writes it there) when /proc/locks does not tell.
 */
int kattr_lock_file(const struct kattr_root *root, int dir, const char *name,
		    unsigned int wait_ms, pid_t *holder);

/*
 * kattr_rg_open() beneath root (kattr_root_open()): the mount table, the
 * hierarchy's mounts and the /proc files its calls read are resolved
 * there; root must stay open while rg is.  NULL: the default root (the
 * kattr_set_sysroot() shim), which is what kattr_rg_open() uses.
 */
int kattr_rg_open_at(const struct kattr_root *root, enum kattr_rg_backend b,
		     const char *dir, struct kattr_rg **out);

/*
 * A handle on rg's group as the root of its own, the hierarchy rg opened
 * not looked up again (no mount table read): what a tool uses to narrow
 * the tree detection found to a subtree (rgctl: its delegated one on a
 * systemd host).  The group's name is checked as any group's (no "..",
 * not the root), its path resolved beneath the struct kattr_root rg was
 * opened beneath and its filesystem checked to be cgroup v2, as rg's was;
 * rg may be closed afterwards.  cgroup v2 only (-EOPNOTSUPP: v1 spans
 * hierarchies, RGCS has one level); -EINVAL a bad name, -ENOENT none.
 */
int kattr_rg_open_below(struct kattr_rg *rg, const char *group,
			struct kattr_rg **out);

/* ---- controllers, walks (ctl.c, walk.c): what the apply plan uses ------ */

/* Whether rg's backend enables controllers per subtree (cgroup v2). */
bool kattr_rg_delegates(const struct kattr_rg *rg);
/* group's cgroup.subtree_control, its words one space apart (malloc'ed). */
int kattr_rg_ctl_read(struct kattr_rg *rg, const char *group, char **words);
/* Write "+ctl" or "-ctl" (sign) to group's cgroup.subtree_control. */
int kattr_rg_ctl_write(struct kattr_rg *rg, const char *group, char sign,
		       const char *ctl);
/* Whether err, met below the start of a walk, means the group is gone. */
bool kattr_rg_group_gone(int err);

#endif /* KATTR_RGTOOL_H */
