/* SPDX-License-Identifier: GPL-2.0-or-later */
/* likelytop --callers: kernel text addresses as symbol+offset [module]. */
#ifndef LIKELYTOP_CALLERS_KSYM_H
#define LIKELYTOP_CALLERS_KSYM_H

#include <stddef.h>
#include <stdint.h>

struct lt_ksym {
	uint64_t addr;
	const char *name;	/* into the table's text */
	const char *module;	/* NULL: the kernel itself */
};

struct lt_ksyms {
	char *text;		/* kallsyms' text, edited in place */
	struct lt_ksym *sym;
	size_t n;
};

/*
 * Take the text symbols of a /proc/kallsyms text (malloc'ed; the table
 * owns it from now on, even on failure).  0, -ENOMEM, -ENODATA when there
 * is none, -EPERM when every address is 0 (kptr_restrict hides them).
 */
int lt_ksyms_load(struct lt_ksyms *k, char *text, size_t len);
void lt_ksyms_free(struct lt_ksyms *k);
/*
 * "name+0xOFF" (and " [module]" when in a module) into buf, and the
 * module into *module (NULL when none); an address below every symbol is
 * "0xADDR".
 */
void lt_ksyms_name(const struct lt_ksyms *k, uint64_t addr, char *buf,
		   size_t size, const char **module);

#endif
