/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where likelytop's profiles come from: a file or stdin, /proc/likely_prof,
 * tracefs trace_stat/branch_annotated, or user-space profiles
 * ($LIKELY_PROF_DIR/<pid>, written by programs built with likely_prof.h),
 * including a command likelytop runs itself (--exec).  The collector side:
 * it reads bytes and never draws.
 */
#ifndef LIKELYTOP_SOURCE_H
#define LIKELYTOP_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "kattr/kattr.h"

#define LT_PROC_PATH "/proc/likely_prof"
#define LT_TRACE_REL "trace_stat/branch_annotated"
#define LT_PROF_DIR_ENV "LIKELY_PROF_DIR"

enum lt_src_kind {
	LT_SRC_FILE,
	LT_SRC_STDIN,
	LT_SRC_PROC,
	LT_SRC_TRACEFS,
	LT_SRC_USER,		/* -p PID, detected, or --exec */
};

struct lt_source {
	enum lt_src_kind kind;
	char *name;		/* what messages call it */
	char *path;		/* FILE, PROC, USER: the file read */
	struct kattr_mount *mnt;	/* TRACEFS */
	pid_t pid;		/* USER: the profiled process */
	char *stdin_data;	/* STDIN: read once */
	size_t stdin_len;
	bool stdin_done;
	struct stat last;	/* FILE, USER: the file last read */
	bool have_last;
	bool read_trusted;	/* the last read's file has a stat that tells a
				 * change: no digest of its bytes needed */
	/* --exec */
	char *tmpdir;
	pid_t child;		/* 0 when none or reaped */
	bool child_exited;
	int child_status;	/* as waitpid() gives it */
};

/*
 * The directory user-space profiles go to: $LIKELY_PROF_DIR, else
 * $XDG_RUNTIME_DIR/likely_prof, else $HOME/.cache/likely_prof.
 * -ENAMETOOLONG, -ENOENT (none of the three variables set).
 */
int lt_prof_dir(char *buf, size_t size);

int lt_source_file(struct lt_source *s, const char *path);
/* -ENOENT when <dir>/<pid> does not exist. */
int lt_source_pid(struct lt_source *s, pid_t pid, char *dir, size_t dirsize);

/* What detection found missing, one line per source, for the message. */
struct lt_detect_report {
	char lines[3][512];
};
/* /proc/likely_prof, then tracefs, then the newest live user-space
 * profile.  -ENOENT with the report filled when there is none. */
int lt_source_detect(struct lt_source *s, struct lt_detect_report *r);

/*
 * Run argv with LIKELY_PROF_DIR set to a new private directory (mkdtemp,
 * 0700) and watch its profile.  The caller has blocked SIGCHLD (and the
 * other signals it reads from a signalfd); the child gets an empty mask.
 * out_fd/err_fd: where the child's stdout/stderr go (-1: /dev/null).
 * -errno; on failure to exec, the child's errno (nothing is left behind).
 */
int lt_source_exec(struct lt_source *s, char *const argv[], int out_fd,
		   int err_fd);
/* Reap the child if it exited; true when it has. */
bool lt_source_child_done(struct lt_source *s);

/*
 * Read the whole current profile into *buf (malloc'ed, NUL-terminated).
 * -ENOENT when a user-space profile has not been written yet.  Returns 1
 * (and no buffer) when a regular file is the very file read last time,
 * unchanged (same inode, size, mtime and ctime), on a filesystem whose
 * stat follows the content (fstatfs magic: ext4, xfs, tmpfs...): a
 * 200,000-site profile is not parsed again every second for nothing.
 * procfs, tracefs, FUSE and the like are always read: their stat stays
 * put while the content moves.
 */
int lt_source_read(struct lt_source *s, char **buf, size_t *len);

/* Stop the child (SIGTERM), remove the --exec directory, free. */
void lt_source_close(struct lt_source *s);

#endif
