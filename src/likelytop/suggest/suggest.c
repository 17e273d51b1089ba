// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * likelytop --suggest: profile sites -> source lines -> patches.
 *
 * Files are opened beneath the source tree only (kattr_open(): no
 * symlink, no ".." out of it).  A profile's file is a path relative to
 * the tree (/proc/likely_prof: __FILE__ with -fmacro-prefix-map), a
 * basename (branch_annotated) or whatever __FILE__ a user-space build
 * gave (absolute, ../src/x.c): see resolve().
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kattr/kattr.h"
#include "hintscan.h"
#include "outfile.h"
#include "suggest.h"
#include "tool.h"

#define PLACEHOLDER "YOUR NAME <YOUR.EMAIL@EXAMPLE.ORG>"
#define CONTEXT 3

struct file_ent {
	char *base;
	char *rel;
};

struct loaded {
	char *rel;
	char *text;
	size_t len;
	struct lt_hint_call *calls;
	size_t ncalls;
	size_t *lines;		/* offsets of line starts */
	size_t nlines;
	int err;		/* -errno reading it */
};

struct lt_suggest {
	struct lt_suggest_opts o;
	struct kattr_mount *m;
	char root[PATH_MAX];	/* realpath of the tree */
	struct file_ent *files;	/* every regular file, by basename */
	size_t nfiles;
	bool indexed;
	struct loaded cache;	/* the last file read */
};

struct site {
	const char *function;
	const char *file;
	unsigned int line;
	enum kattr_prof_hint hint;
	uint64_t correct, incorrect;
	size_t rows;
	/* located */
	const char *rel;	/* in the tree (owned by s->files or cache) */
	char *relbuf;
	char *note;		/* how the file was resolved, if not plainly */
	size_t note_keep;	/* its first bytes never wrapped: the path and "in the profile" */
	struct lt_hint_call call;
	bool flip;
	char *expr;		/* the hint call's first line, for the body */
	char *new_lines;	/* the edit */
	size_t first, last_end;
};

/* ---- helpers ------------------------------------------------------------ */

static char *xstrndup_clean(const char *s, size_t n)
{
	char *d = strndup(s, n);

	for (char *p = d; p && *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return d;
}

static double site_pct(const struct site *st)
{
	uint64_t t = st->correct + st->incorrect;

	return t ? (double)st->incorrect * 100.0 / (double)t : -1;
}

/* "55.5", with two decimals where one would round to 100.0 or 0.0. */
static const char *fmt_pct(char *buf, size_t size, double pct)
{
	snprintf(buf, size, (pct > 99.95 && pct < 100) || (pct > 0 && pct < 0.05) ?
		 "%.2f" : "%.1f", pct);
	return buf;
}

static const char *kind_name(enum lt_hint_kind k)
{
	return k == LT_HINT_LIKELY ? "likely" : "unlikely";
}

static enum lt_hint_kind kind_of(enum kattr_prof_hint h)
{
	if (h == KATTR_PROF_HINT_LIKELY)
		return LT_HINT_LIKELY;
	if (h == KATTR_PROF_HINT_UNLIKELY)
		return LT_HINT_UNLIKELY;
	return LT_HINT_ANY;
}

static void loaded_free(struct loaded *l)
{
	free(l->rel);
	free(l->text);
	free(l->calls);
	free(l->lines);
	memset(l, 0, sizeof(*l));
}

/* ---- the tree ----------------------------------------------------------- */

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
static struct loaded *load(struct lt_suggest *s, const char *rel)
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
	struct loaded *l = load(s, rel);
	size_t fl = strlen(st->function), idx;
	const char *p, *end;
	char name[64];

	if (l->err < 0 || !fl ||
	    lt_hint_locate(l->text, l->len, l->calls, l->ncalls, st->line,
			   kind_of(st->hint), &idx, name, sizeof(name)) != LT_LOC_OK)
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
static int resolve(struct lt_suggest *s, struct site *st, const char **why,
		   char *whybuf, size_t whysize)
{
	const char *f = st->file, *p;
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
			if (p != st->file &&
			    asprintf(&st->note, "%s in the profile", st->file) < 0)
				st->note = NULL;
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
	if (asprintf(&st->note, "%s in the profile: of the %s files so named, the only one with that hint at line %u and a call or definition of %s()",
		     p, tmp, st->line, st->function) < 0)
		st->note = NULL;
	st->note_keep = strlen(p) + strlen(" in the profile:");
	return 0;
}

/* ---- sites ---------------------------------------------------------------- */

static int cmp_site(const void *a, const void *b)
{
	const struct site *x = a, *y = b;
	int c = strcmp(x->file, y->file);

	if (c)
		return c;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return (int)x->hint - (int)y->hint;
}

/* The hinted rows as sites, duplicates summed, sorted by file and line. */
static int gather(const struct kattr_prof_entry *const *rows, size_t n,
		  struct site **out, size_t *nout)
{
	struct site *v = calloc(n ? n : 1, sizeof(*v));
	size_t k = 0;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct kattr_prof_entry *e = rows[i];

		if (e->hint == KATTR_PROF_HINT_NONE || !e->file || !e->function)
			continue;
		v[k].function = e->function;
		v[k].file = e->file;
		v[k].line = e->line;
		v[k].hint = e->hint;
		v[k].correct = e->correct;
		v[k].incorrect = e->incorrect;
		v[k].rows = 1;
		k++;
	}
	qsort(v, k, sizeof(*v), cmp_site);
	n = k;
	k = 0;
	for (size_t i = 0; i < n; i++) {
		if (k && !cmp_site(&v[k - 1], &v[i])) {
			v[k - 1].correct += v[i].correct;
			v[k - 1].incorrect += v[i].incorrect;
			v[k - 1].rows++;
			continue;
		}
		v[k++] = v[i];
	}
	*out = v;
	*nout = k;
	return 0;
}

static void site_free(struct site *st)
{
	free(st->relbuf);
	free(st->note);
	free(st->expr);
	free(st->new_lines);
}

static bool is_candidate(const struct lt_suggest *s, const struct site *st)
{
	return st->correct + st->incorrect >= s->o.min_total &&
	       st->correct + st->incorrect > 0 &&
	       site_pct(st) > s->o.min_miss;
}

/* Find the site's hint and make its edit: 0, or -1 with why (static or
 * in whybuf). */
static int locate(struct lt_suggest *s, struct site *st, const char **why,
		  char *whybuf, size_t whysize)
{
	struct loaded *l;
	enum lt_locate r;
	char name[64] = "";
	size_t idx, len;
	const char *e;
	int ret;

	if (resolve(s, st, why, whybuf, whysize) < 0)
		return -1;
	l = load(s, st->rel);
	if (l->err < 0) {
		snprintf(whybuf, whysize, "cannot read %s: %s", st->rel,
			 tool_strerror(-l->err));
		*why = whybuf;
		return -1;
	}
	r = lt_hint_locate(l->text, l->len, l->calls, l->ncalls, st->line,
			   kind_of(st->hint), &idx, name, sizeof(name));
	if (r == LT_LOC_MACRO) {
		snprintf(whybuf, whysize, "%s (%s())", lt_locate_reason(r), name);
		*why = whybuf;
		return -1;
	}
	if (r != LT_LOC_OK) {
		*why = lt_locate_reason(r);
		return -1;
	}
	st->call = l->calls[idx];
	st->flip = site_pct(st) > s->o.flip_miss;
	e = memchr(l->text + st->call.name, '\n', l->len - st->call.name);
	len = (e ? (size_t)(e - l->text) : l->len) - st->call.name;
	if (st->call.end_line == st->call.line)
		len = st->call.close + 1 - st->call.name;
	if (len > 60) {
		st->expr = xstrndup_clean(l->text + st->call.name, 57);
		if (st->expr && (e = realloc(st->expr, 61)))
			strcat(st->expr = (char *)e, "...");
	} else {
		st->expr = xstrndup_clean(l->text + st->call.name, len);
		if (st->call.end_line != st->call.line && st->expr &&
		    (e = realloc(st->expr, len + 4)))
			strcat(st->expr = (char *)e, "...");
	}
	ret = st->expr ? lt_hint_edit(l->text, l->len, &st->call, st->flip,
				      &st->new_lines, &len, &st->first,
				      &st->last_end) : -ENOMEM;
	if (ret < 0) {
		*why = ret == -EINVAL ? "the hint's lines hold a NUL byte: not C text" :
		       "out of memory";
		return -1;
	}
	return 0;
}

/* ---- patches ------------------------------------------------------------- */

/* "sched/fair" for kernel/sched/fair.c: the path without arch/, kernel/,
 * include/, linux/, src/ and the extension, cut at two components, one
 * when both are the same (kernel/time/time.c: "time"). */
static void subsys(const char *rel, char *buf, size_t size)
{
	static const char *const skip[] = {
		"arch", "kernel", "include", "linux", "uapi", "src",
	};
	char tmp[PATH_MAX], *save, *tok, *dot;
	size_t o = 0, k = 0;

	snprintf(tmp, sizeof(tmp), "%s", rel);
	dot = strrchr(tmp, '.');
	if (dot && !strchr(dot, '/'))
		*dot = '\0';
	buf[0] = '\0';
	for (tok = strtok_r(tmp, "/", &save); tok && k < 2;
	     tok = strtok_r(NULL, "/", &save)) {
		bool skipped = false;

		for (size_t i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
			if (!strcmp(tok, skip[i]) && strchr(rel + (tok - tmp), '/'))
				skipped = true;
		if (skipped)
			continue;
		/* time/time.c is "time", not "time/time". */
		if (k == 1 && !strcmp(buf, tok))
			break;
		o += (size_t)snprintf(buf + o, o < size ? size - o : 0, "%s%s",
				      k ? "/" : "", tok);
		k++;
	}
}

static char *subject_of(const struct site *const *g, size_t n)
{
	bool all_flip = true, any_flip = false, same_kind = true;
	enum lt_hint_kind k = g[0]->call.kind;
	char sub[128], funcs[160], *out;
	int ret;

	for (size_t i = 0; i < n; i++) {
		all_flip &= g[i]->flip;
		any_flip |= g[i]->flip;
		same_kind &= g[i]->call.kind == k;
	}
	snprintf(funcs, sizeof(funcs), "%s()", g[0]->function);
	for (size_t i = 1; i < n; i++)
		if (strcmp(g[i]->function, g[0]->function)) {
			size_t l = strlen(funcs);

			snprintf(funcs + l, sizeof(funcs) - l, " and %s()",
				 g[i]->function);
			break;
		}
	subsys(g[0]->rel, sub, sizeof(sub));
	if (same_kind && !any_flip)
		ret = asprintf(&out, "%s: remove %s() from %s", sub,
			       kind_name(k), funcs);
	else if (same_kind && all_flip)
		ret = asprintf(&out, "%s: use %s() instead of %s() in %s", sub,
			       k == LT_HINT_LIKELY ? "unlikely" : "likely",
			       kind_name(k), funcs);
	else
		ret = asprintf(&out, "%s: fix the branch hints in %s", sub, funcs);
	if (ret < 0)
		return NULL;
	for (char *p = out; p && *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return out;
}

/* text wrapped at 72 columns, the first line after first, the others
 * after cont (both no longer than 20); its first keep bytes (a path, which
 * may hold spaces, with the words that belong to it) are never broken, so a
 * long path makes a long line rather than a split one. */
static void wrap(FILE *f, const char *first, const char *cont, const char *text,
		 size_t keep)
{
	const char *pfx = first;

	while (*text) {
		size_t room = 72 - strlen(pfx), n = strlen(text), cut = n;

		if (keep > room)
			room = keep < n ? keep : n;
		keep = 0;
		if (n > room) {
			for (cut = room; cut > 0 && text[cut] != ' '; cut--)
				;
			if (!cut)	/* one long word: break after it */
				for (cut = room; cut < n && text[cut] != ' '; cut++)
					;
		}
		fprintf(f, "%s%.*s\n", pfx, (int)cut, text);
		text += cut;
		while (*text == ' ')
			text++;
		pfx = cont;
	}
}

static void body_site(FILE *f, const struct lt_suggest *s, const struct site *st)
{
	uint64_t total = st->correct + st->incorrect;
	char *fn = xstrndup_clean(st->function, strlen(st->function));

	char pct[16];

	char *in = NULL;

	fprintf(f, "  hint:      %s\n", st->expr);
	if (asprintf(&in, "%s(), %s:%u", fn ? fn : "?", st->rel, st->line) >= 0) {
		wrap(f, "  in:        ", "             ", in, strlen(in));
		free(in);
	}
	if (st->note)
		wrap(f, "  file:      ", "             ", st->note, st->note_keep);
	fprintf(f, "  correct:   %llu\n", (unsigned long long)st->correct);
	fprintf(f, "  incorrect: %llu (%s%% of %llu evaluations%s)\n",
		(unsigned long long)st->incorrect,
		fmt_pct(pct, sizeof(pct), site_pct(st)),
		(unsigned long long)total, st->rows > 1 ? ", rows summed" : "");
	if (st->flip)
		fprintf(f, "  action:    use %s() (misses above %g%%)\n",
			st->call.kind == LT_HINT_LIKELY ? "unlikely" : "likely",
			s->o.flip_miss);
	else
		fprintf(f, "  action:    remove the hint (misses above %g%%, not above %g%%)\n",
			s->o.min_miss, s->o.flip_miss);
	free(fn);
}

/* One line of the file, prefixed, with git's marker when it is the last
 * line and has no newline. */
static void put_line(FILE *f, char pfx, const char *p, const char *end)
{
	size_t n = (size_t)(end - p);

	fputc(pfx, f);
	fwrite(p, 1, n, f);
	if (!n || p[n - 1] != '\n')
		fputs("\n\\ No newline at end of file\n", f);
}

/* git's default hunk header context: the last line above that starts
 * with a letter, '_' or '$'. */
static void hunk_context(FILE *f, const struct loaded *l, size_t line)
{
	while (line-- > 0) {
		const char *p = l->text + l->lines[line];
		size_t n = (line + 1 < l->nlines ? l->lines[line + 1] : l->len) -
			   l->lines[line];

		if (n && (((*p | 0x20) >= 'a' && (*p | 0x20) <= 'z') || *p == '_' ||
			  *p == '$')) {
			while (n && (p[n - 1] == '\n' || p[n - 1] == ' ' ||
				     p[n - 1] == '\t' || p[n - 1] == '\r'))
				n--;
			fputc(' ', f);
			fwrite(p, 1, n < 80 ? n : 80, f);
			return;
		}
	}
}

static const char *line_end(const struct loaded *l, size_t i)
{
	return l->text + (i + 1 < l->nlines ? l->lines[i + 1] : l->len);
}

/* The diff of the edits of g (one file, in line order). */
static void write_diff(FILE *f, const struct loaded *l,
		       const struct site *const *g, size_t n)
{
	size_t i = 0;

	fprintf(f, "diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n", g[0]->rel,
		g[0]->rel, g[0]->rel, g[0]->rel);
	while (i < n) {
		size_t j = i, from, to, ln;

		/* Edits whose contexts touch share a hunk. */
		while (j + 1 < n && g[j + 1]->call.line <=
				     g[j]->call.end_line + 2 * CONTEXT + 1)
			j++;
		from = g[i]->call.line > CONTEXT ? g[i]->call.line - CONTEXT : 1;
		to = g[j]->call.end_line + CONTEXT;
		if (to > l->nlines)
			to = l->nlines;
		fprintf(f, "@@ -%zu,%zu +%zu,%zu @@", from, to - from + 1, from,
			to - from + 1);
		hunk_context(f, l, from - 1);
		fputc('\n', f);
		ln = from;
		for (size_t k = i; k <= j; k++) {
			const struct site *st = g[k];
			const char *p = st->new_lines, *q;

			for (; ln < st->call.line; ln++)
				put_line(f, ' ', l->text + l->lines[ln - 1],
					 line_end(l, ln - 1));
			for (; ln <= st->call.end_line; ln++)
				put_line(f, '-', l->text + l->lines[ln - 1],
					 line_end(l, ln - 1));
			for (; *p; p = q) {
				q = strchr(p, '\n');
				q = q ? q + 1 : p + strlen(p);
				put_line(f, '+', p, q);
			}
		}
		for (; ln <= to; ln++)
			put_line(f, ' ', l->text + l->lines[ln - 1],
				 line_end(l, ln - 1));
		i = j + 1;
	}
}

static int make_patch(struct lt_suggest *s, const struct site *const *g,
		      size_t n, struct lt_patch *p)
{
	struct loaded *l = load(s, g[0]->rel);
	size_t changed = 0, size;
	bool any_flip = false;
	char *text, *para;
	const char *prof;
	FILE *f;

	if (l->err < 0)
		return l->err;
	for (size_t i = 0; i < n; i++) {
		changed += g[i]->call.end_line - g[i]->call.line + 1;
		any_flip |= g[i]->flip;
	}
	p->subject = subject_of(g, n);
	f = open_memstream(&text, &size);
	if (!p->subject || !f)
		return -ENOMEM;
	fprintf(f, "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n");
	fprintf(f, "From: %s\nSubject: [PATCH] %s\n\n", PLACEHOLDER, p->subject);
	fprintf(f, "The branch profile shows %s wrong more often than right:\n\n",
		n > 1 ? "these hints" : "this hint");
	for (size_t i = 0; i < n; i++) {
		body_site(f, s, g[i]);
		fputc('\n', f);
	}
	if (asprintf(&para, "so %s.  The rule: a hint is removed when it misses more than %g%% of at least %llu evaluations, and flipped when it misses more than %g%%.",
		     any_flip && n > 1 ? "change the hints as listed" :
		     any_flip ? "use the other hint" : "remove the hint",
		     s->o.min_miss, (unsigned long long)s->o.min_total,
		     s->o.flip_miss) >= 0) {
		wrap(f, "", "", para, 0);
		free(para);
	}
	fputc('\n', f);
	prof = s->o.profile ? s->o.profile : "?";
	wrap(f, "Profile: ", "", prof, strlen(prof));
	fprintf(f, "(%s format), read by likelytop --suggest.\n\n",
		kattr_prof_format_name(s->o.format));
	fprintf(f, "Signed-off-by: %s\n---\n", PLACEHOLDER);
	fprintf(f, " %s | %zu %s\n", g[0]->rel, 2 * changed,
		"+-");
	fprintf(f, " 1 file changed, %zu insertion%s(+), %zu deletion%s(-)\n\n",
		changed, changed == 1 ? "" : "s", changed, changed == 1 ? "" : "s");
	write_diff(f, l, g, n);
	fprintf(f, "-- \n%s\n\n", s->o.version ? s->o.version : "likelytop");
	if (fclose(f) != 0) {
		free(text);
		return -ENOMEM;
	}
	p->text = text;
	p->sites = n;
	return 0;
}

static int refuse(struct lt_suggestions *sg, const struct site *st,
		  const char *why)
{
	struct lt_refusal *nv = realloc(sg->refused,
					(sg->nrefused + 1) * sizeof(*nv));
	struct lt_refusal *r;
	char *fn, *file, pct[16];

	if (!nv)
		return -ENOMEM;
	sg->refused = nv;
	r = &sg->refused[sg->nrefused];
	fn = xstrndup_clean(st->function, strlen(st->function));
	file = xstrndup_clean(st->file, strlen(st->file));
	r->site = NULL;
	if (fn && file &&
	    asprintf(&r->site, "%s() %s:%u (%s, %s%% of %llu missed)", fn,
		     file, st->line, kattr_prof_hint_name(st->hint),
		     fmt_pct(pct, sizeof(pct), site_pct(st)),
		     (unsigned long long)(st->correct + st->incorrect)) < 0)
		r->site = NULL;
	free(fn);
	free(file);
	r->why = strdup(why);
	if (!r->site || !r->why) {
		free(r->site);
		free(r->why);
		return -ENOMEM;
	}
	sg->nrefused++;
	return 0;
}

static int cmp_located(const void *a, const void *b)
{
	const struct site *x = *(const struct site *const *)a;
	const struct site *y = *(const struct site *const *)b;
	int c = strcmp(x->rel, y->rel);

	if (c)
		return c;
	return x->call.line < y->call.line ? -1 : x->call.line > y->call.line;
}

/* Located sites, sorted by file and line, into patches: one per function,
 * or per run of edits close enough for their hunks to touch. */
static int build(struct lt_suggest *s, struct site **ok, size_t n,
		 struct lt_suggestions *sg)
{
	size_t i = 0;
	int ret = 0;

	qsort(ok, n, sizeof(*ok), cmp_located);
	sg->patches = calloc(n ? n : 1, sizeof(*sg->patches));
	if (!sg->patches)
		return -ENOMEM;
	while (i < n && ret == 0) {
		size_t j = i + 1;

		while (j < n && !strcmp(ok[j]->rel, ok[i]->rel) &&
		       (!strcmp(ok[j]->function, ok[j - 1]->function) ||
			ok[j]->call.line <= ok[j - 1]->call.end_line + 2 * CONTEXT + 1))
			j++;
		ret = make_patch(s, (const struct site *const *)ok + i, j - i,
				 &sg->patches[sg->npatches]);
		if (ret == 0)
			sg->npatches++;
		i = j;
	}
	return ret;
}

/* Drop located sites whose edits overlap an earlier one's lines. */
static int drop_overlaps(struct site **ok, size_t *n, struct lt_suggestions *sg)
{
	size_t k = 0;

	qsort(ok, *n, sizeof(*ok), cmp_located);
	for (size_t i = 0; i < *n; i++) {
		if (k && !strcmp(ok[k - 1]->rel, ok[i]->rel) &&
		    ok[i]->call.line <= ok[k - 1]->call.end_line) {
			if (refuse(sg, ok[i], "its line is part of another hint's edit") < 0)
				return -ENOMEM;
			continue;
		}
		ok[k++] = ok[i];
	}
	*n = k;
	return 0;
}

int lt_suggest_all(struct lt_suggest *s,
		   const struct kattr_prof_entry *const *rows, size_t n,
		   struct lt_suggestions *sg)
{
	struct site *v, **ok;
	size_t nv, nok = 0;
	char whybuf[512];
	const char *why;
	int ret;

	memset(sg, 0, sizeof(*sg));
	ret = gather(rows, n, &v, &nv);
	if (ret < 0)
		return ret;
	ok = calloc(nv ? nv : 1, sizeof(*ok));
	if (!ok) {
		free(v);
		return -ENOMEM;
	}
	for (size_t i = 0; i < nv && ret == 0; i++) {
		if (!is_candidate(s, &v[i]))
			continue;
		sg->candidates++;
		if (locate(s, &v[i], &why, whybuf, sizeof(whybuf)) == 0)
			ok[nok++] = &v[i];
		else
			ret = refuse(sg, &v[i], why);
	}
	if (ret == 0)
		ret = drop_overlaps(ok, &nok, sg);
	if (ret == 0)
		ret = build(s, ok, nok, sg);
	for (size_t i = 0; i < nv; i++)
		site_free(&v[i]);
	free(ok);
	free(v);
	if (ret < 0)
		lt_suggestions_free(sg);
	return ret;
}

int lt_suggest_site(struct lt_suggest *s,
		    const struct kattr_prof_entry *const *rows, size_t n,
		    const struct kattr_prof_entry *e, char **text)
{
	struct site *v, *st = NULL;
	struct lt_patch p = { 0 };
	char whybuf[512], pct[16];
	const char *why = NULL;
	size_t nv;
	int ret;

	*text = NULL;
	ret = gather(rows, n, &v, &nv);
	if (ret < 0)
		return ret;
	for (size_t i = 0; i < nv && !st; i++)
		if (v[i].line == e->line && v[i].hint == e->hint &&
		    !strcmp(v[i].file, e->file))
			st = &v[i];
	if (!st || e->hint == KATTR_PROF_HINT_NONE)
		why = "a plain if: no hint to change";
	else if (st->correct + st->incorrect < s->o.min_total)
		ret = asprintf(text, "nothing to suggest: %llu evaluations, fewer than --min-total %llu",
			       (unsigned long long)(st->correct + st->incorrect),
			       (unsigned long long)s->o.min_total);
	else if (!(site_pct(st) > s->o.min_miss))
		ret = asprintf(text, "nothing to suggest: the hint misses %s%%, not more than %g%%",
			       fmt_pct(pct, sizeof(pct), site_pct(st)), s->o.min_miss);
	else if (locate(s, st, &why, whybuf, sizeof(whybuf)) == 0)
		ret = make_patch(s, (const struct site *const *)&st, 1, &p);
	if (why && asprintf(text, "refused: %s", why) < 0)
		ret = -ENOMEM;
	else if (p.text)
		*text = p.text;
	else if (ret > 0)
		ret = 0;
	free(p.subject);
	for (size_t i = 0; i < nv; i++)
		site_free(&v[i]);
	free(v);
	if (ret < 0 || !*text) {
		free(*text);
		*text = NULL;
		return -ENOMEM;
	}
	return 0;
}

void lt_suggestions_free(struct lt_suggestions *sg)
{
	for (size_t i = 0; i < sg->npatches; i++) {
		free(sg->patches[i].subject);
		free(sg->patches[i].text);
	}
	for (size_t i = 0; i < sg->nrefused; i++) {
		free(sg->refused[i].site);
		free(sg->refused[i].why);
	}
	free(sg->patches);
	free(sg->refused);
	memset(sg, 0, sizeof(*sg));
}

/* ---- output ---------------------------------------------------------------- */

/* git format-patch's file name: 0001-mm-slab-remove-unlikely-from-kfree.patch */
static void patch_name(char *buf, size_t size, size_t nr, const char *subject)
{
	size_t o = (size_t)snprintf(buf, size, "%04zu-", nr), start = o;
	bool dash = false;

	for (const char *p = subject; *p && o + 7 < size && o - start < 52; p++) {
		unsigned char c = (unsigned char)*p;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || c == '_') {
			if (dash && o > start)
				buf[o++] = '-';
			dash = false;
			buf[o++] = (char)c;
		} else {
			dash = true;
		}
	}
	snprintf(buf + o, size - o, ".patch");
}

static int write_all(int fd, const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(fd, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Each patch into a temporary file of dir first, then all renamed into
 * place (outfile.h): a failure before the renames changes nothing. */
static int write_series(const struct lt_suggestions *sg, int dfd,
			const char *dir, char *err, size_t errsize)
{
	struct tool_out *outs = calloc(sg->npatches ? sg->npatches : 1,
				       sizeof(*outs));
	char name[80];
	size_t i, opened = 0;
	int ret = 0;

	if (!outs)
		return -ENOMEM;
	for (i = 0; i < sg->npatches && ret == 0; i++) {
		patch_name(name, sizeof(name), i + 1, sg->patches[i].subject);
		ret = tool_out_openat(&outs[i], dfd, name);
		if (ret == 0) {
			opened++;
			ret = write_all(outs[i].fd, sg->patches[i].text,
					strlen(sg->patches[i].text));
		}
		if (ret < 0)
			snprintf(err, errsize, "%s/%s", dir, name);
	}
	for (i = 0; i < opened; i++) {
		int r;

		if (ret < 0) {	/* nothing half-done */
			tool_out_abort(&outs[i]);
			continue;
		}
		patch_name(name, sizeof(name), i + 1, sg->patches[i].subject);
		r = tool_out_commit(&outs[i]);
		if (r < 0 && ret == 0) {
			ret = r;
			snprintf(err, errsize, "%s/%s", dir, name);
		}
	}
	free(outs);
	return ret;
}

int lt_suggest_write(const struct lt_suggestions *sg, const char *out,
		     FILE *fp, char *err, size_t errsize)
{
	struct tool_out o;
	int fd, ret = 0;

	snprintf(err, errsize, "%s", out ? out : "standard output");
	if (!out) {
		for (size_t i = 0; i < sg->npatches; i++)
			if (fputs(sg->patches[i].text, fp) == EOF)
				return errno ? -errno : -EIO;
		return fflush(fp) == EOF ? (errno ? -errno : -EIO) : 0;
	}
	/* A directory, not through a symlink: the series goes there. */
	fd = open(out, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0) {
		ret = write_series(sg, fd, out, err, errsize);
		close(fd);
		return ret;
	}
	if (errno != ENOTDIR && errno != ENOENT && errno != ELOOP)
		return -errno;
	if (out[0] && out[strlen(out) - 1] == '/')
		return -ENOENT;	/* a directory was meant */
	/* One file: replaced whole, never written through a symlink. */
	ret = tool_out_open(&o, out);
	if (ret < 0)
		return ret;
	for (size_t i = 0; i < sg->npatches && ret == 0; i++)
		ret = write_all(o.fd, sg->patches[i].text,
				strlen(sg->patches[i].text));
	if (ret < 0) {
		tool_out_abort(&o);
		return ret;
	}
	return tool_out_commit(&o);
}
