/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What every multi-step command shares (planrun.c): the signals that stop
 * a run between two steps (SIGINT, SIGTERM, SIGHUP, SIGPIPE), the
 * operations table with rgctl's own parts (marks, the stop, the tests'
 * fault hooks), and the intent journal in the run-state directory: begun
 * before the first change, recovered by the next rgctl on the hierarchy
 * when its writer died.
 */
#ifndef RGCTL_PLAN_H
#define RGCTL_PLAN_H

#include "kattr/rgplan.h"
#include "rgctl.h"

/* From here a stop signal is noted (the run asks between two steps). */
void rgctl_stop_catch(void);
/* The first stop signal noted (0: none), and a second one. */
int rgctl_stop_sig(void);
int rgctl_stop_sig2(void);
/* "SIGTERM" */
const char *rgctl_sig_name(int sig);

/* ops with the library's changes and rgctl's marks, stop and faults. */
void rgctl_plan_ops(struct kattr_rgplan_ops *ops);
/* The tests' fault hooks (rgctl-faults only; a no-op in rgctl). */
void rgctl_apply_faults(struct kattr_rgplan_ops *ops);
/* rgctl-faults: RGCTL_STEP_DELAY_US before a step of create or set, and
 * in each move of classify (between finding it and writing it). */
void rgctl_step_delay(void);
/* rgctl-faults: such a step (of create) ended (RGCTL_STEP_TIMES). */
void rgctl_step_done(void);

/*
 * The journal of cmd's run of p, begun before its first change (the
 * caller holds the hierarchy's lock): 0, or the exit status with the
 * cause said ("nothing was changed").  rgctl_journal_end(): the run is
 * over (all done, all undone, or kept by --no-undo): it goes.
 */
int rgctl_journal_begin(struct kattr_rg *rg, const char *cmd,
			struct kattr_rgplan *p, struct kattr_rgjournal **j);
void rgctl_journal_end(struct kattr_rgjournal *j);

/*
 * An unfinished journal of the hierarchy's, left by a dead rgctl: with
 * the lock (locked: the caller holds it; else taken here, and nothing is
 * done when a live rgctl holds it), undone and removed, said in one line.
 */
void rgctl_journal_recover(struct kattr_rg *rg, bool locked);

/*
 * The hierarchy's lock (kattr_rg_lock_wait()), waited for up to wait_s (a
 * stop signal ends the wait) and held until rgctl exits: 0, or the exit
 * status with the cause said: "cannot DOING: another WHO (pid N) holds the
 * lock on 'ROOT' and did not finish within S s; nothing was changed", "CMD:
 * interrupted by SIGTERM while waiting for the lock on 'ROOT': ...".
 */
int rgctl_lock_wait(struct kattr_rg *rg, unsigned int wait_s, const char *cmd,
		    const char *doing, const char *who);
/* How long a command waits for another's lock (seconds). */
#define RGCTL_LOCK_WAIT 30
/*
 * The hierarchy's lock for command what (waiting up to RGCTL_LOCK_WAIT s,
 * a stop signal ends the wait), held until rgctl exits; a dead run's
 * journal is then recovered.  0, or the exit status with the cause said.
 */
int rgctl_plan_lock(struct kattr_rg *rg, const char *what);
/*
 * Run p (ops_in, or rgctl_plan_ops()'s when NULL) under its journal.  0:
 * all done.  Stopped by a signal: the message said ("WHAT: interrupted by
 * SIGTERM: N changes undone, the groups are as before"), 128 + the
 * signal.  A step failed: 1, *err and r (free it) for the caller's
 * message, then rgctl_plan_failed() for the end of it and the status.
 */
int rgctl_plan_exec(struct kattr_rg *rg, struct kattr_rgplan *p, const char *what,
		    const struct kattr_rgplan_ops *ops_in, struct kattr_rgplan_result *r,
		    int *err);
int rgctl_plan_failed(struct kattr_rg *rg, const struct kattr_rgplan *p, const char *what,
		      const struct kattr_rgplan_result *r);
/*
 * One line for each thing r's undo (a failure's, a signal's, or a
 * recovery's) could not restore: the group, the file or thread, the
 * hierarchy where it is another than the root's own (cgroup v1), the
 * cause.  text_fn words a step whose undo failed (NULL: "delete GROUP").
 */
typedef void (*rgctl_step_text_fn)(struct kattr_rg *rg, const struct kattr_rgplan_step *s,
				   char *buf, size_t size);
void rgctl_plan_notes(struct kattr_rg *rg, const struct kattr_rgplan *p,
		      const struct kattr_rgplan_result *r, rgctl_step_text_fn text_fn);

#endif
