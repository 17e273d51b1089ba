/*
 * LD_PRELOAD shim for the tests: a kernel built without transparent huge
 * pages, where madvise(MADV_HUGEPAGE) fails with EINVAL.  Other advice
 * goes to the kernel.
 */
#include <errno.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

int madvise(void *addr, size_t len, int advice)
{
	if (advice == MADV_HUGEPAGE) {
		errno = EINVAL;
		return -1;
	}
	return (int)syscall(SYS_madvise, addr, len, advice);
}
