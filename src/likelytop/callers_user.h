/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * likelytop --callers SITE -p PID: the callers of a hinted function in a
 * user-space program, from the counts likely_prof.h keeps per caller
 * (LIKELY_PROF_CALLERS: exact, $LIKELY_PROF_DIR/PID.callers) or, with
 * --uprobe, from a uprobe on the function (callers_uprobe.c).
 */
#ifndef LIKELYTOP_CALLERS_USER_H
#define LIKELYTOP_CALLERS_USER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct lt_app;

/* One row of a PID.callers file. */
struct lt_ucaller_row {
	int likely;		/* the hint: 1 likely(), 0 unlikely() */
	uint64_t t, f;		/* evaluations true and false */
	char *func, *file;	/* unescaped, malloc'ed */
	unsigned int line;
	char *object;		/* the caller's file ("": unknown) */
	uint64_t off;		/* its offset there (an address when unknown) */
};

/*
 * Parse a PID.callers file's text (len bytes): its rows, malloc'ed, into
 * *rows.  0, or -EINVAL (not that format: *bad_line says which line),
 * -ENOMEM.  Pure: no I/O.
 */
int lt_ucallers_parse(const char *text, size_t len, struct lt_ucaller_row **rows,
		      size_t *n, size_t *bad_line);
void lt_ucallers_free(struct lt_ucaller_row *rows, size_t n);

/*
 * In C source text (len bytes), the definition of fn: the position (1,
 * 2, ...) of its parameter named var, with its width in bits (pointers
 * and longs 64, int 32, short 16, char 8) and whether it is signed; 0
 * when there is no such definition or parameter.
 */
int lt_ucallers_param(const char *text, size_t len, const char *fn,
		      const char *var, int *bits, bool *sign);

/*
 * The live view's c key: the callers of one site (func, file, line, as
 * the profile names it) from a PID.callers file, as lines of text
 * (malloc'ed; NULL without memory), sorted by wrong; what went wrong
 * reading it is said in the text.
 */
char *lt_ucallers_site_text(const char *path, const char *func, const char *file,
			    unsigned int line);

/*
 * --suggest: when one or two of a site's callers (in the PID.callers file
 * path, at least three callers in all) make at least 75% of its wrong
 * evaluations, lines for the patch's mail naming them with their figures
 * (malloc'ed); else, or when the file has none, NULL.
 */
char *lt_ucallers_note(void *path, const char *func, const char *file,
		       unsigned int line);

/* Batch: --callers with -p PID; returns the exit status. */
int lt_ucallers_run(struct lt_app *app);

#endif
