/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rgctl's commands share this: the global options, the backend handle
 * (opened on first use), group/pid argument checks, messages and JSON.
 * A command is a function in its own file, listed in commands.c.
 */
#ifndef RGCTL_H
#define RGCTL_H

#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

#include <json-c/json.h>

#include "kattr/rg.h"
#include "kattr/rgtool.h"
#include "kattr/taskstats.h"
#include "columns.h"
#include "tool.h"

struct rgctl {
	enum kattr_rg_backend backend;	/* --backend (AUTO: detect) */
	const char *root;		/* --root, or NULL */
	bool json;			/* --json */
	bool force;			/* --force: ignore systemd's delegation */
	struct kattr_rg *rg;		/* rgctl_rg() opens it */
};

/*
 * A command.  main() parses the whole line, global options anywhere on it,
 * with the command's opts, and calls run() with argv rewritten as
 * { name, its options as "--long[=VALUE]", "--", its operands }: a
 * command's own getopt_long() loop then sees only its options, and
 * operands such as "-5" stay operands.
 */
struct rgctl_cmd {
	const char *name;
	const char *args;		/* operands, after "[options]" */
	const char *help;		/* one sentence, without the full stop */
	/* argv[0] is the command name; returns the exit status. */
	int (*run)(struct rgctl *ctx, int argc, char **argv);
	bool raw_args;			/* exec: argv after GROUP is not ours */
	/* top: run() gets the line after the command as typed and parses it
	 * (global options included: its -b is --batch, not --backend). */
	bool own_line;
	/* Its options (without --help) for getopt_long(); each short one
	 * (in shortopts, getopt syntax) has a long name too. */
	const struct option *opts;
	const char *shortopts;
	/* For --help: { "-p, --parents", "Create ...", ..., NULL }. */
	const char *const *opt_help;
	void (*help_more)(void);	/* more --help text (list: columns) */
};

/* The opt_help lines of TOOL_LONGOPTS_OUTPUT (tool.h), in every command
 * that takes -o. */
#define RGCTL_HELP_OUTPUT \
	"-o, --output COLUMNS", "The columns to show, comma-separated ('+LIST' adds to the default).", \
	"    --output-all", "Show every column."

/* The command table (commands.c), NULL-terminated. */
extern const struct rgctl_cmd *const rgctl_commands[];
/* ---- the command line (cli.c) --------------------------------------------- */

/* rgctl help [COMMAND]. */
extern const struct rgctl_cmd rgctl_cmd_help_cmd;
/* rgctl's own --help on stdout, exit 0. */
__attribute__((noreturn)) void rgctl_usage(void);
/* The command named name, or NULL. */
const struct rgctl_cmd *rgctl_find_command(const char *name);
/* "unknown command 'lst' (did you mean 'list'?)", exit 2; a usage error of
 * command in when given ("rgctl help lst"). */
__attribute__((noreturn))
void rgctl_unknown_command(const struct rgctl_cmd *in, const char *name);

/* ---- the hierarchy (hier.c) ------------------------------------------------ */

/* The backend handle; dies with one message when it cannot be opened. */
struct kattr_rg *rgctl_rg(struct rgctl *ctx);
/* Die (exit 2: a usage error) unless group is a valid name ("/" allowed if allow_root). */
void rgctl_check_group(const char *group, bool allow_root);
/* Parse a pid argument; 0 or -errno with a message printed. */
int rgctl_parse_pid(const char *arg, pid_t *pid);
/* rgctl_q(s): the old name of TOOL_Q(s) (esc.h), for code written
 * before it; new code uses TOOL_Q. */
#define rgctl_q(s) TOOL_Q(s)
/* Why rg has no shares: "a cgroup v1 hierarchy without the cpu controller". */
const char *rgctl_no_shares_why(const struct kattr_rg *rg);
/* The cause of err in words, for "cannot X 'Y': <cause>". */
const char *rgctl_strerror(int err);
/*
 * rgctl's run-state directory (state.c): $RGCTL_RUNDIR, else /run/rgctl
 * beneath the sysroot; made if create; refused if a symlink, another
 * user's, or writable by others.  Its O_DIRECTORY fd or -errno; shown gets
 * its path for messages.  rgctl_state_strerror(): the cause in words.
 */
int rgctl_state_dir(bool create, char *shown, size_t size);
const char *rgctl_state_strerror(int err);
/*
 * The name of a file kept in it for one hierarchy, after the device and
 * (ino) the inode of rg's root directory: "PREFIX.MAJ-MIN[-INO][SUFFIX]".
 * rgctl_state_key(): the same from the numbers (ino 0: none).
 */
int rgctl_state_name(struct kattr_rg *rg, const char *prefix, bool ino,
		     const char *suffix, char *name, size_t size);
void rgctl_state_key(char *name, size_t size, const char *prefix, unsigned int maj,
		     unsigned int min, unsigned long long ino, const char *suffix);
/* Usage error for command cmd: message, hint, exit 2. */
__attribute__((noreturn, format(printf, 2, 3)))
void rgctl_cmd_usage(const struct rgctl_cmd *cmd, const char *fmt, ...);
/* rgctl's layout of a column list in --help: "  NAME<pad> Help." */
#define RGCTL_COLUMNS_HELP \
	.help_indent = "  ", .help_width = -24, .help_gap = " ", \
	.flags = TOOL_COLS_HELP_PERIOD
/*
 * -o LIST, or -o +LIST (the default columns, then LIST), for cmd's column
 * table t (columns.h).  The ids go into cols (room t->max, a column may
 * come more than once), their count into *n.  A bad list is cmd's usage
 * error naming the word.
 */
void rgctl_columns_parse(const struct rgctl_cmd *cmd, const struct tool_columns *t,
			 const char *arg, int *cols, size_t *n);
/* The columns for --help, one a line. */
void rgctl_columns_help(const struct tool_columns *t);
/* Print cmd's help (usage, options) on stdout and exit 0. */
__attribute__((noreturn)) void rgctl_cmd_help(const struct rgctl_cmd *cmd);
/*
 * getopt_long() over cmd's options (and -h): the next option, or -1; -h
 * prints the help, an unknown option or a missing argument dies (exit 2).
 * Set optind = 0 before the first call.
 */
int rgctl_getopt(const struct rgctl_cmd *cmd, int argc, char **argv);
/* For commands without options: handles -h, dies on anything else;
 * optind is then the first operand. */
void rgctl_no_options(const struct rgctl_cmd *cmd, int argc, char **argv);
/* After getopt_long() returned '?' or ':': message, hint, exit 2. */
__attribute__((noreturn))
void rgctl_bad_option(const struct rgctl_cmd *cmd, char **argv);
/* The same for the option problem c (tool_option_problem()). */
__attribute__((noreturn))
void rgctl_option_error(const struct rgctl_cmd *cmd, int c, char **argv,
			const char *shortopts);
/* Print obj as one line of JSON and release it. */
void rgctl_json_print(json_object *obj);
/* {"res":..., "value"|"min_shares"...} for one share. */
json_object *rgctl_json_share(const struct kattr_rg *rg,
			      const struct kattr_rg_share *s);
/*
 * The --json documents (json.c), from plain data: every string from the
 * system is made valid UTF-8 (tool_json_str(): U+FFFD for invalid bytes).
 */
struct rgctl_json_hier {
	const char *backend;		/* "cgroup1" */
	const char *root;		/* mount point */
	const char *shares_file;	/* "cpu.shares" */
	bool rgcs;
};
/* The one-line text rgctl_json_print() prints (owned by obj). */
const char *rgctl_json_text(json_object *obj);
json_object *rgctl_json_share_of(bool rgcs, const char *file,
				 const struct kattr_rg_share *s);
/* missing: per group, the hierarchies it lacks as kattr_rg_missing()
 * names them ("memory, pids"), each NULL for none (then no "missing"
 * key); NULL: none at all. */
json_object *rgctl_json_list(const struct rgctl_json_hier *h,
			     const struct kattr_rg_info *v, size_t n,
			     char *const *missing);
json_object *rgctl_json_stats(const char *group, const char *backend,
			      const struct kattr_rg_stat *v, size_t n);
/* The figures as an array of objects with fixed keys (resource, figure,
 * device, value, unit, counter, rate when rates, file); a rate that is NaN
 * is null.  "percent" for PSI averages (in percent) and CPU rates. */
json_object *rgctl_json_figures(const struct kattr_rg_stat *v, size_t n,
				const double *rates);
/* "usec", "bytes", "count", "percent", or NULL (a file's line). */
const char *rgctl_unit_name(enum kattr_rg_unit u);
json_object *rgctl_json_members(const char *group, bool tasks,
				const pid_t *pids, size_t n,
				const int *elsewhere, const int *total);
json_object *rgctl_json_whereis(pid_t pid, const char *group,
				const char *backend);
/* whereis's "hierarchies": an object per place (hierarchy, group, path;
 * null where the place has none). */
json_object *rgctl_json_places(const struct kattr_rg_place *v, size_t n);
/* One member's (pid) or the sum's (pid 0) delays, for stats --delay. */
json_object *rgctl_json_taskstats(pid_t pid, const struct kattr_taskstats *t);

/* Room for a file's path as the user sees it (the root, a quoted group, a
 * file name). */
#define RGCTL_FILE_TEXT (PATH_MAX + TOOL_Q_SIZE + 32)

/* Long-only option numbers shared by the commands. */
enum {
	OPT_SHARES = TOOL_OPT_FIRST,
	OPT_RES,
	OPT_RECURSIVE,
	OPT_THREADS,
	OPT_PARENTS,
	OPT_BACKEND,
	OPT_ROOT,
	OPT_JSON,
	OPT_NO_ENABLE,
	OPT_OUTPUT_ALL,
	OPT_FORCE,
	OPT_CMD_FIRST = TOOL_OPT_FIRST + 32,	/* free for new commands */
};

#endif
