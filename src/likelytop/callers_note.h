/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --suggest's paragraph for a site whose wrong evaluations come mostly
 * from one or two of its callers: the seed's alternative, fix the
 * callers rather than the hint (callers_note.c).  Both sources of
 * per-caller figures use it: a program's own counts (callers_user.c) and
 * a saved `likelytop --callers -J` trace (callers_saved.c).
 */
#ifndef LIKELYTOP_CALLERS_NOTE_H
#define LIKELYTOP_CALLERS_NOTE_H

#include <stddef.h>
#include <stdint.h>

/* "One or two make most": at least this percent of the wrong. */
#define LT_CALLERS_MOST 75.0

struct lt_note_caller {
	const char *name;	/* symbol+0xoffset */
	const char *module;	/* its object or module, or NULL */
	uint64_t calls, wrong;
};

/*
 * How many of the first two of n callers (top: sorted by wrong, most
 * first, at least min(n, 2) of them) make LT_CALLERS_MOST percent of
 * wrong, all callers' wrong evaluations: 1, 2, or 0 (also when n < 3).
 */
size_t lt_callers_most(const struct lt_note_caller *top, size_t n, uint64_t wrong);

/*
 * The paragraph for the site's mail, naming those callers with their
 * figures; how says where they come from ("counted per caller by
 * likely_prof.h").  Malloc'ed; NULL when lt_callers_most() is 0 or
 * without memory.
 */
char *lt_callers_note(const struct lt_note_caller *top, size_t n, uint64_t wrong,
		      const char *how);

#endif
