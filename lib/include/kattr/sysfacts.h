/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * System facts for benchmark reports: kernel release, CPU model, page
 * size, pipe-max-size, transparent huge page mode, virtualisation.
 * Everything is read with kattr_file_read(), so a sysroot (a captured
 * tree) is honoured.  The parsers are exported so they can be tested on
 * text alone.
 */
#ifndef KATTR_SYSFACTS_H
#define KATTR_SYSFACTS_H

/* Inside lib/, only a layer that uses sys/ includes this: a call up the
 * layers fails to compile (lib/CMakeLists.txt sets KATTR_USES_*). */
#if defined(KATTR_BUILDING_LIB) && !defined(KATTR_USES_SYS)
#error "lib/: this layer does not use sys/ (a layer uses only the layers below it: lib/README)"
#endif

#include <stdint.h>
#include <stddef.h>

#include "kattr/kattr.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An empty string or 0 means "could not be read". */
struct kattr_sysfacts {
	char kernel_release[128];	/* /proc/sys/kernel/osrelease */
	char cpu_model[128];		/* /proc/cpuinfo */
	unsigned int cpus_online;	/* /sys/devices/system/cpu/online */
	uint64_t page_size;		/* KernelPageSize in /proc/self/smaps */
	uint64_t pipe_max_size;		/* /proc/sys/fs/pipe-max-size */
	char thp_mode[16];		/* always, madvise or never */
	char virt[64];			/* "none", "kvm", "vmware", "vm", ... */
	char container[32];		/* "none", "docker", "podman", "lxc", ... */
};

/*
 * Fill *f from the running system (or the sysroot).  Facts that cannot
 * be read are left empty; returns the number of facts missing (0: all
 * read), never an error for a missing file.
 */
KATTR_API int kattr_sysfacts_read(struct kattr_sysfacts *f);

/*
 * In smaps text, the value in kB of field (e.g. "AnonHugePages") of the
 * mapping that contains addr.  -ENOENT when no mapping contains addr or
 * it lacks the field, -EINVAL when the text is malformed.
 */
KATTR_API int kattr_smaps_field_kb(const char *smaps, uintptr_t addr,
				   const char *field, uint64_t *kb);
#ifdef __cplusplus
}
#endif

#endif /* KATTR_SYSFACTS_H */
