// SPDX-License-Identifier: GPL-2.0-or-later
/* Fixture for likelytop --suggest: the other core.c. */
#include "../include/linux/compiler.h"

int core_check(int v)
{
	if (unlikely(v < 0))
		return -1;
	return v;
}
