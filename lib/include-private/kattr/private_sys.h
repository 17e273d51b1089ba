/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libkattr sys/, private: the parsers of kattr_sysfacts_read().
 *
 * Not installed, not exported (lib/libkattr.map lists what is); one
 * private header per layer of lib/ (lib/README): a layer's files include
 * its own and, through it, only the layers below, so a call up a layer
 * fails to compile.  Same rules as the public headers: no printing, no
 * exit, -errno.
 */
#ifndef KATTR_PRIVATE_SYS_H
#define KATTR_PRIVATE_SYS_H

/* Inside lib/, only a layer that uses sys/ includes this: a call up the
 * layers fails to compile (lib/CMakeLists.txt sets KATTR_USES_*). */
#if defined(KATTR_BUILDING_LIB) && !defined(KATTR_USES_SYS)
#error "lib/: this layer does not use sys/ (a layer uses only the layers below it: lib/README)"
#endif

#include "kattr/private_core.h"
#include "kattr/sysfacts.h"

/* ---- sys (kattr/sysfacts.h): the parsers of kattr_sysfacts_read() ---- */

/* kattr_sysfacts_read() beneath root (NULL: the default root). */
int kattr_sysfacts_read_at(const struct kattr_root *root,
			   struct kattr_sysfacts *f);

/*
 * The model name in /proc/cpuinfo text ("model name", else "Model",
 * "cpu model", "Hardware" or "cpu"), whitespace trimmed.  -ENOENT when
 * absent, -EOVERFLOW when it does not fit in size.
 */
int kattr_cpuinfo_model(const char *cpuinfo, char *buf, size_t size);
/* true when the "flags" line of /proc/cpuinfo text has the word flag. */
int kattr_cpuinfo_has_flag(const char *cpuinfo, const char *flag);
/*
 * The selected word of a sysfs choice file such as "always [madvise]
 * never".  -ENOENT when no word is bracketed, -EOVERFLOW when too long.
 */
int kattr_choice_selected(const char *text, char *buf, size_t size);
/*
 * Count the CPUs in a list such as "0-3,8,10-11".  -EINVAL when
 * malformed.
 */
int kattr_cpulist_count(const char *list, unsigned int *count);

/* The first KernelPageSize in smaps text, in bytes (-ENOENT if none). */
int kattr_smaps_page_size(const char *smaps, uint64_t *bytes);

#endif /* KATTR_PRIVATE_SYS_H */
