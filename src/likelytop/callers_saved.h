/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * likelytop --suggest --callers-from FILE: the callers of kernel
 * functions as `likelytop --callers SITE -b -J` saved them (one JSON
 * snapshot a line, several sites and runs in one file allowed), summed
 * per function and caller, for --suggest's callers paragraph
 * (callers_note.h).
 */
#ifndef LIKELYTOP_CALLERS_SAVED_H
#define LIKELYTOP_CALLERS_SAVED_H

#include <stddef.h>
#include <stdint.h>

struct lt_saved_caller {
	char *function;		/* the site's function */
	char *name;		/* the caller: symbol+0xoffset */
	char *module;		/* or NULL */
	uint64_t calls, wrong;
};

struct lt_saved {
	struct lt_saved_caller *v;
	size_t n, cap;
};

/*
 * Parse a file's text (len bytes) into s (zeroed first; summed by
 * function, caller and module).  A snapshot whose split is unknown
 * (wrong null) is left out.  0; -EINVAL with *bad_line (1, 2, ...) and
 * *why when a line is not such a snapshot; -ENOMEM.  Pure: no I/O.
 */
int lt_saved_parse(const char *text, size_t len, struct lt_saved *s,
		   size_t *bad_line, const char **why);
void lt_saved_free(struct lt_saved *s);

/*
 * The suggest_opts.callers_note of saved figures (ctx: a struct
 * lt_saved): the paragraph for func's site, or NULL (file and line are
 * not in the saved snapshots: the function names the site).
 */
char *lt_saved_note(void *ctx, const char *func, const char *file,
		    unsigned int line);

#endif
