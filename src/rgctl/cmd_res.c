// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rgctl set GROUP KEY=VALUE... and rgctl get GROUP [KEY...]: a group's
 * resources by rgctl's keys (cpu.weight, memory.max, ...) or systemd's
 * property names (CPUWeight, MemoryMax, ...), through the library's table
 * (kattr/rgres.h).  create --set uses the same parsing and writing.
 */
#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libsmartcols/libsmartcols.h>

#include "kattr/rgres.h"
#include "rgctl.h"
#include "rgctl_cpu.h"
#include "rgctl_plan.h"
#include "rgctl_res.h"
#include "rgctl_systemd.h"
#include "xalloc.h"

enum { OPT_DRY_RUN = OPT_CMD_FIRST + 8 };

static int run_set(struct rgctl *ctx, int argc, char **argv);
static int run_get(struct rgctl *ctx, int argc, char **argv);

static const struct option set_opts[] = {
	{ "dry-run",   no_argument, NULL, OPT_DRY_RUN },
	{ "no-enable", no_argument, NULL, OPT_NO_ENABLE },
	{ "help",      no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};
static const char *const set_help[] = {
	"    --dry-run", "Check every value and file, write nothing.",
	"    --no-enable", "On cgroup v2, refuse instead of enabling controllers above the group.",
	NULL
};

static void keys_help(void)
{
	size_t n;
	const struct kattr_rgres *t = kattr_rgres_table(&n);

	printf("\nKEYS (systemd's property names are accepted too):\n");
	for (size_t i = 0; i < n; i++)
		printf("  %-16s %-20s %s (default %s).\n", t[i].key,
		       t[i].alias ? t[i].alias : "", t[i].help, t[i].def);
	printf("  %-16s %-20s %s.\n", "", "IOReadBandwidthMax,",
	       "io.max's rbps, wbps, riops, wiops (\"DEV N\")");
	printf("  %-16s %-20s\n", "", "IOWriteBandwidthMax,");
	printf("  %-16s %-20s\n", "", "IOReadIOPSMax, IOWriteIOPSMax");
	printf("\nSizes take K, M, G, T (binary: 1G is 2^30 bytes; 1GB is refused) or N%%\n"
	       "of the machine's memory; cpu.max takes N%% of one CPU or QUOTA[/PERIOD]\n"
	       "(us, ms, s); max (or infinity) lifts a limit.  See RESOURCES in rgctl(8).\n");
}

const struct rgctl_cmd rgctl_cmd_set = {
	.name = "set",
	.args = "GROUP KEY=VALUE...",
	.help = "Set a group's resources: weights, limits, CPUs (all or nothing)",
	.run = run_set,
	.opts = set_opts, .opt_help = set_help,
	.help_more = keys_help,
};

enum { COL_KEY, COL_VALUE, COL_ALIAS, COL_UNIT, COL_DEFAULT, COL_FILE, NCOLS };
static const struct tool_column columns[NCOLS] = {
	[COL_KEY]     = { .name = "KEY", .whint = 0.2, .help = "rgctl's name of the setting" },
	[COL_VALUE]   = { .name = "VALUE", .whint = 0.2, .help = "Its value, as rgctl set takes it back" },
	[COL_ALIAS]   = { .name = "ALIAS", .whint = 0.2, .help = "systemd's property name" },
	[COL_UNIT]    = { .name = "UNIT", .whint = 0.1, .help = "The unit of the value" },
	[COL_DEFAULT] = { .name = "DEFAULT", .whint = 0.1, .help = "The kernel's default" },
	[COL_FILE]    = { .name = "FILE", .whint = 0.4, .help = "The kernel's file the value was read from" },
};
static const int default_cols[] = { COL_KEY, COL_VALUE };
static const struct tool_columns coltab = {
	.col = columns, .n = NCOLS, .def = default_cols,
	.ndef = sizeof(default_cols) / sizeof(default_cols[0]), .max = NCOLS * 4,
	RGCTL_COLUMNS_HELP,
};

static const struct option get_opts[] = {
	TOOL_LONGOPTS_TABLE(OPT_OUTPUT_ALL, 'n', 'r'),
	{ "help",       no_argument,       NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};
static const char *const get_help[] = {
	RGCTL_HELP_OUTPUT,
	"-n, --noheadings", "Do not print the header line.",
	"-r, --raw", "Raw output: columns separated by one space.",
	NULL
};

static void get_help_more(void)
{
	printf("\nAvailable output columns (default: KEY,VALUE):\n");
	rgctl_columns_help(&coltab);
	keys_help();
}

const struct rgctl_cmd rgctl_cmd_get = {
	.name = "get",
	.args = "GROUP [KEY...]",
	.help = "Show a group's resources, read from the kernel's files",
	.run = run_get,
	.opts = get_opts, .shortopts = "o:nr", .opt_help = get_help,
	.help_more = get_help_more,
};

/* ---- parsing --------------------------------------------------------------- */

__attribute__((noreturn))
static void unknown_key(const char *name)
{
	const char *near = kattr_rgres_suggest(name);

	if (near)
		tool_die(EXIT_USAGE, "unknown setting '%s' (did you mean '%s'?)",
			 TOOL_Q(name), near);
	tool_die(EXIT_USAGE, "unknown setting '%s' (see 'rgctl set --help')",
		 TOOL_Q(name));
}

struct kattr_rgres_value *rgctl_res_parse(char *const *args, size_t n)
{
	struct kattr_rgres_value *v = xcalloc(n ? n : 1, sizeof(*v));
	struct kattr_rgres_limits l;
	int ret = kattr_rgres_limits_read(tool_root(), &l);

	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot read the machine's memory and CPUs: %s",
			 tool_strerror(-ret));
	for (size_t i = 0; i < n; i++) {
		const char *eq = strchr(args[i], '=');
		struct kattr_why why = { 0 };
		char name[64];

		ret = kattr_rgres_parse_assign(args[i], &l, &v[i], &why);
		if (ret == -ENOENT) {
			snprintf(name, sizeof(name), "%.*s", (int)(eq - args[i]), args[i]);
			unknown_key(name);
		}
		if (ret < 0 && !eq)
			tool_die(EXIT_USAGE, "'%s' is not KEY=VALUE", TOOL_Q(args[i]));
		if (ret < 0)
			tool_die(EXIT_USAGE, "invalid value '%s' for %s: %s",
				 TOOL_Q(eq + 1), v[i].res->key, why.text);
	}
	return v;
}

/* ---- writing --------------------------------------------------------------- */

/* The cause of err for res in group g, into buf. */
static void cause(struct kattr_rgres_group *g, const struct kattr_rgres *res,
		  int err, const char *group, char *buf, size_t size)
{
	char where[4096];
	struct kattr_why w = { 0 };
	int ret = kattr_rgres_where(g, res, where, sizeof(where), &w);
	const char *why = w.text;

	if (err == -EOPNOTSUPP || ret == -EOPNOTSUPP)
		snprintf(buf, size, "%s", why ? why : tool_strerror(-err));
	else if (ret == -ENODEV)
		snprintf(buf, size, "no hierarchy has the %s controller here (%s)",
			 res->be[KATTR_RG_CGROUP2].ctrl, why);
	else if (ret == -ENOENT)
		snprintf(buf, size, "'%s' has no directory in the %s hierarchy (%s)",
			 TOOL_Q(group), res->be[KATTR_RG_CGROUP1].ctrl, where);
	else if (ret == -ENXIO)
		snprintf(buf, size, "%s: %s", where, why);
	else
		snprintf(buf, size, "%s: %s", where, rgctl_strerror(err));
}

/* Say what was (or would be) enabled; free d. */
static void report_enabled(struct kattr_rg *rg, struct kattr_rgres_done *d,
			   bool dry)
{
	for (size_t i = 0; i < d->nr_enabled; i++)
		tool_warn("%s %s in %s", dry ? "would enable" : "enabled",
			  d->enabled[i].ctrl,
			  rgctl_subtree_file(rg, d->enabled[i].group));
	kattr_rgres_done_free(d);
}

int rgctl_res_write(struct rgctl *ctx, const char *group,
		    const struct kattr_rgres_value *v, size_t n,
		    unsigned int flags, const char *nothing)
{
	struct kattr_rg *rg = rgctl_rg(ctx);
	struct kattr_rgres_group *g;
	struct kattr_rgres_done d;
	char buf[8192], text[1024];
	int ret = kattr_rgres_open(rg, group, &g);

	if (ret < 0) {
		tool_warn("cannot open '%s': %s", TOOL_Q(group), rgctl_strerror(ret));
		return EXIT_FAIL;
	}
	ret = kattr_rgres_set(g, v, n, flags, &d);
	if (ret < 0) {
		const struct kattr_rgres_value *bad = &v[d.failed < n ? d.failed : 0];

		kattr_rgres_text(bad, text, sizeof(text));
		if (d.failed_file && ret != -ERANGE)
			snprintf(buf, sizeof(buf), "%s: %s", d.failed_file,
				 ret == -EINVAL ? "the kernel refused the value (invalid argument)" :
				 ret == -ENODEV ? "no such block device (limits take whole disks, not partitions)" :
				 rgctl_strerror(ret));
		else if (ret == -ENOTBLK || (bad->res->type == KATTR_RGRES_IO_MAX && !d.failed_file))
			snprintf(buf, sizeof(buf), "%s: %s", bad->dev_path,
				 ret == -ENOTBLK ? "not a block device" : tool_strerror(-ret));
		else
			cause(g, bad->res, ret, group, buf, sizeof(buf));
		tool_warn("cannot set %s of '%s' to '%s': %s; %s", bad->res->key,
			  TOOL_Q(group), text, buf, d.rolled_back ? nothing :
			  "the values written before it could not all be restored");
		kattr_rgres_done_free(&d);
		kattr_rgres_close(g);
		return ret == -ERANGE ? EXIT_USAGE : EXIT_FAIL;
	}
	report_enabled(rg, &d, flags & KATTR_RGRES_DRY_RUN);
	for (size_t i = 0; i < n && (flags & KATTR_RGRES_DRY_RUN); i++) {
		kattr_rgres_text(&v[i], text, sizeof(text));
		if (kattr_rgres_where(g, v[i].res, buf, sizeof(buf), NULL) < 0)
			snprintf(buf, sizeof(buf), "%s",
				 kattr_rg_backend_of(rg) == KATTR_RG_CGROUP1 ?
				 "once the group's cpuset directory is made" :
				 "once enabled");
		printf("would set %s=%s (%s)\n", v[i].res->key, text, buf);
	}
	kattr_rgres_close(g);
	return EXIT_OK;
}

/*
 * The values v's keys hold now (one each), for the undo of a multi-key
 * set: 0, or -ENODATA when one cannot be put back exactly (io.max, an
 * RGCS "don't care", a file that cannot be read): then set goes as a
 * single write, its own failure rolled back, a signal not undone.
 */
static int set_old(struct kattr_rg *rg, const char *group,
		   const struct kattr_rgres_value *v, size_t n,
		   struct kattr_rgres_value *old)
{
	struct kattr_rgres_group *g = NULL;
	int ret = kattr_rgres_open(rg, group, &g);

	for (size_t i = 0; i < n && ret == 0; i++) {
		struct kattr_rgres_value *cur = NULL;
		size_t nc = 0;

		if (v[i].res->type == KATTR_RGRES_IO_MAX)
			ret = -ENODATA;
		else if (kattr_rgres_ctrl_off(g, v[i].res) == 1) {
			/* cgroup v2: set enables the controller; the undo
			 * disables it again (the plan's subtree_control) */
			old[i].res = v[i].res;
			old[i].unset = old[i].off = true;
		} else if (kattr_rgres_get(g, v[i].res, &cur, &nc) < 0 || nc != 1 || cur[0].unset)
			ret = -ENODATA;
		else
			old[i] = cur[0];
		free(cur);
	}
	if (g)
		kattr_rgres_close(g);
	return ret;
}

/* The undo of a set: the old values known, then (cgroup v2) the
 * controllers it enabled above the group disabled again. */
static int set_back(struct kattr_rg *rg, const char *group, const struct kattr_rgplan *p,
		    struct kattr_rgres_group **g, struct kattr_rgres_done *d)
{
	const struct kattr_rgplan_res *r = &p->v[0].res;
	struct kattr_rgres_value *back = xcalloc(r->n, sizeof(*back));
	size_t n = 0;
	int ret = kattr_rgres_open(rg, group, g);

	for (size_t i = 0; i < r->n; i++)
		if (!r->old[i].off)
			back[n++] = r->old[i];
	if (ret == 0 && n)
		ret = kattr_rgres_set(*g, back, n, 0, d);
	if (ret == 0)
		ret = kattr_rgplan_sc_restore(rg, p, NULL);
	free(back);
	return ret;
}

/*
 * set with several keys (issue 30): under the lock and the journal (one
 * step, the old values), and a signal during the writes undoes them all
 * once they are done.  -ENODATA: not possible (set_old()).
 */
static int set_guarded(struct rgctl *ctx, const char *group,
		       const struct kattr_rgres_value *v, size_t n, unsigned int flags)
{
	struct kattr_rg *rg = rgctl_rg(ctx);
	struct kattr_rgplan p = { 0 };
	struct kattr_rgplan_step *s;
	struct kattr_rgres_group *g = NULL;
	struct kattr_rgres_done d = { 0 };
	struct kattr_rgjournal *j = NULL;
	int status, sig;

	rgctl_stop_catch();
	status = rgctl_plan_lock(rg, "set");
	if (status)
		return status;
	if (kattr_rgplan_add(&p, KATTR_RGPLAN_RES, group, &s) < 0)
		xalloc_die();
	s->res.n = n;
	s->res.old = xcalloc(n, sizeof(*s->res.old));
	s->res.want = xcalloc(n, sizeof(*s->res.want));
	memcpy(s->res.want, v, n * sizeof(*v));
	s->no_enable = !(flags & KATTR_RGRES_ENABLE);
	if (set_old(rg, group, v, n, s->res.old) < 0) {
		kattr_rgplan_free(&p);
		return -ENODATA;
	}
	status = rgctl_journal_begin(rg, "set", &p, &j);
	if (status == 0 && kattr_rgjournal_step(j, 0, s) < 0)
		tool_warn("set: cannot write the journal: a kill now could not be undone");
	if (status == 0)
		status = rgctl_res_write(ctx, group, v, n, flags, "nothing was changed");
	rgctl_step_delay();	/* tests: a signal lands here, the writes done */
	sig = rgctl_stop_sig();
	if (status == EXIT_OK && sig) {
		status = set_back(rg, group, &p, &g, &d);
		if (status == 0)
			tool_warn("set: interrupted by %s: %zu change%s undone, the groups are as before",
				  rgctl_sig_name(sig), n, n == 1 ? "" : "s");
		else
			tool_warn("set: interrupted by %s: the %zu values could not be set back: %s: the groups are NOT as before",
				  rgctl_sig_name(sig), n, rgctl_strerror(status));
		kattr_rgres_done_free(&d);
		if (g)
			kattr_rgres_close(g);
		status = 128 + sig;
	}
	rgctl_journal_end(j);
	kattr_rgplan_free(&p);
	return status;
}

static int run_set(struct rgctl *ctx, int argc, char **argv)
{
	unsigned int flags = KATTR_RGRES_ENABLE;
	struct kattr_rgres_value *v;
	const char *group;
	int c, status;

	optind = 0;
	while ((c = rgctl_getopt(&rgctl_cmd_set, argc, argv)) != -1) {
		if (c == OPT_DRY_RUN)
			flags |= KATTR_RGRES_DRY_RUN;
		else if (c == OPT_NO_ENABLE)
			flags &= ~KATTR_RGRES_ENABLE;
	}
	if (argc - optind < 2)
		rgctl_cmd_usage(&rgctl_cmd_set, "give GROUP and at least one KEY=VALUE");
	group = argv[optind];
	rgctl_check_group(group, true);
	v = rgctl_res_parse(argv + optind + 1, (size_t)(argc - optind - 1));
	if (!(flags & KATTR_RGRES_DRY_RUN)) {
		rgctl_sd_check(ctx, group, RGCTL_SD_SHARES);
		rgctl_sd_check_enable(ctx, group);
	}
	if (!kattr_rg_name_is_root(group) && kattr_rg_exists(rgctl_rg(ctx), group) < 0)
		tool_die(EXIT_FAIL, "cannot set the resources of '%s': %s",
			 TOOL_Q(group), rgctl_strerror(kattr_rg_exists(rgctl_rg(ctx), group)));
	status = -ENODATA;
	if (argc - optind - 1 > 1 && !(flags & KATTR_RGRES_DRY_RUN))
		status = set_guarded(ctx, group, v, (size_t)(argc - optind - 1), flags);
	if (status == -ENODATA)
		status = rgctl_res_write(ctx, group, v, (size_t)(argc - optind - 1), flags,
					 "nothing was changed");
	free(v);
	return status;
}

/* ---- get ------------------------------------------------------------------- */

struct get_opts {
	int cols[NCOLS * 4];
	size_t ncols;
	bool noheadings, raw;
};

static void parse_get_columns(struct get_opts *go, const char *arg)
{
	rgctl_columns_parse(&rgctl_cmd_get, &coltab, arg, go->cols, &go->ncols);
}

static void parse_get_options(struct get_opts *go, int argc, char **argv)
{
	int c;

	for (size_t i = 0; i < sizeof(default_cols) / sizeof(*default_cols); i++)
		go->cols[go->ncols++] = default_cols[i];
	optind = 0;
	while ((c = rgctl_getopt(&rgctl_cmd_get, argc, argv)) != -1) {
		switch (c) {
		case 'o':
			parse_get_columns(go, optarg);
			break;
		case OPT_OUTPUT_ALL:
			go->ncols = 0;
			for (int i = 0; i < NCOLS; i++)
				go->cols[go->ncols++] = i;
			break;
		case 'n':
			go->noheadings = true;
			break;
		case 'r':
			go->raw = true;
			break;
		}
	}
}

static const char *cell(const struct kattr_rgres *r, int col,
			const char *value, const char *file)
{
	switch (col) {
	case COL_KEY:
		return r->key;
	case COL_VALUE:
		return value;
	case COL_ALIAS:
		return r->alias ? r->alias : "-";
	case COL_UNIT:
		return r->unit;
	case COL_DEFAULT:
		return r->def;
	default:
		return file;
	}
}

struct get_out {
	struct libscols_table *tb;
	const struct get_opts *go;
	json_object *arr;
	bool v2;		/* cgroup v2: a controller may be off for the group */
};

static void emit(struct get_out *o, const struct kattr_rgres *r,
		 const char *value, const char *file)
{
	struct libscols_line *ln;

	if (o->arr) {
		json_object *e = json_object_new_object();

		json_object_object_add(e, "key", json_object_new_string(r->key));
		json_object_object_add(e, "value", json_object_new_string(value));
		json_object_object_add(e, "file", tool_json_str(file));
		json_object_array_add(o->arr, e);
		return;
	}
	ln = scols_table_new_line(o->tb, NULL);
	if (!ln)
		xalloc_die();
	for (size_t k = 0; k < o->go->ncols; k++)
		if (scols_line_set_data(ln, k, cell(r, o->go->cols[k], value, file)) < 0)
			xalloc_die();
}

/* Whether ctrl's missing directory was noted already (and note it). */
static bool noted_before(unsigned int *noted, const char *ctrl)
{
	static const char *const ctrls[] = { "cpu", "cpuset", "memory", "blkio", "pids", "io" };

	for (unsigned int i = 0; ctrl && i < sizeof(ctrls) / sizeof(*ctrls); i++) {
		if (strcmp(ctrl, ctrls[i]) != 0)
			continue;
		if (*noted & (1u << i))
			return true;
		*noted |= 1u << i;
	}
	return false;
}

/* cgroup v2: res's file is absent from a group below the root because
 * its controller is not enabled above it (kattr_rgres_where's -ENXIO;
 * io.weight's absence is the I/O scheduler's, not that). */
static bool off_for_group(const struct get_out *o, const struct kattr_rgres *r,
			  const char *group, int err)
{
	return o->v2 && err == -ENXIO && !kattr_rg_name_is_root(group) &&
	       strcmp(r->key, "io.weight") != 0;
}

/* One setting's rows; false when it cannot be read (explicit: said why). */
static bool get_one(struct get_out *o, struct kattr_rgres_group *g,
		    const struct kattr_rgres *r, const char *group, bool explicit,
		    unsigned int *noted)
{
	char file[4096], text[1024], why[8192];
	struct kattr_rgres_value *v;
	size_t n;
	int ret = kattr_rgres_where(g, r, file, sizeof(file), NULL);

	if (ret == 0)
		ret = kattr_rgres_get(g, r, &v, &n);
	if (ret < 0) {
		cause(g, r, ret, group, why, sizeof(why));
		if (explicit)
			tool_warn("cannot read %s of '%s': %s", r->key, TOOL_Q(group), why);
		else if (ret == -ENOENT && !noted_before(noted, r->be[KATTR_RG_CGROUP1].ctrl))
			tool_warn("%s: its settings are not shown", why);
		else if (off_for_group(o, r, group, ret) &&
			 !noted_before(noted, r->be[KATTR_RG_CGROUP2].ctrl))
			tool_warn("the %s controller is not enabled for '%s' (cgroup.subtree_control above it): "
				  "its settings are not shown (rgctl set enables it)",
				  r->be[KATTR_RG_CGROUP2].ctrl, TOOL_Q(group));
		return !explicit;
	}
	if (n == 0)
		emit(o, r, "max", file);
	for (size_t i = 0; i < n; i++) {
		kattr_rgres_text(&v[i], text, sizeof(text));
		emit(o, r, text, file);
	}
	free(v);
	return true;
}

static void get_table(struct get_out *o, const struct get_opts *go)
{
	o->go = go;
	o->tb = scols_new_table();
	if (!o->tb)
		xalloc_die();
	scols_table_enable_raw(o->tb, go->raw);
	scols_table_enable_noheadings(o->tb, go->noheadings);
	for (size_t i = 0; i < go->ncols; i++)
		if (!scols_table_new_column(o->tb, columns[go->cols[i]].name,
					    columns[go->cols[i]].whint,
					    columns[go->cols[i]].flags))
			xalloc_die();
}

static int run_get(struct rgctl *ctx, int argc, char **argv)
{
	struct get_opts go = { 0 };
	struct get_out o = { 0 };
	struct kattr_rgres_group *g;
	const struct kattr_rgres *t;
	const char *group;
	unsigned int noted = 0;
	bool ok = true;
	size_t n;
	int ret;

	parse_get_options(&go, argc, argv);
	if (argc - optind < 1)
		rgctl_cmd_usage(&rgctl_cmd_get, "give a GROUP");
	group = argv[optind];
	rgctl_check_group(group, true);
	for (int i = optind + 1; i < argc; i++)
		if (!kattr_rgres_find(argv[i], NULL))
			unknown_key(argv[i]);
	ret = kattr_rg_exists(rgctl_rg(ctx), group);
	if (ret == 0)
		ret = kattr_rgres_open(rgctl_rg(ctx), group, &g);
	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot read the resources of '%s': %s",
			 TOOL_Q(group), rgctl_strerror(ret));
	o.v2 = kattr_rg_backend_of(rgctl_rg(ctx)) == KATTR_RG_CGROUP2;
	if (ctx->json)
		o.arr = json_object_new_array();
	else
		get_table(&o, &go);
	t = kattr_rgres_table(&n);
	if (argc - optind > 1)
		for (int i = optind + 1; i < argc; i++)
			ok &= get_one(&o, g, kattr_rgres_find(argv[i], NULL), group,
				      true, &noted);
	else
		for (size_t i = 0; i < n; i++)
			get_one(&o, g, &t[i], group, false, &noted);
	kattr_rgres_close(g);
	if (o.arr) {
		json_object *doc = json_object_new_object();

		json_object_object_add(doc, "group", tool_json_str(
					       kattr_rg_name_is_root(group) ? "/" : group));
		json_object_object_add(doc, "backend", json_object_new_string(
					       kattr_rg_backend_name(kattr_rg_backend_of(rgctl_rg(ctx)))));
		json_object_object_add(doc, "settings", o.arr);
		rgctl_json_print(doc);
	} else {
		setlocale(LC_CTYPE, "");
		scols_print_table(o.tb);
		scols_unref_table(o.tb);
	}
	return ok ? EXIT_OK : EXIT_FAIL;
}
