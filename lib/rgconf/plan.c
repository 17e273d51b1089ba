// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The apply engine (kattr/rgplan.h): run a plan's steps through an
 * operations table, keeping what undoes each, and undo them all, last
 * first, when one fails or the caller stops the run between two steps.
 * (The lock is lock.c's, the planner plan_build.c's.)
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "kattr/private_rgconf.h"

/* ---- the default operations ---------------------------------------------- */

static int op_create(void *arg, struct kattr_rg *rg, const char *group,
		     const char *shares, struct kattr_rg_cpu_path *done)
{
	const struct kattr_rg_create_args a = {
		.flags = KATTR_RG_ENABLE, .shares = shares, .enabled = done,
	};

	(void)arg;
	return kattr_rg_create(rg, group, &a, NULL);
}

static int op_cpu_enable(void *arg, struct kattr_rg *rg, const char *group,
			 struct kattr_rg_cpu_path *done)
{
	(void)arg;
	return kattr_rg_cpu_enable(rg, group, done);
}

static int op_cpu_undo(void *arg, struct kattr_rg *rg, struct kattr_rg_cpu_path *done)
{
	(void)arg;
	return kattr_rg_cpu_undo(rg, done);
}

static int op_shares_set(void *arg, struct kattr_rg *rg, const char *group,
			 const char *shares, struct kattr_why *why)
{
	(void)arg;
	return kattr_rg_share_set(rg, group, shares, NULL, why);
}

/* An operation's words (if it gave any) into *dst, the step's or note's
 * text; returns ret. */
static int kept(const char **dst, const struct kattr_why *w, int ret)
{
	if (w->text)
		*dst = w->text;
	return ret;
}

static int op_delete(void *arg, struct kattr_rg *rg, const char *group)
{
	(void)arg;
	return kattr_rg_delete(rg, group, 0);
}

static int op_members(void *arg, struct kattr_rg *rg, const char *group,
		      pid_t **tids, size_t *n)
{
	(void)arg;
	return kattr_rg_members(rg, group, KATTR_RG_THREADS, tids, n);
}

/* One thread at a time (v1 tasks, RGCS members): each goes back. */
static int op_attach(void *arg, struct kattr_rg *rg, const char *group,
		     const pid_t *tids, size_t n, int *results)
{
	(void)arg;
	return kattr_rg_attach(rg, group, tids, n, 0, results);
}

static int op_res_set(void *arg, struct kattr_rg *rg, const char *group,
		      const struct kattr_rgres_value *v, size_t n,
		      unsigned int flags, size_t *failed)
{
	struct kattr_rgres_group *g;
	struct kattr_rgres_done d;
	int ret;

	(void)arg;
	*failed = 0;
	ret = kattr_rgres_open(rg, group, &g);
	if (ret < 0)
		return ret;
	ret = kattr_rgres_set(g, v, n, flags, &d);
	if (ret < 0)
		*failed = d.failed < n ? d.failed : 0;
	kattr_rgres_done_free(&d);
	kattr_rgres_close(g);
	return ret;
}

static int op_attr_write(void *arg, struct kattr_rg *rg, const char *rel,
			 const char *value)
{
	(void)arg;
	return kattr_write_str(kattr_rg_mount(rg), rel, value);
}

void kattr_rgplan_ops_init(struct kattr_rgplan_ops *ops)
{
	memset(ops, 0, sizeof(*ops));
	ops->create = op_create;
	ops->cpu_enable = op_cpu_enable;
	ops->cpu_undo = op_cpu_undo;
	ops->shares_set = op_shares_set;
	ops->delete = op_delete;
	ops->members = op_members;
	ops->attach = op_attach;
	ops->res_set = op_res_set;
	ops->attr_write = op_attr_write;
}

/* ---- saving and restoring a deleted group -------------------------------- */

/* "group/file" (or "file" for the root group); -ENAMETOOLONG. */
static int group_file(char *buf, size_t size, const char *group, const char *file)
{
	int n = kattr_rg_name_is_root(group) ?
		snprintf(buf, size, "%s", file ? file : ".") :
		snprintf(buf, size, "%s%s%s", group, file ? "/" : "", file ? file : "");

	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

/*
 * Whether a writable attribute holds a setting that undo should put back:
 * not membership (restored per thread), not write-only triggers, resets
 * or statistics.
 */
static bool attr_is_setting(const struct kattr_rg *rg, const char *name)
{
	static const char *const skip[] = {
		"tasks", "cgroup.procs", "cgroup.threads", "members",
		"cgroup.event_control", "cgroup.kill", "release_agent",
		"memory.force_empty", "memory.reclaim", "stats",
	};

	if (kattr_rg_backend_of(rg) == KATTR_RG_RGCS)
		return strcmp(name, "shares") == 0;
	for (size_t i = 0; i < sizeof(skip) / sizeof(*skip); i++)
		if (strcmp(name, skip[i]) == 0)
			return false;
	return strncmp(name, "cpuacct.", 8) != 0 && !kattr_ends_with(name, ".pressure") &&
	       !kattr_ends_with(name, "failcnt") && !kattr_ends_with(name, "max_usage_in_bytes") &&
	       !kattr_ends_with(name, ".peak");
}

/* Save one attribute (ent) of s->group if it is a readable setting. */
static int save_attr(struct kattr_rg *rg, struct kattr_rgplan_step *s,
		     const struct kattr_dirent *ent)
{
	struct kattr_mount *m = kattr_rg_mount(rg);
	struct kattr_rgplan_attr *a;
	char path[4096], *text;
	struct stat st;
	int ret;

	if (ent->type != DT_REG || !attr_is_setting(rg, ent->name))
		return 0;
	ret = group_file(path, sizeof(path), s->group, ent->name);
	if (ret < 0)
		return ret;
	if (kattr_stat(m, path, &st) < 0 || !(st.st_mode & S_IWUSR) ||
	    !(st.st_mode & S_IRUSR))
		return 0;
	ret = kattr_read_alloc(m, path, &text, NULL);
	if (ret == -EINVAL || ret == -EOPNOTSUPP || ret == -EACCES)
		return 0;	/* not readable: not a setting */
	if (ret < 0)
		return ret;
	kattr_rtrim(text);
	a = &s->attrs[s->nattrs];
	a->file = strdup(ent->name);
	if (!a->file) {
		free(text);
		return -ENOMEM;
	}
	a->value = text;
	s->nattrs++;
	return 0;
}

/* Save every writable setting of s->group into s->attrs. */
static int save_attrs(struct kattr_rg *rg, struct kattr_rgplan_step *s)
{
	struct kattr_dirent *ents;
	char path[4096];
	size_t n;
	int ret;

	ret = group_file(path, sizeof(path), s->group, NULL);
	if (ret < 0)
		return ret;
	ret = kattr_list(kattr_rg_mount(rg), path, &ents, &n);
	if (ret < 0)
		return ret;
	s->attrs = calloc(n + 1, sizeof(*s->attrs));
	ret = s->attrs ? 0 : -ENOMEM;
	for (size_t i = 0; i < n && ret == 0; i++)
		ret = save_attr(rg, s, &ents[i]);
	kattr_list_free(ents, n);
	return ret;
}

/* "cpu memory" (as read) as "+cpu +memory" (as written), into buf. */
static size_t subtree_words(const char *value, char *buf, size_t size)
{
	size_t off = 0;

	buf[0] = '\0';
	for (const char *w = value; *w;) {
		size_t len = strcspn(w, " ");

		if (len && off < size)
			off += (size_t)snprintf(buf + off, size - off, "%s+%.*s",
						off ? " " : "", (int)len, w);
		w += len;
		w += strspn(w, " ");
	}
	return off < size ? off : 0;
}

/* Write one saved attribute back; 0 when it already holds the value. */
static int restore_attr(struct kattr_rg *rg, const struct kattr_rgplan_ops *ops,
			const char *group, const struct kattr_rgplan_attr *a)
{
	char path[4096], *now = NULL, buf[1024];
	int ret;

	ret = group_file(path, sizeof(path), group, a->file);
	if (ret == 0)
		ret = kattr_read_alloc(kattr_rg_mount(rg), path, &now, NULL);
	if (ret < 0)
		return ret;
	kattr_rtrim(now);
	ret = strcmp(now, a->value) == 0;
	free(now);
	if (ret)
		return 0;
	if (kattr_rg_backend_of(rg) == KATTR_RG_RGCS) {
		/* One "res=..." line per controller, one write each. */
		for (const char *l = a->value; *l && ret >= 0;) {
			size_t len = strcspn(l, "\n");
			char *line = strndup(l, len);

			ret = line ? (len ? ops->attr_write(ops->arg, rg, path, line) : 0)
				   : -ENOMEM;
			free(line);
			l += len + (l[len] == '\n');
		}
		return ret < 0 ? ret : 0;
	}
	if (strcmp(a->file, "cgroup.subtree_control") == 0)
		return subtree_words(a->value, buf, sizeof(buf)) ?
		       ops->attr_write(ops->arg, rg, path, buf) : 0;
	return ops->attr_write(ops->arg, rg, path, a->value);
}

/* ---- the run --------------------------------------------------------------- */

static int note(struct kattr_rgplan_result *r, enum kattr_rgplan_note_kind kind,
		size_t step, int err)
{
	struct kattr_rgplan_note *n;

	n = realloc(r->notes, (r->nnotes + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	r->notes = n;
	n = &n[r->nnotes++];
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	n->step = step;
	n->err = err;
	return 0;
}

void kattr_rgplan_result_free(struct kattr_rgplan_result *r)
{
	free(r->notes);
	r->notes = NULL;
	r->nnotes = 0;
}

/* Its threads back into a re-made group, each where it was. */
static void restore_threads(struct kattr_rg *rg, const struct kattr_rgplan_ops *ops,
			    const struct kattr_rgplan_step *s, size_t i,
			    struct kattr_rgplan_result *r)
{
	int ret, *res;

	if (!s->ntids)
		return;
	res = calloc(s->ntids, sizeof(*res));
	ret = res ? ops->attach(ops->arg, rg, s->group, s->tids, s->ntids, res)
		  : -ENOMEM;
	if (ret < 0)
		note(r, KATTR_RGPLAN_NOTE_THREADS, i, ret);
	for (size_t k = 0; ret > 0 && k < s->ntids; k++)
		if (res[k] < 0 && res[k] != -ESRCH &&	/* ESRCH: it ended, no loss */
		    note(r, KATTR_RGPLAN_NOTE_THREAD, i, res[k]) == 0)
			r->notes[r->nnotes - 1].tid = s->tids[k];
	free(res);
}

/*
 * Put a deleted group back as it was: make it, restore its attributes
 * (twice: one may depend on another, e.g. a quota on its period), then
 * its threads.  What fails is noted.
 */
static void restore_group(struct kattr_rg *rg, const struct kattr_rgplan_ops *ops,
			  const struct kattr_rgplan_step *s, size_t i,
			  struct kattr_rgplan_result *r)
{
	struct kattr_rg_cpu_path none = { 0 };	/* no shares: nothing enabled */
	int ret, *err;

	ret = kattr_rg_exists(rg, s->group);
	if (ret == -ENOENT)
		ret = ops->create(ops->arg, rg, s->group, NULL, &none);
	kattr_rg_cpu_path_free(&none);
	if (ret < 0) {
		note(r, KATTR_RGPLAN_NOTE_RECREATE, i, ret);
		return;
	}
	if (ops->mark && (ret = ops->mark(ops->arg, rg, s->group, NULL)) < 0)
		note(r, KATTR_RGPLAN_NOTE_MARK, i, ret);
	err = calloc(s->nattrs + 1, sizeof(*err));
	for (int pass = 0; err && pass < 2; pass++)
		for (size_t k = 0; k < s->nattrs; k++)
			if (pass == 0 || err[k] < 0)
				err[k] = restore_attr(rg, ops, s->group, &s->attrs[k]);
	for (size_t k = 0; k < s->nattrs; k++)
		if ((!err || err[k] < 0) &&
		    note(r, KATTR_RGPLAN_NOTE_ATTR, i, err ? err[k] : -ENOMEM) == 0)
			r->notes[r->nnotes - 1].attr = k;
	free(err);
	restore_threads(rg, ops, s, i, r);
}

static int do_delete(struct kattr_rg *rg, const struct kattr_rgplan_ops *ops,
		     struct kattr_rgplan_step *step0, struct kattr_rgplan_step *s,
		     const char **why)
{
	int ret;

	/* Save what the group holds, to put it back on undo. */
	ret = save_attrs(rg, s);
	if (kattr_rg_group_gone(ret)) {
		s->skip = true;	/* gone meanwhile (another tool): not ours to undo */
		return 0;
	}
	if (ret < 0) {
		*why = "cannot save its attributes";
		return ret;
	}
	ret = ops->members(ops->arg, rg, s->group, &s->tids, &s->ntids);
	if (ret < 0) {
		*why = "cannot list its threads";
		return ret;
	}
	s->ino = ops->ino ? ops->ino(ops->arg, rg, s->group) : 0;
	/* the journal's record of it, with what was saved, before the change */
	ret = kattr_rgjournal_step(ops->journal, (size_t)(s - step0), s);
	if (ret < 0) {
		*why = "cannot write the journal";
		return ret;
	}
	ret = ops->delete(ops->arg, rg, s->group);
	if (kattr_rg_group_gone(ret) && !s->ntids) {
		/* removed by another tool between the save and now */
		s->skip = true;
		return 0;
	}
	return ret;
}

static int do_res(struct kattr_rg *rg, const struct kattr_rgplan_ops *ops,
		  const struct kattr_rgplan_step *s, bool undo, const char **why)
{
	const struct kattr_rgplan_res *ch = &s->res;
	struct kattr_rgres_value *back;
	size_t failed = 0, n = 0;
	int ret;

	if (!undo) {
		ret = ops->res_set(ops->arg, rg, s->group, ch->want, ch->n,
				   s->no_enable ? 0 : KATTR_RGRES_ENABLE, &failed);
		if (ret < 0 && why && ch->n)
			*why = ch->want[failed < ch->n ? failed : 0].res->key;
		return ret;
	}
	if (ch->fresh)
		return 0;	/* the group goes again */
	/* A value whose controller was off goes with it again (the plan's
	 * cgroup.subtree_control records, after the steps); one unknown
	 * cannot be put back. */
	back = malloc((ch->n ? ch->n : 1) * sizeof(*back));
	if (!back)
		return -ENOMEM;
	ret = 0;
	for (size_t i = 0; i < ch->n && ret == 0; i++)
		if (!ch->old[i].unset)
			back[n++] = ch->old[i];
		else if (!ch->old[i].off)
			ret = -ENODATA;
	if (ret == 0 && n)
		ret = ops->res_set(ops->arg, rg, s->group, back, n,
			   s->no_enable ? 0 : KATTR_RGRES_ENABLE, &failed);
	free(back);
	return ret;
}

static int do_step(struct kattr_rg *rg, const struct kattr_rgplan_ops *ops,
		   struct kattr_rgplan *p, size_t i, const char **why)
{
	struct kattr_rgplan_step *s = &p->v[i];
	struct kattr_why w = { 0 };
	int ret;

	/* The journal first (a deletion's, once it has saved the group). */
	if (s->kind != KATTR_RGPLAN_DELETE &&
	    (ret = kattr_rgjournal_step(ops->journal, i, s)) < 0) {
		*why = "cannot write the journal";
		return ret;
	}
	switch (s->kind) {
	case KATTR_RGPLAN_CREATE:
		return ops->create(ops->arg, rg, s->group, s->want, &s->done);
	case KATTR_RGPLAN_SET:
		ret = ops->cpu_enable(ops->arg, rg, s->group, &s->done);
		if (ret < 0)
			return ret;
		ret = kept(why, &w, ops->shares_set(ops->arg, rg, s->group, s->want, &w));
		if (ret < 0)
			ops->cpu_undo(ops->arg, rg, &s->done);
		return ret;
	case KATTR_RGPLAN_DELETE:
		return do_delete(rg, ops, p->v, s, why);
	case KATTR_RGPLAN_RES:
		return do_res(rg, ops, s, false, why);
	}
	return -EINVAL;
}

/* Undo a done (or partly done) step i; what fails is noted. */
static void undo_step(struct kattr_rg *rg, const struct kattr_rgplan_ops *ops,
		      struct kattr_rgplan_step *s, size_t i,
		      struct kattr_rgplan_result *r)
{
	struct kattr_why w = { 0 };
	const char *why = NULL;
	int ret = 0;

	if (ops->before_undo &&
	    (ret = kept(&why, &w, ops->before_undo(ops->arg, i, &w))) < 0)
		goto out;
	switch (s->kind) {
	case KATTR_RGPLAN_CREATE:
		ret = ops->delete(ops->arg, rg, s->group);
		if (ret == -ENOENT)
			ret = 0;
		if (ret == 0)	/* cpu enabled for it (cgroup v2) */
			ret = ops->cpu_undo(ops->arg, rg, &s->done);
		break;
	case KATTR_RGPLAN_SET:
		/* Where cpu was enabled for it, disabling it is the undo. */
		ret = s->old ? ops->shares_set(ops->arg, rg, s->group, s->old, NULL)
			     : s->enable ? 0 : -ENODATA;
		if (ret == 0)
			ret = ops->cpu_undo(ops->arg, rg, &s->done);
		break;
	case KATTR_RGPLAN_DELETE:
		if (!s->skip)
			restore_group(rg, ops, s, i, r);
		return;
	case KATTR_RGPLAN_RES:
		ret = do_res(rg, ops, s, true, NULL);
		break;
	}
out:
	if (ret < 0 && note(r, KATTR_RGPLAN_NOTE_UNDO, i, ret) == 0)
		r->notes[r->nnotes - 1].why = why;
}

/* Undo steps n-1 down to 0, each recorded in the journal once undone. */
static void undo_from(struct kattr_rg *rg, struct kattr_rgplan *p,
		      const struct kattr_rgplan_ops *ops, size_t n,
		      struct kattr_rgplan_result *r)
{
	size_t bad = 0;
	int ret;

	for (size_t k = n; k-- > 0;) {
		undo_step(rg, ops, &p->v[k], k, r);
		kattr_rgjournal_undone(ops->journal, k);
	}
	/* cgroup v2: what the steps enabled above their groups */
	ret = n ? kattr_rgplan_sc_restore(rg, p, &bad) : 0;
	if (ret < 0 && note(r, KATTR_RGPLAN_NOTE_CTL, 0, ret) == 0)
		r->notes[r->nnotes - 1].attr = bad;
}

/*
 * Step i with the test hooks: 0 or -errno, r->why the words, r->done how
 * many steps to undo if it failed.
 */
static int run_step(struct kattr_rg *rg, struct kattr_rgplan *p, size_t i,
		    const struct kattr_rgplan_ops *ops, struct kattr_rgplan_result *r)
{
	struct kattr_rgplan_step *s = &p->v[i];
	struct kattr_why w = { 0 };
	bool after = false;
	int ret = 0;

	r->done = i;
	if (ops->before && (ret = kept(&r->why, &w, ops->before(ops->arg, i, &w))) < 0)
		return ret;	/* nothing done */
	ret = do_step(rg, ops, p, i, &r->why);
	if (ret == 0 && ops->after) {
		kattr_why_clear(&w);
		ret = kept(&r->why, &w, ops->after(ops->arg, i, &w));
		after = ret < 0;
	}
	/* A failed deletion may have moved threads out: undo it too. */
	if (ret < 0 && (s->kind == KATTR_RGPLAN_DELETE || after))
		r->done = i + 1;
	if (ret == 0 && s->kind == KATTR_RGPLAN_CREATE && ops->mark) {
		kattr_why_clear(&w);
		ret = kept(&r->why, &w, ops->mark(ops->arg, rg, s->group, &w));
		if (ret < 0)
			r->done = i + 1;
	}
	return ret;
}

int kattr_rgplan_run(struct kattr_rg *rg, struct kattr_rgplan *p,
		     const struct kattr_rgplan_ops *ops, unsigned int flags,
		     struct kattr_rgplan_result *r)
{
	int ret = 0;

	memset(r, 0, sizeof(*r));
	for (size_t i = 0; i <= p->n; i++) {
		r->failed = i;
		r->done = i;
		if (ops->stop && (r->stopped = ops->stop(ops->arg)) != 0) {
			ret = -EINTR;
			break;
		}
		if (i == p->n)
			break;
		ret = run_step(rg, p, i, ops, r);
		if (ret < 0)
			break;
	}
	if (ret == 0) {
		r->failed = p->n;
		return 0;
	}
	r->err = ret;
	if (flags & KATTR_RGPLAN_NO_UNDO)
		return ret;
	undo_from(rg, p, ops, r->done, r);
	return ret;
}

int kattr_rgplan_recover(struct kattr_rg *rg, struct kattr_rgplan *p,
			 const struct kattr_rgjournal_state *st,
			 const struct kattr_rgplan_ops *ops,
			 struct kattr_rgplan_result *r)
{
	size_t n = st->undone < st->started ? st->undone : st->started;

	memset(r, 0, sizeof(*r));
	if (n > p->n)
		return -EINVAL;
	r->done = n;
	r->failed = n;
	undo_from(rg, p, ops, n, r);
	return r->nnotes ? -EIO : 0;
}
