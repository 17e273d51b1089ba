// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rgctl apply FILE [--dry-run] [--prune] and rgctl dump: make the groups
 * match a configuration file (rgctl.conf(5)), all or nothing, and print
 * the current groups in the same format.
 *
 * apply takes an exclusive flock(2) on the root directory of the
 * hierarchy (a second apply waits up to --wait seconds, then fails
 * naming the holder), plans (nothing is touched while planning), then
 * runs the plan step by step keeping what each step undoes: creates and
 * share changes first, deletions (--prune) last.  A deletion first saves
 * what the group holds (every writable attribute, every thread) so that
 * undo can re-create it as it was.  When a step fails, every step already
 * done is undone, last first; the message names the step and the cause,
 * and either says that nothing changed or lists exactly what could not
 * be restored.  After the last step the groups are read back and
 * compared with the file.  The changes are printed only once all of them
 * are done, followed by "N changes".
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/file.h>
#include <sys/sysmacros.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "kattr/rgconf.h"
#include "rgctl.h"
#include "rgctl_res.h"
#include "rgctl_rgd.h"
#include "rgctl_systemd.h"
#include "strutils.h"
#include "xalloc.h"

static int run_apply(struct rgctl *ctx, int argc, char **argv);
static int run_dump(struct rgctl *ctx, int argc, char **argv);

enum { OPT_DRY_RUN = OPT_CMD_FIRST, OPT_PRUNE, OPT_WAIT };
static const struct option apply_opts[] = {
	{ "dry-run", no_argument,       NULL, 'n' },
	{ "prune",   no_argument,       NULL, OPT_PRUNE },
	{ "no-enable", no_argument,     NULL, OPT_NO_ENABLE },
	{ "wait",    required_argument, NULL, OPT_WAIT },
	{ "help",    no_argument,       NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};
static const char *const apply_help[] = {
	"-n, --dry-run", "Print the plan and change nothing.",
	"    --prune", "Also delete groups the file does not name (members go to the parent).",
	"    --no-enable", "On cgroup v2, refuse instead of enabling cpu where shares are set.",
	"    --wait SECONDS", "Wait up to SECONDS (0 to 86400) for another apply's lock.",
	NULL
};

const struct rgctl_cmd rgctl_cmd_apply = {
	.name = "apply", .args = "FILE",
	.help = "Make the groups match a configuration file",
	.run = run_apply,
	.opts = apply_opts, .shortopts = "n", .opt_help = apply_help,
};

const struct rgctl_cmd rgctl_cmd_dump = {
	.name = "dump", .args = "",
	.help = "Print the groups in the configuration file format",
	.run = run_dump,
};

/*
 * Fault hooks (tests only).  RGCTL_APPLY_FAIL_STEP=K: step K fails before
 * it does anything; K+ : step K is done, then reported as failed (so its
 * own undo runs too).  RGCTL_APPLY_FAIL_UNDO=K: undoing step K fails.
 */
#define FAIL_STEP_ENV "RGCTL_APPLY_FAIL_STEP"
#define FAIL_UNDO_ENV "RGCTL_APPLY_FAIL_UNDO"
/* How long a second apply waits for the lock by default (seconds). */
#define LOCK_WAIT_DEFAULT 30

enum step_kind { STEP_CREATE, STEP_SET, STEP_DELETE, STEP_RES };

/* One writable attribute file of a group and its content. */
struct attr {
	char *file;
	char *value;
};

struct step {
	enum step_kind kind;
	char *group;
	char *want;		/* shares to write (CREATE may have none) */
	char *old;		/* SET: shares before (RGCS: the keys set), for undo */
	struct attr *attrs;	/* DELETE: the group's attributes, saved */
	size_t nattrs;
	pid_t *tids;		/* DELETE: its threads, to put back */
	size_t ntids;
	unsigned int line;	/* in the file (0 for DELETE) */
	unsigned long long ino;	/* DELETE: its inode (rgctl's state file) */
	char *enable;		/* cgroup v2: where cpu is to be enabled (text) */
	struct kattr_rg_cpu_path done;	/* ... and where it was */
	struct rgctl_res_change res;	/* RES: resources, old and new */
	bool no_enable;			/* RES: --no-enable */
};

/* What undo could not restore, one line each. */
struct notes {
	char **v;
	size_t n;
};

static void note(struct notes *ns, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void note(struct notes *ns, const char *fmt, ...)
{
	va_list ap;

	ns->v = xreallocarray(ns->v, ns->n + 1, sizeof(*ns->v));
	va_start(ap, fmt);
	if (vasprintf(&ns->v[ns->n], fmt, ap) < 0)
		xalloc_die();
	va_end(ap);
	ns->n++;
}

static void notes_free(struct notes *ns)
{
	for (size_t i = 0; i < ns->n; i++)
		free(ns->v[i]);
	free(ns->v);
	ns->v = NULL;
	ns->n = 0;
}

struct plan {
	struct step *v;
	size_t n, cap;
};

static void plan_free(struct plan *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->v[i].group);
		free(p->v[i].want);
		free(p->v[i].old);
		for (size_t k = 0; k < p->v[i].nattrs; k++) {
			free(p->v[i].attrs[k].file);
			free(p->v[i].attrs[k].value);
		}
		free(p->v[i].attrs);
		free(p->v[i].tids);
		free(p->v[i].enable);
		kattr_rg_cpu_path_free(&p->v[i].done);
		rgctl_res_change_free(&p->v[i].res);
	}
	free(p->v);
}

static struct step *plan_add(struct plan *p, enum step_kind kind,
			     const char *group)
{
	struct step *s;

	XGROW(p->v, p->n, p->cap);
	s = &p->v[p->n++];
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->group = xstrdup(group);
	return s;
}

/* One share as text the backend accepts back (for undo and dump). */
static char *share_value(const struct kattr_rg *rg, const struct kattr_rg_share *s,
			 unsigned int keys)
{
	char buf[256];

	kattr_rg_share_text(kattr_rg_backend_of(rg), s, keys, buf, sizeof(buf));
	return xstrdup(buf);
}

/* The share of the controller res (RGCS) or the only one (cgroups). */
static const struct kattr_rg_share *find_share(const struct kattr_rg *rg,
					       const struct kattr_rg_share *v,
					       size_t n, const char *res)
{
	for (size_t i = 0; i < n; i++)
		if (kattr_rg_backend_of(rg) != KATTR_RG_RGCS ||
		    strcmp(v[i].res, res) == 0)
			return &v[i];
	return NULL;
}

/*
 * Whether group's current shares already equal want (formatted by
 * kattr_rg_shares_format).  *old gets the current value as text: on RGCS
 * only the keys want sets, so that undo restores exactly those.
 */
static bool shares_equal(struct kattr_rg *rg, const char *group,
			 const char *want, char **old)
{
	struct kattr_rg_share *cur = NULL, w;
	const struct kattr_rg_share *c;
	bool same = false;
	unsigned int keys;
	size_t ncur = 0;
	int ret;

	ret = kattr_rg_shares_get(rg, group, &cur, &ncur);
	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot read the shares of '%s': %s",
			 TOOL_Q(group), rgctl_strerror(ret));
	kattr_rg_share_parse(kattr_rg_backend_of(rg), want, NULL, &w, &keys, NULL);
	/* RGCS: a controller not there is not equal (the write says why). */
	c = find_share(rg, cur, ncur, w.res);
	if (c && kattr_rg_backend_of(rg) != KATTR_RG_RGCS) {
		same = c->value == w.value;
		*old = share_value(rg, c, 0);
	} else if (c) {
		same = (!(keys & KATTR_RG_SHARE_MIN) || c->min_shares == w.min_shares) &&
		       (!(keys & KATTR_RG_SHARE_MAX) || c->max_shares == w.max_shares) &&
		       (!(keys & KATTR_RG_SHARE_DIVISOR) ||
			c->child_shares_divisor == w.child_shares_divisor);
		*old = share_value(rg, c, keys);
	}
	free(cur);
	return same;
}

static int by_depth(const void *a, const void *b)
{
	const struct kattr_rgconf_group *x = *(const struct kattr_rgconf_group *const *)a;
	const struct kattr_rgconf_group *y = *(const struct kattr_rgconf_group *const *)b;
	unsigned int dx = kattr_rg_name_depth(x->name);
	unsigned int dy = kattr_rg_name_depth(y->name);

	return dx != dy ? (dx < dy ? -1 : 1) : (x->line < y->line ? -1 : x->line > y->line);
}

/*
 * cgroup v2: the groups above g where cpu must be enabled for its shares
 * and no earlier step enables it already (planned), as text for the step
 * ("R/cgroup.subtree_control, ..."; "" when earlier steps enable all of
 * it), or NULL when cpu is there.  With no_enable, dies.
 */
static char *plan_enable(struct kattr_rg *rg, const struct kattr_rgconf *c,
			 const struct kattr_rgconf_group *g, bool no_enable,
			 struct kattr_rg_cpu_path *planned)
{
	struct kattr_rg_cpu_path miss;
	char *text = NULL, why[3 * 4096];
	size_t len = 0;
	int ret;

	ret = kattr_rg_cpu_missing(rg, g->name, &miss);
	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot read the cgroup.subtree_control files above '%s': %s",
			 TOOL_Q(g->name), rgctl_strerror(ret));
	if (miss.n && no_enable) {
		rgctl_cpu_why(rg, g->name, why, sizeof(why));
		tool_die(EXIT_FAIL, "%s:%u: groups: '%s' has shares but %s (--no-enable)",
			 g->file ? g->file : c->file, g->line, TOOL_Q(g->name), why);
	}
	for (size_t i = 0; i < miss.n; i++) {
		const char *f;
		bool seen = false;

		for (size_t k = 0; k < planned->n && !seen; k++)
			seen = strcmp(planned->groups[k], miss.groups[i]) == 0;
		if (seen)
			continue;
		f = rgctl_subtree_file(rg, miss.groups[i]);
		text = xreallocarray(text, len + strlen(f) + 3, 1);
		len += (size_t)sprintf(text + len, "%s%s", len ? ", " : "", f);
		planned->groups = xreallocarray(planned->groups, planned->n + 1,
						sizeof(char *));
		planned->groups[planned->n++] = xstrdup(miss.groups[i]);
	}
	/* "": cpu is missing but an earlier step enables it. */
	if (miss.n && !text)
		text = xstrdup("");
	kattr_rg_cpu_path_free(&miss);
	return text;
}

/* Free plan_groups()' own memory, then die with the message. */
__attribute__((noreturn, format(printf, 3, 4)))
static void plan_die(const struct kattr_rgconf_group **order,
		     struct kattr_rg_cpu_path *planned, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	free(order);
	kattr_rg_cpu_path_free(planned);
	tool_die(EXIT_FAIL, "%s", msg);
}

/* Creates and share changes, parents first; nothing is touched. */
static void plan_groups(struct kattr_rg *rg, const struct kattr_rgconf *c,
			bool no_enable, struct plan *p)
{
	const struct kattr_rgconf_group **order;
	struct kattr_rg_cpu_path planned = { 0 };
	char fmt[512];

	order = xcalloc(c->ngroups + 1, sizeof(*order));
	for (size_t i = 0; i < c->ngroups; i++)
		order[i] = &c->groups[i];
	qsort(order, c->ngroups, sizeof(*order), by_depth);
	for (size_t i = 0; i < c->ngroups; i++) {
		const struct kattr_rgconf_group *g = order[i];
		const char *why = "invalid";
		char *old = NULL, *enable = NULL;
		struct step *s;
		int ret;

		if (g->shares) {
			if (!kattr_rg_has_shares(rg))
				plan_die(order, &planned, "%s:%u: groups: '%s' has shares but %s",
					 g->file ? g->file : c->file, g->line, TOOL_Q(g->name),
					 rgctl_strerror(-EOPNOTSUPP));
			ret = kattr_rg_shares_format(kattr_rg_backend_of(rg), g->shares,
						     NULL, fmt, sizeof(fmt), &why);
			if (ret < 0)
				plan_die(order, &planned, "%s:%u: shares: '%s' is not valid for %s: %s",
					 g->file ? g->file : c->file, g->line, TOOL_Q(g->shares),
					 kattr_rg_backend_name(kattr_rg_backend_of(rg)), why);
			enable = plan_enable(rg, c, g, no_enable, &planned);
		}
		ret = kattr_rg_exists(rg, g->name);
		if (ret == -ENOENT) {
			s = plan_add(p, STEP_CREATE, g->name);
			s->want = g->shares ? xstrdup(g->shares) : NULL;
			s->line = g->line;
			s->enable = enable;
			continue;
		}
		if (ret < 0)
			plan_die(order, &planned, "cannot use group '%s': %s",
				 TOOL_Q(g->name), rgctl_strerror(ret));
		/* Without cpu above it the group has no cpu.weight to compare. */
		if (!g->shares || (!enable && shares_equal(rg, g->name, fmt, &old))) {
			free(old);
			free(enable);
			continue;
		}
		s = plan_add(p, STEP_SET, g->name);
		s->want = xstrdup(g->shares);
		s->old = old;
		s->line = g->line;
		s->enable = enable;
	}
	kattr_rg_cpu_path_free(&planned);
	free(order);
}

/* Resource changes, after every create and shares change. */
static void plan_res(struct kattr_rg *rg, const struct kattr_rgconf *c,
		     bool no_enable, struct plan *p)
{
	for (size_t i = 0; i < c->ngroups; i++) {
		const struct kattr_rgconf_group *g = &c->groups[i];
		struct rgctl_res_change ch;
		struct step *s;

		rgctl_res_plan(rg, c, g, kattr_rg_exists(rg, g->name) == -ENOENT, &ch);
		if (!ch.n)
			continue;
		s = plan_add(p, STEP_RES, g->name);
		s->res = ch;
		s->line = g->line;
		s->no_enable = no_enable;
	}
}

/* Whether a group below v[i] (later in the listing) is kept. */
static bool keeps_child(const struct kattr_rg_info *v, size_t n, size_t i,
			const bool *keep)
{
	size_t len = strlen(v[i].name);

	for (size_t j = i + 1; j < n; j++)
		if (keep[j] && strncmp(v[j].name, v[i].name, len) == 0 &&
		    v[j].name[len] == '/')
			return true;
	return false;
}

/*
 * Deletes of groups the file does not name, children first: only groups
 * rgctl created (owner.c), never one it did not, nor a parent of one.
 * The groups kept are named on stderr.
 */
static void plan_prune(struct kattr_rg *rg, const struct kattr_rgconf *c,
		       struct plan *p)
{
	struct kattr_rg_info *v = NULL;
	size_t n = 0, kept = 0;
	char names[512] = "";
	bool *keep;
	int ret;

	ret = kattr_rg_list(rg, "/", &v, &n);
	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot list the groups: %s", rgctl_strerror(ret));
	keep = xcalloc(n + 1, sizeof(*keep));
	/* The listing has parents before children: walk it backwards. */
	for (size_t i = n; i-- > 0;) {
		if (v[i].depth == 0 || kattr_rgconf_find_group(c, v[i].name))
			continue;
		if (!rgctl_own_is_ours(rg, v[i].name) || keeps_child(v, n, i, keep)) {
			keep[i] = true;
			if (kept++ < 8)
				snprintf(names + strlen(names), sizeof(names) - strlen(names),
					 "%s%s", kept > 1 ? ", " : "", TOOL_Q(v[i].name));
			continue;
		}
		plan_add(p, STEP_DELETE, v[i].name);
	}
	if (kept)
		tool_warn("--prune keeps %zu group%s rgctl did not create (or above one): %s%s",
			  kept, kept == 1 ? "" : "s", names, kept > 8 ? ", ..." : "");
	free(keep);
	kattr_rg_list_free(v, n);
}

static void step_text(const struct kattr_rg *rg, const struct step *s,
		      char *buf, size_t size)
{
	int n = 0;

	(void)rg;
	switch (s->kind) {
	case STEP_CREATE:
		if (s->want)
			n = snprintf(buf, size, "create %s shares=%s", TOOL_Q(s->group),
				     TOOL_Q(s->want));
		else
			n = snprintf(buf, size, "create %s", TOOL_Q(s->group));
		break;
	case STEP_SET:
		n = snprintf(buf, size, "set %s shares=%s (was %s)", TOOL_Q(s->group),
			     TOOL_Q(s->want), s->old ? TOOL_Q(s->old) :
			     s->enable ? "none: no cpu.weight" : "none");
		break;
	case STEP_DELETE:
		snprintf(buf, size, "delete %s", TOOL_Q(s->group));
		break;
	case STEP_RES:
		n = snprintf(buf, size, "set %s ", TOOL_Q(s->group));
		if (n > 0 && (size_t)n < size)
			rgctl_res_change_text(&s->res, buf + n, size - (size_t)n);
		n = (int)strlen(buf);
		break;
	}
	if (s->enable && *s->enable && n > 0 && (size_t)n < size)
		snprintf(buf + n, size - (size_t)n, ", enabling cpu in %s", s->enable);
}

/* "group/file" (or "file" for the root group). */
static void group_file(char *buf, size_t size, const char *group, const char *file)
{
	int n = kattr_rg_name_is_root(group) ?
		snprintf(buf, size, "%s", file ? file : ".") :
		snprintf(buf, size, "%s%s%s", group, file ? "/" : "", file ? file : "");

	if (n < 0 || (size_t)n >= size)
		tool_die(EXIT_FAIL, "group name too long: '%s'", TOOL_Q(group));
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
	return strncmp(name, "cpuacct.", 8) != 0 && !str_ends_with(name, ".pressure") &&
	       !str_ends_with(name, "failcnt") && !str_ends_with(name, "max_usage_in_bytes") &&
	       !str_ends_with(name, ".peak");
}

/* Save every writable setting of group into s->attrs. */
static int save_attrs(struct kattr_rg *rg, struct step *s)
{
	struct kattr_mount *m = kattr_rg_mount(rg);
	struct kattr_dirent *ents;
	char path[4096];
	size_t n;
	int ret;

	group_file(path, sizeof(path), s->group, NULL);
	ret = kattr_list(m, path, &ents, &n);
	if (ret < 0)
		return ret;
	s->attrs = xcalloc(n + 1, sizeof(*s->attrs));
	for (size_t i = 0; i < n && ret == 0; i++) {
		struct stat st;
		char *text;

		if (ents[i].type != DT_REG || !attr_is_setting(rg, ents[i].name))
			continue;
		group_file(path, sizeof(path), s->group, ents[i].name);
		if (kattr_stat(m, path, &st) < 0 || !(st.st_mode & S_IWUSR) ||
		    !(st.st_mode & S_IRUSR))
			continue;
		ret = kattr_read_alloc(m, path, &text, NULL);
		if (ret == -EINVAL || ret == -EOPNOTSUPP || ret == -EACCES) {
			ret = 0;	/* not readable: not a setting */
			continue;
		}
		if (ret < 0)
			break;
		str_rtrim(text);
		s->attrs[s->nattrs].file = xstrdup(ents[i].name);
		s->attrs[s->nattrs++].value = text;
	}
	kattr_list_free(ents, n);
	return ret;
}

/* Write one saved attribute back; 0 when it already holds the value. */
static int restore_attr(struct kattr_rg *rg, const char *group,
			const struct attr *a)
{
	struct kattr_mount *m = kattr_rg_mount(rg);
	char path[4096], *now = NULL, *line, *save = NULL, *copy;
	int ret;

	group_file(path, sizeof(path), group, a->file);
	ret = kattr_read_alloc(m, path, &now, NULL);
	if (ret < 0)
		return ret;
	str_rtrim(now);
	if (strcmp(now, a->value) == 0) {
		free(now);
		return 0;
	}
	free(now);
	if (kattr_rg_backend_of(rg) == KATTR_RG_RGCS) {
		/* One "res=..." line per controller, one write each. */
		copy = xstrdup(a->value);
		for (line = strtok_r(copy, "\n", &save); line && ret == 0;
		     line = strtok_r(NULL, "\n", &save))
			ret = kattr_write_str(m, path, line);
		free(copy);
		return ret;
	}
	if (strcmp(a->file, "cgroup.subtree_control") == 0) {
		/* Read as "cpu memory", written as "+cpu +memory". */
		char buf[1024] = "";
		size_t off = 0;

		copy = xstrdup(a->value);
		for (line = strtok_r(copy, " ", &save); line;
		     line = strtok_r(NULL, " ", &save))
			off += (size_t)snprintf(buf + off, off < sizeof(buf) ? sizeof(buf) - off : 0,
						"%s+%s", off ? " " : "", line);
		free(copy);
		return off && off < sizeof(buf) ? kattr_write_str(m, path, buf) : 0;
	}
	return kattr_write_str(m, path, a->value);
}

/*
 * Put a deleted group back as it was: make it, restore its attributes
 * (twice: one may depend on another, e.g. a quota on its period), then
 * its threads, each where it was.  What fails is noted.
 */
static void restore_group(struct kattr_rg *rg, const struct step *s,
			  struct notes *ns)
{
	int ret, *res, *err;

	ret = kattr_rg_exists(rg, s->group);
	if (ret == -ENOENT)
		ret = kattr_rg_create(rg, s->group, 0, NULL, NULL);
	if (ret < 0) {
		note(ns, "group '%s' could not be re-created: %s", TOOL_Q(s->group),
		     rgctl_strerror(ret));
		return;
	}
	ret = rgctl_own_mark(rg, s->group);
	if (ret < 0)
		note(ns, "group '%s' could not be marked as rgctl's again: %s",
		     TOOL_Q(s->group), rgctl_strerror(ret));
	err = xcalloc(s->nattrs + 1, sizeof(*err));
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < s->nattrs; i++)
			if (pass == 0 || err[i] < 0)
				err[i] = restore_attr(rg, s->group, &s->attrs[i]);
	for (size_t i = 0; i < s->nattrs; i++)
		if (err[i] < 0)
			note(ns, "'%s/%s' could not be set back to '%s': %s",
			     TOOL_Q(s->group), TOOL_Q(s->attrs[i].file),
			     TOOL_Q(s->attrs[i].value), tool_strerror(-err[i]));
	free(err);
	if (!s->ntids)
		return;
	res = xcalloc(s->ntids, sizeof(*res));
	/* One thread at a time (v1 tasks, RGCS members): each goes back. */
	ret = kattr_rg_attach(rg, s->group, s->tids, s->ntids, 0, res);
	if (ret < 0)
		note(ns, "the %zu threads of '%s' could not be put back: %s",
		     s->ntids, TOOL_Q(s->group), rgctl_strerror(ret));
	for (size_t i = 0; ret > 0 && i < s->ntids; i++)
		if (res[i] < 0 && res[i] != -ESRCH)	/* ESRCH: it ended, no loss */
			note(ns, "thread %d could not be put back in '%s': %s",
			     (int)s->tids[i], TOOL_Q(s->group), rgctl_strerror(res[i]));
	free(res);
}

static int do_step(struct kattr_rg *rg, struct step *s, const char **why)
{
	int ret;

	switch (s->kind) {
	case STEP_CREATE:
		return kattr_rg_create_enable(rg, s->group, KATTR_RG_ENABLE, s->want,
					      NULL, &s->done);
	case STEP_SET:
		ret = kattr_rg_cpu_enable(rg, s->group, &s->done);
		if (ret < 0)
			return ret;
		ret = kattr_rg_shares_set(rg, s->group, s->want, NULL, why);
		if (ret < 0)
			kattr_rg_cpu_undo(rg, &s->done);
		return ret;
	case STEP_DELETE:
		/* Save what the group holds, to put it back on undo. */
		ret = save_attrs(rg, s);
		if (ret < 0) {
			*why = "cannot save its attributes";
			return ret;
		}
		ret = kattr_rg_members(rg, s->group, KATTR_RG_THREADS, &s->tids,
				       &s->ntids);
		if (ret < 0) {
			*why = "cannot list its threads";
			return ret;
		}
		s->ino = rgctl_own_ino(rg, s->group);
		return kattr_rg_delete(rg, s->group, 0);
	case STEP_RES:
		return rgctl_res_change_do(rg, s->group, &s->res, false,
					   s->no_enable, why);
	}
	return -EINVAL;
}

/* Undo a done (or partly done) step; what fails is noted. */
static void undo_step(struct kattr_rg *rg, struct step *s, struct notes *ns)
{
	char text[1024];
	int ret = 0;

	switch (s->kind) {
	case STEP_CREATE:
		ret = kattr_rg_delete(rg, s->group, 0);
		if (ret == -ENOENT)
			ret = 0;
		if (ret == 0)	/* cpu enabled for it (cgroup v2) */
			ret = kattr_rg_cpu_undo(rg, &s->done);
		break;
	case STEP_SET:
		/* Where cpu was enabled for it, disabling it is the undo. */
		ret = s->old ? kattr_rg_shares_set(rg, s->group, s->old, NULL, NULL)
			     : s->enable ? 0 : -ENODATA;
		if (ret == 0)
			ret = kattr_rg_cpu_undo(rg, &s->done);
		break;
	case STEP_DELETE:
		restore_group(rg, s, ns);
		return;
	case STEP_RES:
		ret = rgctl_res_change_do(rg, s->group, &s->res, true,
					  s->no_enable, NULL);
		break;
	}
	if (ret < 0) {
		step_text(rg, s, text, sizeof(text));
		note(ns, "'%s' could not be undone: %s", text,
		     ret == -ENODATA ? "the old value is unknown" : rgctl_strerror(ret));
	}
}

/*
 * Take the apply lock of the hierarchy: an exclusive flock(2) on its root
 * directory, waiting up to wait_s seconds.  The fd stays open (and the
 * lock held) until rgctl exits.  0, or -1 with the reason said.
 */
static pid_t lock_holder(int fd);

static int lock_hierarchy(struct kattr_rg *rg, const char *file, unsigned int wait_s)
{
	struct timespec start, now;
	int fd;

	fd = kattr_rg_group_open(rg, "/", O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		tool_warn("cannot apply '%s': cannot open '%s' to lock it: %s; nothing was changed",
			  TOOL_Q(file), TOOL_Q(kattr_rg_root(rg)), tool_strerror(-fd));
		return -1;
	}
	clock_gettime(CLOCK_MONOTONIC, &start);
	while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		pid_t holder;

		if (errno == EINTR)
			continue;
		if (errno != EWOULDBLOCK) {
			tool_warn("cannot apply '%s': cannot lock '%s': %s; nothing was changed",
				  TOOL_Q(file), TOOL_Q(kattr_rg_root(rg)), tool_strerror(errno));
			close(fd);
			return -1;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - start.tv_sec >= (time_t)wait_s) {
			holder = lock_holder(fd);
			if (holder > 0)
				tool_warn("cannot apply '%s': another apply (pid %d) holds the lock on '%s' and did not finish within %u s; nothing was changed",
					  TOOL_Q(file), (int)holder, TOOL_Q(kattr_rg_root(rg)), wait_s);
			else
				tool_warn("cannot apply '%s': another apply holds the lock on '%s' and did not finish within %u s; nothing was changed",
					  TOOL_Q(file), TOOL_Q(kattr_rg_root(rg)), wait_s);
			close(fd);
			return -1;
		}
		usleep(20000);
	}
	return 0;
}

/* The pid holding a flock on fd's inode, from /proc/locks (0: unknown). */
static pid_t lock_holder(int fd)
{
	unsigned int maj, min;
	unsigned long long ino;
	struct stat st;
	char *text, *line, *save = NULL;
	pid_t holder = 0;

	if (fstat(fd, &st) < 0 || kattr_file_read("/proc/locks", &text, NULL) < 0)
		return 0;
	for (line = strtok_r(text, "\n", &save); line && !holder;
	     line = strtok_r(NULL, "\n", &save)) {
		int pid;

		if (strstr(line, "->"))
			continue;	/* a waiter */
		if (sscanf(line, "%*s FLOCK %*s %*s %d %x:%x:%llu", &pid, &maj, &min, &ino) == 4 &&
		    makedev(maj, min) == st.st_dev && ino == (unsigned long long)st.st_ino &&
		    pid != getpid())
			holder = pid;
	}
	free(text);
	return holder;
}

/*
 * After the last step: the groups must be what the file says.  Another
 * writer (not an apply: those wait for the lock) may have changed them.
 * Each difference is noted.
 */
static void verify_res(struct kattr_rg *rg, const struct kattr_rgconf *c,
		       const struct kattr_rgconf_group *g, struct notes *ns)
{
	struct rgctl_res_change ch;
	char text[2048];

	rgctl_res_plan(rg, c, g, false, &ch);
	if (ch.n) {
		rgctl_res_change_text(&ch, text, sizeof(text));
		note(ns, "group '%s' still needs %s", TOOL_Q(g->name), text);
	}
	rgctl_res_change_free(&ch);
}

static void verify(struct kattr_rg *rg, const struct kattr_rgconf *c, bool prune,
		   struct notes *ns)
{
	char fmt[512];

	for (size_t i = 0; i < c->ngroups; i++) {
		const struct kattr_rgconf_group *g = &c->groups[i];
		char *old = NULL;
		int ret = kattr_rg_exists(rg, g->name);

		if (ret < 0) {
			note(ns, "group '%s': %s", TOOL_Q(g->name), rgctl_strerror(ret));
			continue;
		}
		verify_res(rg, c, g, ns);
		if (!g->shares ||
		    kattr_rg_shares_format(kattr_rg_backend_of(rg), g->shares, NULL,
					   fmt, sizeof(fmt), NULL) < 0)
			continue;
		if (!shares_equal(rg, g->name, fmt, &old))
			note(ns, "group '%s' has shares %s, the file says %s", TOOL_Q(g->name),
			     old ? TOOL_Q(old) : "(none)", TOOL_Q(g->shares));
		free(old);
	}
	if (prune) {
		struct kattr_rg_info *v = NULL;
		size_t n = 0;
		int ret = kattr_rg_list(rg, "/", &v, &n);

		if (ret < 0)
			note(ns, "cannot list the groups: %s", rgctl_strerror(ret));
		for (size_t i = 0; ret == 0 && i < n; i++)
			if (v[i].depth && !kattr_rgconf_find_group(c, v[i].name) &&
			    rgctl_own_is_ours(rg, v[i].name))
				note(ns, "group '%s' exists but the file does not name it",
				     TOOL_Q(v[i].name));
		if (ret == 0)
			kattr_rg_list_free(v, n);
	}
}

/* Load the file or die with the parser's FILE:LINE message. */
static struct kattr_rgconf *load(const char *file)
{
	struct kattr_rgconf *c = NULL;
	char err[1024];
	int ret;

	ret = kattr_rgconf_parse_file(file, &c, err, sizeof(err));
	if (ret == -EOPNOTSUPP)
		tool_die(EXIT_FAIL, "rgctl was built without libconfig: configuration files are not supported");
	if (ret < 0)
		tool_die(EXIT_FAIL, "%s", err);
	ret = kattr_rgconf_resolve(c, err, sizeof(err));
	if (ret < 0)
		tool_die(EXIT_FAIL, "%s", err);
	return c;
}

void rgctl_rgd_set_backend(struct rgctl *ctx, const struct kattr_rgconf *c)
{
	enum kattr_rg_backend b;

	if (!c->backend)
		return;
	if (kattr_rg_backend_parse(c->backend, &b) < 0)
		tool_die(EXIT_FAIL, "%s: unknown backend '%s'", c->file,
			 TOOL_Q(c->backend));
	if (ctx->backend != KATTR_RG_AUTO && ctx->backend != b)
		tool_die(EXIT_FAIL, "%s names backend %s but --backend is %s", c->file,
			 c->backend, kattr_rg_backend_name(ctx->backend));
	ctx->backend = b;
}

struct kattr_rgconf *rgctl_rgd_load(struct rgctl *ctx, const char *file)
{
	struct kattr_rgconf *c = load(file);

	rgctl_rgd_set_backend(ctx, c);
	return c;
}

/* A --wait or fault-hook number: plain decimal, at most max. */
static bool parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	unsigned long long v;

	if (str_parse_uint(s, max, "+", &v, NULL) < 0)
		return false;
	*out = (unsigned long)v;
	return true;
}

static void print_notes(const struct notes *ns)
{
	for (size_t i = 0; i < ns->n; i++)
		tool_warn("  %s", ns->v[i]);
}

/*
 * Step i (0-based) failed; done of the steps are done (i, or i + 1 when
 * the failed one did part of its work).  Undo them, last first, and say
 * what the hierarchy is now.
 */
static void roll_back(struct kattr_rg *rg, struct plan *p, size_t done)
{
	struct notes ns = { 0 };
	unsigned long fail_undo = 0;

	if (!parse_uint(getenv(FAIL_UNDO_ENV), ~0UL, &fail_undo))
		fail_undo = 0;
	for (size_t k = done; k-- > 0;) {
		char text[1024];

		if (k + 1 == fail_undo) {
			step_text(rg, &p->v[k], text, sizeof(text));
			note(&ns, "'%s' could not be undone: failure injected by " FAIL_UNDO_ENV,
			     text);
			continue;
		}
		undo_step(rg, &p->v[k], &ns);
	}
	if (done == 0)
		tool_warn("nothing was changed");
	else if (ns.n == 0)
		tool_warn("undid the %zu change%s already made: nothing changed",
			  done, done == 1 ? "" : "s");
	else {
		tool_warn("undid the %zu change%s already made, except what follows: the groups are NOT as before",
			  done, done == 1 ? "" : "s");
		print_notes(&ns);
	}
	notes_free(&ns);
}

/* Each step of the plan, one line each. */
static void print_steps(struct kattr_rg *rg, const struct plan *p)
{
	char text[1024];

	for (size_t i = 0; i < p->n; i++) {
		step_text(rg, &p->v[i], text, sizeof(text));
		printf("%s\n", text);
	}
}

/*
 * --json: the plan as one object, for scripts and configuration managers
 * ("changed" is changes > 0): {"file", "dry_run", "changes", "steps":
 * [{"action": "create"|"set"|"delete", "group", "shares" (create, set),
 * "old" (set), "line" (in the file; not for delete), "text" (the text
 * line)}]}.
 */
static void print_plan_json(struct kattr_rg *rg, const struct plan *p,
			    const char *file, bool dry_run)
{
	static const char *const action[] = {
		[STEP_CREATE] = "create", [STEP_SET] = "set", [STEP_DELETE] = "delete",
	};
	json_object *o = json_object_new_object(), *steps = json_object_new_array();
	char text[1024];

	json_object_object_add(o, "file", tool_json_str(file));
	json_object_object_add(o, "dry_run", json_object_new_boolean(dry_run));
	json_object_object_add(o, "changes", json_object_new_int64((int64_t)p->n));
	for (size_t i = 0; i < p->n; i++) {
		const struct step *st = &p->v[i];
		json_object *j = json_object_new_object();

		step_text(rg, st, text, sizeof(text));
		json_object_object_add(j, "action", json_object_new_string(action[st->kind]));
		json_object_object_add(j, "group", tool_json_str(st->group));
		if (st->want)
			json_object_object_add(j, "shares", tool_json_str(st->want));
		if (st->kind == STEP_SET && st->old)
			json_object_object_add(j, "old", tool_json_str(st->old));
		if (st->kind != STEP_DELETE)
			json_object_object_add(j, "line", json_object_new_int64(st->line));
		json_object_object_add(j, "text", tool_json_str(text));
		json_object_array_add(steps, j);
	}
	json_object_object_add(o, "steps", steps);
	rgctl_json_print(o);
}

/*
 * Print what was done.  The changes are made: if stdout cannot take the
 * report (a full disk, a closed pipe), say so on stderr rather than let
 * a bare write error suggest that apply failed.
 */
static void report(struct kattr_rg *rg, const struct plan *p, const char *file,
		   bool json)
{
	signal(SIGPIPE, SIG_IGN);
	if (json)
		print_plan_json(rg, p, file, false);
	else {
		print_steps(rg, p);
		printf("%zu change%s\n", p->n, p->n == 1 ? "" : "s");
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		int e = errno;

		tool_warn("'%s' was applied (%zu change%s made), but the report could not be written to standard output: %s",
			  TOOL_Q(file), p->n, p->n == 1 ? "" : "s",
			  e ? tool_strerror(e) : "write error");
		fflush(stderr);
		_exit(EXIT_FAIL);
	}
}

/*
 * The words for step i's failure (err): where enabling cpu refused, or
 * why a deletion's tasks could not move; NULL: the cause is err's.
 */
static const char *step_why(struct kattr_rg *rg, const struct step *s, int err,
			    const char *why, char *buf, size_t size)
{
	const char *g = s->done.failed;

	if (g) {
		snprintf(buf, size, err == -EBUSY && !kattr_rg_name_is_root(g) ?
			 "cannot enable cpu in %s: group '%s' has member processes "
			 "and child groups with processes (cgroup v2 then enables no "
			 "controller for its children)" : "cannot enable cpu in %s%.0s",
			 rgctl_subtree_file(rg, g), TOOL_Q(g));
		why = buf;
		if (err != -EBUSY || kattr_rg_name_is_root(g))
			snprintf(buf + strlen(buf), size - strlen(buf), ": %s",
				 rgctl_strerror(err));
	}
	if (s->kind == STEP_DELETE && err == -EBUSY)
		why = "its tasks could not move to the parent: on cgroup v2 "
		      "a group with a controller enabled for populated "
		      "children holds no processes, and rgctl moves no task "
		      "above its root";
	return why;
}

/*
 * Step i (0-based) with the fault hooks: 0 or -errno, *why the words,
 * *done how many steps to undo if it failed.
 */
static int run_step(struct kattr_rg *rg, struct plan *p, size_t i,
		    const char **why, size_t *done)
{
	const char *env = getenv(FAIL_STEP_ENV);
	unsigned long fail_at = 0;
	bool after = false;
	int ret;

	if (parse_uint(env, ~0UL, &fail_at))
		after = strchr(env, '+') != NULL;
	*done = i;
	if (i + 1 == fail_at && !after) {
		*why = "failure injected by " FAIL_STEP_ENV;
		return -EIO;
	}
	ret = do_step(rg, &p->v[i], why);
	if (ret == 0 && i + 1 == fail_at) {
		ret = -EIO;
		*why = "failure injected by " FAIL_STEP_ENV " after the step";
	}
	/* A failed deletion may have moved threads out: undo it too. */
	if (ret < 0 && (p->v[i].kind == STEP_DELETE || i + 1 == fail_at))
		*done = i + 1;
	if (ret == 0 && p->v[i].kind == STEP_CREATE &&
	    (ret = rgctl_own_mark(rg, p->v[i].group)) < 0) {
		*why = "cannot mark it as made by rgctl";
		*done = i + 1;
	}
	return ret;
}

/* Every step in order; on a failure, the message and the roll-back. */
static int run_steps(struct kattr_rg *rg, struct plan *p, const char *file)
{
	char busy[PATH_MAX + 256], text[1024];

	for (size_t i = 0; i < p->n; i++) {
		const char *why = NULL;
		size_t done;
		int ret = run_step(rg, p, i, &why, &done);

		if (ret == 0)
			continue;
		why = step_why(rg, &p->v[i], ret, why, busy, sizeof(busy));
		step_text(rg, &p->v[i], text, sizeof(text));
		tool_warn("cannot apply '%s': step %zu of %zu (%s) failed: %s",
			  TOOL_Q(file), i + 1, p->n, text,
			  why ? why : rgctl_strerror(ret));
		roll_back(rg, p, done);
		return ret;
	}
	return 0;
}

struct apply_opts {
	bool dry_run, prune, no_enable;
	unsigned long wait_s;
};

/* apply's options; optind is then FILE's index. */
static void apply_options(int argc, char **argv, struct apply_opts *o)
{
	int opt;

	o->wait_s = LOCK_WAIT_DEFAULT;
	optind = 0;
	while ((opt = rgctl_getopt(&rgctl_cmd_apply, argc, argv)) != -1) {
		switch (opt) {
		case 'n':
			o->dry_run = true;
			break;
		case OPT_PRUNE:
			o->prune = true;
			break;
		case OPT_NO_ENABLE:
			o->no_enable = true;
			break;
		case OPT_WAIT:
			if (!parse_uint(optarg, 86400, &o->wait_s) || strchr(optarg, '+'))
				rgctl_cmd_usage(&rgctl_cmd_apply,
						"--wait takes whole seconds, 0 to 86400");
			break;
		}
	}
	if (argc - optind != 1)
		rgctl_cmd_usage(&rgctl_cmd_apply, "give exactly one FILE");
}

static int run_apply(struct rgctl *ctx, int argc, char **argv)
{
	struct apply_opts o = { 0 };
	struct notes ns = { 0 };
	struct kattr_rgconf *c;
	struct plan p = { 0 };
	struct kattr_rg *rg;
	size_t i;
	int ret;

	apply_options(argc, argv, &o);
	rgctl_own_context("apply", argv[optind]);
	c = rgctl_rgd_load(ctx, argv[optind]);
	rg = rgctl_rg(ctx);
	/* Plan under the lock: what another apply did is seen. */
	/* a failure frees what it loaded before exiting (LeakSanitizer) */
	if (!o.dry_run && lock_hierarchy(rg, argv[optind], (unsigned int)o.wait_s) < 0) {
		kattr_rgconf_free(c);
		return EXIT_FAIL;
	}
	plan_groups(rg, c, o.no_enable, &p);
	plan_res(rg, c, o.no_enable, &p);
	if (o.prune)
		plan_prune(rg, c, &p);
	/* systemd: every step inside a delegated subtree (or --force). */
	for (i = 0; i < p.n; i++) {
		rgctl_sd_check(ctx, p.v[i].group, p.v[i].kind == STEP_CREATE ?
			       RGCTL_SD_CREATE : p.v[i].kind == STEP_SET ||
			       p.v[i].kind == STEP_RES ?
			       RGCTL_SD_SHARES : RGCTL_SD_DELETE);
		if (p.v[i].enable && *p.v[i].enable)
			rgctl_sd_check_enable(ctx, p.v[i].group);
	}
	if (o.dry_run && ctx->json)
		print_plan_json(rg, &p, argv[optind], true);
	else if (o.dry_run) {
		print_steps(rg, &p);
		printf("%zu change%s (dry run: nothing done)\n", p.n, p.n == 1 ? "" : "s");
	}
	if (o.dry_run) {
		plan_free(&p);
		kattr_rgconf_free(c);
		return EXIT_OK;
	}
	if (run_steps(rg, &p, argv[optind]) < 0) {
		plan_free(&p);
		kattr_rgconf_free(c);
		return EXIT_FAIL;
	}
	for (i = 0; i < p.n; i++)
		if (p.v[i].kind == STEP_DELETE)
			rgctl_own_drop(rg, p.v[i].ino);
	verify(rg, c, o.prune, &ns);
	report(rg, &p, argv[optind], ctx->json);
	for (i = 0; i < p.n; i++)
		rgctl_cpu_report(rg, &p.v[i].done);
	if (ns.n) {
		tool_warn("'%s' was applied, but the groups do not match it now (changed by something other than apply?):",
			  TOOL_Q(argv[optind]));
		print_notes(&ns);
	}
	plan_free(&p);
	kattr_rgconf_free(c);
	ret = ns.n ? EXIT_FAIL : EXIT_OK;
	notes_free(&ns);
	return ret;
}

/*
 * Print the formatted file, each group rgctl made followed by a comment
 * "# made by rgctl" (the groups apply --prune may delete).  The groups
 * are one per line, "  { name = ...", in c's order.
 */
static void dump_print(struct kattr_rg *rg, const struct kattr_rgconf *c,
		       const char *text)
{
	size_t k = 0;

	for (const char *l = text; *l;) {
		const char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);
		bool mark = false;

		if (k < c->ngroups && strncmp(l, "  { name = ", 11) == 0)
			mark = rgctl_own_is_ours(rg, c->groups[k++].name);
		printf("%.*s%s%s", (int)len, l, mark ? "  # made by rgctl" : "",
		       nl ? "\n" : "");
		l += len + (nl ? 1 : 0);
	}
}

static int run_dump(struct rgctl *ctx, int argc, char **argv)
{
	struct kattr_rgconf c = { .file = (char *)"dump" };
	struct kattr_rg_info *v = NULL;
	struct kattr_rg *rg;
	size_t n = 0, left = 0;
	char *text;
	int ret;

	rgctl_no_options(&rgctl_cmd_dump, argc, argv);
	if (argc - optind != 0)
		rgctl_cmd_usage(&rgctl_cmd_dump, "takes no operand");
	rg = rgctl_rg(ctx);
	ret = kattr_rg_list(rg, "/", &v, &n);
	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot list the groups: %s", rgctl_strerror(ret));
	c.backend = (char *)kattr_rg_backend_name(kattr_rg_backend_of(rg));
	c.groups = xcalloc(n + 1, sizeof(*c.groups));
	for (size_t i = 0; i < n; i++) {
		struct kattr_rgconf_group *g;
		const char *why;

		if (v[i].depth == 0)
			continue;
		if (kattr_name_check(v[i].name, &why) < 0) {
			/* made by another tool; apply could not name it */
			if (!left++)
				tool_warn("dump: left out '%s' (%s) and any other group whose name "
					  "rgctl cannot use; apply leaves such groups alone",
					  TOOL_Q(v[i].name), why);
			continue;
		}
		g = &c.groups[c.ngroups++];
		g->name = v[i].name;
		for (size_t k = 0; k < v[i].nr_shares && !g->shares; k++)
			if (kattr_rg_backend_of(rg) != KATTR_RG_RGCS ||
			    strcmp(v[i].shares[k].res, "cpu") == 0)
				g->shares = share_value(rg, &v[i].shares[k],
							KATTR_RG_SHARE_ALL);
		rgctl_res_dump(rg, g->name, &g->res, &g->nres);
	}
	text = kattr_rgconf_format(&c);
	if (!text)
		xalloc_die();
	dump_print(rg, &c, text);
	if (left)
		printf("# left out: %zu group%s whose names rgctl cannot use (see the warning)\n",
		       left, left == 1 ? "" : "s");
	free(text);
	for (size_t i = 0; i < c.ngroups; i++) {
		free(c.groups[i].shares);
		for (size_t k = 0; k < c.groups[i].nres; k++)
			free(c.groups[i].res[k]);
		free(c.groups[i].res);
	}
	free(c.groups);
	kattr_rg_list_free(v, n);
	return EXIT_OK;
}
