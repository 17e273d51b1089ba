/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * likelytop --suggest: from a profile to patches that remove (or flip) the
 * likely()/unlikely() hints it shows wrong, in the kernel's mailing style,
 * against a source tree.  The rule: a hinted site evaluated at least
 * min_total times whose miss rate is above min_miss percent gets a patch;
 * the hint is removed, or flipped when the miss rate is above flip_miss.
 * Sites listed more than once (an inline function in many units) count
 * once with their counts summed.  A site that cannot be patched for sure
 * (file missing or ambiguous, line mismatch, hint hidden in a macro,
 * several hints on the line) is refused with the reason, never guessed.
 */
#ifndef LIKELYTOP_SUGGEST_H
#define LIKELYTOP_SUGGEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "kattr/profile.h"

#define LT_SUGGEST_MIN_TOTAL 1000
#define LT_SUGGEST_MIN_MISS 50.0
#define LT_SUGGEST_FLIP_MISS 90.0

struct lt_suggest_opts {
	const char *srcdir;
	uint64_t min_total;
	double min_miss;	/* percent */
	double flip_miss;	/* percent */
	const char *profile;	/* where the profile came from (the body) */
	enum kattr_profile_format format;
	const char *version;	/* the signature line */
	/*
	 * The callers of a site (function, file and line as the profile
	 * names them), where the profile's program counted them: lines for
	 * the mail (malloc'ed) when one or two callers make most of its
	 * wrong evaluations, else NULL.  NULL: no callers known.
	 */
	char *(*callers_note)(void *ctx, const char *function, const char *file,
			      unsigned int line);
	void *callers_ctx;
};

struct lt_patch {
	char *subject;		/* without "[PATCH] " */
	char *text;		/* the whole mail */
	size_t sites;
};

struct lt_refusal {
	char *site;		/* "func() file:line" */
	char *why;
};

struct lt_suggestions {
	size_t candidates;	/* wrong hints by the rule */
	struct lt_patch *patches;
	size_t npatches;
	struct lt_refusal *refused;
	size_t nrefused;
};

struct lt_suggest;

/* Open the source tree (-errno: cannot open it). */
int lt_suggest_open(const struct lt_suggest_opts *o, struct lt_suggest **out);
void lt_suggest_close(struct lt_suggest *s);

/* Patches for every wrong hint of rows.  0 or -ENOMEM. */
int lt_suggest_all(struct lt_suggest *s,
		   const struct kattr_profile_entry *const *rows, size_t n,
		   struct lt_suggestions *out);
/*
 * The suggestion for the site of e (its rows among rows summed): the
 * patch, or why there is none, as text to show.  *text is malloc'ed.
 * 0 or -ENOMEM.
 */
int lt_suggest_site(struct lt_suggest *s,
		    const struct kattr_profile_entry *const *rows, size_t n,
		    const struct kattr_profile_entry *e, char **text);
void lt_suggestions_free(struct lt_suggestions *sg);

/*
 * Write the patches: to fp when out is NULL, as a series of
 * 0001-subject.patch files when out is a directory, else to the file
 * out.  Nothing is left behind on failure.  0 or -errno, with the
 * object that failed in err.
 */
int lt_suggest_write(const struct lt_suggestions *sg, const char *out,
		     FILE *fp, char *err, size_t errsize);

#endif
