/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libkattr's private interface: functions the library defines and its
 * own folders, tests (tests/lib/) and fuzz targets (tests/fuzz/) call
 * (and, for a few such as kattr_str_distance(), the suite's tools), but
 * no outside program.  They are not exported from libkattr.so
 * (lib/libkattr.map lists what is); the tests and tools reach them
 * through the static library (the CMake target kattr_private:
 * kattr_static and this folder on the include path).  Nothing here is
 * installed.
 *
 * Same rules as the public headers: no printing, no exit, -errno.
 */
#ifndef KATTR_PRIVATE_H
#define KATTR_PRIVATE_H

/*
 * Everything private, for the tools, tests and fuzz targets.  Inside the
 * library a file includes its own layer's header instead (private_core.h,
 * private_rg.h, private_profile.h, private_sys.h), so that a call into a
 * layer above fails to compile.
 */
#ifdef KATTR_BUILDING_LIB
#error "lib/: include your layer's kattr/private_<layer>.h, not kattr/private.h"
#endif

#include "kattr/kattr.h"
#include "kattr/private_chan.h"
#include "kattr/private_core.h"
#include "kattr/private_proc.h"
#include "kattr/private_profile.h"
#include "kattr/private_rg.h"
#include "kattr/private_rgconf.h"
#include "kattr/private_sys.h"
#include "kattr/sysfacts.h"

#endif /* KATTR_PRIVATE_H */
