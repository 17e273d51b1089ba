// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rgctl-faults only (the tests' build of rgctl; the shipped rgctl has no
 * such hooks): apply's fault injection, from the environment.
 * RGCTL_APPLY_FAIL_STEP=K: step K fails before it does anything; K+: step
 * K is done, then reported as failed (so its own undo runs too).
 * RGCTL_APPLY_FAIL_UNDO=K: undoing step K fails.
 * RGCTL_STEP_DELAY_US=U: each step (and each undo) waits U microseconds
 * first, so that a signal sent at a measured time lands inside a short run;
 * so does each move of classify, between deciding it and writing it.
 * RGCTL_STEP_MARK_FD=N: when the first of these waits begins (the signals
 * caught, the journal written), one byte is written to file descriptor N,
 * which is then closed, so that a test times its signals from there: the
 * start-up before it, slow and uneven under TCG or a loaded machine,
 * falls outside the sweep.
 * RGCTL_STEP_TIMES=FILE: at exit, the ms from the first step's start to
 * the last step's end are written to FILE (the engine's steps: apply,
 * delete; create's), so that a test's points stop at the last change,
 * not at the verify and exit after it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kattr/rgplan.h"
#include "rgctl_plan.h"
#include "rgctl_conf.h"
#include "strutils.h"

#define FAIL_STEP_ENV "RGCTL_APPLY_FAIL_STEP"
#define FAIL_UNDO_ENV "RGCTL_APPLY_FAIL_UNDO"

#define DELAY_ENV "RGCTL_STEP_DELAY_US"
#define MARK_ENV "RGCTL_STEP_MARK_FD"
#define TIMES_ENV "RGCTL_STEP_TIMES"

static unsigned long fail_step, fail_undo, delay_us;
static bool fail_after;
static struct timespec t_first, t_last;	/* the first step's start, a last end */

static unsigned long env_uint(const char *name)
{
	unsigned long long v;
	const char *s = getenv(name);

	return s && str_parse_uint(s, ~0UL, "+", &v, NULL) == 0 ? (unsigned long)v : 0;
}

/* RGCTL_STEP_TIMES: the steps' span, written at exit. */
static void times_write(void)
{
	const char *path = getenv(TIMES_ENV);
	long long ms;
	int fd;

	if (!path || !t_last.tv_sec || !t_first.tv_sec)
		return;
	ms = (long long)(t_last.tv_sec - t_first.tv_sec) * 1000 +
	     (t_last.tv_nsec - t_first.tv_nsec) / 1000000;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	dprintf(fd, "%lld\n", ms);
	close(fd);
}

/* The first wait: one byte to the test's descriptor, if it gave one. */
static void mark(void)
{
	static bool marked;
	unsigned long long fd;
	const char *s = getenv(MARK_ENV);

	if (marked)
		return;
	marked = true;
	clock_gettime(CLOCK_MONOTONIC, &t_first);
	if (getenv(TIMES_ENV))
		atexit(times_write);
	if (!s || str_parse_uint(s, 1023, "", &fd, NULL) < 0 || fd < 3)
		return;
	if (write((int)fd, "s", 1) != 1) {
		/* the test then sees the descriptor closed, and says so */
	}
	close((int)fd);
}

/* The delay: a signal cuts nanosleep short, as it would a slow write. */
static void delay(void)
{
	struct timespec ts = { (time_t)(delay_us / 1000000), (long)(delay_us % 1000000) * 1000 };

	mark();
	if (delay_us)
		nanosleep(&ts, NULL);
}

/* create's steps end (the engine's: after()). */
void rgctl_step_done(void)
{
	clock_gettime(CLOCK_MONOTONIC, &t_last);
}

/* create and set, which do not run through the engine: the same delay. */
void rgctl_step_delay(void)
{
	delay_us = env_uint(DELAY_ENV);
	delay();
}

/* A fault: -EIO, why its words. */
static int injected(struct kattr_why *why, const char *text)
{
	why->code = KATTR_WHY_INVALID;
	why->text = text;
	return -EIO;
}

static int before(void *arg, size_t i, struct kattr_why *why)
{
	(void)arg;
	delay();
	if (i + 1 != fail_step || fail_after)
		return 0;
	return injected(why, "failure injected by " FAIL_STEP_ENV);
}

static int after(void *arg, size_t i, struct kattr_why *why)
{
	(void)arg;
	clock_gettime(CLOCK_MONOTONIC, &t_last);
	if (i + 1 != fail_step || !fail_after)
		return 0;
	return injected(why, "failure injected by " FAIL_STEP_ENV " after the step");
}

static int before_undo(void *arg, size_t i, struct kattr_why *why)
{
	(void)arg;
	delay();
	if (i + 1 != fail_undo)
		return 0;
	return injected(why, "failure injected by " FAIL_UNDO_ENV);
}

void rgctl_apply_faults(struct kattr_rgplan_ops *ops)
{
	const char *s = getenv(FAIL_STEP_ENV);

	fail_step = env_uint(FAIL_STEP_ENV);
	fail_after = s && strchr(s, '+');
	fail_undo = env_uint(FAIL_UNDO_ENV);
	delay_us = env_uint(DELAY_ENV);
	ops->before = before;
	ops->after = after;
	ops->before_undo = before_undo;
}
