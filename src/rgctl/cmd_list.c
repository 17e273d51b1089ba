// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rgctl list [GROUP]: the tree of groups, as a libsmartcols table (columns
 * chosen with -o, tree glyphs, --raw, --noheadings, widths fitted to the
 * terminal), or JSON: the flat "groups" array scripts read since the first
 * release and, with --tree, the same groups nested under "tree" as lsblk -J
 * shows them (not by default: a tree 120 groups deep is nested 240 levels,
 * past what jq parses).
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libsmartcols/libsmartcols.h>

#include "rgctl.h"
#include "rgctl_systemd.h"
#include "xalloc.h"

enum { COL_NAME, COL_GROUP, COL_DEPTH, COL_TASKS, COL_SHARES, COL_MISSING, NCOLS };

/* The columns: the table -o, --output-all and --help read. */
static const struct tool_column columns[NCOLS] = {
	[COL_NAME]   = { .name = "NAME", .whint = 0.2, .flags = SCOLS_FL_TREE, .help = "The group's own name (the last component)", .json_type = SCOLS_JSON_STRING },
	[COL_GROUP]  = { .name = "GROUP", .whint = 0.3, .flags = SCOLS_FL_TREE, .help = "The group's path below the root ('/': the root)", .json_type = SCOLS_JSON_STRING },
	[COL_DEPTH]  = { .name = "DEPTH", .whint = 5, .flags = SCOLS_FL_RIGHT, .help = "Levels below the hierarchy's root", .json_type = SCOLS_JSON_NUMBER },
	[COL_TASKS]  = { .name = "TASKS", .whint = 5, .flags = SCOLS_FL_RIGHT, .help = "Tasks in the group (text: '>1 page' where RGCS cannot tell)", .json_type = SCOLS_JSON_NUMBER },
	[COL_SHARES] = { .name = "SHARES", .whint = 0.3, .flags = SCOLS_FL_TRUNC, .help = "Shares: cpu.shares, cpu.weight, or RGCS res:min/max/divisor each", .json_type = SCOLS_JSON_STRING },
	[COL_MISSING] = { .name = "MISSING", .whint = 0.2, .flags = SCOLS_FL_TRUNC, .help = "cgroup v1: hierarchies where the group has no directory (shown by default when any has)", .json_type = SCOLS_JSON_STRING },
};

/* cgroup v1: what each listed group lacks (kattr_rg_missing()), by index
 * in the listing; NULL entries: nothing. */
static struct {
	const struct kattr_rg_info *base;
	char **what;
	size_t any;
} missing;
static const int default_cols[] = { COL_GROUP, COL_TASKS, COL_SHARES };
static const struct tool_columns coltab = {
	.col = columns, .n = NCOLS, .def = default_cols,
	.ndef = sizeof(default_cols) / sizeof(default_cols[0]), .max = NCOLS * 4,
	RGCTL_COLUMNS_HELP,
};

/* --names0: the names alone, for completion and scripts (any OPT_CMD_FIRST
 * offset no other command's options use). */
enum { OPT_NAMES0 = OPT_CMD_FIRST + 12 };

static const struct option list_opts[] = {
	{ "names0",     no_argument,       NULL, OPT_NAMES0 },
	TOOL_LONGOPTS_TABLE(OPT_OUTPUT_ALL, 'n', 'r'),
	{ "tree",       no_argument,       NULL, 'T' },
	{ "help",       no_argument,       NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};
static const char *const list_help[] = {
	RGCTL_HELP_OUTPUT,
	"-n, --noheadings", "Do not print the header line.",
	"-r, --raw", "Raw output: columns separated by one space, no tree, unusual bytes escaped.",
	"-T, --tree", "With --json, nest the groups under \"tree\" too, as lsblk -J does.",
	"    --names0", "Print only the groups' names as commands take them, each ended by a NUL byte, nothing escaped.",
	NULL
};

static void list_help_more(void)
{
	printf("\nAvailable output columns (default: GROUP,TASKS,SHARES):\n");
	rgctl_columns_help(&coltab);
	printf("\nWith --json, \"groups\" lists the groups with fixed keys; with --json --tree,\n"
	       "\"tree\" also nests them (in \"children\") with the chosen columns as keys.\n");
}

static int run_list(struct rgctl *ctx, int argc, char **argv);

const struct rgctl_cmd rgctl_cmd_list = {
	.name = "list",
	.args = "[GROUP]",
	.help = "Show the tree of groups, their tasks and shares",
	.run = run_list,
	.opts = list_opts, .shortopts = "o:nrT", .opt_help = list_help,
	.help_more = list_help_more,
};

struct list_opts {
	int cols[NCOLS * 4];	/* a column may be asked for more than once */
	size_t ncols;
	bool noheadings, raw, tree, names0;
	bool shaped;		/* an option shaping the table was given */
	bool chosen;		/* the columns given (-o, --output-all) */
};

/* -o LIST, or -o +LIST (the default columns, then LIST). */
static void parse_columns(struct list_opts *lo, const char *arg)
{
	rgctl_columns_parse(&rgctl_cmd_list, &coltab, arg, lo->cols, &lo->ncols);
}

static void parse_list_options(struct list_opts *lo, int argc, char **argv)
{
	bool output = false, all = false;
	int c;

	for (size_t i = 0; i < sizeof(default_cols) / sizeof(default_cols[0]); i++)
		lo->cols[lo->ncols++] = default_cols[i];
	optind = 0;
	while ((c = rgctl_getopt(&rgctl_cmd_list, argc, argv)) != -1) {
		switch (c) {
		case 'o':
			parse_columns(lo, optarg);
			output = true;
			break;
		case OPT_OUTPUT_ALL:
			lo->ncols = 0;
			for (int i = 0; i < NCOLS; i++)
				lo->cols[lo->ncols++] = i;
			all = true;
			break;
		case OPT_NAMES0:
			lo->names0 = true;
			break;
		case 'n':
			lo->noheadings = true;
			break;
		case 'r':
			lo->raw = true;
			break;
		case 'T':
			lo->tree = true;
			break;
		}
		if (c != OPT_NAMES0)
			lo->shaped = true;
	}
	if (output && all)
		rgctl_cmd_usage(&rgctl_cmd_list, "give only one of --output and --output-all");
	lo->chosen = output || all;
}

/* --names0: each name as the commands take it ("/" the root), its real
 * bytes, then a NUL: what shell completion reads (read -d '', zsh's (0),
 * fish's string split0), where no escape is needed nor wanted. */
static void print_names0(const struct kattr_rg_info *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fwrite(v[i].name, 1, strlen(v[i].name) + 1, stdout);
}

/* The bytes of one cell; NULL for none (JSON null). */
static char *cell_bytes(const struct kattr_rg *rg, const struct kattr_rg_info *g,
			int col, bool json)
{
	char buf[64], *s;
	const char *slash;
	size_t len = 0;

	switch (col) {
	case COL_NAME:
		slash = strrchr(g->name, '/');
		return xstrdup(slash && slash[1] ? slash + 1 : g->name);
	case COL_GROUP:
		return xstrdup(g->name);
	case COL_DEPTH:
		snprintf(buf, sizeof(buf), "%d", g->depth);
		return xstrdup(buf);
	case COL_TASKS:
		if (g->nr_tasks < 0)
			return json ? NULL : xstrdup(">1 page");
		snprintf(buf, sizeof(buf), "%lld", g->nr_tasks);
		return xstrdup(buf);
	case COL_MISSING:
		s = missing.what ? missing.what[g - missing.base] : NULL;
		if (!s)
			return json ? NULL : xstrdup("-");
		return xstrdup(s);
	default:
		if (!g->nr_shares)
			return json ? NULL : xstrdup("-");
		s = xstrdup("");
		for (size_t k = 0; k < g->nr_shares; k++) {
			kattr_rg_share_text(kattr_rg_backend_of(rg), &g->shares[k],
					    KATTR_RG_SHARE_SHORT, buf, sizeof(buf));
			s = xreallocarray(s, len + strlen(buf) + 2, 1);
			len += (size_t)sprintf(s + len, "%s%s", k ? " " : "", buf);
		}
		return s;
	}
}

/*
 * The text of one cell; NULL for none (JSON null).  JSON (esc < 0): valid
 * UTF-8, an invalid byte (a name another tool made) as U+FFFD.  Text and
 * --raw: the real bytes escaped with the flags esc (esc.h), so that two
 * names never print alike.
 */
static char *cell(const struct kattr_rg *rg, const struct kattr_rg_info *g,
		  int col, int esc)
{
	char *b = cell_bytes(rg, g, col, esc < 0), *r;

	if (!b)
		return NULL;
	if (esc >= 0) {
		r = xmalloc(TOOL_ESC_SIZE(strlen(b)));
		tool_esc(r, b, (unsigned int)esc);
	} else if (tool_utf8_valid(b)) {
		return b;
	} else {
		r = tool_utf8_repair(b);
		if (!r)
			xalloc_die();
	}
	free(b);
	return r;
}

/* --raw: a line per group in the tree's order, the cells separated by one
 * space and escaped, blanks included (esc.h). */
static void print_raw(const struct kattr_rg *rg, const struct kattr_rg_info *v,
		      size_t n, const struct list_opts *lo)
{
	int esc = (int)(tool_esc_locale() | TOOL_ESC_BLANK);

	for (size_t k = 0; k < lo->ncols && !lo->noheadings; k++)
		printf("%s%s", columns[lo->cols[k]].name, k + 1 < lo->ncols ? " " : "\n");
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < lo->ncols; k++) {
			char *data = cell(rg, &v[i], lo->cols[k], esc);

			printf("%s%s", data, k + 1 < lo->ncols ? " " : "\n");
			free(data);
		}
	}
}

/* The groups as a table; NULL rows of v are not there. */
static struct libscols_table *make_table(const struct kattr_rg *rg,
					 const struct kattr_rg_info *v, size_t n,
					 const struct list_opts *lo, bool json)
{
	struct libscols_line **at_depth = calloc(n + 1, sizeof(*at_depth));
	struct libscols_table *tb = scols_new_table();
	unsigned int esc = tool_esc_locale();
	bool tree_done = false;

	if (!tb || !at_depth)
		xalloc_die();
	scols_table_set_name(tb, "groups");
	scols_table_enable_json(tb, json);
	/* The cells are escaped already (name_text()): libsmartcols would
	 * escape the escapes ("\x5cxff"). */
	scols_table_enable_noencoding(tb, !json);
	scols_table_enable_noheadings(tb, lo->noheadings && !json);
	for (size_t i = 0; i < lo->ncols; i++) {
		const struct tool_column *col = &columns[lo->cols[i]];
		int flags = col->flags;
		struct libscols_column *cl;

		/* One tree column: the first of NAME and GROUP asked for. */
		if (flags & SCOLS_FL_TREE) {
			if (tree_done)
				flags &= ~SCOLS_FL_TREE;
			tree_done = true;
		}
		cl = scols_table_new_column(tb, col->name, col->whint, flags);
		if (!cl)
			xalloc_die();
		/* RGCS shares are text ("cpu:30/-2/100"); the cgroups' a number. */
		scols_column_set_json_type(cl, lo->cols[i] == COL_SHARES &&
					   kattr_rg_backend_of(rg) != KATTR_RG_RGCS ?
					   SCOLS_JSON_NUMBER : col->json_type);
	}
	/* v is in pre-order with depths; at_depth[k]: the last line at depth
	 * k on the current path (a group of the listed tree is its root). */
	for (size_t i = 0; i < n; i++) {
		size_t d = v[i].depth >= v[0].depth ? (size_t)(v[i].depth - v[0].depth) : 0;
		struct libscols_line *parent = NULL, *ln;

		if (d > n)
			d = n;
		for (size_t k = d; k > 0 && !parent; k--)
			parent = at_depth[k - 1];
		ln = scols_table_new_line(tb, parent);
		if (!ln)
			xalloc_die();
		at_depth[d] = ln;
		if (d < n)
			at_depth[d + 1] = NULL;
		for (size_t k = 0; k < lo->ncols; k++) {
			char *data = cell(rg, &v[i], lo->cols[k], json ? -1 : (int)esc);

			if (data && scols_line_refer_data(ln, k, data) < 0)
				xalloc_die();
		}
	}
	free(at_depth);
	return tb;
}

/* o["tree"]: the groups nested, as libsmartcols writes them for lsblk -J. */
static void add_tree(json_object *o, const struct kattr_rg *rg,
		     const struct kattr_rg_info *v, size_t n,
		     const struct list_opts *lo)
{
	struct libscols_table *tb = make_table(rg, v, n, lo, true);
	json_object *nested, *groups;
	struct json_tokener *tok;
	char *text = NULL;

	if (scols_print_table_to_string(tb, &text) != 0 || !text)
		tool_die(EXIT_FAIL, "cannot format the groups as JSON: out of memory");
	/* Two levels per group (an object, its "children"), nested as deep
	 * as the groups are. */
	tok = json_tokener_new_ex((int)(2 * n + 16));
	if (!tok)
		xalloc_die();
	nested = json_tokener_parse_ex(tok, text, (int)strlen(text));
	json_tokener_free(tok);
	if (!nested || !json_object_object_get_ex(nested, "groups", &groups))
		tool_die(EXIT_FAIL, "cannot format the groups as JSON: libsmartcols wrote what json-c cannot read");
	json_object_object_add(o, "tree", json_object_get(groups));
	json_object_put(nested);
	free(text);
	scols_unref_table(tb);
}

static void print_json(struct kattr_rg *rg, const struct kattr_rg_info *v,
		       size_t n, const struct list_opts *lo)
{
	struct rgctl_json_hier h = {
		.backend = kattr_rg_backend_name(kattr_rg_backend_of(rg)),
		.root = kattr_rg_root(rg),
		.shares_file = kattr_rg_share_file(rg),
		.rgcs = kattr_rg_backend_of(rg) == KATTR_RG_RGCS,
	};
	json_object *o = rgctl_json_list(&h, v, n, missing.what);

	json_object_object_add(o, "systemd", rgctl_sd_json(rg));

	if (lo->tree)
		add_tree(o, rg, v, n, lo);
	rgctl_json_print(o);
}

/* cgroup v1: each group's missing hierarchies; the MISSING column added
 * to the default ones when any group lacks one. */
static void find_missing(struct kattr_rg *rg, const struct kattr_rg_info *v,
			 size_t n, struct list_opts *lo)
{
	char buf[256];

	if (kattr_rg_backend_of(rg) != KATTR_RG_CGROUP1 || !n)
		return;
	missing.base = v;
	missing.what = xcalloc(n, sizeof(*missing.what));
	for (size_t i = 0; i < n; i++) {
		if (kattr_rg_missing(rg, v[i].name, buf, sizeof(buf)) <= 0)
			continue;
		missing.what[i] = xstrdup(buf);
		missing.any++;
	}
	if (missing.any && !lo->chosen && lo->ncols < NCOLS * 4)
		lo->cols[lo->ncols++] = COL_MISSING;
}

static void free_missing(size_t n)
{
	for (size_t i = 0; missing.what && i < n; i++)
		free(missing.what[i]);
	free(missing.what);
	missing.what = NULL;
}

static int run_list(struct rgctl *ctx, int argc, char **argv)
{
	struct list_opts lo = { 0 };
	const char *group = "/";
	struct kattr_rg_info *v;
	struct libscols_table *tb;
	struct kattr_rg *rg;
	size_t n;
	int ret;

	parse_list_options(&lo, argc, argv);
	if (lo.names0 && (lo.shaped || ctx->json))
		rgctl_cmd_usage(&rgctl_cmd_list, "--names0 takes none of --json, -o, --output-all, -n, -r, -T");
	if (argc - optind > 1)
		rgctl_cmd_usage(&rgctl_cmd_list, "too many arguments");
	if (optind < argc)
		group = argv[optind];
	rgctl_check_group(group, true);
	rg = rgctl_rg(ctx);
	ret = kattr_rg_list(rg, group, &v, &n);
	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot list '%s': %s", TOOL_Q(group),
			 rgctl_strerror(ret));
	if (!lo.names0)
		find_missing(rg, v, n, &lo);
	/* Tree glyphs and cell widths follow the terminal's character set. */
	setlocale(LC_CTYPE, "");
	if (lo.names0) {
		print_names0(v, n);
	} else if (ctx->json) {
		print_json(rg, v, n, &lo);
	} else {
		/* who writes here, above the table (not in rows-only output) */
		if (!lo.noheadings && !lo.raw)
			rgctl_sd_print(rg);
		if (lo.raw) {
			print_raw(rg, v, n, &lo);
		} else {
			tb = make_table(rg, v, n, &lo, false);
			ret = scols_print_table(tb);
			if (ret != 0)
				tool_die(EXIT_FAIL, "cannot print the groups: %s",
					 tool_strerror(ret < 0 ? -ret : ENOMEM));
			scols_unref_table(tb);
		}
	}
	free_missing(n);
	kattr_rg_list_free(v, n);
	return EXIT_OK;
}
