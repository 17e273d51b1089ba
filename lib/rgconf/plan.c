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

/*
 * cgroup v1: the mount of hierarchy hier (a place's or an attribute's,
 * NULL: the root's own) at the root's place, or NULL (none there now).
 */
static struct kattr_mount *hier_mount(struct kattr_rg *rg, const char *hier)
{
	struct kattr_mount *m;
	int i;

	if (!hier)
		return kattr_rg_mount(rg);
	i = kattr_rg_hier_index(rg, hier);
	if (i <= 0 || kattr_rg_hier_place(rg, (size_t)i, &m) < 0)
		return NULL;
	return m;
}

/* Save one attribute (ent) of s->group in m (hierarchy hier, NULL: the
 * root's own) if it is a readable setting. */
static int save_attr(struct kattr_rg *rg, struct kattr_mount *m, const char *hier,
		     struct kattr_rgplan_step *s, const struct kattr_dirent *ent)
{
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
	memset(a, 0, sizeof(*a));
	a->file = strdup(ent->name);
	a->hier = hier ? strdup(hier) : NULL;
	if (!a->file || (hier && !a->hier)) {
		free(a->file);
		free(a->hier);
		free(text);
		return -ENOMEM;
	}
	a->value = text;
	s->nattrs++;
	return 0;
}

/* Save every writable setting of s->group in m (hierarchy hier) into
 * s->attrs, after those saved already. */
static int save_attrs(struct kattr_rg *rg, struct kattr_mount *m, const char *hier,
		      struct kattr_rgplan_step *s)
{
	struct kattr_rgplan_attr *v;
	struct kattr_dirent *ents;
	char path[4096];
	size_t n;
	int ret;

	ret = group_file(path, sizeof(path), s->group, NULL);
	if (ret < 0)
		return ret;
	ret = kattr_list(m, path, &ents, &n);
	if (ret < 0)
		return ret;
	v = realloc(s->attrs, (s->nattrs + n + 1) * sizeof(*v));
	if (v)
		s->attrs = v;
	ret = v ? 0 : -ENOMEM;
	for (size_t i = 0; i < n && ret == 0; i++)
		ret = save_attr(rg, m, hier, s, &ents[i]);
	kattr_list_free(ents, n);
	return ret;
}

/* The threads of group in m (cgroup v1: its tasks file), unsorted. */
static int tasks_of(struct kattr_mount *m, const char *group, pid_t **tids, size_t *n)
{
	char path[4096], *text;
	int ret = group_file(path, sizeof(path), group, "tasks");

	*tids = NULL;
	*n = 0;
	if (ret == 0)
		ret = kattr_read_alloc(m, path, &text, NULL);
	if (ret < 0)
		return ret;
	ret = kattr_rg_parse_pids(text, tids, n);
	free(text);
	return ret == -EINVAL ? -EBADMSG : ret;
}

static bool is_dir_in(struct kattr_mount *m, const char *group)
{
	char path[4096];
	struct stat st;

	return group_file(path, sizeof(path), group, NULL) == 0 &&
	       kattr_stat(m, path, &st) == 0 && S_ISDIR(st.st_mode);
}

/*
 * cgroup v1 with several hierarchies: the group's directory in each other
 * hierarchy it has one in (cpuset too), with its threads there and its
 * settings, so that the undo puts back each hierarchy as it was, not the
 * root's own only (a thread may be in the group in one hierarchy and in
 * another group in the next).  A place gone meanwhile is passed over.
 */
static int save_places(struct kattr_rg *rg, struct kattr_rgplan_step *s)
{
	size_t nh = kattr_rg_hier_count(rg);

	if (nh <= 1)
		return 0;
	s->placed = true;
	s->places = calloc(nh, sizeof(*s->places));
	if (!s->places)
		return -ENOMEM;
	for (size_t i = 1; i < nh; i++) {
		struct kattr_rgplan_place *pl = &s->places[s->nplaces];
		struct kattr_mount *m;
		int ret;

		if (kattr_rg_hier_place(rg, i, &m) < 0 || !is_dir_in(m, s->group))
			continue;
		ret = tasks_of(m, s->group, &pl->tids, &pl->ntids);
		if (ret == 0 && !(pl->hier = strdup(kattr_rg_hier_name(rg, i))))
			ret = -ENOMEM;
		if (ret == 0) {
			s->nplaces++;
			ret = save_attrs(rg, m, pl->hier, s);
		} else {
			free(pl->tids);
			pl->tids = NULL;
		}
		if (kattr_rg_group_gone(ret))
			continue;	/* gone there meanwhile */
		if (ret < 0)
			return ret;
	}
	return 0;
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

/*
 * cgroup v1: the part of a saved value that is written back, into buf:
 * memory.oom_control reads "oom_kill_disable N\nunder_oom N\n..." and
 * takes N alone (the rest are counters); other values as they are.
 */
static const char *setting_text(const char *file, const char *value, char *buf,
				size_t size)
{
	const char *w = "oom_kill_disable ";

	if (strcmp(file, "memory.oom_control") != 0 || strncmp(value, w, strlen(w)) != 0)
		return value;
	snprintf(buf, size, "%.*s", (int)strcspn(value + strlen(w), "\n"),
		 value + strlen(w));
	return buf;
}

/* value written to path of m (hierarchy hier, NULL: the root's own,
 * through ops), one write per line where it has several (cgroup v1's
 * per-device files, blkio.throttle.*: one "MAJ:MIN VALUE" each). */
static int write_lines(struct kattr_rg *rg, const struct kattr_rgplan_ops *ops,
		       struct kattr_mount *m, const char *hier, const char *path,
		       const char *value)
{
	int ret = 0;

	if (!strchr(value, '\n'))
		return hier ? kattr_write_str(m, path, value) :
			      ops->attr_write(ops->arg, rg, path, value);
	for (const char *l = value; *l && ret >= 0;) {
		size_t len = strcspn(l, "\n");
		char *line = strndup(l, len);

		ret = !line ? -ENOMEM : !len ? 0 : hier ? kattr_write_str(m, path, line) :
		      ops->attr_write(ops->arg, rg, path, line);
		free(line);
		l += len + (l[len] == '\n');
	}
	return ret < 0 ? ret : 0;
}

/* Write one saved attribute back; 0 when it already holds the value. */
static int restore_attr(struct kattr_rg *rg, const struct kattr_rgplan_ops *ops,
			const char *group, const struct kattr_rgplan_attr *a)
{
	struct kattr_mount *m = hier_mount(rg, a->hier);
	char path[4096], *now = NULL, buf[1024], nb[64], vb[64];
	const char *want;
	int ret;

	if (!m)
		return -ENODEV;	/* that hierarchy has no place here now */
	ret = group_file(path, sizeof(path), group, a->file);
	if (ret == 0)
		ret = kattr_read_alloc(m, path, &now, NULL);
	if (ret < 0)
		return ret;
	kattr_rtrim(now);
	want = setting_text(a->file, a->value, vb, sizeof(vb));
	ret = strcmp(setting_text(a->file, now, nb, sizeof(nb)), want) == 0;
	free(now);
	if (ret)
		return 0;
	if (kattr_rg_backend_of(rg) == KATTR_RG_RGCS)
		/* One "res=..." line per controller, one write each. */
		return write_lines(rg, ops, m, NULL, path, a->value);
	if (strcmp(a->file, "cgroup.subtree_control") == 0)
		return subtree_words(a->value, buf, sizeof(buf)) ?
		       ops->attr_write(ops->arg, rg, path, buf) : 0;
	return write_lines(rg, ops, m, a->hier, path, want);
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

/* A thread note of step i (hier: another hierarchy than the root's). */
static void note_thread(struct kattr_rgplan_result *r, enum kattr_rgplan_note_kind kind,
			size_t i, int err, pid_t tid, const char *hier)
{
	if (note(r, kind, i, err) == 0) {
		r->notes[r->nnotes - 1].tid = tid;
		r->notes[r->nnotes - 1].hier = hier;
	}
}

/* cgroup v1: tids back into group's directory in m (hierarchy hier, NULL:
 * the root's own) only, one write each: not into the group's other
 * hierarchies, where a thread may have been elsewhere. */
static void attach_in(struct kattr_mount *m, const char *hier, const char *group,
		      const pid_t *tids, size_t n, size_t i,
		      struct kattr_rgplan_result *r)
{
	char path[4096], id[24];
	int ret = group_file(path, sizeof(path), group, "tasks");

	if (ret < 0 && n) {
		note_thread(r, KATTR_RGPLAN_NOTE_THREADS, i, ret, 0, hier);
		return;
	}
	for (size_t k = 0; k < n; k++) {
		snprintf(id, sizeof(id), "%d", (int)tids[k]);
		ret = kattr_write_str(m, path, id);
		if (ret < 0 && ret != -ESRCH)	/* ESRCH: it ended, no loss */
			note_thread(r, KATTR_RGPLAN_NOTE_THREAD, i, ret, tids[k], hier);
	}
}

/* Its threads back into a re-made group, each where it was (cgroup v1 with
 * places: hierarchy by hierarchy). */
static void restore_threads(struct kattr_rg *rg, const struct kattr_rgplan_ops *ops,
			    const struct kattr_rgplan_step *s, size_t i,
			    struct kattr_rgplan_result *r)
{
	int ret, *res;

	if (s->placed) {
		attach_in(kattr_rg_mount(rg), NULL, s->group, s->tids, s->ntids, i, r);
		for (size_t k = 0; k < s->nplaces; k++) {
			const struct kattr_rgplan_place *pl = &s->places[k];
			struct kattr_mount *m = hier_mount(rg, pl->hier);

			if (!m && pl->ntids)
				note_thread(r, KATTR_RGPLAN_NOTE_THREADS, i, -ENODEV, 0,
					    pl->hier);
			else if (m)
				attach_in(m, pl->hier, s->group, pl->tids, pl->ntids, i, r);
		}
		return;
	}
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
 * cgroup v1 with places: the group's directory made again in each other
 * hierarchy it had one in (cpuset, which create does not make, included),
 * and, where it was made afresh (made), removed from those it had none in.
 */
static void restore_places(struct kattr_rg *rg, const struct kattr_rgplan_step *s,
			   size_t i, bool made, struct kattr_rgplan_result *r)
{
	size_t nh = kattr_rg_hier_count(rg);

	for (size_t k = 0; k < s->nplaces; k++) {
		const char *h = s->places[k].hier;
		struct kattr_mount *m = hier_mount(rg, h);
		int ret = m ? 0 : -ENODEV;

		if (m && !is_dir_in(m, s->group))
			ret = kattr_mkdir(m, s->group, 0755);
		if (ret < 0 && ret != -EEXIST)
			note_thread(r, KATTR_RGPLAN_NOTE_RECREATE, i, ret, 0, h);
	}
	for (size_t j = 1; made && j < nh; j++) {
		const char *h = kattr_rg_hier_name(rg, j);
		struct kattr_mount *m;
		bool had = false;

		for (size_t k = 0; k < s->nplaces && !had; k++)
			had = strcmp(s->places[k].hier, h) == 0;
		if (!had && kattr_rg_hier_place(rg, j, &m) == 0 && is_dir_in(m, s->group))
			kattr_rmdir(m, s->group);	/* just made, empty */
	}
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
	bool made;

	ret = kattr_rg_exists(rg, s->group);
	made = ret == -ENOENT;
	if (made)
		ret = ops->create(ops->arg, rg, s->group, NULL, &none);
	kattr_rg_cpu_path_free(&none);
	if (ret < 0) {
		note(r, KATTR_RGPLAN_NOTE_RECREATE, i, ret);
		return;
	}
	if (s->placed)
		restore_places(rg, s, i, made, r);
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
	ret = save_attrs(rg, kattr_rg_mount(rg), NULL, s);
	if (ret == 0)
		ret = save_places(rg, s);
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
