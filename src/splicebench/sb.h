/* SPDX-License-Identifier: GPL-2.0-or-later */
/* splicebench: shared types of the planner, the runner and the outputs. */
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

/* ---- parse.c: command-line values (pure) ---------------------------- */

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

/* ---- stats.c: statistics over runs (pure) --------------------------- */

struct sb_stats {
	double median, min, max;
	double spread;		/* (max - min) / median, 0 when median is 0 */
	int n;
};
/* Sort a copy of v[0..n) and fill *st.  -EINVAL when n < 1. */
int sb_stats_compute(const double *v, int n, struct sb_stats *st);
/* CPU seconds per GB (10^9 bytes); 0 when no bytes moved. */
double sb_cpu_s_per_gb(double cpu_seconds, uint64_t bytes);
/* GB/s (10^9 bytes per second); 0 when the time is not positive. */
double sb_gbps(uint64_t bytes, double seconds);

/* ---- chunk.c: what the producer sends and verify checks (pure) ------- */

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
};

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

/* ---- run.c ----------------------------------------------------------- */

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

/* ---- output/: table.c, csv.c, json.c, plot.c; progress.c ------------- */

enum sb_format { SB_TABLE, SB_CSV, SB_JSON };

/* The results table's columns (-o); see columns[] in output/table.c. */
enum sb_column {
	SB_COL_MODE, SB_COL_SIZE, SB_COL_PIPE, SB_COL_HUGE, SB_COL_BUSY,
	SB_COL_RUNS, SB_COL_GBPS, SB_COL_MIN, SB_COL_MAX, SB_COL_SPREAD,
	SB_COL_CPU_PROD, SB_COL_CPU_CONS, SB_COL_NOTE, SB_COL_CPU,
	SB_COL_BYTES, SB_COL_CHUNKS, SB_COL_CORRUPT, SB_COL_COUNT
};
#define SB_COLS_MAX	64

struct sb_table_opts {
	enum sb_column cols[SB_COLS_MAX];
	int ncols;			/* 0: the default columns */
	bool noheadings, raw;		/* rows only; raw: no alignment */
};

/* -o LIST ("+LIST": the default ones, then LIST).  0, or -EINVAL /
 * -E2BIG with *bad, *badlen the name at fault. */
int sb_columns_parse(const char *list, struct sb_table_opts *t,
		     const char **bad, size_t *badlen);
/* --output-all */
void sb_columns_all(struct sb_table_opts *t);
/* The column list for --help. */
void sb_columns_help(FILE *fp);

/* t: the table's columns and form (NULL: the default table). */
int sb_output(const struct sb_report *rep, enum sb_format fmt,
	      const struct sb_table_opts *t);
/* Progress on stderr (cfg->progress): what is being measured, runs done
 * of total, and an estimate of the time left; sb_progress_end() clears
 * the line. */
void sb_progress(const char *what, int done, int total, double elapsed);
void sb_progress_end(void);
/* Warn about every point whose spread is above SB_SPREAD_WARN. */
void sb_warn_spread(const struct sb_report *rep);
/* The CSV and JSON reports into fp (fuzzed by tests/fuzz/fuzz_sb_output.c):
 * RFC 4180 with one field count, valid UTF-8, no "nan". */
void sb_output_csv(FILE *fp, const struct sb_report *rep);
void sb_output_json(FILE *fp, const struct sb_report *rep);
/* The text table into fp (t as for sb_output); what the system says (CPU
 * model, kernel release...) escaped as tool_esc() does (esc.h): one line
 * per line, valid UTF-8, no control bytes. */
void sb_output_text(FILE *fp, const struct sb_report *rep,
		    const struct sb_table_opts *t);
/* Draw rep with gnuplot into path (.svg or .png).  0 or -errno, with a
 * message printed. */
int sb_plot(const struct sb_report *rep, const char *path);

/* ---- cli.c: the command line ------------------------------------------ */

/* The options into cfg, the format, --plot and the table's form; a usage
 * error exits 2 with one message. */
void sb_parse_args(int argc, char **argv, struct sb_config *cfg,
		   enum sb_format *fmt, const char **plot,
		   struct sb_table_opts *t);

/* ---- session.c: around the measurement ---------------------------------- */

/* --pin checked against the CPUs this process may use (exit 2 or 1). */
void sb_check_pin(const struct sb_config *cfg);
/* --quick without --pin: both sides on one CPU (two with --busy). */
void sb_quick_pin(struct sb_config *cfg);
/* --pipe-size against pipe-max-size; the kernel's default pipe size. */
void sb_check_pipe_size(struct sb_config *cfg, const struct kattr_sysfacts *f,
			int *pipe_default);
/* --plot FILE: a target that is not a regular file is refused, now. */
void sb_check_plot_target(const char *path);
/* SIGINT: the run in progress finishes, then the report. */
void sb_catch_sigint(void);
/* Every point of the plan into rep; how many failed. */
int sb_run_all(struct sb_report *rep, struct sb_config *cfg);
/* What --huge got, said on stderr. */
void sb_report_huge(const struct sb_report *rep);
/* Corrupted data that verify found, said per point: whether any. */
bool sb_report_corruption(const struct sb_report *rep);

#endif
