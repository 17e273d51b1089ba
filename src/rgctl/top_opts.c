// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rgctl top's options and columns (rgctl_top.h): one table for rgctl's
 * --help and line check and for rgctl-top, which reads the line again.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "rgctl_top.h"

const struct tool_column rgctl_top_columns[TC_N] = {
	[TC_GROUP]     = { .name = "GROUP", .whint = 0.3, .help = "The group, by its path below the root (tree order: indented in the live view)" },
	[TC_TASKS]     = { .name = "TASKS", .whint = 5, .flags = TOOL_COL_RIGHT, .help = "Processes in the group itself (cgroup.procs; RGCS: members)" },
	[TC_CPU]       = { .name = "CPU", .whint = 6, .flags = TOOL_COL_RIGHT, .help = "CPU time used over the interval, subgroups included, in percent of one CPU" },
	[TC_WEIGHT]    = { .name = "WEIGHT", .whint = 6, .flags = TOOL_COL_RIGHT, .help = "cpu.weight (cgroup v1: cpu.shares, 1024 = 100; RGCS: min_shares)" },
	[TC_EXPECT]    = { .name = "EXPECT", .whint = 7, .flags = TOOL_COL_RIGHT, .help = "The share of its siblings' CPU time its weight promises: weight over the weights of the siblings using CPU (none: of all siblings)" },
	[TC_SHARE]     = { .name = "SHARE", .whint = 6, .flags = TOOL_COL_RIGHT, .help = "The share of its siblings' CPU time it got over the interval" },
	[TC_MEM]       = { .name = "MEM", .whint = 7, .flags = TOOL_COL_RIGHT, .help = "memory.current (cgroup v1: memory.usage_in_bytes)" },
	[TC_MEMHIGH]   = { .name = "MEMHIGH", .whint = 7, .flags = TOOL_COL_RIGHT, .help = "memory.high (cgroup v1 has none)" },
	[TC_MEMMAX]    = { .name = "MEMMAX", .whint = 7, .flags = TOOL_COL_RIGHT, .help = "memory.max (cgroup v1: memory.limit_in_bytes)" },
	[TC_OOM]       = { .name = "OOMKILL", .whint = 7, .flags = TOOL_COL_RIGHT, .help = "Tasks the OOM killer killed in the group since top started (memory.events oom_kill)" },
	[TC_IOR]       = { .name = "IOREAD", .whint = 7, .flags = TOOL_COL_RIGHT, .help = "Bytes read per second, all devices (io.stat rbytes; v1: blkio.throttle.io_service_bytes)" },
	[TC_IOW]       = { .name = "IOWRITE", .whint = 7, .flags = TOOL_COL_RIGHT, .help = "Bytes written per second, all devices" },
	[TC_PIDS]      = { .name = "PIDS", .whint = 5, .flags = TOOL_COL_RIGHT, .help = "pids.current: tasks (threads), subgroups included" },
	[TC_PIDSMAX]   = { .name = "PIDSMAX", .whint = 7, .flags = TOOL_COL_RIGHT, .help = "pids.max" },
	[TC_PIDSEV]    = { .name = "PIDSEV", .whint = 6, .flags = TOOL_COL_RIGHT, .help = "Forks pids.max refused since top started (pids.events max)" },
	[TC_THROTTLED] = { .name = "THROTTLED", .whint = 10, .flags = TOOL_COL_RIGHT, .help = "Time throttled by cpu.max over the interval, in percent" },
	[TC_PSICPU]    = { .name = "PSICPU", .whint = 6, .flags = TOOL_COL_RIGHT, .help = "CPU pressure: some avg10 (percent), where the kernel has PSI" },
	[TC_PSIMEM]    = { .name = "PSIMEM", .whint = 6, .flags = TOOL_COL_RIGHT, .help = "Memory pressure: some avg10" },
	[TC_PSIIO]     = { .name = "PSIIO", .whint = 6, .flags = TOOL_COL_RIGHT, .help = "I/O pressure: some avg10" },
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
const struct tool_columns rgctl_top_table = {
	.col = rgctl_top_columns, .n = TC_N, .def = rgctl_top_default_cols,
	.ndef = sizeof(rgctl_top_default_cols) / sizeof(rgctl_top_default_cols[0]),
	.max = TC_N * 4,
	RGCTL_COLUMNS_HELP,
};

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
