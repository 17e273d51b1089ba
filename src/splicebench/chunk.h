/* SPDX-License-Identifier: GPL-2.0-or-later */
/* splicebench: what the producer sends and verify checks (chunk.c, pure). */
#ifndef SPLICEBENCH_CHUNK_H
#define SPLICEBENCH_CHUNK_H

#include <stddef.h>
#include <stdint.h>

/*
 * A chunk of len bytes (len a multiple of 8, >= 16) is 64-bit words:
 * word 0 the sequence number, word 1 a checksum of the payload, then a
 * payload derived from the sequence number.
 */
void sb_chunk_fill(void *buf, size_t len, uint64_t seq);
/* Stamp a chunk whose payload is already there (the header only). */
enum sb_chunk_status {
	SB_CHUNK_OK = 0,
	SB_CHUNK_BAD_SEQ,	/* another chunk's data (a reused buffer) */
	SB_CHUNK_BAD_SUM,	/* header and payload disagree */
	SB_CHUNK_BAD_DATA,	/* payload differs from what was sent */
};
enum sb_chunk_status sb_chunk_check(const void *buf, size_t len,
				    uint64_t seq, uint64_t *got_seq);

#endif
