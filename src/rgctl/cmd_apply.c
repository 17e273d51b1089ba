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
 *
 * The plan, verify, the run, its undo and the lock are the library's
 * (lib/rgconf/plan_build.c, plan.c, kattr/rgplan.h); here: the options, the
 * signals (SIGINT, SIGTERM, SIGHUP, SIGPIPE stop the run between two
 * steps and what was done is undone), and every message.
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
#include "kattr/rgplan.h"
#include "rgctl.h"
#include "rgctl_cpu.h"
#include "rgctl_plan.h"
#include "rgctl_res.h"
#include "rgctl_conf.h"
#include "rgctl_systemd.h"
#include "strutils.h"
#include "xalloc.h"

static int run_apply(struct rgctl *ctx, int argc, char **argv);
static int run_dump(struct rgctl *ctx, int argc, char **argv);

enum { OPT_DRY_RUN = OPT_CMD_FIRST, OPT_PRUNE, OPT_WAIT, OPT_NO_UNDO };
static const struct option apply_opts[] = {
	{ "dry-run", no_argument,       NULL, 'n' },
	{ "prune",   no_argument,       NULL, OPT_PRUNE },
	{ "no-enable", no_argument,     NULL, OPT_NO_ENABLE },
	{ "wait",    required_argument, NULL, OPT_WAIT },
	{ "no-undo", no_argument,       NULL, OPT_NO_UNDO },
	{ "help",    no_argument,       NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};
static const char *const apply_help[] = {
	"-n, --dry-run", "Print the plan and change nothing.",
	"    --prune", "Also delete groups the file does not name (members go to the parent).",
	"    --no-enable", "On cgroup v2, refuse instead of enabling cpu where shares are set.",
	"    --wait SECONDS", "Wait up to SECONDS (0 to 86400) for another apply's lock.",
	"    --no-undo", "On a failure or a signal, keep the changes already made.",
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

/* How long a second apply waits for the lock by default (seconds). */
#define LOCK_WAIT_DEFAULT 30

/* One share as text the backend accepts back (for undo and dump). */
static char *share_value(const struct kattr_rg *rg, const struct kattr_rg_share *s,
			 unsigned int keys)
{
	char buf[256];

	kattr_rg_share_text(kattr_rg_backend_of(rg), s, keys, buf, sizeof(buf));
	return xstrdup(buf);
}

/* The file and line g is at. */
static const char *g_file(const struct kattr_rgconf *c, const struct kattr_rgconf_group *g)
{
	return g->file ? g->file : c->file;
}

/* A resource of g the planner refused: its words, into buf. */
static void res_fail_text(const struct kattr_rgplan_fail *f, char *buf, size_t size)
{
	switch (f->kind) {
	case KATTR_RGPLAN_FAIL_RES_PARSE:
		snprintf(buf, size, "'%s': %s", TOOL_Q(f->g->res[f->res]), f->why);
		break;
	case KATTR_RGPLAN_FAIL_RES_RESOLVE:
		snprintf(buf, size, "%s: %s: %s", f->key, f->dev, tool_strerror(-f->err));
		break;
	case KATTR_RGPLAN_FAIL_RES_WHERE:
		snprintf(buf, size, "cannot set %s: %s", f->key,
			 f->why ? f->why : tool_strerror(-f->err));
		break;
	case KATTR_RGPLAN_FAIL_RES_READ:
		snprintf(buf, size, "cannot read %s: %s", f->key, tool_strerror(-f->err));
		break;
	default:	/* KATTR_RGPLAN_FAIL_RES_OPEN */
		snprintf(buf, size, "%s", rgctl_strerror(f->err));
		break;
	}
}

/* Why the planner (or verify) stopped, said; exits 1. */
__attribute__((noreturn))
static void plan_fail(struct kattr_rg *rg, const struct kattr_rgconf *c,
		      const struct kattr_rgplan_fail *f)
{
	const struct kattr_rgconf_group *g = f->g;
	char why[3 * 4096];

	switch (f->kind) {
	case KATTR_RGPLAN_FAIL_NOMEM:
		xalloc_die();
	case KATTR_RGPLAN_FAIL_NO_SHARES:
		tool_die(EXIT_FAIL, "%s:%u: groups: '%s' has shares but %s", g_file(c, g),
			 g->line, TOOL_Q(g->name), rgctl_strerror(f->err));
	case KATTR_RGPLAN_FAIL_SHARES:
		tool_die(EXIT_FAIL, "%s:%u: shares: '%s' is not valid for %s: %s",
			 g_file(c, g), g->line, TOOL_Q(g->shares),
			 kattr_rg_backend_name(kattr_rg_backend_of(rg)), f->why);
	case KATTR_RGPLAN_FAIL_CPU_READ:
		tool_die(EXIT_FAIL, "cannot read the cgroup.subtree_control files above '%s': %s",
			 TOOL_Q(g->name), rgctl_strerror(f->err));
	case KATTR_RGPLAN_FAIL_NO_ENABLE:
		rgctl_cpu_why(rg, g->name, why, sizeof(why));
		tool_die(EXIT_FAIL, "%s:%u: groups: '%s' has shares but %s (--no-enable)",
			 g_file(c, g), g->line, TOOL_Q(g->name), why);
	case KATTR_RGPLAN_FAIL_GROUP:
		tool_die(EXIT_FAIL, "cannot use group '%s': %s", TOOL_Q(g->name),
			 rgctl_strerror(f->err));
	case KATTR_RGPLAN_FAIL_SHARES_READ:
		tool_die(EXIT_FAIL, "cannot read the shares of '%s': %s", TOOL_Q(g->name),
			 rgctl_strerror(f->err));
	case KATTR_RGPLAN_FAIL_LIMITS:
		tool_die(EXIT_FAIL, "cannot read the machine's memory and CPUs: %s",
			 tool_strerror(-f->err));
	case KATTR_RGPLAN_FAIL_LIST:
		tool_die(EXIT_FAIL, "cannot list the groups: %s", rgctl_strerror(f->err));
	default:
		res_fail_text(f, why, sizeof(why));
		tool_die(EXIT_FAIL, "%s:%u: group '%s': %s", g_file(c, g), g->line,
			 TOOL_Q(g->name), why);
	}
}

static bool own_is_ours(void *arg, struct kattr_rg *rg, const char *group)
{
	(void)arg;
	return rgctl_own_is_ours(rg, group);
}

/*
 * The plan (kattr_rgplan_build()): creates and share changes, resource
 * changes, deletions (--prune); nothing is touched.  The groups --prune
 * keeps are named on stderr.  Dies with the planner's reason.
 */
static void plan_build(struct kattr_rg *rg, const struct kattr_rgplan_conf *pc,
		       struct kattr_rgplan *p)
{
	struct kattr_rgplan_info info;
	char names[512] = "";
	size_t kept;

	if (kattr_rgplan_build(rg, pc, p, &info) < 0) {
		kattr_rgplan_free(p);
		kattr_rgplan_info_free(&info);
		plan_fail(rg, pc->conf, &info.fail);
	}
	kept = info.nkept;
	for (size_t i = 0; i < kept && i < 8; i++)
		snprintf(names + strlen(names), sizeof(names) - strlen(names),
			 "%s%s", i ? ", " : "", TOOL_Q(info.kept[i]));
	if (kept)
		tool_warn("--prune keeps %zu group%s rgctl did not create (or above one): %s%s",
			  kept, kept == 1 ? "" : "s", names, kept > 8 ? ", ..." : "");
	kattr_rgplan_info_free(&info);
}

/* A step's enable (the groups, one per line) as "R/cgroup.subtree_control, ...". */
static void enable_text(struct kattr_rg *rg, const char *enable, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (const char *l = enable; *l && len < size;) {
		size_t n = strcspn(l, "\n");
		char group[4096];

		snprintf(group, sizeof(group), "%.*s", (int)n, l);
		len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? ", " : "",
					rgctl_subtree_file(rg, group));
		l += n + (l[n] == '\n');
	}
}

static void step_text(struct kattr_rg *rg, const struct kattr_rgplan_step *s,
		      char *buf, size_t size)
{
	char enable[3 * 4096];
	int n = 0;

	switch (s->kind) {
	case KATTR_RGPLAN_CREATE:
		if (s->want)
			n = snprintf(buf, size, "create %s shares=%s", TOOL_Q(s->group),
				     TOOL_Q(s->want));
		else
			n = snprintf(buf, size, "create %s", TOOL_Q(s->group));
		break;
	case KATTR_RGPLAN_SET:
		n = snprintf(buf, size, "set %s shares=%s (was %s)", TOOL_Q(s->group),
			     TOOL_Q(s->want), s->old ? TOOL_Q(s->old) :
			     s->enable ? "none: no cpu.weight" : "none");
		break;
	case KATTR_RGPLAN_DELETE:
		snprintf(buf, size, "delete %s", TOOL_Q(s->group));
		break;
	case KATTR_RGPLAN_RES:
		n = snprintf(buf, size, "set %s ", TOOL_Q(s->group));
		if (n > 0 && (size_t)n < size)
			rgctl_res_change_text(&s->res, buf + n, size - (size_t)n);
		n = (int)strlen(buf);
		break;
	}
	if (s->enable && *s->enable && n > 0 && (size_t)n < size) {
		enable_text(rg, s->enable, enable, sizeof(enable));
		snprintf(buf + n, size - (size_t)n, ", enabling cpu in %s", enable);
	}
}

/*
 * After the last step: the groups must be what the file says.  Another
 * writer (not an apply: those wait for the lock) may have changed them.
 * The differences into d (kattr_rgplan_verify()); dies when the groups
 * cannot be read.
 */
static void verify(struct kattr_rg *rg, const struct kattr_rgplan_conf *pc,
		   struct kattr_rgplan_diffs *d)
{
	struct kattr_rgplan_fail f;

	if (kattr_rgplan_verify(rg, pc, d, &f) < 0) {
		kattr_rgplan_diffs_free(d);
		plan_fail(rg, pc->conf, &f);
	}
}

/* Each difference verify found, one line each on stderr. */
static void print_diffs(const struct kattr_rgplan_diffs *d, const char *file)
{
	char text[2048];

	if (d->n)
		tool_warn("'%s' was applied, but the groups do not match it now (changed by something other than apply?):",
			  TOOL_Q(file));
	for (size_t i = 0; i < d->n; i++) {
		const struct kattr_rgplan_diff *x = &d->v[i];

		switch (x->kind) {
		case KATTR_RGPLAN_DIFF_GROUP:
			tool_warn("  group '%s': %s", TOOL_Q(x->g->name), rgctl_strerror(x->err));
			break;
		case KATTR_RGPLAN_DIFF_RES:
			rgctl_res_change_text(&x->res, text, sizeof(text));
			tool_warn("  group '%s' still needs %s", TOOL_Q(x->g->name), text);
			break;
		case KATTR_RGPLAN_DIFF_SHARES:
			tool_warn("  group '%s' has shares %s, the file says %s",
				  TOOL_Q(x->g->name), x->have ? TOOL_Q(x->have) : "(none)",
				  TOOL_Q(x->g->shares));
			break;
		case KATTR_RGPLAN_DIFF_LIST:
			tool_warn("  cannot list the groups: %s", rgctl_strerror(x->err));
			break;
		case KATTR_RGPLAN_DIFF_EXTRA:
			tool_warn("  group '%s' exists but the file does not name it",
				  TOOL_Q(x->group));
			break;
		}
	}
}

/* A --wait number: plain decimal, at most max. */
static bool parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	unsigned long long v;

	if (str_parse_uint(s, max, "+", &v, NULL) < 0)
		return false;
	*out = (unsigned long)v;
	return true;
}

/* Each step of the plan, one line each. */
static void print_steps(struct kattr_rg *rg, const struct kattr_rgplan *p)
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
 * "old" (set), "resources" (a set of resources: [{"key", "value", "old"}]),
 * "line" (in the file; not for delete), "text" (the text line)}]}.
 */
/* A resource step's values: [{"key", "value", "old" (not for a new group)}]. */
static json_object *res_json(const struct kattr_rgplan_res *ch)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < ch->n; i++) {
		json_object *r = json_object_new_object();
		char w[1024], o[1024];

		kattr_rgres_text(&ch->want[i], w, sizeof(w));
		json_object_object_add(r, "key", json_object_new_string(ch->want[i].res->key));
		json_object_object_add(r, "value", tool_json_str(w));
		if (!ch->fresh && !ch->old[i].unset) {
			kattr_rgres_text(&ch->old[i], o, sizeof(o));
			json_object_object_add(r, "old", tool_json_str(o));
		}
		json_object_array_add(a, r);
	}
	return a;
}

static void print_plan_json(struct kattr_rg *rg, const struct kattr_rgplan *p,
			    const char *file, bool dry_run)
{
	static const char *const action[] = {
		[KATTR_RGPLAN_CREATE] = "create", [KATTR_RGPLAN_SET] = "set", [KATTR_RGPLAN_DELETE] = "delete",
		[KATTR_RGPLAN_RES] = "set",
	};
	json_object *o = json_object_new_object(), *steps = json_object_new_array();
	char text[1024];

	json_object_object_add(o, "file", tool_json_str(file));
	json_object_object_add(o, "dry_run", json_object_new_boolean(dry_run));
	json_object_object_add(o, "changes", json_object_new_int64((int64_t)p->n));
	for (size_t i = 0; i < p->n; i++) {
		const struct kattr_rgplan_step *st = &p->v[i];
		json_object *j = json_object_new_object();

		step_text(rg, st, text, sizeof(text));
		json_object_object_add(j, "action", json_object_new_string(action[st->kind]));
		json_object_object_add(j, "group", tool_json_str(st->group));
		if (st->want)
			json_object_object_add(j, "shares", tool_json_str(st->want));
		if (st->kind == KATTR_RGPLAN_SET && st->old)
			json_object_object_add(j, "old", tool_json_str(st->old));
		if (st->kind == KATTR_RGPLAN_RES)
			json_object_object_add(j, "resources", res_json(&st->res));
		if (st->kind != KATTR_RGPLAN_DELETE)
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
static void report(struct kattr_rg *rg, const struct kattr_rgplan *p, const char *file,
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
static const char *step_why(struct kattr_rg *rg, const struct kattr_rgplan_step *s, int err,
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
	if (s->kind == KATTR_RGPLAN_DELETE && err == -EBUSY)
		why = "its tasks could not move to the parent: on cgroup v2 "
		      "a group with a controller enabled for populated "
		      "children holds no processes, and rgctl moves no task "
		      "above its root";
	return why;
}


/* ---- the run: signals, the lock, the result ------------------------------- */

/* One line for each thing undo could not restore (planrun.c). */
static void print_undo_notes(struct kattr_rg *rg, const struct kattr_rgplan *p,
			     const struct kattr_rgplan_result *r)
{
	rgctl_plan_notes(rg, p, r, step_text);
}

/* After a failed step: what was undone (or kept), in one line. */
static void say_undone(struct kattr_rg *rg, const struct kattr_rgplan *p,
		       const struct kattr_rgplan_result *r, bool no_undo)
{
	size_t d = r->done;

	if (d == 0)
		tool_warn("nothing was changed");
	else if (no_undo)
		tool_warn("kept the %zu change%s already made (--no-undo)", d,
			  d == 1 ? "" : "s");
	else if (r->nnotes == 0)
		tool_warn("undid the %zu change%s already made: nothing changed",
			  d, d == 1 ? "" : "s");
	else {
		tool_warn("undid the %zu change%s already made, except what follows: the groups are NOT as before",
			  d, d == 1 ? "" : "s");
		print_undo_notes(rg, p, r);
	}
}

/* After a stop by a signal: what was undone (or kept), in one line. */
static void say_interrupted(struct kattr_rg *rg, const struct kattr_rgplan *p,
			    const struct kattr_rgplan_result *r, bool no_undo)
{
	const char *sig = rgctl_sig_name(r->stopped);
	size_t d = r->done;

	if (no_undo)
		tool_warn("apply: interrupted by %s: %zu change%s kept (--no-undo), %zu not made",
			  sig, d, d == 1 ? "" : "s", p->n - d);
	else if (r->nnotes == 0)
		tool_warn("apply: interrupted by %s: %zu change%s undone, the groups are as before",
			  sig, d, d == 1 ? "" : "s");
	else {
		tool_warn("apply: interrupted by %s: %zu change%s undone except what follows: the groups are NOT as before",
			  sig, d, d == 1 ? "" : "s");
		print_undo_notes(rg, p, r);
	}
}

/*
 * Every step in order (kattr_rgplan_run()).  0 when all are done, else
 * the exit status, the message said: 1 for a failed step, 128 + the
 * signal when one stopped the run or came during the undo.
 */
static int run_steps(struct kattr_rg *rg, struct kattr_rgplan *p, const char *file,
		     bool no_undo)
{
	struct kattr_rgplan_result r;
	struct kattr_rgplan_ops ops;
	char busy[PATH_MAX + 256], text[1024];
	const char *why;
	int ret, status = EXIT_FAIL;

	rgctl_plan_ops(&ops);
	/* the plan on record before the first change */
	status = rgctl_journal_begin(rg, "apply", p, &ops.journal);
	if (status)
		return status;
	status = EXIT_FAIL;
	ret = kattr_rgplan_run(rg, p, &ops, no_undo ? KATTR_RGPLAN_NO_UNDO : 0, &r);
	/* all done, undone or kept: the run is over */
	rgctl_journal_end(ops.journal);
	if (ret == -EINTR && r.stopped) {
		say_interrupted(rg, p, &r, no_undo);
		status = 128 + r.stopped;
		if (rgctl_stop_sig2())
			tool_warn("apply: %s came during the undo: honoured now that it is done",
				  rgctl_sig_name(rgctl_stop_sig2()));
	} else if (ret < 0) {
		const struct kattr_rgplan_step *s = &p->v[r.failed];

		why = step_why(rg, s, ret, r.why, busy, sizeof(busy));
		step_text(rg, s, text, sizeof(text));
		tool_warn("cannot apply '%s': step %zu of %zu (%s) failed: %s",
			  TOOL_Q(file), r.failed + 1, p->n, text,
			  why ? why : rgctl_strerror(ret));
		say_undone(rg, p, &r, no_undo);
		if (rgctl_stop_sig()) {
			tool_warn("apply: %s came during the undo: honoured now that it is done",
				  rgctl_sig_name(rgctl_stop_sig()));
			status = 128 + rgctl_stop_sig();
		}
	}
	kattr_rgplan_result_free(&r);
	return ret < 0 ? status : 0;
}

/* The apply lock (rgctl_lock_wait()): 0, or the exit status, the reason said. */
static int lock_hierarchy(struct kattr_rg *rg, const char *file, unsigned int wait_s)
{
	char doing[TOOL_Q_SIZE + 16];

	snprintf(doing, sizeof(doing), "apply '%s'", TOOL_Q(file));
	return rgctl_lock_wait(rg, wait_s, "apply", doing, "apply");
}

struct apply_opts {
	bool dry_run, prune, no_enable, no_undo;
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
		case OPT_NO_UNDO:
			o->no_undo = true;
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

/* systemd: every step inside a delegated subtree (or --force). */
static void sd_check_plan(struct rgctl *ctx, const struct kattr_rgplan *p)
{
	for (size_t i = 0; i < p->n; i++) {
		const struct kattr_rgplan_step *s = &p->v[i];

		rgctl_sd_check(ctx, s->group, s->kind == KATTR_RGPLAN_CREATE ?
			       RGCTL_SD_CREATE : s->kind == KATTR_RGPLAN_SET ||
			       s->kind == KATTR_RGPLAN_RES ?
			       RGCTL_SD_SHARES : RGCTL_SD_DELETE);
		if (s->enable && *s->enable)
			rgctl_sd_check_enable(ctx, s->group);
	}
}

/* After the run: verify, the report, what differs; the exit status. */
static int apply_done(struct rgctl *ctx, struct kattr_rg *rg,
		      const struct kattr_rgplan_conf *pc, struct kattr_rgplan *p,
		      const char *file)
{
	struct kattr_rgplan_diffs d;
	size_t i;
	int ret;

	for (i = 0; i < p->n; i++)
		if (p->v[i].kind == KATTR_RGPLAN_DELETE)
			rgctl_own_drop(rg, p->v[i].ino);
	verify(rg, pc, &d);
	report(rg, p, file, ctx->json);
	for (i = 0; i < p->n; i++)
		rgctl_cpu_report(rg, &p->v[i].done);
	print_diffs(&d, file);
	ret = d.n ? EXIT_FAIL : EXIT_OK;
	kattr_rgplan_diffs_free(&d);
	if (rgctl_stop_sig()) {
		/* after the last step: what was done stays */
		tool_warn("apply: %s came after the last change: the %zu change%s made are kept",
			  rgctl_sig_name(rgctl_stop_sig()), p->n, p->n == 1 ? "" : "s");
		ret = 128 + rgctl_stop_sig();
	}
	return ret;
}

static int run_apply(struct rgctl *ctx, int argc, char **argv)
{
	struct apply_opts o = { 0 };
	struct kattr_rgplan_conf pc = { .ours = own_is_ours };
	struct kattr_rgconf *c;
	struct kattr_rgplan p = { 0 };
	struct kattr_rg *rg;
	int ret;

	apply_options(argc, argv, &o);
	/* From here a signal is noted and acted on between two steps. */
	if (!o.dry_run)
		rgctl_stop_catch();
	rgctl_own_context("apply", argv[optind]);
	c = rgctl_conf_load(ctx, argv[optind]);
	rg = rgctl_rg(ctx);
	/* Plan under the lock: what another apply did is seen. */
	/* a failure frees what it loaded before exiting (LeakSanitizer) */
	if (!o.dry_run && (ret = lock_hierarchy(rg, argv[optind], (unsigned int)o.wait_s))) {
		kattr_rgconf_free(c);
		return ret;
	}
	if (!o.dry_run)	/* a run that died since: undone first */
		rgctl_journal_recover(rg, true);
	pc.conf = c;
	pc.flags = (o.prune ? KATTR_RGPLAN_PRUNE : 0) |
		   (o.no_enable ? KATTR_RGPLAN_NO_ENABLE : 0);
	plan_build(rg, &pc, &p);
	sd_check_plan(ctx, &p);
	if (o.dry_run && ctx->json)
		print_plan_json(rg, &p, argv[optind], true);
	else if (o.dry_run) {
		print_steps(rg, &p);
		printf("%zu change%s (dry run: nothing done)\n", p.n, p.n == 1 ? "" : "s");
	}
	if (o.dry_run)
		ret = EXIT_OK;
	else if (!(ret = run_steps(rg, &p, argv[optind], o.no_undo)))
		ret = apply_done(ctx, rg, &pc, &p, argv[optind]);
	kattr_rgplan_free(&p);
	kattr_rgconf_free(c);
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
		struct kattr_why why = { 0 };

		if (v[i].depth == 0)
			continue;
		if (kattr_name_check(v[i].name, &why) < 0) {
			/* made by another tool; apply could not name it */
			if (!left++)
				tool_warn("dump: left out '%s' (%s) and any other group whose name "
					  "rgctl cannot use; apply leaves such groups alone",
					  TOOL_Q(v[i].name), why.text);
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
