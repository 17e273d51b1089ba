/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The apply engine: a plan of steps (create a group, change its shares or
 * resources, delete it), run all or nothing.  A step keeps what undoes
 * it; a deletion first saves what the group holds (every writable
 * attribute, every thread).  When a step fails, or the caller asks the
 * run to stop between two steps (a signal), every step already done is
 * undone, last first, and what could not be restored is listed.
 *
 * Every change goes through an operations table (struct kattr_rgplan_ops)
 * whose defaults call the kattr_rg_* and kattr_rgres_* functions: tests
 * replace them to inject faults; the caller adds what the library does
 * not know (rgctl's ownership marks).  Also: the planner and verify
 * (a configuration against the groups), and the locks.  Same rules as kattr.h: no printing, no exit, 0 or -errno.
 */
#ifndef KATTR_RGPLAN_H
#define KATTR_RGPLAN_H

/* Inside lib/, only a layer that uses rgconf/ includes this: a call up the
 * layers fails to compile (lib/CMakeLists.txt sets KATTR_USES_*). */
#if defined(KATTR_BUILDING_LIB) && !defined(KATTR_USES_RGCONF)
#error "lib/: this layer does not use rgconf/ (a layer uses only the layers below it: lib/README)"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "kattr/kattr.h"
#include "kattr/rg.h"
#include "kattr/rgtool.h"
#include "kattr/rgres.h"
#include "kattr/rgconf.h"

#ifdef __cplusplus
extern "C" {
#endif

enum kattr_rgplan_kind {
	KATTR_RGPLAN_CREATE,	/* make group (with want as shares, if any) */
	KATTR_RGPLAN_SET,	/* write want as its shares (old: before) */
	KATTR_RGPLAN_DELETE,	/* delete it, members to the parent */
	KATTR_RGPLAN_RES,	/* write resource values (res) */
};

/* One writable attribute file of a group and its content. */
struct kattr_rgplan_attr {
	char *file;
	char *value;
	char *hier;	/* cgroup v1: the other hierarchy holding it (its
			 * controllers, kattr_rg_hier_name()); NULL: the root's own */
};

/* cgroup v1: a deleted group's directory in another hierarchy than the
 * root's own, and the threads it held there. */
struct kattr_rgplan_place {
	char *hier;	/* kattr_rg_hier_name() */
	pid_t *tids;
	size_t ntids;
};

/* The resource values a step changes in one group, and what they were. */
struct kattr_rgplan_res {
	struct kattr_rgres_value *want, *old;
	size_t n;
	bool fresh;		/* the group is created first: no old values */
};

struct kattr_rgplan_step {
	enum kattr_rgplan_kind kind;
	char *group;
	char *want;		/* shares to write (CREATE may have none) */
	char *old;		/* SET: shares before (RGCS: the keys set), for undo */
	struct kattr_rgplan_attr *attrs;	/* DELETE: saved by the run */
	size_t nattrs;
	pid_t *tids;		/* DELETE: its threads, to put back */
	size_t ntids;
	/* DELETE, cgroup v1: the other hierarchies it had a directory in,
	 * each with its threads there (a thread may sit in another group in
	 * one hierarchy than in the root's own); the undo makes the group
	 * again in each and puts every thread back in each, no more */
	struct kattr_rgplan_place *places;
	size_t nplaces;
	bool placed;		/* DELETE: places were recorded (cgroup v1 with
				 * several hierarchies): the threads go back
				 * hierarchy by hierarchy */
	unsigned int line;	/* in the configuration file (0: none) */
	unsigned long long ino;	/* DELETE: its inode (ops->ino) */
	char *enable;		/* cgroup v2: where cpu is to be enabled (text) */
	struct kattr_rg_cpu_path done;	/* ... and where it was */
	struct kattr_rgplan_res res;	/* RES */
	bool no_enable;		/* RES: enable no controller */
	bool skip;		/* DELETE: the group had gone already: nothing
				 * done, nothing to undo */
};

/* A group's cgroup.subtree_control before the run (cgroup v2). */
struct kattr_rgplan_sc {
	char *group;
	char *words;		/* "cpu memory", "" when none */
};

struct kattr_rgplan {
	struct kattr_rgplan_step *v;
	size_t n, cap;
	/* the subtree_control of every existing group above a step's
	 * group, parents before their children (kattr_rgplan_sc_save()) */
	struct kattr_rgplan_sc *sc;
	size_t nsc;
};

/* Append a zeroed step of kind for group; *out points at it. */
int kattr_rgplan_add(struct kattr_rgplan *p, enum kattr_rgplan_kind kind,
			       const char *group, struct kattr_rgplan_step **out);
void kattr_rgplan_free(struct kattr_rgplan *p);
/*
 * cgroup v2: record the cgroup.subtree_control of every existing group
 * above each step's group (where enabling a controller for a step writes),
 * so an undo disables what the run enabled, whichever step did it
 * (kattr_rgplan_sc_restore()).  Nothing on backends that do not delegate.
 */
int kattr_rgplan_sc_save(struct kattr_rg *rg, struct kattr_rgplan *p);
/* Append one record (the journal's reader).  -ENOMEM. */
int kattr_rgplan_sc_add(struct kattr_rgplan *p, const char *group, const char *words);
/*
 * Disable, deepest group first, every controller enabled now in a recorded
 * group's cgroup.subtree_control that was not before.  A group gone is
 * passed over.  0, or the first -errno; *failed (if not NULL) gets the
 * index of that record.
 */
int kattr_rgplan_sc_restore(struct kattr_rg *rg, const struct kattr_rgplan *p,
			    size_t *failed);
void kattr_rgplan_res_free(struct kattr_rgplan_res *r);

/*
 * What the run does, each call with ops->arg first.  Every change goes
 * through one of these; NULL members of the tool's part mean "none".
 */
struct kattr_rgplan_ops {
	/* the changes (kattr_rgplan_ops_init: the library's functions) */
	int (*create)(void *arg, struct kattr_rg *rg, const char *group,
		      const char *shares, struct kattr_rg_cpu_path *done);
	int (*cpu_enable)(void *arg, struct kattr_rg *rg, const char *group,
			  struct kattr_rg_cpu_path *done);
	int (*cpu_undo)(void *arg, struct kattr_rg *rg,
			struct kattr_rg_cpu_path *done);
	int (*shares_set)(void *arg, struct kattr_rg *rg, const char *group,
			  const char *shares, struct kattr_why *why);
	int (*delete)(void *arg, struct kattr_rg *rg, const char *group);
	int (*members)(void *arg, struct kattr_rg *rg, const char *group,
		       pid_t **tids, size_t *n);
	int (*attach)(void *arg, struct kattr_rg *rg, const char *group,
		      const pid_t *tids, size_t n, int *results);
	/* values into group (kattr_rgres_set()); *failed: the index refused */
	int (*res_set)(void *arg, struct kattr_rg *rg, const char *group,
		       const struct kattr_rgres_value *v, size_t n,
		       unsigned int flags, size_t *failed);
	/* write a saved attribute back (rel: "group/file" beneath the root) */
	int (*attr_write)(void *arg, struct kattr_rg *rg, const char *rel,
			  const char *value);
	/* the caller's: mark a group made (or re-made) as its own (why: the
	 * words for a failure, may be NULL) */
	int (*mark)(void *arg, struct kattr_rg *rg, const char *group,
		    struct kattr_why *why);
	/* the caller's: an id kept with a deleted group (step->ino) */
	unsigned long long (*ino)(void *arg, struct kattr_rg *rg, const char *group);
	/* before each step and after the last: nonzero (a signal number)
	 * stops the run, which then undoes what it did */
	int (*stop)(void *arg);
	/* tests: fail step i before it, after it, or its undo (-errno, why:
	 * the run keeps the text of the last words given) */
	int (*before)(void *arg, size_t i, struct kattr_why *why);
	int (*after)(void *arg, size_t i, struct kattr_why *why);
	int (*before_undo)(void *arg, size_t i, struct kattr_why *why);
	void *arg;
	/* where the run writes its intent (NULL: nowhere): each step as it
	 * starts, each undo as it ends (kattr_rgjournal_create()) */
	struct kattr_rgjournal *journal;
};

/* ops with every change the library's and nothing of the caller's. */
void kattr_rgplan_ops_init(struct kattr_rgplan_ops *ops);

/* What undo could not restore: one entry each. */
enum kattr_rgplan_note_kind {
	KATTR_RGPLAN_NOTE_UNDO,		/* step could not be undone (err, why) */
	KATTR_RGPLAN_NOTE_RECREATE,	/* deleted group not made again */
	KATTR_RGPLAN_NOTE_MARK,		/* ... made but not marked again */
	KATTR_RGPLAN_NOTE_ATTR,		/* attrs[attr] not set back */
	KATTR_RGPLAN_NOTE_THREADS,	/* none of its threads put back */
	KATTR_RGPLAN_NOTE_THREAD,	/* thread tid not put back */
	KATTR_RGPLAN_NOTE_CTL,		/* sc[attr]: a controller not disabled again */
};

struct kattr_rgplan_note {
	enum kattr_rgplan_note_kind kind;
	size_t step;		/* index in the plan (CTL: 0) */
	size_t attr;		/* ATTR: index in the step's attrs; CTL: in sc */
	pid_t tid;		/* THREAD */
	const char *hier;	/* THREAD, THREADS, RECREATE: the other hierarchy
				 * (cgroup v1), NULL: the root's own */
	int err;		/* -errno; -ENODATA: the old value is unknown */
	const char *why;	/* words instead of err's, or NULL */
};

enum kattr_rgplan_flags {
	KATTR_RGPLAN_NO_UNDO = 1u << 0,	/* keep what was done on a stop or failure */
};

struct kattr_rgplan_result {
	size_t failed;		/* the step that failed or was next (stop) */
	size_t done;		/* steps done (and then undone, unless NO_UNDO) */
	int err;		/* its -errno (0: all done) */
	const char *why;	/* words for err, or NULL */
	int stopped;		/* ops->stop's value when it stopped the run */
	struct kattr_rgplan_note *notes;
	size_t nnotes;
};
void kattr_rgplan_result_free(struct kattr_rgplan_result *r);

/*
 * Run p's steps in order.  0 when all are done; on a failure, -errno
 * (r->failed, r->err, r->why) after undoing what was done, r->notes
 * listing what could not be; -EINTR (r->stopped) when ops->stop stopped
 * it, also undone.  With KATTR_RGPLAN_NO_UNDO nothing is undone.  r is
 * filled in every case (kattr_rgplan_result_free()).
 */
int kattr_rgplan_run(struct kattr_rg *rg, struct kattr_rgplan *p,
			       const struct kattr_rgplan_ops *ops, unsigned int flags,
			       struct kattr_rgplan_result *r);

/*
 * The intent journal of a run: a text file, written before the first
 * change and appended to, one write(2) per step, so that a run killed
 * where no handler runs (SIGKILL, the OOM killer) can be undone by the
 * next process that takes the hierarchy's lock (kattr_rgplan_recover()).
 * The format is line-based and versioned:
 *
 *   rgctl-journal 1           (the version)
 *   cmd NAME                  (who wrote it)
 *   pid PID
 *   steps N                   (then N step lines, in plan order:)
 *   create GROUP
 *   set GROUP OLD ENABLE      (OLD: "-" unknown, "=TEXT"; ENABLE 0/1)
 *   delete GROUP
 *   res GROUP FRESH NOENABLE [KEY=TEXT | KEY]...   (KEY alone: unset)
 *   run                       (the plan is complete; then the records:)
 *   s I                       (step I starts: step I-1 has ended; the
 *                              steps between the last one and I were
 *                              skipped: a deletion whose group had gone)
 *   a I FILE =VALUE           (DELETE step I: a setting it saved)
 *   t I TID...                (DELETE step I: its threads)
 *   P I                       (DELETE step I, cgroup v1: its places follow,
 *                              its threads go back hierarchy by hierarchy)
 *   p I HIER [TID...]         (... its directory in hierarchy HIER (by its
 *                              controllers), its threads there; repeated
 *                              for more threads)
 *   A I HIER FILE =VALUE      (... a setting it saved in HIER)
 *   u I                       (the undo of step I is done)
 *
 * Tokens are separated by one space; a byte <= ' ', >= 0x7f or '\' in
 * one is written \xNN.  The file is removed when the run is over (all
 * done, or all undone).
 */
struct kattr_rgjournal;

struct kattr_rgjournal_state {
	char cmd[32];		/* the command that wrote it */
	pid_t pid;		/* its process (words only: the lock tells) */
	bool run;		/* the plan was complete: steps may have started */
	size_t started;		/* steps started (the last may be partly done) */
	size_t undone;		/* steps >= undone are undone (started: none) */
};

/* dir/name made (it must not exist) with p's plan; *out to append to. */
int kattr_rgjournal_create(int dir, const char *name, const char *cmd,
				     const struct kattr_rgplan *p,
				     struct kattr_rgjournal **out);
/* Parse a journal's text into a plan and a state: 0 or -EINVAL. */
int kattr_rgjournal_parse(const char *text, size_t len,
				    struct kattr_rgplan *p,
				    struct kattr_rgjournal_state *st);
/* Open dir/name and parse it (-ENOENT: none), to recover and append to. */
int kattr_rgjournal_open(int dir, const char *name, struct kattr_rgplan *p,
				   struct kattr_rgjournal_state *st,
				   struct kattr_rgjournal **out);
/* The records (the run writes them through ops->journal). */
int kattr_rgjournal_step(struct kattr_rgjournal *j, size_t i,
				   const struct kattr_rgplan_step *s);
int kattr_rgjournal_undone(struct kattr_rgjournal *j, size_t i);
/* Steps from to to-1 start together (one call makes them all: a group
 * and its missing parents), none a deletion: one write. */
int kattr_rgjournal_steps(struct kattr_rgjournal *j, size_t from, size_t to);
/* Close; with remove, the run is over and the file goes first. */
int kattr_rgjournal_close(struct kattr_rgjournal *j, bool remove);

/*
 * Undo what a journal says a dead run did (p and st from
 * kattr_rgjournal_open()): every started step not yet undone, last first,
 * each recorded in ops->journal as it is undone (a recovery killed in turn
 * goes on where it stopped).  The caller holds the lock.  0, or -EIO with
 * r->notes naming what could not be restored; r->done: steps undone.
 */
int kattr_rgplan_recover(struct kattr_rg *rg, struct kattr_rgplan *p,
				   const struct kattr_rgjournal_state *st,
				   const struct kattr_rgplan_ops *ops,
				   struct kattr_rgplan_result *r);

/* ---- the planner: a configuration against the groups (plan_build.c) ---- */

enum kattr_rgplan_build_flags {
	KATTR_RGPLAN_PRUNE = 1u << 0,	/* also delete groups the file does not name */
	KATTR_RGPLAN_NO_ENABLE = 1u << 1,	/* cgroup v2: refuse, rather than
					 * enable cpu above a group with shares */
};

/* What the planner and verify compare the groups with. */
struct kattr_rgplan_conf {
	const struct kattr_rgconf *conf;
	unsigned int flags;		/* kattr_rgplan_build_flags */
	/* PRUNE: whether group is the caller's to delete (NULL: none is) */
	bool (*ours)(void *arg, struct kattr_rg *rg, const char *group);
	void *arg;
};

/* Why the planner (or verify) stopped: the caller words it. */
enum kattr_rgplan_fail_kind {
	KATTR_RGPLAN_FAIL_NOMEM,	/* out of memory */
	KATTR_RGPLAN_FAIL_NO_SHARES,	/* g has shares, the hierarchy none (err) */
	KATTR_RGPLAN_FAIL_SHARES,	/* g->shares not valid for the backend (why) */
	KATTR_RGPLAN_FAIL_CPU_READ,	/* the subtree_control files above g (err) */
	KATTR_RGPLAN_FAIL_NO_ENABLE,	/* cpu to enable above g (NO_ENABLE) */
	KATTR_RGPLAN_FAIL_GROUP,	/* g cannot be used (err) */
	KATTR_RGPLAN_FAIL_SHARES_READ,	/* g's shares cannot be read (err) */
	KATTR_RGPLAN_FAIL_LIMITS,	/* the machine's memory and CPUs (err) */
	KATTR_RGPLAN_FAIL_RES_OPEN,	/* g's resources cannot be opened (err) */
	KATTR_RGPLAN_FAIL_RES_PARSE,	/* g->res[res] is not valid (why) */
	KATTR_RGPLAN_FAIL_RES_RESOLVE,	/* key's device dev not found (err) */
	KATTR_RGPLAN_FAIL_RES_WHERE,	/* key cannot be set here (why, else err) */
	KATTR_RGPLAN_FAIL_RES_READ,	/* key cannot be read (err) */
	KATTR_RGPLAN_FAIL_LIST,		/* the groups cannot be listed (err) */
};

struct kattr_rgplan_fail {
	enum kattr_rgplan_fail_kind kind;
	const struct kattr_rgconf_group *g;	/* NULL: NOMEM, LIMITS, LIST */
	int err;			/* -errno */
	const char *why;		/* static words, or NULL */
	const char *key;		/* RES_RESOLVE, _WHERE, _READ: the key */
	size_t res;			/* RES_PARSE: the index in g->res */
	char dev[128];			/* RES_RESOLVE: the device's path */
};

/* What the planner says beside the plan. */
struct kattr_rgplan_info {
	/* PRUNE: the groups kept although the file does not name them (not
	 * the caller's, or above one that is kept), deepest first */
	char **kept;
	size_t nkept;
	struct kattr_rgplan_fail fail;	/* when it returns -errno */
};
void kattr_rgplan_info_free(struct kattr_rgplan_info *info);

/*
 * The steps that make rg's groups what pc->conf says, nothing touched:
 * creates and share changes parents first (file order among equals),
 * then resource changes, then (PRUNE) deletions children first, only of
 * groups pc->ours() calls the caller's and not above a group kept.  A
 * step's enable (cgroup v2) is the groups where cpu is to be enabled,
 * one per line ("": an earlier step enables it).  0, or -errno with
 * info->fail saying why (p then holds the steps planned so far).
 */
int kattr_rgplan_build(struct kattr_rg *rg, const struct kattr_rgplan_conf *pc,
		       struct kattr_rgplan *p, struct kattr_rgplan_info *info);
/*
 * The resource values of g that differ from the group's (all, when fresh:
 * the group is to be created); out->n is 0 when none.  0 or -errno (*f).
 */
int kattr_rgplan_res_build(struct kattr_rg *rg, const struct kattr_rgconf_group *g,
			   bool fresh, struct kattr_rgplan_res *out,
			   struct kattr_rgplan_fail *f);
/*
 * Whether group's shares already equal want (kattr_rg_share_format()'s
 * text); *old (malloc'ed, may stay NULL) gets the current value as text,
 * on RGCS only the keys want sets.  1, 0, or -errno.
 */
int kattr_rgplan_shares_equal(struct kattr_rg *rg, const char *group,
			      const char *want, char **old);

/* A difference verify found between the groups and the file. */
enum kattr_rgplan_diff_kind {
	KATTR_RGPLAN_DIFF_GROUP,	/* g cannot be used (err) */
	KATTR_RGPLAN_DIFF_RES,		/* g still needs res */
	KATTR_RGPLAN_DIFF_SHARES,	/* g has shares have (NULL: none) */
	KATTR_RGPLAN_DIFF_LIST,		/* PRUNE: the groups cannot be listed (err) */
	KATTR_RGPLAN_DIFF_EXTRA,	/* PRUNE: the caller's group, not named */
};

struct kattr_rgplan_diff {
	enum kattr_rgplan_diff_kind kind;
	const struct kattr_rgconf_group *g;	/* GROUP, RES, SHARES */
	char *group;			/* EXTRA */
	int err;
	char *have;			/* SHARES */
	struct kattr_rgplan_res res;	/* RES */
};

struct kattr_rgplan_diffs {
	struct kattr_rgplan_diff *v;
	size_t n;
};
void kattr_rgplan_diffs_free(struct kattr_rgplan_diffs *d);

/*
 * After a run: the groups read back and compared with pc->conf (another
 * writer may have changed them), each difference in d, in the file's
 * order, then (PRUNE) the caller's groups it does not name.  0, or
 * -errno with *f (a group's shares or resources could not be read).
 */
int kattr_rgplan_verify(struct kattr_rg *rg, const struct kattr_rgplan_conf *pc,
			struct kattr_rgplan_diffs *d, struct kattr_rgplan_fail *f);

#ifdef __cplusplus
}
#endif

#endif
