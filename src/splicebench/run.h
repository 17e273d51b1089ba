/* SPDX-License-Identifier: GPL-2.0-or-later */
/* splicebench: the measurement (run.c). */
#ifndef SPLICEBENCH_RUN_H
#define SPLICEBENCH_RUN_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "sb.h"

/*
 * Set by main()'s SIGINT handler: the run in progress ends, no further run
 * starts, and each point keeps the runs it has.
 */
extern volatile sig_atomic_t sb_stop;

/*
 * Open the --consumer file:PATH target for writing, creating it (mode
 * 0666 & ~umask) when missing: never through a symlink (O_NOFOLLOW),
 * never blocking on a FIFO (O_NONBLOCK), and only a regular file (else
 * -EINVAL, why naming what it is).  The fd, or -errno with why set.
 */
int sb_open_file_consumer(const char *path, char *why, size_t whylen);

/*
 * Measure the points res[0..n) (mode and size set; those already marked
 * failed are skipped): a warm-up run of each, then cfg->runs rounds of
 * one run of each.  A point that cannot run is marked failed with
 * r->why set.  When sb_stop is set, a point keeps the runs it finished
 * (r->runs of them); one with none is marked failed, "interrupted".
 * Returns how many points failed here (out of memory: exit 1).
 */
int sb_run_points(const struct sb_config *cfg, struct sb_result *res, int n);
/* The memcpy baseline: cache-hot and from RAM. */
void sb_run_baseline(const struct sb_config *cfg, struct sb_baseline *b);
/* Is vmsplice (with flags) usable here?  0 or -errno. */
int sb_probe_vmsplice(unsigned int flags);
/* Set a pipe's size: 0 and the size obtained, or -errno. */
int sb_pipe_set_size(int fd, uint64_t want, uint64_t *got);

#endif
