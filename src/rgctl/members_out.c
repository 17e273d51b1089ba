// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rgctl members -o pid,comm,args: each member with its name and command
 * line, as systemd-cgls shows a group's processes (issue 27).  The names
 * and command lines are the tasks' own bytes: escaped in text (esc.h),
 * repaired UTF-8 in JSON.  A task gone meanwhile shows "-".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kattr/private_core.h"
#include "rgctl.h"
#include "rgctl_members.h"
#include "xalloc.h"

enum { MC_PID, MC_COMM, MC_ARGS, MC_N };
static const struct tool_column columns[MC_N] = {
	[MC_PID]  = { .name = "PID", .whint = 7, .help = "The process (thread with --threads) id" },
	[MC_COMM] = { .name = "COMM", .whint = 16, .help = "Its name (/proc/PID/comm)" },
	[MC_ARGS] = { .name = "ARGS", .whint = 0.5, .help = "Its command line, arguments separated by spaces ([COMM] for a kernel thread)" },
};
static const int default_cols[] = { MC_PID, MC_COMM, MC_ARGS };
static const struct tool_columns coltab = {
	.col = columns, .n = MC_N, .def = default_cols,
	.ndef = sizeof(default_cols) / sizeof(default_cols[0]), .max = MC_N * 4,
	RGCTL_COLUMNS_HELP,
};

void rgctl_members_columns_help(void)
{
	printf("\nAvailable output columns (-o; default without -o: the ids alone):\n");
	rgctl_columns_help(&coltab);
}

/* /proc/PID/FILE whole, NULs as spaces, the last newline or NUL dropped;
 * NULL when the task is gone. */
static char *proc_text(pid_t pid, const char *file)
{
	char path[64], *text = NULL;
	size_t len = 0;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, file);
	if (kattr_root_file_read(tool_root(), path, &text, &len) < 0) {
		free(text);
		return NULL;
	}
	while (len && (text[len - 1] == '\0' || text[len - 1] == '\n'))
		text[--len] = '\0';
	for (size_t i = 0; i < len; i++)
		if (!text[i])
			text[i] = ' ';
	return text;
}

static char *cell(pid_t pid, int col)
{
	char *s, *comm;

	switch (col) {
	case MC_PID:
		if (asprintf(&s, "%d", (int)pid) < 0)
			xalloc_die();
		return s;
	case MC_COMM:
		return proc_text(pid, "comm");
	default:
		s = proc_text(pid, "cmdline");
		if (s && *s)
			return s;
		free(s);
		comm = proc_text(pid, "comm");
		if (!comm)
			return NULL;
		if (asprintf(&s, "[%s]", comm) < 0)
			xalloc_die();
		free(comm);
		return s;
	}
}

/* A cell of the text table: escaped, padded unless it ends the line. */
static void put_cell(const char *c, int col, bool last, unsigned int esc)
{
	size_t w = tool_esc_width(c, esc), want = col == MC_PID ? 7 : 16;

	if (col == MC_PID && !last)
		for (; w < want; w++)
			putchar(' ');
	tool_fputs_esc(c, stdout, esc);
	if (col != MC_PID && !last)
		for (; w < want; w++)
			putchar(' ');
	putchar(last ? '\n' : ' ');
}

void rgctl_members_table(const struct rgctl_cmd *cmd, const char *list,
			 const char *group, bool tasks, bool json,
			 const pid_t *pids, size_t n)
{
	unsigned int esc = tool_esc_locale();
	json_object *o = NULL, *a = NULL;
	int cols[MC_N * 4];
	size_t ncols;

	rgctl_columns_parse(cmd, &coltab, list, cols, &ncols);
	if (json) {
		o = json_object_new_object();
		a = json_object_new_array();
		json_object_object_add(o, "group", tool_json_str(group));
		json_object_object_add(o, "lists", tool_json_str(tasks ? "threads" : "processes"));
	}
	for (size_t k = 0; k < ncols && !json; k++)
		printf(k + 1 < ncols ? (cols[k] == MC_PID ? "%7s " : "%-16s ") : "%s\n",
		       columns[cols[k]].name);
	for (size_t i = 0; i < n; i++) {
		json_object *row = json ? json_object_new_object() : NULL;

		for (size_t k = 0; k < ncols; k++) {
			char *c = cell(pids[i], cols[k]);

			if (json && cols[k] == MC_PID)
				json_object_object_add(row, "pid", json_object_new_int(pids[i]));
			else if (json)
				json_object_object_add(row, cols[k] == MC_COMM ? "comm" : "args",
						       c ? tool_json_str(c) : NULL);
			else
				put_cell(c ? c : "-", cols[k], k + 1 == ncols, esc);
			free(c);
		}
		if (json)
			json_object_array_add(a, row);
	}
	if (json) {
		json_object_object_add(o, "members", a);
		rgctl_json_print(o);
	}
}
