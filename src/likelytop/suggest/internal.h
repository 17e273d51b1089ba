/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside likelytop --suggest (suggest.h is its interface), in four files
 * without a cycle between them, each using only those above it:
 *   site.c       a profile's hinted rows as sites (summed, sorted) and
 *                the small helpers every other file uses;
 *   tree.c       the source tree: opening it, the basename index, reading
 *                a file (and its hints and line starts), finding a
 *                profile's file in the tree;
 *   patchmail.c  a patch mail for located sites, and writing patches
 *                (stdout, one file, a series);
 *   rule.c       the rule: which sites are candidates, locating their
 *                hint, refusals, lt_suggest_all() and lt_suggest_site().
 */
#ifndef LIKELYTOP_SUGGEST_INTERNAL_H
#define LIKELYTOP_SUGGEST_INTERNAL_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kattr/kattr.h"
#include "hintscan.h"
#include "suggest.h"

#define CONTEXT 3	/* lines of context in a hunk */

struct file_ent {
	char *base;
	char *rel;
};

struct loaded {
	char *rel;
	char *text;
	size_t len;
	struct lt_hint_call *calls;
	size_t ncalls;
	size_t *lines;		/* offsets of line starts */
	size_t nlines;
	int err;		/* -errno reading it */
};

struct lt_suggest {
	struct lt_suggest_opts o;
	struct kattr_mount *m;
	char root[PATH_MAX];	/* realpath of the tree */
	struct file_ent *files;	/* every regular file, by basename */
	size_t nfiles;
	bool indexed;
	struct loaded cache;	/* the last file read */
};

struct site {
	const char *function;
	const char *file;
	unsigned int line;
	enum kattr_profile_hint hint;
	uint64_t correct, incorrect;
	size_t rows;
	/* located */
	const char *rel;	/* in the tree (owned by s->files or cache) */
	char *relbuf;
	char *note;		/* how the file was resolved, if not plainly */
	size_t note_keep;	/* its first bytes never wrapped: the path and "in the profile" */
	struct lt_hint_call call;
	bool flip;
	char *expr;		/* the hint call's first line, for the body */
	char *new_lines;	/* the edit */
	size_t first, last_end;
};

/* site.c */
char *lts_strndup_clean(const char *s, size_t n);
/*
 * A name from outside (the profile's function and file names, a caller's,
 * a module's, the profile's path) for a patch mail or a message: escaped
 * as text (esc.h: control bytes, C1, invalid UTF-8 and '\\' as \xNN), so
 * that no line of the mail can begin inside it and no byte of it is one a
 * terminal obeys.  malloc'd; NULL without memory.
 */
char *lts_esc_dup(const char *s);
double lts_site_pct(const struct site *st);
const char *lts_fmt_pct(char *buf, size_t size, double pct);
const char *lts_kind_name(enum lt_hint_kind k);
enum lt_hint_kind lts_kind_of(enum kattr_profile_hint h);
int lts_gather(const struct kattr_profile_entry *const *rows, size_t n,
	       struct site **out, size_t *nout);
void lts_site_free(struct site *st);
void lts_sort_located(struct site **ok, size_t n);

/* tree.c */
struct loaded *lts_load(struct lt_suggest *s, const char *rel);
int lts_resolve(struct lt_suggest *s, struct site *st, const char **why,
		char *whybuf, size_t whysize);

/* patchmail.c */
int lts_make_patch(struct lt_suggest *s, const struct site *const *g,
		   size_t n, struct lt_patch *p);
int lts_build(struct lt_suggest *s, struct site **ok, size_t n,
	      struct lt_suggestions *sg);

#endif
