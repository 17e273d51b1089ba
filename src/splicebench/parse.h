/* SPDX-License-Identifier: GPL-2.0-or-later */
/* splicebench: command-line values (parse.c, pure). */
#ifndef SPLICEBENCH_PARSE_H
#define SPLICEBENCH_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "sb.h"

/* "256K", "1M", "4096": K/M/G are powers of 1024.  -EINVAL, -ERANGE. */
int sb_parse_size(const char *s, uint64_t *out);
/* A comma-separated list of sizes, at most max.  Returns the count or -EINVAL. */
int sb_parse_size_list(const char *s, uint64_t *out, int max);
/* "copy,vmsplice,gift" into a bit mask of (1 << sb_mode).  -EINVAL. */
int sb_parse_modes(const char *s, unsigned int *mask);
/* "null", "read", "verify" or "file:PATH" (*path points into s). */
int sb_parse_consumer(const char *s, enum sb_consumer *c, const char **path);
/* "P,C": two CPU numbers. */
int sb_parse_pin(const char *s, int *p, int *c);
/* Seconds as a decimal number > 0 (at most a day). */
int sb_parse_seconds(const char *s, double *out);
/* Format n bytes as "256K", "1M", "1.5M" or "1000"; returns buf. */
const char *sb_format_size(uint64_t n, char *buf, size_t size);
const char *sb_mode_name(enum sb_mode m);
const char *sb_consumer_name(enum sb_consumer c);

#endif
