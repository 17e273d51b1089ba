/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rgctl classify --at-exec (atexec.c): placement before a program's first
 * instruction, through fanotify permission events (FAN_OPEN_EXEC_PERM).
 */
#ifndef RGCTL_ATEXEC_H
#define RGCTL_ATEXEC_H

#include <stdbool.h>

#include "kattr/rgconf.h"

/* A call reads no more events once it has taken this long. */
#define ATEXEC_BUDGET_MS 50

struct atexec;

/* What the program will be (p) matched rule r: put it in its group now. */
typedef void (*atexec_place_fn)(void *data, const struct kattr_proc *p, int r);

struct atexec_stats {
	unsigned long events;		/* permission events answered */
	unsigned long classified;	/* of which checked against the rules */
	unsigned long placed;		/* of which a rule matched */
	unsigned long repeats;		/* the same exec again (its interpreter) */
	unsigned long over_budget;	/* calls cut short: the rest read next call */
	unsigned long guessed;		/* comm from the file, not execve's path */
	unsigned long reply_failed;	/* answers the kernel refused */
};

/*
 * Mark what conf's rules need and start answering: exe rules mark their
 * files' inodes; a rule without exe marks every filesystem that can hold
 * programs (mounted without noexec).  msg gets what was marked, or why
 * nothing could be (then -errno).
 */
int atexec_open(const struct kattr_rgconf *conf, atexec_place_fn place, void *data,
		struct atexec **out, char *msg, size_t msgsz);
int atexec_fd(const struct atexec *a);
/* Read and answer every queued event (FAN_ALLOW, always); one whose
 * process has yet to sleep in its exec is asked again, for 20 ms at most. */
void atexec_handle(struct atexec *a);
/* epoll_wait's timeout: 1 ms while events are to be asked again, else -1. */
int atexec_timeout_ms(const struct atexec *a);
/* Answer what is queued unclassified, drop the marks; how many answered. */
unsigned long atexec_close(struct atexec *a);
const struct atexec_stats *atexec_stats(const struct atexec *a);

#endif
