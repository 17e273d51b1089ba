// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The intent journal of a plan's run (kattr/rgplan.h has the format):
 * written before the first change, one write(2) per step boundary, read
 * back by the next process that takes the hierarchy's lock after the
 * writer died.  On tmpfs (rgctl's run-state directory) write(2) is as
 * durable as a journal needs to be: a reboot loses the groups too.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kattr/private_rgconf.h"

#define J_MAGIC		"rgctl-journal 1"
#define J_MAX		(64u << 20)	/* bytes read back at most */

struct kattr_rgjournal {
	int fd;
	int dir;
	char *name;
};

/* ---- writing ------------------------------------------------------------- */

/* One token: bytes <= ' ', >= 0x7f and '\\' as \xNN. */
static void put_tok(FILE *f, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p <= ' ' || *p >= 0x7f || *p == '\\')
			fprintf(f, "\\x%02x", *p);
		else
			fputc(*p, f);
}

static void put_step(FILE *f, const struct kattr_rgplan_step *s)
{
	static const char *const kind[] = { "create", "set", "delete", "res" };
	char text[2048];

	fputs(kind[s->kind], f);
	fputc(' ', f);
	put_tok(f, s->group);
	if (s->kind == KATTR_RGPLAN_SET) {
		fputs(s->old ? " =" : " -", f);
		if (s->old)
			put_tok(f, s->old);
		fprintf(f, " %d", s->enable != NULL);
	}
	if (s->kind == KATTR_RGPLAN_RES) {
		fprintf(f, " %d %d", s->res.fresh, s->no_enable);
		for (size_t k = 0; k < s->res.n; k++) {
			const struct kattr_rgres_value *v = &s->res.old[k];

			fputc(' ', f);
			put_tok(f, v->res->key);
			if (v->off)	/* "KEY!": its controller was off */
				fputc('!', f);
			if (v->unset || kattr_rgres_text(v, text, sizeof(text)) < 0)
				continue;
			fputc('=', f);
			put_tok(f, text);
		}
	}
	fputc('\n', f);
}

/* buf (n bytes) appended to the journal in one write(2) (or as few as
 * the kernel takes). */
static int put(int fd, const char *buf, size_t n)
{
	while (n) {
		ssize_t w = write(fd, buf, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		buf += w;
		n -= (size_t)w;
	}
	return 0;
}

/* What f gathered (an open_memstream) written out; f is closed. */
static int flush_mem(int fd, FILE *f, char **buf, size_t *len)
{
	int ret = ferror(f) ? -ENOMEM : 0;

	if (fclose(f) != 0 && ret == 0)
		ret = -ENOMEM;
	if (ret == 0)
		ret = put(fd, *buf, *len);
	free(*buf);
	return ret;
}

static int journal_new(int dir, const char *name, int fd, struct kattr_rgjournal **out)
{
	struct kattr_rgjournal *j = calloc(1, sizeof(*j));

	if (!j || !(j->name = strdup(name))) {
		free(j);
		return -ENOMEM;
	}
	j->fd = fd;
	j->dir = fcntl(dir, F_DUPFD_CLOEXEC, 3);
	if (j->dir < 0) {
		int e = -errno;

		free(j->name);
		free(j);
		return e;
	}
	*out = j;
	return 0;
}

int kattr_rgjournal_create(int dir, const char *name, const char *cmd,
			   const struct kattr_rgplan *p, struct kattr_rgjournal **out)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int fd, ret;

	*out = NULL;
	if (!name || !*name || strchr(name, '/') || !cmd)
		return -EINVAL;
	f = open_memstream(&buf, &len);
	if (!f)
		return -ENOMEM;
	fprintf(f, J_MAGIC "\ncmd ");
	put_tok(f, cmd);
	fprintf(f, "\npid %d\nsteps %zu\n", (int)getpid(), p->n);
	for (size_t i = 0; i < p->n; i++)
		put_step(f, &p->v[i]);
	for (size_t k = 0; k < p->nsc; k++) {	/* cgroup v2: "sc GROUP WORDS" */
		fputs("sc ", f);
		put_tok(f, p->sc[k].group);
		fputs(" =", f);
		put_tok(f, p->sc[k].words);
		fputc('\n', f);
	}
	fputs("run\n", f);
	fd = openat(dir, name, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_NOFOLLOW |
		    O_CLOEXEC, 0600);
	if (fd < 0) {
		ret = -errno;
		fclose(f);
		free(buf);
		return ret;
	}
	ret = flush_mem(fd, f, &buf, &len);
	if (ret == 0)
		ret = journal_new(dir, name, fd, out);
	if (ret < 0) {
		unlinkat(dir, name, 0);
		close(fd);
	}
	return ret;
}

int kattr_rgjournal_step(struct kattr_rgjournal *j, size_t i,
			 const struct kattr_rgplan_step *s)
{
	char *buf = NULL, small[32];
	size_t len = 0;
	FILE *f;

	if (!j)
		return 0;
	if (s->kind != KATTR_RGPLAN_DELETE) {
		int n = snprintf(small, sizeof(small), "s %zu\n", i);

		return put(j->fd, small, (size_t)n);
	}
	f = open_memstream(&buf, &len);
	if (!f)
		return -ENOMEM;
	fprintf(f, "s %zu\n", i);
	if (s->placed)
		fprintf(f, "P %zu\n", i);
	for (size_t k = 0; k < s->nplaces; k++) {
		const struct kattr_rgplan_place *pl = &s->places[k];

		for (size_t t = 0; t == 0 || t < pl->ntids; t += 64) {
			fprintf(f, "p %zu ", i);
			put_tok(f, pl->hier);
			for (size_t u = t; u < pl->ntids && u < t + 64; u++)
				fprintf(f, " %d", (int)pl->tids[u]);
			fputc('\n', f);
		}
	}
	for (size_t k = 0; k < s->nattrs; k++) {
		if (s->attrs[k].hier) {
			fprintf(f, "A %zu ", i);
			put_tok(f, s->attrs[k].hier);
			fputc(' ', f);
		} else {
			fprintf(f, "a %zu ", i);
		}
		put_tok(f, s->attrs[k].file);
		fputs(" =", f);
		put_tok(f, s->attrs[k].value);
		fputc('\n', f);
	}
	for (size_t k = 0; k < s->ntids; k++) {
		if (k % 64 == 0)
			fprintf(f, "t %zu", i);
		fprintf(f, " %d%s", (int)s->tids[k],
			k % 64 == 63 || k + 1 == s->ntids ? "\n" : "");
	}
	return flush_mem(j->fd, f, &buf, &len);
}

int kattr_rgjournal_steps(struct kattr_rgjournal *j, size_t from, size_t to)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (!j || from >= to)
		return 0;
	if (to - from == 1) {	/* the common case, without a stream */
		char small[32];
		int n = snprintf(small, sizeof(small), "s %zu\n", from);

		return put(j->fd, small, (size_t)n);
	}
	f = open_memstream(&buf, &len);
	if (!f)
		return -ENOMEM;
	for (size_t i = from; i < to; i++)
		fprintf(f, "s %zu\n", i);
	return flush_mem(j->fd, f, &buf, &len);
}

int kattr_rgjournal_undone(struct kattr_rgjournal *j, size_t i)
{
	char buf[32];
	int n;

	if (!j)
		return 0;
	n = snprintf(buf, sizeof(buf), "u %zu\n", i);
	return put(j->fd, buf, (size_t)n);
}

int kattr_rgjournal_close(struct kattr_rgjournal *j, bool remove)
{
	int ret = 0;

	if (!j)
		return 0;
	if (remove && unlinkat(j->dir, j->name, 0) < 0 && errno != ENOENT)
		ret = -errno;
	close(j->fd);
	close(j->dir);
	free(j->name);
	free(j);
	return ret;
}

/* ---- reading --------------------------------------------------------------- */

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Undo put_tok in place (tok is NUL-terminated): 0 or -EINVAL. */
static int unescape(char *tok)
{
	char *w = tok;

	for (const char *r = tok; *r; r++) {
		int hi, lo;

		if ((unsigned char)*r <= ' ' || (unsigned char)*r >= 0x7f)
			return -EINVAL;
		if (*r != '\\') {
			*w++ = *r;
			continue;
		}
		if (r[1] != 'x' || (hi = hexval(r[2])) < 0 || (lo = hexval(r[3])) < 0 ||
		    (hi == 0 && lo == 0))
			return -EINVAL;
		*w++ = (char)(hi << 4 | lo);
		r += 3;
	}
	*w = '\0';
	return 0;
}

/* line split at single spaces into at most max tokens, each unescaped;
 * the count, or -EINVAL.  With rest, the last token takes the rest
 * unsplit (for "t" and "res" lines: *rest). */
static int split(char *line, char **tok, int max, char **rest)
{
	int n = 0;

	if (rest)
		*rest = NULL;
	while (*line) {
		char *sp;

		if (n == max) {
			if (!rest)
				return -EINVAL;
			*rest = line;
			break;
		}
		tok[n++] = line;
		sp = strchr(line, ' ');
		if (!sp)
			break;
		*sp = '\0';
		line = sp + 1;
		if (!*line)
			return -EINVAL;	/* a trailing space */
	}
	for (int i = 0; i < n; i++)
		if (!*tok[i] || unescape(tok[i]) < 0)
			return -EINVAL;
	return n;
}

/* A decimal index below limit. */
static int index_of(const char *s, size_t limit, size_t *out)
{
	char *end;
	unsigned long long v;

	if (*s < '0' || *s > '9' || (*s == '0' && s[1]))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v >= limit)
		return -EINVAL;
	*out = (size_t)v;
	return 0;
}

static int flag_of(const char *s, bool *out)
{
	if (strcmp(s, "0") != 0 && strcmp(s, "1") != 0)
		return -EINVAL;
	*out = *s == '1';
	return 0;
}

/* "=TEXT" (a string) or "-" (none): *out malloc'ed or NULL. */
static int opt_str(const char *s, char **out)
{
	if (strcmp(s, "-") == 0)
		return 0;
	if (*s != '=')
		return -EINVAL;
	*out = strdup(s + 1);
	return *out ? 0 : -ENOMEM;
}

/* The values of a "res" line: "KEY=TEXT", "KEY" (unset) or "KEY!"
 * (unset, its controller was off: cgroup v2), each. */
static int parse_res(struct kattr_rgplan_step *s, char *rest)
{
	struct kattr_rgplan_res *r = &s->res;
	size_t cap = 0;

	while (rest && *rest) {
		char *tok[1], *more;
		struct kattr_rgres_value v;
		int ret = split(rest, tok, 1, &more);

		if (ret != 1)
			return -EINVAL;
		memset(&v, 0, sizeof(v));
		if (strchr(tok[0], '=')) {
			if (kattr_rgres_parse_assign(tok[0], NULL, &v, NULL) < 0)
				return -EINVAL;
		} else {
			size_t len = strlen(tok[0]);

			v.off = len > 1 && tok[0][len - 1] == '!';
			if (v.off)
				tok[0][len - 1] = '\0';
			v.res = kattr_rgres_find(tok[0], NULL);
			v.unset = true;
			if (!v.res)
				return -EINVAL;
		}
		if (kattr_grow((void **)&r->old, &cap, r->n, sizeof(v)) < 0)
			return -ENOMEM;
		r->old[r->n++] = v;
		rest = more;
	}
	if (!r->n)
		return -EINVAL;
	/* want: the same values (the undo reads only old) */
	r->want = malloc(r->n * sizeof(*r->want));
	if (!r->want)
		return -ENOMEM;
	memcpy(r->want, r->old, r->n * sizeof(*r->want));
	return 0;
}

/* One step line of the plan. */
static int parse_step(struct kattr_rgplan *p, char *line)
{
	static const char *const kind[] = { "create", "set", "delete", "res" };
	struct kattr_rgplan_step *s;
	char *tok[4], *rest;
	bool b;
	int n = split(line, tok, 4, &rest), k;

	if (n < 2)
		return -EINVAL;
	for (k = 0; k < 4 && strcmp(tok[0], kind[k]) != 0; k++)
		;
	if (k == 4 || kattr_rgplan_add(p, (enum kattr_rgplan_kind)k, tok[1], &s) < 0)
		return k == 4 ? -EINVAL : -ENOMEM;
	switch (s->kind) {
	case KATTR_RGPLAN_CREATE:
	case KATTR_RGPLAN_DELETE:
		return n == 2 && !rest ? 0 : -EINVAL;
	case KATTR_RGPLAN_SET:
		if (n != 4 || rest || opt_str(tok[2], &s->old) < 0 || flag_of(tok[3], &b) < 0)
			return -EINVAL;
		s->enable = b ? strdup("") : NULL;
		return b && !s->enable ? -ENOMEM : 0;
	case KATTR_RGPLAN_RES:
		if (n != 4 || flag_of(tok[2], &s->res.fresh) < 0 || flag_of(tok[3], &s->no_enable) < 0)
			return -EINVAL;
		return parse_res(s, rest);
	}
	return -EINVAL;
}

/* p[n] grown by one element of size (realloc: the lists are short). */
static int grow1(void **v, size_t n, size_t size)
{
	void *nv = realloc(*v, (n + 1) * size);

	if (!nv)
		return -ENOMEM;
	*v = nv;
	return 0;
}

/* TIDs from rest into *v (n of them). */
static int parse_tids(char *rest, pid_t **v, size_t *n)
{
	char *t[1], *more;
	size_t tid;

	for (; rest; rest = more) {
		if (split(rest, t, 1, &more) != 1 || index_of(t[0], 1u << 22, &tid) < 0 ||
		    tid == 0)
			return -EINVAL;
		if (grow1((void **)v, *n, sizeof(pid_t)) < 0)
			return -ENOMEM;
		(*v)[(*n)++] = (pid_t)tid;
	}
	return 0;
}

/* "p I HIER [TID...]": a place of s (cgroup v1), one more line of it when
 * its hierarchy is the last one's. */
static int parse_place(struct kattr_rgplan_step *s, char *rest)
{
	struct kattr_rgplan_place *pl;
	char *t[1], *more;

	if (!s->placed || !rest || split(rest, t, 1, &more) != 1 || strlen(t[0]) >= 256)
		return -EINVAL;
	pl = s->nplaces ? &s->places[s->nplaces - 1] : NULL;
	if (!pl || strcmp(pl->hier, t[0]) != 0) {
		for (size_t k = 0; k < s->nplaces; k++)
			if (strcmp(s->places[k].hier, t[0]) == 0)
				return -EINVAL;	/* one place per hierarchy */
		if (grow1((void **)&s->places, s->nplaces, sizeof(*pl)) < 0)
			return -ENOMEM;
		pl = &s->places[s->nplaces];
		memset(pl, 0, sizeof(*pl));
		if (!(pl->hier = strdup(t[0])))
			return -ENOMEM;
		s->nplaces++;
	} else if (!more) {
		return -EINVAL;	/* a continuation without threads */
	}
	return parse_tids(more, &pl->tids, &pl->ntids);
}

/* "a I FILE =VALUE", "A I HIER FILE =VALUE", "t I TID...", "P I" and
 * "p I HIER TID..." of the DELETE step just started (tok: the first two
 * tokens; rest: what follows). */
static int parse_saved(struct kattr_rgplan *p, const struct kattr_rgjournal_state *st,
		       char **tok, char *rest)
{
	struct kattr_rgplan_step *s;
	char *t[4], *more;
	size_t i;
	int n;

	if (index_of(tok[1], p->n, &i) < 0 || i + 1 != st->started ||
	    st->undone != st->started || p->v[i].kind != KATTR_RGPLAN_DELETE)
		return -EINVAL;
	s = &p->v[i];
	switch (*tok[0]) {
	case 'P':
		if (rest || s->placed || s->nattrs || s->ntids)
			return -EINVAL;
		s->placed = true;
		return 0;
	case 'p':
		return parse_place(s, rest);
	case 't':
		return rest ? parse_tids(rest, &s->tids, &s->ntids) : -EINVAL;
	}
	n = *tok[0] == 'A' ? 3 : 2;
	if (!rest || split(rest, t, n + 1, &more) != n || more || *t[n - 1] != '=' ||
	    (n == 3 && (!s->placed || strlen(t[0]) >= 256)))
		return -EINVAL;
	{
		struct kattr_rgplan_attr a = { 0 };

		if (!(a.file = strdup(t[n - 2])) || !(a.value = strdup(t[n - 1] + 1)) ||
		    (n == 3 && !(a.hier = strdup(t[0]))) ||
		    grow1((void **)&s->attrs, s->nattrs, sizeof(a)) < 0) {
			free(a.file);
			free(a.value);
			free(a.hier);
			return -ENOMEM;
		}
		s->attrs[s->nattrs++] = a;
	}
	return 0;
}

/* One record after "run". */
static int parse_record(struct kattr_rgplan *p, struct kattr_rgjournal_state *st,
			char *line)
{
	char *tok[2], *rest;
	size_t i;
	int n = split(line, tok, 2, &rest);

	if (n != 2 || tok[0][1])
		return -EINVAL;
	switch (tok[0][0]) {
	case 's':	/* the next step; none after an undo began */
		if (rest || index_of(tok[1], p->n, &i) < 0 || i < st->started ||
		    st->undone != st->started)
			return -EINVAL;
		/* the steps passed over were deletions of groups gone */
		for (size_t k = st->started; k < i; k++)
			if (p->v[k].kind == KATTR_RGPLAN_DELETE)
				p->v[k].skip = true;
			else
				return -EINVAL;
		st->started = st->undone = i + 1;
		return 0;
	case 'a':
	case 'A':
	case 't':
	case 'P':
	case 'p':
		return parse_saved(p, st, tok, rest);
	case 'u':	/* last first: below every undo recorded */
		if (rest || index_of(tok[1], st->undone, &i) < 0)
			return -EINVAL;
		st->undone = i;
		return 0;
	}
	return -EINVAL;
}

/* "sc GROUP =WORDS": a group's cgroup.subtree_control before the run. */
static int parse_sc(struct kattr_rgplan *p, char *line)
{
	char *t[3], *more;

	if (split(line, t, 3, &more) != 3 || more || *t[2] != '=' ||
	    strlen(t[1]) >= 4096)
		return -EINVAL;
	return kattr_rgplan_sc_add(p, t[1], t[2] + 1);
}

/* The header: magic, cmd, pid, steps N; *n gets N. */
static int parse_head(char **line, struct kattr_rgjournal_state *st, size_t *n)
{
	char *tok[2];
	size_t v;

	if (strcmp(line[0], J_MAGIC) != 0 || split(line[1], tok, 2, NULL) != 2 ||
	    strcmp(tok[0], "cmd") != 0 || strlen(tok[1]) >= sizeof(st->cmd))
		return -EINVAL;
	strcpy(st->cmd, tok[1]);
	if (split(line[2], tok, 2, NULL) != 2 || strcmp(tok[0], "pid") != 0 ||
	    index_of(tok[1], 1u << 22, &v) < 0)
		return -EINVAL;
	st->pid = (pid_t)v;
	if (split(line[3], tok, 2, NULL) != 2 || strcmp(tok[0], "steps") != 0 ||
	    index_of(tok[1], 1u << 24, n) < 0)
		return -EINVAL;
	return 0;
}

/* The next line of *pos (NUL-terminated in place), or NULL at the end
 * (a last line without its newline: a write cut short, ignored). */
static char *next_line(char **pos, char *end)
{
	char *l = *pos, *nl;

	if (l >= end || !(nl = memchr(l, '\n', (size_t)(end - l))))
		return NULL;
	*nl = '\0';
	*pos = nl + 1;
	return l;
}

static int parse_text(char *text, size_t len, struct kattr_rgplan *p,
		      struct kattr_rgjournal_state *st)
{
	char *pos = text, *end = text + len, *head[4], *l;
	size_t n;
	int ret;

	if (memchr(text, '\0', len))
		return -EINVAL;
	/* Cut short before "run" (the writer died writing the plan, or
	 * between making the file and writing it): nothing was changed. */
	if (len == 0)
		return 0;
	for (int i = 0; i < 4; i++)
		if (!(head[i] = next_line(&pos, end)))
			return strncmp(text, J_MAGIC, len < 15 ? len : 15) == 0 ? 0 : -EINVAL;
	ret = parse_head(head, st, &n);
	for (size_t i = 0; i < n && ret == 0; i++)
		if (!(l = next_line(&pos, end)))
			return 0;
		else
			ret = parse_step(p, l);
	if (ret < 0)
		return ret;
	while ((l = next_line(&pos, end)) && strncmp(l, "sc ", 3) == 0 && ret == 0)
		ret = parse_sc(p, l);
	if (!l || ret < 0)
		return ret;
	if (strcmp(l, "run") != 0)
		return -EINVAL;
	st->run = true;
	while (ret == 0 && (l = next_line(&pos, end)))
		ret = parse_record(p, st, l);
	return ret;
}

int kattr_rgjournal_parse(const char *text, size_t len, struct kattr_rgplan *p,
			  struct kattr_rgjournal_state *st)
{
	char *copy = malloc(len + 1);
	int ret;

	memset(p, 0, sizeof(*p));
	memset(st, 0, sizeof(*st));
	if (!copy)
		return -ENOMEM;
	memcpy(copy, text, len);
	copy[len] = '\0';
	ret = parse_text(copy, len, p, st);
	free(copy);
	if (ret < 0)
		kattr_rgplan_free(p);
	return ret;
}

/* The whole file at fd (at most J_MAX bytes). */
static int read_all(int fd, char **out, size_t *len)
{
	size_t cap = 0, n = 0;
	char *buf = NULL;

	for (;;) {
		ssize_t r;

		if (n + 4096 > cap) {
			char *nb;

			cap = cap ? cap * 2 : 65536;
			if (cap > J_MAX + 4096 || !(nb = realloc(buf, cap))) {
				free(buf);
				return cap > J_MAX + 4096 ? -EFBIG : -ENOMEM;
			}
			buf = nb;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = -errno;

			free(buf);
			return e;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	*out = buf;
	*len = n;
	return 0;
}

int kattr_rgjournal_open(int dir, const char *name, struct kattr_rgplan *p,
			 struct kattr_rgjournal_state *st, struct kattr_rgjournal **out)
{
	struct stat sb;
	char *text = NULL;
	size_t len = 0;
	int fd, ret;

	*out = NULL;
	memset(p, 0, sizeof(*p));
	memset(st, 0, sizeof(*st));
	fd = openat(dir, name, O_RDWR | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = fstat(fd, &sb) < 0 ? -errno : S_ISREG(sb.st_mode) ? 0 : -EINVAL;
	if (ret == 0)
		ret = read_all(fd, &text, &len);
	if (ret == 0)
		ret = kattr_rgjournal_parse(text ? text : "", len, p, st);
	free(text);
	if (ret == 0)
		ret = journal_new(dir, name, fd, out);
	if (ret < 0) {
		kattr_rgplan_free(p);
		close(fd);
	}
	return ret;
}
