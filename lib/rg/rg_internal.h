/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef KATTR_RG_INTERNAL_H
#define KATTR_RG_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

/* Strict decimal of s[0..len), '-' allowed when neg_ok. */
int rg_parse_ll(const char *s, size_t len, bool neg_ok, long long *out);

struct mnl_socket;
/*
 * libmnl builds: a netlink socket of bus opened with flags (SOCK_*), its
 * receive buffer set to rcvbuf (if > 0), bound to groups.  0 or -errno.
 */
int rg_mnl_open(int bus, int flags, int rcvbuf, unsigned int groups,
		struct mnl_socket **out);

#endif
