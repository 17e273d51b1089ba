/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The RGCS model behind rgcsfs: see rgcs_model.h and rgcsfs.c. */
#include "rgcs_model.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char *const rgcs_attr_names[RGCS_NATTR] = { "shares", "stats", "members" };
const char *const rgcs_ctl_names[RGCS_NCTL] = { "numtasks", "cpu" };

struct rgcs_member {
	pid_t tid;
	unsigned gen;			/* last scan that saw it */
	unsigned long long start;	/* /proc/<tid>/stat starttime */
	unsigned long long base;	/* utime+stime when it joined / reset */
	unsigned long long joined;	/* boot-time clock ticks when it joined */
	struct rgcs_group *g;
	struct rgcs_member *prev, *next;	/* in g's list */
	struct rgcs_member *hnext;
};

/* ---- kernel string helpers ---- */

bool rgcs_isprint(unsigned char c)
{
	return (c >= 0x20 && c <= 0x7e) || c >= 0xa0;
}

static unsigned long k_strtoul(const char *cp, const char **endp)
{
	unsigned long result = 0, value;
	unsigned base = 10;

	if (*cp == '0') {
		base = 8;
		cp++;
		if (toupper((unsigned char)*cp) == 'X' && isxdigit((unsigned char)cp[1])) {
			cp++;
			base = 16;
		}
	}
	while (isxdigit((unsigned char)*cp) &&
	       (value = isdigit((unsigned char)*cp) ? (unsigned long)(*cp - '0') :
		(unsigned long)(toupper((unsigned char)*cp) - 'A' + 10)) < base) {
		result = result * base + value;
		cp++;
	}
	*endp = cp;
	return result;
}

long rgcs_simple_strtol(const char *cp, const char **endp)
{
	const char *end;
	unsigned long v;

	if (*cp == '-') {
		v = k_strtoul(cp + 1, &end);
		if (endp)
			*endp = end;
		return (long)(0UL - v);
	}
	v = k_strtoul(cp, &end);
	if (endp)
		*endp = end;
	return (long)v;
}

/* match_token("<key>%d"): the number must end the token. */
static bool match_int_token(const char *tok, const char *key, int *val)
{
	size_t kl = strlen(key);
	const char *end;
	long v;

	if (strncmp(tok, key, kl))
		return false;
	v = rgcs_simple_strtol(tok + kl, &end);
	if (end == tok + kl || *end)
		return false;
	*val = (int)v;
	return true;
}

/* ---- /proc ---- */

static unsigned long long now_ticks(const struct rgcs_fs *fs)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * (unsigned long long)fs->hz +
	       (unsigned long long)ts.tv_nsec * (unsigned long long)fs->hz / 1000000000ULL;
}

/* Now, in the unit and clock of /proc/<pid>/stat's starttime. */
static unsigned long long boot_ticks(const struct rgcs_fs *fs)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (unsigned long long)ts.tv_sec * (unsigned long long)fs->hz +
	       (unsigned long long)ts.tv_nsec * (unsigned long long)fs->hz / 1000000000ULL;
}

struct taskstat {
	pid_t ppid;
	unsigned long long start, ticks;
};

static int read_stat(const char *path, struct taskstat *ts)
{
	char buf[1024], *p;
	unsigned long long utime = 0, stime = 0;
	ssize_t n;
	int fd, field;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -ESRCH;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	if (!p)
		return -ESRCH;
	p++;
	/* field 3 (state) follows ") " */
	memset(ts, 0, sizeof(*ts));
	for (field = 3; *p && field <= 22; field++) {
		char *tok;

		while (*p == ' ')
			p++;
		tok = p;
		while (*p && *p != ' ')
			p++;
		if (field == 4)
			ts->ppid = (pid_t)strtol(tok, NULL, 10);
		else if (field == 14)
			utime = strtoull(tok, NULL, 10);
		else if (field == 15)
			stime = strtoull(tok, NULL, 10);
		else if (field == 22)
			ts->start = strtoull(tok, NULL, 10);
	}
	ts->ticks = utime + stime;
	return 0;
}

static int stat_tid(const struct rgcs_fs *fs, pid_t tid, struct taskstat *ts)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/%d/stat", fs->proc, (int)tid);
	return read_stat(path, ts);
}

/* ---- member map ---- */

static struct rgcs_member **bucket(struct rgcs_fs *fs, pid_t tid)
{
	return &fs->hash[(size_t)tid % fs->nbuckets];
}

static struct rgcs_member *find_member(struct rgcs_fs *fs, pid_t tid)
{
	struct rgcs_member *m;

	for (m = *bucket(fs, tid); m; m = m->hnext)
		if (m->tid == tid)
			return m;
	return NULL;
}

static void list_del_member(struct rgcs_member *m)
{
	struct rgcs_group *g = m->g;

	if (m->prev)
		m->prev->next = m->next;
	else
		g->members = m->next;
	if (m->next)
		m->next->prev = m->prev;
	else
		g->members_tail = m->prev;
	m->prev = m->next = NULL;
	g->nmembers--;
	m->g = NULL;
}

static void list_add_member(struct rgcs_group *g, struct rgcs_member *m)
{
	m->g = g;
	m->prev = NULL;
	m->next = g->members;
	if (g->members)
		g->members->prev = m;
	else
		g->members_tail = m;
	g->members = m;
	g->nmembers++;
}

static struct rgcs_member *new_member(struct rgcs_fs *fs, pid_t tid,
				      const struct taskstat *ts)
{
	struct rgcs_member *m = calloc(1, sizeof(*m));
	struct rgcs_member **b;

	if (!m)
		return NULL;
	m->tid = tid;
	m->gen = fs->gen;
	m->start = ts->start;
	m->joined = ts->start;	/* found in /proc: in its group since birth */
	m->base = ts->ticks;
	b = bucket(fs, tid);
	m->hnext = *b;
	*b = m;
	return m;
}

static void free_member(struct rgcs_fs *fs, struct rgcs_member *m)
{
	struct rgcs_member **p;

	for (p = bucket(fs, m->tid); *p; p = &(*p)->hnext)
		if (*p == m) {
			*p = m->hnext;
			break;
		}
	if (m->g)
		list_del_member(m);
	free(m);
}

struct newtask {
	pid_t tid, tgid;
	struct taskstat ts;
};

struct newlist {
	struct newtask *v;
	size_t n, cap;
};

static int cmp_newtask(const void *a, const void *b)
{
	const struct newtask *x = a, *y = b;

	if (x->ts.start != y->ts.start)
		return x->ts.start < y->ts.start ? -1 : 1;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/*
 * Mark the known tasks of /proc/<dir>/task as seen and append the unknown
 * ones (with thread group TGID) to NL.
 */
static int collect_tasks(struct rgcs_fs *fs, const char *dir, pid_t tgid,
			 struct newlist *nl)
{
	char path[1024];
	struct dirent *te;
	int rc = 0;
	DIR *td;

	snprintf(path, sizeof(path), "%s/%s/task", fs->proc, dir);
	td = opendir(path);
	if (!td)
		return 0;	/* gone meanwhile */
	while ((te = readdir(td))) {
		struct rgcs_member *m;
		pid_t tid;

		if (!all_digits(te->d_name))
			continue;
		tid = (pid_t)strtol(te->d_name, NULL, 10);
		m = find_member(fs, tid);
		if (m) {
			m->gen = fs->gen;
			continue;
		}
		if (nl->n == nl->cap) {
			size_t cap = nl->cap ? nl->cap * 2 : 256;
			struct newtask *v = realloc(nl->v, cap * sizeof(*v));

			if (!v) {
				rc = -ENOMEM;
				break;
			}
			nl->v = v;
			nl->cap = cap;
		}
		snprintf(path, sizeof(path), "%s/%s/task/%s/stat", fs->proc, dir, te->d_name);
		if (read_stat(path, &nl->v[nl->n].ts))
			continue;
		nl->v[nl->n].tid = tid;
		nl->v[nl->n].tgid = tgid;
		nl->n++;
	}
	closedir(td);
	return rc;
}

/*
 * Tasks seen for the first time, oldest first, join the group of their
 * parent (threads: of their leader), as at fork; but a task that started
 * before its parent joined that group was forked elsewhere: it goes to the
 * root (where the emulator cannot tell better).
 */
static int place_new(struct rgcs_fs *fs, struct newlist *nl, bool initial)
{
	size_t i;

	if (nl->n)
		qsort(nl->v, nl->n, sizeof(*nl->v), cmp_newtask);
	for (i = 0; i < nl->n; i++) {
		const struct newtask *t = &nl->v[i];
		pid_t from = t->tid != t->tgid ? t->tgid : t->ts.ppid;
		struct rgcs_member *parent = from > 0 ? find_member(fs, from) : NULL;
		struct rgcs_group *g = fs->root;
		struct rgcs_member *m;

		if (parent && parent->g && t->ts.start >= parent->joined)
			g = parent->g;
		m = new_member(fs, t->tid, &t->ts);
		if (!m)
			return -ENOMEM;
		list_add_member(g, m);
		if (!initial)
			g->successes++;
	}
	return 0;
}

static int scan(struct rgcs_fs *fs, bool initial)
{
	struct newlist nl = { 0 };
	struct dirent *de;
	int rc = 0;
	size_t i;
	DIR *d;

	d = opendir(fs->proc);
	if (!d)
		return -errno;
	fs->gen++;
	while (!rc && (de = readdir(d)))
		if (all_digits(de->d_name))
			rc = collect_tasks(fs, de->d_name,
					   (pid_t)strtol(de->d_name, NULL, 10), &nl);
	closedir(d);
	if (!rc) {
		/* Tasks not seen any more drop out. */
		for (i = 0; i < fs->nbuckets; i++) {
			struct rgcs_member *m = fs->hash[i], *next;

			for (; m; m = next) {
				next = m->hnext;
				if (m->gen != fs->gen)
					free_member(fs, m);
			}
		}
		rc = place_new(fs, &nl, initial);
	}
	free(nl.v);
	return rc;
}

int rgcs_refresh(struct rgcs_fs *fs)
{
	return scan(fs, false);
}

/* ---- groups ---- */

bool rgcs_attached(const struct rgcs_group *g)
{
	return g->depth <= RGCS_CTL_DEPTH;
}

static struct rgcs_group *new_group(struct rgcs_fs *fs, struct rgcs_group *parent,
				    const char *name)
{
	struct rgcs_group *g = calloc(1, sizeof(*g));

	if (!g)
		return NULL;
	g->name = strdup(name);
	if (!g->name) {
		free(g);
		return NULL;
	}
	g->parent = parent;
	g->depth = parent ? parent->depth + 1 : 0;
	g->refs = 1;
	if (parent) {
		g->shares[RGCS_NUMTASKS] = (struct rgcs_shares){
			RGCS_SHARE_DONT_CARE, RGCS_SHARE_DONT_CARE, RGCS_DEFAULT_DIVISOR };
		g->shares[RGCS_CPU] = (struct rgcs_shares){
			0, RGCS_SHARE_UNSUPPORTED, RGCS_DEFAULT_DIVISOR };
		g->next = parent->children;
		parent->children = g;
	} else {
		g->shares[RGCS_NUMTASKS] = (struct rgcs_shares){
			RGCS_SHARE_DONT_CARE, RGCS_SHARE_DONT_CARE, RGCS_DEFAULT_DIVISOR };
		g->shares[RGCS_CPU] = (struct rgcs_shares){
			RGCS_SHARE_DONT_CARE, RGCS_SHARE_UNSUPPORTED, RGCS_DEFAULT_DIVISOR };
	}
	g->cpu_since = now_ticks(fs);
	return g;
}

int rgcs_init(struct rgcs_fs *fs, const char *proc)
{
	int rc;

	memset(fs, 0, sizeof(*fs));
	if (strlen(proc) >= sizeof(fs->proc))
		return -ENAMETOOLONG;
	strcpy(fs->proc, proc);
	fs->hz = sysconf(_SC_CLK_TCK);
	if (fs->hz <= 0)
		fs->hz = 100;
	fs->ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	if (fs->ncpu <= 0)
		fs->ncpu = 1;
	fs->nbuckets = 4096;
	fs->hash = calloc(fs->nbuckets, sizeof(*fs->hash));
	if (!fs->hash)
		return -ENOMEM;
	fs->root = new_group(fs, NULL, "res_groups");
	if (!fs->root) {
		rgcs_fini(fs);
		return -ENOMEM;
	}
	rc = scan(fs, true);
	if (rc)
		rgcs_fini(fs);
	return rc;
}

static void free_tree(struct rgcs_group *g)
{
	struct rgcs_group *c, *next;

	for (c = g->children; c; c = next) {
		next = c->next;
		free_tree(c);
	}
	free(g->name);
	free(g);
}

void rgcs_fini(struct rgcs_fs *fs)
{
	size_t i;

	if (fs->hash) {
		for (i = 0; i < fs->nbuckets; i++) {
			struct rgcs_member *m = fs->hash[i], *next;

			for (; m; m = next) {
				next = m->hnext;
				free(m);
			}
		}
		free(fs->hash);
	}
	if (fs->root)
		free_tree(fs->root);
	memset(fs, 0, sizeof(*fs));
}

struct rgcs_group *rgcs_child(struct rgcs_group *g, const char *name)
{
	struct rgcs_group *c;

	for (c = g->children; c; c = c->next)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

int rgcs_attr_index(const char *name)
{
	int i;

	for (i = 0; i < RGCS_NATTR; i++)
		if (!strcmp(name, rgcs_attr_names[i]))
			return i;
	return -1;
}

int rgcs_mkdir(struct rgcs_fs *fs, struct rgcs_group *parent, const char *name)
{
	if (parent->dead)
		return -ENOENT;
	if (rgcs_child(parent, name) || rgcs_attr_index(name) >= 0)
		return -EEXIST;
	/* make_group returns NULL past the depth limit: configfs says ENOMEM */
	if (parent->depth + 1 > RGCS_MAX_DEPTH)
		return -ENOMEM;
	return new_group(fs, parent, name) ? 0 : -ENOMEM;
}

void rgcs_group_get(struct rgcs_group *g)
{
	g->refs++;
}

void rgcs_group_put(struct rgcs_group *g)
{
	if (--g->refs == 0) {
		free(g->name);
		free(g);
	}
}

int rgcs_rmdir(struct rgcs_fs *fs, struct rgcs_group *g)
{
	struct rgcs_group **p;

	if (!g->parent)
		return -EPERM;
	if (g->children)
		return -ENOTEMPTY;
	/* Members move to the parent, keeping their order at its head. */
	while (g->members_tail) {
		struct rgcs_member *m = g->members_tail;

		list_del_member(m);
		list_add_member(g->parent, m);
	}
	for (p = &g->parent->children; *p; p = &(*p)->next)
		if (*p == g) {
			*p = g->next;
			break;
		}
	g->next = NULL;
	g->dead = true;
	(void)fs;
	rgcs_group_put(g);
	return 0;
}

/* ---- show ---- */

static int effective_min(const struct rgcs_group *g)
{
	const struct rgcs_shares *ps;
	int pe;

	if (!g->parent)
		return 100;
	pe = effective_min(g->parent);
	ps = &g->parent->shares[RGCS_CPU];
	if (g->shares[RGCS_CPU].min < 0 || ps->div <= 0)
		return 0;
	return (int)((long long)pe * g->shares[RGCS_CPU].min / ps->div);
}

static int cpu_load(struct rgcs_fs *fs, struct rgcs_group *g)
{
	unsigned long long now = now_ticks(fs), used = 0;
	struct rgcs_member *m;
	struct taskstat ts;

	if (now <= g->cpu_since)
		return 0;
	for (m = g->members; m; m = m->next)
		if (!stat_tid(fs, m->tid, &ts) && ts.ticks > m->base)
			used += ts.ticks - m->base;
	used = used * 100 / ((now - g->cpu_since) * (unsigned long long)fs->ncpu);
	return used > 100 ? 100 : (int)used;
}

static long show_text(char *buf, size_t *len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static long show_text(char *buf, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf + *len, RGCS_PAGE + 1 - *len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n > RGCS_PAGE - *len)
		return -ENOSPC;
	*len += (size_t)n;
	return 0;
}

long rgcs_show(struct rgcs_fs *fs, struct rgcs_group *g, enum rgcs_attr attr,
	       char *buf)
{
	size_t len = 0;
	long rc = 0;
	int c;

	buf[0] = '\0';
	if (attr != RGCS_SHARES && !g->dead) {
		rc = rgcs_refresh(fs);
		if (rc)
			return rc;
	}
	switch (attr) {
	case RGCS_SHARES:
		if (!rgcs_attached(g))
			break;
		for (c = 0; c < RGCS_NCTL && !rc; c++)
			rc = show_text(buf, &len,
				       "res=%s,min_shares=%d,max_shares=%d,child_shares_divisor=%d\n",
				       rgcs_ctl_names[c], g->shares[c].min, g->shares[c].max,
				       g->shares[c].div);
		break;
	case RGCS_STATS:
		if (!rgcs_attached(g))
			break;
		rc = show_text(buf, &len,
			       "numtasks: Current usage %ld\n"
			       "numtasks: Number of successes %lu\n"
			       "numtasks: Number of failures %lu\n"
			       "numtasks: Number of forkrate failures %lu\n",
			       g->nmembers, g->successes, g->failures, g->forkrate_failures);
		if (!rc)
			rc = show_text(buf, &len, "cpu:effective_min_shares=%d, load=%d\n",
				       effective_min(g), cpu_load(fs, g));
		break;
	case RGCS_MEMBERS: {
		struct rgcs_member *m;

		for (m = g->members; m && !rc; m = m->next)
			if (m->tid)
				rc = show_text(buf, &len, "%ld\n", (long)m->tid);
		break;
	}
	default:
		return -EINVAL;
	}
	return rc ? rc : (long)len;
}

/* ---- store ---- */

static int ctl_index(const char *name)
{
	int i;

	for (i = 0; i < RGCS_NCTL; i++)
		if (!strcmp(name, rgcs_ctl_names[i]))
			return i;
	return -1;
}

static bool share_valid(int v)
{
	return v == RGCS_SHARE_DONT_CARE || v == RGCS_SHARE_UNSUPPORTED || v >= 0;
}

static void merge_share(int *cur, int v)
{
	if (*cur == RGCS_SHARE_UNSUPPORTED || v == RGCS_SHARE_UNCHANGED)
		return;
	*cur = v;
}

static int set_shares(struct rgcs_group *g, char *str)
{
	int min = RGCS_SHARE_UNCHANGED, max = RGCS_SHARE_UNCHANGED;
	int div = RGCS_SHARE_UNCHANGED, held = 0, c, v;
	const char *res = NULL;
	struct rgcs_shares ns;
	struct rgcs_group *ch;
	char *tok;

	while ((tok = strsep(&str, ","))) {
		if (!*tok)
			continue;
		if (!strncmp(tok, "res=", 4) && tok[4]) {
			if (res)
				return -EINVAL;
			res = tok + 4;
		} else if (match_int_token(tok, "min_shares=", &v)) {
			min = v;
		} else if (match_int_token(tok, "max_shares=", &v)) {
			max = v;
		} else if (match_int_token(tok, "child_shares_divisor=", &v)) {
			div = v;
		} else {
			return -EINVAL;
		}
	}
	/* Without res= the 2006 kernel dereferences NULL; refuse instead. */
	if (!res)
		return -EINVAL;
	c = ctl_index(res);
	if (c < 0 || !rgcs_attached(g))
		return -EINVAL;
	if ((min != RGCS_SHARE_UNCHANGED && !share_valid(min)) ||
	    (max != RGCS_SHARE_UNCHANGED && !share_valid(max)) ||
	    (div != RGCS_SHARE_UNCHANGED && !share_valid(div)))
		return -EINVAL;
	ns = g->shares[c];
	merge_share(&ns.min, min);
	merge_share(&ns.max, max);
	merge_share(&ns.div, div);
	if (ns.min >= 0 && ns.max >= 0 && ns.min > ns.max)
		return -EINVAL;
	if (g->parent && g->parent->shares[c].div >= 0) {
		int pdiv = g->parent->shares[c].div;

		if (ns.min > pdiv || ns.max > pdiv)
			return -EINVAL;
	}
	for (ch = g->children; ch; ch = ch->next) {
		if (!rgcs_attached(ch))
			continue;
		if (ch->shares[c].min > held)
			held = ch->shares[c].min;
		if (ch->shares[c].max > held)
			held = ch->shares[c].max;
	}
	if (ns.div >= 0 && ns.div < held)
		return -EINVAL;
	g->shares[c] = ns;
	return 0;
}

static int reset_stats(struct rgcs_fs *fs, struct rgcs_group *g, char *str)
{
	const char *res = NULL;
	struct rgcs_member *m;
	struct taskstat ts;
	char *tok;
	int c;

	while ((tok = strsep(&str, ",")))
		if (!res && !strncmp(tok, "res=", 4) && tok[4])
			res = tok + 4;
	if (!res)
		return -EINVAL;
	c = ctl_index(res);
	if (c < 0 || !rgcs_attached(g))
		return -EINVAL;
	if (c == RGCS_NUMTASKS) {
		g->successes = g->failures = g->forkrate_failures = 0;
	} else {
		g->cpu_since = now_ticks(fs);
		for (m = g->members; m; m = m->next)
			if (!stat_tid(fs, m->tid, &ts))
				m->base = ts.ticks;
	}
	return 0;
}

/* The thread group id of TID, or -errno. */
static pid_t tgid_of(const struct rgcs_fs *fs, pid_t tid)
{
	char path[1024], line[256];
	pid_t tgid = -ESRCH;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%d/status", fs->proc, (int)tid);
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? -ESRCH : -errno;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "Tgid:", 5)) {
			tgid = (pid_t)strtol(line + 5, NULL, 10);
			break;
		}
	fclose(f);
	return tgid;
}

static int add_member(struct rgcs_fs *fs, struct rgcs_group *g, const char *str)
{
	pid_t tgid, pid = (pid_t)rgcs_simple_strtol(str, NULL);
	struct newlist nl = { 0 };
	struct rgcs_member *m;
	struct taskstat ts;
	char dir[16];
	int rc;

	if (pid <= 0)
		return -EINVAL;
	rc = stat_tid(fs, pid, &ts);
	if (rc)
		return rc == -ENOENT ? -ESRCH : rc;
	m = find_member(fs, pid);
	if (m && m->start != ts.start) {	/* pid reused since the last scan */
		free_member(fs, m);
		m = NULL;
	}
	/* Threads of its group not seen yet stay where they are: place them
	 * before this one moves. */
	tgid = tgid_of(fs, pid);
	if (tgid > 0) {
		snprintf(dir, sizeof(dir), "%d", (int)tgid);
		rc = collect_tasks(fs, dir, tgid, &nl);
		if (!rc)
			rc = place_new(fs, &nl, false);
		free(nl.v);
		if (rc)
			return rc;
		if (!m)
			m = find_member(fs, pid);
	}
	if (!m) {
		m = new_member(fs, pid, &ts);
		if (!m)
			return -ENOMEM;
	} else if (m->g == g) {
		return 0;
	} else {
		list_del_member(m);
	}
	m->base = ts.ticks;
	m->joined = boot_ticks(fs);
	list_add_member(g, m);
	g->successes++;
	return 0;
}

int rgcs_store(struct rgcs_fs *fs, struct rgcs_group *g, enum rgcs_attr attr,
	       const char *data, size_t count)
{
	char buf[RGCS_PAGE];
	size_t i;

	if (g->dead)
		return -ENODEV;
	/* configfs copies at most PAGE_SIZE - 1 bytes; rgcs_attr_store cuts
	 * at the first non-printable byte (a NUL included). */
	if (count > RGCS_PAGE - 1)
		count = RGCS_PAGE - 1;
	for (i = 0; i < count && rgcs_isprint((unsigned char)data[i]); i++)
		buf[i] = data[i];
	buf[i] = '\0';
	switch (attr) {
	case RGCS_SHARES:
		return set_shares(g, buf);
	case RGCS_STATS:
		return reset_stats(fs, g, buf);
	case RGCS_MEMBERS:
		return add_member(fs, g, buf);
	default:
		return -EINVAL;
	}
}
