// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * splicebench: the chunks the producer sends when the consumer verifies,
 * and the check.  A chunk is 64-bit words: the sequence number, a
 * checksum of the payload, then a payload that depends on the sequence
 * number, so data from another chunk (a buffer reused too early) and
 * damaged data are both told apart from the real thing.
 */
#include <string.h>

#include "chunk.h"
#include "sb.h"

#define MIX 0x9e3779b97f4a7c15ull

static inline uint64_t payload_word(uint64_t seq, size_t i)
{
	uint64_t x = (seq + 1) * MIX ^ (uint64_t)i;

	return x ^ (x >> 29);
}

/* A position-dependent sum: detects swapped as well as changed words. */
static inline uint64_t sum_step(uint64_t sum, uint64_t w)
{
	return (sum ^ w) * 0x100000001b3ull + 0x27d4eb2d;
}

void sb_chunk_fill(void *buf, size_t len, uint64_t seq)
{
	uint64_t *w = buf, sum = seq;
	size_t i, n = len / 8;

	for (i = 2; i < n; i++) {
		w[i] = payload_word(seq, i);
		sum = sum_step(sum, w[i]);
	}
	w[0] = seq;
	w[1] = sum;
}

enum sb_chunk_status sb_chunk_check(const void *buf, size_t len, uint64_t seq,
				    uint64_t *got_seq)
{
	const uint64_t *w = buf;
	uint64_t sum, bad = 0;
	size_t i, n = len / 8;

	*got_seq = w[0];
	if (SB_UNLIKELY(w[0] != seq))
		return SB_CHUNK_BAD_SEQ;
	sum = seq;
	for (i = 2; i < n; i++) {
		bad |= w[i] ^ payload_word(seq, i);
		sum = sum_step(sum, w[i]);
	}
	if (SB_UNLIKELY(sum != w[1]))
		return SB_CHUNK_BAD_SUM;
	return SB_UNLIKELY(bad) ? SB_CHUNK_BAD_DATA : SB_CHUNK_OK;
}
