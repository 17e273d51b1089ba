// SPDX-License-Identifier: GPL-2.0-or-later
/* Fixture for likelytop --suggest: one hint per line (the kfree story). */
#include <stddef.h>
#include "../include/linux/compiler.h"

void free_object(const void *objp);

void kfree(const void *objp)
{
	unsigned long flags = 0;

	if (unlikely(!objp))
		return;
	(void)flags;
	free_object(objp);
}

int slab_count(const int *counts, int n)
{
	int sum = 0;

	for (int i = 0; i < n; i++)
		if (likely(counts[i] > 0))
			sum += counts[i];
	return sum;
}
