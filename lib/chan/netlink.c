// SPDX-License-Identifier: LGPL-2.1-or-later
/* A netlink socket for the channels (libmnl): what procev.c and
 * taskstats.c open theirs with. */
#include "config.h"

#include "kattr/private_chan.h"

#if WITH_LIBMNL

#include <errno.h>
#include <sys/socket.h>

#include <libmnl/libmnl.h>

int kattr_nl_set_rcvbuf(int fd, int size)
{
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof(size)) == 0)
		return 0;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size)) == 0)
		return 0;
	return -errno;
}

int kattr_mnl_open(int bus, int flags, int rcvbuf, unsigned int groups,
		struct mnl_socket **out)
{
	struct mnl_socket *nl = mnl_socket_open2(bus, flags);
	int r = 0;

	if (!nl)
		return -errno;
	if (rcvbuf > 0)
		r = kattr_nl_set_rcvbuf(mnl_socket_get_fd(nl), rcvbuf);
	if (r == 0 && mnl_socket_bind(nl, groups, MNL_SOCKET_AUTOPID) < 0)
		r = -errno;
	if (r < 0) {
		mnl_socket_close(nl);
		return r;
	}
	*out = nl;
	return 0;
}

#endif
