// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * likelytop --suggest: located sites into patch mails in the kernel's
 * style (subject, body with the figures, diff), and writing them: to
 * standard output, one file, or a series of git format-patch names, never
 * through a symbolic link and nothing half-written (outfile.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kattr/kattr.h"
#include "esc.h"
#include "outfile.h"
#include "internal.h"

#define PLACEHOLDER "YOUR NAME <YOUR.EMAIL@EXAMPLE.ORG>"

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
	char sub[128], funcs[160], *out, *f0, *f1 = NULL;
	int ret;

	for (size_t i = 0; i < n; i++) {
		all_flip &= g[i]->flip;
		any_flip |= g[i]->flip;
		same_kind &= g[i]->call.kind == k;
	}
	/* the profile's names: escaped, never a header line of their own */
	f0 = lts_esc_dup(g[0]->function);
	for (size_t i = 1; i < n && !f1; i++)
		if (strcmp(g[i]->function, g[0]->function))
			f1 = lts_esc_dup(g[i]->function);
	if (f1)
		snprintf(funcs, sizeof(funcs), "%s() and %s()", f0 ? f0 : "?", f1);
	else
		snprintf(funcs, sizeof(funcs), "%s()", f0 ? f0 : "?");
	free(f0);
	free(f1);
	subsys(g[0]->rel, sub, sizeof(sub));
	if (same_kind && !any_flip)
		ret = asprintf(&out, "%s: remove %s() from %s", sub,
			       lts_kind_name(k), funcs);
	else if (same_kind && all_flip)
		ret = asprintf(&out, "%s: use %s() instead of %s() in %s", sub,
			       k == LT_HINT_LIKELY ? "unlikely" : "likely",
			       lts_kind_name(k), funcs);
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
	char *fn = lts_esc_dup(st->function);

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
		lts_fmt_pct(pct, sizeof(pct), lts_site_pct(st)),
		(unsigned long long)total, st->rows > 1 ? ", rows summed" : "");
	if (st->flip)
		fprintf(f, "  action:    use %s() (misses above %g%%)\n",
			st->call.kind == LT_HINT_LIKELY ? "unlikely" : "likely",
			s->o.flip_miss);
	else
		fprintf(f, "  action:    remove the hint (misses above %g%%, not above %g%%)\n",
			s->o.min_miss, s->o.flip_miss);
	if (s->o.callers_note) {	/* the seed's alternative: fix the callers */
		char *note = s->o.callers_note(s->o.callers_ctx, st->function, st->file,
					       st->line);

		if (note)
			fputs(note, f);
		free(note);
	}
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

int lts_make_patch(struct lt_suggest *s, const struct site *const *g,
		   size_t n, struct lt_patch *p)
{
	struct loaded *l = lts_load(s, g[0]->rel);
	size_t changed = 0, size;
	bool any_flip = false;
	char *text, *para;
	char *prof;
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
	prof = s->o.profile ? lts_esc_dup(s->o.profile) : NULL;
	wrap(f, "Profile: ", "", prof ? prof : "?", strlen(prof ? prof : "?"));
	free(prof);
	fprintf(f, "(%s format), read by likelytop --suggest.\n\n",
		kattr_profile_format_name(s->o.format));
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

/* Located sites, sorted by file and line, into patches: one per function,
 * or per run of edits close enough for their hunks to touch. */
int lts_build(struct lt_suggest *s, struct site **ok, size_t n,
	      struct lt_suggestions *sg)
{
	size_t i = 0;
	int ret = 0;

	lts_sort_located(ok, n);
	sg->patches = calloc(n ? n : 1, sizeof(*sg->patches));
	if (!sg->patches)
		return -ENOMEM;
	while (i < n && ret == 0) {
		size_t j = i + 1;

		while (j < n && !strcmp(ok[j]->rel, ok[i]->rel) &&
		       (!strcmp(ok[j]->function, ok[j - 1]->function) ||
			ok[j]->call.line <= ok[j - 1]->call.end_line + 2 * CONTEXT + 1))
			j++;
		ret = lts_make_patch(s, (const struct site *const *)ok + i, j - i,
				 &sg->patches[sg->npatches]);
		if (ret == 0)
			sg->npatches++;
		i = j;
	}
	return ret;
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
	/* A directory, not through a symlink (with or without trailing
	 * slashes, outfile.h): the series goes there. */
	fd = tool_dir_open_nofollow(out);
	if (fd >= 0) {
		ret = write_series(sg, fd, out, err, errsize);
		close(fd);
		return ret;
	}
	if (fd != -ENOTDIR && fd != -ENOENT && fd != -ELOOP)
		return fd;
	if (tool_dir_len(out) < strlen(out)) {
		/* a directory was meant: "link/" is refused as link */
		if (fd != -ELOOP)
			return -ENOENT;
		snprintf(err, errsize, "%.*s", (int)tool_dir_len(out), out);
		return -ELOOP;
	}
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
