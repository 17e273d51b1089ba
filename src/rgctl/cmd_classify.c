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
 * SIGINT unsubscribe and exit.  They are blocked from before the first
 * scan, and every long pass (a scan, a batch of events, a sweep of
 * descendants) asks whether one is pending between two moves: the move
 * in progress completes (a process is never left half-moved), the rest
 * is left undone, and the daemon stops within one move.
 *
 * A process can exec, fork and exit before its exec event is read: /proc
 * no longer knows it.  Its exit record (taskstats, registered for every
 * CPU, sent before the exit event) says who it was, so its exit event
 * still classifies it and its descendants follow; a process that could
 * not be classified either way is counted and logged (pid, comm, why).
 *
 * --at-exec (atexec.c) places a program before its first instruction
 * (fanotify permission events); the events above confirm it after.
 * Under a service manager the loop pings its watchdog.
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
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "kattr/private_chan.h"
#include "kattr/private_proc.h"
#include "kattr/procev.h"
#include "kattr/rgconf.h"
#include "kattr/taskstats.h"
#include "rgctl.h"
#include "rgctl_atexec.h"
#include "rgctl_plan.h"
#include "rgctl_systemd.h"
#include "rgctl_conf.h"
#include "xalloc.h"

static int run_classify(struct rgctl *ctx, int argc, char **argv);

enum { OPT_ONCE = OPT_CMD_FIRST + 4, OPT_RCVBUF, OPT_AT_EXEC };
static const struct option classify_opts[] = {
	{ "once",    no_argument,       NULL, OPT_ONCE },
	{ "at-exec", optional_argument, NULL, OPT_AT_EXEC },
	{ "verbose", no_argument,       NULL, 'v' },
	{ "rcvbuf",  required_argument, NULL, OPT_RCVBUF },
	{ "help",    no_argument,       NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};
static const char *const classify_help[] = {
	"    --once", "Classify what runs now, then exit (no daemon).",
	"    --at-exec[=required]", "Place each program before it runs (fanotify); required: or exit 1.",
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
#define EXITS		16384		/* exit records kept */
#define EXIT_RCVBUF	(8 << 20)

/* PN_OWN: a rule matched it; PN_GONE: exited before /proc was read. */
enum { PN_LIVE = 1, PN_OWN = 2, PN_GONE = 4 };
enum { AT_EXEC_NO, AT_EXEC_TRY, AT_EXEC_REQUIRED };

/* One exit record, as much as the rules need of it. */
struct xrec {
	uint32_t pid, uid, gid;
	uint64_t btime, exe_dev, exe_ino;
	char comm[16];
};

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
	char **missing;		/* per group, the hierarchies it lacks, NULL: none */
	size_t ntargets;
	pid_t *stack;		/* sweep()'s work list */
	size_t nstack, capstack;
	unsigned long moved, failed;
	unsigned long completed;	/* moves found half done, and completed */
	int at_exec;		/* AT_EXEC_* */
	struct atexec *ax;	/* --at-exec's marks, NULL: none */
	struct kattr_taskexit_sock *tx;	/* exit records, NULL: none */
	char tx_why[160];	/* why none */
	struct xrec *exits;	/* the last EXITS records, a ring */
	size_t exit_next;
	unsigned long missed, from_records, records_lost;
	bool lost_pending;	/* process events lost while answering execs */
	uint64_t lost_n;
	uint64_t lost_total;	/* process events lost since the start */
	unsigned long overflows, rescans;	/* ENOBUFS, rescans after losses */
	bool lost_overflow;
	int64_t boot_epoch;	/* the boot's time, seconds since 1970 */
	int ep;			/* the loop's epoll instance, -1 before */
	sigset_t stop_set;	/* the signals that stop it */
	int stop_sig;		/* the one that did, 0: none yet */
	bool cut;		/* a pass was cut short by it */
	struct { dev_t dev; ino_t ino; } *exe_ids;	/* per rule, 0: none */
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

/*
 * Whether a stop signal is pending (or came): asked between two moves,
 * so a long pass ends within one move of SIGTERM.  The signal stays
 * queued for the signalfd, which the loop reads next.
 */
static bool stopping(struct cls *c)
{
	sigset_t pend;

	if (!c->stop_sig && sigpending(&pend) == 0)
		for (int sig = 1; sig < NSIG && !c->stop_sig; sig++)
			if (sigismember(&c->stop_set, sig) == 1 &&
			    sigismember(&pend, sig) == 1)
				c->stop_sig = sig;
	/* Asked with work left: that work is cut short. */
	c->cut |= c->stop_sig != 0;
	return c->stop_sig != 0;
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
	if (kattr_root_file_read(tool_root(), "/proc/sys/kernel/pid_max", &text, NULL) == 0)
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
	c->boot_epoch = (int64_t)time(NULL) - boot.tv_sec;
}

/* ---- moving ------------------------------------------------------------------ */

static void close_targets(struct cls *c)
{
	for (size_t i = 0; i < c->ntargets; i++) {
		kattr_rg_target_close(c->targets[i]);
		free(c->missing[i]);
	}
	free(c->targets);
	free(c->missing);
	c->targets = NULL;
	c->missing = NULL;
	c->ntargets = 0;
}

/*
 * Move the whole process pid into group gi.  The group stays open as an
 * attach target (resolved beneath the mount once), so a move is one
 * write(2) (RGCS: one per thread).
 */
static int target(struct cls *c, size_t gi);

static int attach(struct cls *c, pid_t pid, size_t gi)
{
	int ret = target(c, gi);

	if (ret < 0)
		return ret;
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

/* Whether hier (a hierarchy's name) is one of list, kattr_rg_missing()'s
 * "memory, pids" (names hold commas, never ", "). */
static bool listed(const char *list, const char *hier)
{
	size_t len = strlen(hier);

	for (const char *s = list; s && *s;) {
		const char *e = strstr(s, ", ");
		size_t n = e ? (size_t)(e - s) : strlen(s);

		if (n == len && strncmp(s, hier, len) == 0)
			return true;
		s += n + (e ? 2 : 0);
	}
	return false;
}

/*
 * Where pid is against group gi, in every hierarchy the group spans (on
 * cgroup v1 one read of /proc/PID/cgroup; one place elsewhere): 1 when in
 * it in all of them, 0 in none, 2 in some only (a move half done: a
 * child forked while its parent was being moved is in the new group in
 * the hierarchies written before its fork, the old one in the others;
 * note gets "in it in cpu; in '/old' in memory"), -errno.
 */
static int placed(struct cls *c, pid_t pid, size_t gi, char *note, size_t size)
{
	const char *group = c->conf->groups[gi].name;
	struct kattr_rg_place *v;
	size_t n, in = 0, out = 0, len;
	int ret = kattr_rg_whereis_each(c->rg, pid, &v, &n);

	note[0] = '\0';
	if (ret < 0)
		return ret;
	for (size_t i = 0; i < n; i++) {
		bool here = v[i].group && strcmp(v[i].group, group) == 0;

		/* a hierarchy where the group has no directory: not spanned */
		if (i && listed(c->missing[gi], v[i].hier))
			continue;
		here ? in++ : out++;
		len = strlen(note);
		if (len < size)
			snprintf(note + len, size - len, "%s%s %s", len ? "; " : "",
				 here ? "in it in" : v[i].group ? TOOL_Q(v[i].group) : "outside the root",
				 TOOL_Q(v[i].hier));
	}
	kattr_rg_places_free(v, n);
	return !out ? 1 : !in ? 0 : 2;
}

/* Group gi's attach target (resolved beneath the mount once) and the
 * hierarchies it lacks. */
static int target(struct cls *c, size_t gi)
{
	char buf[512];
	int ret;

	if (c->ntargets != c->conf->ngroups) {
		close_targets(c);
		c->targets = xcalloc(c->conf->ngroups, sizeof(*c->targets));
		c->missing = xcalloc(c->conf->ngroups, sizeof(*c->missing));
		c->ntargets = c->conf->ngroups;
	}
	if (c->targets[gi])
		return 0;
	ret = kattr_rg_target_open(c->rg, c->conf->groups[gi].name,
				   KATTR_RG_THREADS, &c->targets[gi]);
	if (ret < 0)
		return ret;
	free(c->missing[gi]);
	c->missing[gi] = kattr_rg_missing(c->rg, c->conf->groups[gi].name, buf,
					  sizeof(buf)) > 0 ? xstrdup(buf) : NULL;
	return 0;
}

/*
 * Put process pid into group (index gi) unless it is there already, in
 * every hierarchy the group spans: a process in it in some of them only
 * is moved again (in all: a write per hierarchy), and the log says so.
 * Returns 1 when moved, 0 when it was there, -errno (logged unless the
 * process is gone).
 */
static int move(struct cls *c, pid_t pid, const char *comm, size_t gi,
		const char *why)
{
	const char *group = c->conf->groups[gi].name;
	char note[512];
	int ret, was;

	ret = target(c, gi);
	if (ret < 0) {
		c->failed++;
		tool_warn("cannot move pid %d (%s) to '%s': %s", (int)pid,
			  TOOL_Q(comm), TOOL_Q(group), rgctl_strerror(ret));
		return ret;
	}
	was = placed(c, pid, gi, note, sizeof(note));
	if (was == 1) {
		vlog(c, "%d (%s) is in '%s' already: %s", (int)pid, TOOL_Q(comm),
		     TOOL_Q(group), why);
		return 0;
	}
	if (was == -ESRCH)
		return was;
	rgctl_step_delay();	/* rgctl-faults: a slow move, for the tests */
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
	if (was == 2) {
		c->completed++;
		tool_warn("completed the move of %d (%s) to '%s', half done (%s): %s",
			  (int)pid, TOOL_Q(comm), TOOL_Q(group), note, why);
	} else {
		tool_warn("moved %d (%s) to '%s': %s", (int)pid, TOOL_Q(comm),
			  TOOL_Q(group), why);
	}
	return 1;
}

/* The name of pid for the log ("?" when gone). */
static void comm_of(pid_t pid, char comm[17])
{
	char path[64], *text = NULL;
	size_t len;

	snprintf(comm, 17, "?");
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	if (kattr_root_file_read(tool_root(), path, &text, &len) == 0) {
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
	while (c->nstack && !(place && stopping(c))) {
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

/* Rule r matched process pid: it is the rule's, with its descendants. */
static void own(struct cls *c, pid_t pid, const char *comm, int r, const char *reason)
{
	struct pnode *n = node(c, pid);
	char why[96];
	size_t gi;
	int moved;

	gi = (size_t)(kattr_rgconf_find_group(c->conf, c->conf->rules[r].group) -
		      c->conf->groups);
	snprintf(why, sizeof(why), "rule %d (%s:%u, %s)", r + 1,
		 rule_file(c->conf, (size_t)r), c->conf->rules[r].line, reason);
	moved = n->grp != gi + 1;
	n->grp = (uint16_t)(gi + 1);
	n->flags |= PN_OWN;
	if (move(c, pid, comm, gi, why) == 1)
		moved = 1;
	if (moved)
		sweep(c, pid, true);
}

/*
 * Classify process pid by the rules (after an exec, uid, gid or comm
 * change).  A match makes it its rule's, with its descendants; no match
 * leaves it where it is (in its ancestor's group, if any).  Gone from
 * /proc already: its exit event classifies it by its exit record.
 */
static void classify(struct cls *c, pid_t pid, const char *reason)
{
	struct kattr_proc p;
	struct pnode *n = node(c, pid);
	char why[96];
	int r;

	if (!n)
		return;
	if (kattr_proc_read_at(tool_root(), pid, kattr_rgconf_needs(c->conf), &p) < 0) {
		if (!(n->flags & PN_LIVE))
			node_new(c, pid, 0, 0);
		n->flags |= PN_GONE;
		return;
	}
	if (p.kthread)
		return;
	if (!(n->flags & PN_LIVE))
		node_new(c, pid, p.ppid, (uint32_t)p.starttime);
	if ((kattr_rgconf_needs(c->conf) & KATTR_PROC_EXE) && !p.exe[0]) {
		/* exiting (a zombie has no exe): who it was is not known, so
		 * no rule is said to match or not; its exit record decides
		 * at its exit event, or it is counted missed there */
		vlog(c, "%d (%s): its exe cannot be read (exiting?): classified at its exit (%s)",
		     (int)pid, TOOL_Q(p.comm), reason);
		n->flags |= PN_GONE;
		return;
	}
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
	own(c, pid, p.comm, r, reason);
}

/* ---- exit records: who a process was once /proc forgot it ----------------- */

static int keep_exit(const struct kattr_taskexit *rec, void *data)
{
	struct cls *c = data;
	struct xrec *x;

	/* A process's record is its leader thread's (pid = tgid). */
	if (rec->tgid && rec->tgid != rec->pid)
		return 0;
	x = &c->exits[c->exit_next++ % EXITS];
	x->pid = rec->pid;
	x->uid = rec->uid;
	x->gid = rec->gid;
	x->btime = rec->btime;
	x->exe_dev = rec->exe_dev;
	x->exe_ino = rec->exe_ino;
	memcpy(x->comm, rec->comm, 15);
	x->comm[15] = '\0';
	return 0;
}

/* Take what exit records are queued. */
static void drain_exits(struct cls *c)
{
	int r;

	if (!c->tx)
		return;
	while ((r = kattr_taskexit_recv(c->tx, 0, keep_exit, c)) == -ENOBUFS) {
		c->records_lost++;
		tool_warn("exit records were lost (the taskstats receive buffer overflowed): "
			  "a process that exits before /proc is read may be missed (and logged)");
	}
}

/* The newest record of pid, if it is the process that started at start. */
static const struct xrec *find_exit(const struct cls *c, pid_t pid, uint32_t start)
{
	size_t n = c->exit_next < EXITS ? c->exit_next : EXITS;

	for (size_t i = 1; i <= n; i++) {
		const struct xrec *x = &c->exits[(c->exit_next - i) % EXITS];
		int64_t began = c->boot_epoch + (int64_t)((uint64_t)start * c->tick_ns / 1000000000ULL);

		if (x->pid != (uint32_t)pid)
			continue;
		/* ac_btime has whole seconds: a pid reused since is older. */
		if (start && x->btime && (int64_t)x->btime - began > 2)
			continue;
		return x;
	}
	return NULL;
}

/* The exe of a rule the record's binary (device, inode) is, or "". */
static const char *record_exe(const struct cls *c, const struct xrec *x)
{
	for (size_t i = 0; c->exe_ids && i < c->conf->nrules; i++)
		if (x->exe_ino && c->exe_ids[i].ino == (ino_t)x->exe_ino &&
		    c->exe_ids[i].dev == (dev_t)x->exe_dev)
			return c->conf->rules[i].exe;
	return "";
}

/*
 * Classify gone process pid by its exit record, so its descendants (still
 * linked to it) follow it.  gone: its exec (or id or comm change) found
 * it gone from /proc; else its exit came unseen (a rescan after lost
 * events) and only a group other than the map's is acted on.  false when
 * no record of it is kept.
 */
static bool by_record(struct cls *c, pid_t pid, bool gone)
{
	static struct kattr_proc p;
	struct pnode *n = node(c, pid);
	const struct xrec *x = c->tx ? find_exit(c, pid, n->start) : NULL;
	size_t gi;
	int r;

	if (!x)
		return false;
	if (gone && !x->exe_ino && (kattr_rgconf_needs(c->conf) & KATTR_PROC_EXE)) {
		/* a kernel before taskstats 12 sends no exe: not known */
		c->missed++;
		tool_warn("missed %d (%s): it exited before /proc could be read, and its exit "
			  "record names no exe (taskstats before version 12); the rules were "
			  "not checked for it or what it started", (int)pid, TOOL_Q(x->comm));
		return true;
	}
	memset(&p, 0, sizeof(p));
	p.pid = pid;
	memcpy(p.comm, x->comm, sizeof(x->comm));
	p.uid = x->uid;		/* real ids: the effective ones are not sent */
	p.gid = x->gid;
	snprintf(p.exe, sizeof(p.exe), "%s", record_exe(c, x));
	r = kattr_rgconf_match(c->conf, &p);
	if (r < 0) {
		if (gone && c->verbose > 1)
			vlog(c, "%d (%s): no rule matches (exit record)", (int)pid,
			     TOOL_Q(p.comm));
		c->from_records += gone;
		return true;
	}
	gi = (size_t)(kattr_rgconf_find_group(c->conf, c->conf->rules[r].group) -
		      c->conf->groups);
	if (!gone && n->grp == gi + 1)
		return true;	/* where the map has it already */
	c->from_records++;
	vlog(c, "%d (%s) exited %s: classified by its exit record", (int)pid,
	     TOOL_Q(p.comm), gone ? "before /proc was read" : "unseen (events were lost)");
	own(c, pid, p.comm, r, "exit record");
	return true;
}

/* Process pid exits, and its exec (or id or comm change) found it gone
 * from /proc: its exit record classifies it; without one, the miss is
 * counted and named. */
static void classify_gone(struct cls *c, pid_t pid)
{
	drain_exits(c);	/* its record was sent before this exit event */
	if (by_record(c, pid, true))
		return;
	c->missed++;
	tool_warn("missed %d (comm unknown): it exited before /proc could be read, "
		  "and %s; the rules were not checked for it or what it started",
		  (int)pid, c->tx ? "no exit record of it came (lost or overwritten)" :
		  c->tx_why);
}

/* The exe rules' files, to know a binary from an exit record's ids. */
static void exe_ids_init(struct cls *c)
{
	free(c->exe_ids);
	c->exe_ids = xcalloc(c->conf->nrules ? c->conf->nrules : 1, sizeof(*c->exe_ids));
	for (size_t i = 0; i < c->conf->nrules; i++) {
		struct stat st;

		if (c->conf->rules[i].exe && stat(c->conf->rules[i].exe, &st) == 0) {
			c->exe_ids[i].dev = st.st_dev;
			c->exe_ids[i].ino = st.st_ino;
		}
	}
}

/* --at-exec: what the program will be matched rule r (atexec.c). */
static void place_at_exec(void *data, const struct kattr_proc *p, int r)
{
	struct cls *c = data;
	struct pnode *n = node(c, p->pid);
	struct kattr_proc q;

	if (!n)
		return;
	if (!(n->flags & PN_LIVE)) {
		/* Started unseen (before a rescan): its parent from /proc. */
		if (kattr_proc_read_at(tool_root(), p->pid, 0, &q) < 0)
			return;
		node_new(c, p->pid, q.ppid, (uint32_t)q.starttime);
	}
	own(c, p->pid, p->comm, r, "at exec");
}

static int by_start(const void *a, const void *b)
{
	const struct kattr_proc *x = a, *y = b;

	if (x->starttime != y->starttime)
		return x->starttime < y->starttime ? -1 : 1;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* The processes of /proc, read for the rules (kernel threads left out). */
struct proc_list {
	struct cls *c;
	struct kattr_proc *v;
	size_t n, cap;
};

static int proc_list_add(pid_t pid, void *data)
{
	struct proc_list *pl = data;

	if ((size_t)pid >= pl->c->npids)
		return 0;
	if (stopping(pl->c))
		return 1;	/* the scan ends here */
	XGROW(pl->v, pl->n, pl->cap);
	if (kattr_proc_read_at(tool_root(), pid, kattr_rgconf_needs(pl->c->conf),
			       &pl->v[pl->n]) == 0 &&
	    !pl->v[pl->n].kthread)
		pl->n++;
	return 0;
}

/*
 * Bring the map up to date with ps (sorted oldest first): new processes
 * added under their parent in /proc, those gone unseen (!fresh) removed.
 * Returns how many started unseen.
 */
static size_t sync_map(struct cls *c, const struct kattr_proc *ps, size_t n,
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

		if (!(x->flags & PN_LIVE) || x->seen)
			continue;
		if (stopping(c))
			break;
		/* Its exit event is lost or still queued: what it was decides
		 * for its descendants before they are relinked to its parent. */
		if (x->flags & PN_GONE)
			classify_gone(c, (pid_t)pid);
		else if (c->tx)
			by_record(c, (pid_t)pid, false);
		node_exit(c, (pid_t)pid);
	}
	for (size_t i = 0; i < n; i++)
		node(c, ps[i].pid)->seen = 0;
	return unseen;
}

/* Each process of ps into the group the rules or its ancestors give it. */
static void place_all(struct cls *c, const struct kattr_proc *ps, size_t n,
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
	for (size_t i = 0; i < n && !stopping(c); i++) {
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
	size_t unseen = 0;
	int ret;

	if (fresh || !c->node) {
		ret = table_init(c);
		if (ret < 0)
			return ret;
	}
	clock_init(c);
	c->cut = false;
	ret = kattr_proc_foreach_at(tool_root(), 0, proc_list_add, &pl);
	if (ret < 0) {
		free(pl.v);
		return ret;
	}
	/* Parents start before their children: oldest first. */
	qsort(pl.v, pl.n, sizeof(*pl.v), by_start);
	if (!stopping(c)) {
		unseen = sync_map(c, pl.v, pl.n, fresh);
		place_all(c, pl.v, pl.n, why, fresh);
	}
	free(pl.v);
	if (c->cut)
		tool_warn("interrupted by %s during the scan (%s): %lu process%s moved, the ones "
			  "not reached yet left where they were", rgctl_sig_name(c->stop_sig), why,
			  c->moved - before, c->moved - before == 1 ? "" : "es");
	else if (fresh)
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

	if (stopping(c))
		return 0;	/* the rest of the batch is left unread */
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
		     (int32_t)(n->start - ev_ticks(c, ev->timestamp_ns)) <= START_SLACK)) {
			if (n->flags & PN_GONE)
				classify_gone(c, ev->tgid);
			node_exit(c, ev->tgid);
		}
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
	c->lost_total += lost;
	c->overflows += overflow;
	c->rescans++;
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

/* Process events: a batch; lost ones recovered now or (defer) later. */
static void procev_batch(struct cls *c, bool defer)
{
	int r = kattr_procev_recv(c->ev, BATCHES, on_event, c);
	uint64_t lost = kattr_procev_take_lost(c->ev);

	if (r < 0 && r != -ENOBUFS)
		tool_warn("cannot receive process events: %s", tool_strerror(-r));
	if (r == -ENOBUFS || lost) {
		c->lost_pending = true;
		c->lost_overflow |= r == -ENOBUFS;
		c->lost_n += lost;
	}
	if (defer || !c->lost_pending || stopping(c))
		return;
	c->lost_pending = false;
	recover(c, c->lost_n, c->lost_overflow);
	c->lost_n = 0;
	c->lost_overflow = false;
}

/* Execs wait: what forked them is read first (its fork event came
 * before), then each is answered; a rescan waits until they are. */
static void on_execs(struct cls *c)
{
	procev_batch(c, true);
	atexec_handle(c->ax);
	if (c->lost_pending)
		procev_batch(c, false);
}

/* Stop placing at exec: every waiting exec is answered. */
static void stop_at_exec(struct cls *c, const char *why)
{
	const struct atexec_stats *st;
	unsigned long n;

	if (!c->ax)
		return;
	st = atexec_stats(c->ax);
	vlog(c, "at exec: %lu events answered, %lu classified, %lu placed, %lu repeats, "
	     "%lu reads deferred, %lu named by their file", st->events, st->classified,
	     st->placed, st->repeats, st->over_budget, st->guessed);
	n = atexec_close(c->ax);
	c->ax = NULL;
	vlog(c, "%s: marks removed, %lu waiting exec%s answered", why, n, n == 1 ? "" : "s");
}

static void watch(int ep, int fd)
{
	struct epoll_event e = { .events = EPOLLIN, .data.fd = fd };

	if (fd >= 0 && epoll_ctl(ep, EPOLL_CTL_ADD, fd, &e) < 0)
		tool_die(EXIT_FAIL, "cannot watch descriptor %d (epoll): %s", fd,
			 tool_strerror(errno));
}

/* --at-exec: mark what the rules need; if that cannot be, say so (at the
 * start with =required: exit 1) and place after exec. */
static void start_at_exec(struct cls *c, bool at_start)
{
	char msg[2048];
	int r;

	if (c->at_exec == AT_EXEC_NO || !c->conf->nrules)
		return;
	r = atexec_open(c->conf, place_at_exec, c, &c->ax, msg, sizeof(msg));
	if (r < 0) {
		c->ax = NULL;
		if (at_start && c->at_exec == AT_EXEC_REQUIRED)
			tool_die(EXIT_FAIL, "cannot place processes at exec (--at-exec=required): %s",
				 msg);
		tool_warn("cannot place processes at exec: %s; placing them after exec, "
			  "from process events", msg);
		return;
	}
	tool_warn("placing processes at exec: %s", msg);
	if (c->ep >= 0)
		watch(c->ep, atexec_fd(c->ax));
}

/* Exit records (taskstats): who a process was once /proc forgot it. */
static void open_exits(struct cls *c)
{
	int r = getenv("RGCTL_NO_EXIT_RECORDS") ? -ENOTSUP :
		kattr_taskexit_open_at(tool_root(), EXIT_RCVBUF, &c->tx);

	if (r < 0) {
		c->tx = NULL;
		snprintf(c->tx_why, sizeof(c->tx_why), "taskstats exit records are unavailable (%s)",
			 r == -EPERM ? "permission denied: needs CAP_NET_ADMIN" :
			 r == -ENOENT ? "the kernel has no taskstats" :
			 r == -ENOTSUP ? "$RGCTL_NO_EXIT_RECORDS is set" : tool_strerror(-r));
		tool_warn("%s: a process that exits before /proc is read cannot be classified: "
			  "each is counted and logged", c->tx_why);
		return;
	}
	c->exits = xcalloc(EXITS, sizeof(*c->exits));
}

static void reload(struct cls *c)
{
	struct kattr_rgconf *n = NULL;
	char err[1024];
	int ret;

	rgctl_sd_notify("RELOADING=1");
	ret = kattr_rgconf_parse_file(c->file, &n, &(struct kattr_why)KATTR_WHY_BUF(err));
	if (ret == 0)
		ret = kattr_rgconf_resolve(n, &(struct kattr_why)KATTR_WHY_BUF(err));
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
	/* Waiting execs are classified by the old rules, then the marks go. */
	if (c->ax)
		on_execs(c);
	stop_at_exec(c, "reload");
	close_targets(c);
	kattr_rgconf_free(c->conf);
	c->conf = n;
	exe_ids_init(c);
	tool_warn("reloaded %zu rule%s from %s", n->nrules, n->nrules == 1 ? "" : "s",
		  c->file);
	scan(c, "reload", true);
	if (c->stop_sig)
		return;		/* stopped in the scan: no marks, not ready */
	start_at_exec(c, false);
	rgctl_sd_notify("READY=1\nSTATUS=rules reloaded");
}

/* The watchdog's timer: half the manager's interval; -1: none. */
static int watchdog_timer(void)
{
	uint64_t us = rgctl_sd_watchdog_usec() / 2;
	struct itimerspec it = { { 0, 0 }, { 0, 0 } };
	int fd;

	if (!us)
		return -1;
	fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (fd < 0)
		return -1;
	it.it_interval.tv_sec = (time_t)(us / 1000000);
	it.it_interval.tv_nsec = (long)(us % 1000000) * 1000;
	it.it_value = it.it_interval;
	timerfd_settime(fd, 0, &it, NULL);
	rgctl_sd_notify("WATCHDOG=1");
	return fd;
}

/* Signals: 1 when the daemon is to stop. */
static int on_signals(struct cls *c, int sfd)
{
	struct signalfd_siginfo si;

	while (read(sfd, &si, sizeof(si)) == sizeof(si)) {
		/* A reload with a stop queued behind it would only delay it. */
		if (si.ssi_signo == SIGHUP && !stopping(c)) {
			reload(c);
			continue;
		}
		if (si.ssi_signo == SIGHUP)
			continue;
		c->stop_sig = (int)si.ssi_signo;
		rgctl_sd_notify("STOPPING=1");
		vlog(c, "%s: unsubscribing and exiting", strsignal(c->stop_sig));
		stop_at_exec(c, strsignal(c->stop_sig));
		return 1;
	}
	return 0;
}

static int loop(struct cls *c)
{
	sigset_t set;
	int ep, sfd, wd, ret = EXIT_OK;
	uint64_t ticks;

	/* Blocked since before the start scan (block_signals()). */
	sigemptyset(&set);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	if ((sfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK)) < 0)
		tool_die(EXIT_FAIL, "cannot set up signal handling: %s", tool_strerror(errno));
	ep = epoll_create1(EPOLL_CLOEXEC);
	if (ep < 0)
		tool_die(EXIT_FAIL, "cannot create an epoll instance: %s", tool_strerror(errno));
	c->ep = ep;
	wd = watchdog_timer();
	watch(ep, sfd);
	watch(ep, kattr_procev_fd(c->ev));
	watch(ep, wd);
	watch(ep, c->tx ? kattr_taskexit_fd(c->tx) : -1);
	watch(ep, c->ax ? atexec_fd(c->ax) : -1);
	for (;;) {
		struct epoll_event got[5];
		int n = epoll_wait(ep, got, 5, atexec_timeout_ms(c->ax));

		if (n < 0 && errno != EINTR) {
			tool_warn("epoll_wait: %s", tool_strerror(errno));
			ret = EXIT_FAIL;
			break;
		}
		if (n == 0 && c->ax)
			on_execs(c);	/* execs asked again */
		for (int i = 0; i < n; i++) {
			int fd = got[i].data.fd;

			if (fd == sfd && on_signals(c, sfd))
				goto out;
			if (c->ax && fd == atexec_fd(c->ax))
				on_execs(c);
			else if (fd == kattr_procev_fd(c->ev))
				procev_batch(c, false);
			else if (c->tx && fd == kattr_taskexit_fd(c->tx))
				drain_exits(c);
			else if (fd == wd && read(wd, &ticks, sizeof(ticks)) > 0)
				rgctl_sd_notify("WATCHDOG=1");
		}
	}
out:
	stop_at_exec(c, "exiting");
	if (wd >= 0)
		close(wd);
	close(ep);
	close(sfd);
	return ret;
}

/*
 * One daemon per hierarchy: the lock file classify.MAJ-MIN.lock of
 * rgctl's run-state directory (state.c: $RGCTL_RUNDIR if set; beneath the
 * --sysroot tree if one is given; MAJ-MIN: the hierarchy's device, whatever
 * --root), taken with the library's lock (kattr_lock_file(): flock(2), the
 * holder named from /proc/locks or the pid the file holds), held for the
 * daemon's life and released by the kernel when it ends, however it ends;
 * the file holds its pid.  A second daemon exits 1 naming the first.
 * Returns the descriptor.
 */
static int take_lock(struct cls *c)
{
	char name[64], held[32] = "unknown", shown[4200];
	const char *mnt = kattr_rg_root(c->rg);
	pid_t holder;
	int dir, fd, n;

	fd = rgctl_state_name(c->rg, "classify", false, ".lock", name, sizeof(name));
	if (fd < 0)
		tool_die(EXIT_FAIL, "cannot lock the hierarchy at %s: %s", mnt,
			 tool_strerror(-fd));
	dir = rgctl_state_dir(true, shown, sizeof(shown));
	if (dir < 0)
		tool_die(EXIT_FAIL, "cannot open %s (the daemon's lock): %s", shown,
			 rgctl_state_strerror(dir));
	fd = kattr_lock_file(tool_root(), dir, name, 0, &holder);
	close(dir);
	if (fd == -EWOULDBLOCK) {
		if (holder > 0)
			snprintf(held, sizeof(held), "%d", (int)holder);
		tool_die(EXIT_FAIL, "another classify daemon (pid %s) runs on the hierarchy of %s (lock %s/%s)",
			 held, mnt, shown, name);
	}
	if (fd == -ENOLCK)
		tool_die(EXIT_FAIL, "cannot lock %s/%s: %s", shown, name, tool_strerror(-fd));
	if (fd < 0)
		tool_die(EXIT_FAIL, "cannot open the lock %s/%s: %s", shown, name,
			 fd == -EINVAL ? "not a regular file" : tool_strerror(-fd));
	n = snprintf(held, sizeof(held), "%d\n", (int)getpid());
	if (ftruncate(fd, 0) < 0 || pwrite(fd, held, (size_t)n, 0) != n)
		tool_warn("cannot write the pid to %s/%s: %s", shown, name,
			  tool_strerror(errno));
	return fd;
}

/* The options into c; FILE's index in argv. */
static int parse_opts(struct cls *c, int argc, char **argv, bool *once, long *rcvbuf)
{
	char *end;
	int opt;

	optind = 0;
	while ((opt = rgctl_getopt(&rgctl_cmd_classify, argc, argv)) != -1) {
		switch (opt) {
		case OPT_ONCE:
			*once = true;
			break;
		case 'v':
			c->verbose++;	/* -vv also logs processes no rule matches */
			break;
		case OPT_RCVBUF:
			errno = 0;
			*rcvbuf = strtol(optarg, &end, 10);
			if (errno || *end || *rcvbuf < 1 || *rcvbuf > RCVBUF_MAX)
				rgctl_cmd_usage(&rgctl_cmd_classify,
						"--rcvbuf needs a byte count from 1 to %d", RCVBUF_MAX);
			break;
		case OPT_AT_EXEC:
			if (optarg && strcmp(optarg, "required") != 0)
				rgctl_cmd_usage(&rgctl_cmd_classify,
						"--at-exec takes no value or 'required', not '%s'",
						TOOL_Q(optarg));
			c->at_exec = optarg ? AT_EXEC_REQUIRED : AT_EXEC_TRY;
			break;
		}
	}
	if (argc - optind != 1)
		rgctl_cmd_usage(&rgctl_cmd_classify, "give exactly one FILE");
	if (c->at_exec && *once)
		rgctl_cmd_usage(&rgctl_cmd_classify, "--at-exec places what starts: not with --once");
	if (c->at_exec && tool_sysroot())
		rgctl_cmd_usage(&rgctl_cmd_classify,
				"--at-exec watches this system's execs: not with --sysroot");
	return optind;
}

/*
 * SIGTERM, SIGINT and SIGHUP are blocked from the start, so none
 * ends the daemon between two writes: they are asked for between moves
 * (stopping()) and read from the loop's signalfd.  SIGTERM and SIGINT
 * stop it; with --once SIGHUP does too (the daemon reloads on it).
 */
static void block_signals(struct cls *c, bool once)
{
	sigset_t set;

	sigemptyset(&c->stop_set);
	sigaddset(&c->stop_set, SIGTERM);
	sigaddset(&c->stop_set, SIGINT);
	if (once)
		sigaddset(&c->stop_set, SIGHUP);
	set = c->stop_set;
	sigaddset(&set, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0)
		tool_die(EXIT_FAIL, "cannot set up signal handling: %s", tool_strerror(errno));
}

/*
 * The exit summary, always logged: what was moved, completed (found half
 * placed) and failed, what was missed, and what cannot be known.  "none
 * missed" only when no move failed, none was missed and no process event
 * was lost: after a loss, a process that started and ended between two
 * events read was never seen, and is not counted.
 */
static void summary(struct cls *c)
{
	char lost[256] = "", missed[96];

	if (c->rescans)
		snprintf(lost, sizeof(lost), "; not known: %llu process event%s lost (%lu overflow%s, "
			 "%lu rescan%s), a process that started and ended unseen is in no count",
			 (unsigned long long)c->lost_total, c->lost_total == 1 ? "" : "s",
			 c->overflows, c->overflows == 1 ? "" : "s", c->rescans,
			 c->rescans == 1 ? "" : "s");
	if (c->missed)
		snprintf(missed, sizeof(missed), "%lu process%s missed (each logged above)",
			 c->missed, c->missed == 1 ? "" : "es");
	else if (c->failed || c->rescans)
		snprintf(missed, sizeof(missed), "0 known missed");
	else
		snprintf(missed, sizeof(missed), "none missed");
	tool_warn("summary: %lu moved, %lu half-done move%s completed, %lu failed, %s, "
		  "%lu found by exit records%s", c->moved, c->completed,
		  c->completed == 1 ? "" : "s", c->failed, missed, c->from_records, lost);
}

/* Subscribe to process events (before the scan: nothing starts unseen). */
static void subscribe(struct cls *c, long rcvbuf)
{
	int ret = kattr_procev_open((int)rcvbuf, &c->ev);

	if (ret == -EOPNOTSUPP)
		tool_die(EXIT_FAIL, "rgctl was built without libmnl: process events are not supported");
	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot subscribe to process events (proc connector): %s",
			 ret == -EPERM ? "permission denied (needs root in the initial namespaces)"
				       : tool_strerror(-ret));
	vlog(c, "listening to process events, receive buffer %d KiB",
	     kattr_procev_rcvbuf(c->ev) / 2048);
	open_exits(c);
}

static int run_classify(struct rgctl *ctx, int argc, char **argv)
{
	struct cls *c;
	bool once = false;
	long rcvbuf = RCVBUF_DEFAULT;
	char err[1024];
	int ret, lock, file;

	c = xcalloc(1, sizeof(*c));
	c->ep = -1;
	file = parse_opts(c, argc, argv, &once, &rcvbuf);
	block_signals(c, once);
	c->ctx = ctx;
	c->file = argv[file];
	c->conf = rgctl_conf_load(ctx, c->file);
	c->rg = rgctl_rg(ctx);
	c->rcvbuf_max = RCVBUF_MAX;
	if (check_groups(c, c->conf, err, sizeof(err)) < 0)
		tool_die(EXIT_FAIL, "%s", err);
	for (size_t i = 0; i < c->conf->nrules; i++)
		rgctl_sd_check(ctx, c->conf->rules[i].group, RGCTL_SD_ATTACH);
	lock = take_lock(c);
	exe_ids_init(c);
	if (!once)
		subscribe(c, rcvbuf);
	ret = scan(c, "start", true);
	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot scan /proc: %s", tool_strerror(-ret));
	if (once && c->cut) {
		ret = 128 + c->stop_sig;	/* scan() said so */
	} else if (once) {
		ret = c->failed ? EXIT_FAIL : EXIT_OK;
	} else if (c->stop_sig) {
		rgctl_sd_notify("STOPPING=1");	/* never ready: stopped in the start scan */
		ret = EXIT_OK;
	} else {
		/* After the scan: an exec never waits for one. */
		start_at_exec(c, true);
		/* Subscribed and what ran is classified: ready. */
		rgctl_sd_notify("READY=1\nSTATUS=classifying");
		ret = loop(c);
		summary(c);
	}
	kattr_procev_close(c->ev);
	kattr_taskexit_close(c->tx);
	close_targets(c);
	kattr_rgconf_free(c->conf);
	free(c->node);
	free(c->stack);
	free(c->exits);
	free(c->exe_ids);
	free(c);
	close(lock);
	return ret;
}
