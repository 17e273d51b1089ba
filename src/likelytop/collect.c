// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * likelytop's collection: the source opened, the event loop's file
 * descriptors, and each refresh's read into the model (lt_collect()),
 * which both the batch loop (batch.c) and the live view (view.c) call.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "esc.h"
#include "likelytop.h"
#include "tool.h"

/* tool_strerror(), with the words of the profile readers' own causes. */
const char *lt_strerror(int e)
{
	if (e == -ENODATA)
		return "no profile rows (not a likely_prof, branch_annotated or branch_all profile)";
	if (e == -EFBIG)
		return "too large (more than 64 MiB)";
	return tool_strerror(e);
}

double lt_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* -p PID: say when the profiled process is gone (its last snapshot stays). */
static void note_exited(struct lt_app *a)
{
	if (a->src.kind != LT_SRC_USER || a->src.tmpdir || a->src.pid <= 0 ||
	    kill(a->src.pid, 0) == 0 || errno != ESRCH)
		return;
	snprintf(a->status, sizeof(a->status),
		 "process %d has exited: this is its last snapshot",
		 (int)a->src.pid);
}

/*
 * A 64-bit digest of a snapshot's bytes, four words a step: a procfs,
 * tracefs or FUSE file has no stat that tells a change, so the bytes do
 * (a static 200,000-site profile is 15 MB hashed in about a millisecond,
 * instead of parsed again every refresh).
 */
static uint64_t digest(const char *s, size_t n)
{
	const uint64_t m = 0x9e3779b97f4a7c15ULL;
	uint64_t h[4] = { n, m, ~n, m ^ n }, w;
	size_t i = 0;

	for (; i + 32 <= n; i += 32)
		for (int j = 0; j < 4; j++) {
			memcpy(&w, s + i + 8 * j, 8);
			h[j] = (h[j] ^ w) * m;
			h[j] ^= h[j] >> 29;
		}
	for (; i < n; i++)
		h[i & 3] = (h[i & 3] ^ (unsigned char)s[i]) * m;
	w = h[0] ^ (h[1] * 3) ^ (h[2] * 5) ^ (h[3] * 7);
	return w ^ (w >> 31);
}

int lt_collect(struct lt_app *a)
{
	static uint64_t last_digest;
	static bool have_digest;
	uint64_t d;
	enum kattr_profile_format before = a->model.raw ? a->model.raw->format : 0;
	char *buf;
	size_t len;
	int ret;

	ret = lt_source_read(&a->src, &buf, &len);
	if (ret == -ENOENT && a->src.kind == LT_SRC_USER && !a->model.raw) {
		snprintf(a->status, sizeof(a->status),
			 "waiting for the first snapshot in %s", TOOL_Q(a->src.path));
		a->last_err = ret;
		return ret;
	}
	if (ret < 0) {
		snprintf(a->status, sizeof(a->status), "cannot read %s: %s",
			 TOOL_Q(a->src.name), lt_strerror(ret));
		a->last_err = ret;
		return ret;
	}
	/* Bytes that are the last snapshot's again: unchanged too.  A file
	 * whose stat tells a change (read_path()) changed: no hash (1.5 ms
	 * for 15 MB, a tenth of a refresh). */
	if (ret == 0 && a->src.read_trusted) {
		have_digest = false;
	} else if (ret == 0) {
		d = digest(buf, len);
		if (have_digest && d == last_digest && a->model.raw &&
		    !a->last_err) {
			free(buf);
			ret = 1;
		}
		last_digest = d;
		have_digest = true;
	}
	if (ret == 1) {		/* the same file, unchanged */
		a->last_err = 0;
		a->model.format_changed = false;
		ret = lt_model_unchanged(&a->model, lt_now()) ? 0 : 1;
		note_exited(a);
		return ret;
	}
	ret = lt_model_update(&a->model, buf, len, lt_now(), &a->bad_rows);
	a->last_err = ret;
	if (ret == -EBADMSG) {
		snprintf(a->status, sizeof(a->status),
			 "%s: no valid rows: all %zu rows are malformed", TOOL_Q(a->src.name),
			 a->bad_rows);
		return ret;
	}
	if (ret < 0) {
		snprintf(a->status, sizeof(a->status), "%s: %s", TOOL_Q(a->src.name),
			 lt_strerror(ret));
		return ret;
	}
	a->status[0] = '\0';
	if (a->model.format_changed)
		snprintf(a->status, sizeof(a->status),
			 "%s changed format from %s to %s: rates restart",
			 TOOL_Q(a->src.name), kattr_profile_format_name(before),
			 kattr_profile_format_name(a->model.raw->format));
	else if (a->bad_rows)
		snprintf(a->status, sizeof(a->status),
			 "%s: skipped %zu malformed rows", TOOL_Q(a->src.name),
			 a->bad_rows);
	note_exited(a);
	return 0;
}

void lt_arm_timer(struct lt_app *a)
{
	struct itimerspec its;
	double d = a->o.delay;

	its.it_value.tv_sec = (time_t)d;
	its.it_value.tv_nsec = (long)((d - floor(d)) * 1e9);
	if (!its.it_value.tv_sec && !its.it_value.tv_nsec)
		its.it_value.tv_nsec = 1;
	its.it_interval = its.it_value;
	(void)timerfd_settime(a->tfd, 0, &its, NULL);
}
void lt_app_free(struct lt_app *a)
{
	lt_source_close(&a->src);
	lt_model_free(&a->model);
}

void lt_setup_loop(struct lt_app *a)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGQUIT);
	sigaddset(&set, SIGWINCH);
	sigaddset(&set, SIGCHLD);
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0)
		tool_die(EXIT_FAIL, "cannot block signals: %s", lt_strerror(errno));
	a->sfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	a->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	if (a->sfd < 0 || a->tfd < 0)
		tool_die(EXIT_FAIL, "cannot set up the event loop: %s",
			 lt_strerror(errno));
}
void lt_open_source(struct lt_app *a)
{
	struct lt_detect_report r;
	char dir[PATH_MAX];
	int ret;

	if (a->o.file) {
		ret = lt_source_file(&a->src, a->o.file);
	} else if (a->o.pid) {
		ret = lt_source_pid(&a->src, a->o.pid, dir, sizeof(dir));
		if (ret == -ENOENT && a->src.path)
			tool_die(EXIT_FAIL, "process %d does not seem to be profiled: no %s (a program built with likely_prof.h writes $LIKELY_PROF_DIR/PID; looked in %s)",
				 (int)a->o.pid, a->src.path, dir);
		if (ret == -ENOENT)
			tool_die(EXIT_FAIL, "process %d: cannot tell where profiles are: set LIKELY_PROF_DIR (or XDG_RUNTIME_DIR or HOME)",
				 (int)a->o.pid);
		if (ret == -EINVAL)
			tool_die(EXIT_FAIL, "%s is %s, not a regular file: refused (a profile is a file the profiled process writes)",
				 a->src.path, tool_file_kind(a->src.path));
		if (ret < 0)
			tool_die(EXIT_FAIL, "cannot read %s: %s", a->src.path,
				 lt_strerror(ret));
	} else if (a->o.exec_argv) {
		/* The live view owns the terminal: the command's output would
		 * garble it.  In batch mode it goes to our stderr, away from
		 * the output scripts parse. */
		ret = lt_source_exec(&a->src, a->o.exec_argv, a->o.batch ? 2 : -1,
				     a->o.batch ? 2 : -1);
		if (ret < 0)
			tool_die(EXIT_FAIL, "cannot run '%s': %s", a->o.exec_argv[0],
				 lt_strerror(ret));
	} else {
		ret = lt_source_detect(&a->src, &r);
		if (ret == -ENOENT) {
			tool_warn("no branch profile to show on this system:");
			for (int i = 0; i < 3; i++)
				if (r.lines[i][0])
					fprintf(stderr, "  %s\n", r.lines[i]);
			fprintf(stderr, "Give a saved profile with -f FILE.\n");
			exit(EXIT_FAIL);
		}
	}
	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot open the profile source: %s", lt_strerror(ret));
}
/*
 * The heap a snapshot of this source will need (text, entries, sort
 * keys: about three times the file), set aside at once in transparent
 * huge pages where the kernel gives them on request (THP "madvise"):
 * 200,000 sites touch 40 MB, some 10,000 page faults in 4 KiB pages, a
 * sixth of a batch pass's CPU time, against a few dozen.  The block is
 * freed at once and stays at the top of the heap (M_TRIM_THRESHOLD) for
 * the snapshot's buffers; nothing is touched here.
 */
void lt_reserve_heap(const struct lt_source *s)
{
	const size_t huge = 2 << 20, piece = 16 << 20;	/* below the mmap
							 * threshold: heap */
	char *p[16];
	struct stat st;
	size_t n = 0, want;

	if (!s->path || stat(s->path, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_size < (off_t)(4 << 20) || st.st_size > (off_t)KATTR_READ_MAX)
		return;
	want = 3 * (size_t)st.st_size;
	for (; n < 16 && n * piece < want && (p[n] = malloc(piece)); n++)
		/* the whole huge pages inside the piece */
		(void)madvise((void *)(((uintptr_t)p[n] + huge - 1) &
				       ~(uintptr_t)(huge - 1)),
			      piece - huge, MADV_HUGEPAGE);
	while (n)
		free(p[--n]);
}
