// SPDX-License-Identifier: GPL-2.0-or-later
/* likelytop --callers: a kprobe event of its own (callers_kprobe.h). */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <kattr/kattr.h>

#include "callers_kprobe.h"
#include "callers_trace.h"

#define KPROBE_EVENTS "kprobe_events"

bool lt_kprobe_available(struct lt_trace *t)
{
	struct stat st;

	return kattr_stat(t->m, KPROBE_EVENTS, &st) == 0 && S_ISREG(st.st_mode);
}

/*
 * One line appended to kprobe_events.  O_APPEND and never O_TRUNC: an
 * open with O_TRUNC removes every probe of every tool.
 */
static int kprobe_write(struct lt_trace *t, const char *line)
{
	int fd = kattr_open(t->m, KPROBE_EVENTS, O_WRONLY | O_APPEND);
	size_t len = strlen(line);
	ssize_t n;

	if (fd < 0)
		return fd;
	n = write(fd, line, len);
	n = n < 0 ? -errno : (size_t)n == len ? 0 : -EIO;
	close(fd);
	return (int)n;
}

static int remove_one(struct lt_trace *t, const char *sys, const char *ev)
{
	char line[256];

	snprintf(line, sizeof(line), "-:%s/%s\n", sys, ev);
	return kprobe_write(t, line);
}

int lt_kprobe_create(struct lt_trace *t, const char *fn, unsigned int argpos,
		     const char *argtype, char *why, size_t whysize)
{
	char line[512], arg[64] = "";
	size_t i;
	int ret;

	/* the event's name: the function's, with what an event name may
	 * not hold (a '.' of foo.isra.0) as '_' */
	for (i = 0; fn[i] && i + 1 < sizeof(t->kevent); i++)
		t->kevent[i] = isalnum((unsigned char)fn[i]) ? fn[i] : '_';
	t->kevent[i] = '\0';
	if (isdigit((unsigned char)t->kevent[0]))
		t->kevent[0] = '_';
	snprintf(t->ksys, sizeof(t->ksys), LT_KPROBE_GROUP "%d", (int)getpid());
	if (argpos)
		snprintf(arg, sizeof(arg), " arg=$arg%u:%s", argpos, argtype);
	snprintf(line, sizeof(line), "p:%s/%s %s call_site=$stack0:x64%s\n", t->ksys,
		 t->kevent, fn, arg);
	ret = kprobe_write(t, line);
	if (ret == -EEXIST) {
		/* a killed run's that had this pid: nobody else names
		 * likelytop_PID after our pid */
		(void)remove_one(t, t->ksys, t->kevent);
		ret = kprobe_write(t, line);
	}
	snprintf(t->kdef, sizeof(t->kdef), "%.*s", (int)strlen(line) - 1, line);
	if (ret < 0) {
		snprintf(why, whysize, "%s: cannot add the kprobe event '%.*s' to %s/%s: %s%s",
			 fn, (int)strlen(line) - 1, line, LT_TRACEFS, KPROBE_EVENTS,
			 strerror(-ret), ret == -ENOENT || ret == -EINVAL ?
			 " (not a kernel function kprobes can reach: not in /proc/kallsyms, inlined, or on the kprobe blacklist)" : "");
		t->ksys[0] = t->kevent[0] = '\0';
	}
	return ret;
}

void lt_kprobe_remove(struct lt_trace *t)
{
	if (t->m && t->ksys[0])
		(void)remove_one(t, t->ksys, t->kevent);
	t->ksys[0] = t->kevent[0] = '\0';
}

/* Is the line "p:likelytop_PID/EVENT ..." still in kprobe_events? */
static bool listed(struct lt_trace *t, const char *head)
{
	char *text;
	bool found;

	if (kattr_read_alloc(t->m, KPROBE_EVENTS, &text, NULL) < 0)
		return false;
	found = strstr(text, head) != NULL;
	free(text);
	return found;
}

/* A group likelytop_PID/ev: a killed run's? */
static bool probe_stale(struct lt_trace *t, long pid, const char *head)
{
	struct timespec pause = { 0, 20 * 1000 * 1000 };
	char inst[64];
	struct stat st;

	/* a live run holds its instance (the instance sweep left it) for
	 * as long as its probe exists: it makes the instance first and
	 * removes the probe last */
	snprintf(inst, sizeof(inst), "instances/" LT_INSTANCE_PREFIX "%ld", pid);
	if (kattr_stat(t->m, inst, &st) == 0)
		return false;
	if (kill((pid_t)pid, 0) < 0 && errno == ESRCH)
		return true;
	/* the pid alive: a run removing its probe, or the pid reused */
	for (int i = 0; i < 10 && listed(t, head); i++)
		nanosleep(&pause, NULL);
	return listed(t, head);
}

void lt_kprobe_remove_stale(struct lt_trace *t)
{
	char *text, *line, *save = NULL, head[200], sys[64], ev[128];
	long pid;

	if (!lt_kprobe_available(t) || kattr_read_alloc(t->m, KPROBE_EVENTS, &text, NULL) < 0)
		return;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		/* "p:GROUP/EVENT SYMBOL FETCHARGS" (r: for a return probe) */
		char *colon = strchr(line, ':'), *slash, *sp, *end;

		if (!colon || !(slash = strchr(colon, '/')) || !(sp = strchr(slash, ' ')))
			continue;
		if ((size_t)(slash - colon - 1) >= sizeof(sys) ||
		    (size_t)(sp - slash - 1) >= sizeof(ev))
			continue;
		snprintf(sys, sizeof(sys), "%.*s", (int)(slash - colon - 1), colon + 1);
		snprintf(ev, sizeof(ev), "%.*s", (int)(sp - slash - 1), slash + 1);
		if (strncmp(sys, LT_KPROBE_GROUP, strlen(LT_KPROBE_GROUP)))
			continue;
		errno = 0;
		pid = strtol(sys + strlen(LT_KPROBE_GROUP), &end, 10);
		if (errno || *end || pid <= 0 || pid == (long)getpid())
			continue;
		snprintf(head, sizeof(head), ":%s/%s ", sys, ev);
		if (probe_stale(t, pid, head) && remove_one(t, sys, ev) == 0)
			t->stale_probes++;
	}
	free(text);
}
