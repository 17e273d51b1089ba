// SPDX-License-Identifier: GPL-2.0-or-later
/* splicebench's reports: what the table, CSV, JSON and plot share. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"
#include "tool.h"

const char *sb_or_unknown(const char *s)
{
	return s && *s ? s : "unknown";
}


bool sb_data_touched(const struct sb_config *cfg)
{
	return cfg->consumer != SB_NULL;
}

/* The pipe size every point ran with (they all get the same). */
uint64_t sb_pipe_size_used(const struct sb_report *rep)
{
	int i;

	for (i = 0; i < rep->nres; i++)
		if (!rep->res[i].failed)
			return rep->res[i].pipe_size;
	return (uint64_t)rep->pipe_size_default;
}

const char *sb_consumer_label(const struct sb_config *cfg)
{
	switch (cfg->consumer) {
	case SB_NULL:	return "null (splice to /dev/null: no data touched)";
	case SB_READ:	return "read (read(2) into a buffer)";
	case SB_VERIFY:	return "verify (read(2), every byte checked)";
	case SB_FILE:	return "file (splice into a file)";
	}
	return "?";
}

bool sb_wide_spread(const struct sb_result *r)
{
	return !r->failed && r->runs > 1 && r->gbps.spread > SB_SPREAD_WARN;
}

/* ---- what the exports carry about the invocation ------------------------ */

void sb_iso_time(long long t, char *buf, size_t size)
{
	time_t tt = (time_t)t;
	struct tm tm;

	gmtime_r(&tt, &tm);
	strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* The command line, words joined by blanks, quoted as a shell would need
 * ('...' around a word with anything but [A-Za-z0-9_./,:=+-]). */
char *sb_command_line(const struct sb_report *rep)
{
	size_t cap = 1;
	char *s, *p;

	for (int i = 0; i < rep->argc; i++)
		cap += 4 * strlen(rep->argv[i]) + 3;
	s = p = malloc(cap);
	if (!s)
		return NULL;
	*p = '\0';
	for (int i = 0; i < rep->argc; i++) {
		const char *w = rep->argv[i];
		bool q = !*w || w[strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./,:=+-")];

		if (i)
			*p++ = ' ';
		if (q)
			*p++ = '\'';
		for (; *w; w++) {
			if (*w == '\'' && q) {
				p = stpcpy(p, "'\\''");
				continue;
			}
			*p++ = *w;
		}
		if (q)
			*p++ = '\'';
		*p = '\0';
	}
	return s;
}

/* How many of a point's samples there are: its run count, within the
 * array that holds them (a report is also built by the fuzzers). */
int sb_nsamples(int n, int cap)
{
	return n < 0 ? 0 : n > cap ? cap : n;
}

const char *sb_producer_writes(const struct sb_config *cfg, enum sb_mode m)
{
	if (m == SB_GIFT && !cfg->unsafe_reuse)
		return "every chunk, on fresh pages (fault + zero + fill + MADV_DONTNEED)";
	if (cfg->consumer == SB_VERIFY || cfg->unsafe_reuse)
		return "every chunk, into a reused buffer";
	return "nothing: a buffer filled once before the clock";
}
