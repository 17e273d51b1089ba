// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rgctl stats GROUP --delay: per-member and summed delay accounting from
 * taskstats (generic netlink), and on cgroup v1 the cgroupstats task-state
 * counts.  Without --delay, "stats" is the plain statistics command
 * (cmd_stats.c), which this entry hands over to.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kattr/private_chan.h"
#include "kattr/taskstats.h"
#include "rgctl.h"
#include "rgctl_conf.h"
#include "rgctl_stats.h"

extern const struct rgctl_cmd rgctl_cmd_stats;
static int run_stats_delay(struct rgctl *ctx, int argc, char **argv);

/* Registered in commands.c in place of rgctl_cmd_stats, with its options
 * (cmd_stats.c) and --delay. */
const struct rgctl_cmd rgctl_cmd_stats_delay = {
	.name = "stats", .args = "GROUP...",
	.help = "Show what a group is using: CPU time, memory, I/O, tasks, pressure",
	.run = run_stats_delay,
	.opts = rgctl_stats_opts, .shortopts = "i:c:o:nrR", .opt_help = rgctl_stats_help,
	.help_more = rgctl_stats_help_more,
};

static double ms(uint64_t ns)
{
	return (double)ns / 1e6;
}

static void add(struct kattr_taskstats *sum, const struct kattr_taskstats *t)
{
	sum->cpu_count += t->cpu_count;
	sum->cpu_delay_total += t->cpu_delay_total;
	sum->blkio_count += t->blkio_count;
	sum->blkio_delay_total += t->blkio_delay_total;
	sum->swapin_count += t->swapin_count;
	sum->swapin_delay_total += t->swapin_delay_total;
	sum->freepages_count += t->freepages_count;
	sum->freepages_delay_total += t->freepages_delay_total;
	sum->thrashing_delay_total += t->thrashing_delay_total;
	sum->compact_delay_total += t->compact_delay_total;
	sum->cpu_run_real_total += t->cpu_run_real_total;
}

static void print_row(const char *who, const char *comm,
		      const struct kattr_taskstats *t)
{
	printf("%-8s %-16s %12.3f %9llu %12.3f %12.3f %12.3f %12.3f\n", who,
	       comm, ms(t->cpu_delay_total), (unsigned long long)t->cpu_count,
	       ms(t->blkio_delay_total), ms(t->swapin_delay_total),
	       ms(t->freepages_delay_total), ms(t->cpu_run_real_total));
}

static int cgroupstats(struct kattr_rg *rg, struct kattr_taskstats_sock *s,
		       const char *group, struct kattr_cgroupstats *cs)
{
	int fd, ret;

	fd = kattr_rg_group_open(rg, group, O_RDONLY);
	if (fd < 0)
		return fd;
	ret = kattr_cgroupstats_get(s, fd, cs);
	close(fd);
	return ret;
}

/* The kernel names only threads, not whole processes: /proc's comm. */
static void fill_comm(pid_t pid, struct kattr_taskstats *t)
{
	char path[64], *text = NULL;
	size_t len;

	if (t->comm[0])
		return;
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	if (kattr_root_file_read(tool_root(), path, &text, &len) == 0) {
		if (len && text[len - 1] == '\n')
			text[len - 1] = '\0';
		snprintf(t->comm, sizeof(t->comm), "%s", text);
	}
	free(text);
}

/* cgroup v1: the task-state counts of group, printed or added to o. */
static void show_cgroupstats(struct kattr_rg *rg, struct kattr_taskstats_sock *s,
			     const char *group, json_object *o)
{
	struct kattr_cgroupstats cs;
	json_object *x;
	int ret = cgroupstats(rg, s, group, &cs);

	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot read the cgroupstats of '%s': %s",
			 TOOL_Q(group), rgctl_strerror(ret));
	if (!o) {
		printf("tasks: %llu sleeping, %llu running, %llu stopped, "
		       "%llu uninterruptible, %llu waiting for I/O\n",
		       (unsigned long long)cs.nr_sleeping,
		       (unsigned long long)cs.nr_running,
		       (unsigned long long)cs.nr_stopped,
		       (unsigned long long)cs.nr_uninterruptible,
		       (unsigned long long)cs.nr_io_wait);
		return;
	}
	x = json_object_new_object();
	json_object_object_add(x, "sleeping", json_object_new_int64((int64_t)cs.nr_sleeping));
	json_object_object_add(x, "running", json_object_new_int64((int64_t)cs.nr_running));
	json_object_object_add(x, "stopped", json_object_new_int64((int64_t)cs.nr_stopped));
	json_object_object_add(x, "uninterruptible", json_object_new_int64((int64_t)cs.nr_uninterruptible));
	json_object_object_add(x, "io_wait", json_object_new_int64((int64_t)cs.nr_io_wait));
	json_object_object_add(o, "tasks", x);
}

/* Each member's row (or JSON object into arr), summed into sum; the count. */
static size_t show_members(struct kattr_taskstats_sock *s, bool rgcs,
			   const pid_t *pids, size_t n, json_object *arr,
			   struct kattr_taskstats *sum)
{
	struct kattr_taskstats t;
	size_t shown = 0;
	int ret;

	for (size_t i = 0; i < n; i++) {
		char who[16];

		ret = rgcs ? kattr_taskstats_get_pid(s, pids[i], &t)
			   : kattr_taskstats_get_tgid(s, pids[i], &t);
		if (ret == -ESRCH)
			continue;	/* exited meanwhile */
		if (ret < 0)
			tool_die(EXIT_FAIL, "cannot read the taskstats of pid %d: %s",
				 (int)pids[i], ret == -EPERM ?
				 "permission denied (needs CAP_NET_ADMIN)" : tool_strerror(-ret));
		fill_comm(pids[i], &t);
		add(sum, &t);
		shown++;
		if (arr) {
			json_object_array_add(arr, rgctl_json_taskstats(pids[i], &t));
		} else {
			char comm[4 * sizeof(t.comm) + 1];

			snprintf(who, sizeof(who), "%d", (int)pids[i]);
			tool_esc(comm, t.comm, 0);
			print_row(who, comm, &t);
		}
	}
	return shown;
}

static int delay(struct rgctl *ctx, const char *group)
{
	struct kattr_taskstats_sock *s;
	struct kattr_taskstats sum;
	json_object *o = NULL, *arr = NULL;
	struct kattr_rg *rg;
	pid_t *pids;
	size_t n, shown;
	int ret;

	rgctl_check_group(group, true);
	if (!WITH_LIBMNL)
		tool_die(EXIT_FAIL, "rgctl was built without libmnl: delay statistics are not supported");
	ret = kattr_delayacct_enabled_at(tool_root());
	if (ret == 0)
		tool_die(EXIT_FAIL, "delay accounting is off: turn it on with 'sysctl kernel.task_delayacct=1' (delays count from then on)");
	rg = rgctl_rg(ctx);
	ret = kattr_taskstats_open(&s);
	if (ret == -EOPNOTSUPP)
		tool_die(EXIT_FAIL, "rgctl was built without libmnl: delay statistics are not supported");
	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot open taskstats (generic netlink): %s",
			 ret == -ENOENT ? "no TASKSTATS family in this kernel" :
			 tool_strerror(-ret));
	/* RGCS lists tasks; on cgroups, processes (their threads summed). */
	ret = kattr_rg_members(rg, group, 0, &pids, &n);
	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot list the members of '%s': %s",
			 TOOL_Q(group), rgctl_strerror(ret));
	memset(&sum, 0, sizeof(sum));
	if (ctx->json) {
		o = json_object_new_object();
		arr = json_object_new_array();
		json_object_object_add(o, "group", tool_json_str(
					       kattr_rg_name_is_root(group) ? "/" : group));
		json_object_object_add(o, "units", json_object_new_string("ns"));
	} else {
		printf("%-8s %-16s %12s %9s %12s %12s %12s %12s\n", "PID", "COMM",
		       "CPU-DELAY", "CPU-WAITS", "BLKIO-DELAY", "SWAPIN-DELAY",
		       "RECLAIM-DEL", "CPU-TIME");
	}
	shown = show_members(s, kattr_rg_backend_of(rg) == KATTR_RG_RGCS, pids, n,
			     arr, &sum);
	free(pids);
	if (ctx->json) {
		json_object_object_add(o, "members", arr);
		json_object_object_add(o, "total", rgctl_json_taskstats(0, &sum));
	} else {
		char label[32];

		snprintf(label, sizeof(label), "%zu member%s", shown, shown == 1 ? "" : "s");
		print_row("total", label, &sum);
		printf("(milliseconds; CPU-DELAY: waiting for a CPU, BLKIO: synchronous block I/O, "
		       "SWAPIN: swapping in, RECLAIM: memory reclaim)\n");
	}
	if (kattr_rg_backend_of(rg) == KATTR_RG_CGROUP1)
		show_cgroupstats(rg, s, group, o);
	if (ctx->json)
		rgctl_json_print(o);
	kattr_taskstats_close(s);
	return EXIT_OK;
}

static int run_stats_delay(struct rgctl *ctx, int argc, char **argv)
{
	bool with_delay = false, help = false;
	int opt;

	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "hi:c:o:nrR", rgctl_stats_opts, NULL)) != -1) {
		if (opt == OPT_STATS_DELAY)
			with_delay = true;
		else if (opt == 'h')
			help = true;
	}
	if (help)
		rgctl_cmd_help(&rgctl_cmd_stats_delay);
	if (!with_delay)
		return rgctl_cmd_stats.run(ctx, argc, argv);
	optind = 0;
	while ((opt = rgctl_getopt(&rgctl_cmd_stats_delay, argc, argv)) != -1)
		if (opt != OPT_STATS_DELAY)	/* --delay: already seen */
			rgctl_cmd_usage(&rgctl_cmd_stats_delay,
					"--delay takes no other option of stats");
	if (argc - optind != 1)
		rgctl_cmd_usage(&rgctl_cmd_stats_delay, "give exactly one GROUP");
	return delay(ctx, argv[optind]);
}
