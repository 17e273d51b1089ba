/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What every tool's main() shares: exit codes, messages, --version,
 * --sysroot, and reporting write errors on stdout at exit.
 */
#ifndef SUITE_TOOL_H
#define SUITE_TOOL_H

#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>

enum {
	EXIT_OK = 0,
	EXIT_FAIL = 1,		/* the operation failed */
	EXIT_USAGE = 2,		/* bad command line */
};

/* Long-only options are numbered from here, as util-linux does. */
#define TOOL_OPT_BASE 256
#define TOOL_OPT_SYSROOT (TOOL_OPT_BASE + 0)
/* First free long-only option number for a tool's own options. */
#define TOOL_OPT_FIRST (TOOL_OPT_BASE + 16)

/*
 * Call first in main(): remembers the program name, makes a failed
 * write to stdout at exit an error (exit 1), and applies $KATTR_SYSROOT.
 */
void tool_init(const char *name);
const char *tool_name(void);

/* "prog: msg" on stderr. */
void tool_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "prog: msg" and exit(status). */
__attribute__((noreturn, format(printf, 2, 3)))
void tool_die(int status, const char *fmt, ...);
/* "prog: msg\nTry 'prog --help' for more information." and exit 2. */
__attribute__((noreturn, format(printf, 1, 2)))
void tool_usage_error(const char *fmt, ...);
/* The hint "Try 'prog --help' for more information." and exit 2. */
__attribute__((noreturn)) void tool_try_help(void);
/*
 * What getopt_long() (run with opterr = 0) found wrong, in words that name
 * the option as it was typed: "unknown option '--bogus'", "option '-d'
 * needs an argument"...  c is what getopt_long() returned ('?' or ':'),
 * shortopts the short options it was given.  Into buf.
 */
void tool_option_problem(int c, char **argv, const char *shortopts, char *buf,
			 size_t size);
/* "prog: <the problem>", the hint, and exit 2 (getopt's own messages
 * name the program by its full path: call getopt_long with opterr = 0). */
__attribute__((noreturn))
void tool_bad_option(int c, char **argv, const char *shortopts);
/*
 * The long options every tool takes, for its getopt_long() table:
 * --help ('h'), --version ('V') and --sysroot DIR.
 */
#define TOOL_LONGOPTS \
	{ "help",       no_argument,       NULL, 'h' }, \
	{ "version",    no_argument,       NULL, 'V' }, \
	{ "sysroot",    required_argument, NULL, TOOL_OPT_SYSROOT }
/* A table's options: --output LIST ('o'), and --output-all, --noheadings
 * and --raw with the values given. */
#define TOOL_LONGOPTS_OUTPUT(all) \
	{ "output",     required_argument, NULL, 'o' }, \
	{ "output-all", no_argument,       NULL, (all) }
#define TOOL_LONGOPTS_TABLE(all, noheadings, raw) \
	TOOL_LONGOPTS_OUTPUT(all), \
	{ "noheadings", no_argument,       NULL, (noheadings) }, \
	{ "raw",        no_argument,       NULL, (raw) }
/*
 * The end of every tool's option switch: -h calls usage() (which does
 * not return; NULL: -h is not handled here), -V prints the version and
 * exits, --sysroot DIR is applied.  True when c was one of them.
 */
bool tool_common_option(int c, void (*usage)(void));
/* The same, anything else being a usage error (tool_bad_option()). */
void tool_option_tail(int c, char **argv, const char *shortopts,
		      void (*usage)(void));
/*
 * -o LIST refused by a column parser (ret < 0, bad/badlen the word it
 * stopped at): "too many columns in 'LIST' (at most max)" for -E2BIG,
 * else "unknown column 'BAD' in 'LIST' (the columns are listed in
 * --help)"; exit 2.
 */
__attribute__((noreturn))
void tool_columns_error(int ret, const char *list, const char *bad,
			size_t badlen, int max);
/* Print "prog (kattr suite) VERSION" and exit 0. */
__attribute__((noreturn)) void tool_version(void);
/* Apply a --sysroot DIR argument (exit 2 when DIR is unusable). */
void tool_set_sysroot(const char *dir);
struct kattr_root;
/*
 * The tool's root handle (--sysroot, $KATTR_SYSROOT or the host's "/"):
 * pass it to every *_at() open of a path beneath it.
 */
const struct kattr_root *tool_root(void);
/* Its directory, or NULL when the root is the host's "/". */
const char *tool_sysroot(void);

/* What is at path, not followed: "a regular file", "a symbolic link",
 * "a FIFO", "a directory"..., or "gone". */
const char *tool_file_kind(const char *path);

/* Flush stdout now and exit 1 with a message if that failed. */
void tool_flush_stdout(void);

/*
 * UTF-8 (utf8.c).  The length of the well-formed sequence at s (1 to 4),
 * or 0 when s starts an invalid one (stray continuation byte, overlong
 * form, surrogate, beyond U+10FFFF, cut short); s is NUL-terminated.
 */
size_t tool_utf8_seq(const char *s);
bool tool_utf8_valid(const char *s);
/* s with each byte of an invalid sequence replaced by U+FFFD, into p
 * (room for 3 * strlen(s) + 1); returns the terminating NUL. */
char *tool_utf8_repair_into(char *p, const char *s);
/* The same, malloc'd; NULL when out of memory. */
char *tool_utf8_repair(const char *s);
/* Escaping for text, CSV and JSON: esc.h. */
#include "esc.h"

/* errno (or -errno) as a cause in a message: strerror()'s words, lower
 * case ("no such file or directory"; "I/O error" and "RFS ..." keep their
 * capitals). */
const char *tool_strerror(int err);

/*
 * The name in names[0..n) closest to word (at most 1 edit for words of up
 * to 3 bytes, else 2; or word a prefix of it), for "did you mean"; NULL
 * when none is that close.
 */
const char *tool_closest(const char *word, const char *const *names, size_t n);

/*
 * Seconds from min to max (--delay, --interval, a live view's prompt): the
 * whole string a decimal number, digits or '.' first (no sign, blank,
 * hex, inf or nan).  Every tool's seconds are read here.
 */
bool tool_parse_seconds(const char *s, double min, double max, double *out);

/* v bytes as "512B", "32.0M" (binary units, as rgctl set takes them),
 * then per ("/s", or ""), into b. */
void tool_human_bytes(char *b, size_t size, double v, const char *per);

/* Sleep until SEC after *t (advanced to it), on the monotonic clock: a
 * loop of intervals does not drift.  Signals do not cut it short. */
void tool_sleep_until(struct timespec *t, double sec);

#endif
