// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * likelytop --callers SITE -p PID (callers_user.h): the callers of a
 * hinted function in a user-space program.  Two mechanisms:
 *   - likely_prof.h's own per-caller counts (a program built with
 *     LIKELY_PROF_CALLERS): PID.callers beside its profile, read every
 *     -d; exact, and counted since the program started;
 *   - --uprobe: a uprobe event on the function (callers_uprobe.c) in
 *     likelytop's tracefs instance (callers_trace.c), its records
 *     streamed and counted here per return address, each snapshot over
 *     its own interval; the argument the hint tests read from its
 *     register.
 * Callers are named as symbol+offset in their file (callers_elf.c), the
 * file given as module.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>
#include <kattr/kattr.h>

#include "callers_elf.h"
#include "callers_note.h"
#include "callers_site.h"
#include "callers_trace.h"
#include "callers_uprobe.h"
#include "callers_user.h"
#include "esc.h"
#include "kattr/private_core.h"
#include "likelytop.h"
#include "strutils.h"
#include "tool.h"

#define DRAIN_SEC 0.1

/* One caller: an address in the process (uprobe) or a file offset. */
struct ucaller {
	uint64_t addr;		/* the key: the process's address, or off */
	const char *object;	/* its file (NULL until known) */
	uint64_t off;
	uint64_t calls, wrong;
};

struct urun {
	struct lt_app *app;
	pid_t pid;
	bool uprobe;
	struct lt_site site;
	char callers_path[PATH_MAX];	/* likely_prof: PID.callers */
	char where[PATH_MAX + 64];	/* "file:line" of the hint (likely_prof) */
	/* the counts: open addressing on addr (uprobe), or a list */
	struct ucaller *slot;
	size_t cap, n;
	uint64_t calls, wrong;
	/* uprobe */
	struct lt_trace trace;
	struct lt_uprobe probe;
	char binary[PATH_MAX];
	uint64_t binoff;
	char *maps;		/* the last /proc/PID/maps read */
	bool gone;		/* the process exited */
	uint64_t lost_before;
	/* names */
	struct lt_elf *elf;
	size_t nelf;
	char **objects;		/* interned file names */
	size_t nobjects;
	double start, end;
};

static struct urun *ucur;

static void ucleanup(void)
{
	struct urun *r = ucur;

	if (!r)
		return;
	ucur = NULL;
	if (r->uprobe && r->trace.m) {
		lt_uprobe_remove(&r->probe);
		lt_trace_close(&r->trace);
	}
	for (size_t i = 0; i < r->nelf; i++)
		lt_elf_free(&r->elf[i]);
	free(r->elf);
	for (size_t i = 0; i < r->nobjects; i++)
		free(r->objects[i]);
	free(r->objects);
	free(r->slot);
	free(r->maps);
}

static const char *intern(struct urun *r, const char *name)
{
	char **g;

	for (size_t i = 0; i < r->nobjects; i++)
		if (!strcmp(r->objects[i], name))
			return r->objects[i];
	g = realloc(r->objects, (r->nobjects + 1) * sizeof(*g));
	if (!g || !(g[r->nobjects] = strdup(name)))
		tool_die(EXIT_FAIL, "out of memory");
	r->objects = g;
	return r->objects[r->nobjects++];
}

static void grow(struct urun *r)
{
	size_t cap = r->cap ? 2 * r->cap : 256;
	struct ucaller *s = calloc(cap, sizeof(*s));

	if (!s)
		tool_die(EXIT_FAIL, "out of memory counting callers");
	for (size_t i = 0; i < r->cap; i++) {
		size_t j;

		if (!r->slot[i].calls)
			continue;
		for (j = (r->slot[i].addr * 0x9e3779b97f4a7c15ULL) >> 20 & (cap - 1);
		     s[j].calls; j = (j + 1) & (cap - 1))
			;
		s[j] = r->slot[i];
	}
	free(r->slot);
	r->slot = s;
	r->cap = cap;
}

/* The slot of (addr, object): calls 0 when new. */
static struct ucaller *slot_of(struct urun *r, uint64_t addr, const char *object)
{
	size_t j;

	if (2 * (r->n + 1) > r->cap)
		grow(r);
	for (j = (addr * 0x9e3779b97f4a7c15ULL) >> 20 & (r->cap - 1);
	     r->slot[j].calls && (r->slot[j].addr != addr || r->slot[j].object != object);
	     j = (j + 1) & (r->cap - 1))
		;
	if (!r->slot[j].calls) {
		r->slot[j].addr = addr;
		r->slot[j].object = object;
		r->n++;
	}
	return &r->slot[j];
}

static void reset(struct urun *r)
{
	memset(r->slot, 0, r->cap * sizeof(*r->slot));
	r->n = 0;
	r->calls = r->wrong = 0;
}

/* addr in the process, through maps: its file and offset there. */
static bool map_addr(const char *maps, uint64_t addr, char *path, size_t size,
		     uint64_t *off)
{
	for (const char *l = maps; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		unsigned long lo, hi, o;
		int p = 0;
		size_t len;

		if (sscanf(l, "%lx-%lx %*s %lx %*s %*s %n", &lo, &hi, &o, &p) < 3 ||
		    !p || addr < lo || addr >= hi || l[p] != '/')
			continue;
		len = (size_t)(strchrnul(l + p, '\n') - (l + p));
		if (len >= size)
			return false;
		memcpy(path, l + p, len);
		path[len] = '\0';
		*off = addr - lo + o;
		return true;
	}
	return false;
}

static void read_maps(struct urun *r)
{
	char path[64], *text;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)r->pid);
	if (kattr_root_file_read(tool_root(), path, &text, NULL) == 0) {
		free(r->maps);
		r->maps = text;
	}
}

static const struct lt_elf *elf_of(struct urun *r, const char *path)
{
	struct lt_elf *g;

	for (size_t i = 0; i < r->nelf; i++)
		if (!strcmp(r->elf[i].path, path))
			return &r->elf[i];
	g = realloc(r->elf, (r->nelf + 1) * sizeof(*g));
	if (!g)
		tool_die(EXIT_FAIL, "out of memory");
	r->elf = g;
	(void)lt_elf_load(&r->elf[r->nelf], path);
	if (!r->elf[r->nelf].path)
		tool_die(EXIT_FAIL, "out of memory");
	return &r->elf[r->nelf++];
}

/* "sym+0xOFF" and the file's last component as the module. */
static void caller_name(struct urun *r, const struct ucaller *c, char *buf,
			size_t size, const char **module)
{
	const char *slash;

	if (!c->object || !c->object[0]) {
		snprintf(buf, size, "%#" PRIx64, c->off);
		*module = NULL;
		return;
	}
	lt_elf_name(elf_of(r, c->object), c->off, buf, size);
	slash = strrchr(c->object, '/');
	*module = slash ? slash + 1 : c->object;
}

/* The uprobe's callers, by address, given their file and offset. */
static void resolve(struct urun *r)
{
	char path[PATH_MAX];

	for (size_t i = 0; i < r->cap; i++) {
		struct ucaller *c = &r->slot[i];

		if (!c->calls || c->object)
			continue;
		if (map_addr(r->maps, c->addr, path, sizeof(path), &c->off))
			c->object = intern(r, path);
		else
			c->off = c->addr;
	}
}

static int by_wrong(const void *a, const void *b)
{
	const struct ucaller *x = a, *y = b;

	if (x->wrong != y->wrong)
		return x->wrong < y->wrong ? 1 : -1;
	if (x->calls != y->calls)
		return x->calls < y->calls ? 1 : -1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static struct ucaller *sorted(const struct urun *r)
{
	struct ucaller *v = malloc((r->n ? r->n : 1) * sizeof(*v));
	size_t k = 0;

	if (!v)
		tool_die(EXIT_FAIL, "out of memory");
	for (size_t i = 0; i < r->cap; i++)
		if (r->slot[i].calls)
			v[k++] = r->slot[i];
	qsort(v, k, sizeof(*v), by_wrong);
	return v;
}

static const char *mechanism(const struct urun *r)
{
	return r->uprobe ? "uprobe, every call streamed from trace_pipe_raw, counted in likelytop"
			 : "likely_prof.h per-caller counts (LIKELY_PROF_CALLERS), since the program started";
}

/* What goes against the hint, in words. */
static void wrong_when(const struct urun *r, char *buf, size_t size)
{
	const struct lt_site *s = &r->site;

	buf[0] = '\0';
	if (!r->uprobe)
		snprintf(buf, size, "the condition is %s", s->likely ? "false" : "true");
	else if (s->split && lt_cond_filter(&s->cond, s->cond.var, buf, size) == 0 && !buf[0])
		snprintf(buf, size, "always");
}

/*
 * One row: the counts and "caller [module]", both escaped (esc.h): the
 * names are the program's, its files' and its PID.callers file's.
 */
static void print_row(FILE *f, struct urun *r, const struct ucaller *c, bool split)
{
	char name[512];
	const char *mod;

	caller_name(r, c, name, sizeof(name), &mod);
	if (split)
		fprintf(f, "%12" PRIu64 " %12" PRIu64 " %7.2f  ", c->calls, c->wrong,
			100.0 * (double)c->wrong / (double)c->calls);
	else
		fprintf(f, "%12" PRIu64 " %12s %7s  ", c->calls, "-", "-");
	tool_fputs_esc(name, f, 0);
	if (mod) {
		fputs(" [", f);
		tool_fputs_esc(mod, f, 0);
		fputc(']', f);
	}
	fputc('\n', f);
}

static void print_text(struct urun *r, const struct ucaller *v, unsigned long iter,
		       uint64_t lost)
{
	const struct lt_site *s = &r->site;
	bool split = !r->uprobe || s->split;
	char when[512];

	if (!r->app->o.noheadings) {
		fputs("likelytop --callers ", stdout);
		tool_fputs_esc(s->function, stdout, 0);
		printf(" - pid %d, %s - snapshot %lu, %.2f s - %" PRIu64
		       " calls, ", (int)r->pid, mechanism(r), iter,
		       r->end - r->start, r->calls);
		if (split)
			printf("%" PRIu64 " wrong", r->wrong);
		else
			printf("wrong unknown");
		printf(", %zu callers, %" PRIu64 " lost\n", r->n, lost);
		wrong_when(r, when, sizeof(when));
		/* the file, hint and condition are the program's, its
		 * source's or the command line's: escaped (esc.h) */
		if (!r->uprobe) {
			printf("hint: %s() at ", s->likely ? "likely" : "unlikely");
			tool_fputs_esc(r->where, stdout, 0);
		} else if (split) {
			fputs("hint: ", stdout);
			tool_fputs_esc(s->hint, stdout, 0);
			fputs(" (", stdout);
			tool_fputs_esc(s->hint_from, stdout, 0);
			fputc(')', stdout);
		} else {
			fputs("hint: ", stdout);
			tool_fputs_esc(s->hint[0] ? s->hint : "none", stdout, 0);
			fputs(": the split is unknown (", stdout);
			tool_fputs_esc(s->why, stdout, 0);
			fputc(')', stdout);
		}
		if (!r->uprobe || split) {
			fputs(": wrong when ", stdout);
			tool_fputs_esc(when, stdout, 0);
		}
		fputs("\n\n", stdout);
		printf("%12s %12s %7s  %s\n", "CALLS", "WRONG", "WRONG%", "CALLER");
	}
	for (size_t i = 0; i < r->n; i++)
		print_row(stdout, r, &v[i], split);
}

static void print_csv(struct urun *r, const struct ucaller *v, unsigned long iter)
{
	char name[512];
	const char *mod;
	bool split = !r->uprobe || r->site.split;

	if (iter == 1 && !r->app->o.noheadings)
		printf("iteration,caller,module,calls,wrong\n");
	for (size_t i = 0; i < r->n; i++) {
		caller_name(r, &v[i], name, sizeof(name), &mod);
		printf("%lu,", iter);
		tool_fputs_csv(name, stdout);
		putchar(',');
		tool_fputs_csv(mod ? mod : "", stdout);
		printf(",%" PRIu64 ",", v[i].calls);
		if (split)
			printf("%" PRIu64 "\n", v[i].wrong);
		else
			printf("\n");
	}
}

static json_object *json_site(const struct urun *r)
{
	const struct lt_site *s = &r->site;
	json_object *o = json_object_new_object();
	char when[512];

	json_object_object_add(o, "function", tool_json_str(s->function));
	json_object_object_add(o, "pid", json_object_new_int(r->pid));
	json_object_object_add(o, "mechanism", json_object_new_string(mechanism(r)));
	if (r->uprobe) {
		json_object_object_add(o, "binary", tool_json_str(r->binary));
		json_object_object_add(o, "hint", s->hint[0] ? tool_json_str(s->hint) : NULL);
		json_object_object_add(o, "hint_from", s->hint[0] ? tool_json_str(s->hint_from) : NULL);
	} else {
		json_object_object_add(o, "hint", json_object_new_string(s->likely ? "likely" : "unlikely"));
		json_object_object_add(o, "hint_from", tool_json_str(r->where));
	}
	wrong_when(r, when, sizeof(when));
	if (!r->uprobe || s->split) {
		json_object_object_add(o, "wrong_when", tool_json_str(when));
	} else {
		json_object_object_add(o, "wrong_when", NULL);
		json_object_object_add(o, "unknown_why", tool_json_str(s->why));
	}
	return o;
}

static void print_json(struct urun *r, const struct ucaller *v, unsigned long iter,
		       uint64_t lost)
{
	json_object *o = json_object_new_object(), *a = json_object_new_array();
	bool split = !r->uprobe || r->site.split;
	char name[512];
	const char *mod;

	json_object_object_add(o, "site", json_site(r));
	json_object_object_add(o, "iteration", json_object_new_int64((int64_t)iter));
	json_object_object_add(o, "start", json_object_new_double(r->start));
	json_object_object_add(o, "end", json_object_new_double(r->end));
	json_object_object_add(o, "calls", json_object_new_int64((int64_t)r->calls));
	json_object_object_add(o, "wrong", split ? json_object_new_int64((int64_t)r->wrong) : NULL);
	json_object_object_add(o, "lost", json_object_new_int64((int64_t)lost));
	for (size_t i = 0; i < r->n; i++) {
		json_object *e = json_object_new_object();

		caller_name(r, &v[i], name, sizeof(name), &mod);
		json_object_object_add(e, "caller", tool_json_str(name));
		json_object_object_add(e, "module", mod ? tool_json_str(mod) : NULL);
		json_object_object_add(e, "calls", json_object_new_int64((int64_t)v[i].calls));
		json_object_object_add(e, "wrong", split ?
				       json_object_new_int64((int64_t)v[i].wrong) : NULL);
		json_object_array_add(a, e);
	}
	json_object_object_add(o, "callers", a);
	printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
}

static void snapshot(struct urun *r, unsigned long iter)
{
	uint64_t lost = r->uprobe ? lt_trace_lost(&r->trace) : 0;
	struct ucaller *v;

	if (r->uprobe)
		resolve(r);
	v = sorted(r);
	if (r->app->o.format == LT_OUT_JSON)
		print_json(r, v, iter, lost - r->lost_before);
	else if (r->app->o.format == LT_OUT_CSV)
		print_csv(r, v, iter);
	else
		print_text(r, v, iter, lost - r->lost_before);
	free(v);
	r->lost_before = lost;
	if (fflush(stdout) == EOF && errno == EPIPE)
		exit(EXIT_FAIL);	/* the reader left (| head): no message */
	if (ferror(stdout))
		tool_die(EXIT_FAIL, "write error on standard output: %s",
			 lt_strerror(-errno));
}

/* A callers file: a regular file only, never a FIFO that would block,
 * nor a symbolic link followed. */
static int read_regular(const char *path, char **text, size_t *len)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC), ret;
	struct stat st;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	ret = kattr_read_fd(fd, text, len);
	close(fd);
	return ret;
}

/* basename(a) == basename(b) */
static bool same_base(const char *a, const char *b)
{
	const char *x = strrchr(a, '/'), *y = strrchr(b, '/');

	return !strcmp(x ? x + 1 : a, y ? y + 1 : b);
}

/* Does the row belong to SITE (a function, or FILE:LINE)? */
static bool row_matches(const char *site, const struct lt_ucaller_row *w)
{
	const char *colon = strrchr(site, ':');
	char file[PATH_MAX];
	unsigned long long line;

	if (colon && colon != site && isdigit((unsigned char)colon[1]) &&
	    (size_t)(colon - site) < sizeof(file) &&
	    str_parse_uint(colon + 1, UINT_MAX, NULL, &line, NULL) == 0) {
		memcpy(file, site, (size_t)(colon - site));
		file[colon - site] = '\0';
		return w->line == line && same_base(w->file, file);
	}
	return !strcmp(w->func, site);
}

/* The rows of the one hint SITE names; dies when none, or several. */
static void pick_site(struct urun *r, const struct lt_ucaller_row *w, size_t n)
{
	const char *site = r->app->o.callers;
	const struct lt_ucaller_row *first = NULL;

	for (size_t i = 0; i < n; i++) {
		if (!row_matches(site, &w[i]))
			continue;
		if (!first) {
			first = &w[i];
		} else if (first->line != w[i].line || strcmp(first->file, w[i].file)) {
			tool_die(EXIT_FAIL, "--callers %s: %s has several hints (%s:%u, %s:%u, ...): give one as FILE:LINE",
				 TOOL_Q(site), TOOL_Q(first->func), TOOL_Q(first->file), first->line,
				 TOOL_Q(w[i].file), w[i].line);
		}
	}
	if (!first)
		tool_die(EXIT_FAIL, "--callers %s: %s has no caller counts for it yet (is the program built with -DLIKELY_PROF_CALLERS, and has the hint been evaluated? --uprobe traces a program built without)",
			 TOOL_Q(site), TOOL_Q(r->callers_path));
	snprintf(r->site.function, sizeof(r->site.function), "%s", first->func);
	snprintf(r->where, sizeof(r->where), "%s:%u", first->file, first->line);
	r->site.likely = first->likely;
}

/* One PID.callers row of the site into r: its caller's slot and the
 * totals (a row without evaluations adds no caller). */
static void add_row(struct urun *r, const struct lt_ucaller_row *w)
{
	uint64_t wrong = w->likely ? w->f : w->t;
	struct ucaller *c;

	if (!(w->t + w->f))
		return;
	c = slot_of(r, w->off, intern(r, w->object));
	c->off = w->off;
	c->calls += w->t + w->f;
	c->wrong += wrong;
	r->calls += w->t + w->f;
	r->wrong += wrong;
}

/* Read PID.callers again: the counts since the program started. */
static void read_file(struct urun *r)
{
	struct lt_ucaller_row *w;
	size_t n, bad;
	char *text;
	size_t len;
	int ret = read_regular(r->callers_path, &text, &len);

	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot read %s: %s%s", TOOL_Q(r->callers_path),
			 ret == -EINVAL || ret == -ELOOP ? "not a regular file" : lt_strerror(ret),
			 ret == -ENOENT ? " (no per-caller counts: build the program with -DLIKELY_PROF_CALLERS, or use --uprobe)" : "");
	ret = lt_ucallers_parse(text, len, &w, &n, &bad);
	free(text);
	if (ret < 0)
		tool_die(EXIT_FAIL, "%s: line %zu: %s", TOOL_Q(r->callers_path), bad,
			 ret == -ENOMEM ? "out of memory" : "not a likely_prof callers file");
	if (!r->site.function[0])
		pick_site(r, w, n);
	reset(r);
	for (size_t i = 0; i < n; i++) {
		char where[PATH_MAX + 32];

		snprintf(where, sizeof(where), "%s:%u", w[i].file, w[i].line);
		if (!strcmp(w[i].func, r->site.function) && !strcmp(where, r->where))
			add_row(r, &w[i]);
	}
	lt_ucallers_free(w, n);
}

/* Which argument the hint's variable is: from argN, or the source. */
static int arg_of(struct urun *r, int *bits, bool *sign)
{
	struct lt_site *s = &r->site;
	const char *v = s->cond.var, *colon = strrchr(s->hint_from, ':');
	struct kattr_mount *m;
	char file[PATH_MAX], *text;
	size_t len;
	int idx = 0;

	*bits = 64;
	*sign = false;
	if (!strncmp(v, "arg", 3) && v[3] >= '1' && v[3] <= '6' && !v[4])
		return v[3] - '0';
	if (!r->app->o.srcdir || !colon || strcmp(s->hint_from, "--condition") == 0 ||
	    (size_t)(colon - s->hint_from) >= sizeof(file))
		return 0;
	memcpy(file, s->hint_from, (size_t)(colon - s->hint_from));
	file[colon - s->hint_from] = '\0';
	if (kattr_dir_open(r->app->o.srcdir, &m) < 0)
		return 0;
	if (kattr_read_alloc(m, file, &text, &len) == 0) {
		idx = lt_ucallers_param(text, len, s->function, v, bits, sign);
		free(text);
	}
	kattr_mount_close(m);
	return idx <= 6 ? idx : 0;
}

/* The file holding fn: the program, else a library it has mapped. */
static void find_binary(struct urun *r)
{
	char exe[64], path[PATH_MAX];
	uint64_t va, off;
	ssize_t n;

	snprintf(exe, sizeof(exe), "/proc/%d/exe", (int)r->pid);
	n = readlink(exe, path, sizeof(path) - 1);
	if (n < 0)
		tool_die(EXIT_FAIL, "--callers -p %d: %s: %s", (int)r->pid, exe,
			 lt_strerror(-errno));
	path[n] = '\0';
	read_maps(r);
	if (!r->maps)
		tool_die(EXIT_FAIL, "--callers -p %d: cannot read /proc/%d/maps", (int)r->pid,
			 (int)r->pid);
	for (const char *l = r->maps, *cand = path; cand;) {
		if (lt_elf_func(elf_of(r, cand), r->site.function, &va, &off) == 0) {
			snprintf(r->binary, sizeof(r->binary), "%s", cand);
			r->binoff = off;
			return;
		}
		/* next executable file mapping */
		for (cand = NULL; !cand && l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
			char perms[8];
			int p = 0;

			if (sscanf(l, "%*x-%*x %7s %*s %*s %*s %n", perms, &p) == 1 && p &&
			    strchr(perms, 'x') && l[p] == '/') {
				size_t len = (size_t)(strchrnul(l + p, '\n') - (l + p));

				if (len < sizeof(path)) {
					memcpy(path, l + p, len);
					path[len] = '\0';
					cand = path;
				}
			}
		}
	}
	tool_die(EXIT_FAIL, "--callers %s -p %d: no function %s in the program or the libraries it has mapped (a stripped binary has no symbols for it)",
		 TOOL_Q(r->app->o.callers), (int)r->pid, TOOL_Q(r->site.function));
}

static void count(const unsigned char *rec, size_t len, void *arg)
{
	struct urun *r = arg;
	struct ucaller *c;
	uint16_t type;
	uint64_t site;
	bool wrong = false;

	if (len < 2)
		return;
	memcpy(&type, rec, 2);
	if (type != r->trace.id)
		return;
	site = lt_rb_field_get(&r->trace.call_site, rec, len);
	if (r->site.split)
		wrong = lt_cond_true(&r->site.cond, lt_rb_field_get(&r->trace.arg, rec, len));
	c = slot_of(r, site, NULL);
	c->calls++;
	c->wrong += wrong;
	r->calls++;
	r->wrong += wrong;
}

/* Only this process's threads (and those they start) are recorded. */
static int only_pid(struct urun *r)
{
	char dir[64], path[128], *list = NULL;
	size_t len = 0;
	FILE *f;
	DIR *d;
	struct dirent *de;
	int ret, k = 0;

	snprintf(dir, sizeof(dir), "/proc/%d/task", (int)r->pid);
	d = opendir(dir);
	if (!d)
		return -errno;
	f = open_memstream(&list, &len);
	while (f && (de = readdir(d)))
		if (isdigit((unsigned char)de->d_name[0]))
			fprintf(f, "%s%s", k++ ? " " : "", de->d_name);
	closedir(d);
	if (!f || fclose(f) != 0)
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/options/event-fork", r->trace.inst);
	ret = kattr_write_str(r->trace.m, path, "1");
	snprintf(path, sizeof(path), "%s/set_event_pid", r->trace.inst);
	if (ret == 0)
		ret = kattr_write_str(r->trace.m, path, list);
	free(list);
	return ret;
}

static void setup_uprobe(struct urun *r)
{
	char why[1024];
	int bits = 64, argno = 0, ret;
	unsigned int swept;
	bool sign = false;

	find_binary(r);
	if (r->site.split) {
		argno = arg_of(r, &bits, &sign);
		if (!argno) {
			r->site.split = false;
			snprintf(r->site.why, sizeof(r->site.why),
				 "which argument of %.100s '%.60s' is not known: give FILE:LINE with -S, or write the condition on arg1 to arg6",
				 r->site.function, r->site.cond.var);
		}
	}
	ret = lt_trace_open(&r->trace, why, sizeof(why));
	if (ret < 0)
		tool_die(EXIT_FAIL, "%s", TOOL_Q(why));
	if (r->trace.stale_removed)
		tool_warn("removed %u tracefs instance%s left by killed runs",
			  r->trace.stale_removed, r->trace.stale_removed == 1 ? "" : "s");
	swept = lt_uprobe_sweep(&r->trace);
	if (swept)
		tool_warn("removed %u uprobe event%s left by killed runs", swept,
			  swept == 1 ? "" : "s");
	ret = lt_uprobe_make(&r->probe, &r->trace, r->binary, r->binoff, r->site.function,
			     argno, bits, sign, why, sizeof(why));
	if (ret == 0)
		ret = lt_trace_prepare(&r->trace, r->probe.group, r->probe.event,
				       argno ? "arg" : NULL, why, sizeof(why));
	if (ret < 0)
		tool_die(EXIT_FAIL, "%s", TOOL_Q(why));
	if (r->site.split && r->trace.arg.is_signed)
		lt_site_signed(&r->site);
	ret = only_pid(r);
	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot limit %s/%s to pid %d: %s", LT_TRACEFS,
			 r->trace.inst, (int)r->pid, lt_strerror(ret));
}

/* Wait until deadline or a signal: false on a signal. */
static bool wait_until(struct lt_app *a, double deadline)
{
	struct signalfd_siginfo si;
	struct epoll_event ev;
	double now = lt_now();
	int ep, n;
	bool stop = false;

	if (now >= deadline)
		return true;
	ep = epoll_create1(EPOLL_CLOEXEC);
	ev.events = EPOLLIN;
	ev.data.fd = a->sfd;
	if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, a->sfd, &ev) < 0)
		tool_die(EXIT_FAIL, "cannot wait: %s", lt_strerror(-errno));
	n = epoll_wait(ep, &ev, 1, (int)ceil((deadline - now) * 1000));
	if (n > 0)
		while (read(a->sfd, &si, sizeof(si)) == sizeof(si))
			stop |= si.ssi_signo != SIGWINCH && si.ssi_signo != SIGCHLD;
	close(ep);
	return !stop;
}

/* Has the traced process exited (or become a zombie)? */
static bool process_gone(pid_t pid)
{
	char path[64], buf[8];

	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	return readlink(path, buf, sizeof(buf)) < 0 && errno == ENOENT;
}

static void drain(struct urun *r)
{
	size_t before = r->n;
	int ret = lt_trace_drain(&r->trace, count, r);

	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot read %s/%s/per_cpu/cpu*/trace_pipe_raw: %s",
			 LT_TRACEFS, r->trace.inst, lt_strerror(ret));
	if (r->n != before && !r->gone)
		read_maps(r);	/* new callers: name them while the process lives */
}

/* --uprobe: snapshots of intervals, until -n, a signal or the exit of
 * the process (its last interval then printed). */
static void run_uprobe(struct urun *r, long want)
{
	unsigned long iter = 0;
	double next_snap;
	bool go = true;

	r->start = lt_now();
	if (lt_trace_enable(&r->trace, true) < 0)
		tool_die(EXIT_FAIL, "cannot enable %s/%s in %s/%s", r->probe.group,
			 r->probe.event, LT_TRACEFS, r->trace.inst);
	next_snap = r->start + r->app->o.delay;
	while (go && (want == 0 || iter < (unsigned long)want)) {
		double now = lt_now();
		bool last;

		go = wait_until(r->app, fmin(next_snap, now + DRAIN_SEC));
		now = lt_now();
		r->gone = r->gone || process_gone(r->pid);
		last = !go || r->gone ||
		       (want && iter + 1 == (unsigned long)want && now >= next_snap);
		if (last)
			lt_trace_enable(&r->trace, false);
		r->end = lt_now();
		drain(r);
		if (now < next_snap && go && !r->gone)
			continue;
		if (!go && want != 0)
			break;	/* interrupted: no partial snapshot */
		snapshot(r, ++iter);
		reset(r);
		r->start = r->end;
		next_snap += r->app->o.delay;
		if (r->gone)
			break;
	}
}

/* likely_prof.h's counts: a snapshot now, then every -d. */
static void run_file(struct urun *r, long want)
{
	unsigned long iter = 0;
	char dir[PATH_MAX];
	int ret = lt_prof_dir(dir, sizeof(dir));

	if (ret < 0)
		tool_die(EXIT_FAIL, "no profile directory: set LIKELY_PROF_DIR (or XDG_RUNTIME_DIR or HOME)");
	if ((size_t)snprintf(r->callers_path, sizeof(r->callers_path), "%s/%d.callers", dir,
			     (int)r->pid) >= sizeof(r->callers_path))
		tool_die(EXIT_FAIL, "%s: name too long", TOOL_Q(dir));
	r->start = lt_now();
	for (;;) {
		r->end = lt_now();
		read_file(r);
		snapshot(r, ++iter);
		if (want && iter >= (unsigned long)want)
			break;
		if (!wait_until(r->app, lt_now() + r->app->o.delay))
			break;
	}
}

int lt_ucallers_run(struct lt_app *a)
{
	static struct urun r;
	long want = a->o.iterations < 0 ? 1 : a->o.iterations;
	int ret;

	r.app = a;
	r.pid = a->o.pid;
	r.uprobe = a->o.uprobe;
	ucur = &r;
	atexit(ucleanup);
	signal(SIGPIPE, SIG_IGN);
	grow(&r);
	if (r.uprobe) {
		ret = lt_site_resolve_user(&r.site, a->o.callers, a->o.srcdir, a->o.condition);
		if (ret < 0)
			tool_die(EXIT_FAIL, "--callers %s: %s", TOOL_Q(a->o.callers),
				 TOOL_Q(r.site.why));
		setup_uprobe(&r);
		run_uprobe(&r, want);
	} else {
		run_file(&r, want);
	}
	ucleanup();
	return EXIT_OK;
}

/* The live view's state: names of files read once per run. */
static struct urun view_names;

static void view_names_free(void)
{
	struct urun *r = &view_names;

	for (size_t i = 0; i < r->nelf; i++)
		lt_elf_free(&r->elf[i]);
	free(r->elf);
	for (size_t i = 0; i < r->nobjects; i++)
		free(r->objects[i]);
	free(r->objects);
	free(r->slot);
	memset(r, 0, sizeof(*r));
}

/* The rows of one site, summed by caller into r (its slots). */
static void view_count(struct urun *r, const struct lt_ucaller_row *w, size_t n,
		       const char *func, const char *file, unsigned int line)
{
	reset(r);
	for (size_t i = 0; i < n; i++)
		if (w[i].line == line && !strcmp(w[i].func, func) && !strcmp(w[i].file, file))
			add_row(r, &w[i]);
}

char *lt_ucallers_site_text(const char *path, const char *func, const char *file,
			    unsigned int line)
{
	struct urun *r = &view_names;
	struct lt_ucaller_row *w = NULL;
	size_t n = 0, bad, len, tlen;
	char *text, *out = NULL;
	struct ucaller *v;
	int ret = read_regular(path, &text, &len);
	FILE *f = open_memstream(&out, &tlen);

	if (!f)
		return NULL;
	if (!r->cap) {
		grow(r);
		atexit(view_names_free);
	}
	if (ret == 0) {
		ret = lt_ucallers_parse(text, len, &w, &n, &bad);
		free(text);
	}
	if (ret < 0) {
		fprintf(f, "%s: %s\n", TOOL_Q(path), ret == -ENOENT ?
			"not there: the program keeps no counts per caller (build it with -DLIKELY_PROF_CALLERS)" :
			ret == -EINVAL ? "not a likely_prof callers file (or not a regular file)" :
			lt_strerror(ret));
		fclose(f);
		return out;
	}
	view_count(r, w, n, func, file, line);
	lt_ucallers_free(w, n);
	fprintf(f, "%" PRIu64 " calls, %" PRIu64 " wrong, %zu callers (likely_prof.h, since the program started)\n\n",
		r->calls, r->wrong, r->n);
	if (!r->n)
		fprintf(f, "no caller counts for this site: its file was not built with -DLIKELY_PROF_CALLERS\n");
	else
		fprintf(f, "%12s %12s %7s  %s\n", "CALLS", "WRONG", "WRONG%", "CALLER");
	v = sorted(r);
	for (size_t i = 0; i < r->n; i++)
		print_row(f, r, &v[i], true);
	free(v);
	if (fclose(f) != 0) {
		free(out);
		return NULL;
	}
	return out;
}

char *lt_ucallers_note(void *path, const char *func, const char *file,
		       unsigned int line)
{
	struct lt_note_caller top[2] = { { 0 } };
	struct urun *r = &view_names;
	struct lt_ucaller_row *w;
	char *text, *out, name[2][512];
	size_t n, bad, len;
	struct ucaller *v;

	if (read_regular(path, &text, &len) < 0)
		return NULL;
	n = lt_ucallers_parse(text, len, &w, &n, &bad) == 0 ? n : 0;
	free(text);
	if (!n)
		return NULL;
	if (!r->cap) {
		grow(r);
		atexit(view_names_free);
	}
	view_count(r, w, n, func, file, line);
	lt_ucallers_free(w, n);
	v = sorted(r);
	for (size_t i = 0; i < 2 && i < r->n; i++) {
		caller_name(r, &v[i], name[i], sizeof(name[i]), &top[i].module);
		top[i].name = name[i];
		top[i].calls = v[i].calls;
		top[i].wrong = v[i].wrong;
	}
	out = lt_callers_note(top, r->n, r->wrong, "counted per caller by likely_prof.h");
	free(v);
	return out;
}
