// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rgctl top's options and columns (rgctl_top.h): one table for rgctl's
 * --help and line check and for rgctl-top, which reads the line again.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "rgctl_top.h"

#define RIGHT 2		/* SCOLS_FL_RIGHT, without libsmartcols' header */

const struct rgctl_column rgctl_top_columns[TC_N] = {
	[TC_GROUP]     = { "GROUP", 0.3, 0, "The group, by its path below the root (tree order: indented in the live view)", 0 },
	[TC_TASKS]     = { "TASKS", 5, RIGHT, "Processes in the group itself (cgroup.procs; RGCS: members)", 0 },
	[TC_CPU]       = { "CPU", 6, RIGHT, "CPU time used over the interval, subgroups included, in percent of one CPU", 0 },
	[TC_WEIGHT]    = { "WEIGHT", 6, RIGHT, "cpu.weight (cgroup v1: cpu.shares, 1024 = 100; RGCS: min_shares)", 0 },
	[TC_EXPECT]    = { "EXPECT", 7, RIGHT, "The share of its siblings' CPU time its weight promises: weight over the weights of the siblings using CPU (none: of all siblings)", 0 },
	[TC_SHARE]     = { "SHARE", 6, RIGHT, "The share of its siblings' CPU time it got over the interval", 0 },
	[TC_MEM]       = { "MEM", 7, RIGHT, "memory.current (cgroup v1: memory.usage_in_bytes)", 0 },
	[TC_MEMHIGH]   = { "MEMHIGH", 7, RIGHT, "memory.high (cgroup v1 has none)", 0 },
	[TC_MEMMAX]    = { "MEMMAX", 7, RIGHT, "memory.max (cgroup v1: memory.limit_in_bytes)", 0 },
	[TC_OOM]       = { "OOMKILL", 7, RIGHT, "Tasks the OOM killer killed in the group since top started (memory.events oom_kill)", 0 },
	[TC_IOR]       = { "IOREAD", 7, RIGHT, "Bytes read per second, all devices (io.stat rbytes; v1: blkio.throttle.io_service_bytes)", 0 },
	[TC_IOW]       = { "IOWRITE", 7, RIGHT, "Bytes written per second, all devices", 0 },
	[TC_PIDS]      = { "PIDS", 5, RIGHT, "pids.current: tasks (threads), subgroups included", 0 },
	[TC_PIDSMAX]   = { "PIDSMAX", 7, RIGHT, "pids.max", 0 },
	[TC_PIDSEV]    = { "PIDSEV", 6, RIGHT, "Forks pids.max refused since top started (pids.events max)", 0 },
	[TC_THROTTLED] = { "THROTTLED", 10, RIGHT, "Time throttled by cpu.max over the interval, in percent", 0 },
	[TC_PSICPU]    = { "PSICPU", 6, RIGHT, "CPU pressure: some avg10 (percent), where the kernel has PSI", 0 },
	[TC_PSIMEM]    = { "PSIMEM", 6, RIGHT, "Memory pressure: some avg10", 0 },
	[TC_PSIIO]     = { "PSIIO", 6, RIGHT, "I/O pressure: some avg10", 0 },
};

const char *const rgctl_top_json_keys[TC_N] = {
	[TC_GROUP] = "path", [TC_TASKS] = "tasks", [TC_CPU] = "cpu_pct",
	[TC_WEIGHT] = "cpu_weight", [TC_EXPECT] = "expected_share_pct",
	[TC_SHARE] = "actual_share_pct", [TC_MEM] = "memory_current",
	[TC_MEMHIGH] = "memory_high", [TC_MEMMAX] = "memory_max",
	[TC_OOM] = "oom_kill", [TC_IOR] = "io_read_bps", [TC_IOW] = "io_write_bps",
	[TC_PIDS] = "pids_current", [TC_PIDSMAX] = "pids_max",
	[TC_PIDSEV] = "pids_events_max", [TC_THROTTLED] = "throttled_pct",
	[TC_PSICPU] = "psi_cpu_some_avg10", [TC_PSIMEM] = "psi_memory_some_avg10",
	[TC_PSIIO] = "psi_io_some_avg10",
};

const int rgctl_top_default_cols[] = {
	TC_GROUP, TC_TASKS, TC_CPU, TC_WEIGHT, TC_EXPECT, TC_SHARE, TC_MEM,
	TC_MEMHIGH, TC_MEMMAX, TC_OOM, TC_IOR, TC_IOW, TC_PIDS, TC_PIDSMAX,
	TC_PSICPU, TC_PSIMEM, TC_PSIIO,
};
const size_t rgctl_top_ndefault = sizeof(rgctl_top_default_cols) /
				  sizeof(rgctl_top_default_cols[0]);

const struct option rgctl_top_opts[] = {
	{ "batch",      no_argument,       NULL, 'b' },
	{ "iterations", required_argument, NULL, 'n' },
	{ "delay",      required_argument, NULL, 'd' },
	TOOL_LONGOPTS_OUTPUT(OPT_TOP_OUTPUT_ALL),
	{ "sort",       required_argument, NULL, 's' },
	{ "flat",       no_argument,       NULL, 'F' },
	{ NULL, 0, NULL, 0 }
};

const char *const rgctl_top_help[] = {
	"-b, --batch", "Print snapshots as text (JSON lines with --json) instead of the live view.",
	"-n, --iterations N", "Stop after N snapshots (batch: default 1; live: run until q).",
	"-d, --delay SEC", "Seconds between snapshots, 0.1 to 86400 (default 1).",
	RGCTL_HELP_OUTPUT,
	"-s, --sort KEY", "Sort by a column, or systemd-cgtop's p (path), t, c, m, i (default: path).",
	"-F, --flat", "One flat list sorted as a whole, not a tree with siblings sorted.",
	NULL
};

int rgctl_top_sort_key(const char *arg)
{
	static const struct { char letter; int col; } cgtop[] = {
		{ 'p', TC_GROUP }, { 't', TC_TASKS }, { 'c', TC_CPU },
		{ 'm', TC_MEM }, { 'i', TC_IOR },
	};

	if (arg[0] && !arg[1])
		for (size_t i = 0; i < sizeof(cgtop) / sizeof(cgtop[0]); i++)
			if (cgtop[i].letter == arg[0])
				return cgtop[i].col;
	for (int i = 0; i < TC_N; i++)
		if (strcasecmp(rgctl_top_columns[i].name, arg) == 0)
			return i;
	if (strcasecmp(arg, "path") == 0)
		return TC_GROUP;
	return -1;
}
