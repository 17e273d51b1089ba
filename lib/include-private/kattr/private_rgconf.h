/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libkattr rgconf/, private: the configuration language and the apply plan.
 *
 * Not installed, not exported (lib/libkattr.map lists what is); one
 * private header per layer of lib/ (lib/README): a layer's files include
 * its own and, through it, only the layers below, so a call up a layer
 * fails to compile.  Same rules as the public headers: no printing, no
 * exit, -errno.
 */
#ifndef KATTR_PRIVATE_RGCONF_H
#define KATTR_PRIVATE_RGCONF_H

/* Inside lib/, only a layer that uses rgconf/ includes this: a call up the
 * layers fails to compile (lib/CMakeLists.txt sets KATTR_USES_*). */
#if defined(KATTR_BUILDING_LIB) && !defined(KATTR_USES_RGCONF)
#error "lib/: this layer does not use rgconf/ (a layer uses only the layers below it: lib/README)"
#endif

#include "kattr/private_rg.h"
#include "kattr/rgconf.h"
#include "kattr/rgplan.h"

/* ---- rgconf (kattr/rgconf.h): rgctl.conf text ----------------------- */

/*
 * Parse text (named file in messages).  On a syntax or schema error
 * returns -EINVAL with why's text (in its buf) set to "FILE:LINE: KEY: reason" (or
 * "FILE:LINE: reason" for a syntax error).  Unknown keys are errors.
 * Every integer is read as 64 bits and range-checked (libconfig 1.5 would
 * cut a plain one to 32).  @include is refused here (no file is read).
 * -ENOMEM, or -EOPNOTSUPP without libconfig.
 */
int kattr_rgconf_parse_string(const char *text, const char *file,
			      struct kattr_rgconf **out, struct kattr_why *why);

/*
 * The preprocessor alone (lib/rgconf/pre.c, what parsing runs first):
 * text (named file) with @include expanded (when allow_include; relative
 * to file's directory) and every integer literal made 64-bit.  out->text
 * has out->lines lines; line i+1 is line out->line[i] of out->where[i].
 * 0, or -errno with why's text set (-ERANGE: an integer past 64 bits).  For the
 * fuzz target and the tests.
 */
struct kattr_rgconf_pre_out {
	char *text;
	unsigned int lines;
	char **where;
	unsigned int *line;
};
int kattr_rgconf_preprocess(const char *text, const char *file, bool allow_include,
			    struct kattr_rgconf_pre_out *out, struct kattr_why *why);
void kattr_rgconf_pre_out_free(struct kattr_rgconf_pre_out *out);

#endif /* KATTR_PRIVATE_RGCONF_H */
