/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libkattr: /proc, beneath the sysroot (lib/proc/).  <kattr/rg.h>
 * includes it: the walker is what a group's members are read with.
 */
#ifndef KATTR_PROC_H
#define KATTR_PROC_H

/* Inside lib/, only a layer that uses proc/ includes this: a call up the
 * layers fails to compile (lib/CMakeLists.txt sets KATTR_USES_*). */
#if defined(KATTR_BUILDING_LIB) && !defined(KATTR_USES_PROC)
#error "lib/: this layer does not use proc/ (a layer uses only the layers below it: lib/README)"
#endif

#include <sys/types.h>

#include "kattr/kattr.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Each pid of /proc (pid 0: the processes) or of /proc/PID/task (its
 * threads), beneath the sysroot, in directory order; cb returns 0 to go
 * on, anything else stops the walk and is returned.  -ESRCH when PID is
 * gone.
 */
KATTR_API int kattr_proc_foreach(pid_t pid, int (*cb)(pid_t id, void *data),
				    void *data);

#ifdef __cplusplus
}
#endif

#endif /* KATTR_PROC_H */
