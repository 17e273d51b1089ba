/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * splicebench's report renderers (src/splicebench/output/): the table
 * (libsmartcols), CSV, JSON (json-c) and the gnuplot plot, and what they
 * share (common.c).  The entry points are in output.h.
 */
#ifndef SB_OUTPUT_INTERNAL_H
#define SB_OUTPUT_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "../parse.h"
#include "esc.h"
#include "output.h"
#include "sb.h"

/* s, or "unknown" when missing or empty. */
const char *sb_or_unknown(const char *s);
/* A fact read from the system (or a --sysroot tree, which is anyone's),
 * for text: escaped (esc.h) into a buffer of the caller's block, cut with
 * "..." past 512 bytes. */
#define FACT_TEXT 512
#define fact_text(s) tool_esc_to((char[FACT_TEXT]){ 0 }, FACT_TEXT, sb_or_unknown(s), 0)
/* Whether the consumer reads the data (every consumer but null). */
bool sb_data_touched(const struct sb_config *cfg);
/* The pipe size every point ran with (they all get the same). */
uint64_t sb_pipe_size_used(const struct sb_report *rep);
/* The consumer as the text report names it. */
const char *sb_consumer_label(const struct sb_config *cfg);
/* A point whose runs spread more than SB_SPREAD_WARN. */
bool sb_wide_spread(const struct sb_result *r);
/* t (seconds since the epoch) as ISO 8601 UTC into buf. */
void sb_iso_time(long long t, char *buf, size_t size);
/* The command line as run, shell-quoted (malloc'd; NULL without memory). */
char *sb_command_line(const struct sb_report *rep);
/* How many of a point's samples there are, within the array (cap). */
int sb_nsamples(int n, int cap);

#endif
