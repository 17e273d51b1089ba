// SPDX-License-Identifier: GPL-2.0-or-later
/* likelytop --suggest and the live view's p key: suggest.c on the model. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "callers_saved.h"
#include "callers_user.h"
#include "config.h"
#include "esc.h"
#include "kattr/kattr.h"
#include "likelytop.h"
#include "suggest.h"
#include "tool.h"

static struct lt_suggest *live;	/* the p key's tree, opened once */
static struct lt_saved saved;		/* --callers-from, read once */

static void saved_free(void)
{
	lt_saved_free(&saved);
}

/*
 * --callers-from FILE: the saved snapshots (a file, or a pipe such as
 * <(likelytop --callers kfree -b -J)), read once; 0, or -1 with the
 * message in err.
 */
static int load_saved(const char *path, char *err, size_t size)
{
	static bool loaded;
	const char *why;
	size_t len, bad;
	char *text;
	int fd, ret;

	if (loaded)
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	ret = fd < 0 ? -errno : kattr_read_fd(fd, &text, &len);
	if (fd >= 0)
		close(fd);
	if (ret < 0) {
		snprintf(err, size, "cannot read %s: %s", path, lt_strerror(ret));
		return -1;
	}
	ret = lt_saved_parse(text, len, &saved, &bad, &why);
	free(text);
	if (ret == -EINVAL) {
		snprintf(err, size, "%s: line %zu: %s", path, bad, why);
		return -1;
	}
	if (ret < 0) {
		snprintf(err, size, "cannot read %s: %s", path, lt_strerror(ret));
		return -1;
	}
	loaded = true;
	atexit(saved_free);
	return 0;
}

static void fill_opts(const struct lt_app *a, const char *dir,
		      struct lt_suggest_opts *so)
{
	static char version[64];

	snprintf(version, sizeof(version), "likelytop (kattr suite) %s",
		 SUITE_VERSION);
	memset(so, 0, sizeof(*so));
	so->srcdir = dir;
	so->min_total = a->o.min_total_set || a->o.suggest ? a->o.min_total :
			LT_SUGGEST_MIN_TOTAL;
	so->min_miss = a->o.min_miss;
	so->flip_miss = a->o.flip_miss;
	so->profile = a->src.name;
	so->format = a->model.shown.format;
	so->version = version;
	if (a->src.kind == LT_SRC_USER && a->src.path) {
		/* a program that counts its callers (LIKELY_PROF_CALLERS) */
		static char callers[4096];

		snprintf(callers, sizeof(callers), "%s.callers", a->src.path);
		so->callers_note = lt_ucallers_note;
		so->callers_ctx = callers;
	}
	if (a->o.callers_from) {	/* loaded by the caller */
		so->callers_note = lt_saved_note;
		so->callers_ctx = &saved;
	}
}

static void close_live(void)
{
	lt_suggest_close(live);
	live = NULL;
}

int lt_suggest_main(struct lt_app *a)
{
	struct kattr_profile_filter f = { .substr = a->o.filter };
	struct lt_suggestions sg;
	struct lt_suggest_opts so;
	struct lt_suggest *s;
	size_t sites = 0;
	char err[4096];
	int ret;

	if (a->o.callers_from && load_saved(a->o.callers_from, err, sizeof(err)) < 0)
		tool_die(EXIT_FAIL, "%s", err);
	fill_opts(a, a->o.suggest, &so);
	ret = lt_suggest_open(&so, &s);
	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot open the source tree %s: %s",
			 a->o.suggest, lt_strerror(ret));
	ret = lt_model_select(&a->model, &f, KATTR_PROFILE_SORT_FILE, false, 0);
	if (ret == 0)
		ret = lt_suggest_all(s, (const struct kattr_profile_entry *const *)a->model.rows,
				     a->model.nrows, &sg);
	lt_suggest_close(s);
	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot build the patches: %s", lt_strerror(ret));
	for (size_t i = 0; i < sg.nrefused; i++)
		tool_warn("refused %s: %s", sg.refused[i].site, sg.refused[i].why);
	for (size_t i = 0; i < sg.npatches; i++)
		sites += sg.patches[i].sites;
	tool_warn("%zu wrong hint%s (at least %llu evaluation%s, misses above %g%%): %zu patch%s for %zu of them, %zu refused",
		  sg.candidates, sg.candidates == 1 ? "" : "s",
		  (unsigned long long)so.min_total, so.min_total == 1 ? "" : "s",
		  so.min_miss, sg.npatches,
		  sg.npatches == 1 ? "" : "es", sites, sg.nrefused);
	ret = lt_suggest_write(&sg, a->o.suggest_out, stdout, err, sizeof(err));
	lt_suggestions_free(&sg);
	if (ret == -EPIPE)
		exit(EXIT_FAIL);
	if (ret == -EINVAL || ret == -ELOOP)
		tool_die(EXIT_FAIL, "refusing to write %s: it is %s, not a regular file",
			 TOOL_Q(err), tool_file_kind(err));
	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot write %s: %s", TOOL_Q(err), lt_strerror(ret));
	return 0;
}

char *lt_suggest_text(struct lt_app *a, const struct kattr_profile_entry *e)
{
	const char *dir = a->o.srcdir ? a->o.srcdir : a->o.suggest;
	const struct kattr_profile_entry **v;
	struct lt_suggest_opts so;
	char *text = NULL;
	int ret;

	if (!dir)
		return strdup("no source tree: give -S SRCDIR to see the suggested patch");
	if (!live) {
		char err[4096];

		if (a->o.callers_from && load_saved(a->o.callers_from, err, sizeof(err)) < 0)
			return strdup(err);
		fill_opts(a, dir, &so);
		ret = lt_suggest_open(&so, &live);
		if (ret < 0) {
			if (asprintf(&text, "cannot open the source tree %s: %s",
				     dir, lt_strerror(ret)) < 0)
				text = NULL;
			return text;
		}
		atexit(close_live);
	}
	/* Every site of the snapshot, not only the filtered rows: a site's
	 * rows are summed. */
	v = malloc((a->model.shown.n ? a->model.shown.n : 1) * sizeof(*v));
	if (!v)
		return NULL;
	for (size_t i = 0; i < a->model.shown.n; i++)
		v[i] = &a->model.shown.entries[i];
	ret = lt_suggest_site(live, v, a->model.shown.n, e, &text);
	free(v);
	return ret < 0 ? NULL : text;
}
