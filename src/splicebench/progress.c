// SPDX-License-Identifier: GPL-2.0-or-later
/* splicebench: progress on a terminal (stderr), from run.c. */
#include "config.h"

#include <stdio.h>

#include "sb.h"
#include "output/output.h"
#include "tool.h"

void sb_progress(const char *what, int done, int total, double elapsed)
{
	char eta[32] = "";

	if (done > 0 && total > done) {
		long left = (long)(elapsed / done * (total - done) + 0.5);

		snprintf(eta, sizeof(eta), ", ETA %ld:%02ld", left / 60, left % 60);
	}
	if (total)
		fprintf(stderr, "\r%s: %s, %d of %d runs done (%d%%)%s\033[K",
			tool_name(), what, done, total, done * 100 / total, eta);
	else
		fprintf(stderr, "\r%s: %s\033[K", tool_name(), what);
	fflush(stderr);
}

void sb_progress_end(void)
{
	fputs("\r\033[K", stderr);
	fflush(stderr);
}
