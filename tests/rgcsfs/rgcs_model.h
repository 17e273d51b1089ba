/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The RGCS model behind rgcsfs: groups, their shares and stats, and the
 * task -> group map, with the store/show semantics of the 2006 patch set
 * (see /work/shared/reference/rgcs-abi.md and rgcsfs.c's description).
 * No FUSE here, so the parsers can be fuzzed on their own.
 *
 * Every function returns 0 (or a length) on success and -errno on failure;
 * nothing here prints except rgcs_init()'s scan warnings through the
 * caller-supplied log function.
 */
#ifndef RGCS_MODEL_H
#define RGCS_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define RGCS_PAGE 4096		/* configfs' buffer: one page */
#define RGCS_MAX_DEPTH 5	/* groups nest at most 5 levels below the root */
#define RGCS_CTL_DEPTH 3	/* numtasks and cpu are attached up to depth 3 */

#define RGCS_SHARE_UNCHANGED (-1)
#define RGCS_SHARE_UNSUPPORTED (-2)
#define RGCS_SHARE_DONT_CARE (-3)
#define RGCS_DEFAULT_DIVISOR 100

enum rgcs_attr { RGCS_SHARES, RGCS_STATS, RGCS_MEMBERS, RGCS_NATTR };
enum rgcs_ctl { RGCS_NUMTASKS, RGCS_CPU, RGCS_NCTL };

extern const char *const rgcs_attr_names[RGCS_NATTR];
extern const char *const rgcs_ctl_names[RGCS_NCTL];

struct rgcs_shares {
	int min, max, div;
};

struct rgcs_member;

struct rgcs_group {
	char *name;
	struct rgcs_group *parent;
	struct rgcs_group *children;	/* newest first */
	struct rgcs_group *next;	/* sibling */
	int depth;			/* 0 = res_groups itself */
	unsigned refs;			/* tree link + open files */
	bool dead;			/* rmdir'ed, kept while files are open */
	struct rgcs_shares shares[RGCS_NCTL];
	struct rgcs_member *members;	/* most recently added first */
	struct rgcs_member *members_tail;
	long nmembers;
	unsigned long successes, failures, forkrate_failures;	/* numtasks */
	unsigned long long cpu_since;	/* clock ticks: creation or reset */
};

struct rgcs_fs {
	struct rgcs_group *root;
	struct rgcs_member **hash;
	size_t nbuckets;
	char proc[256];			/* normally "/proc" */
	unsigned gen;			/* scan generation */
	long hz, ncpu;
};

/* Set up the root group and put every task found in PROC there. */
int rgcs_init(struct rgcs_fs *fs, const char *proc);
void rgcs_fini(struct rgcs_fs *fs);

/* Child NAME of G, or NULL. */
struct rgcs_group *rgcs_child(struct rgcs_group *g, const char *name);
/* -1 when NAME is no attribute file. */
int rgcs_attr_index(const char *name);
bool rgcs_attached(const struct rgcs_group *g);

int rgcs_mkdir(struct rgcs_fs *fs, struct rgcs_group *parent, const char *name);
int rgcs_rmdir(struct rgcs_fs *fs, struct rgcs_group *g);
void rgcs_group_get(struct rgcs_group *g);
void rgcs_group_put(struct rgcs_group *g);

/* Fill BUF (RGCS_PAGE + 1 bytes) with ATTR's text: length or -errno. */
long rgcs_show(struct rgcs_fs *fs, struct rgcs_group *g, enum rgcs_attr attr,
	       char *buf);
/* One write(2) of COUNT bytes to ATTR: 0 or -errno (configfs semantics:
 * at most one page minus one byte is looked at, cut at the first
 * non-printable byte). */
int rgcs_store(struct rgcs_fs *fs, struct rgcs_group *g, enum rgcs_attr attr,
	       const char *data, size_t count);

/* The kernel's simple_strtol(cp, endp, 0) of 2006 (no leading blanks, no
 * '+', wraps on overflow). */
long rgcs_simple_strtol(const char *cp, const char **endp);
/* The kernel's isprint() (Latin-1 0xa0-0xff count as printable). */
bool rgcs_isprint(unsigned char c);

/* Re-read PROC: drop tasks that are gone, add new ones to their parent's
 * group (children inherit the group at fork). */
int rgcs_refresh(struct rgcs_fs *fs);

#endif
