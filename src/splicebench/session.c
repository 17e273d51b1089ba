// SPDX-License-Identifier: GPL-2.0-or-later
/* splicebench's session around the measurement (run.c): the CPUs and the
 * pipe size checked, every point run, SIGINT, what the report adds. */
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "kattr/kattr.h"
#include "sb.h"
#include "parse.h"
#include "run.h"
#include "session.h"
#include "tool.h"
#include "xalloc.h"

/*
 * --quick without --pin: both sides on one CPU, the first this process
 * may use.  Cross-CPU wakeups are what varies most from run to run
 * (and on a VM, from invocation to invocation); one CPU measures the
 * pipe, not the scheduler.  A busy loop needs a CPU for each side: the
 * first two, or none pinned when there is only one.
 */
void sb_quick_pin(struct sb_config *cfg)
{
	int want = cfg->busy ? 2 : 1, got = 0, cpus[2], cpu;
	cpu_set_t set;

	if (!cfg->quick || cfg->pin_producer >= 0 ||
	    sched_getaffinity(0, sizeof(set), &set) < 0)
		return;
	for (cpu = 0; cpu < CPU_SETSIZE && got < want; cpu++)
		if (CPU_ISSET(cpu, &set))
			cpus[got++] = cpu;
	if (got == want) {
		cfg->pin_producer = cpus[0];
		cfg->pin_consumer = cpus[want - 1];
		/* said where it is read, not only in the report's header */
		if (want == 1)
			fprintf(stderr, "splicebench: --quick: producer and consumer both pinned to CPU %d "
				"(one CPU measures the pipe, not the scheduler; --pin P,C to choose)\n",
				cpus[0]);
		else
			fprintf(stderr, "splicebench: --quick --busy: producer pinned to CPU %d, consumer to CPU %d "
				"(--pin P,C to choose)\n", cpus[0], cpus[1]);
	}
}

/* Refuse a --pin CPU this process may not run on (before measuring). */
void sb_check_pin(const struct sb_config *cfg)
{
	const int cpus[2] = { cfg->pin_producer, cfg->pin_consumer };
	const char *who[2] = { "producer", "consumer" };
	cpu_set_t set;
	int i;

	if (cfg->pin_producer < 0)
		return;
	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		tool_die(EXIT_FAIL, "cannot read this process's CPU set: %s",
			 tool_strerror(errno));
	for (i = 0; i < 2; i++) {
		if (cpus[i] >= CPU_SETSIZE || !CPU_ISSET(cpus[i], &set))
			tool_die(EXIT_FAIL,
				 "cannot pin the %s to CPU %d: not among the %d CPUs this process may run on",
				 who[i], cpus[i], CPU_COUNT(&set));
	}
}

/*
 * Ask for the pipe size once, up front, so a refusal is told once; the
 * points then run with the size the kernel gives.
 */
void sb_check_pipe_size(struct sb_config *cfg, const struct kattr_sysfacts *f,
			int *def)
{
	uint64_t got = 0;
	char a[32], b[32];
	int fds[2], ret;

	if (pipe2(fds, O_CLOEXEC) < 0)
		tool_die(EXIT_FAIL, "cannot create a pipe: %s", tool_strerror(errno));
	*def = fcntl(fds[1], F_GETPIPE_SZ);
	if (!cfg->pipe_size)
		goto out;
	ret = sb_pipe_set_size(fds[1], cfg->pipe_size, &got);
	sb_format_size(cfg->pipe_size, a, sizeof(a));
	if (ret == -EPERM && f->pipe_max_size && cfg->pipe_size > f->pipe_max_size)
		tool_warn("cannot set the pipe size to %s: above /proc/sys/fs/pipe-max-size (%s) and this process lacks CAP_SYS_RESOURCE; running with the default pipe size (%s)",
			  a, sb_format_size(f->pipe_max_size, b, sizeof(b)),
			  sb_format_size((uint64_t)*def, b + 16, sizeof(b) - 16));
	else if (ret == -EPERM)
		tool_warn("cannot set the pipe size to %s: this user's pipes already use more than /proc/sys/fs/pipe-user-pages-soft or -hard allows; running with the default pipe size (%s)",
			  a, sb_format_size((uint64_t)*def, b, sizeof(b)));
	else if (ret < 0)
		tool_warn("cannot set the pipe size to %s: %s; running with the default pipe size (%s)",
			  a, tool_strerror(-ret), sb_format_size((uint64_t)*def, b, sizeof(b)));
	if (ret < 0)
		cfg->pipe_size = 0;
out:
	close(fds[0]);
	close(fds[1]);
}

int sb_run_all(struct sb_report *rep, struct sb_config *cfg)
{
	int m, i, failed = 0, ret;
	char a[32];

	for (m = 0; m < SB_NMODES; m++) {
		int probe = 0;

		if (!(cfg->modes & (1u << m)))
			continue;
		if (m != SB_COPY) {
			probe = sb_probe_vmsplice(m == SB_GIFT ? SPLICE_F_GIFT : 0);
			if (probe < 0)
				tool_warn("%s: vmsplice%s is not usable on this system: %s; the other modes still run",
					  sb_mode_name(m),
					  m == SB_GIFT ? " with SPLICE_F_GIFT" : "",
					  tool_strerror(-probe));
		}
		for (i = 0; i < cfg->nsizes; i++) {
			struct sb_result *r = &rep->res[rep->nres++];

			memset(r, 0, sizeof(*r));
			r->mode = m;
			r->size = cfg->sizes[i];
			if (probe < 0) {
				r->failed = r->unsupported = true;
				snprintf(r->why, sizeof(r->why), "vmsplice: %s",
					 tool_strerror(-probe));
				failed++;
			}
		}
	}
	ret = sb_run_points(cfg, rep->res, rep->nres);
	for (i = 0; i < rep->nres; i++) {
		const struct sb_result *r = &rep->res[i];

		if (r->failed && !r->unsupported && !r->interrupted)
			tool_warn("%s %s: %s", sb_mode_name(r->mode),
				  sb_format_size(r->size, a, sizeof(a)), r->why);
	}
	if (sb_stop) {
		int done = 0;

		rep->interrupted = true;
		for (i = 0; i < rep->nres; i++)
			done += !rep->res[i].failed;
		tool_warn("interrupted: %d of %d points measured, over the runs finished before SIGINT (the runs column says how many)",
			  done, rep->nres);
	}
	return failed + ret;
}

/* SIGINT: finish the run in progress, then report what was measured.  A
 * second SIGINT ends at once (SA_RESETHAND). */
static void on_sigint(int sig)
{
	(void)sig;
	sb_stop = 1;
}

void sb_catch_sigint(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint;
	sa.sa_flags = SA_RESETHAND | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
}

/* --plot FILE: refuse a target that is not a regular file before measuring. */
void sb_check_plot_target(const char *path)
{
	struct stat st;

	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
		tool_die(EXIT_FAIL, "refusing --plot %s: it is %s, not a regular file",
			 path, tool_file_kind(path));
}

/* One message for every point that asked for huge pages and got none. */
void sb_report_huge(const struct sb_report *rep)
{
	char list[512] = "", a[32];
	bool refused = false;
	size_t len = 0;
	int i, n = 0;

	for (i = 0; i < rep->nres; i++) {
		const struct sb_result *r = &rep->res[i];

		if (r->failed || !r->huge_requested || r->huge)
			continue;
		n++;
		refused |= r->huge_refused;
		if (len < sizeof(list) - 64)
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s %s",
						n > 1 ? ", " : "", sb_mode_name(r->mode),
						sb_format_size(r->size, a, sizeof(a)));
	}
	if (!n)
		return;
	if (refused || !rep->facts.thp_mode[0])
		tool_warn("huge pages were not obtained (%s): transparent huge pages are missing from this kernel (%s); those points ran on small pages",
			  list, !rep->facts.thp_mode[0] ?
			  (refused ? "no /sys/kernel/mm/transparent_hugepage, and madvise(MADV_HUGEPAGE) fails with EINVAL" :
			   "no /sys/kernel/mm/transparent_hugepage") :
			  "madvise(MADV_HUGEPAGE) fails with EINVAL");
	else if (strcmp(rep->facts.thp_mode, "never") == 0)
		tool_warn("huge pages were not obtained (%s): transparent huge pages are disabled ('never' in /sys/kernel/mm/transparent_hugepage/enabled); those points ran on small pages",
			  list);
	else
		tool_warn("huge pages were not obtained for %s (AnonHugePages in /proc/self/smaps; THP '%s', memory may be fragmented); those points ran on small pages",
			  list, rep->facts.thp_mode[0] ? rep->facts.thp_mode : "unknown");
}

/* Tell about corrupted data; true if any. */
bool sb_report_corruption(const struct sb_report *rep)
{
	bool any = false;
	char a[32];
	int i;

	for (i = 0; i < rep->nres; i++) {
		const struct sb_result *r = &rep->res[i];

		if (!r->corrupt)
			continue;
		any = true;
		tool_warn("verify: %s %s: %llu of %llu chunks corrupted (first: chunk %llu %s%llu)%s",
			  sb_mode_name(r->mode), sb_format_size(r->size, a, sizeof(a)),
			  (unsigned long long)r->corrupt, (unsigned long long)r->chunks,
			  (unsigned long long)r->first_bad_chunk,
			  r->first_bad == SB_CHUNK_BAD_SEQ ? "held the data of chunk " :
			  "was damaged, sequence ",
			  (unsigned long long)r->first_bad_seq,
			  rep->cfg->unsafe_reuse && r->mode != SB_COPY ?
			  ": the producer rewrote pages the pipe still referenced" : "");
	}
	return any;
}
