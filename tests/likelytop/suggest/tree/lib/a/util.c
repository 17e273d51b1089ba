// SPDX-License-Identifier: GPL-2.0-or-later
/* Fixture for likelytop --suggest: one of two util.c files; only this one
 * has a hint at the profiled line, in the profiled function. */
#include "../../include/linux/compiler.h"

int util_parse(const char *s)
{
	if (unlikely(!s))
		return -1;
	return s[0];
}
