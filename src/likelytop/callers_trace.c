// SPDX-License-Identifier: GPL-2.0-or-later
/* likelytop --callers: its own tracefs instance (callers_trace.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <kattr/kattr.h>

#include "callers_hist.h"
#include "callers_kprobe.h"
#include "callers_trace.h"
#include "tool.h"

#define BUFFER_KB "4096"	/* per CPU: 0.4 s of a 400,000/s storm */

__attribute__((format(printf, 4, 5)))
static int say(char *why, size_t size, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, size, fmt, ap);
	va_end(ap);
	return ret;
}

/*
 * /sys/kernel/tracing as a handle; where nothing is mounted there (an
 * empty sysfs directory), tracefs is mounted in a mount namespace of this
 * process alone, so the host's mount table stays as it was.
 */
static int open_mount(struct lt_trace *t, char *why, size_t whysize)
{
	struct stat st;
	int ret;

	if (lstat(LT_TRACEFS, &st) < 0)
		return say(why, whysize, -errno, "%s: %s", LT_TRACEFS, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return say(why, whysize, -ENOTDIR,
			   "%s is not a directory (a symbolic link is not followed)", LT_TRACEFS);
	ret = kattr_mount_open_at(tool_root(), LT_TRACEFS, KATTR_MAGIC_TRACEFS, 0, &t->m);
	if (ret != -EMEDIUMTYPE)
		return ret < 0 ? say(why, whysize, ret, "%s: %s", LT_TRACEFS,
				     strerror(-ret)) : 0;
	if (unshare(CLONE_NEWNS) < 0 ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount("nodev", LT_TRACEFS, "tracefs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
		  NULL) < 0)
		return say(why, whysize, -errno,
			   "tracefs is not mounted on %s, and mounting it in a private mount namespace failed: %s",
			   LT_TRACEFS, strerror(errno));
	t->private_mount = true;
	ret = kattr_mount_open_at(tool_root(), LT_TRACEFS, KATTR_MAGIC_TRACEFS, 0, &t->m);
	return ret < 0 ? say(why, whysize, ret, "%s: %s", LT_TRACEFS, strerror(-ret)) : 0;
}

/* Is instance rel (owner pid) a leftover of a killed run? */
static bool is_stale(struct lt_trace *t, const char *rel, long pid, int *fdp)
{
	struct timespec pause = { 0, 20 * 1000 * 1000 };
	int fd = kattr_open(t->m, rel, O_RDONLY | O_DIRECTORY);

	*fdp = fd;
	if (fd < 0)
		return false;
	/* Held: a live run.  Free and its pid gone: killed.  Free with the
	 * pid alive: a run between its mkdir and its flock (microseconds),
	 * or the pid reused by another process: asked again for 200 ms. */
	for (int i = 0; i < 10; i++) {
		if (flock(fd, LOCK_EX | LOCK_NB) < 0)
			return false;
		if (kill((pid_t)pid, 0) < 0 && errno == ESRCH)
			return true;
		flock(fd, LOCK_UN);
		nanosleep(&pause, NULL);
	}
	return flock(fd, LOCK_EX | LOCK_NB) == 0;
}

/* Remove instances/likelytop-PID left by runs that were killed. */
static void remove_stale(struct lt_trace *t)
{
	struct kattr_dirent *ents;
	size_t n;
	char rel[320], *end;
	long pid;
	int fd;

	if (kattr_list(t->m, "instances", &ents, &n) < 0)
		return;
	for (size_t i = 0; i < n; i++) {
		if (strncmp(ents[i].name, LT_INSTANCE_PREFIX, strlen(LT_INSTANCE_PREFIX)))
			continue;
		errno = 0;
		pid = strtol(ents[i].name + strlen(LT_INSTANCE_PREFIX), &end, 10);
		if (errno || *end || pid <= 0 || pid == (long)getpid())
			continue;
		snprintf(rel, sizeof(rel), "instances/%s", ents[i].name);
		if (is_stale(t, rel, pid, &fd) && kattr_rmdir(t->m, rel) == 0)
			t->stale_removed++;
		if (fd >= 0)
			close(fd);
	}
	kattr_list_free(ents, n);
}

int lt_trace_open(struct lt_trace *t, char *why, size_t whysize)
{
	int ret;

	memset(t, 0, sizeof(*t));
	t->lockfd = -1;
	ret = open_mount(t, why, whysize);
	if (ret < 0)
		return ret;
	remove_stale(t);
	lt_kprobe_remove_stale(t);
	snprintf(t->inst, sizeof(t->inst), "instances/" LT_INSTANCE_PREFIX "%d",
		 (int)getpid());
	ret = kattr_mkdir(t->m, t->inst, 0700);
	if (ret < 0) {
		say(why, whysize, ret, "cannot create the tracefs instance %s/%s: %s",
		    LT_TRACEFS, t->inst, strerror(-ret));
		t->inst[0] = '\0';
		return ret;
	}
	t->lockfd = kattr_open(t->m, t->inst, O_RDONLY | O_DIRECTORY);
	if (t->lockfd < 0 || flock(t->lockfd, LOCK_EX | LOCK_NB) < 0)
		return say(why, whysize, t->lockfd < 0 ? t->lockfd : -errno,
			   "cannot lock the tracefs instance %s/%s", LT_TRACEFS, t->inst);
	return 0;
}

/* Write s to the instance's file rel. */
static int inst_write(struct lt_trace *t, const char *rel, const char *s)
{
	char path[768];

	snprintf(path, sizeof(path), "%s/%s", t->inst, rel);
	return kattr_write_str(t->m, path, s);
}

static int open_cpus(struct lt_trace *t, char *why, size_t whysize)
{
	char path[512], *kb;
	long n = sysconf(_SC_NPROCESSORS_CONF);
	unsigned long sub;

	if (n < 1 || n > 8192)
		n = 1;
	t->cpufd = malloc((size_t)n * sizeof(int));
	/* a read of trace_pipe_raw is one sub-buffer (a page unless
	 * buffer_subbuf_size_kb, 6.8 and later, says otherwise) */
	t->pagesize = (size_t)sysconf(_SC_PAGESIZE);
	snprintf(path, sizeof(path), "%s/buffer_subbuf_size_kb", t->inst);
	if (kattr_read_alloc(t->m, path, &kb, NULL) == 0) {
		sub = strtoul(kb, NULL, 10);
		if (sub >= 1 && sub <= 1024)
			t->pagesize = sub * 1024;
		free(kb);
	}
	t->page = malloc(t->pagesize);
	if (!t->cpufd || !t->page)
		return say(why, whysize, -ENOMEM, "out of memory");
	for (t->ncpu = 0; t->ncpu < n; t->ncpu++) {
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/trace_pipe_raw",
			 t->inst, t->ncpu);
		t->cpufd[t->ncpu] = kattr_open(t->m, path, O_RDONLY | O_NONBLOCK);
		if (t->cpufd[t->ncpu] == -ENOENT)
			break;	/* no more CPUs */
		if (t->cpufd[t->ncpu] < 0)
			return say(why, whysize, t->cpufd[t->ncpu], "%s/%s: %s",
				   LT_TRACEFS, path, strerror(-t->cpufd[t->ncpu]));
	}
	return 0;
}

int lt_trace_format(struct lt_trace *t, const char *sys, const char *name,
		    const char *arg, char *why, size_t whysize)
{
	char path[512], *text;
	size_t len;
	int ret;

	snprintf(t->event, sizeof(t->event), "events/%s/%s", sys, name);
	snprintf(path, sizeof(path), "%s/format", t->event);
	ret = kattr_read_alloc(t->m, path, &text, &len);
	if (ret < 0)
		return say(why, whysize, ret, "no %s:%s tracepoint (%s/%s: %s)",
			   sys, name, LT_TRACEFS, path, strerror(-ret));
	ret = lt_rb_format_parse(text, len, "call_site", &t->call_site, arg,
				 &t->arg, &t->id);
	free(text);
	if (ret < 0)
		return say(why, whysize, ret, "%s/%s: no call_site%s%s field of 1 to 8 bytes",
			   LT_TRACEFS, path, arg ? " or " : "", arg ? arg : "");
	return 0;
}

int lt_trace_prepare(struct lt_trace *t, const char *sys, const char *name,
		     const char *arg, char *why, size_t whysize)
{
	int ret = lt_trace_format(t, sys, name, arg, why, whysize);

	if (ret < 0)
		return ret;
	/* our instance only: a larger buffer, and new events dropped (not
	 * old ones overwritten) when it is full, so the count says so */
	if (inst_write(t, "buffer_size_kb", BUFFER_KB) < 0 ||
	    inst_write(t, "options/overwrite", "0") < 0 ||
	    inst_write(t, "trace_clock", "mono") < 0)
		return say(why, whysize, -EIO, "cannot set up the tracefs instance %s/%s",
			   LT_TRACEFS, t->inst);
	return open_cpus(t, why, whysize);
}

int lt_trace_enable(struct lt_trace *t, bool on)
{
	char path[512];
	int ret;

	snprintf(path, sizeof(path), "%s/enable", t->event);
	ret = inst_write(t, path, on ? "1" : "0");
	if (ret == 0)
		t->enabled = on;
	return ret;
}

int lt_trace_drain(struct lt_trace *t, lt_rb_record_fn fn, void *arg)
{
	ssize_t n;

	for (int c = 0; c < t->ncpu; c++) {
		for (int pages = 0; pages < 1 << 16; pages++) {
			n = read(t->cpufd[c], t->page, t->pagesize);
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0 && errno != EAGAIN)
				return -errno;
			if (n <= 0)
				break;
			(void)lt_rb_page_foreach(t->page, (size_t)n, fn, arg, NULL);
		}
	}
	return 0;
}

uint64_t lt_trace_lost(struct lt_trace *t)
{
	static const char *const keys[] = { "\noverrun: ", "\ndropped events: " };
	char path[512], *text, *p;
	uint64_t lost = 0;

	for (int c = 0; c < t->ncpu; c++) {
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/stats", t->inst, c);
		if (kattr_read_alloc(t->m, path, &text, NULL) < 0)
			continue;
		for (int k = 0; k < 2; k++)
			if ((p = strstr(text, keys[k])))
				lost += strtoull(p + strlen(keys[k]), NULL, 10);
		free(text);
	}
	return lost;
}

void lt_trace_close(struct lt_trace *t)
{
	if (t->enabled)
		lt_trace_enable(t, false);
	if (t->m && t->inst[0])
		lt_hist_stop(t);
	for (int c = 0; t->cpufd && c < t->ncpu; c++)
		if (t->cpufd[c] >= 0)
			close(t->cpufd[c]);
	free(t->cpufd);
	free(t->page);
	t->cpufd = NULL;
	t->page = NULL;
	t->ncpu = 0;
	if (t->inst[0] && t->m)
		(void)kattr_rmdir(t->m, t->inst);
	t->inst[0] = '\0';
	/* the probe after the instance: it cannot go while enabled there */
	lt_kprobe_remove(t);
	if (t->lockfd >= 0)
		close(t->lockfd);
	t->lockfd = -1;
	kattr_mount_close(t->m);
	t->m = NULL;
}
