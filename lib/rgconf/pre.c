// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * rgctl.conf's preprocessor: @include, 64-bit integer literals, and the
 * map from the text it builds back to FILE:LINE (rgconf_internal.h says
 * why libconfig does not do these itself).  Needs no libconfig.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kattr/private_rgconf.h"
#include "rgconf_internal.h"

#define MAX_INCLUDE_DEPTH 10
#define MAX_TEXT (16u << 20)

void rgconf_pre_free(struct rgconf_pre *p)
{
	free(p->out.s);
	free(p->segs);
	for (size_t i = 0; i < p->nfiles; i++)
		free(p->files[i]);
	free(p->files);
}

/* FILE:LINE of line of the built text. */
void rgconf_pre_where(const struct rgconf_pre *p, unsigned int line,
		      const char **file, unsigned int *fline)
{
	const struct rgconf_seg *s = NULL;

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

static int pre_seg(struct rgconf_pre *p, const char *file, unsigned int line)
{
	if (p->nsegs == p->capsegs) {
		size_t cap = p->capsegs ? p->capsegs * 2 : 8;
		struct rgconf_seg *v = realloc(p->segs, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		p->segs = v;
		p->capsegs = cap;
	}
	/* A later segment on the same line replaces an empty earlier one. */
	if (p->nsegs && p->segs[p->nsegs - 1].out_line == p->out_line)
		p->nsegs--;
	p->segs[p->nsegs++] = (struct rgconf_seg){ p->out_line, file, line };
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
int rgconf_read_regular(struct rgconf_pre *p, const char *path, const char *where,
			char **text, size_t *len)
{
	struct stat st;
	size_t cap, n = 0;
	char *buf;
	int fd, r = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		r = -errno;
		rgconf_set_err(p->err, p->errsz, "%s%s: %s", where, path, strerror(-r));
		return r;
	}
	if (fstat(fd, &st) < 0) {
		r = -errno;
		rgconf_set_err(p->err, p->errsz, "%s%s: %s", where, path, strerror(-r));
		close(fd);
		return r;
	}
	if (!S_ISREG(st.st_mode)) {
		rgconf_set_err(p->err, p->errsz, "%s%s: not a regular file (%s)", where,
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
		rgconf_set_err(p->err, p->errsz, "%s%s: %s", where, path,
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
static int pre_include(struct rgconf_pre *p, const char *s, const char *file,
		       unsigned int line, unsigned int depth, size_t *adv)
{
	char where[512], path[4096], *text;
	const char *q = s + 8, *slash;
	size_t n = 0, len;
	int r;

	snprintf(where, sizeof(where), "%s:%u: @include: ", file, line);
	if (!p->allow_include) {
		rgconf_set_err(p->err, p->errsz, "%s:%u: @include: only a configuration file may include another",
			file, line);
		return -EINVAL;
	}
	while (*q == ' ' || *q == '\t')
		q++;
	if (*q != '"') {
		rgconf_set_err(p->err, p->errsz, "%s:%u: @include: expected a quoted file name",
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
		rgconf_set_err(p->err, p->errsz, "%s:%u: @include: unterminated file name",
			file, line);
		return -EINVAL;
	}
	path[n] = '\0';
	*adv = (size_t)(q + 1 - s);
	if (depth >= MAX_INCLUDE_DEPTH) {
		rgconf_set_err(p->err, p->errsz, "%s:%u: @include: '%s' nests more than %d includes deep (does a file include itself?)",
			file, line, path, MAX_INCLUDE_DEPTH);
		return -EINVAL;
	}
	r = rgconf_read_regular(p, path, where, &text, &len);
	if (r < 0)
		return r;
	r = rgconf_pre_text(p, text, path, depth + 1);
	free(text);
	if (r < 0)
		return r;
	/* The rest of the directive's line continues on a line of its own. */
	if (p->out.len && p->out.s[p->out.len - 1] != '\n') {
		rgconf_sb_add(&p->out, "\n");
		p->out_line++;
	}
	return pre_seg(p, file, line);

too_long:
	rgconf_set_err(p->err, p->errsz, "%s:%u: @include: the file name is too long",
		file, line);
	return -ENAMETOOLONG;
}

/*
 * A number at s: copied with "L" appended when it is a plain or hex
 * integer without one; -ERANGE (message set) when it does not fit in 64
 * bits.  Floats are copied as they are.
 */
static int pre_number(struct rgconf_pre *p, const char *s, const char *file,
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
		rgconf_sb_add(&p->out, "%.*s", (int)(q - s), s);
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
		rgconf_set_err(p->err, p->errsz, "%s:%u: %s: %.*s does not fit in 64 bits",
			file, line, key[0] ? key : "value", (int)(q - s), s);
		return -ERANGE;
	}
	if (*q == 'L') {
		q++;
		if (*q == 'L')
			q++;
		rgconf_sb_add(&p->out, "%.*s", (int)(q - s), s);
	} else {
		rgconf_sb_add(&p->out, "%.*sL", (int)(q - s), s);
	}
	*adv = (size_t)(q - s);
	return 0;
}

/* Copy s[0..len) (a comment or a string) into p->out, counting lines. */
static void pre_span(struct rgconf_pre *p, const char *s, size_t len,
		     unsigned int *line)
{
	rgconf_sb_add(&p->out, "%.*s", (int)len, s);
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
static const char *pre_file(struct rgconf_pre *p, const char *file)
{
	char **files = realloc(p->files, (p->nfiles + 1) * sizeof(*files));

	if (!files)
		return NULL;
	p->files = files;
	p->files[p->nfiles] = strdup(file);
	return p->files[p->nfiles] ? p->files[p->nfiles++] : NULL;
}

/* Copy text (named file) into p->out, see above. */
int rgconf_pre_text(struct rgconf_pre *p, const char *text, const char *file,
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
			rgconf_sb_add(&p->out, "\n");
			p->out_line++;
			line++;
			line_start = true;
			s++;
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			rgconf_sb_add(&p->out, "%c", c);
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
			rgconf_sb_add(&p->out, "%.*s", (int)adv, s);
		} else if (isdigit(c) || c == '.' ||
			   ((c == '-' || c == '+') &&
			    (isdigit((unsigned char)s[1]) || s[1] == '.'))) {
			r = pre_number(p, s, file, line, key, &adv);
		} else {
			rgconf_sb_add(&p->out, "%c", c);
		}
		line_start = false;
		s += adv;
	}
	if (r == 0 && p->out.oom)
		r = -ENOMEM;
	return r;
}

static int preprocess(const char *text, const char *file, bool allow_include,
		      struct kattr_rgconf_pre_out *out, char *err, size_t errsz)
{
	struct rgconf_pre p = { .allow_include = allow_include, .err = err,
				.errsz = errsz, .out_line = 1 };
	int r;

	memset(out, 0, sizeof(*out));
	p.total = strlen(text);
	r = rgconf_pre_text(&p, text, file, 0);
	if (r == 0 && !p.out.s)
		r = (p.out.s = strdup("")) ? 0 : -ENOMEM;
	if (r < 0) {
		if (r == -ENOMEM)
			rgconf_set_err(err, errsz, "%s: out of memory", file);
		rgconf_pre_free(&p);
		return r;
	}
	out->text = p.out.s;
	out->lines = p.out_line;
	out->where = malloc(out->lines * sizeof(*out->where));
	out->line = malloc(out->lines * sizeof(*out->line));
	for (unsigned int i = 0; out->where && out->line && i < out->lines; i++) {
		const char *f;

		rgconf_pre_where(&p, i + 1, &f, &out->line[i]);
		out->where[i] = strdup(f ? f : "");
		if (!out->where[i])
			r = -ENOMEM;
	}
	p.out.s = NULL;
	rgconf_pre_free(&p);
	if (r == 0 && (!out->where || !out->line))
		r = -ENOMEM;
	if (r < 0) {
		rgconf_set_err(err, errsz, "%s: out of memory", file);
		kattr_rgconf_pre_out_free(out);
	}
	return r;
}

void kattr_rgconf_pre_out_free(struct kattr_rgconf_pre_out *out)
{
	for (unsigned int i = 0; out->where && i < out->lines; i++)
		free(out->where[i]);
	free(out->where);
	free(out->line);
	free(out->text);
	memset(out, 0, sizeof(*out));
}

int kattr_rgconf_preprocess(const char *text, const char *file, bool allow_include,
			    struct kattr_rgconf_pre_out *out, struct kattr_why *why)
{
	rgconf_why_begin(why);
	return rgconf_why_end(why, preprocess(text, file, allow_include, out,
					      RGCONF_WHY_ERR(why)));
}
