/* LD_PRELOAD shim for the tests: vmsplice(2) is "not implemented". */
#include <errno.h>
#include <fcntl.h>
#include <sys/uio.h>

ssize_t vmsplice(int fd, const struct iovec *iov, size_t nr, unsigned int flags);

ssize_t vmsplice(int fd, const struct iovec *iov, size_t nr, unsigned int flags)
{
	(void)fd; (void)iov; (void)nr; (void)flags;
	errno = ENOSYS;
	return -1;
}
