// SPDX-License-Identifier: GPL-2.0-or-later
/* likelytop --callers --uprobe: the uprobe event (callers_uprobe.h). */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <kattr/kattr.h>

#include "callers_uprobe.h"

/* Append one command to uprobe_events (never truncated: that would
 * remove every uprobe on the system). */
static int command(struct lt_trace *t, const char *line)
{
	int fd = kattr_open(t->m, "uprobe_events", O_WRONLY | O_APPEND);
	size_t len = strlen(line);
	ssize_t n;

	if (fd < 0)
		return fd;
	n = write(fd, line, len);
	if (n < 0)
		n = -errno;
	close(fd);
	return n < 0 ? (int)n : (size_t)n == len ? 0 : -EIO;
}

unsigned int lt_uprobe_sweep(struct lt_trace *t)
{
	char *text, *line, *save = NULL, inst[96], cmd[192];
	unsigned int removed = 0;
	long pid;
	int fd;

	if (kattr_read_alloc(t->m, "uprobe_events", &text, NULL) < 0)
		return 0;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char group[32], event[80];

		/* "p:likelytop_123/fn /path:0x..." */
		if (sscanf(line, "%*c:" LT_UPROBE_GROUP "%ld/%79[A-Za-z0-9_] ", &pid, event) != 2 ||
		    pid <= 0 || pid == (long)getpid())
			continue;
		snprintf(inst, sizeof(inst), "instances/" LT_INSTANCE_PREFIX "%ld", pid);
		fd = kattr_open(t->m, inst, O_RDONLY | O_DIRECTORY);
		if (fd >= 0) {
			close(fd);	/* a live run's */
			continue;
		}
		snprintf(group, sizeof(group), LT_UPROBE_GROUP "%ld", pid);
		snprintf(cmd, sizeof(cmd), "-:%s/%s\n", group, event);
		if (command(t, cmd) == 0)
			removed++;
	}
	free(text);
	return removed;
}

static const char *const regs[] = { "di", "si", "dx", "cx", "r8", "r9" };

int lt_uprobe_make(struct lt_uprobe *u, struct lt_trace *t, const char *path,
		   uint64_t off, const char *fn, int argno, int bits, bool sign,
		   char *why, size_t whysize)
{
	char cmd[4352], arg[64] = "";
	size_t i;
	int ret;

	memset(u, 0, sizeof(*u));
	u->t = t;
	snprintf(u->group, sizeof(u->group), LT_UPROBE_GROUP "%d", (int)getpid());
	for (i = 0; fn[i] && i + 1 < sizeof(u->event); i++)
		u->event[i] = isalnum((unsigned char)fn[i]) ? fn[i] : '_';
	u->event[i] = '\0';
	if (isdigit((unsigned char)u->event[0]))
		u->event[0] = '_';
	if (strpbrk(path, " \t\n")) {
		snprintf(why, whysize, "%.300s: a path with a blank cannot be given to uprobe_events", path);
		return -EINVAL;
	}
	if (argno >= 1 && argno <= 6)
		snprintf(arg, sizeof(arg), " arg=%%%s:%c%d", regs[argno - 1],
			 sign ? 's' : 'u', bits);
	snprintf(cmd, sizeof(cmd), "p:%s/%s %s:%#" PRIx64 " call_site=$stack0:u64%s\n",
		 u->group, u->event, path, off, arg);
	ret = command(t, cmd);
	if (ret < 0) {
		cmd[strlen(cmd) - 1] = '\0';
		snprintf(why, whysize, "%s/uprobe_events refused '%.300s': %s%s", LT_TRACEFS,
			 cmd, strerror(-ret), ret == -ENOENT ?
			 " (this kernel has no uprobe events: CONFIG_UPROBE_EVENTS)" : "");
		return ret;
	}
	u->made = true;
	return 0;
}

void lt_uprobe_remove(struct lt_uprobe *u)
{
	char cmd[128];

	if (!u->made)
		return;
	if (u->t->enabled)
		lt_trace_enable(u->t, false);
	snprintf(cmd, sizeof(cmd), "-:%s/%s\n", u->group, u->event);
	if (command(u->t, cmd) == 0)
		u->made = false;
}
