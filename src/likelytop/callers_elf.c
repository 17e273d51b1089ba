// SPDX-License-Identifier: GPL-2.0-or-later
/* likelytop --callers in user space: ELF symbols (callers_elf.h). */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "callers_elf.h"

static int by_addr(const void *a, const void *b)
{
	const struct lt_elf_sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int load_segments(struct lt_elf *e, Elf *elf)
{
	size_t n;
	GElf_Phdr ph;

	if (elf_getphdrnum(elf, &n) != 0)
		return -ENOEXEC;
	e->seg = calloc(n ? n : 1, sizeof(*e->seg));
	if (!e->seg)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD)
			e->seg[e->nseg++] = (struct lt_elf_seg){ ph.p_offset, ph.p_vaddr,
								 ph.p_filesz };
	return 0;
}

/* The function symbols of one symbol table section. */
static int load_symtab(struct lt_elf *e, Elf *elf, Elf_Scn *scn,
		       const GElf_Shdr *sh)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
	GElf_Sym s;

	if (!d)
		return 0;
	e->sym = calloc(n ? n : 1, sizeof(*e->sym));
	if (!e->sym)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const char *name;

		if (!gelf_getsym(d, (int)i, &s) || s.st_shndx == SHN_UNDEF ||
		    (GELF_ST_TYPE(s.st_info) != STT_FUNC &&
		     GELF_ST_TYPE(s.st_info) != STT_GNU_IFUNC) || !s.st_value)
			continue;
		name = elf_strptr(elf, sh->sh_link, s.st_name);
		if (!name || !*name)
			continue;
		e->sym[e->nsym].name = strdup(name);
		if (!e->sym[e->nsym].name)
			return -ENOMEM;
		e->sym[e->nsym].addr = s.st_value;
		e->sym[e->nsym++].size = s.st_size;
	}
	qsort(e->sym, e->nsym, sizeof(*e->sym), by_addr);
	return 0;
}

static int load(struct lt_elf *e, Elf *elf)
{
	Elf_Scn *scn = NULL, *dyn = NULL;
	GElf_Shdr sh, dsh;
	int ret;

	if (!elf || elf_kind(elf) != ELF_K_ELF)
		return -ENOEXEC;
	ret = load_segments(e, elf);
	while (ret == 0 && (scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB)
			return load_symtab(e, elf, scn, &sh);
		if (sh.sh_type == SHT_DYNSYM) {
			dyn = scn;
			dsh = sh;
		}
	}
	return ret == 0 && dyn ? load_symtab(e, elf, dyn, &dsh) : ret;
}

static int start(struct lt_elf *e, const char *path)
{
	memset(e, 0, sizeof(*e));
	e->path = strdup(path);
	if (!e->path)
		return -ENOMEM;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -ENOSYS;
	return 0;
}

int lt_elf_load(struct lt_elf *e, const char *path)
{
	int ret = start(e, path), fd;
	struct stat st;
	Elf *elf;

	if (ret < 0)
		return e->err = ret;
	/* never blocks on a FIFO; a regular file only */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return e->err = -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return e->err = -ENOEXEC;
	}
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	ret = load(e, elf);
	elf_end(elf);
	close(fd);
	return e->err = ret;
}

int lt_elf_load_mem(struct lt_elf *e, const char *name, const void *buf,
		    size_t len)
{
	int ret = start(e, name);
	Elf *elf;

	if (ret < 0)
		return e->err = ret;
	elf = elf_memory((char *)buf, len);
	ret = load(e, elf);
	elf_end(elf);
	return e->err = ret;
}

void lt_elf_free(struct lt_elf *e)
{
	for (size_t i = 0; i < e->nsym; i++)
		free(e->sym[i].name);
	free(e->sym);
	free(e->seg);
	free(e->path);
	memset(e, 0, sizeof(*e));
}

int lt_elf_func(const struct lt_elf *e, const char *name, uint64_t *vaddr,
		uint64_t *off)
{
	for (size_t i = 0; i < e->nsym; i++) {
		if (strcmp(e->sym[i].name, name))
			continue;
		for (size_t k = 0; k < e->nseg; k++) {
			const struct lt_elf_seg *g = &e->seg[k];

			if (e->sym[i].addr >= g->vaddr && e->sym[i].addr - g->vaddr < g->filesz) {
				*vaddr = e->sym[i].addr;
				*off = e->sym[i].addr - g->vaddr + g->off;
				return 0;
			}
		}
	}
	return -ENOENT;
}

void lt_elf_name(const struct lt_elf *e, uint64_t off, char *buf, size_t size)
{
	size_t lo = 0, hi = e->nsym;
	uint64_t va = 0;
	bool found = false;

	for (size_t k = 0; k < e->nseg && !found; k++)
		if (off >= e->seg[k].off && off - e->seg[k].off < e->seg[k].filesz) {
			va = off - e->seg[k].off + e->seg[k].vaddr;
			found = true;
		}
	while (found && lo < hi) {	/* the last symbol at or below va */
		size_t mid = lo + (hi - lo) / 2;

		if (e->sym[mid].addr <= va)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (found && lo > 0 && (!e->sym[lo - 1].size ||
				va - e->sym[lo - 1].addr <= e->sym[lo - 1].size))
		snprintf(buf, size, "%s+%#" PRIx64, e->sym[lo - 1].name,
			 va - e->sym[lo - 1].addr);
	else
		snprintf(buf, size, "%#" PRIx64, off);
}
