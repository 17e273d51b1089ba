// SPDX-License-Identifier: GPL-2.0-or-later
/* likelytop --callers: the in-kernel histogram (callers_hist.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <kattr/kattr.h>

#include "callers_hist.h"
#include "callers_trace.h"

/* size=: entries per histogram (rounded to a power of two by the
 * kernel); calls from more callers than this are counted as Dropped */
#define HIST_SIZE "8192"

/* The number after "name:" in line (up to end), or false. */
static bool number_after(const char *line, const char *end, const char *name,
			 uint64_t *v)
{
	size_t nl = strlen(name);
	char *e;

	for (const char *p = line; p + nl < end; p++) {
		if (memcmp(p, name, nl) || p[nl] != ':')
			continue;
		if (p > line && p[-1] != ' ' && p[-1] != '{')
			continue;
		p += nl + 1;
		while (p < end && *p == ' ')
			p++;
		if (p >= end || *p < '0' || *p > '9')
			return false;
		errno = 0;
		*v = strtoull(p, &e, 10);
		return !errno && e <= end;
	}
	return false;
}

int lt_hist_parse(const char *text, size_t len, const char *key,
		  lt_hist_entry_fn fn, void *arg, uint64_t *dropped)
{
	const char *p = text, *end = text + len, *nl;
	int which = 0, seen = 0;
	uint64_t addr, hits, d;
	char buf[4096];

	if (dropped)
		*dropped = 0;
	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		/* a NUL-terminated copy: strtoull must not run past the line */
		if ((size_t)(nl - p) >= sizeof(buf))
			return -EINVAL;
		memcpy(buf, p, (size_t)(nl - p));
		buf[nl - p] = '\0';
		if (!strncmp(buf, "# trigger info: ", 16)) {
			which = strstr(buf, " if ") ? 1 : 0;
			seen++;
		} else if (buf[0] == '{') {
			if (!number_after(buf, buf + (nl - p), key, &addr) ||
			    !number_after(buf, buf + (nl - p), "hitcount", &hits))
				return -EINVAL;
			if (seen)
				fn(addr, hits, which, arg);
		} else if (dropped && number_after(buf, buf + (nl - p), "Dropped", &d)) {
			*dropped += d;
		}
		if (nl == end)
			break;
	}
	return seen;
}

/* Write a trigger line to the event's trigger file in our instance. */
static int trigger(struct lt_trace *t, const char *line)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s/trigger", t->inst, t->event);
	return kattr_write_str(t->m, path, line);
}

int lt_hist_start(struct lt_trace *t, const char *key, const char *wrong,
		  char *why, size_t whysize)
{
	char path[512];
	struct stat st;
	int ret;

	snprintf(path, sizeof(path), "%s/%s/hist", t->inst, t->event);
	if (kattr_stat(t->m, path, &st) < 0) {
		snprintf(why, whysize, "no histogram triggers in this kernel (no %s/%s)",
			 LT_TRACEFS, path);
		return -ENOENT;
	}
	snprintf(t->hist_calls, sizeof(t->hist_calls),
		 "hist:keys=%s:vals=hitcount:size=" HIST_SIZE, key);
	ret = trigger(t, t->hist_calls);
	if (ret < 0) {
		snprintf(why, whysize, "%s/%s/%s/trigger refused '%s': %s", LT_TRACEFS,
			 t->inst, t->event, t->hist_calls, strerror(-ret));
		t->hist_calls[0] = '\0';
		return ret;
	}
	if (!wrong)
		return 0;
	snprintf(t->hist_wrong, sizeof(t->hist_wrong), "%s if %s", t->hist_calls, wrong);
	ret = trigger(t, t->hist_wrong);
	if (ret < 0) {
		snprintf(why, whysize, "%s/%s/%s/trigger refused '%s': %s", LT_TRACEFS,
			 t->inst, t->event, t->hist_wrong, strerror(-ret));
		t->hist_wrong[0] = '\0';
		lt_hist_stop(t);
	}
	return ret;
}

int lt_hist_read(struct lt_trace *t, lt_hist_entry_fn fn, void *arg,
		 uint64_t *dropped)
{
	char path[512], *text, key[64];
	size_t len;
	int ret;

	snprintf(path, sizeof(path), "%s/%s/hist", t->inst, t->event);
	ret = kattr_read_alloc(t->m, path, &text, &len);
	if (ret < 0)
		return ret;
	/* "hist:keys=KEY:vals=..." */
	snprintf(key, sizeof(key), "%s", t->hist_calls + strlen("hist:keys="));
	*strchrnul(key, ':') = '\0';
	ret = lt_hist_parse(text, len, key, fn, arg, dropped);
	free(text);
	return ret < 0 ? ret : 0;
}

void lt_hist_stop(struct lt_trace *t)
{
	char line[1100];

	/* "!" and the trigger as it was set removes it */
	if (t->hist_wrong[0]) {
		snprintf(line, sizeof(line), "!%s", t->hist_wrong);
		(void)trigger(t, line);
		t->hist_wrong[0] = '\0';
	}
	if (t->hist_calls[0]) {
		snprintf(line, sizeof(line), "!%s", t->hist_calls);
		(void)trigger(t, line);
		t->hist_calls[0] = '\0';
	}
}
