// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Resource groups: the handle and the generic entry points, the top of
 * rg/.  What differs between RGCS, cgroup v1 and cgroup v2 is in struct
 * rg_ops (rg_internal.h), one file per backend (rgcs.c, cgroup1.c,
 * cgroup2.c); this file finds the mount, opens the hierarchy through the
 * backend's constructor and does create, delete, shares, attach, members,
 * stats, whereis and list over rg->ops.  What the backends call back for
 * is in base.c, below them.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kattr/rg.h"
#include "kattr/private_rg.h"
#include "rg_internal.h"

static const struct rg_ops *const backends[] = {
	[KATTR_RG_RGCS] = &rg_rgcs_ops,
	[KATTR_RG_CGROUP1] = &rg_cgroup1_ops,
	[KATTR_RG_CGROUP2] = &rg_cgroup2_ops,
};

/* ---- finding the mount --------------------------------------------------- */

static void mnt_found_free(struct mnt_found *f)
{
	free(f->mount_point);
	free(f->fstype);
	free(f->super_opts);
	free(f->root);
	memset(f, 0, sizeof(*f));
}

static int mnt_found_set(struct mnt_found *f, const struct kattr_mnt *mnt)
{
	mnt_found_free(f);
	f->mount_point = strdup(mnt->mount_point);
	f->fstype = strdup(mnt->fstype);
	f->super_opts = strdup(mnt->super_opts);
	f->root = strdup(mnt->root);
	if (!f->mount_point || !f->fstype || !f->super_opts || !f->root) {
		mnt_found_free(f);
		return -ENOMEM;
	}
	return 0;
}

static void mnt_table_free(struct mnt_table *t)
{
	for (size_t i = 0; i < t->n; i++)
		mnt_found_free(&t->v[i]);
	free(t->v);
	memset(t, 0, sizeof(*t));
}

/* The one mountinfo callback: every mount, copied. */
static int collect_cb(const struct kattr_mnt *mnt, void *data)
{
	struct mnt_table *t = data;
	int ret = kattr_grow((void **)&t->v, &t->cap, t->n, sizeof(*t->v));

	if (ret < 0)
		return ret;
	memset(&t->v[t->n], 0, sizeof(t->v[t->n]));
	ret = mnt_found_set(&t->v[t->n], mnt);
	if (ret == 0)
		t->n++;
	return ret;
}

static int mnt_table_read(const struct kattr_root *root, struct mnt_table *t)
{
	int ret;

	memset(t, 0, sizeof(*t));
	t->root = root;
	ret = kattr_mountinfo_foreach_at(root, collect_cb, t);
	if (ret < 0)
		mnt_table_free(t);
	return ret < 0 ? ret : 0;
}

/* The mount of t holding path: the longest mount point above it, last
 * wins; NULL when none. */
static const struct mnt_found *mount_lookup(const struct mnt_table *t,
					    const char *path)
{
	const struct mnt_found *hit = NULL;
	size_t best = 0;

	for (size_t i = 0; i < t->n; i++) {
		const char *mp = t->v[i].mount_point;
		size_t len = strlen(mp);

		if (strcmp(mp, "/") == 0)
			len = 0;
		else if (strncmp(path, mp, len) != 0 ||
			 (path[len] != '/' && path[len] != '\0'))
			continue;
		if (hit && len < best)
			continue;
		best = len;
		hit = &t->v[i];
	}
	return hit;
}

static enum kattr_rg_backend kind_of(const char *fstype)
{
	for (int b = KATTR_RG_RGCS; b <= KATTR_RG_CGROUP2; b++) {
		const struct rg_ops *o = backends[b];

		if (strcmp(fstype, o->fstype) == 0 ||
		    (o->fstype_alt && strcmp(fstype, o->fstype_alt) == 0))
			return (enum kattr_rg_backend)b;
	}
	return KATTR_RG_AUTO;
}

/* Open the hierarchy of kind at mount point f (root: the path asked for). */
static int open_at(enum kattr_rg_backend kind, const struct mnt_found *f,
		   const char *root, const struct mnt_table *t,
		   struct kattr_rg **out)
{
	struct kattr_rg *rg;
	int ret;

	rg = calloc(1, sizeof(*rg));
	if (!rg)
		return -ENOMEM;
	rg->ops = backends[kind];
	rg->root = t->root;
	ret = rg->ops->open(rg, f, root, t);
	if (ret < 0) {
		kattr_rg_close(rg);
		return ret;
	}
	*out = rg;
	return 0;
}

/* The mount table, the mount holding root (*f, within *t) and root's
 * canonical form (*canon, malloc'ed); one read of the table. */
static int lookup_root(const struct kattr_root *r, const char *root, char **canon,
		       struct mnt_table *t, const struct mnt_found **f)
{
	int ret = kattr_root_canonical(r, root, canon);

	if (ret < 0)
		return ret;
	ret = mnt_table_read(r, t);
	if (ret == 0) {
		*f = mount_lookup(t, *canon);
		if (!*f) {
			mnt_table_free(t);
			ret = -EMEDIUMTYPE;
		}
	}
	if (ret < 0) {
		free(*canon);
		*canon = NULL;
	}
	return ret;
}

int kattr_rg_probe(const struct kattr_root *r, const char *root,
		   enum kattr_rg_backend *kind)
{
	const struct mnt_found *f;
	struct mnt_table t;
	char *canon;
	int ret;

	ret = lookup_root(r, root, &canon, &t, &f);
	if (ret < 0)
		return ret;
	free(canon);
	*kind = kind_of(f->fstype);
	mnt_table_free(&t);
	return *kind == KATTR_RG_AUTO ? -EMEDIUMTYPE : 0;
}

static int open_given(const struct kattr_root *r, enum kattr_rg_backend b,
		      const char *root, struct kattr_rg **out)
{
	const struct mnt_found *f;
	enum kattr_rg_backend kind;
	struct mnt_table t;
	char *canon;
	int ret;

	ret = lookup_root(r, root, &canon, &t, &f);
	if (ret < 0)
		return ret;
	kind = kind_of(f->fstype);
	if (kind == KATTR_RG_AUTO || (b != KATTR_RG_AUTO && b != kind))
		ret = -EMEDIUMTYPE;
	else
		ret = open_at(kind, f, canon, &t, out);
	mnt_table_free(&t);
	free(canon);
	return ret;
}

/*
 * The search order: pass 0: RGCS (configfs or rgcsfs with res_groups);
 * pass 1: cgroup v2 with cpu available (enabled or not); pass 2: cgroup v1
 * with cpu; pass 3: any cgroup v2.
 */
static const enum kattr_rg_backend pass_kind[] = {
	KATTR_RG_RGCS, KATTR_RG_CGROUP2, KATTR_RG_CGROUP1, KATTR_RG_CGROUP2,
};

/* The first mount of the pass's kind that opens: 1, else 0 (*err: why). */
static int search_pass(const struct mnt_table *t, int pass, int *err,
		       struct kattr_rg **out)
{
	const struct rg_ops *o = backends[pass_kind[pass]];

	for (size_t i = 0; i < t->n; i++) {
		const struct mnt_found *f = &t->v[i];
		struct kattr_rg *rg;
		int ret;

		if (kind_of(f->fstype) != o->id || (o->mount_ok && !o->mount_ok(f)))
			continue;
		ret = open_at(o->id, f, f->mount_point, t, &rg);
		if (ret < 0) {
			if (*err == 0 || ret != -EMEDIUMTYPE)
				*err = ret;
			continue;
		}
		if (pass == 1 && !rg->has_shares) {
			kattr_rg_close(rg);
			continue;
		}
		*out = rg;
		return 1;
	}
	return 0;
}

static int open_search(const struct kattr_root *r, enum kattr_rg_backend b,
		       struct kattr_rg **out)
{
	struct mnt_table t;
	int err = 0, found = 0;
	int ret = mnt_table_read(r, &t);

	if (ret < 0)
		return ret;
	for (int pass = 0; pass < 4 && !found; pass++) {
		if (b != KATTR_RG_AUTO && pass_kind[pass] != b)
			continue;
		found = search_pass(&t, pass, &err, out);
	}
	mnt_table_free(&t);
	if (found)
		return 0;
	return err && err != -EMEDIUMTYPE ? err : -ENOENT;
}

int kattr_rg_open_at(const struct kattr_root *r, enum kattr_rg_backend b,
		     const char *root, struct kattr_rg **out)
{
	if ((unsigned int)b > KATTR_RG_CGROUP2)
		return -EINVAL;
	if (root && *root)
		return open_given(r, b, root, out);
	return open_search(r, b, out);
}

int kattr_rg_open(enum kattr_rg_backend b, const char *root,
		  struct kattr_rg **out)
{
	return kattr_rg_open_at(NULL, b, root, out);
}

/* s without its tail (when s ends in it), "/" for nothing left. */
static char *strip_tail(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	if (t <= n && !strcmp(s + n - t, tail))
		n -= t;
	return n ? strndup(s, n) : strdup("/");
}

int kattr_rg_open_below(struct kattr_rg *rg, const char *group,
			struct kattr_rg **out)
{
	const char *top = kattr_mount_path(rg->m);
	struct mnt_found f = { 0 };
	char *root = NULL;
	int ret = kattr_rg_name_check(group, false, NULL);

	if (ret < 0)
		return ret;
	if (rg->ops->id != KATTR_RG_CGROUP2)	/* v1 spans; RGCS: one level */
		return -EOPNOTSUPP;
	ret = kattr_rg_exists(rg, group);
	if (ret < 0)
		return ret;
	/* the mount entry open_at() had: the mount point and the mount's
	 * root within the hierarchy, rg's own place taken off each */
	f.mount_point = strip_tail(top, rg->sub);
	f.root = strip_tail(rg->prefix[0] ? rg->prefix : "/", rg->sub);
	if (!f.mount_point || !f.root ||
	    asprintf(&root, "%s%s%s", top, strcmp(top, "/") ? "/" : "", group) < 0) {
		root = NULL;
		ret = -ENOMEM;
	} else {
		struct mnt_table t = { .root = rg->root };

		ret = open_at(rg->ops->id, &f, root, &t, out);
	}
	free(root);
	free(f.mount_point);
	free(f.root);
	return ret;
}

void kattr_rg_close(struct kattr_rg *rg)
{
	if (!rg)
		return;
	rg_batch_drop(rg);
	rg_hier_free(rg);
	kattr_mount_close(rg->m);
	free(rg->ctrls);
	free(rg->prefix);
	free(rg->sub);
	free(rg);
}

/* ---- create ---------------------------------------------------------------- */

/* Undo kattr_rg_create(): remove the first n components made, deepest
 * first, each where it was made. */
static void undo_mkdirs(struct kattr_rg *rg, char *name, size_t *ends,
			unsigned int *made, size_t n)
{
	while (n--) {
		char save = name[ends[n]];

		name[ends[n]] = '\0';
		rg_rmdir_made(rg, name, made[n]);
		name[ends[n]] = save;
	}
}

/* What create checks before it touches the tree (KATTR_RG_CHECK). */
static int create_check(const struct kattr_rg *rg, const char *group,
			const char *shares, const char *res,
			struct kattr_why *w)
{
	struct kattr_why sub = { 0 };
	struct kattr_rg_share s;
	int ret;

	if (kattr_rg_name_is_root(group))
		return kattr_why_set(w, KATTR_RG_WHY_ROOT, -EINVAL, "it always exists");
	ret = kattr_rg_name_check(group, false, &sub);
	if (ret < 0)
		return kattr_why_set(w, KATTR_RG_WHY_NAME, ret, sub.text);
	if (res && !rg->ops->takes_res)
		return kattr_why_set(w, KATTR_RG_WHY_RES, -EINVAL,
				     "a controller (res) names RGCS shares only");
	if (shares) {
		ret = kattr_rg_share_parse(rg->ops->id, shares, res, &s, NULL, &sub);
		if (ret < 0)
			return kattr_why_set(w, KATTR_RG_WHY_SHARES, ret, sub.text);
	}
	if (rg->ops->create_check)
		return rg->ops->create_check(rg, group, w);
	return 0;
}

/* A directory made (or found) for kattr_rg_create(): name up to each '/'. */
struct mkpath {
	char name[PATH_MAX];
	size_t len;
	size_t made[PATH_MAX / 2], nmade;
	unsigned int where[PATH_MAX / 2];	/* rg_ops.mkdir's made bits */
};

void kattr_rg_on_create(struct kattr_rg *rg, kattr_rg_made_fn fn, void *data)
{
	rg->made_fn = fn;
	rg->made_data = data;
}

/* The hook on a directory just made (then undone with the rest if < 0). */
static int made_hook(struct kattr_rg *rg, const char *group,
		     struct kattr_why *r)
{
	int fd, ret;

	if (!rg->made_fn)
		return 0;
	fd = rg_batch_group_open(rg, group, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return rg_reason(r, KATTR_RG_WHY_HOOK, fd,
				 "cannot open it once made: %s", strerror(-fd));
	ret = rg->made_fn(fd, group, rg->made_data);
	close(fd);
	return ret < 0 ? rg_reason(r, KATTR_RG_WHY_HOOK, ret,
				   "cannot mark it as made by this tool: %s",
				   strerror(-ret)) : 0;
}

/* Make or find component name[0..i) (i == len: the group itself). */
static int mkpath_one(struct kattr_rg *rg, struct mkpath *mp, size_t i,
		      unsigned int flags, struct kattr_why *r)
{
	bool fill = i < mp->len || (flags & KATTR_RG_PARENTS);
	unsigned int made = 0;
	int ret;

	/* A batch made a group below it: it is there, in every place. */
	if (i < mp->len && rg_batch_known(rg, mp->name))
		return 0;
	/* Without -p the group's own mkdir checks its parents (ENOENT). */
	if (i < mp->len && !(flags & KATTR_RG_PARENTS)) {
		if (!rg->ops->mkdir_parent)
			return 0;
		ret = rg->ops->mkdir_parent(rg, mp->name, &made, r);
		if (made) {
			mp->where[mp->nmade] = made;
			mp->made[mp->nmade++] = i;
		}
		return ret;
	}
	if (rg->ops->mkdir)
		ret = rg->ops->mkdir(rg, mp->name, fill, &made, r);
	else if ((ret = rg_mkdir_in(rg, 0, rg->m, mp->name)) == 0)
		made = 1u;
	if (made) {
		mp->where[mp->nmade] = made;
		mp->made[mp->nmade++] = i;
	}
	if (ret < 0 && r && r->code != KATTR_RG_WHY_NONE)
		return ret;	/* the backend said why */
	if (ret == -ENOENT && !(flags & KATTR_RG_PARENTS))
		return rg_reason(r, KATTR_RG_WHY_PARENT, -ENXIO,
				 "its parent group does not exist");
	if (ret == -EEXIST && fill)
		ret = kattr_rg_exists(rg, mp->name);
	else if (ret == 0)
		ret = made_hook(rg, mp->name, r);
	if (ret == -EEXIST)
		return kattr_rg_exists(rg, mp->name) == -ENOTDIR ?
			rg_reason(r, KATTR_RG_WHY_ATTR, ret,
				  "an attribute file of that name is there (not a group)") :
			rg_reason(r, KATTR_RG_WHY_EXISTS, ret,
				  "the group already exists");
	if (ret == -ENOTDIR)
		return rg_reason(r, KATTR_RG_WHY_ATTR_ABOVE, ret,
				 "a component of the name is an attribute file, not a group");
	return ret;
}

/* Every component, parents first: each one must exist or be made. */
static int mkpath(struct kattr_rg *rg, struct mkpath *mp, unsigned int flags,
		  struct kattr_why *r)
{
	int ret = 0;

	for (size_t i = 0; i <= mp->len && ret == 0; i++) {
		if (mp->name[i] != '/' && mp->name[i] != '\0')
			continue;
		mp->name[i] = '\0';
		ret = mkpath_one(rg, mp, i, flags, r);
		if (i < mp->len)
			mp->name[i] = '/';
	}
	return ret;
}

/* Write the shares value (checked) of a group just made, enabling cpu. */
static int create_shares(struct kattr_rg *rg, const char *group,
			 unsigned int flags, const char *value,
			 struct kattr_rg_cpu_path *done,
			 struct kattr_why *r)
{
	size_t start = done ? done->n : 0;
	int ret = 0;

	if (flags & KATTR_RG_ENABLE)
		ret = kattr_rg_cpu_enable(rg, group, done);
	if (ret < 0)
		return ret;
	ret = rg_group_write(rg, group, rg->ops->shares_file, value);
	if (ret == -ENOENT)	/* cgroup v2: cpu not enabled here */
		ret = rg_reason(r, KATTR_RG_WHY_NO_SHARES, -EOPNOTSUPP,
				"no %s there", rg->ops->shares_file);
	if (ret < 0 && done)
		rg_ctl_undo_from(rg, "cpu", done, start);
	return ret;
}

/* Make group (the work of kattr_rg_create(), after create_check()). */
static int create(struct kattr_rg *rg, const char *group, unsigned int flags,
		  const char *shares, const char *res,
		  struct kattr_rg_cpu_path *done, struct kattr_why *r)
{
	struct mkpath *mp;
	char value[256];
	bool held;
	int ret;

	if (shares && !rg->has_shares)
		return rg_reason(r, KATTR_RG_WHY_NO_SHARES, -EOPNOTSUPP,
			      "no shares here");
	if (shares && kattr_rg_share_format(rg->ops->id, shares, res, value,
					     sizeof(value), NULL) < 0)
		return -ENAMETOOLONG;
	mp = malloc(sizeof(*mp));	/* no calloc: 28 KB zeroed per group */
	if (!mp)
		return -ENOMEM;
	mp->nmade = 0;
	mp->len = strlen(group);
	if (mp->len >= sizeof(mp->name)) {
		free(mp);
		return -ENAMETOOLONG;
	}
	memcpy(mp->name, group, mp->len + 1);
	while (mp->len && mp->name[mp->len - 1] == '/')
		mp->name[--mp->len] = '\0';
	held = rg->batch.parent != NULL;
	ret = mkpath(rg, mp, flags, r);
	if (ret < 0 && held) {
		/* What the batch held may be stale (a parent removed, or
		 * removed and made again, by another tool): by name, once. */
		rg_batch_drop(rg);
		undo_mkdirs(rg, mp->name, mp->made, mp->where, mp->nmade);
		mp->nmade = 0;
		kattr_why_clear(r);
		ret = mkpath(rg, mp, flags, r);
	}
	if (ret == 0)
		rg_batch_made(rg, mp->name);
	if (ret == 0 && shares)
		ret = create_shares(rg, group, flags, value, done, r);
	if (ret < 0)
		undo_mkdirs(rg, mp->name, mp->made, mp->where, mp->nmade);
	free(mp);
	return ret;
}

int kattr_rg_create(struct kattr_rg *rg, const char *group,
		    const struct kattr_rg_create_args *args, struct kattr_why *why)
{
	static const struct kattr_rg_create_args plain;
	int ret;

	if (!args)
		args = &plain;
	kattr_why_clear(why);
	if ((args->flags & KATTR_RG_ENABLE) && !args->enabled)
		return -EINVAL;
	ret = create_check(rg, group, args->shares, args->res, why);
	if (ret < 0 || (args->flags & KATTR_RG_CHECK))
		return ret;
	return create(rg, group, args->flags, args->shares, args->res,
		      args->enabled, why);
}

/* ---- attach targets ------------------------------------------------------ */

int kattr_rg_target_open(struct kattr_rg *rg, const char *group,
			 unsigned int flags, struct kattr_rg_target **out)
{
	int ret = kattr_rg_exists(rg, group);

	if (ret < 0)
		return ret;
	ret = rg_target_open(rg, group, flags, out);
	if (ret == 0 && rg->ops->span_open) {
		ret = rg->ops->span_open(*out, group);
		if (ret < 0) {
			kattr_rg_target_close(*out);
			*out = NULL;
		}
	}
	return ret;
}

int kattr_rg_attach(struct kattr_rg *rg, const char *group, const pid_t *pids,
		    size_t n, unsigned int flags, int *results)
{
	struct kattr_rg_target *t;
	int ret, failed = 0;

	ret = kattr_rg_target_open(rg, group, flags, &t);
	if (ret < 0)
		return ret;
	for (size_t i = 0; i < n; i++) {
		results[i] = kattr_rg_target_attach(t, pids[i]);
		failed += results[i] < 0;
	}
	kattr_rg_target_close(t);
	return failed;
}

/* ---- delete ---------------------------------------------------------------- */

/* Remove one group whose children are gone (post-order callback). */
static int remove_group(struct kattr_rg *rg, const char *group,
			unsigned int depth, void *data)
{
	struct kattr_dirent *kids;
	size_t nkids;
	int ret = 0;

	(void)depth;
	(void)data;
	/* A task may fork into the group between the move and rmdir. */
	for (int tries = 0; tries < 8; tries++) {
		if (rg->ops->evacuate) {
			ret = rg->ops->evacuate(rg, group);
			/* a task list that cannot be read ("gone"): rmdir says
			 * whether the group is really gone, or still busy */
			if (ret < 0 && !kattr_rg_group_gone(ret))
				break;
		}
		ret = rg->ops->rmdir ? rg->ops->rmdir(rg, group) :
		      kattr_rmdir(rg->m, group);
		if (ret != -EBUSY)
			break;
		/* cgroup v1 says EBUSY for a child group too */
		if (rg_child_groups(rg, group, &kids, &nkids) == 0) {
			kattr_list_free(kids, nkids);
			if (nkids)
				return WALK_AGAIN;
		}
	}
	if (ret == -ENOTEMPTY)
		return WALK_AGAIN;	/* a child group was created meanwhile */
	/* removed by someone else: done; but only when the group is really
	 * gone (a "gone" error from one of its files while the directory is
	 * still there is tried again, bounded by the walk) */
	if (ret < 0 && kattr_rg_group_gone(ret))
		return kattr_rg_exists(rg, group) < 0 ? WALK_GONE : WALK_AGAIN;
	return ret;
}

int kattr_rg_delete(struct kattr_rg *rg, const char *group, unsigned int flags)
{
	struct kattr_dirent *kids;
	size_t nkids;
	int ret;

	if (kattr_rg_name_is_root(group))
		return -EPERM;
	rg_batch_drop(rg);
	ret = kattr_rg_exists(rg, group);
	if (ret < 0)
		return ret;
	if (!(flags & KATTR_RG_RECURSIVE)) {
		ret = rg_child_groups(rg, group, &kids, &nkids);
		if (ret < 0)
			return ret;
		kattr_list_free(kids, nkids);
		if (nkids)
			return -ENOTEMPTY;
		ret = remove_group(rg, group, 0, NULL);
		if (ret == WALK_AGAIN)
			return -ENOTEMPTY;
		return ret == WALK_GONE ? 0 : ret;
	}
	ret = rg_walk_tree(rg, group, NULL, remove_group, NULL);
	/* The group itself removed by someone else while we walked. */
	if (ret == -ENOENT && kattr_rg_exists(rg, group) == -ENOENT)
		ret = 0;
	return ret;
}

/* ---- shares --------------------------------------------------------------- */

/*
 * The shares of group, a name the caller has checked or read from the
 * tree itself (a walk: any byte but '/' may be in a directory's name, and
 * a group rgctl would not create must still be listed, not fail the walk).
 */
static int shares_read(struct kattr_rg *rg, const char *group,
		       struct kattr_rg_share **out, size_t *n)
{
	char path[PATH_MAX];
	int ret;

	if (!rg->has_shares)
		return -EOPNOTSUPP;
	ret = rg_gpath(path, sizeof(path), group, rg->ops->shares_file);
	if (ret < 0)
		return ret;
	return rg->ops->shares_read(rg, group, path, out, n);
}

int kattr_rg_share_get(struct kattr_rg *rg, const char *group,
			struct kattr_rg_share **out, size_t *n)
{
	int ret = kattr_rg_exists(rg, group);

	if (ret < 0)
		return ret;
	return shares_read(rg, group, out, n);
}

int kattr_rg_share_set(struct kattr_rg *rg, const char *group,
		       const char *value, const char *res, struct kattr_why *why)
{
	char buf[256];
	int ret;

	ret = kattr_rg_share_format(rg->ops->id, value, res, buf, sizeof(buf),
				     why);
	if (ret < 0)
		return ret;
	ret = kattr_rg_exists(rg, group);
	if (ret < 0)
		return ret;
	if (!rg->has_shares)
		return -EOPNOTSUPP;
	ret = rg_group_write(rg, group, rg->ops->shares_file, buf);
	return ret == -ENOENT ? -EOPNOTSUPP : ret;
}

/* ---- members and stats ------------------------------------------------------ */

int kattr_rg_members(struct kattr_rg *rg, const char *group,
		     unsigned int flags, pid_t **pids, size_t *n)
{
	int ret = kattr_rg_exists(rg, group);

	if (ret < 0)
		return ret;
	return rg->ops->members(rg, group, flags, pids, n);
}

int kattr_rg_stats(struct kattr_rg *rg, const char *group,
		   struct kattr_rg_stat **v, size_t *n)
{
	int ret = kattr_rg_exists(rg, group);

	if (ret < 0)
		return ret;
	*v = NULL;
	*n = 0;
	ret = rg->ops->stats(rg, group, v, n);
	if (ret < 0) {
		kattr_rg_stats_free(*v, *n);
		*v = NULL;
		*n = 0;
	}
	return ret;
}

/* ---- whereis and list ------------------------------------------------------- */

int kattr_rg_missing(struct kattr_rg *rg, const char *group, char *buf,
		     size_t size)
{
	int ret = kattr_rg_exists(rg, group);

	if (size)
		buf[0] = '\0';
	if (ret < 0 || !rg->ops->span_missing)
		return ret;
	return rg->ops->span_missing(rg, group, buf, size);
}

int kattr_rg_disagree(struct kattr_rg *rg, const char *group, char *buf,
		      size_t size)
{
	int ret = kattr_rg_exists(rg, group);

	if (size)
		buf[0] = '\0';
	if (ret < 0 || !rg->ops->span_disagree)
		return ret;
	return rg->ops->span_disagree(rg, group, buf, size);
}

int kattr_rg_whereis(struct kattr_rg *rg, pid_t pid, char **group)
{
	if (pid <= 0)
		return -EINVAL;
	return rg->ops->whereis(rg, pid, group);
}

struct list_ctx {
	struct kattr_rg_info *v;
	size_t n, cap;
};

static int list_cb(struct kattr_rg *rg, const char *group, unsigned int depth,
		   void *data)
{
	struct kattr_rg_info info = { 0 }, *tmp;
	struct list_ctx *lc = data;
	pid_t *pids;
	size_t n;
	int ret;

	ret = rg_read_pids(rg, group, rg->ops->tasks_file, &pids, &n);
	if (ret == 0) {
		info.nr_tasks = (long long)n;
		free(pids);
	} else if (ret == -ENOSPC) {
		info.nr_tasks = -1;
	} else {
		goto out_gone;
	}
	ret = shares_read(rg, group, &info.shares, &info.nr_shares);
	if (ret == -EOPNOTSUPP)
		ret = 0;
	if (ret < 0)
		goto out_gone;
	if (lc->n == lc->cap) {
		lc->cap = lc->cap ? lc->cap * 2 : 16;
		tmp = realloc(lc->v, lc->cap * sizeof(*tmp));
		if (!tmp) {
			ret = -ENOMEM;
			goto out_free;
		}
		lc->v = tmp;
	}
	info.name = strdup(kattr_rg_name_is_root(group) ? "/" : group);
	if (!info.name) {
		ret = -ENOMEM;
		goto out_free;
	}
	info.depth = kattr_rg_name_depth(group);
	lc->v[lc->n++] = info;
	return 0;

out_gone:
	/* Removed while we listed: not there any more (unless it is the
	 * group asked for). */
	if (depth > 0 && kattr_rg_group_gone(ret))
		ret = WALK_GONE;
out_free:
	free(info.shares);
	return ret;
}

int kattr_rg_list(struct kattr_rg *rg, const char *group,
		  struct kattr_rg_info **out, size_t *n)
{
	struct list_ctx lc = { 0 };
	int ret = kattr_rg_exists(rg, group);

	if (ret < 0)
		return ret;
	ret = rg_walk_tree(rg, group, list_cb, NULL, &lc);
	if (ret < 0) {
		kattr_rg_list_free(lc.v, lc.n);
		return ret;
	}
	*out = lc.v;
	*n = lc.n;
	return 0;
}

void kattr_rg_list_free(struct kattr_rg_info *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].shares);
	}
	free(v);
}
