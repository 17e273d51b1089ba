// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What rgctl's multi-step commands share (rgctl_plan.h): the stop signals,
 * the operations table with rgctl's parts, and the intent journal.
 *
 * The journal (kattr/rgplan.h has its format) is the file
 * journal.MAJ-MIN-INO in the run-state directory (state.c), named after
 * the device and inode of the hierarchy's root directory, the directory
 * the lock (kattr_rg_lock()) is taken on.  A run writes it under that
 * lock and removes it when the run is over; one found later is a dead
 * run's exactly when the lock can be taken: a pid is never trusted.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "rgctl_plan.h"
#include "rgctl_systemd.h"

/* ---- the stop signals ------------------------------------------------------ */

/*
 * SIGINT, SIGTERM, SIGHUP and SIGPIPE during a run (rgctl(8), SIGNALS):
 * the handler only notes the signal; the engine asks between two steps,
 * so the step in progress completes, then what was done is undone.  A
 * second signal during the undo is noted and honoured once it is done.
 */
static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
static volatile sig_atomic_t got_sig, got_sig2;

static void on_stop_signal(int sig)
{
	if (!got_sig)
		got_sig = sig;
	else if (!got_sig2)
		got_sig2 = sig;
}

void rgctl_stop_catch(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sa.sa_flags = SA_RESTART;
	sigfillset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(*stop_signals); i++)
		sigaction(stop_signals[i], &sa, NULL);
}

int rgctl_stop_sig(void)
{
	return got_sig;
}

int rgctl_stop_sig2(void)
{
	return got_sig2;
}

const char *rgctl_sig_name(int sig)
{
	switch (sig) {
	case SIGINT:
		return "SIGINT";
	case SIGTERM:
		return "SIGTERM";
	case SIGHUP:
		return "SIGHUP";
	case SIGPIPE:
		return "SIGPIPE";
	}
	return "a signal";
}

/* ---- the operations ------------------------------------------------------- */

static int stop_requested(void *arg)
{
	(void)arg;
	return got_sig;
}

static int mark_ours(void *arg, struct kattr_rg *rg, const char *group,
		     struct kattr_why *why)
{
	int ret = rgctl_own_mark(rg, group);

	(void)arg;
	if (ret < 0 && why) {
		why->code = KATTR_WHY_INVALID;
		why->text = "cannot mark it as made by rgctl";
	}
	return ret;
}

static unsigned long long own_ino(void *arg, struct kattr_rg *rg, const char *group)
{
	(void)arg;
	return rgctl_own_ino(rg, group);
}

/* The shipped rgctl has no fault hooks: rgctl-faults (tests) sets them. */
__attribute__((weak)) void rgctl_apply_faults(struct kattr_rgplan_ops *ops)
{
	(void)ops;
}

/* The shipped rgctl waits for nothing: rgctl-faults (tests) may, before a
 * step of a command that does not run through the engine. */
__attribute__((weak)) void rgctl_step_delay(void)
{
}

/* ... and notes nothing: rgctl-faults notes when such a step ended. */
__attribute__((weak)) void rgctl_step_done(void)
{
}

void rgctl_plan_ops(struct kattr_rgplan_ops *ops)
{
	kattr_rgplan_ops_init(ops);
	ops->mark = mark_ours;
	ops->ino = own_ino;
	ops->stop = stop_requested;
	rgctl_apply_faults(ops);
}

/* ---- the journal ------------------------------------------------------------ */

/* "journal.MAJ-MIN-INO" of rg's root directory, into name. */
static int journal_name(struct kattr_rg *rg, char *name, size_t size)
{
	return rgctl_state_name(rg, "journal", true, NULL, name, size);
}

int rgctl_journal_begin(struct kattr_rg *rg, const char *cmd,
			struct kattr_rgplan *p, struct kattr_rgjournal **j)
{
	char dir[4096], name[96];
	int fd, ret;

	*j = NULL;
	/* cgroup v2: the controllers enabled above the plan's groups, for
	 * the undo (a signal's, or the next rgctl's after a kill) */
	ret = kattr_rgplan_sc_save(rg, p);
	if (ret < 0) {
		tool_warn("%s: cannot read the cgroup.subtree_control files above the groups: %s; nothing was changed",
			  cmd, rgctl_strerror(ret));
		return EXIT_FAIL;
	}
	ret = journal_name(rg, name, sizeof(name));
	if (ret < 0) {
		tool_warn("%s: cannot open '%s': %s; nothing was changed", cmd,
			  TOOL_Q(kattr_rg_root(rg)), rgctl_strerror(ret));
		return EXIT_FAIL;
	}
	fd = rgctl_state_dir(true, dir, sizeof(dir));
	/* A user who may not write the run-state directory (a delegated
	 * subtree: root's), or where there is none (no /run beneath a
	 * --sysroot tree), runs without a journal; signals are still undone. */
	if (fd == -EACCES || fd == -EROFS || fd == -EPERM || fd == -ENOENT)
		return 0;
	ret = fd < 0 ? fd : kattr_rgjournal_create(fd, name, cmd, p, j);
	if (fd >= 0)
		close(fd);
	if (ret < 0) {
		tool_warn("%s: cannot write the journal %s/%s: %s; nothing was changed",
			  cmd, TOOL_Q(dir), name, fd < 0 ? rgctl_state_strerror(ret) :
			  ret == -EEXIST ? "it exists (left by a run rgctl could not recover: "
			  "check the groups, then remove it)" : tool_strerror(-ret));
		return EXIT_FAIL;
	}
	return 0;
}

void rgctl_journal_end(struct kattr_rgjournal *j)
{
	int ret = kattr_rgjournal_close(j, true);

	if (ret < 0)
		tool_warn("cannot remove the journal of this run: %s", tool_strerror(-ret));
}

/* Undo what the dead run of journal dir/name did; say it in one line. */
static void recover(struct kattr_rg *rg, int dir, const char *shown, const char *name)
{
	struct kattr_rgjournal_state st;
	struct kattr_rgplan_result r;
	struct kattr_rgplan_ops ops;
	struct kattr_rgjournal *j;
	struct kattr_rgplan p;
	int ret;

	ret = kattr_rgjournal_open(dir, name, &p, &st, &j);
	if (ret == -ENOENT)
		return;		/* its run ended meanwhile */
	if (ret < 0) {
		tool_warn("cannot recover from the journal %s/%s: %s; left in place: check the groups, then remove it",
			  TOOL_Q(shown), name, ret == -EINVAL ? "malformed" : tool_strerror(-ret));
		return;
	}
	if (!st.run) {
		/* Killed while writing its plan (the journal is made, then
		 * written in one write): before its first change, so there
		 * is nothing to undo and nothing to say. */
		kattr_rgplan_free(&p);
		rgctl_journal_end(j);
		return;
	}
	rgctl_plan_ops(&ops);
	ops.stop = NULL;	/* the recovery is not stopped half-way */
	ops.before = ops.after = ops.before_undo = NULL;
	ops.journal = j;
	ret = kattr_rgplan_recover(rg, &p, &st, &ops, &r);
	if (ret == -EIO)
		tool_warn("recovered from rgctl %s (pid %d) killed after %zu of %zu changes: "
			  "%zu undone, but %zu thing%s could not be restored: the groups are NOT as before",
			  st.cmd, (int)st.pid, st.started, p.n, r.done, r.nnotes,
			  r.nnotes == 1 ? "" : "s");
	if (ret == -EIO)
		rgctl_plan_notes(rg, &p, &r, NULL);
	else if (ret < 0)
		tool_warn("cannot recover from the journal %s/%s: %s", TOOL_Q(shown), name,
			  tool_strerror(-ret));
	else
		tool_warn("recovered from rgctl %s (pid %d) killed after %zu of %zu changes: "
			  "%zu undone, the groups are as before", st.cmd, (int)st.pid,
			  st.started, p.n, r.done);
	kattr_rgplan_result_free(&r);
	kattr_rgplan_free(&p);
	if (ret != -EINVAL)
		rgctl_journal_end(j);
	else
		kattr_rgjournal_close(j, false);
}

void rgctl_journal_recover(struct kattr_rg *rg, bool locked)
{
	char shown[4096], name[96];
	int dir, lock = -1;

	/* Cheap when there is none: one open, one fstatat. */
	dir = rgctl_state_dir(false, shown, sizeof(shown));
	if (dir < 0)
		return;
	if (journal_name(rg, name, sizeof(name)) < 0 ||
	    faccessat(dir, name, F_OK, AT_SYMLINK_NOFOLLOW) < 0)
		goto out;
	if (!locked && (lock = kattr_rg_lock(rg, 0, NULL)) < 0)
		goto out;	/* a live run's (or no lock here: left alone) */
	recover(rg, dir, shown, name);
	if (lock >= 0)
		close(lock);
out:
	close(dir);
}

/* ---- what could not be restored -------------------------------------------- */

/* " in the memory hierarchy" for a note of another hierarchy than the
 * root's own (cgroup v1), else "", into buf. */
static const char *in_hier(const char *hier, char *buf, size_t size)
{
	if (!hier)
		return "";
	snprintf(buf, size, " in the %s hierarchy", TOOL_Q(hier));
	return buf;
}

void rgctl_plan_notes(struct kattr_rg *rg, const struct kattr_rgplan *p,
		      const struct kattr_rgplan_result *r, rgctl_step_text_fn text_fn)
{
	char text[1024], h[300];

	for (size_t i = 0; i < r->nnotes; i++) {
		const struct kattr_rgplan_note *n = &r->notes[i];
		const struct kattr_rgplan_step *s = &p->v[n->step];
		const struct kattr_rgplan_attr *a;
		const char *g = TOOL_Q(s->group);

		switch (n->kind) {
		case KATTR_RGPLAN_NOTE_UNDO:
			if (text_fn)
				text_fn(rg, s, text, sizeof(text));
			else
				snprintf(text, sizeof(text), "%s %s",
					 s->kind == KATTR_RGPLAN_CREATE ? "create" :
					 s->kind == KATTR_RGPLAN_DELETE ? "delete" : "set", g);
			tool_warn("  '%s' could not be undone: %s", text, n->why ? n->why :
				  n->err == -ENODATA ? "the old value is unknown" :
				  rgctl_strerror(n->err));
			break;
		case KATTR_RGPLAN_NOTE_RECREATE:
			tool_warn("  group '%s' could not be re-created%s: %s", g,
				  in_hier(n->hier, h, sizeof(h)), rgctl_strerror(n->err));
			break;
		case KATTR_RGPLAN_NOTE_CTL:
			tool_warn("  a controller enabled in '%s/cgroup.subtree_control' could not be disabled again (it was '%s'): %s",
				  TOOL_Q(p->sc[n->attr].group), p->sc[n->attr].words,
				  rgctl_strerror(n->err));
			break;
		case KATTR_RGPLAN_NOTE_MARK:
			tool_warn("  group '%s' could not be marked as rgctl's again: %s", g,
				  rgctl_strerror(n->err));
			break;
		case KATTR_RGPLAN_NOTE_ATTR:
			a = &s->attrs[n->attr];
			tool_warn("  '%s/%s'%s could not be set back to '%s': %s", g,
				  TOOL_Q(a->file), in_hier(a->hier, h, sizeof(h)),
				  TOOL_Q(a->value), tool_strerror(-n->err));
			break;
		case KATTR_RGPLAN_NOTE_THREADS:
			tool_warn("  the threads of '%s'%s could not be put back: %s", g,
				  in_hier(n->hier, h, sizeof(h)), rgctl_strerror(n->err));
			break;
		case KATTR_RGPLAN_NOTE_THREAD:
			tool_warn("  thread %d could not be put back in '%s'%s: %s", (int)n->tid,
				  g, in_hier(n->hier, h, sizeof(h)), rgctl_strerror(n->err));
			break;
		}
	}
}

/* ---- one run, for the commands other than apply ------------------------------ */

int rgctl_lock_wait(struct kattr_rg *rg, unsigned int wait_s, const char *cmd,
		    const char *doing, const char *who)
{
	const char *root = TOOL_Q(kattr_rg_root(rg));
	pid_t holder = 0;
	int fd;

	fd = kattr_rg_lock_wait(rg, wait_s * 1000u, stop_requested, NULL, &holder);
	if (fd >= 0)
		return 0;	/* held until rgctl exits */
	if (fd == -EINTR) {
		tool_warn("%s: interrupted by %s while waiting for the lock on '%s': nothing was changed",
			  cmd, rgctl_sig_name(got_sig), root);
		return 128 + got_sig;
	}
	if (fd == -EWOULDBLOCK && holder > 0)
		tool_warn("cannot %s: another %s (pid %d) holds the lock on '%s' and did not finish within %u s; nothing was changed",
			  doing, who, (int)holder, root, wait_s);
	else if (fd == -EWOULDBLOCK)
		tool_warn("cannot %s: another %s holds the lock on '%s' and did not finish within %u s; nothing was changed",
			  doing, who, root, wait_s);
	else
		tool_warn("cannot %s: cannot lock '%s': %s; nothing was changed", doing,
			  root, tool_strerror(-fd));
	return EXIT_FAIL;
}

int rgctl_plan_lock(struct kattr_rg *rg, const char *what)
{
	int status = rgctl_lock_wait(rg, RGCTL_LOCK_WAIT, what, what, "rgctl");

	/* a dead run's journal goes first */
	if (status == 0)
		rgctl_journal_recover(rg, true);
	return status;
}

int rgctl_plan_exec(struct kattr_rg *rg, struct kattr_rgplan *p, const char *what,
		    const struct kattr_rgplan_ops *ops_in, struct kattr_rgplan_result *r,
		    int *err)
{
	struct kattr_rgplan_ops ops;
	int status;

	memset(r, 0, sizeof(*r));
	*err = 0;
	if (ops_in)
		ops = *ops_in;
	else
		rgctl_plan_ops(&ops);
	status = rgctl_journal_begin(rg, what, p, &ops.journal);
	if (status)
		return status;
	*err = kattr_rgplan_run(rg, p, &ops, 0, r);
	rgctl_journal_end(ops.journal);
	if (*err == -EINTR && r->stopped) {
		if (r->nnotes)
			tool_warn("%s: interrupted by %s: %zu change%s undone, but %zu thing%s could not be restored: the groups are NOT as before",
				  what, rgctl_sig_name(r->stopped), r->done, r->done == 1 ? "" : "s",
				  r->nnotes, r->nnotes == 1 ? "" : "s");
		if (r->nnotes)
			rgctl_plan_notes(rg, p, r, NULL);
		else
			tool_warn("%s: interrupted by %s: %zu change%s undone, the groups are as before",
				  what, rgctl_sig_name(r->stopped), r->done, r->done == 1 ? "" : "s");
		if (got_sig2)
			tool_warn("%s: %s came during the undo: honoured now that it is done",
				  what, rgctl_sig_name(got_sig2));
		return 128 + r->stopped;
	}
	return *err < 0 ? EXIT_FAIL : 0;
}

int rgctl_plan_failed(struct kattr_rg *rg, const struct kattr_rgplan *p, const char *what,
		      const struct kattr_rgplan_result *r)
{
	if (r->nnotes) {
		tool_warn("%s: %zu thing%s could not be restored after the failure: the groups are NOT as before",
			  what, r->nnotes, r->nnotes == 1 ? "" : "s");
		rgctl_plan_notes(rg, p, r, NULL);
	}
	if (got_sig) {
		tool_warn("%s: %s came during the undo: honoured now that it is done",
			  what, rgctl_sig_name(got_sig));
		return 128 + got_sig;
	}
	return EXIT_FAIL;
}
