/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * splicebench: what the whole tool shares, the plan and the results; each
 * module has its own header (parse.h, stats.h, chunk.h, run.h, cli.h,
 * session.h, output/output.h).
 */
#ifndef SPLICEBENCH_SB_H
#define SPLICEBENCH_SB_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "kattr/sysfacts.h"
#include "likely_prof.h"

/* Profiled in a -DLIKELY_PROF=ON build (likely_prof(3)). */
#define SB_LIKELY(x)	likely(x)
#define SB_UNLIKELY(x)	unlikely(x)

enum sb_mode { SB_COPY, SB_VMSPLICE, SB_GIFT, SB_NMODES };
enum sb_consumer { SB_NULL, SB_READ, SB_VERIFY, SB_FILE };

#define SB_MAX_SIZES	32
#define SB_MAX_RUNS	1000
#define SB_MIN_SIZE	16		/* a verify header */
#define SB_MAX_SIZE	(1ull << 30)
#define SB_MIN_SECONDS	0.001		/* --time */

#include "chunk.h"
#include "stats.h"

/* ---- the plan and the results --------------------------------------- */

struct sb_config {
	unsigned int modes;		/* mask of 1 << sb_mode */
	enum sb_consumer consumer;
	const char *file_path;
	uint64_t sizes[SB_MAX_SIZES];
	int nsizes;
	uint64_t pipe_size;		/* 0: the kernel's default */
	uint64_t total;			/* bytes per run, or 0 with seconds */
	double seconds;
	int runs;
	bool huge, busy, unsafe_reuse, quick;
	bool progress;			/* progress lines on stderr (a terminal) */
	int pin_producer, pin_consumer;	/* -1: not pinned */
};

/* One run: what both sides measured. */
struct sb_run {
	uint64_t bytes;			/* received by the consumer */
	double seconds;			/* consumer's first call to its last */
	double cpu_producer, cpu_consumer;	/* user + system seconds */
	uint64_t chunks, corrupt;	/* verify only */
	uint64_t first_bad_chunk, first_bad_seq;
	enum sb_chunk_status first_bad;
};

/* One point of the matrix (mode x size) over its runs. */
struct sb_result {
	enum sb_mode mode;
	uint64_t size;
	uint64_t pipe_size;		/* obtained */
	bool huge_requested, huge;	/* huge: obtained for every buffer */
	bool huge_refused;		/* madvise(MADV_HUGEPAGE) failed with
					 * EINVAL: no THP in this kernel */
	bool failed;			/* did not run (why says why) */
	bool unsupported;		/* failed: the mode is not usable here */
	bool interrupted;		/* failed: SIGINT came before its first run */
	char why[160];			/* why it failed */
	int runs;
	struct sb_stats gbps;
	double cpu_producer, cpu_consumer;	/* s/GB, medians */
	uint64_t bytes;			/* per run (median run) */
	uint64_t chunks, corrupt;	/* summed over runs (verify) */
	uint64_t first_bad_chunk, first_bad_seq;
	enum sb_chunk_status first_bad;
	/* The raw samples, in the order they were measured (runs of them). */
	double sample_gbps[SB_MAX_RUNS], sample_seconds[SB_MAX_RUNS];
};

/*
 * A spread ((max - min) / median) above this is too wide to trust the
 * median to better than noise: said on stderr, marked in every format.
 */
#define SB_SPREAD_WARN	0.5

#define SB_BASE_RUNS	11		/* at most, for the memcpy baseline */

struct sb_baseline {
	uint64_t hot_size, ram_size;
	struct sb_stats hot, ram;	/* GB/s */
	double hot_samples[SB_BASE_RUNS], ram_samples[SB_BASE_RUNS];
	/*
	 * Fresh pages: what a gifting producer pays per chunk with no pipe
	 * at all (a demand fault and the kernel's zeroing per page, the
	 * producer's own writes, MADV_DONTNEED), over fresh_size at a time.
	 */
	uint64_t fresh_size;
	struct sb_stats fresh;		/* GB/s */
	double fresh_samples[SB_BASE_RUNS];
	double fresh_cpu;		/* CPU s/GB, median */
};

/* What a mode's producer writes per chunk during a run (the report says). */
const char *sb_producer_writes(const struct sb_config *cfg, enum sb_mode m);

struct sb_report {
	const struct sb_config *cfg;
	struct kattr_sysfacts facts;
	struct sb_baseline base;
	struct sb_result *res;
	int nres;
	int pipe_size_default;		/* a fresh pipe's size */
	bool interrupted;		/* SIGINT: only the runs done so far */
	int argc;			/* the command line, for the exports */
	char **argv;
	long long started;		/* when, seconds since the epoch */
};

#endif
