/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef KATTR_RG_INTERNAL_H
#define KATTR_RG_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

/* Strict decimal of s[0..len), '-' allowed when neg_ok. */
int rg_parse_ll(const char *s, size_t len, bool neg_ok, long long *out);

struct mnl_socket;
/*
 * libmnl builds: a netlink socket of bus opened with flags (SOCK_*), its
 * receive buffer set to rcvbuf (if > 0), bound to groups.  0 or -errno.
 */
int rg_mnl_open(int bus, int flags, int rcvbuf, unsigned int groups,
		struct mnl_socket **out);

/* ---- the resource-group layer (rg.c and its parts) ---------------------- */

#include <sys/types.h>

#include "kattr/rg.h"

struct kattr_mount;
struct kattr_dirent;

struct rg_backend {
	enum kattr_rg_backend id;
	const char *fstype;		/* mountinfo type (RGCS: configfs) */
	unsigned long magic;
	const char *shares_file;
	const char *tasks_file;		/* thread ids */
	const char *procs_file;		/* process ids */
	const char *attach_task;	/* where one task is moved */
	const char *attach_proc;	/* where a whole process is moved */
	bool rmdir_moves_members;
};

#define RGCSFS_FSTYPE	"fuse.rgcsfs"

struct kattr_rg {
	const struct rg_backend *be;
	struct kattr_mount *m;
	struct kattr_mount *acct;	/* v1: a separate cpuacct hierarchy */
	char *ctrls;			/* v1: controllers, "cpu,cpuacct" */
	char *prefix;			/* root within its hierarchy, "/x" or "" */
	bool has_shares;
	bool acct_comounted;
};

/* rg.c */
/* "group/file", "file" for the root, "." or "group" when file is NULL. */
int rg_gpath(char *buf, size_t size, const char *group, const char *file);
/* 1 when the file rel of m holds word (space or newline separated), 0 when
 * not, -errno. */
int rg_file_has_word(struct kattr_mount *m, const char *rel, const char *word);

/* ctl.c: cgroup v2 controller delegation */
/* 1 when a retry of a cpu.* file of group may succeed, 0 when not, -errno. */
int rg_cpu_settle(struct kattr_rg *rg, const char *group);
/* Disable cpu in done's groups from the last down to index start. */
int rg_cpu_undo_from(struct kattr_rg *rg, struct kattr_rg_cpu_path *done,
		     size_t start);

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
/* Whether err, met below the start of a walk, means the group is gone. */
bool rg_group_gone(int err);
/* Visit group and every group below it: pre before, post after children. */
int rg_walk_tree(struct kattr_rg *rg, const char *group, walk_cb pre,
		 walk_cb post, void *data);

/* proc.c */
struct rg_pid_vec {
	pid_t *v;
	size_t n, cap;
};
/* Append id to the struct rg_pid_vec data (a kattr_rg_proc_foreach cb). */
int rg_pid_vec_add(pid_t id, void *data);
/* The thread ids of process pid, from /proc/PID/task (-ESRCH: none). */
int rg_proc_tids(pid_t pid, pid_t **tids, size_t *n);
bool rg_pid_in(const pid_t *v, size_t n, pid_t p);

#endif
