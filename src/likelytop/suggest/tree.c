// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * likelytop --suggest: the source tree.
 *
 * Files are opened beneath the source tree only (kattr_open(): no
 * symlink, no ".." out of it).  A profile's file is a path relative to
 * the tree (/proc/likely_prof: __FILE__ with -fmacro-prefix-map), a
 * basename (branch_annotated) or whatever __FILE__ a user-space build
 * gave (absolute, ../src/x.c): see lts_resolve().
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kattr/kattr.h"
#include "internal.h"

static void loaded_free(struct loaded *l)
{
	free(l->rel);
	free(l->text);
	free(l->calls);
	free(l->lines);
	memset(l, 0, sizeof(*l));
}

int lt_suggest_open(const struct lt_suggest_opts *o, struct lt_suggest **out)
{
	struct lt_suggest *s = calloc(1, sizeof(*s));
	int ret;

	if (!s)
		return -ENOMEM;
	s->o = *o;
	if (!realpath(o->srcdir, s->root)) {
		ret = -errno;
		free(s);
		return ret;
	}
	ret = kattr_dir_open(s->root, &s->m);	/* the host's tree, never beneath --sysroot */
	if (ret < 0) {
		free(s);
		return ret;
	}
	*out = s;
	return 0;
}

void lt_suggest_close(struct lt_suggest *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nfiles; i++)
		free(s->files[i].rel);
	free(s->files);
	loaded_free(&s->cache);
	kattr_mount_close(s->m);
	free(s);
}

static int add_file(struct lt_suggest *s, size_t *cap, const char *rel)
{
	struct file_ent *nv;
	char *r = strdup(rel);

	if (!r)
		return -ENOMEM;
	if (s->nfiles == *cap) {
		*cap = *cap ? *cap * 2 : 1024;
		nv = realloc(s->files, *cap * sizeof(*nv));
		if (!nv) {
			free(r);
			return -ENOMEM;
		}
		s->files = nv;
	}
	s->files[s->nfiles].rel = r;
	s->files[s->nfiles].base = strrchr(r, '/') ? strrchr(r, '/') + 1 : r;
	s->nfiles++;
	return 0;
}

/* Every regular file beneath dir (not in dot-directories, no symlink). */
static int walk(struct lt_suggest *s, size_t *cap, const char *dir, int depth)
{
	struct kattr_dirent *ents;
	char rel[PATH_MAX];
	size_t n;
	int ret;

	if (depth > 64)
		return 0;
	ret = kattr_list(s->m, dir[0] ? dir : ".", &ents, &n);
	if (ret < 0)
		return dir[0] ? 0 : ret;	/* unreadable subdirectory: skip */
	for (size_t i = 0; i < n && ret >= 0; i++) {
		if (ents[i].name[0] == '.')
			continue;
		if ((size_t)snprintf(rel, sizeof(rel), "%s%s%s", dir,
				     dir[0] ? "/" : "", ents[i].name) >= sizeof(rel))
			continue;
		if (ents[i].type == DT_DIR)
			ret = walk(s, cap, rel, depth + 1);
		else if (ents[i].type == DT_REG)
			ret = add_file(s, cap, rel);
	}
	kattr_list_free(ents, n);
	return ret < 0 ? ret : 0;
}

static int cmp_base(const void *a, const void *b)
{
	const struct file_ent *x = a, *y = b;
	int c = strcmp(x->base, y->base);

	return c ? c : strcmp(x->rel, y->rel);
}

static int index_tree(struct lt_suggest *s)
{
	size_t cap = 0;
	int ret;

	if (s->indexed)
		return 0;
	ret = walk(s, &cap, "", 0);
	if (ret < 0)
		return ret;
	qsort(s->files, s->nfiles, sizeof(*s->files), cmp_base);
	s->indexed = true;
	return 0;
}

/* Read rel into the cache (the last file read stays). */
struct loaded *lts_load(struct lt_suggest *s, const char *rel)
{
	struct loaded *l = &s->cache;
	size_t cap = 0;

	if (l->rel && !strcmp(l->rel, rel))
		return l;
	loaded_free(l);
	l->rel = strdup(rel);
	if (!l->rel) {
		l->err = -ENOMEM;
		return l;
	}
	l->err = kattr_read_alloc(s->m, rel, &l->text, &l->len);
	if (l->err < 0)
		return l;
	l->err = lt_hint_scan(l->text, l->len, &l->calls, &l->ncalls);
	for (size_t i = 0; l->err == 0 && i <= l->len; i++) {
		if (i && (i == l->len || l->text[i - 1] != '\n'))
			continue;
		if (i == l->len && i && l->text[i - 1] == '\n')
			break;	/* no empty line after the last newline */
		if (l->nlines == cap) {
			size_t *nv;

			cap = cap ? cap * 2 : 1024;
			nv = realloc(l->lines, cap * sizeof(*nv));
			if (!nv) {
				l->err = -ENOMEM;
				break;
			}
			l->lines = nv;
		}
		l->lines[l->nlines++] = i;
	}
	return l;
}

static bool is_file(struct lt_suggest *s, const char *rel)
{
	struct stat st;

	return kattr_name_check(rel, NULL) == 0 &&
	       kattr_stat(s->m, rel, &st) == 0 && S_ISREG(st.st_mode);
}

/* Does the candidate file have the site's hint at its line, in a file
 * that names the function? */
static bool fits(struct lt_suggest *s, const char *rel, const struct site *st)
{
	struct loaded *l = lts_load(s, rel);
	size_t fl = strlen(st->function), idx;
	const char *p, *end;
	char name[64];

	if (l->err < 0 || !fl ||
	    lt_hint_locate(l->text, l->len, l->calls, l->ncalls, st->line,
			   lts_kind_of(st->hint), &idx, name, sizeof(name)) != LT_LOC_OK)
		return false;
	end = l->text + l->len;
	for (p = l->text; p < end; p++) {
		p = memmem(p, (size_t)(end - p), st->function, fl);
		if (!p)
			break;
		if (p + fl < end && p[fl] == '(' &&
		    (p == l->text || !(p[-1] == '_' || (p[-1] >= '0' && p[-1] <= '9') ||
				       ((p[-1] | 0x20) >= 'a' && (p[-1] | 0x20) <= 'z'))))
			return true;
	}
	return false;
}

/*
 * Where the profile's file is in the tree: its path beneath the tree's
 * real path, else the path itself or its longest suffix of two or more
 * components that names a file; a plain basename must name exactly one
 * file of the tree, or exactly one that has the site's hint at its line
 * and names the function.  0, or -1 with *why.
 */
int lts_resolve(struct lt_suggest *s, struct site *st, const char **why,
		char *whybuf, size_t whysize)
{
	const char *f = st->file, *p;
	char *fn;
	size_t rl = strlen(s->root), lo, hi, nfit = 0, fit = 0;
	char tmp[64];

	if (rl && !strncmp(f, s->root, rl) && f[rl] == '/')
		f += rl + 1;
	while (*f == '/')
		f++;
	while (!strncmp(f, "./", 2))
		f += 2;
	for (p = f; p && strchr(p, '/'); p = strchr(p, '/') + 1) {
		if (is_file(s, p)) {
			st->rel = st->relbuf = strdup(p);
			char *e = p != st->file ? lts_esc_dup(st->file) : NULL;

			if (e && asprintf(&st->note, "%s in the profile", e) < 0)
				st->note = NULL;
			free(e);
			st->note_keep = st->note ? strlen(st->note) : 0;
			return st->rel ? 0 : -1;
		}
	}
	if (strchr(f, '/')) {
		*why = "file not found in the source tree";
		return -1;
	}
	if (index_tree(s) < 0) {
		*why = "cannot list the source tree";
		return -1;
	}
	/* The files of that basename: lo..hi. */
	for (lo = 0, hi = s->nfiles; lo < hi;) {
		size_t mid = (lo + hi) / 2;

		if (strcmp(s->files[mid].base, p) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (hi = lo; hi < s->nfiles && !strcmp(s->files[hi].base, p); hi++)
		;
	if (hi == lo) {
		*why = "file not found in the source tree";
		return -1;
	}
	if (hi - lo == 1) {
		st->rel = s->files[lo].rel;
		return 0;
	}
	for (size_t i = lo; i < hi; i++)
		if (fits(s, s->files[i].rel, st)) {
			nfit++;
			fit = i;
		}
	if (nfit != 1) {
		size_t o = (size_t)snprintf(whybuf, whysize,
				"ambiguous basename: %zu files named %s, %zu with that hint at that line (",
				hi - lo, p, nfit);

		for (size_t i = lo, k = 0; i < hi && k < 4 && o < whysize; i++) {
			if (nfit && !fits(s, s->files[i].rel, st))
				continue;
			o += (size_t)snprintf(whybuf + o, whysize - o, "%s%s",
					      k++ ? ", " : "", s->files[i].rel);
		}
		if (o < whysize)
			snprintf(whybuf + o, whysize - o, "%s)",
				 (nfit ? nfit : hi - lo) > 4 ? ", ..." : "");
		*why = whybuf;
		return -1;
	}
	st->rel = s->files[fit].rel;
	snprintf(tmp, sizeof(tmp), "%zu", hi - lo);
	fn = lts_esc_dup(st->function);
	if (!fn || asprintf(&st->note, "%s in the profile: of the %s files so named, the only one with that hint at line %u and a call or definition of %s()",
			    p, tmp, st->line, fn) < 0)
		st->note = NULL;
	free(fn);
	st->note_keep = strlen(p) + strlen(" in the profile:");
	return 0;
}
