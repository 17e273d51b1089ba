// SPDX-License-Identifier: GPL-2.0-or-later
/* Fixture for likelytop --suggest: two hints on a line, a split call,
 * nested parentheses, a hint inside an expression. */
#include "../../include/linux/compiler.h"

struct rq { int nr_running; int idle; unsigned int flags; };

#define RQ_A 1
#define RQ_B 2

int pick_next(struct rq *rq, int want)
{
	if (likely(rq->nr_running) && unlikely(rq->idle))
		return -1;
	if (unlikely(rq->nr_running > 100 &&
		     rq->idle == 0))
		return 1;
	if (unlikely((rq->flags & (RQ_A | RQ_B)) != 0))
		return 2;
	if (want && unlikely(rq->idle || rq->nr_running == 0))
		return 3;
	if (want > 1 && unlikely(!rq->flags))
		return 4;
	return 0;
}

int balance(struct rq *a, struct rq *b)
{
	if (unlikely(a->idle) || unlikely(b->idle))
		return 0;
	WARN_ON(a->nr_running < 0);
	return a->nr_running - b->nr_running;
}
