/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libkattr profile/, private: rows, counters, matching, sorting.
 *
 * Not installed, not exported (lib/libkattr.map lists what is); one
 * private header per layer of lib/ (lib/README): a layer's files include
 * its own and, through it, only the layers below, so a call up a layer
 * fails to compile.  Same rules as the public headers: no printing, no
 * exit, -errno.
 */
#ifndef KATTR_PRIVATE_PROFILE_H
#define KATTR_PRIVATE_PROFILE_H

/* Inside lib/, only a layer that uses profile/ includes this: a call up the
 * layers fails to compile (lib/CMakeLists.txt sets KATTR_USES_*). */
#if defined(KATTR_BUILDING_LIB) && !defined(KATTR_USES_PROFILE)
#error "lib/: this layer does not use profile/ (a layer uses only the layers below it: lib/README)"
#endif

#include "kattr/private_core.h"
#include "kattr/profile.h"

/* ---- profile (kattr/profile.h): rows, counters, matching, sorting --- */

/* Parse one row in place (line without its newline, NUL-terminated). */
int kattr_profile_parse_likely_row(char *line,
				struct kattr_profile_entry *e);
int kattr_profile_parse_trace_row(char *line, bool all,
			       struct kattr_profile_entry *e);

/*
 * b - a for a counter of the given width (32 or 64 bits).  A counter that
 * went down was reset (a file replaced, a program restarted) and b is
 * returned: only a 32-bit counter wraps, and only a step of less than
 * half its range (2^31) is taken as a wrap (serial number arithmetic,
 * RFC 1982); a larger one is a reset too.
 */
uint64_t kattr_profile_counter_delta(uint64_t a, uint64_t b,
				  unsigned int bits);

/*
 * For every entry of cur, the index of the same site (same hint,
 * function, file and line) in prev, or SIZE_MAX when prev has none.
 * idx must hold cur->n elements.  -ENOMEM.
 */
int kattr_profile_match(const struct kattr_profile *prev,
			const struct kattr_profile *cur, size_t *idx);

/*
 * Order the n pointers in v: numbers descending, names ascending (their
 * natural order), reversed when reverse is true; ties are broken by
 * function, file, line and hint, so the order is total and stable across
 * refreshes.  Sites never evaluated sort last by percent.
 */
void kattr_profile_sort(const struct kattr_profile_entry **v, size_t n,
		     enum kattr_profile_sort key, bool reverse);
/* The same order by one comparison sort (qsort_r): the reference the
 * radix passes of kattr_profile_sort() are tested against. */
void kattr_profile_sort_ref(const struct kattr_profile_entry **v, size_t n,
			 enum kattr_profile_sort key, bool reverse);

bool kattr_profile_filter_match(const struct kattr_profile_filter *f,
			     const struct kattr_profile_entry *e);

#endif /* KATTR_PRIVATE_PROFILE_H */
