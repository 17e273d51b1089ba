/* LD_PRELOAD shim for the tests: process_vm_readv(2) is "not implemented",
 * as on a kernel without CONFIG_CROSS_MEMORY_ATTACH (the 6.1 guest's). */
#include <errno.h>
#include <sys/uio.h>

ssize_t process_vm_readv(pid_t pid, const struct iovec *local, unsigned long nl,
			 const struct iovec *remote, unsigned long nr,
			 unsigned long flags)
{
	(void)pid; (void)local; (void)nl; (void)remote; (void)nr; (void)flags;
	errno = ENOSYS;
	return -1;
}
