/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef KATTR_RG_INTERNAL_H
#define KATTR_RG_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

/* Strict decimal of s[0..len), '-' allowed when neg_ok. */
int rg_parse_ll(const char *s, size_t len, bool neg_ok, long long *out);

#endif
