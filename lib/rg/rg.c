// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Resource groups on RGCS (configfs res_groups, or its FUSE emulator),
 * cgroup v1 (the cpu hierarchy) and cgroup v2.  The differences between the
 * backends are data (struct rg_backend: which file holds what) plus a few
 * branches where the semantics differ (rmdir of a populated group, where a
 * task's group is recorded).
 */
#include <dirent.h>
#include <stdarg.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kattr/rg.h"
#include "kattr/private.h"
#include "internal.h"
#include "rg_internal.h"

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

static const struct rg_backend backends[] = {
	[KATTR_RG_RGCS] = {
		.id = KATTR_RG_RGCS, .fstype = "configfs",
		.magic = KATTR_MAGIC_CONFIGFS, .shares_file = "shares",
		.tasks_file = "members", .procs_file = "members",
		.attach_task = "members", .attach_proc = "members",
		.rmdir_moves_members = true,
	},
	[KATTR_RG_CGROUP1] = {
		.id = KATTR_RG_CGROUP1, .fstype = "cgroup",
		.magic = KATTR_MAGIC_CGROUP1, .shares_file = "cpu.shares",
		.tasks_file = "tasks", .procs_file = "cgroup.procs",
		.attach_task = "tasks", .attach_proc = "cgroup.procs",
	},
	[KATTR_RG_CGROUP2] = {
		.id = KATTR_RG_CGROUP2, .fstype = "cgroup2",
		.magic = KATTR_MAGIC_CGROUP2, .shares_file = "cpu.weight",
		.tasks_file = "cgroup.threads", .procs_file = "cgroup.procs",
		.attach_task = "cgroup.procs", .attach_proc = "cgroup.procs",
	},
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
	kattr_rg_made_fn made_fn;	/* kattr_rg_on_create() */
	void *made_data;
};

/* ---- finding the mount --------------------------------------------------- */

struct mnt_found {
	char *mount_point;
	char *fstype;
	char *super_opts;
	char *root;
};

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

struct lookup_ctx {
	const char *path;
	size_t best;
	struct mnt_found found;
	int err;
};

/* The mount holding path: the longest mount point above it, last wins. */
static int lookup_cb(const struct kattr_mnt *mnt, void *data)
{
	struct lookup_ctx *ctx = data;
	size_t len = strlen(mnt->mount_point);

	if (strcmp(mnt->mount_point, "/") == 0)
		len = 0;
	else if (strncmp(ctx->path, mnt->mount_point, len) != 0 ||
		 (ctx->path[len] != '/' && ctx->path[len] != '\0'))
		return 0;
	if (len < ctx->best && ctx->found.mount_point)
		return 0;
	ctx->best = len;
	ctx->err = mnt_found_set(&ctx->found, mnt);
	return ctx->err;
}

/* Canonical form of path (absolute, as seen inside the sysroot). */
static int canonical(const char *path, char **out)
{
	return kattr_sysroot_canonical(path, out);
}

static int mount_lookup(const char *path, struct mnt_found *f)
{
	struct lookup_ctx ctx = { .path = path };
	int ret = kattr_mountinfo_foreach(lookup_cb, &ctx);

	if (ret < 0 || ctx.err < 0) {
		mnt_found_free(&ctx.found);
		return ret < 0 ? ret : ctx.err;
	}
	if (!ctx.found.mount_point)
		return -ENOENT;
	*f = ctx.found;
	return 0;
}

static enum kattr_rg_backend kind_of(const char *fstype)
{
	if (strcmp(fstype, "configfs") == 0 || strcmp(fstype, RGCSFS_FSTYPE) == 0)
		return KATTR_RG_RGCS;
	if (strcmp(fstype, "cgroup") == 0)
		return KATTR_RG_CGROUP1;
	if (strcmp(fstype, "cgroup2") == 0)
		return KATTR_RG_CGROUP2;
	return KATTR_RG_AUTO;
}

/* The controllers of a v1 hierarchy, from its super options. */
static char *v1_controllers(const char *opts)
{
	static const char *const not_ctrl[] = {
		"rw", "ro", "noprefix", "clone_children", "xattr",
		"cpuset_v2_mode", "favordynmods", "nofavordynmods", "none",
	};
	char *out = calloc(1, strlen(opts) + 1), *w = out;
	const char *p = opts;

	if (!out)
		return NULL;
	while (*p) {
		const char *c = strchr(p, ',');
		size_t len = c ? (size_t)(c - p) : strlen(p);
		bool skip = len == 0 || (len > 14 && !strncmp(p, "release_agent=", 14));

		for (size_t i = 0; !skip && i < sizeof(not_ctrl) / sizeof(*not_ctrl); i++)
			skip = strlen(not_ctrl[i]) == len && !strncmp(p, not_ctrl[i], len);
		if (!skip) {
			if (w != out)
				*w++ = ',';
			memcpy(w, p, len);
			w += len;
		}
		p += len + (c ? 1 : 0);
	}
	*w = '\0';
	return out;
}

static int file_has_word(struct kattr_mount *m, const char *rel,
			 const char *word)
{
	char *text, *save, *tok;
	bool found = false;
	int ret = kattr_read_alloc(m, rel, &text, NULL);

	if (ret < 0)
		return ret;
	for (tok = strtok_r(text, " \n", &save); tok && !found;
	     tok = strtok_r(NULL, " \n", &save))
		found = strcmp(tok, word) == 0;
	free(text);
	return found;
}

static int find_acct(struct kattr_rg *rg)
{
	struct kattr_mount *a;

	if (kattr_mount_find("cgroup", "cpuacct", KATTR_MAGIC_CGROUP1, 0,
			     &a) == 0)
		rg->acct = a;
	return 0;
}

/* Open the hierarchy of kind at mount point f (root: the path asked for). */
static int open_at(enum kattr_rg_backend kind, const struct mnt_found *f,
		   const char *root, struct kattr_rg **out)
{
	const struct rg_backend *be = &backends[kind];
	unsigned long magic = be->magic;
	char dir[PATH_MAX];
	struct kattr_rg *rg;
	size_t mlen;
	int ret;

	rg = calloc(1, sizeof(*rg));
	if (!rg)
		return -ENOMEM;
	rg->be = be;
	if (kind == KATTR_RG_RGCS) {
		const char *base = strrchr(root, '/');

		if (strcmp(f->fstype, RGCSFS_FSTYPE) == 0)
			magic = KATTR_MAGIC_FUSE;
		base = base ? base + 1 : root;
		if (strcmp(base, "res_groups") == 0)
			ret = snprintf(dir, sizeof(dir), "%s", root);
		else
			ret = snprintf(dir, sizeof(dir), "%s%sres_groups", root,
				       strcmp(root, "/") ? "/" : "");
		if (ret < 0 || (size_t)ret >= sizeof(dir)) {
			ret = -ENAMETOOLONG;
			goto out_free;
		}
		ret = kattr_mount_open(dir, magic, 0, &rg->m);
		if (ret == -ENOENT || ret == -ENOTDIR)
			ret = -EMEDIUMTYPE;	/* no res_groups there */
		if (ret < 0)
			goto out_free;
		rg->has_shares = true;
		*out = rg;
		return 0;
	}
	ret = kattr_mount_open(root, magic, 0, &rg->m);
	if (ret < 0)
		goto out_free;
	/* Where root lies within the hierarchy, as /proc/PID/cgroup says. */
	mlen = strcmp(f->mount_point, "/") ? strlen(f->mount_point) : 0;
	if (asprintf(&rg->prefix, "%s%s", strcmp(f->root, "/") ? f->root : "",
		     root + mlen) < 0) {
		rg->prefix = NULL;
		ret = -ENOMEM;
		goto out_free;
	}
	if (strcmp(rg->prefix, "/") == 0)
		rg->prefix[0] = '\0';
	if (kind == KATTR_RG_CGROUP1) {
		rg->ctrls = v1_controllers(f->super_opts);
		if (!rg->ctrls) {
			ret = -ENOMEM;
			goto out_free;
		}
		rg->has_shares = kattr_opt_has(rg->ctrls, "cpu");
		rg->acct_comounted = kattr_opt_has(rg->ctrls, "cpuacct");
		if (!rg->acct_comounted)
			find_acct(rg);
	} else {
		/* cpu available here; enabled below it or not (cpu.weight
		 * exists only where every group above enables it). */
		rg->has_shares = file_has_word(rg->m, "cgroup.controllers",
					       "cpu") > 0 ||
				 file_has_word(rg->m, "cgroup.subtree_control",
					       "cpu") > 0;
	}
	*out = rg;
	return 0;

out_free:
	kattr_rg_close(rg);
	return ret;
}

/* The mount holding root, and root's canonical form (*canon, malloc'ed). */
static int lookup_root(const char *root, char **canon, struct mnt_found *f)
{
	int ret = canonical(root, canon);

	if (ret < 0)
		return ret;
	ret = mount_lookup(*canon, f);
	if (ret < 0) {
		free(*canon);
		*canon = NULL;
	}
	return ret == -ENOENT ? -EMEDIUMTYPE : ret;
}

int kattr_rg_probe(const char *root, enum kattr_rg_backend *kind)
{
	struct mnt_found f = { 0 };
	char *canon;
	int ret;

	ret = lookup_root(root, &canon, &f);
	if (ret < 0)
		return ret;
	free(canon);
	*kind = kind_of(f.fstype);
	mnt_found_free(&f);
	return *kind == KATTR_RG_AUTO ? -EMEDIUMTYPE : 0;
}

static int open_given(enum kattr_rg_backend b, const char *root,
		      struct kattr_rg **out)
{
	struct mnt_found f = { 0 };
	enum kattr_rg_backend kind;
	char *canon;
	int ret;

	ret = lookup_root(root, &canon, &f);
	if (ret < 0)
		return ret;
	kind = kind_of(f.fstype);
	if (kind == KATTR_RG_AUTO || (b != KATTR_RG_AUTO && b != kind))
		ret = -EMEDIUMTYPE;
	else
		ret = open_at(kind, &f, canon, out);
	mnt_found_free(&f);
	free(canon);
	return ret;
}

struct search_ctx {
	enum kattr_rg_backend want;	/* AUTO: any kind */
	int pass;			/* see search_cb */
	struct kattr_rg *rg;
	int err;
};

/*
 * Pass 0: RGCS (configfs or rgcsfs with res_groups); pass 1: cgroup v2 with
 * cpu available (enabled or not); pass 2: cgroup v1 with cpu; pass 3: any
 * cgroup v2.
 */
static int search_cb(const struct kattr_mnt *mnt, void *data)
{
	struct search_ctx *ctx = data;
	enum kattr_rg_backend kind = kind_of(mnt->fstype);
	struct mnt_found f = { 0 };
	struct kattr_rg *rg = NULL;
	static const enum kattr_rg_backend pass_kind[] = {
		KATTR_RG_RGCS, KATTR_RG_CGROUP2, KATTR_RG_CGROUP1,
		KATTR_RG_CGROUP2,
	};
	int ret;

	if (kind != pass_kind[ctx->pass])
		return 0;
	if (kind == KATTR_RG_CGROUP1 && !kattr_opt_has(mnt->super_opts, "cpu"))
		return 0;
	if (mnt_found_set(&f, mnt) < 0)
		return -ENOMEM;
	ret = open_at(kind, &f, mnt->mount_point, &rg);
	mnt_found_free(&f);
	if (ret < 0) {
		if (ctx->err == 0 || ret != -EMEDIUMTYPE)
			ctx->err = ret;
		return 0;
	}
	if (ctx->pass == 1 && !rg->has_shares) {
		kattr_rg_close(rg);
		return 0;
	}
	ctx->rg = rg;
	return 1;
}

static int open_search(enum kattr_rg_backend b, struct kattr_rg **out)
{
	struct search_ctx ctx = { .want = b };
	int ret;

	for (ctx.pass = 0; ctx.pass < 4; ctx.pass++) {
		if (b == KATTR_RG_RGCS && ctx.pass != 0)
			continue;
		if (b == KATTR_RG_CGROUP1 && ctx.pass != 2)
			continue;
		if (b == KATTR_RG_CGROUP2 && ctx.pass != 1 && ctx.pass != 3)
			continue;
		ret = kattr_mountinfo_foreach(search_cb, &ctx);
		if (ret < 0)
			return ret;
		if (ctx.rg) {
			*out = ctx.rg;
			return 0;
		}
	}
	return ctx.err && ctx.err != -EMEDIUMTYPE ? ctx.err : -ENOENT;
}

int kattr_rg_open(enum kattr_rg_backend b, const char *root,
		  struct kattr_rg **out)
{
	if ((unsigned int)b > KATTR_RG_CGROUP2)
		return -EINVAL;
	if (root && *root)
		return open_given(b, root, out);
	return open_search(b, out);
}

void kattr_rg_close(struct kattr_rg *rg)
{
	if (!rg)
		return;
	kattr_mount_close(rg->m);
	kattr_mount_close(rg->acct);
	free(rg->ctrls);
	free(rg->prefix);
	free(rg);
}

enum kattr_rg_backend kattr_rg_backend_of(const struct kattr_rg *rg)
{
	return rg->be->id;
}

const char *kattr_rg_root(const struct kattr_rg *rg)
{
	return kattr_mount_path(rg->m);
}

struct kattr_mount *kattr_rg_mount(const struct kattr_rg *rg)
{
	return rg->m;
}

bool kattr_rg_has_shares(const struct kattr_rg *rg)
{
	return rg->has_shares;
}

const char *kattr_rg_shares_file(const struct kattr_rg *rg)
{
	return rg->be->shares_file;
}

/* ---- groups ------------------------------------------------------------- */

/* "group/file", "file" for the root, "." or "group" when file is NULL. */
static int gpath(char *buf, size_t size, const char *group, const char *file)
{
	int n;

	if (kattr_rg_name_is_root(group))
		n = snprintf(buf, size, "%s", file ? file : ".");
	else
		n = snprintf(buf, size, "%s%s%s", group, file ? "/" : "",
			     file ? file : "");
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

int kattr_rg_exists(struct kattr_rg *rg, const char *group)
{
	char path[PATH_MAX];
	struct stat st;
	int ret;

	ret = kattr_rg_name_check(group, true, NULL);
	if (ret < 0)
		return ret;
	ret = gpath(path, sizeof(path), group, NULL);
	if (ret < 0)
		return ret;
	ret = kattr_stat(rg->m, path, &st);
	if (ret < 0)
		return ret;
	return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

/* Undo kattr_rg_create(): remove the first n components made, deepest first. */
static void undo_mkdirs(struct kattr_rg *rg, char *name, size_t *ends,
			size_t n)
{
	while (n--) {
		char save = name[ends[n]];

		name[ends[n]] = '\0';
		kattr_rmdir(rg->m, name);
		name[ends[n]] = save;
	}
}

/* ---- cgroup v2: the cpu controller along a path ------------------------- */

void kattr_rg_cpu_path_free(struct kattr_rg_cpu_path *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++)
		free(p->groups[i]);
	free(p->groups);
	free(p->failed);
	memset(p, 0, sizeof(*p));
}

static int cpu_path_add(struct kattr_rg_cpu_path *p, const char *group)
{
	char **tmp = realloc(p->groups, (p->n + 1) * sizeof(*tmp));

	if (!tmp)
		return -ENOMEM;
	p->groups = tmp;
	p->groups[p->n] = strdup(group);
	if (!p->groups[p->n])
		return -ENOMEM;
	p->n++;
	return 0;
}

/* 1 when cpu is enabled in group's cgroup.subtree_control, 0 when not (or
 * when the group does not exist), -errno. */
static int cpu_enabled_in(struct kattr_rg *rg, const char *group)
{
	char path[PATH_MAX];
	int ret = gpath(path, sizeof(path), group, "cgroup.subtree_control");

	if (ret < 0)
		return ret;
	ret = file_has_word(rg->m, path, "cpu");
	return ret == -ENOENT ? 0 : ret;
}

/*
 * cgroup v2: wait out another process enabling cpu in group's parent.  The
 * kernel sets the parent's cgroup.subtree_control before it creates the
 * children's cpu.* files, under cgroup_mutex, so a reader can see "cpu"
 * enabled while the child's cpu.weight is not there yet.  Writing "+cpu"
 * where it is already enabled changes nothing but takes the same mutex, so
 * when it returns the files are there.  1 when a retry may succeed (cpu is
 * enabled in the parent), 0 when not, -errno.
 */
static int cpu_settle(struct kattr_rg *rg, const char *group)
{
	char parent[PATH_MAX], path[PATH_MAX], *slash;
	size_t len = strlen(group);
	int ret;

	if (rg->be->id != KATTR_RG_CGROUP2 || kattr_rg_name_is_root(group))
		return 0;
	if (len >= sizeof(parent))
		return -ENAMETOOLONG;
	memcpy(parent, group, len + 1);
	while (len && parent[len - 1] == '/')
		parent[--len] = '\0';
	slash = strrchr(parent, '/');
	if (slash)
		*slash = '\0';
	else
		parent[0] = '\0';	/* the root */
	ret = cpu_enabled_in(rg, parent);
	if (ret <= 0)
		return ret;
	ret = gpath(path, sizeof(path), parent, "cgroup.subtree_control");
	if (ret == 0)
		ret = kattr_write_str(rg->m, path, "+cpu");
	return ret < 0 ? ret : 1;
}

/* Write value to group's shares file; on cgroup v2 a file missing while the
 * parent has cpu enabled is waited for once (cpu_settle()). */
static int shares_write(struct kattr_rg *rg, const char *group,
			const char *path, const char *value)
{
	int ret = kattr_write_str(rg->m, path, value);

	if (ret == -ENOENT && cpu_settle(rg, group) > 0)
		ret = kattr_write_str(rg->m, path, value);
	return ret;
}

int kattr_rg_cpu_missing(struct kattr_rg *rg, const char *group,
			 struct kattr_rg_cpu_path *out)
{
	char name[PATH_MAX];
	bool lacking = false;
	size_t len;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = kattr_rg_name_check(group, true, NULL);
	if (ret < 0)
		return ret;
	if (rg->be->id != KATTR_RG_CGROUP2 || kattr_rg_name_is_root(group))
		return 0;
	len = strlen(group);
	if (len >= sizeof(name))
		return -ENAMETOOLONG;
	memcpy(name, group, len + 1);
	/* The root, then each parent: name up to each '/'. */
	for (size_t i = 0; i < len && ret == 0; i++) {
		const char *anc = "/";

		if (i > 0) {
			if (name[i] != '/')
				continue;
			name[i] = '\0';
			anc = name;
		}
		/* Below a group without cpu none can have it. */
		if (!lacking) {
			ret = cpu_enabled_in(rg, anc);
			lacking = ret == 0;
		}
		if (ret >= 0 && lacking)
			ret = cpu_path_add(out, anc);
		else if (ret > 0)
			ret = 0;
		if (i > 0)
			name[i] = '/';
	}
	if (ret < 0)
		kattr_rg_cpu_path_free(out);
	return ret < 0 ? ret : 0;
}

/* Disable cpu in done's groups from the last down to index start. */
static int cpu_undo_from(struct kattr_rg *rg, struct kattr_rg_cpu_path *done,
			 size_t start)
{
	int first = 0;

	while (done->n > start) {
		char path[PATH_MAX], *g = done->groups[--done->n];
		int ret = gpath(path, sizeof(path), g, "cgroup.subtree_control");

		if (ret == 0)
			ret = kattr_write_str(rg->m, path, "-cpu");
		if (ret < 0 && first == 0)
			first = ret;
		free(g);
	}
	return first;
}

int kattr_rg_cpu_undo(struct kattr_rg *rg, struct kattr_rg_cpu_path *done)
{
	int ret = cpu_undo_from(rg, done, 0);

	free(done->groups);
	done->groups = NULL;
	return ret;
}

int kattr_rg_cpu_enable(struct kattr_rg *rg, const char *group,
			struct kattr_rg_cpu_path *done)
{
	struct kattr_rg_cpu_path miss;
	size_t start = done->n;
	int ret;

	if (rg->be->id != KATTR_RG_CGROUP2)
		return 0;
	if (!rg->has_shares)
		return -EOPNOTSUPP;
	ret = kattr_rg_cpu_missing(rg, group, &miss);
	if (ret < 0)
		return ret;
	for (size_t i = 0; i < miss.n && ret == 0; i++) {
		char path[PATH_MAX];

		ret = gpath(path, sizeof(path), miss.groups[i],
			    "cgroup.subtree_control");
		if (ret == 0)
			ret = kattr_write_str(rg->m, path, "+cpu");
		if (ret == 0) {
			ret = cpu_path_add(done, miss.groups[i]);
			if (ret < 0)	/* cannot remember it: take it back */
				kattr_write_str(rg->m, path, "-cpu");
		}
		if (ret < 0) {
			free(done->failed);
			done->failed = strdup(miss.groups[i]);
		}
	}
	if (ret < 0)
		cpu_undo_from(rg, done, start);
	kattr_rg_cpu_path_free(&miss);
	return ret;
}

/* ---- create ---------------------------------------------------------------- */

/* Fill *r (may be NULL) with what and its words; returns err. */
static int reason(struct kattr_rg_reason *r, enum kattr_rg_why what, int err,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int reason(struct kattr_rg_reason *r, enum kattr_rg_why what, int err,
		  const char *fmt, ...)
{
	va_list ap;

	if (!r)
		return err;
	r->what = what;
	va_start(ap, fmt);
	vsnprintf(r->text, sizeof(r->text), fmt, ap);
	va_end(ap);
	return err;
}

const char *kattr_rg_reason_text(const struct kattr_rg_reason *r, int err)
{
	if (r && r->what != KATTR_RG_WHY_NONE)
		return r->text;
	return err ? strerror(-err) : "";
}

int kattr_rg_create_check(const struct kattr_rg *rg, const char *group,
			  const char *shares, const char *res,
			  struct kattr_rg_reason *r)
{
	struct kattr_rg_share s;
	const char *why = NULL;
	unsigned int depth;
	int ret;

	if (r)
		memset(r, 0, sizeof(*r));
	if (kattr_rg_name_is_root(group))
		return reason(r, KATTR_RG_WHY_ROOT, -EINVAL, "it always exists");
	ret = kattr_rg_name_check(group, false, &why);
	if (ret < 0)
		return reason(r, KATTR_RG_WHY_NAME, ret, "%s", why);
	if (res && rg->be->id != KATTR_RG_RGCS)
		return reason(r, KATTR_RG_WHY_RES, -EINVAL,
			      "a controller (res) names RGCS shares only");
	if (shares) {
		ret = kattr_rg_share_parse(rg->be->id, shares, res, &s, NULL, &why);
		if (ret < 0)
			return reason(r, KATTR_RG_WHY_SHARES, ret, "%s", why);
	}
	depth = kattr_rg_name_depth(group);
	if (rg->be->id == KATTR_RG_RGCS && depth > KATTR_RG_RGCS_DEPTH)
		return reason(r, KATTR_RG_WHY_DEPTH, -EMLINK,
			      "it would be %u levels deep; RGCS groups nest at most %d levels below the root",
			      depth, KATTR_RG_RGCS_DEPTH);
	return 0;
}

int kattr_rg_create(struct kattr_rg *rg, const char *group,
		    unsigned int flags, const char *shares, const char *res)
{
	return kattr_rg_create_why(rg, group, flags & ~KATTR_RG_ENABLE,
				   shares, res, NULL, NULL);
}

int kattr_rg_create_enable(struct kattr_rg *rg, const char *group,
			   unsigned int flags, const char *shares,
			   const char *res, struct kattr_rg_cpu_path *done)
{
	return kattr_rg_create_why(rg, group, flags, shares, res, done, NULL);
}

/* A directory made (or found) for kattr_rg_create(): name up to each '/'. */
struct mkpath {
	char name[PATH_MAX];
	size_t len;
	size_t made[PATH_MAX / 2], nmade;
};

void kattr_rg_on_create(struct kattr_rg *rg, kattr_rg_made_fn fn, void *data)
{
	rg->made_fn = fn;
	rg->made_data = data;
}

/* The hook on a directory just made (then undone with the rest if < 0). */
static int made_hook(struct kattr_rg *rg, const char *group,
		     struct kattr_rg_reason *r)
{
	int fd, ret;

	if (!rg->made_fn)
		return 0;
	fd = kattr_rg_group_open(rg, group, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return reason(r, KATTR_RG_WHY_HOOK, fd, "cannot open it once made: %s",
			      strerror(-fd));
	ret = rg->made_fn(fd, group, rg->made_data);
	close(fd);
	return ret < 0 ? reason(r, KATTR_RG_WHY_HOOK, ret,
				"cannot mark it as made by this tool: %s",
				strerror(-ret)) : 0;
}

/* Make or find component name[0..i) (i == len: the group itself). */
static int mkpath_one(struct kattr_rg *rg, struct mkpath *mp, size_t i,
		      unsigned int flags, struct kattr_rg_reason *r)
{
	int ret;

	/* Without -p the group's own mkdir checks its parents (ENOENT). */
	if (i < mp->len && !(flags & KATTR_RG_PARENTS))
		return 0;
	ret = kattr_mkdir(rg->m, mp->name, 0755);
	if (ret == -ENOENT && !(flags & KATTR_RG_PARENTS))
		return reason(r, KATTR_RG_WHY_PARENT, -ENXIO,
			      "its parent group does not exist");
	if (ret == -ENOMEM && rg->be->id == KATTR_RG_RGCS)
		ret = -EMLINK;
	if (ret == -EEXIST && (i < mp->len || (flags & KATTR_RG_PARENTS)))
		ret = kattr_rg_exists(rg, mp->name);
	else if (ret == 0) {
		mp->made[mp->nmade++] = i;
		ret = made_hook(rg, mp->name, r);
	}
	if (ret == -EEXIST)
		return kattr_rg_exists(rg, mp->name) == -ENOTDIR ?
			reason(r, KATTR_RG_WHY_ATTR, ret,
			       "an attribute file of that name is there (not a group)") :
			reason(r, KATTR_RG_WHY_EXISTS, ret,
			       "the group already exists");
	if (ret == -ENOTDIR)
		return reason(r, KATTR_RG_WHY_ATTR_ABOVE, ret,
			      "a component of the name is an attribute file, not a group");
	return ret;
}

/* Every component, parents first: each one must exist or be made. */
static int mkpath(struct kattr_rg *rg, struct mkpath *mp, unsigned int flags,
		  struct kattr_rg_reason *r)
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
			 struct kattr_rg_reason *r)
{
	char path[PATH_MAX];
	size_t start = done ? done->n : 0;
	int ret = 0;

	if (flags & KATTR_RG_ENABLE)
		ret = kattr_rg_cpu_enable(rg, group, done);
	if (ret < 0)
		return ret;
	ret = gpath(path, sizeof(path), group, rg->be->shares_file);
	if (ret == 0)
		ret = shares_write(rg, group, path, value);
	if (ret == -ENOENT)	/* cgroup v2: cpu not enabled here */
		ret = reason(r, KATTR_RG_WHY_NO_SHARES, -EOPNOTSUPP,
			     "no %s there", rg->be->shares_file);
	if (ret < 0 && done)
		cpu_undo_from(rg, done, start);
	return ret;
}

int kattr_rg_create_why(struct kattr_rg *rg, const char *group,
			unsigned int flags, const char *shares,
			const char *res, struct kattr_rg_cpu_path *done,
			struct kattr_rg_reason *r)
{
	struct mkpath *mp;
	char value[256];
	int ret;

	if ((flags & KATTR_RG_ENABLE) && !done)
		return -EINVAL;
	ret = kattr_rg_create_check(rg, group, shares, res, r);
	if (ret < 0)
		return ret;
	if (shares && !rg->has_shares)
		return reason(r, KATTR_RG_WHY_NO_SHARES, -EOPNOTSUPP,
			      "no shares here");
	if (shares && kattr_rg_shares_format(rg->be->id, shares, res, value,
					     sizeof(value), NULL) < 0)
		return -ENAMETOOLONG;
	mp = calloc(1, sizeof(*mp));
	if (!mp)
		return -ENOMEM;
	mp->len = strlen(group);
	if (mp->len >= sizeof(mp->name)) {
		free(mp);
		return -ENAMETOOLONG;
	}
	memcpy(mp->name, group, mp->len + 1);
	while (mp->len && mp->name[mp->len - 1] == '/')
		mp->name[--mp->len] = '\0';
	ret = mkpath(rg, mp, flags, r);
	if (ret == 0 && shares)
		ret = create_shares(rg, group, flags, value, done, r);
	if (ret < 0)
		undo_mkdirs(rg, mp->name, mp->made, mp->nmade);
	free(mp);
	return ret;
}

/* Read the attribute file of group whole. */
static int read_group_file(struct kattr_rg *rg, const char *group,
			   const char *file, char **text)
{
	char path[PATH_MAX];
	int ret;

	ret = gpath(path, sizeof(path), group, file);
	if (ret < 0)
		return ret;
	return kattr_read_alloc(rg->m, path, text, NULL);
}

static int read_pids(struct kattr_rg *rg, const char *group, const char *file,
		     pid_t **pids, size_t *n)
{
	char *text;
	int ret;

	ret = read_group_file(rg, group, file, &text);
	if (ret < 0)
		return ret;
	ret = kattr_rg_parse_pids(text, pids, n);
	free(text);
	/* not a list of ids: not what the kernel writes there */
	return ret == -EINVAL ? -EBADMSG : ret;
}

static int write_pid(int fd, pid_t pid)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%d", (int)pid);
	ssize_t w = write(fd, buf, (size_t)len);

	if (w < 0)
		return -errno;
	return w == len ? 0 : -EIO;
}

/* ---- attach targets ------------------------------------------------------ */

struct kattr_rg_target {
	struct kattr_rg *rg;
	int fd;			/* the tasks, cgroup.procs or members file */
	bool threads;		/* RGCS: every thread of the process */
};

/* Open group's attach file (a name from the caller or from the tree). */
static int target_open(struct kattr_rg *rg, const char *group,
		       unsigned int flags, struct kattr_rg_target **out)
{
	const char *file = (flags & KATTR_RG_THREADS) ? rg->be->attach_proc :
			   rg->be->attach_task;
	struct kattr_rg_target *t;
	char path[PATH_MAX];
	int ret;

	ret = gpath(path, sizeof(path), group, file);
	if (ret < 0)
		return ret;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->fd = kattr_open(rg->m, path, O_WRONLY);
	if (t->fd < 0) {
		ret = t->fd;
		free(t);
		return ret;
	}
	t->rg = rg;
	t->threads = rg->be->id == KATTR_RG_RGCS && (flags & KATTR_RG_THREADS);
	*out = t;
	return 0;
}

int kattr_rg_target_open(struct kattr_rg *rg, const char *group,
			 unsigned int flags, struct kattr_rg_target **out)
{
	int ret = kattr_rg_exists(rg, group);

	if (ret < 0)
		return ret;
	return target_open(rg, group, flags, out);
}

void kattr_rg_target_close(struct kattr_rg_target *t)
{
	if (!t)
		return;
	close(t->fd);
	free(t);
}

int kattr_rg_group_open(struct kattr_rg *rg, const char *group, int flags)
{
	char path[PATH_MAX];
	int ret = gpath(path, sizeof(path), group, NULL);

	if (ret < 0)
		return ret;
	return kattr_open(rg->m, path, flags | O_DIRECTORY);
}

/* The group above group ("/" above a top-level group), in place. */
static void up_one(char *group)
{
	char *slash = strrchr(group, '/');

	if (slash && slash != group)
		*slash = '\0';
	else
		strcpy(group, "/");
}

/*
 * cgroups: move every task of group to its parent (rmdir would fail).  On
 * cgroup v2 a parent with a controller enabled for children that have
 * processes may hold none itself (EBUSY): the tasks go to the nearest
 * ancestor that takes them, at worst the hierarchy's root.
 */
static int move_to_parent(struct kattr_rg *rg, const char *group)
{
	unsigned int flags = rg->be->id == KATTR_RG_CGROUP1 ? 0 : KATTR_RG_THREADS;
	struct kattr_rg_target *t;
	char parent[PATH_MAX];
	pid_t *pids;
	size_t n, i = 0;
	int ret;

	snprintf(parent, sizeof(parent), "%s", group);
	up_one(parent);
	ret = read_pids(rg, group, flags ? rg->be->procs_file : rg->be->tasks_file,
			&pids, &n);
	if (ret < 0)
		return ret;
	for (; n; up_one(parent)) {
		ret = target_open(rg, parent, flags, &t);
		if (ret < 0)
			break;
		for (; i < n && ret == 0; i++) {
			ret = kattr_rg_target_attach(t, pids[i]);
			if (ret == -ESRCH)	/* it exited meanwhile */
				ret = 0;
		}
		kattr_rg_target_close(t);
		if (ret != -EBUSY || rg->be->id != KATTR_RG_CGROUP2 ||
		    !strcmp(parent, "/"))
			break;
		i--;			/* that task again, one level up */
	}
	free(pids);
	return ret;
}

static int child_groups(struct kattr_rg *rg, const char *group,
			struct kattr_dirent **ents, size_t *n)
{
	char path[PATH_MAX];
	size_t w = 0;
	int ret;

	ret = gpath(path, sizeof(path), group, NULL);
	if (ret < 0)
		return ret;
	ret = kattr_list(rg->m, path, ents, n);
	if (ret < 0)
		return ret;
	for (size_t i = 0; i < *n; i++) {
		if ((*ents)[i].type == DT_DIR)
			(*ents)[w++] = (*ents)[i];
		else
			free((*ents)[i].name);
	}
	*n = w;
	return 0;
}

/* ---- walking the tree ------------------------------------------------ */

/*
 * What a walk callback returns besides 0 (go on) and -errno (stop with
 * that error): stop and return WALK_STOP; the group is gone (skip it and
 * what is below it); list the group's children again (new ones appeared).
 */
enum { WALK_STOP = 1, WALK_GONE = 2, WALK_AGAIN = 3 };

typedef int (*walk_cb)(struct kattr_rg *rg, const char *group,
		       unsigned int depth, void *data);

/*
 * Whether err, met on a group below the start of a walk, means the group
 * was removed meanwhile: its directory or a file every group has is gone
 * (ENOENT), or was removed while open (cgroup: ENODEV; FUSE: ESTALE).  A
 * group of the same name may already have been made again: the one we
 * were reading is gone all the same.
 */
static bool group_gone(int err)
{
	return err == -ENOENT || err == -ENODEV || err == -ESTALE;
}

/* One group on the walk's stack: its child groups and the next one. */
struct walk_level {
	struct kattr_dirent *kids;
	size_t n, next;
	size_t len;		/* length of the group's name */
	unsigned int again;	/* times its children were listed again */
};

struct walk {
	struct kattr_rg *rg;
	walk_cb pre, post;
	void *data;
	struct walk_level *st;
	size_t depth, cap;
	char *name;		/* the current group ("" is the root) */
	size_t name_cap;
};

static int walk_name(struct walk *w, size_t at, const char *kid)
{
	size_t klen = strlen(kid), need = at + 1 + klen + 1;
	char *tmp;

	if (need > w->name_cap) {
		tmp = realloc(w->name, need * 2);
		if (!tmp)
			return -ENOMEM;
		w->name = tmp;
		w->name_cap = need * 2;
	}
	if (at)
		w->name[at++] = '/';
	memcpy(w->name + at, kid, klen + 1);
	return 0;
}

/* Visit w->name: pre, then push it with its children. */
static int walk_enter(struct walk *w)
{
	struct walk_level *lv, *tmp;
	int ret = 0;

	if (w->pre)
		ret = w->pre(w->rg, w->name, (unsigned int)w->depth, w->data);
	if (ret == WALK_GONE)
		return 0;
	if (ret != 0)
		return ret;
	if (w->depth == w->cap) {
		w->cap = w->cap ? w->cap * 2 : 16;
		tmp = realloc(w->st, w->cap * sizeof(*tmp));
		if (!tmp)
			return -ENOMEM;
		w->st = tmp;
	}
	lv = &w->st[w->depth];
	memset(lv, 0, sizeof(*lv));
	lv->len = strlen(w->name);
	ret = child_groups(w->rg, w->name, &lv->kids, &lv->n);
	if (ret < 0 && w->depth && group_gone(ret))
		return 0;	/* removed while we walked: skipped */
	if (ret < 0)
		return ret;
	w->depth++;
	return 0;
}

/*
 * Visit group and every group below it, parents first and by name: pre
 * before a group's children, post after them.  Iterative, so any depth
 * whose names fit in PATH_MAX is walked; a group removed meanwhile is
 * skipped with what is below it.
 */
static int walk_tree(struct kattr_rg *rg, const char *group, walk_cb pre,
		     walk_cb post, void *data)
{
	struct walk w = { .rg = rg, .pre = pre, .post = post, .data = data };
	int ret;

	ret = walk_name(&w, 0, kattr_rg_name_is_root(group) ? "" : group);
	if (ret == 0)
		ret = walk_enter(&w);
	while (ret == 0 && w.depth) {
		struct walk_level *lv = &w.st[w.depth - 1];

		if (lv->next < lv->n) {
			ret = walk_name(&w, lv->len, lv->kids[lv->next++].name);
			if (ret == 0)
				ret = walk_enter(&w);
			continue;
		}
		w.name[lv->len] = '\0';
		ret = post ? post(rg, w.name, (unsigned int)w.depth - 1, data) : 0;
		if (ret == WALK_AGAIN && lv->again++ < 64) {
			kattr_list_free(lv->kids, lv->n);
			lv->kids = NULL;
			lv->n = lv->next = 0;
			ret = child_groups(rg, w.name, &lv->kids, &lv->n);
			if (ret < 0 && group_gone(ret))
				ret = WALK_GONE;
			if (ret != WALK_GONE)
				continue;
		}
		if (ret == WALK_AGAIN)
			ret = -EBUSY;	/* children keep appearing */
		if (ret == WALK_GONE)
			ret = 0;
		kattr_list_free(lv->kids, lv->n);
		w.depth--;
		if (w.depth)
			w.name[w.st[w.depth - 1].len] = '\0';
	}
	while (w.depth--)
		kattr_list_free(w.st[w.depth].kids, w.st[w.depth].n);
	free(w.st);
	free(w.name);
	return ret;
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
		if (!rg->be->rmdir_moves_members) {
			ret = move_to_parent(rg, group);
			if (ret < 0)
				break;
		}
		ret = kattr_rmdir(rg->m, group);
		if (ret != -EBUSY)
			break;
		/* cgroup v1 says EBUSY for a child group too */
		if (child_groups(rg, group, &kids, &nkids) == 0) {
			kattr_list_free(kids, nkids);
			if (nkids)
				return WALK_AGAIN;
		}
	}
	if (ret == -ENOTEMPTY)
		return WALK_AGAIN;	/* a child group was created meanwhile */
	if (ret < 0 && group_gone(ret))
		return WALK_GONE;	/* removed by someone else: done */
	return ret;
}

int kattr_rg_delete(struct kattr_rg *rg, const char *group, unsigned int flags)
{
	struct kattr_dirent *kids;
	size_t nkids;
	int ret;

	if (kattr_rg_name_is_root(group))
		return -EPERM;
	ret = kattr_rg_exists(rg, group);
	if (ret < 0)
		return ret;
	if (!(flags & KATTR_RG_RECURSIVE)) {
		ret = child_groups(rg, group, &kids, &nkids);
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
	ret = walk_tree(rg, group, NULL, remove_group, NULL);
	/* The group itself removed by someone else while we walked. */
	if (ret == -ENOENT && kattr_rg_exists(rg, group) == -ENOENT)
		ret = 0;
	return ret;
}

/* ---- shares --------------------------------------------------------------- */

/* The shares attribute of an existing group, or -EOPNOTSUPP without one. */
static int shares_path(struct kattr_rg *rg, const char *group, char *path,
		       size_t size)
{
	int ret = kattr_rg_exists(rg, group);

	if (ret < 0)
		return ret;
	if (!rg->has_shares)
		return -EOPNOTSUPP;
	return gpath(path, size, group, rg->be->shares_file);
}

/*
 * The shares of group, a name the caller has checked or read from the
 * tree itself (a walk: any byte but '/' may be in a directory's name, and
 * a group rgctl would not create must still be listed, not fail the walk).
 */
static int shares_read(struct kattr_rg *rg, const char *group,
		       struct kattr_rg_share **out, size_t *n)
{
	char path[PATH_MAX], *text;
	struct kattr_rg_share *s;
	uint64_t v;
	int ret;

	if (!rg->has_shares)
		return -EOPNOTSUPP;
	ret = gpath(path, sizeof(path), group, rg->be->shares_file);
	if (ret < 0)
		return ret;
	if (rg->be->id == KATTR_RG_RGCS) {
		ret = kattr_read_alloc(rg->m, path, &text, NULL);
		if (ret < 0)
			return ret;
		ret = kattr_rg_parse_rgcs_shares(text, out, n);
		free(text);
		return ret == -EINVAL ? -EBADMSG : ret;
	}
	ret = kattr_read_u64(rg->m, path, &v);
	if (ret == -ENOENT && cpu_settle(rg, group) > 0)
		ret = kattr_read_u64(rg->m, path, &v);
	if (ret == -ENOENT)
		return -EOPNOTSUPP;	/* v2 root, or cpu not enabled here */
	if (ret == -EINVAL || ret == -ERANGE)
		ret = -EBADMSG;		/* not a number */
	if (ret < 0)
		return ret;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	strcpy(s->res, "cpu");
	s->value = (long long)v;
	*out = s;
	*n = 1;
	return 0;
}

int kattr_rg_shares_get(struct kattr_rg *rg, const char *group,
			struct kattr_rg_share **out, size_t *n)
{
	int ret = kattr_rg_exists(rg, group);

	if (ret < 0)
		return ret;
	return shares_read(rg, group, out, n);
}

int kattr_rg_shares_set(struct kattr_rg *rg, const char *group,
			const char *value, const char *res, const char **why)
{
	char path[PATH_MAX], buf[256];
	int ret;

	ret = kattr_rg_shares_format(rg->be->id, value, res, buf, sizeof(buf),
				     why);
	if (ret < 0)
		return ret;
	ret = shares_path(rg, group, path, sizeof(path));
	if (ret < 0)
		return ret;
	ret = shares_write(rg, group, path, buf);
	return ret == -ENOENT ? -EOPNOTSUPP : ret;
}

/* ---- tasks ---------------------------------------------------------------- */

int kattr_rg_proc_foreach(pid_t pid, int (*cb)(pid_t id, void *data),
			  void *data)
{
	char rel[64];
	struct dirent *de;
	int fd, ret = 0;
	DIR *d;

	if (pid)
		snprintf(rel, sizeof(rel), "/proc/%d/task", (int)pid);
	/* Resolved beneath the sysroot, like every /proc/PID file read: a
	 * symlink planted in a captured tree is never followed out of it. */
	fd = kattr_sysroot_open(pid ? rel : "/proc", O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return fd == -ENOENT && pid ? -ESRCH : fd;
	d = fdopendir(fd);
	if (!d) {
		ret = -errno;
		close(fd);
		return ret;
	}
	while (ret == 0 && (de = readdir(d))) {
		pid_t id;

		if (kattr_rg_parse_pid(de->d_name, &id) == 0)
			ret = cb(id, data);
	}
	closedir(d);
	return ret;
}

struct pid_vec {
	pid_t *v;
	size_t n, cap;
};

static int pid_vec_add(pid_t id, void *data)
{
	struct pid_vec *pv = data;

	if (kattr_grow((void **)&pv->v, &pv->cap, pv->n, sizeof(*pv->v)) < 0)
		return -ENOMEM;
	pv->v[pv->n++] = id;
	return 0;
}

/* The thread ids of process pid, from /proc/PID/task. */
static int proc_tids(pid_t pid, pid_t **tids, size_t *n)
{
	struct pid_vec pv = { 0 };
	int ret = kattr_rg_proc_foreach(pid, pid_vec_add, &pv);

	if (ret == 0 && pv.n == 0)
		ret = -ESRCH;
	if (ret < 0) {
		free(pv.v);
		return ret;
	}
	*tids = pv.v;
	*n = pv.n;
	return 0;
}

static bool pid_in(const pid_t *v, size_t n, pid_t p)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == p)
			return true;
	return false;
}

/* RGCS: every thread, one write each, until a pass finds no new thread. */
static int attach_threads(int fd, pid_t pid)
{
	pid_t *done = NULL, *tids, *tmp;
	size_t ndone = 0, n;
	int ret = 0;

	for (int pass = 0; pass < 16; pass++) {
		bool fresh = false;

		ret = proc_tids(pid, &tids, &n);
		if (ret < 0)
			break;
		tmp = realloc(done, (ndone + n) * sizeof(*done));
		if (!tmp) {
			free(tids);
			ret = -ENOMEM;
			break;
		}
		done = tmp;
		for (size_t i = 0; i < n && ret == 0; i++) {
			if (pid_in(done, ndone, tids[i]))
				continue;
			fresh = true;
			ret = write_pid(fd, tids[i]);
			if (ret == -ESRCH && tids[i] != pid)
				ret = 0;	/* that thread ended */
			done[ndone++] = tids[i];
		}
		free(tids);
		if (ret < 0 || !fresh)
			break;
	}
	free(done);
	return ret;
}

int kattr_rg_target_attach(struct kattr_rg_target *t, pid_t pid)
{
	if (pid <= 0)
		return -EINVAL;
	if (t->threads)
		return attach_threads(t->fd, pid);
	return write_pid(t->fd, pid);
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

/* RGCS: a task's group as /proc/PID/task/TID/res_group says ("/db"). */
static int res_group_of(pid_t pid, pid_t tid, char **text)
{
	char rel[96];
	size_t len;
	int ret;

	snprintf(rel, sizeof(rel), "/proc/%d/task/%d/res_group", (int)pid, (int)tid);
	ret = kattr_file_read(rel, text, &len);
	if (ret < 0)
		return ret;
	while (len && (*text)[len - 1] == '\n')
		(*text)[--len] = '\0';
	return 0;
}

struct members_scan {
	const char *want;	/* "/db" */
	struct pid_vec found;
};

/* One process of /proc: its threads in the group wanted. */
static int members_cb(pid_t pid, void *data)
{
	struct members_scan *ms = data;
	pid_t *tids;
	size_t ntids;
	int ret = 0;

	if (proc_tids(pid, &tids, &ntids) < 0)
		return 0;
	for (size_t i = 0; i < ntids && ret == 0; i++) {
		char *text;

		if (res_group_of(pid, tids[i], &text) < 0)
			continue;
		if (strcmp(text, ms->want) == 0)
			ret = pid_vec_add(tids[i], &ms->found);
		free(text);
	}
	free(tids);
	return ret;
}

/* Scan /proc/PID/task/TID/res_group for the tasks of group (RGCS). */
static int members_from_proc(const char *group, pid_t **out, size_t *nout)
{
	char want[PATH_MAX], *text;
	struct members_scan ms = { .want = want };
	int ret;

	if (kattr_file_read("/proc/self/res_group", &text, NULL) < 0)
		return -ENOSPC;		/* no other way to list them */
	free(text);
	snprintf(want, sizeof(want), "/%s", kattr_rg_name_is_root(group) ? "" : group);
	ret = kattr_rg_proc_foreach(0, members_cb, &ms);
	if (ret < 0) {
		free(ms.found.v);
		return ret;
	}
	*out = ms.found.v;
	*nout = ms.found.n;
	return 0;
}

int kattr_rg_members(struct kattr_rg *rg, const char *group,
		     unsigned int flags, pid_t **pids, size_t *n)
{
	int ret = kattr_rg_exists(rg, group);

	if (ret < 0)
		return ret;
	ret = read_pids(rg, group, (flags & KATTR_RG_THREADS) ?
			rg->be->tasks_file : rg->be->procs_file, pids, n);
	if (ret == -ENOSPC && rg->be->id == KATTR_RG_RGCS)
		ret = members_from_proc(group, pids, n);
	return ret;
}

/* ---- stats ------------------------------------------------------------ */

static int add_file(struct kattr_mount *m, const char *group, const char *file,
		    const char *res, struct kattr_rg_stat **v, size_t *n)
{
	char path[PATH_MAX], *text;
	int ret = gpath(path, sizeof(path), group, file);

	if (ret < 0)
		return ret;
	ret = kattr_read_alloc(m, path, &text, NULL);
	if (ret < 0)
		return ret;
	ret = kattr_rg_parse_keyed(text, res, v, n);
	free(text);
	return ret;
}

int kattr_rg_stats(struct kattr_rg *rg, const char *group,
		   struct kattr_rg_stat **v, size_t *n)
{
	char path[PATH_MAX], *text;
	int ret = kattr_rg_exists(rg, group);

	if (ret < 0)
		return ret;
	*v = NULL;
	*n = 0;
	if (rg->be->id == KATTR_RG_RGCS) {
		ret = read_group_file(rg, group, "stats", &text);
		if (ret < 0)
			return ret;
		ret = kattr_rg_parse_rgcs_stats(text, v, n);
		free(text);
		return ret;
	}
	ret = add_file(rg->m, group, "cpu.stat", "cpu", v, n);
	if (ret == -ENOENT)
		ret = 0;	/* a v1 hierarchy without cpu */
	if (ret == 0 && rg->be->id == KATTR_RG_CGROUP1) {
		struct kattr_mount *am = rg->acct_comounted ? rg->m : rg->acct;

		if (am) {
			/* cpuacct.usage is one number: key "usage". */
			ret = gpath(path, sizeof(path), group, "cpuacct.usage");
			if (ret == 0 && kattr_read_alloc(am, path, &text, NULL) == 0) {
				char *line;

				if (asprintf(&line, "usage %s", text) < 0) {
					ret = -ENOMEM;
				} else {
					ret = kattr_rg_parse_keyed(line, "cpuacct", v, n);
					free(line);
				}
				free(text);
			}
		}
	}
	if (ret < 0) {
		kattr_rg_stats_free(*v, *n);
		*v = NULL;
		*n = 0;
	}
	return ret;
}

/* ---- whereis and list ------------------------------------------------------- */

struct find_task {
	pid_t pid;
	char *group;
	int unreadable;		/* the first error reading a members list */
};

static int find_task_cb(struct kattr_rg *rg, const char *group,
			unsigned int depth, void *data)
{
	struct find_task *ft = data;
	pid_t *pids;
	size_t n;
	bool hit;

	int ret;

	if (depth == 0)
		return 0;	/* the root lists only tasks moved back to it */
	ret = read_pids(rg, group, rg->be->tasks_file, &pids, &n);
	if (ret < 0 && group_gone(ret))
		return WALK_GONE;
	if (ret < 0) {
		/* It may be in there: unless it is found elsewhere, the
		 * answer is "cannot tell", never the root. */
		if (!ft->unreadable)
			ft->unreadable = ret;
		return 0;
	}
	hit = pid_in(pids, n, ft->pid);
	free(pids);
	if (!hit)
		return 0;
	ft->group = strdup(group);
	return ft->group ? WALK_STOP : -ENOMEM;
}

static int whereis_rgcs(struct kattr_rg *rg, pid_t pid, char **group)
{
	struct find_task ft = { .pid = pid };
	char rel[96], *text;
	int ret;

	ret = res_group_of(pid, pid, &text);
	if (ret == 0) {
		if (text[0] != '/') {
			free(text);
			return -EBADMSG;
		}
		*group = strdup(text[1] ? text + 1 : "/");
		free(text);
		return *group ? 0 : -ENOMEM;
	}
	/* No /proc/PID/res_group (an emulator): look in every group. */
	snprintf(rel, sizeof(rel), "/proc/%d/task/%d", (int)pid, (int)pid);
	ret = kattr_sysroot_open(rel, O_PATH);
	if (ret < 0)
		return ret == -ENOENT ? -ESRCH : ret;
	close(ret);
	ret = walk_tree(rg, "/", find_task_cb, NULL, &ft);
	if (ret < 0)
		return ret;
	if (!ft.group && ft.unreadable)
		return ft.unreadable;	/* -ENOSPC: a list past one page */
	*group = ft.group ? ft.group : strdup("/");
	return *group ? 0 : -ENOMEM;
}

int kattr_rg_whereis(struct kattr_rg *rg, pid_t pid, char **group)
{
	char rel[64], *text, *path;
	size_t plen;
	int ret;

	if (pid <= 0)
		return -EINVAL;
	if (rg->be->id == KATTR_RG_RGCS)
		return whereis_rgcs(rg, pid, group);
	snprintf(rel, sizeof(rel), "/proc/%d/cgroup", (int)pid);
	ret = kattr_file_read(rel, &text, NULL);
	if (ret == -ENOENT)
		return -ESRCH;
	if (ret < 0)
		return ret;
	ret = kattr_rg_parse_proc_cgroup(text, rg->be->id == KATTR_RG_CGROUP1 ?
					 rg->ctrls : NULL, &path);
	free(text);
	if (ret == -EINVAL)
		ret = -EBADMSG;
	if (ret < 0)
		return ret;
	plen = strlen(rg->prefix);
	if (strncmp(path, rg->prefix, plen) != 0 ||
	    (path[plen] != '/' && path[plen] != '\0')) {
		free(path);
		return -ENOENT;	/* outside the part of the tree we manage */
	}
	*group = strdup(path[plen] && path[plen + 1] ? path + plen + 1 : "/");
	free(path);
	return *group ? 0 : -ENOMEM;
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

	ret = read_pids(rg, group, rg->be->tasks_file, &pids, &n);
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
	if (depth > 0 && group_gone(ret))
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
	ret = walk_tree(rg, group, list_cb, NULL, &lc);
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
