// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * likelytop --callers -p PID's inputs on arbitrary bytes: a PID.callers
 * file (every row it accepts has a known hint and its names without a
 * bad escape), a function's parameters in C source, and an ELF file read
 * through libelf (symbols sorted, names resolvable).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "callers_elf.h"
#include "callers_user.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lt_ucaller_row *rows;
	struct lt_elf e;
	size_t n, bad;
	uint64_t va, off;
	int bits;
	bool sign;
	char name[512];

	if (lt_ucallers_parse((const char *)data, size, &rows, &n, &bad) == 0) {
		for (size_t i = 0; i < n; i++)
			if ((rows[i].likely != 0 && rows[i].likely != 1) || !rows[i].func ||
			    !rows[i].file || !rows[i].object)
				abort();
		lt_ucallers_free(rows, n);
	} else if (bad < 1) {
		abort();
	}
	int idx = lt_ucallers_param((const char *)data, size, "f", "p", &bits, &sign);
	if (idx < 0 || (idx && bits != 8 && bits != 16 && bits != 32 && bits != 64))
		abort();
	(void)lt_elf_load_mem(&e, "fuzz", data, size);
	for (size_t i = 1; i < e.nsym; i++)
		if (e.sym[i].addr < e.sym[i - 1].addr)
			abort();
	if (e.nsym && lt_elf_func(&e, e.sym[0].name, &va, &off) == 0)
		lt_elf_name(&e, off, name, sizeof(name));
	lt_elf_name(&e, size, name, sizeof(name));
	lt_elf_free(&e);
	return 0;
}
