// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rgctl classify FILE [--once] [-v]: the rules daemon.
 *
 * It subscribes to the proc connector first, then classifies every
 * running process, then follows exec, uid, gid and comm changes and
 * forks.  Nothing is missed:
 *  - events are numbered per CPU; a gap or an overflowed socket (ENOBUFS)
 *    makes it grow the receive buffer and scan /proc again;
 *  - the fork race: a child forked just before its parent was moved is
 *    created in the old group.  A fork of a classified parent makes the
 *    child follow it (unless the child has been classified by a rule of
 *    its own), and forks seen before their parent was classified are kept
 *    in a ring: when the parent is classified, its children forked after
 *    the event that classified it follow it too (this catches a
 *    grandchild whose fork event arrives before its parent's).
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
#include <sys/signalfd.h>
#include <time.h>
#include <unistd.h>

#include "kattr/procev.h"
#include "kattr/rgconf.h"
#include "rgctl.h"
#include "rgctl_rgd.h"

static int run_classify(struct rgctl *ctx, int argc, char **argv);

const struct rgctl_cmd rgctl_cmd_classify = {
	.name = "classify", .args = "FILE [--once] [-v] [--rcvbuf BYTES]",
	.help = "move processes into groups by the rules of FILE, as they start",
	.run = run_classify,
};

#define RING_SIZE	4096		/* recent forks of unclassified parents */
#define RCVBUF_DEFAULT	(4 << 20)
#define RCVBUF_MAX	(256 << 20)
#define BATCHES		64		/* datagrams per wakeup before signals */

struct fork_ent {
	pid_t child, parent;
	uint64_t ts;
};

struct cls {
	struct rgctl *ctx;
	struct kattr_rg *rg;
	struct kattr_rgconf *conf;
	const char *file;
	int verbose;
	/* per process (tgid): 1 + index of its group in conf->groups */
	uint16_t *grp;
	size_t npids;
	struct fork_ent ring[RING_SIZE];
	size_t ring_next;
	struct kattr_procev_sock *ev;
	int rcvbuf_max;
	uint64_t last_ev_ts;	/* CLOCK_MONOTONIC ns of the last event seen */
	int *procs_fd;		/* per group: its cgroup.procs, open (cgroups) */
	size_t nfds;
	unsigned long moved, failed;
};

/* A process the rules did not match, for the rescan's second pass. */
struct unmatched {
	pid_t pid, ppid;
	uint64_t start;		/* clock ticks after boot */
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

/* ---- the per-pid table --------------------------------------------------- */

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
	free(c->grp);
	c->npids = (size_t)max + 1;
	c->grp = calloc(c->npids, sizeof(*c->grp));
	return c->grp ? 0 : -ENOMEM;
}

static unsigned int grp_get(const struct cls *c, pid_t pid)
{
	return pid > 0 && (size_t)pid < c->npids ? c->grp[pid] : 0;
}

static void grp_set(struct cls *c, pid_t pid, unsigned int g)
{
	if (pid > 0 && (size_t)pid < c->npids)
		c->grp[pid] = (uint16_t)g;
}

/* ---- moving ------------------------------------------------------------------ */

static void close_fds(struct cls *c)
{
	for (size_t i = 0; i < c->nfds; i++)
		if (c->procs_fd[i] >= 0)
			close(c->procs_fd[i]);
	free(c->procs_fd);
	c->procs_fd = NULL;
	c->nfds = 0;
}

/*
 * Move the whole process pid into group gi.  On cgroups the group's
 * cgroup.procs stays open (resolved beneath the mount once), so a move is
 * one write(2); RGCS goes through kattr_rg_attach() (one write per task).
 */
static int attach(struct cls *c, pid_t pid, size_t gi)
{
	const char *group = c->conf->groups[gi].name;
	char path[4200], num[16];
	int res = 0, ret, n;

	if (kattr_rg_backend_of(c->rg) == KATTR_RG_RGCS) {
		ret = kattr_rg_attach(c->rg, group, &pid, 1, KATTR_RG_THREADS, &res);
		return ret == 1 ? res : ret;
	}
	if (c->nfds != c->conf->ngroups) {
		close_fds(c);
		c->procs_fd = malloc(c->conf->ngroups * sizeof(*c->procs_fd) + 1);
		if (!c->procs_fd)
			return -ENOMEM;
		c->nfds = c->conf->ngroups;
		for (size_t i = 0; i < c->nfds; i++)
			c->procs_fd[i] = -1;
	}
	if (c->procs_fd[gi] < 0) {
		snprintf(path, sizeof(path), "%s/cgroup.procs", group);
		ret = kattr_open(kattr_rg_mount(c->rg), path, O_WRONLY);
		if (ret < 0)
			return ret;
		c->procs_fd[gi] = ret;
	}
	n = snprintf(num, sizeof(num), "%d", (int)pid);
	if (write(c->procs_fd[gi], num, (size_t)n) != n) {
		ret = -errno;
		if (ret != -ESRCH) {	/* the group may be gone: reopen next time */
			close(c->procs_fd[gi]);
			c->procs_fd[gi] = -1;
		}
		return ret;
	}
	return 0;
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
		vlog(c, "%d (%s) is in '%s' already: %s", (int)pid, rgctl_q(comm),
		     rgctl_q(group), why);
		return 0;
	}
	free(cur);
	if (ret == -ESRCH)
		return ret;
	ret = attach(c, pid, gi);
	if (ret == -ESRCH) {
		vlog(c, "%d (%s) exited before it could be moved", (int)pid,
		     rgctl_q(comm));
		return ret;
	}
	if (ret < 0) {
		c->failed++;
		tool_warn("cannot move pid %d (%s) to '%s': %s", (int)pid,
			  rgctl_q(comm), rgctl_q(group), rgctl_strerror(ret));
		return ret;
	}
	c->moved++;
	tool_warn("moved %d (%s) to '%s': %s", (int)pid, rgctl_q(comm),
		  rgctl_q(group), why);
	return 1;
}

static void follow_children(struct cls *c, pid_t parent, size_t gi,
			    uint64_t since, int depth);

/* A child that follows its classified parent. */
static void inherit(struct cls *c, pid_t child, pid_t parent, size_t gi,
		    uint64_t fork_ts, int depth)
{
	char why[64];
	char comm[17] = "?";
	char path[64], *text = NULL;
	size_t len;

	if (grp_get(c, child))
		return;		/* classified by a rule of its own already */
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)child);
	if (kattr_file_read(path, &text, &len) == 0) {
		if (len && text[len - 1] == '\n')
			text[len - 1] = '\0';
		snprintf(comm, sizeof(comm), "%s", text);
	}
	free(text);
	snprintf(why, sizeof(why), "child of %d (fork)", (int)parent);
	if (move(c, child, comm, gi, why) == -ESRCH)
		return;
	grp_set(c, child, (unsigned)gi + 1);
	follow_children(c, child, gi, fork_ts, depth + 1);
}

/* Forks of parent seen before it was classified, made at or after since. */
static void follow_children(struct cls *c, pid_t parent, size_t gi,
			    uint64_t since, int depth)
{
	if (depth > 16)
		return;
	for (size_t i = 0; i < RING_SIZE; i++) {
		struct fork_ent *f = &c->ring[i];

		if (f->parent != parent || f->ts < since || !f->child)
			continue;
		pid_t child = f->child;
		uint64_t ts = f->ts;

		f->child = 0;
		inherit(c, child, parent, gi, ts, depth);
	}
}

/*
 * Classify process pid by the rules; ts is the time of the event that
 * asked for it (children forked since then follow it), 0 for a scan.
 * When no rule matches and um is given, it gets the process's parent
 * and start time; returns whether a rule matched.
 */
static bool classify(struct cls *c, pid_t pid, const char *reason, uint64_t ts,
		     struct unmatched *um)
{
	struct kattr_rgproc p;
	const struct kattr_rgconf_group *g;
	char why[96];
	size_t gi;
	int r;

	if (kattr_rgproc_read(pid, kattr_rgconf_needs(c->conf), &p) < 0)
		return true;	/* gone: nothing to do */
	r = kattr_rgconf_match(c->conf, &p);
	if (r < 0) {
		if (c->verbose > 1)
			vlog(c, "%d (%s): no rule matches (%s)", (int)pid,
			     rgctl_q(p.comm), reason);
		if (um && !p.kthread) {
			um->pid = pid;
			um->ppid = p.ppid;
			um->start = p.starttime;
		}
		return p.kthread;
	}
	g = kattr_rgconf_find_group(c->conf, c->conf->rules[r].group);
	gi = (size_t)(g - c->conf->groups);
	snprintf(why, sizeof(why), "rule %d (%s:%u, %s)", r + 1,
		 c->file, c->conf->rules[r].line, reason);
	if (move(c, pid, p.comm, gi, why) == -ESRCH)
		return true;
	grp_set(c, pid, (unsigned)gi + 1);
	if (ts)
		follow_children(c, pid, gi, ts, 0);
	return true;
}

static int by_start(const void *a, const void *b)
{
	const struct unmatched *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/*
 * Classify every process in /proc; forget what was known before.  When
 * events were lost, since (clock ticks after boot, else UINT64_MAX) is
 * when they may have started to be: a process started since then that
 * no rule matches follows a classified parent, as its fork event would
 * have made it do.
 */
static int scan(struct cls *c, const char *why, uint64_t since)
{
	char path[4096];
	struct dirent *d;
	struct unmatched *um = NULL;
	size_t n = 0, nu = 0, cap = 0;
	unsigned long before = c->moved;
	DIR *dir;
	int ret;

	ret = kattr_sysroot_path("/proc", path, sizeof(path));
	if (ret < 0)
		return ret;
	dir = opendir(path);
	if (!dir)
		return -errno;
	/* A fresh table: calloc'ed pages, nothing touched. */
	ret = table_init(c);
	if (ret < 0) {
		closedir(dir);
		return ret;
	}
	memset(c->ring, 0, sizeof(c->ring));
	while ((d = readdir(dir))) {
		struct unmatched u = { 0 };
		char *end;
		long pid = strtol(d->d_name, &end, 10);

		if (*end || pid <= 0 || d->d_name[0] == '0')
			continue;
		n++;
		if (classify(c, (pid_t)pid, why, 0, &u) || since == UINT64_MAX ||
		    u.start < since)
			continue;
		if (nu == cap) {
			struct unmatched *t;

			cap = cap ? cap * 2 : 256;
			t = realloc(um, cap * sizeof(*um));
			if (!t)
				break;
			um = t;
		}
		um[nu++] = u;
	}
	closedir(dir);
	/* Parents start before their children: oldest first. */
	if (nu)
		qsort(um, nu, sizeof(*um), by_start);
	for (size_t i = 0; i < nu; i++) {
		unsigned int g = grp_get(c, um[i].ppid);

		if (g)
			inherit(c, um[i].pid, um[i].ppid, g - 1, 0, 0);
	}
	free(um);
	vlog(c, "scan (%s): %zu processes, %lu moved", why, n, c->moved - before);
	return 0;
}

/* The time events may have been lost from, in clock ticks after boot. */
static uint64_t lost_since(const struct cls *c)
{
	struct timespec mono, boot;
	long hz = sysconf(_SC_CLK_TCK);
	int64_t off, t;

	if (hz <= 0)
		hz = 100;
	clock_gettime(CLOCK_MONOTONIC, &mono);
	clock_gettime(CLOCK_BOOTTIME, &boot);
	off = (int64_t)(boot.tv_sec - mono.tv_sec) * 1000000000LL +
	      (boot.tv_nsec - mono.tv_nsec);
	/* A second before the last event seen: the kernel's order across
	 * CPUs is not exact, and start times are in ticks. */
	t = (int64_t)c->last_ev_ts + off - 1000000000LL;
	if (!c->last_ev_ts || t < 0)
		return 0;
	return (uint64_t)t / (uint64_t)(1000000000LL / hz);
}

/* ---- events ---------------------------------------------------------- */

static int on_event(const struct kattr_procev *ev, void *data)
{
	struct cls *c = data;
	unsigned int g;

	if (ev->timestamp_ns)
		c->last_ev_ts = ev->timestamp_ns;
	switch (ev->type) {
	case KATTR_PROCEV_NONE:
		if (ev->ack_err)
			tool_warn("the proc connector refused the subscription: %s",
				  strerror((int)ev->ack_err));
		break;
	case KATTR_PROCEV_FORK:
		if (ev->pid != ev->tgid)
			break;	/* a thread: cgroup.procs moves whole processes */
		g = grp_get(c, ev->parent_tgid);
		if (g) {
			inherit(c, ev->tgid, ev->parent_tgid, g - 1, ev->timestamp_ns, 0);
		} else {
			struct fork_ent *f = &c->ring[c->ring_next++ % RING_SIZE];

			f->child = ev->tgid;
			f->parent = ev->parent_tgid;
			f->ts = ev->timestamp_ns;
		}
		break;
	case KATTR_PROCEV_EXEC:
		classify(c, ev->tgid, "exec", ev->timestamp_ns, NULL);
		break;
	case KATTR_PROCEV_UID:
		classify(c, ev->tgid, "uid change", ev->timestamp_ns, NULL);
		break;
	case KATTR_PROCEV_GID:
		classify(c, ev->tgid, "gid change", ev->timestamp_ns, NULL);
		break;
	case KATTR_PROCEV_COMM:
		if (ev->pid == ev->tgid)
			classify(c, ev->tgid, "comm change", ev->timestamp_ns, NULL);
		break;
	case KATTR_PROCEV_EXIT:
		if (ev->pid == ev->tgid)
			grp_set(c, ev->tgid, 0);
		break;
	default:
		break;
	}
	return 0;
}

/* After lost events: a bigger buffer, then look at everything again. */
static void recover(struct cls *c, uint64_t lost, bool overflow)
{
	int before = kattr_procev_rcvbuf(c->ev) / 2, after, r;

	r = kattr_procev_grow(c->ev, c->rcvbuf_max);
	after = kattr_procev_rcvbuf(c->ev) / 2;
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
	scan(c, "after lost events", lost_since(c));
}

/* Check that every rule's group exists; err gets why not. */
static int check_groups(struct cls *c, const struct kattr_rgconf *conf,
			char *err, size_t errsz)
{
	for (size_t i = 0; i < conf->nrules; i++) {
		int ret = kattr_rg_exists(c->rg, conf->rules[i].group);

		if (ret < 0) {
			snprintf(err, errsz, "%s:%u: rules[%zu].group: '%s': %s%s",
				 conf->file, conf->rules[i].line, i + 1,
				 rgctl_q(conf->rules[i].group), rgctl_strerror(ret),
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
		return;
	}
	close_fds(c);
	kattr_rgconf_free(c->conf);
	c->conf = n;
	tool_warn("reloaded %zu rule%s from %s", n->nrules, n->nrules == 1 ? "" : "s",
		  c->file);
	scan(c, "reload", UINT64_MAX);
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
		tool_die(EXIT_FAIL, "cannot set up signal handling: %s", strerror(errno));
	ep = epoll_create1(EPOLL_CLOEXEC);
	if (ep < 0)
		tool_die(EXIT_FAIL, "cannot create an epoll instance: %s", strerror(errno));
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
			tool_warn("epoll_wait: %s", strerror(errno));
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
					goto out;
				}
				continue;
			}
			int r = kattr_procev_recv(c->ev, BATCHES, on_event, c);
			uint64_t lost = kattr_procev_take_lost(c->ev);

			if (r == -ENOBUFS)
				recover(c, lost, true);
			else if (r < 0)
				tool_warn("cannot receive process events: %s", strerror(-r));
			else if (lost)
				recover(c, lost, false);
		}
	}
out:
	close(ep);
	close(sfd);
	return ret;
}

static int run_classify(struct rgctl *ctx, int argc, char **argv)
{
	enum { OPT_ONCE = OPT_CMD_FIRST + 4, OPT_RCVBUF };
	static const struct option longopts[] = {
		{ "once",    no_argument,       NULL, OPT_ONCE },
		{ "verbose", no_argument,       NULL, 'v' },
		{ "rcvbuf",  required_argument, NULL, OPT_RCVBUF },
		{ "help",    no_argument,       NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct cls *c;
	bool once = false;
	int verbose = 0;
	long rcvbuf = RCVBUF_DEFAULT;
	char err[1024], *end;
	int opt, ret;

	optind = 0;
	while ((opt = getopt_long(argc, argv, "vh", longopts, NULL)) != -1) {
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
		case 'h':
			rgctl_cmd_help(&rgctl_cmd_classify);
		default:
			rgctl_bad_option(&rgctl_cmd_classify, argv);
		}
	}
	rgctl_restore_args(argc, argv);
	if (argc - optind != 1)
		rgctl_cmd_usage(&rgctl_cmd_classify, "give exactly one FILE");
	c = calloc(1, sizeof(*c));
	if (!c)
		tool_die(EXIT_FAIL, "out of memory");
	c->verbose = verbose;
	c->ctx = ctx;
	c->file = argv[argc - 1];
	c->conf = rgctl_rgd_load(ctx, c->file);
	c->rg = rgctl_rg(ctx);
	c->rcvbuf_max = RCVBUF_MAX;
	if (check_groups(c, c->conf, err, sizeof(err)) < 0)
		tool_die(EXIT_FAIL, "%s", err);
	if (!once) {
		/* Subscribe before the scan, so nothing starts unseen. */
		ret = kattr_procev_open((int)rcvbuf, &c->ev);
		if (ret == -EOPNOTSUPP)
			tool_die(EXIT_FAIL, "rgctl was built without libmnl: process events are not supported");
		if (ret < 0)
			tool_die(EXIT_FAIL, "cannot subscribe to process events (proc connector): %s",
				 ret == -EPERM ? "permission denied (needs root in the initial namespaces)"
					       : strerror(-ret));
		vlog(c, "listening to process events, receive buffer %d KiB",
		     kattr_procev_rcvbuf(c->ev) / 2048);
	}
	ret = scan(c, "start", UINT64_MAX);
	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot scan /proc: %s", strerror(-ret));
	if (once)
		ret = c->failed ? EXIT_FAIL : EXIT_OK;
	else
		ret = loop(c);
	kattr_procev_close(c->ev);
	close_fds(c);
	kattr_rgconf_free(c->conf);
	free(c->grp);
	free(c);
	return ret;
}
