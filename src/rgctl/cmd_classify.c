// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rgctl classify FILE [--once] [-v]: the rules daemon.
 *
 * It subscribes to the proc connector first, then classifies every
 * running process, then follows exec, uid, gid and comm changes and
 * forks.  Descendants follow a matching process: the daemon keeps its own
 * process tree (struct pnode), from fork and exit events and /proc, in
 * which an exited process's children hang from its parent; so a child
 * forked before its ancestor was moved (the kernel leaves it in the old
 * group) is found and moved however deep, whichever of its parents are
 * gone.  Events are numbered per CPU; a gap or an overflowed socket
 * (ENOBUFS) makes it grow the receive buffer and resynchronise from /proc.
 * One daemon per hierarchy: take_lock().
 * Signals come through a signalfd in the same epoll loop: SIGHUP reloads
 * the rules (keeping the old ones when the new file is bad), SIGTERM and
 * SIGINT unsubscribe and exit.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/file.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "kattr/procev.h"
#include "kattr/rgconf.h"
#include "rgctl.h"
#include "rgctl_systemd.h"
#include "rgctl_rgd.h"
#include "xalloc.h"

static int run_classify(struct rgctl *ctx, int argc, char **argv);

enum { OPT_ONCE = OPT_CMD_FIRST + 4, OPT_RCVBUF };
static const struct option classify_opts[] = {
	{ "once",    no_argument,       NULL, OPT_ONCE },
	{ "verbose", no_argument,       NULL, 'v' },
	{ "rcvbuf",  required_argument, NULL, OPT_RCVBUF },
	{ "help",    no_argument,       NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};
static const char *const classify_help[] = {
	"    --once", "Classify what runs now, then exit (no daemon).",
	"-v, --verbose", "Log each move; twice: also processes no rule matches.",
	"    --rcvbuf BYTES", "The proc connector's receive buffer to start with.",
	NULL
};

const struct rgctl_cmd rgctl_cmd_classify = {
	.name = "classify", .args = "FILE",
	.help = "Move processes into groups by FILE's rules",
	.run = run_classify,
	.opts = classify_opts, .shortopts = "v", .opt_help = classify_help,
};

#define RCVBUF_DEFAULT	(4 << 20)
#define RCVBUF_MAX	(256 << 20)
#define BATCHES		64		/* datagrams per wakeup before signals */
#define START_SLACK	2		/* clock ticks: event time vs /proc start */

enum { PN_LIVE = 1, PN_OWN = 2 };	/* PN_OWN: a rule matched it */

/* One process (tgid) of the map; pids are indices into cls.node. */
struct pnode {
	int32_t parent, child, next, prev;	/* the tree, 0: none */
	uint32_t start;		/* clock ticks after boot, 0: unknown */
	uint16_t grp;		/* 1 + index of its group in conf->groups */
	uint8_t flags;
	uint8_t seen;		/* scan: found in /proc this time */
};

struct cls {
	struct rgctl *ctx;
	struct kattr_rg *rg;
	struct kattr_rgconf *conf;
	const char *file;
	int verbose;
	struct pnode *node;
	size_t npids;
	struct kattr_procev_sock *ev;
	int rcvbuf_max;
	uint64_t last_ev_ts;	/* CLOCK_MONOTONIC ns of the last event seen */
	uint64_t boot_off, tick_ns;	/* monotonic -> boot time, ns per tick */
	struct kattr_rg_target **targets;	/* per group, opened on first use */
	size_t ntargets;
	pid_t *stack;		/* sweep()'s work list */
	size_t nstack, capstack;
	unsigned long moved, failed;
};

static void vlog(struct cls *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void vlog(struct cls *c, const char *fmt, ...)
{
	va_list ap;

	if (!c->verbose)
		return;
	fprintf(stderr, "%s: ", tool_name());
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* ---- the process tree ---------------------------------------------------- */

/*
 * The daemon's own map of processes (tgids), from fork, exec and exit
 * events, seeded from /proc: who descends from whom, and which group each
 * belongs in.  When a process exits its children are linked to its parent
 * (as they descend from it), whatever the kernel reparents them to (init
 * or a subreaper): so a double fork whose middle process is long gone
 * still leads back to the matching ancestor.
 */
static int table_init(struct cls *c)
{
	char *text = NULL;
	long max = 0;

	/* Pages are only touched where pids live: calloc'ed, mostly unused. */
	if (kattr_file_read("/proc/sys/kernel/pid_max", &text, NULL) == 0)
		max = strtol(text, NULL, 10);
	free(text);
	if (max <= 0 || max > (1L << 22))
		max = 1L << 22;
	free(c->node);
	c->npids = (size_t)max + 1;
	c->node = calloc(c->npids, sizeof(*c->node));
	return c->node ? 0 : -ENOMEM;
}

static struct pnode *node(const struct cls *c, pid_t pid)
{
	return pid > 0 && (size_t)pid < c->npids ? &c->node[pid] : NULL;
}

static unsigned int grp_get(const struct cls *c, pid_t pid)
{
	const struct pnode *n = node(c, pid);

	return n && (n->flags & PN_LIVE) ? n->grp : 0;
}

/* Detach pid from its parent's list of children. */
static void unlink_node(struct cls *c, pid_t pid)
{
	struct pnode *n = node(c, pid), *x;

	if (!n || !n->parent)
		return;
	if (n->prev && (x = node(c, n->prev)))
		x->next = n->next;
	else if ((x = node(c, n->parent)))
		x->child = n->next;
	if (n->next && (x = node(c, n->next)))
		x->prev = n->prev;
	n->parent = n->next = n->prev = 0;
}

/* Make parent the parent of pid (0: none). */
static void link_node(struct cls *c, pid_t pid, pid_t parent)
{
	struct pnode *n = node(c, pid), *p = node(c, parent), *x;

	if (!n)
		return;
	unlink_node(c, pid);
	/* Never under a pid not known to be running: it may be reused. */
	if (!p || !(p->flags & PN_LIVE) || parent == pid)
		return;
	n->parent = parent;
	n->next = p->child;
	if (n->next && (x = node(c, n->next)))
		x->prev = pid;
	p->child = pid;
}

/* Process pid is gone: its children now descend from its parent. */
static void node_exit(struct cls *c, pid_t pid)
{
	struct pnode *n = node(c, pid);
	pid_t parent;

	if (!n)
		return;
	parent = n->parent;
	while (n->child)
		link_node(c, n->child, parent);
	unlink_node(c, pid);
	memset(n, 0, sizeof(*n));
}

/* A new process pid (a reused pid forgets the old one), in no group. */
static struct pnode *node_new(struct cls *c, pid_t pid, pid_t parent, uint32_t start)
{
	struct pnode *n = node(c, pid);

	if (!n)
		return NULL;
	if (n->flags & PN_LIVE)
		node_exit(c, pid);
	n->flags = PN_LIVE;
	n->start = start;
	link_node(c, pid, parent);
	return n;
}

/* Whether two start times (clock ticks) can be the same process's. */
static bool same_start(uint32_t a, uint32_t b)
{
	return !a || !b || (uint32_t)(a - b + START_SLACK) <= 2 * START_SLACK;
}

/* CLOCK_MONOTONIC ns (an event's time) in clock ticks after boot. */
static uint32_t ev_ticks(const struct cls *c, uint64_t ns)
{
	return ns ? (uint32_t)((ns + c->boot_off) / c->tick_ns) : 0;
}

static void clock_init(struct cls *c)
{
	struct timespec mono, boot;
	long hz = sysconf(_SC_CLK_TCK);

	if (hz <= 0)
		hz = 100;
	c->tick_ns = 1000000000ULL / (uint64_t)hz;
	clock_gettime(CLOCK_MONOTONIC, &mono);
	clock_gettime(CLOCK_BOOTTIME, &boot);
	c->boot_off = (uint64_t)((boot.tv_sec - mono.tv_sec) * 1000000000LL +
				 (boot.tv_nsec - mono.tv_nsec));
}

/* ---- moving ------------------------------------------------------------------ */

static void close_targets(struct cls *c)
{
	for (size_t i = 0; i < c->ntargets; i++)
		kattr_rg_target_close(c->targets[i]);
	free(c->targets);
	c->targets = NULL;
	c->ntargets = 0;
}

/*
 * Move the whole process pid into group gi.  The group stays open as an
 * attach target (resolved beneath the mount once), so a move is one
 * write(2) (RGCS: one per thread).
 */
static int attach(struct cls *c, pid_t pid, size_t gi)
{
	int ret;

	if (c->ntargets != c->conf->ngroups) {
		close_targets(c);
		c->targets = xcalloc(c->conf->ngroups, sizeof(*c->targets));
		c->ntargets = c->conf->ngroups;
	}
	if (!c->targets[gi]) {
		ret = kattr_rg_target_open(c->rg, c->conf->groups[gi].name,
					   KATTR_RG_THREADS, &c->targets[gi]);
		if (ret < 0)
			return ret;
	}
	ret = kattr_rg_target_attach(c->targets[gi], pid);
	if (ret < 0 && ret != -ESRCH) {	/* the group may be gone: reopen next time */
		kattr_rg_target_close(c->targets[gi]);
		c->targets[gi] = NULL;
	}
	return ret;
}

/* The file a rule was written in: an @include'd file or the configuration. */
static const char *rule_file(const struct kattr_rgconf *conf, size_t r)
{
	return conf->rules[r].file ? conf->rules[r].file : conf->file;
}

/*
 * Put process pid into group (index gi) unless it is there already.
 * Returns 1 when moved, 0 when it was there, -errno (logged unless the
 * process is gone).
 */
static int move(struct cls *c, pid_t pid, const char *comm, size_t gi,
		const char *why)
{
	const char *group = c->conf->groups[gi].name;
	char *cur = NULL;
	int ret;

	ret = kattr_rg_whereis(c->rg, pid, &cur);
	if (ret == 0 && strcmp(cur, group) == 0) {
		free(cur);
		vlog(c, "%d (%s) is in '%s' already: %s", (int)pid, TOOL_Q(comm),
		     TOOL_Q(group), why);
		return 0;
	}
	free(cur);
	if (ret == -ESRCH)
		return ret;
	ret = attach(c, pid, gi);
	if (ret == -ESRCH) {
		vlog(c, "%d (%s) exited before it could be moved", (int)pid,
		     TOOL_Q(comm));
		return ret;
	}
	if (ret < 0) {
		c->failed++;
		tool_warn("cannot move pid %d (%s) to '%s': %s", (int)pid,
			  TOOL_Q(comm), TOOL_Q(group), rgctl_strerror(ret));
		return ret;
	}
	c->moved++;
	tool_warn("moved %d (%s) to '%s': %s", (int)pid, TOOL_Q(comm),
		  TOOL_Q(group), why);
	return 1;
}

/* The name of pid for the log ("?" when gone). */
static void comm_of(pid_t pid, char comm[17])
{
	char path[64], *text = NULL;
	size_t len;

	snprintf(comm, 17, "?");
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	if (kattr_file_read(path, &text, &len) == 0) {
		if (len && text[len - 1] == '\n')
			text[len - 1] = '\0';
		snprintf(comm, 17, "%s", text);
	}
	free(text);
}

static int push(struct cls *c, pid_t pid)
{
	if (c->nstack == c->capstack) {
		size_t cap = c->capstack ? c->capstack * 2 : 256;
		pid_t *t = realloc(c->stack, cap * sizeof(*t));

		if (!t)
			return -ENOMEM;
		c->stack = t;
		c->capstack = cap;
	}
	c->stack[c->nstack++] = pid;
	return 0;
}

/*
 * The descendants of pid follow it into its group, down to those a rule
 * of their own matched (their descendants follow them).  After pid was
 * moved: a child forked between its match and its move is caught here
 * (when its fork event came first) or by its fork event (after).
 * Without place, only the map is updated.
 */
static void sweep(struct cls *c, pid_t top, bool place)
{
	unsigned int g = grp_get(c, top);
	char why[64], comm[17];

	if (!g)
		return;
	snprintf(why, sizeof(why), "descendant of %d", (int)top);
	c->nstack = 0;
	for (pid_t k = node(c, top)->child; k; k = node(c, k)->next)
		if (push(c, k) < 0)
			break;
	while (c->nstack) {
		pid_t pid = c->stack[--c->nstack];
		struct pnode *n = node(c, pid);

		if (!n || !(n->flags & PN_LIVE) || (n->flags & PN_OWN))
			continue;
		n->grp = (uint16_t)g;
		if (place) {
			comm_of(pid, comm);
			move(c, pid, comm, g - 1, why);
		}
		for (pid_t k = n->child; k; k = node(c, k)->next)
			if (push(c, k) < 0) {
				tool_warn("out of memory: not every descendant of %d followed it",
					  (int)top);
				c->nstack = 0;
				break;
			}
	}
}

/*
 * Classify process pid by the rules (after an exec, uid, gid or comm
 * change).  A match makes it its rule's, with its descendants; no match
 * leaves it where it is (in its ancestor's group, if any).
 */
static void classify(struct cls *c, pid_t pid, const char *reason)
{
	struct kattr_rgproc p;
	struct pnode *n = node(c, pid);
	char why[96];
	size_t gi;
	int r, moved;

	if (!n || kattr_rgproc_read(pid, kattr_rgconf_needs(c->conf), &p) < 0 ||
	    p.kthread)
		return;	/* gone: its exit event says so */
	if (!(n->flags & PN_LIVE))
		node_new(c, pid, p.ppid, (uint32_t)p.starttime);
	r = kattr_rgconf_match(c->conf, &p);
	if (r < 0) {
		if (c->verbose > 1)
			vlog(c, "%d (%s): no rule matches (%s)", (int)pid,
			     TOOL_Q(p.comm), reason);
		if (!n->grp && grp_get(c, n->parent)) {
			n->grp = (uint16_t)grp_get(c, n->parent);
			snprintf(why, sizeof(why), "child of %d (%s)", (int)n->parent,
				 reason);
			move(c, pid, p.comm, n->grp - 1U, why);
		}
		return;
	}
	gi = (size_t)(kattr_rgconf_find_group(c->conf, c->conf->rules[r].group) -
		      c->conf->groups);
	snprintf(why, sizeof(why), "rule %d (%s:%u, %s)", r + 1,
		 rule_file(c->conf, (size_t)r), c->conf->rules[r].line, reason);
	moved = n->grp != gi + 1;
	n->grp = (uint16_t)(gi + 1);
	n->flags |= PN_OWN;
	if (move(c, pid, p.comm, gi, why) == 1)
		moved = 1;
	if (moved)
		sweep(c, pid, true);
}

static int by_start(const void *a, const void *b)
{
	const struct kattr_rgproc *x = a, *y = b;

	if (x->starttime != y->starttime)
		return x->starttime < y->starttime ? -1 : 1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* The processes of /proc, read for the rules (kernel threads left out). */
struct proc_list {
	struct cls *c;
	struct kattr_rgproc *v;
	size_t n, cap;
};

static int proc_list_add(pid_t pid, void *data)
{
	struct proc_list *pl = data;

	if ((size_t)pid >= pl->c->npids)
		return 0;
	XGROW(pl->v, pl->n, pl->cap);
	if (kattr_rgproc_read(pid, kattr_rgconf_needs(pl->c->conf), &pl->v[pl->n]) == 0 &&
	    !pl->v[pl->n].kthread)
		pl->n++;
	return 0;
}

/*
 * Bring the map up to date with ps (sorted oldest first): new processes
 * added under their parent in /proc, those gone unseen (!fresh) removed.
 * Returns how many started unseen.
 */
static size_t sync_map(struct cls *c, const struct kattr_rgproc *ps, size_t n,
		       bool fresh)
{
	size_t unseen = 0;

	for (size_t i = 0; i < n; i++) {
		struct pnode *x = node(c, ps[i].pid);

		if (!(x->flags & PN_LIVE) || !same_start(x->start, (uint32_t)ps[i].starttime)) {
			node_new(c, ps[i].pid, 0, (uint32_t)ps[i].starttime);
			unseen += !fresh;
		} else if (!x->start) {
			x->start = (uint32_t)ps[i].starttime;
		}
		x->seen = 1;
	}
	/* Those without a known parent (new ones) get the one of /proc. */
	for (size_t i = 0; i < n; i++)
		if (!node(c, ps[i].pid)->parent)
			link_node(c, ps[i].pid, ps[i].ppid);
	/* Gone unseen: their children descend from their parents. */
	for (size_t pid = 1; !fresh && pid < c->npids; pid++) {
		struct pnode *x = &c->node[pid];

		if ((x->flags & PN_LIVE) && !x->seen)
			node_exit(c, (pid_t)pid);
	}
	for (size_t i = 0; i < n; i++)
		node(c, ps[i].pid)->seen = 0;
	return unseen;
}

/* Each process of ps into the group the rules or its ancestors give it. */
static void place_all(struct cls *c, const struct kattr_rgproc *ps, size_t n,
		      const char *why, bool fresh)
{
	/* The rules first, then the descendants of each process in a group
	 * follow it, down to those the rules put elsewhere. */
	for (size_t i = 0; i < n; i++) {
		struct pnode *x = node(c, ps[i].pid);
		int r = kattr_rgconf_match(c->conf, &ps[i]);

		if (r >= 0) {
			x->grp = (uint16_t)(kattr_rgconf_find_group(c->conf, c->conf->rules[r].group) -
					    c->conf->groups + 1);
			x->flags |= PN_OWN;
		} else if (fresh) {
			x->flags &= (uint8_t)~PN_OWN;
		}
	}
	for (size_t i = 0; i < n; i++) {
		struct pnode *x = node(c, ps[i].pid);

		if (x->grp && ((x->flags & PN_OWN) || !grp_get(c, x->parent)))
			sweep(c, ps[i].pid, false);
	}
	for (size_t i = 0; i < n; i++) {
		struct pnode *x = node(c, ps[i].pid);
		char reason[96];
		int r;

		if (!x->grp)
			continue;
		r = kattr_rgconf_match(c->conf, &ps[i]);
		if (r >= 0)
			snprintf(reason, sizeof(reason), "rule %d (%s:%u, %s)", r + 1,
				 rule_file(c->conf, (size_t)r),
				 c->conf->rules[r].line, why);
		else
			snprintf(reason, sizeof(reason), "descendant of %d (%s)",
				 (int)x->parent, why);
		move(c, ps[i].pid, ps[i].comm, x->grp - 1U, reason);
	}
}

/*
 * Read every process of /proc and put each where it belongs.  fresh
 * (start, reload): the map is built anew from /proc's parents.  Else
 * (events were lost): the map is brought up to date (the processes gone
 * removed, the ones started unseen added under their parent in /proc),
 * what it knew of the others' ancestry is kept, and every process the
 * map puts in a group is placed there again.
 */
static int scan(struct cls *c, const char *why, bool fresh)
{
	struct proc_list pl = { .c = c };
	unsigned long before = c->moved;
	size_t unseen;
	int ret;

	if (fresh || !c->node) {
		ret = table_init(c);
		if (ret < 0)
			return ret;
	}
	clock_init(c);
	ret = kattr_rg_proc_foreach(0, proc_list_add, &pl);
	if (ret < 0) {
		free(pl.v);
		return ret;
	}
	/* Parents start before their children: oldest first. */
	qsort(pl.v, pl.n, sizeof(*pl.v), by_start);
	unseen = sync_map(c, pl.v, pl.n, fresh);
	place_all(c, pl.v, pl.n, why, fresh);
	free(pl.v);
	if (fresh)
		vlog(c, "scan (%s): %zu processes, %lu moved", why, pl.n, c->moved - before);
	else
		tool_warn("resynchronised from /proc (%s): %zu processes, %zu started unseen, %lu moved",
			  why, pl.n, unseen, c->moved - before);
	return 0;
}

/* ---- events ---------------------------------------------------------- */

static int on_event(const struct kattr_procev *ev, void *data)
{
	struct cls *c = data;
	struct pnode *n;
	char why[64], comm[17];

	if (ev->timestamp_ns)
		c->last_ev_ts = ev->timestamp_ns;
	switch (ev->type) {
	case KATTR_PROCEV_NONE:
		if (ev->ack_err)
			tool_warn("the proc connector refused the subscription: %s",
				  tool_strerror((int)ev->ack_err));
		break;
	case KATTR_PROCEV_FORK:
		/* A new thread is in its process's group; a process forked
		 * by any thread is the process's child. */
		if (ev->pid != ev->tgid)
			break;
		n = node_new(c, ev->tgid, ev->parent_tgid, ev_ticks(c, ev->timestamp_ns));
		if (!n || !grp_get(c, ev->parent_tgid))
			break;
		n->grp = (uint16_t)grp_get(c, ev->parent_tgid);
		comm_of(ev->tgid, comm);
		snprintf(why, sizeof(why), "child of %d (fork)", (int)ev->parent_tgid);
		move(c, ev->tgid, comm, n->grp - 1U, why);
		break;
	case KATTR_PROCEV_EXEC:
		classify(c, ev->tgid, "exec");
		break;
	case KATTR_PROCEV_UID:
		classify(c, ev->tgid, "uid change");
		break;
	case KATTR_PROCEV_GID:
		classify(c, ev->tgid, "gid change");
		break;
	case KATTR_PROCEV_COMM:
		if (ev->pid == ev->tgid)
			classify(c, ev->tgid, "comm change");
		break;
	case KATTR_PROCEV_EXIT:
		n = node(c, ev->tgid);
		/* Not a process that reused the pid since (after a rescan). */
		if (ev->pid == ev->tgid && n && (n->flags & PN_LIVE) &&
		    (!n->start || !ev->timestamp_ns ||
		     (int32_t)(n->start - ev_ticks(c, ev->timestamp_ns)) <= START_SLACK))
			node_exit(c, ev->tgid);
		break;
	default:
		break;
	}
	return 0;
}

/* After lost events: a bigger buffer, then resynchronise from /proc. */
static void recover(struct cls *c, uint64_t lost, bool overflow)
{
	int before = kattr_procev_rcvbuf(c->ev) / 2, after, r;

	/* At least the default size at once: each overflow is a window in
	 * which a process can be forked and orphaned unseen. */
	after = before;
	do {
		int prev = after;

		r = kattr_procev_grow(c->ev, c->rcvbuf_max);
		after = kattr_procev_rcvbuf(c->ev) / 2;
		if (after <= prev)
			break;
	} while (r == 0 && after < RCVBUF_DEFAULT);
	if (overflow)
		tool_warn("process events were lost (the %d KiB receive buffer overflowed): %s, rescanning",
			  before / 1024, r == 0 && after > before ?
			  "buffer grown" : "buffer at its maximum");
	else
		tool_warn("%llu process events were lost (sequence gap): %s, rescanning",
			  (unsigned long long)lost, r == 0 && after > before ?
			  "buffer grown" : "buffer at its maximum");
	if (after > before)
		vlog(c, "receive buffer now %d KiB", after / 1024);
	scan(c, "after lost events", false);
}

/* Check that every rule's group exists; err gets why not. */
static int check_groups(struct cls *c, const struct kattr_rgconf *conf,
			char *err, size_t errsz)
{
	for (size_t i = 0; i < conf->nrules; i++) {
		int ret = kattr_rg_exists(c->rg, conf->rules[i].group);

		if (ret < 0) {
			snprintf(err, errsz, "%s:%u: rules[%zu].group: '%s': %s%s",
				 rule_file(conf, i), conf->rules[i].line, i + 1,
				 TOOL_Q(conf->rules[i].group), rgctl_strerror(ret),
				 ret == -ENOENT ? " (run 'rgctl apply' first)" : "");
			return ret;
		}
	}
	return 0;
}

static void reload(struct cls *c)
{
	struct kattr_rgconf *n = NULL;
	char err[1024];
	int ret;

	rgctl_sd_notify("RELOADING=1");
	ret = kattr_rgconf_parse_file(c->file, &n, err, sizeof(err));
	if (ret == 0)
		ret = kattr_rgconf_resolve(n, err, sizeof(err));
	if (ret == 0 && n->backend &&
	    strcmp(n->backend, kattr_rg_backend_name(kattr_rg_backend_of(c->rg))) != 0) {
		snprintf(err, sizeof(err), "%s: backend %s differs from the running %s",
			 c->file, n->backend,
			 kattr_rg_backend_name(kattr_rg_backend_of(c->rg)));
		ret = -EINVAL;
	}
	if (ret == 0)
		ret = check_groups(c, n, err, sizeof(err));
	if (ret < 0) {
		tool_warn("cannot reload the rules: %s; keeping the old rules", err);
		kattr_rgconf_free(n);
		rgctl_sd_notify("READY=1\nSTATUS=reload failed: kept the old rules");
		return;
	}
	close_targets(c);
	kattr_rgconf_free(c->conf);
	c->conf = n;
	tool_warn("reloaded %zu rule%s from %s", n->nrules, n->nrules == 1 ? "" : "s",
		  c->file);
	scan(c, "reload", true);
	rgctl_sd_notify("READY=1\nSTATUS=rules reloaded");
}

static int loop(struct cls *c)
{
	struct epoll_event e = { .events = EPOLLIN };
	sigset_t set;
	int ep, sfd, ret = EXIT_OK;

	sigemptyset(&set);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0 ||
	    (sfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK)) < 0)
		tool_die(EXIT_FAIL, "cannot set up signal handling: %s", tool_strerror(errno));
	ep = epoll_create1(EPOLL_CLOEXEC);
	if (ep < 0)
		tool_die(EXIT_FAIL, "cannot create an epoll instance: %s", tool_strerror(errno));
	e.data.fd = sfd;
	epoll_ctl(ep, EPOLL_CTL_ADD, sfd, &e);
	e.data.fd = kattr_procev_fd(c->ev);
	epoll_ctl(ep, EPOLL_CTL_ADD, e.data.fd, &e);
	for (;;) {
		struct epoll_event got[2];
		int n = epoll_wait(ep, got, 2, -1);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			tool_warn("epoll_wait: %s", tool_strerror(errno));
			ret = EXIT_FAIL;
			break;
		}
		for (int i = 0; i < n; i++) {
			if (got[i].data.fd == sfd) {
				struct signalfd_siginfo si;

				while (read(sfd, &si, sizeof(si)) == sizeof(si)) {
					if (si.ssi_signo == SIGHUP) {
						reload(c);
						continue;
					}
					vlog(c, "%s: unsubscribing and exiting",
					     strsignal((int)si.ssi_signo));
					rgctl_sd_notify("STOPPING=1");
					goto out;
				}
				continue;
			}
			int r = kattr_procev_recv(c->ev, BATCHES, on_event, c);
			uint64_t lost = kattr_procev_take_lost(c->ev);

			if (r == -ENOBUFS)
				recover(c, lost, true);
			else if (r < 0)
				tool_warn("cannot receive process events: %s", tool_strerror(-r));
			else if (lost)
				recover(c, lost, false);
		}
	}
out:
	close(ep);
	close(sfd);
	return ret;
}

/*
 * One daemon per hierarchy: an exclusive flock(2) on
 * /run/rgctl/classify.DEV.lock (the directory: $RGCTL_RUNDIR if set;
 * beneath the --sysroot tree if one is given) (DEV: the hierarchy's device numbers,
 * whatever --root), held for the daemon's life and released by the
 * kernel when it ends, however it ends; the file holds its pid.  A
 * second daemon exits 1 naming the first.  Returns the descriptor.
 */
static int take_lock(struct cls *c)
{
	struct stat st;
	char name[64], held[32] = "";
	const char *mnt = kattr_rg_root(c->rg);
	const char *rundir;
	char shown[4200];
	int dir, fd, n;

	fd = kattr_rg_group_open(c->rg, "/", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0)
		tool_die(EXIT_FAIL, "cannot lock the hierarchy at %s: %s", mnt,
			 tool_strerror(fd < 0 ? -fd : errno));
	close(fd);
	/* rgctl's run-state directory (state.c): $RGCTL_RUNDIR, else
	 * /run/rgctl beneath the --sysroot tree when one is given */
	dir = rgctl_state_dir(true, shown, sizeof(shown));
	if (dir < 0)
		tool_die(EXIT_FAIL, "cannot open %s (the daemon's lock): %s", shown,
			 rgctl_state_strerror(dir));
	rundir = shown;
	snprintf(name, sizeof(name), "classify.%u-%u.lock", major(st.st_dev),
		 minor(st.st_dev));
	fd = openat(dir, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0644);
	close(dir);
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		tool_die(EXIT_FAIL, "cannot open the lock %s/%s: %s", rundir, name,
			 fd < 0 ? tool_strerror(errno) : "not a regular file");
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno != EWOULDBLOCK)
			tool_die(EXIT_FAIL, "cannot lock %s/%s: %s", rundir, name,
				 tool_strerror(errno));
		n = (int)pread(fd, held, sizeof(held) - 1, 0);
		held[n > 0 ? n : 0] = '\0';
		held[strcspn(held, "\n")] = '\0';
		tool_die(EXIT_FAIL, "another classify daemon (pid %s) runs on the hierarchy of %s (lock %s/%s)",
			 held[0] ? held : "unknown", mnt, rundir, name);
	}
	n = snprintf(held, sizeof(held), "%d\n", (int)getpid());
	if (ftruncate(fd, 0) < 0 || pwrite(fd, held, (size_t)n, 0) != n)
		tool_warn("cannot write the pid to %s/%s: %s", rundir, name,
			  tool_strerror(errno));
	return fd;
}

static int run_classify(struct rgctl *ctx, int argc, char **argv)
{
	struct cls *c;
	bool once = false;
	int verbose = 0;
	long rcvbuf = RCVBUF_DEFAULT;
	char err[1024], *end;
	int opt, ret, lock;

	optind = 0;
	while ((opt = rgctl_getopt(&rgctl_cmd_classify, argc, argv)) != -1) {
		switch (opt) {
		case OPT_ONCE:
			once = true;
			break;
		case 'v':
			verbose++;	/* -vv also logs processes no rule matches */
			break;
		case OPT_RCVBUF:
			errno = 0;
			rcvbuf = strtol(optarg, &end, 10);
			if (errno || *end || rcvbuf < 1 || rcvbuf > RCVBUF_MAX)
				rgctl_cmd_usage(&rgctl_cmd_classify,
						"--rcvbuf needs a byte count from 1 to %d", RCVBUF_MAX);
			break;
		}
	}
	if (argc - optind != 1)
		rgctl_cmd_usage(&rgctl_cmd_classify, "give exactly one FILE");
	c = xcalloc(1, sizeof(*c));
	c->verbose = verbose;
	c->ctx = ctx;
	c->file = argv[argc - 1];
	c->conf = rgctl_rgd_load(ctx, c->file);
	c->rg = rgctl_rg(ctx);
	c->rcvbuf_max = RCVBUF_MAX;
	if (check_groups(c, c->conf, err, sizeof(err)) < 0)
		tool_die(EXIT_FAIL, "%s", err);
	for (size_t i = 0; i < c->conf->nrules; i++)
		rgctl_sd_check(ctx, c->conf->rules[i].group, RGCTL_SD_ATTACH);
	lock = take_lock(c);
	if (!once) {
		/* Subscribe before the scan, so nothing starts unseen. */
		ret = kattr_procev_open((int)rcvbuf, &c->ev);
		if (ret == -EOPNOTSUPP)
			tool_die(EXIT_FAIL, "rgctl was built without libmnl: process events are not supported");
		if (ret < 0)
			tool_die(EXIT_FAIL, "cannot subscribe to process events (proc connector): %s",
				 ret == -EPERM ? "permission denied (needs root in the initial namespaces)"
					       : tool_strerror(-ret));
		vlog(c, "listening to process events, receive buffer %d KiB",
		     kattr_procev_rcvbuf(c->ev) / 2048);
	}
	ret = scan(c, "start", true);
	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot scan /proc: %s", tool_strerror(-ret));
	if (once) {
		ret = c->failed ? EXIT_FAIL : EXIT_OK;
	} else {
		/* Subscribed and what ran is classified: ready. */
		rgctl_sd_notify("READY=1\nSTATUS=classifying");
		ret = loop(c);
	}
	kattr_procev_close(c->ev);
	close_targets(c);
	kattr_rgconf_free(c->conf);
	free(c->node);
	free(c->stack);
	free(c);
	close(lock);
	return ret;
}
