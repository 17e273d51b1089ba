/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef KATTR_RG_INTERNAL_H
#define KATTR_RG_INTERNAL_H

/* Inside lib/, only a layer that uses rg/ includes this: a call up the
 * layers fails to compile (lib/CMakeLists.txt sets KATTR_USES_*). */
#if defined(KATTR_BUILDING_LIB) && !defined(KATTR_USES_RG)
#error "lib/: this layer does not use rg/ (a layer uses only the layers below it: lib/README)"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "kattr/rg.h"
#include "kattr/rgtool.h"

/* ---- the groups: rg.c, its backends and its parts ------------------------ */

struct kattr_mount;
struct kattr_dirent;

/* The mount a hierarchy is on, as the mount table gives it. */
struct mnt_found {
	char *mount_point;
	char *fstype;
	char *super_opts;
	char *root;
};

/* The mount table, read once per open: a copy of each entry, in order. */
struct mnt_table {
	struct mnt_found *v;
	size_t n, cap;
	const struct kattr_root *root;	/* read beneath it (NULL: the default) */
};

/*
 * A backend: what differs between RGCS, cgroup v1 and cgroup v2, as data
 * (which file holds what) and operations.  One per file: rgcs.c,
 * cgroup1.c, cgroup2.c (cgroup.c holds what the two cgroup versions
 * share).  rg.c, on top, does everything else through rg->ops; what a
 * backend needs of the rest is in base.c (or a part: hier.c, ctl.c,
 * walk.c, batch.c, rgstats.c), below it, never in rg.c.  To add an
 * operation (the resource table: read or write a resource file of a
 * group), add a member here and set it in each backend; rg_group_read()
 * (base.c) and rg_group_write() (ctl.c) are the generic file access every
 * backend has.
 */
struct rg_ops {
	enum kattr_rg_backend id;
	const char *fstype;		/* mountinfo type (RGCS: configfs) */
	const char *fstype_alt;		/* another one (RGCS: its emulator) */
	unsigned long magic;
	const char *shares_file;
	const char *tasks_file;		/* thread ids */
	const char *procs_file;		/* process ids */
	const char *attach_task;	/* where one task is moved */
	const char *attach_proc;	/* where a whole process is moved */
	bool takes_res;			/* create: a controller (res) may be named */
	bool delegates;			/* controllers enabled per subtree
					 * (cgroup.subtree_control, ctl.c) */

	/* Whether a mount found searching is one to try (NULL: any). */
	bool (*mount_ok)(const struct mnt_found *f);
	/* The constructor: rg->m and the rest of rg for root, on mount f
	 * (t: the whole mount table, read once for the open). */
	int (*open)(struct kattr_rg *rg, const struct mnt_found *f,
		    const char *root, const struct mnt_table *t);
	/* create: checks after the name, res and shares (NULL: none). */
	int (*create_check)(const struct kattr_rg *rg, const char *group,
			    struct kattr_why *r);
	/*
	 * create: make one directory, name relative to the root, setting a
	 * bit in *made for each place made (bit 0: rg->m; cgroup v1: bit i,
	 * rg->hier[i]).  fill: the name may exist already (a parent, or -p):
	 * then the error is the root's own -EEXIST, and places the group
	 * lacks elsewhere are made.  NULL: kattr_mkdir() on rg->m.
	 */
	int (*mkdir)(struct kattr_rg *rg, const char *name, bool fill,
		     unsigned int *made, struct kattr_why *r);
	/* create without -p: a parent name, which must exist in rg->m, made
	 * where else the group spans and it lacks (NULL: nothing to do). */
	int (*mkdir_parent)(struct kattr_rg *rg, const char *name,
			    unsigned int *made, struct kattr_why *r);
	/* delete: move group's tasks out before rmdir (NULL: rmdir does). */
	int (*evacuate)(struct kattr_rg *rg, const char *group);
	/* delete: remove group, evacuated, everywhere it is (NULL:
	 * kattr_rmdir() on rg->m); rg->m's directory last. */
	int (*rmdir)(struct kattr_rg *rg, const char *group);
	/* Move pid through fd, the open attach file (flags of the target). */
	int (*attach)(int fd, pid_t pid, unsigned int flags);
	/* A target spanning more places than rg->m (NULL: none): open them
	 * into t (span_open), and move pid into all of them or none. */
	int (*span_open)(struct kattr_rg_target *t, const char *group);
	int (*span_attach)(struct kattr_rg_target *t, pid_t pid);
	/* The places of the group missing / holding other tasks than rg->m's,
	 * named into buf ("memory, pids"): their number, or -errno (NULL:
	 * 0, one place). */
	int (*span_missing)(struct kattr_rg *rg, const char *group, char *buf,
			    size_t size);
	int (*span_disagree)(struct kattr_rg *rg, const char *group,
			     char *buf, size_t size);
	int (*members)(struct kattr_rg *rg, const char *group,
		       unsigned int flags, pid_t **pids, size_t *n);
	/* The shares file of group (path: its name under the root). */
	int (*shares_read)(struct kattr_rg *rg, const char *group,
			   const char *path, struct kattr_rg_share **out,
			   size_t *n);
	/* Append group's statistics to *v (freed by the caller on error). */
	int (*stats)(struct kattr_rg *rg, const char *group,
		     struct kattr_rg_stat **v, size_t *n);
	int (*whereis)(struct kattr_rg *rg, pid_t pid, char **group);
};

extern const struct rg_ops rg_rgcs_ops;
extern const struct rg_ops rg_cgroup1_ops;
extern const struct rg_ops rg_cgroup2_ops;

/*
 * cgroup v1: one hierarchy a group spans (hier.c).  Found in the mount
 * table read at open, each opened at the root's place (the same path below
 * its mount point as the root below its own) on first use.
 */
struct rg_hier {
	char *point;		/* its mount point */
	char *mroot;		/* the mount's root within the hierarchy ("/") */
	char *ctrls;		/* its controllers, "cpu,cpuacct" */
	struct kattr_mount *m;	/* the root's place there */
	struct kattr_mount *top; /* the hierarchy's mount point (moving back) */
	int err;		/* opening m failed: -ENOENT no such place */
	bool tried;		/* m opened (or err set) */
	bool span;		/* create makes a group there (not cpuset) */
};
#define RG_MAX_HIER	8

/*
 * Groups created in a batch (batch.c, kattr_rg_create_batch()): the
 * parent of the last group made, held open in each place a group is
 * made (bit i of opened: fd[i], place i: rg->m for 0, else rg->hier[i]).
 */
struct rg_batch {
	bool on;		/* between kattr_rg_create_batch(rg, true/false) */
	bool known;		/* parent and those above it are in every
				 * place (a group was made below it) */
	char *parent;		/* its name ("": the root), NULL: none held */
	unsigned int opened;
	int fd[RG_MAX_HIER];	/* O_PATH | O_DIRECTORY, beneath the place */
};

struct kattr_rg {
	const struct rg_ops *ops;
	/* what its paths (the mount table, /proc) are resolved beneath: the
	 * caller's (kattr_rg_open_at()), NULL for the default root (the
	 * kattr_set_sysroot() shim, kattr_rg_open()) */
	const struct kattr_root *root;
	struct kattr_mount *m;
	char *ctrls;			/* v1: controllers, "cpu,cpuacct" */
	char *prefix;			/* root within its hierarchy, "/x" or "" */
	char *sub;			/* root below its mount point, "/x" or "" */
	/* v1: the hierarchies a group spans; hier[0] is m's own */
	struct rg_hier hier[RG_MAX_HIER];
	size_t nhier;
	bool has_shares;
	kattr_rg_made_fn made_fn;	/* kattr_rg_on_create() */
	void *made_data;
	struct rg_batch batch;
};

struct kattr_rg_target {
	struct kattr_rg *rg;
	int fd;			/* the tasks, cgroup.procs or members file */
	unsigned int flags;	/* as opened */
	bool each_thread;	/* a whole process, one thread per write (v1
				 * without cgroup.procs) */
	/* cgroup v1: the same file in the group's other hierarchies */
	int span_fd[RG_MAX_HIER];
	unsigned char span_hier[RG_MAX_HIER];	/* index in rg->hier */
	size_t nspan;
};

/* base.c: the bottom of rg/, what every file above it shares (the handle's
 * accessors are in kattr/rg.h) */
/* "group/file", "file" for the root, "." or "group" when file is NULL. */
int rg_gpath(char *buf, size_t size, const char *group, const char *file);
/* 1 when the file rel of m holds word (space or newline separated), 0 when
 * not, -errno. */
int rg_file_has_word(struct kattr_mount *m, const char *rel, const char *word);
/* Fill *r (may be NULL) with what and its words; returns err. */
int rg_reason(struct kattr_why *r, enum kattr_rg_why what, int err,
	      const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Read the file of group whole (*text malloc'ed). */
int rg_group_read(struct kattr_rg *rg, const char *group, const char *file,
		  char **text);
/* The ids in the file of group (-EBADMSG: not a list of ids). */
int rg_read_pids(struct kattr_rg *rg, const char *group, const char *file,
		 pid_t **pids, size_t *n);
/* Write pid to fd in one write(2) (an rg_ops.attach for every flag). */
int rg_attach_pid(int fd, pid_t pid, unsigned int flags);
/* Every thread of pid through fd, one write each, bounded retry while new
 * threads appear (-EAGAIN past the bound); ended threads are skipped. */
int rg_attach_threads(const struct kattr_root *root, int fd, pid_t pid);
/* The rg_ops.members that reads the tasks or procs file (by flags). */
int rg_members_read(struct kattr_rg *rg, const char *group,
		    unsigned int flags, pid_t **pids, size_t *n);
/* The attach file of a target of flags: tasks or cgroup.procs. */
const char *rg_target_file(const struct kattr_rg *rg, unsigned int flags);
/* Move pid through fd as target t does (its flags, one thread at a time
 * where each_thread). */
int rg_target_write(const struct kattr_rg_target *t, int fd, pid_t pid);
/* Open group's attach file, unchecked (a name from the caller or tree). */
int rg_target_open(struct kattr_rg *rg, const char *group, unsigned int flags,
		   struct kattr_rg_target **out);

/* batch.c: creating groups in a batch */
/*
 * mkdir name in place i (m: rg->m for 0, else rg->hier[i]'s): in a batch
 * one mkdirat(2) relative to its parent held open there (opened, beneath
 * m, on first use), else kattr_mkdir().  0 or -errno.
 */
int rg_mkdir_in(struct kattr_rg *rg, size_t i, struct kattr_mount *m,
		const char *name);
/* Whether a batch knows name (a parent of the group being made) to be in
 * every place: the parent held, or one above it, once a group was made. */
bool rg_batch_known(const struct kattr_rg *rg, const char *name);
/* A group was made in every place: its parent is known (in a batch). */
void rg_batch_made(struct kattr_rg *rg, const char *group);
/* Open group, just made, through its parent held in rg->m's place (no
 * symlink, no other mount), else kattr_rg_group_open(). */
int rg_batch_group_open(struct kattr_rg *rg, const char *group, int flags);
/* Close what the batch holds (the batch stays on).  Every rmdir through
 * the handle calls it. */
void rg_batch_drop(struct kattr_rg *rg);
/* Remove the places of name that made says (rg_ops.mkdir), rg->m last. */
void rg_rmdir_made(struct kattr_rg *rg, const char *name, unsigned int made);

/* rgstats.c: the figures of cpu, memory, io and pids (rg_ops.stats of
 * both cgroup versions), appended to *v. */
int rg_stats_figures(struct kattr_rg *rg, const char *group,
		     struct kattr_rg_stat **v, size_t *n);

/* hier.c: cgroup v1 hierarchies */
/* The controllers of a v1 hierarchy, from its super options (malloc'ed). */
char *rg_v1_controllers(const char *opts);
/* Find every hierarchy a group spans in t (rg->m, ctrls, sub set). */
int rg_hier_init(struct kattr_rg *rg, const struct mnt_found *own,
		 const struct mnt_table *t);
void rg_hier_free(struct kattr_rg *rg);
/* The index of the hierarchy holding controller ctrl, or -ENODEV. */
int rg_hier_find(const struct kattr_rg *rg, const char *ctrl);
/* Hierarchy i at the root's place (opened on first use): 0, -ENOENT when
 * that hierarchy has no such directory, -errno. */
int rg_hier_at(struct kattr_rg *rg, size_t i, struct kattr_mount **m);
/* The mount holding controller ctrl's files at the root's place: rg->m on
 * cgroup v2 and RGCS; -ENODEV when no hierarchy has ctrl (or it has no
 * directory at the root's place). */
int rg_hier_mount(struct kattr_rg *rg, const char *ctrl,
		  struct kattr_mount **m);
/* cgroup1_span.c: a group as one directory in each hierarchy */
int rg_v1_mkdir(struct kattr_rg *rg, const char *name, bool fill,
		unsigned int *made, struct kattr_why *r);
int rg_v1_mkdir_parent(struct kattr_rg *rg, const char *name,
		       unsigned int *made, struct kattr_why *r);
int rg_v1_rmdir(struct kattr_rg *rg, const char *group);
int rg_v1_span_open(struct kattr_rg_target *t, const char *group);
int rg_v1_span_attach(struct kattr_rg_target *t, pid_t pid);
int rg_v1_missing(struct kattr_rg *rg, const char *group, char *buf,
		  size_t size);
int rg_v1_disagree(struct kattr_rg *rg, const char *group, char *buf,
		   size_t size);

/* cgroup.c: what both cgroup versions share */
/* Open the mount at root and find root's place in its hierarchy. */
int rg_cgroup_open(struct kattr_rg *rg, const struct mnt_found *f,
		   const char *root);
/* Move every task of group up (flags as for a target; climb: on EBUSY
 * try the next group up, as v2 requires). */
int rg_cgroup_evacuate(struct kattr_rg *rg, const char *group,
		       unsigned int flags, bool climb);
int rg_cgroup_shares_read(struct kattr_rg *rg, const char *group,
			  const char *path, struct kattr_rg_share **out,
			  size_t *n);
int rg_cgroup_whereis(struct kattr_rg *rg, pid_t pid, char **group);
/* The group of path (absolute in a hierarchy, as /proc/PID/cgroup says)
 * below prefix (the root's place there, "/x" or ""), malloc'ed into
 * *group: "/" for the root itself, NULL when outside it.  0 or -ENOMEM. */
int rg_group_below(const char *path, const char *prefix, char **group);

/* ctl.c: controller delegation (backends that delegate) */
/* rg_ctl_settle(): 1 when a retry of a ctl.* file of group may succeed. */
int rg_ctl_settle(struct kattr_rg *rg, const char *group, const char *ctl);
/* kattr_rg_cpu_missing(), _enable() and the undo, for controller ctl;
 * undo_from disables it from the last of done down to index start. */
int rg_ctl_missing(struct kattr_rg *rg, const char *group, const char *ctl,
		   struct kattr_rg_cpu_path *out);
int rg_ctl_enable(struct kattr_rg *rg, const char *group, const char *ctl,
		  struct kattr_rg_cpu_path *done);
int rg_ctl_undo_from(struct kattr_rg *rg, const char *ctl,
		     struct kattr_rg_cpu_path *done, size_t start);
/*
 * Write value to the file of group in one write(2); where the backend
 * delegates, a file missing while the parent has its controller enabled
 * is waited for once (rg_ctl_settle()).
 */
int rg_group_write(struct kattr_rg *rg, const char *group, const char *file,
		   const char *value);
/* 1 when a file of group, missing now, may be there on a retry. */
int rg_settle(struct kattr_rg *rg, const char *group, const char *file);

/* walk.c */
/*
 * What a walk callback returns besides 0 (go on) and -errno (stop with
 * that error): stop and return WALK_STOP; the group is gone (skip it and
 * what is below it); list the group's children again (new ones appeared).
 */
enum { WALK_STOP = 1, WALK_GONE = 2, WALK_AGAIN = 3 };

typedef int (*walk_cb)(struct kattr_rg *rg, const char *group,
		       unsigned int depth, void *data);

/* The child groups (directories) of group. */
int rg_child_groups(struct kattr_rg *rg, const char *group,
		    struct kattr_dirent **ents, size_t *n);
/* Visit group and every group below it: pre before, post after children. */
int rg_walk_tree(struct kattr_rg *rg, const char *group, walk_cb pre,
		 walk_cb post, void *data);

#endif
