/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What the files of lib/rgconf/ share and nobody else sees. */
#ifndef KATTR_RGCONF_INTERNAL_H
#define KATTR_RGCONF_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

/* model.c: err (errsz bytes) set to the message, if err is given. */
void rgconf_set_err(char *err, size_t errsz, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * model.c: the calls of rgconf/ say why in a struct kattr_why; inside,
 * the message is built in err (errsz bytes), why's buf (none: NULL, 0).
 * rgconf_why_begin() empties it; rgconf_why_end() fills why on failure
 * (its buf, or short static words without one) and returns ret.
 */
#define RGCONF_WHY_ERR(why) \
	((why) && (why)->buf && (why)->size ? (why)->buf : NULL), \
	((why) && (why)->buf && (why)->size ? (why)->size : 0)
struct kattr_why;
void rgconf_why_begin(struct kattr_why *why);
int rgconf_why_end(struct kattr_why *why, int ret);

/* model.c: a growing string; oom set (and the text kept) when it fails. */
struct rgconf_sbuf {
	char *s;
	size_t len, cap;
	bool oom;
};

void rgconf_sb_add(struct rgconf_sbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- pre.c: the preprocessor ----------------------------------------- */

/*
 * Before libconfig sees the text it goes through rgconf_pre_text(), which
 *  - expands @include itself: every file is opened without blocking and
 *    must be a regular file (a FIFO would hang libconfig's fopen, and
 *    libconfig before 1.7 has no include hook); relative paths are
 *    relative to the directory of the including file; at most
 *    MAX_INCLUDE_DEPTH levels;
 *  - makes every integer literal 64-bit: libconfig 1.5 reads a plain
 *    integer with atoi() (4294968320 became 1024, 0xFFFFFFFF became -1),
 *    so "L" is appended to each one (libconfig then reads it whole) after
 *    checking that it fits in 64 bits (libconfig would saturate);
 *  - keeps a map from the lines of the text it builds to FILE:LINE, so
 *    every message names the file and line the user wrote.
 */
struct rgconf_seg {
	unsigned int out_line;		/* first line of the built text */
	const char *file;		/* into pre.files */
	unsigned int line;		/* its line in file */
};

struct rgconf_pre {
	struct rgconf_sbuf out;
	unsigned int out_line;
	struct rgconf_seg *segs;
	size_t nsegs, capsegs;
	char **files;
	size_t nfiles;
	size_t total;
	bool allow_include;
	char *err;
	size_t errsz;
};

/* Copy text (named file) into p->out, @include'd files read when
 * p->allow_include; 0, or -errno with p->err set. */
int rgconf_pre_text(struct rgconf_pre *p, const char *text, const char *file,
		    unsigned int depth);
void rgconf_pre_free(struct rgconf_pre *p);
/* The FILE:LINE the user wrote of line of the built text. */
void rgconf_pre_where(const struct rgconf_pre *p, unsigned int line,
		      const char **file, unsigned int *out);
/* Read path, a regular file opened without blocking (where: the message's
 * prefix), whole into *text (*len bytes). */
int rgconf_read_regular(struct rgconf_pre *p, const char *path, const char *where,
			char **text, size_t *len);

#endif
