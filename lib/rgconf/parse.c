// SPDX-License-Identifier: LGPL-2.1-or-later
/* The rgctl configuration model (libconfig) and rule matching. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kattr/rgconf.h"
#include "kattr/rgres.h"
#include "kattr/private_rg.h"

static void set_err(char *err, size_t errsz, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void set_err(char *err, size_t errsz, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errsz)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errsz, fmt, ap);
	va_end(ap);
}

void kattr_rgconf_free(struct kattr_rgconf *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->ngroups; i++) {
		free(c->groups[i].name);
		free(c->groups[i].shares);
		free(c->groups[i].file);
		for (size_t k = 0; k < c->groups[i].nres; k++)
			free(c->groups[i].res[k]);
		free(c->groups[i].res);
	}
	for (i = 0; i < c->nrules; i++) {
		struct kattr_rgconf_rule *r = &c->rules[i];

		free(r->group);
		free(r->file);
		free(r->comm);
		free(r->exe);
		free(r->user);
		free(r->ugroup);
	}
	free(c->groups);
	free(c->rules);
	free(c->backend);
	free(c->file);
	free(c);
}

const struct kattr_rgconf_group *
kattr_rgconf_find_group(const struct kattr_rgconf *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->ngroups; i++)
		if (strcmp(c->groups[i].name, name) == 0)
			return &c->groups[i];
	return NULL;
}

/* ---- formatting ------------------------------------------------------ */

struct sbuf {
	char *s;
	size_t len, cap;
	bool oom;
};

static void sb_add(struct sbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void sb_add(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->oom)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->s ? b->s + b->len : NULL,
			      b->s ? b->cap - b->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->oom = true;
			return;
		}
		if (b->s && b->len + (size_t)n < b->cap) {
			b->len += (size_t)n;
			return;
		}
		size_t cap = (b->cap ? b->cap : 256);
		while (cap <= b->len + (size_t)n)
			cap *= 2;
		char *s = realloc(b->s, cap);
		if (!s) {
			b->oom = true;
			return;
		}
		b->s = s;
		b->cap = cap;
	}
}

static void sb_str(struct sbuf *b, const char *s)
{
	sb_add(b, "\"");
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			sb_add(b, "\\%c", ch);
		else if (ch == '\n')
			sb_add(b, "\\n");
		else if (ch == '\t')
			sb_add(b, "\\t");
		else if (ch < 0x20 || ch >= 0x7f)
			sb_add(b, "\\x%02x", ch);
		else
			sb_add(b, "%c", ch);
	}
	sb_add(b, "\"");
}

static bool is_decimal(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > 15)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return n == 1 || s[-(long)n] != '0';
}

/* A group's resources: memory_max = "1G"; io_max = ( "8:0 rbps=1M", ... ); */
static void format_res(struct sbuf *b, const struct kattr_rgconf_group *g)
{
	for (size_t k = 0; k < g->nres; k++) {
		const char *eq = strchr(g->res[k], '=');
		size_t klen = eq ? (size_t)(eq - g->res[k]) : 0, more = 0;
		bool first = true;

		if (!eq)
			continue;
		for (size_t j = 0; j < k && first; j++)
			first = strncmp(g->res[j], g->res[k], klen + 1) != 0;
		if (!first)
			continue;	/* written with the first of its key */
		for (size_t j = k + 1; j < g->nres; j++)
			more += strncmp(g->res[j], g->res[k], klen + 1) == 0;
		sb_add(b, " ");
		for (size_t i = 0; i < klen; i++)
			sb_add(b, "%c", g->res[k][i] == '.' ? '_' : g->res[k][i]);
		sb_add(b, " = %s", more ? "( " : "");
		for (size_t j = k; j < g->nres; j++) {
			if (strncmp(g->res[j], g->res[k], klen + 1) != 0)
				continue;
			sb_add(b, "%s", j > k ? ", " : "");
			sb_str(b, g->res[j] + klen + 1);
		}
		sb_add(b, "%s;", more ? " )" : "");
	}
}

char *kattr_rgconf_format(const struct kattr_rgconf *c)
{
	struct sbuf b = { 0 };
	size_t i;

	if (c->backend) {
		sb_add(&b, "backend = ");
		sb_str(&b, c->backend);
		sb_add(&b, ";\n");
	}
	sb_add(&b, "groups = (");
	for (i = 0; i < c->ngroups; i++) {
		const struct kattr_rgconf_group *g = &c->groups[i];

		sb_add(&b, "%s\n  { name = ", i ? "," : "");
		sb_str(&b, g->name);
		sb_add(&b, ";");
		if (g->shares) {
			sb_add(&b, " shares = ");
			if (is_decimal(g->shares))
				sb_add(&b, "%s", g->shares);
			else
				sb_str(&b, g->shares);
			sb_add(&b, ";");
		}
		format_res(&b, g);
		sb_add(&b, " }");
	}
	sb_add(&b, "%s);\n", c->ngroups ? "\n" : " ");
	sb_add(&b, "rules = (");
	for (i = 0; i < c->nrules; i++) {
		const struct kattr_rgconf_rule *r = &c->rules[i];

		sb_add(&b, "%s\n  { group = ", i ? "," : "");
		sb_str(&b, r->group);
		sb_add(&b, ";");
#define STRKEY(k, f) if (r->f) { sb_add(&b, " " k " = "); sb_str(&b, r->f); sb_add(&b, ";"); }
		STRKEY("comm", comm)
		STRKEY("exe", exe)
		STRKEY("user", user)
		STRKEY("unix_group", ugroup)
#undef STRKEY
		if (r->has_uid)
			sb_add(&b, " uid = %u;", r->uid);
		if (r->has_gid)
			sb_add(&b, " gid = %u;", r->gid);
		sb_add(&b, " }");
	}
	sb_add(&b, "%s);\n", c->nrules ? "\n" : " ");
	if (b.oom) {
		free(b.s);
		return NULL;
	}
	return b.s;
}

/* ---- processes ------------------------------------------------------- */

static int parse_u32(const char *s, char **end, uint32_t *v)
{
	unsigned long n;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	n = strtoul(s, end, 10);
	if (errno || n > UINT32_MAX)
		return -EINVAL;
	*v = (uint32_t)n;
	return 0;
}

/* The value of "Key:\t..." in status text, or NULL. */
static const char *status_field(const char *text, const char *key)
{
	size_t kl = strlen(key);
	const char *p = text;

	while (p && *p) {
		if (strncmp(p, key, kl) == 0 && p[kl] == ':') {
			p += kl + 1;
			while (*p == ' ' || *p == '\t')
				p++;
			return p;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

/* The second number of an "Uid:" line: the effective id. */
static int effective_id(const char *v, uint32_t *id)
{
	char *end;
	uint32_t real;

	if (!v || parse_u32(v, &end, &real) < 0)
		return -EINVAL;
	while (*end == ' ' || *end == '\t')
		end++;
	return parse_u32(end, &end, id);
}

int kattr_rgproc_parse_status(const char *text, struct kattr_rgproc *p)
{
	const char *v;
	char *end;
	uint32_t n;

	if (effective_id(status_field(text, "Uid"), &p->uid) < 0 ||
	    effective_id(status_field(text, "Gid"), &p->gid) < 0)
		return -EINVAL;
	v = status_field(text, "PPid");
	if (!v || parse_u32(v, &end, &n) < 0 || n > INT_MAX)
		return -EINVAL;
	p->ppid = (pid_t)n;
	p->ngroups = 0;
	v = status_field(text, "Groups");
	while (v && *v && *v != '\n') {
		if (parse_u32(v, &end, &n) < 0)
			return -EINVAL;
		if (p->ngroups < KATTR_RGPROC_MAX_GROUPS)
			p->groups[p->ngroups++] = n;
		v = end;
		while (*v == ' ' || *v == '\t')
			v++;
	}
	v = status_field(text, "Kthread");
	p->kthread = (v && *v == '1') || p->ppid == 2 || p->pid == 2;
	return 0;
}

int kattr_rgproc_parse_stat(const char *text, struct kattr_rgproc *p)
{
	const char *open = strchr(text, '('), *close = strrchr(text, ')');
	unsigned long long flags, start;
	char state;
	int ppid;
	size_t n;

	if (!open || !close || close < open)
		return -EINVAL;
	n = (size_t)(close - open - 1);
	if (n >= sizeof(p->comm))
		n = sizeof(p->comm) - 1;
	memcpy(p->comm, open + 1, n);
	p->comm[n] = '\0';
	/* state ppid pgrp session tty_nr tpgid flags (9), ..., starttime (22) */
	if (sscanf(close + 1, " %c %d %*d %*d %*d %*d %llu %*u %*u %*u %*u %*u %*u"
		   " %*d %*d %*d %*d %*d %*d %llu", &state, &ppid, &flags, &start) != 4 ||
	    ppid < 0)
		return -EINVAL;
	p->ppid = ppid;
	p->starttime = start;
	p->kthread = (flags & 0x00200000ULL) != 0;	/* PF_KTHREAD */
	return 0;
}

unsigned int kattr_rgconf_needs(const struct kattr_rgconf *c)
{
	unsigned int what = 0;

	for (size_t i = 0; i < c->nrules; i++) {
		const struct kattr_rgconf_rule *r = &c->rules[i];

		if (r->exe)
			what |= KATTR_RGPROC_EXE;
		if (r->user || r->ugroup || r->has_uid || r->has_gid)
			what |= KATTR_RGPROC_IDS;
	}
	return what;
}

int kattr_rgproc_read(pid_t pid, unsigned int what,
				struct kattr_rgproc *p)
{
	char path[64];
	char *text;
	bool kthread;
	ssize_t n;
	int r;

	memset(p, 0, sizeof(*p));
	p->pid = pid;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	r = kattr_file_read(path, &text, NULL);
	if (r < 0)
		return r == -ENOENT ? -ESRCH : r;
	r = kattr_rgproc_parse_stat(text, p);
	free(text);
	if (r < 0)
		return r;
	kthread = p->kthread;
	if (what & KATTR_RGPROC_IDS) {
		char comm[sizeof(p->comm)];
		pid_t ppid = p->ppid;

		uint64_t start = p->starttime;

		memcpy(comm, p->comm, sizeof(comm));
		snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
		r = kattr_file_read(path, &text, NULL);
		if (r < 0)
			return r == -ENOENT ? -ESRCH : r;
		r = kattr_rgproc_parse_status(text, p);
		free(text);
		if (r < 0)
			return r;
		memcpy(p->comm, comm, sizeof(comm));
		p->ppid = ppid;
		p->starttime = start;
		p->kthread = kthread;
	}
	snprintf(path, sizeof(path), "/proc/%d", (int)pid);
	if ((what & KATTR_RGPROC_EXE) && !p->kthread) {
		/* The link itself, read beneath the sysroot. */
		int dfd = kattr_sysroot_open(path, O_PATH | O_DIRECTORY);

		n = dfd >= 0 ? readlinkat(dfd, "exe", p->exe, sizeof(p->exe) - 1) : -1;
		p->exe[n > 0 ? n : 0] = '\0';
		if (dfd >= 0)
			close(dfd);
	}
	return 0;
}

static bool in_groups(const struct kattr_rgproc *p, uint32_t gid)
{
	size_t i;

	if (p->gid == gid)
		return true;
	for (i = 0; i < p->ngroups; i++)
		if (p->groups[i] == gid)
			return true;
	return false;
}

int kattr_rgconf_match(const struct kattr_rgconf *c,
				 const struct kattr_rgproc *p)
{
	size_t i;

	if (p->kthread)
		return -1;
	for (i = 0; i < c->nrules; i++) {
		const struct kattr_rgconf_rule *r = &c->rules[i];

		if (r->comm && strcmp(r->comm, p->comm) != 0)
			continue;
		if (r->exe && strcmp(r->exe, p->exe) != 0)
			continue;
		if (r->user && (!r->resolved || p->uid != r->user_uid))
			continue;
		if (r->has_uid && p->uid != r->uid)
			continue;
		if (r->has_gid && !in_groups(p, r->gid))
			continue;
		if (r->ugroup && (!r->resolved || !in_groups(p, r->ugroup_gid)))
			continue;
		return (int)i;
	}
	return -1;
}

int kattr_rgconf_resolve(struct kattr_rgconf *c, char *err, size_t errsz)
{
	size_t i;

	for (i = 0; i < c->nrules; i++) {
		struct kattr_rgconf_rule *r = &c->rules[i];

		if (r->user) {
			struct passwd *pw;

			errno = 0;
			pw = getpwnam(r->user);
			if (!pw) {
				set_err(err, errsz, "%s:%u: rules[%zu].user: no such user '%s'",
					r->file ? r->file : c->file, r->line, i + 1, r->user);
				return errno ? -errno : -ENOENT;
			}
			r->user_uid = pw->pw_uid;
		}
		if (r->ugroup) {
			struct group *gr;

			errno = 0;
			gr = getgrnam(r->ugroup);
			if (!gr) {
				set_err(err, errsz, "%s:%u: rules[%zu].unix_group: no such group '%s'",
					r->file ? r->file : c->file, r->line, i + 1, r->ugroup);
				return errno ? -errno : -ENOENT;
			}
			r->ugroup_gid = gr->gr_gid;
		}
		r->resolved = true;
	}
	return 0;
}

/* ---- parsing --------------------------------------------------------- */

#if WITH_LIBCONFIG

#include <fcntl.h>
#include <libconfig.h>
#include <sys/stat.h>

#include "kattr/rg.h"

/*
 * Before libconfig sees the text it goes through pre_text(), which
 *  - expands @include itself: every file is opened without blocking and
 *    must be a regular file (a FIFO would hang libconfig's fopen, and
 *    libconfig before 1.7 has no include hook); relative paths are
 *    relative to the directory of the including file; at most
 *    MAX_INCLUDE_DEPTH levels;
 *  - makes every integer literal 64-bit: libconfig 1.5 reads a plain
 *    integer with atoi() (4294968320 became 1024, 0xFFFFFFFF became -1),
 *    so "L" is appended to each one (libconfig then reads it whole) after
 *    checking that it fits in 64 bits (libconfig would saturate);
 *  - keeps a map from the lines of the text it builds to FILE:LINE, so
 *    every message names the file and line the user wrote.
 */
#define MAX_INCLUDE_DEPTH 10
#define MAX_TEXT (16u << 20)

struct seg {
	unsigned int out_line;		/* first line of the built text */
	const char *file;		/* into pre.files */
	unsigned int line;		/* its line in file */
};

struct pre {
	struct sbuf out;
	unsigned int out_line;
	struct seg *segs;
	size_t nsegs, capsegs;
	char **files;
	size_t nfiles;
	size_t total;
	bool allow_include;
	char *err;
	size_t errsz;
};

static void pre_free(struct pre *p)
{
	free(p->out.s);
	free(p->segs);
	for (size_t i = 0; i < p->nfiles; i++)
		free(p->files[i]);
	free(p->files);
}

/* FILE:LINE of line of the built text. */
static void pre_where(const struct pre *p, unsigned int line,
		      const char **file, unsigned int *fline)
{
	const struct seg *s = NULL;

	for (size_t i = 0; i < p->nsegs && p->segs[i].out_line <= line; i++)
		s = &p->segs[i];
	if (!s) {
		*file = p->nfiles ? p->files[0] : "?";
		*fline = line;
		return;
	}
	*file = s->file;
	*fline = s->line + (line - s->out_line);
}

static int pre_seg(struct pre *p, const char *file, unsigned int line)
{
	if (p->nsegs == p->capsegs) {
		size_t cap = p->capsegs ? p->capsegs * 2 : 8;
		struct seg *v = realloc(p->segs, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		p->segs = v;
		p->capsegs = cap;
	}
	/* A later segment on the same line replaces an empty earlier one. */
	if (p->nsegs && p->segs[p->nsegs - 1].out_line == p->out_line)
		p->nsegs--;
	p->segs[p->nsegs++] = (struct seg){ p->out_line, file, line };
	return 0;
}

static const char *file_kind(mode_t m)
{
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISSOCK(m))
		return "a socket";
	return "unknown type";
}

/*
 * Read a regular file whole: opened with O_NONBLOCK (a FIFO neither hangs
 * the open nor is read), refused unless regular.  where prefixes the
 * message ("FILE:LINE: @include: " or "").
 */
static int read_regular(struct pre *p, const char *path, const char *where,
			char **text, size_t *len)
{
	struct stat st;
	size_t cap, n = 0;
	char *buf;
	int fd, r = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		r = -errno;
		set_err(p->err, p->errsz, "%s%s: %s", where, path, strerror(-r));
		return r;
	}
	if (fstat(fd, &st) < 0) {
		r = -errno;
		set_err(p->err, p->errsz, "%s%s: %s", where, path, strerror(-r));
		close(fd);
		return r;
	}
	if (!S_ISREG(st.st_mode)) {
		set_err(p->err, p->errsz, "%s%s: not a regular file (%s)", where,
			path, file_kind(st.st_mode));
		close(fd);
		return -EINVAL;
	}
	cap = (size_t)st.st_size + 1;
	if (cap > MAX_TEXT - p->total)
		cap = MAX_TEXT - p->total + 1;
	buf = malloc(cap + 1);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	for (;;) {
		ssize_t got;

		if (n == cap) {
			r = -EFBIG;
			break;
		}
		got = read(fd, buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			r = -errno;
			break;
		}
		if (got == 0)
			break;
		n += (size_t)got;
		if (p->total + n > MAX_TEXT) {
			r = -EFBIG;
			break;
		}
	}
	close(fd);
	if (r == 0 && memchr(buf, '\0', n))
		r = -EILSEQ;
	if (r < 0) {
		set_err(p->err, p->errsz, "%s%s: %s", where, path,
			r == -EILSEQ ? "contains a NUL byte" :
			r == -EFBIG ? "the configuration is larger than 16 MiB" :
			strerror(-r));
		free(buf);
		return r == -EILSEQ ? -EINVAL : r;
	}
	buf[n] = '\0';
	p->total += n;
	*text = buf;
	*len = n;
	return 0;
}

static int pre_text(struct pre *p, const char *text, const char *file,
		    unsigned int depth);

static bool is_name_start(int c)
{
	return isalpha(c) || c == '*';
}

static bool is_name_char(int c)
{
	return isalnum(c) || c == '-' || c == '_' || c == '*';
}

/*
 * @include "PATH" at s (the '@', first non-blank of its line): expand it.
 * *adv gets the number of bytes consumed.
 */
static int pre_include(struct pre *p, const char *s, const char *file,
		       unsigned int line, unsigned int depth, size_t *adv)
{
	char where[512], path[4096], *text;
	const char *q = s + 8, *slash;
	size_t n = 0, len;
	int r;

	snprintf(where, sizeof(where), "%s:%u: @include: ", file, line);
	if (!p->allow_include) {
		set_err(p->err, p->errsz, "%s:%u: @include: only a configuration file may include another",
			file, line);
		return -EINVAL;
	}
	while (*q == ' ' || *q == '\t')
		q++;
	if (*q != '"') {
		set_err(p->err, p->errsz, "%s:%u: @include: expected a quoted file name",
			file, line);
		return -EINVAL;
	}
	slash = strrchr(file, '/');
	if (q[1] != '/' && slash) {
		n = (size_t)(slash - file) + 1;
		if (n >= sizeof(path))
			goto too_long;
		memcpy(path, file, n);
	}
	for (q++; *q && *q != '"' && *q != '\n'; q++) {
		if (*q == '\\' && (q[1] == '"' || q[1] == '\\'))
			q++;
		if (n + 1 >= sizeof(path))
			goto too_long;
		path[n++] = *q;
	}
	if (*q != '"') {
		set_err(p->err, p->errsz, "%s:%u: @include: unterminated file name",
			file, line);
		return -EINVAL;
	}
	path[n] = '\0';
	*adv = (size_t)(q + 1 - s);
	if (depth >= MAX_INCLUDE_DEPTH) {
		set_err(p->err, p->errsz, "%s:%u: @include: '%s' nests more than %d includes deep (does a file include itself?)",
			file, line, path, MAX_INCLUDE_DEPTH);
		return -EINVAL;
	}
	r = read_regular(p, path, where, &text, &len);
	if (r < 0)
		return r;
	r = pre_text(p, text, path, depth + 1);
	free(text);
	if (r < 0)
		return r;
	/* The rest of the directive's line continues on a line of its own. */
	if (p->out.len && p->out.s[p->out.len - 1] != '\n') {
		sb_add(&p->out, "\n");
		p->out_line++;
	}
	return pre_seg(p, file, line);

too_long:
	set_err(p->err, p->errsz, "%s:%u: @include: the file name is too long",
		file, line);
	return -ENAMETOOLONG;
}

/*
 * A number at s: copied with "L" appended when it is a plain or hex
 * integer without one; -ERANGE (message set) when it does not fit in 64
 * bits.  Floats are copied as they are.
 */
static int pre_number(struct pre *p, const char *s, const char *file,
		      unsigned int line, const char *key, size_t *adv)
{
	const char *q = s, *digits;
	bool hex = false;
	int base = 10;

	if (*q == '-' || *q == '+')
		q++;
	if (q[0] == '0' && (q[1] == 'x' || q[1] == 'X') && q == s &&
	    isxdigit((unsigned char)q[2])) {
		hex = true;
		base = 16;
		q += 2;
	}
	digits = q;
	while (hex ? isxdigit((unsigned char)*q) : isdigit((unsigned char)*q))
		q++;
	if (!hex && (*q == '.' || *q == 'e' || *q == 'E' || q == digits)) {
		/* a float (or a lone sign/dot): libconfig's business */
		while (isdigit((unsigned char)*q) || *q == '.' || *q == 'e' ||
		       *q == 'E' || ((*q == '-' || *q == '+') &&
				     (q[-1] == 'e' || q[-1] == 'E')))
			q++;
		if (q == s)
			q++;
		sb_add(&p->out, "%.*s", (int)(q - s), s);
		*adv = (size_t)(q - s);
		return 0;
	}
	errno = 0;
	if (hex) {
		unsigned long long v = strtoull(digits, NULL, 16);

		if (errno == ERANGE || v > (unsigned long long)LLONG_MAX)
			errno = ERANGE;
	} else {
		(void)strtoll(s, NULL, base);
	}
	if (errno == ERANGE) {
		set_err(p->err, p->errsz, "%s:%u: %s: %.*s does not fit in 64 bits",
			file, line, key[0] ? key : "value", (int)(q - s), s);
		return -ERANGE;
	}
	if (*q == 'L') {
		q++;
		if (*q == 'L')
			q++;
		sb_add(&p->out, "%.*s", (int)(q - s), s);
	} else {
		sb_add(&p->out, "%.*sL", (int)(q - s), s);
	}
	*adv = (size_t)(q - s);
	return 0;
}

/* Copy s[0..len) (a comment or a string) into p->out, counting lines. */
static void pre_span(struct pre *p, const char *s, size_t len,
		     unsigned int *line)
{
	sb_add(&p->out, "%.*s", (int)len, s);
	for (size_t i = 0; i < len; i++)
		if (s[i] == '\n') {
			p->out_line++;
			(*line)++;
		}
}

/* The length of the token at s that is not a name, number or @include. */
static size_t pre_span_len(const char *s)
{
	size_t adv = 1;

	if (*s == '#' || (*s == '/' && s[1] == '/')) {
		while (s[adv] && s[adv] != '\n')
			adv++;
	} else if (*s == '/' && s[1] == '*') {
		const char *e = strstr(s + 2, "*/");

		adv = e ? (size_t)(e + 2 - s) : strlen(s);
	} else if (*s == '"') {
		while (s[adv] && s[adv] != '"') {
			if (s[adv] == '\\' && s[adv + 1])
				adv++;
			adv++;
		}
		if (s[adv])
			adv++;
	}
	return adv;
}

/* Remember file's name for the whole run; the copy or NULL. */
static const char *pre_file(struct pre *p, const char *file)
{
	char **files = realloc(p->files, (p->nfiles + 1) * sizeof(*files));

	if (!files)
		return NULL;
	p->files = files;
	p->files[p->nfiles] = strdup(file);
	return p->files[p->nfiles] ? p->files[p->nfiles++] : NULL;
}

/* Copy text (named file) into p->out, see above. */
static int pre_text(struct pre *p, const char *text, const char *file,
		    unsigned int depth)
{
	char key[64] = "";
	const char *s = text;
	unsigned int line = 1;
	bool line_start = true;
	int r;

	file = pre_file(p, file);
	if (!file)
		return -ENOMEM;
	r = pre_seg(p, file, 1);
	while (r == 0 && *s) {
		size_t adv = 1;
		unsigned char c = (unsigned char)*s;

		if (c == '\n') {
			sb_add(&p->out, "\n");
			p->out_line++;
			line++;
			line_start = true;
			s++;
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			sb_add(&p->out, "%c", c);
			s++;
			continue;
		}
		if (c == '@' && line_start && strncmp(s, "@include", 8) == 0 &&
		    (s[8] == ' ' || s[8] == '\t' || s[8] == '"')) {
			r = pre_include(p, s, file, line, depth, &adv);
		} else if (c == '#' || c == '"' || (c == '/' && (s[1] == '/' || s[1] == '*'))) {
			adv = pre_span_len(s);
			pre_span(p, s, adv, &line);
		} else if (is_name_start(c)) {
			while (is_name_char((unsigned char)s[adv]))
				adv++;
			snprintf(key, sizeof(key), "%.*s", (int)adv, s);
			sb_add(&p->out, "%.*s", (int)adv, s);
		} else if (isdigit(c) || c == '.' ||
			   ((c == '-' || c == '+') &&
			    (isdigit((unsigned char)s[1]) || s[1] == '.'))) {
			r = pre_number(p, s, file, line, key, &adv);
		} else {
			sb_add(&p->out, "%c", c);
		}
		line_start = false;
		s += adv;
	}
	if (r == 0 && p->out.oom)
		r = -ENOMEM;
	return r;
}

struct pctx {
	const char *file;
	char *err;
	size_t errsz;
	struct kattr_rgconf *c;
	const struct pre *pre;
};

/* FILE:LINE of setting s as the user wrote it. */
static void where(const struct pctx *x, const config_setting_t *s,
		  const char **file, unsigned int *line)
{
	pre_where(x->pre, s ? (unsigned int)config_setting_source_line(s) : 0,
		  file, line);
}

static int bad(struct pctx *x, const config_setting_t *s, const char *key,
	       const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int bad(struct pctx *x, const config_setting_t *s, const char *key,
	       const char *fmt, ...)
{
	const char *file;
	unsigned int line;
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	where(x, s, &file, &line);
	set_err(x->err, x->errsz, "%s:%u: %s: %s", file, line, key, why);
	return -EINVAL;
}

/* Where the element el was written, into *file (strdup) and *line. */
static int set_where(const struct pctx *x, const config_setting_t *el,
		     char **file, unsigned int *line)
{
	const char *f;

	where(x, el, &f, line);
	*file = strdup(f);
	return *file ? 0 : -ENOMEM;
}

static bool is_int(const config_setting_t *s)
{
	int t = config_setting_type(s);

	return t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64;
}

/* A string value into *out (strdup). */
static int get_str(struct pctx *x, const config_setting_t *s, const char *key,
		   char **out)
{
	const char *v;

	if (config_setting_type(s) != CONFIG_TYPE_STRING)
		return bad(x, s, key, "must be a string");
	v = config_setting_get_string(s);
	if (*out)
		return bad(x, s, key, "given twice");
	*out = strdup(v ? v : "");
	return *out ? 0 : -ENOMEM;
}

static int get_id(struct pctx *x, const config_setting_t *s, const char *key,
		  uint32_t *out)
{
	long long v;

	if (!is_int(s))
		return bad(x, s, key, "must be an integer");
	v = config_setting_get_int64(s);
	if (v < 0 || v >= UINT32_MAX)
		return bad(x, s, key, "%lld is out of range (0..%u)", v,
			   UINT32_MAX - 1);
	*out = (uint32_t)v;
	return 0;
}

static int check_name(struct pctx *x, const config_setting_t *s, const char *key,
		      const char *name)
{
	const char *why = NULL;

	if (kattr_name_check(name, &why) < 0)
		return bad(x, s, key, "bad group name '%s': %s", name,
			   why ? why : "invalid");
	return 0;
}

/* One value of a resource: checked for form, kept as "key=value". */
static int add_res(struct pctx *x, const config_setting_t *s, const char *key,
		   const struct kattr_rgres *res, const char *value,
		   struct kattr_rgconf_group *g)
{
	/* the machine is not known here: a generous one for the form */
	static const struct kattr_rgres_limits any = {
		.mem_total = 1ULL << 50, .page_size = 1,
	};
	struct kattr_rgres_value v;
	const char *why = "invalid";
	char **tmp;

	if (kattr_rgres_parse(res->key, value, &any, &v, &why) < 0)
		return bad(x, s, key, "'%s': %s", value, why);
	tmp = realloc(g->res, (g->nres + 1) * sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	g->res = tmp;
	if (asprintf(&g->res[g->nres], "%s=%s", res->key, value) < 0)
		return -ENOMEM;
	g->nres++;
	return 0;
}

/* A resource key of a group (memory_max, or systemd's MemoryMax): a
 * string, an integer, or for io_max a list of strings. */
static int parse_res(struct pctx *x, const config_setting_t *s, const char *key,
		     const char *n, struct kattr_rgconf_group *g)
{
	char name[64], num[32];
	const struct kattr_rgres *res;
	int field;

	snprintf(name, sizeof(name), "%s", n ? n : "");
	for (char *p = name; *p; p++)
		if (*p == '_')
			*p = '.';
	res = kattr_rgres_find(name, &field);
	if (!res)
		return bad(x, s, key, "unknown key (known: name, shares, and the resources of rgctl(8), with _ for .)");
	if (field >= 0)
		return bad(x, s, key, "write io_max = \"DEV rbps=N wbps=N riops=N wiops=N\"");
	for (size_t k = 0; k < g->nres; k++)
		if (!strncmp(g->res[k], res->key, strlen(res->key)) &&
		    g->res[k][strlen(res->key)] == '=')
			return bad(x, s, key, "given twice (as %s)", res->key);
	if (is_int(s)) {
		snprintf(num, sizeof(num), "%lld", (long long)config_setting_get_int64(s));
		return add_res(x, s, key, res, num, g);
	}
	if (config_setting_type(s) == CONFIG_TYPE_STRING)
		return add_res(x, s, key, res, config_setting_get_string(s), g);
	if (res->type != KATTR_RGRES_IO_MAX ||
	    (config_setting_type(s) != CONFIG_TYPE_LIST &&
	     config_setting_type(s) != CONFIG_TYPE_ARRAY))
		return bad(x, s, key, "must be a string or an integer%s",
			   res->type == KATTR_RGRES_IO_MAX ? " (io_max: or a list of strings)" : "");
	for (int i = 0; i < config_setting_length(s); i++) {
		const config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
		int r;

		if (config_setting_type(e) != CONFIG_TYPE_STRING)
			return bad(x, e, key, "must be a list of strings");
		r = add_res(x, e, key, res, config_setting_get_string(e), g);
		if (r < 0)
			return r;
	}
	return 0;
}

static int parse_group(struct pctx *x, const config_setting_t *el, size_t idx,
		       struct kattr_rgconf_group *g)
{
	char key[64];
	int i, r;

	r = set_where(x, el, &g->file, &g->line);
	if (r < 0)
		return r;
	if (config_setting_type(el) != CONFIG_TYPE_GROUP) {
		snprintf(key, sizeof(key), "groups[%zu]", idx + 1);
		return bad(x, el, key, "must be a group { name = ...; }");
	}
	for (i = 0; i < config_setting_length(el); i++) {
		const config_setting_t *s = config_setting_get_elem(el, (unsigned)i);
		const char *n = config_setting_name(s);

		snprintf(key, sizeof(key), "groups[%zu].%s", idx + 1, n ? n : "?");
		if (n && strcmp(n, "name") == 0) {
			r = get_str(x, s, key, &g->name);
			if (r == 0)
				r = check_name(x, s, key, g->name);
		} else if (n && strcmp(n, "shares") == 0) {
			if (is_int(s)) {
				long long v = config_setting_get_int64(s);

				if (v <= 0)
					return bad(x, s, key, "%lld is not a positive number", v);
				if (v > KATTR_RG_CG1_SHARES_MAX)
					return bad(x, s, key, "%lld is out of range (at most %d: cgroup1 cpu.shares 2..%d, cgroup2 cpu.weight 1..%d)",
						   v, KATTR_RG_CG1_SHARES_MAX,
						   KATTR_RG_CG1_SHARES_MAX,
						   KATTR_RG_CG2_WEIGHT_MAX);
				if (asprintf(&g->shares, "%lld", v) < 0) {
					g->shares = NULL;
					return -ENOMEM;
				}
				r = 0;
			} else if (config_setting_type(s) == CONFIG_TYPE_STRING) {
				r = get_str(x, s, key, &g->shares);
				if (r == 0 && !g->shares[0])
					r = bad(x, s, key, "empty");
			} else {
				r = bad(x, s, key, "must be an integer or a string");
			}
		} else {
			r = parse_res(x, s, key, n, g);
		}
		if (r < 0)
			return r;
	}
	if (!g->name) {
		snprintf(key, sizeof(key), "groups[%zu].name", idx + 1);
		return bad(x, el, key, "missing");
	}
	for (size_t k = 0; g->shares && k < g->nres; k++)
		if (strncmp(g->res[k], "cpu.weight=", 11) == 0) {
			snprintf(key, sizeof(key), "groups[%zu].cpu_weight", idx + 1);
			return bad(x, el, key, "give shares or cpu_weight, not both (shares is its short form)");
		}
	return 0;
}

static int parse_rule(struct pctx *x, const config_setting_t *el, size_t idx,
		      struct kattr_rgconf_rule *rl)
{
	char key[64];
	int i, r, nmatch = 0;

	r = set_where(x, el, &rl->file, &rl->line);
	if (r < 0)
		return r;
	if (config_setting_type(el) != CONFIG_TYPE_GROUP) {
		snprintf(key, sizeof(key), "rules[%zu]", idx + 1);
		return bad(x, el, key, "must be a group { group = ...; ... }");
	}
	for (i = 0; i < config_setting_length(el); i++) {
		const config_setting_t *s = config_setting_get_elem(el, (unsigned)i);
		const char *n = config_setting_name(s);

		if (!n)
			n = "?";
		snprintf(key, sizeof(key), "rules[%zu].%s", idx + 1, n);
		if (strcmp(n, "group") == 0) {
			r = get_str(x, s, key, &rl->group);
			nmatch--;
		} else if (strcmp(n, "comm") == 0) {
			r = get_str(x, s, key, &rl->comm);
			if (r == 0 && (!rl->comm[0] || strlen(rl->comm) > 15))
				r = bad(x, s, key, "must be 1 to 15 bytes (the kernel keeps 15)");
		} else if (strcmp(n, "exe") == 0) {
			r = get_str(x, s, key, &rl->exe);
			if (r == 0 && rl->exe[0] != '/')
				r = bad(x, s, key, "must be a full path");
		} else if (strcmp(n, "user") == 0) {
			r = get_str(x, s, key, &rl->user);
			if (r == 0 && !rl->user[0])
				r = bad(x, s, key, "empty");
		} else if (strcmp(n, "unix_group") == 0) {
			r = get_str(x, s, key, &rl->ugroup);
			if (r == 0 && !rl->ugroup[0])
				r = bad(x, s, key, "empty");
		} else if (strcmp(n, "uid") == 0) {
			r = get_id(x, s, key, &rl->uid);
			rl->has_uid = true;
		} else if (strcmp(n, "gid") == 0) {
			r = get_id(x, s, key, &rl->gid);
			rl->has_gid = true;
		} else {
			r = bad(x, s, key,
				"unknown key (known: group, comm, exe, user, uid, gid, unix_group)");
		}
		if (r < 0)
			return r;
		nmatch++;
	}
	if (!rl->group) {
		snprintf(key, sizeof(key), "rules[%zu].group", idx + 1);
		return bad(x, el, key, "missing");
	}
	if (nmatch == 0) {
		snprintf(key, sizeof(key), "rules[%zu]", idx + 1);
		return bad(x, el, key,
			   "no condition (give comm, exe, user, uid, gid or unix_group)");
	}
	if (!kattr_rgconf_find_group(x->c, rl->group)) {
		snprintf(key, sizeof(key), "rules[%zu].group", idx + 1);
		return bad(x, el, key, "group '%s' is not declared in groups",
			   rl->group);
	}
	return 0;
}

static int parse_list(struct pctx *x, const config_setting_t *s, const char *key,
		      bool groups)
{
	struct kattr_rgconf *c = x->c;
	int n = config_setting_length(s);
	int i, r;

	if (config_setting_type(s) != CONFIG_TYPE_LIST)
		return bad(x, s, key, "must be a list ( {...}, {...} )");
	if ((groups && c->groups) || (!groups && c->rules))
		return bad(x, s, key, "given twice");
	if (groups) {
		c->groups = calloc((size_t)n + 1, sizeof(*c->groups));
		if (!c->groups)
			return -ENOMEM;
	} else {
		c->rules = calloc((size_t)n + 1, sizeof(*c->rules));
		if (!c->rules)
			return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		const config_setting_t *el = config_setting_get_elem(s, (unsigned)i);

		if (groups) {
			struct kattr_rgconf_group *g = &c->groups[c->ngroups++];

			r = parse_group(x, el, (size_t)i, g);
			if (r < 0)
				return r;
			if (kattr_rgconf_find_group(c, g->name) != g) {
				char k[64];

				snprintf(k, sizeof(k), "groups[%d].name", i + 1);
				return bad(x, el, k, "group '%s' is declared twice", g->name);
			}
		} else {
			r = parse_rule(x, el, (size_t)i, &c->rules[c->nrules++]);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

/* Every nested group's parent must be declared before it is used. */
static int check_parents(struct pctx *x, const config_setting_t *list)
{
	struct kattr_rgconf *c = x->c;
	size_t i;

	for (i = 0; i < c->ngroups; i++) {
		const char *name = c->groups[i].name;
		const char *slash = strrchr(name, '/');
		char parent[4096], key[64];

		if (!slash)
			continue;
		snprintf(parent, sizeof(parent), "%.*s", (int)(slash - name), name);
		if (!kattr_rgconf_find_group(c, parent)) {
			snprintf(key, sizeof(key), "groups[%zu].name", i + 1);
			return bad(x, config_setting_get_elem(list, (unsigned)i), key,
				   "parent group '%s' of '%s' is not declared",
				   parent, name);
		}
	}
	return 0;
}

static int parse_root(struct pctx *x, config_t *cfg)
{
	const config_setting_t *root = config_root_setting(cfg);
	const config_setting_t *groups = NULL, *rules = NULL;
	int i, r;

	for (i = 0; i < config_setting_length(root); i++) {
		const config_setting_t *s = config_setting_get_elem(root, (unsigned)i);
		const char *n = config_setting_name(s);

		if (!n)
			n = "?";
		if (strcmp(n, "backend") == 0) {
			r = get_str(x, s, n, &x->c->backend);
			if (r == 0 && strcmp(x->c->backend, "rgcs") != 0 &&
			    strcmp(x->c->backend, "cgroup1") != 0 &&
			    strcmp(x->c->backend, "cgroup2") != 0)
				r = bad(x, s, n, "'%s' is not a backend (rgcs, cgroup1, cgroup2)",
					x->c->backend);
		} else if (strcmp(n, "groups") == 0) {
			groups = s;
			r = 0;
		} else if (strcmp(n, "rules") == 0) {
			rules = s;
			r = 0;
		} else {
			r = bad(x, s, n, "unknown key (known: backend, groups, rules)");
		}
		if (r < 0)
			return r;
	}
	/* Groups first: rules name them. */
	if (groups) {
		r = parse_list(x, groups, "groups", true);
		if (r == 0)
			r = check_parents(x, groups);
		if (r < 0)
			return r;
	}
	if (rules)
		return parse_list(x, rules, "rules", false);
	return 0;
}

/* Parse text (named file), reading @include'd files when allow_include. */
static int parse_text(const char *text, const char *file, bool allow_include,
		      struct kattr_rgconf **out, char *err, size_t errsz)
{
	struct pre pre = { .allow_include = allow_include, .err = err,
			   .errsz = errsz, .out_line = 1 };
	struct pctx x = { .file = file, .err = err, .errsz = errsz, .pre = &pre };
	const char *efile;
	unsigned int eline;
	config_t cfg;
	int r;

	pre.total = strlen(text);
	r = pre_text(&pre, text, file, 0);
	if (r < 0) {
		if (r == -ENOMEM)
			set_err(err, errsz, "%s: out of memory", file);
		pre_free(&pre);
		return r == -ERANGE ? -EINVAL : r;
	}
	x.c = calloc(1, sizeof(*x.c));
	if (!x.c || !(x.c->file = strdup(file))) {
		free(x.c);
		pre_free(&pre);
		set_err(err, errsz, "%s: out of memory", file);
		return -ENOMEM;
	}
	config_init(&cfg);
	config_set_options(&cfg, 0);	/* no auto-conversion */
	if (config_read_string(&cfg, pre.out.s ? pre.out.s : "") != CONFIG_TRUE) {
		pre_where(&pre, (unsigned int)config_error_line(&cfg), &efile, &eline);
		set_err(err, errsz, "%s:%u: %s", efile, eline, config_error_text(&cfg));
		r = -EINVAL;
	} else {
		r = parse_root(&x, &cfg);
	}
	config_destroy(&cfg);
	pre_free(&pre);
	if (r < 0) {
		if (r == -ENOMEM)
			set_err(err, errsz, "%s: out of memory", file);
		kattr_rgconf_free(x.c);
		return r;
	}
	*out = x.c;
	return 0;
}

int kattr_rgconf_parse_string(const char *text, const char *file,
			      struct kattr_rgconf **out,
			      char *err, size_t errsz)
{
	return parse_text(text, file ? file : "<string>", false, out, err, errsz);
}

int kattr_rgconf_parse_file(const char *path, struct kattr_rgconf **out,
				      char *err, size_t errsz)
{
	struct pre pre = { .err = err, .errsz = errsz };
	char *text;
	size_t len;
	int r;

	r = read_regular(&pre, path, "", &text, &len);
	if (r < 0)
		return r;
	r = parse_text(text, path, true, out, err, errsz);
	free(text);
	return r;
}

#else /* !WITH_LIBCONFIG */

int kattr_rgconf_parse_string(const char *text, const char *file,
			      struct kattr_rgconf **out,
			      char *err, size_t errsz)
{
	set_err(err, errsz, "built without libconfig");
	return -EOPNOTSUPP;
}

int kattr_rgconf_parse_file(const char *path, struct kattr_rgconf **out,
				      char *err, size_t errsz)
{
	set_err(err, errsz, "built without libconfig");
	return -EOPNOTSUPP;
}

#endif
