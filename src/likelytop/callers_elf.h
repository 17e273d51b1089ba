/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * likelytop --callers in user space: the function symbols and loadable
 * segments of ELF files (through libelf), to place a uprobe on a
 * function (its file offset) and to name a return address given as a
 * file and an offset in it ("symbol+0xOFF").
 */
#ifndef LIKELYTOP_CALLERS_ELF_H
#define LIKELYTOP_CALLERS_ELF_H

#include <stddef.h>
#include <stdint.h>

struct lt_elf_sym {
	uint64_t addr, size;	/* the ELF's own virtual addresses */
	char *name;
};

struct lt_elf_seg {
	uint64_t off, vaddr, filesz;
};

struct lt_elf {
	char *path;
	struct lt_elf_sym *sym;	/* sorted by addr */
	size_t nsym;
	struct lt_elf_seg *seg;	/* PT_LOAD */
	size_t nseg;
	int err;		/* 0, or why the file could not be read */
};

/* Read path's segments and function symbols (.symtab, else .dynsym):
 * 0 or -errno (-ENOEXEC: not an ELF file); e is usable either way. */
int lt_elf_load(struct lt_elf *e, const char *path);
/* The same from a buffer (fuzzing, tests). */
int lt_elf_load_mem(struct lt_elf *e, const char *name, const void *buf,
		    size_t len);
void lt_elf_free(struct lt_elf *e);
/* A function's address and its file offset: 0 or -ENOENT. */
int lt_elf_func(const struct lt_elf *e, const char *name, uint64_t *vaddr,
		uint64_t *off);
/* "sym+0xOFF" for a file offset (as /proc/PID/maps gives it);
 * "0xOFF" when no symbol holds it. */
void lt_elf_name(const struct lt_elf *e, uint64_t off, char *buf, size_t size);

#endif
