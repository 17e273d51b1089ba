// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Resource groups, the bottom of the layer: what the backends (cgroup.c,
 * cgroup1*.c, cgroup2.c, rgcs.c), the parts (batch.c, ctl.c, hier.c,
 * walk.c, rgstats.c, ...) and rg.c share.  The handle's accessors, a
 * group's paths and files, a refused create's reason, the attach targets
 * and the generic members reader.  It calls only rg_parse.c and the
 * layers below rg/, never up into a backend or rg.c (tests/lib/layers.sh).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kattr/rg.h"
#include "kattr/private_rg.h"
#include "rg_internal.h"

/* ---- the handle ----------------------------------------------------------- */

enum kattr_rg_backend kattr_rg_backend_of(const struct kattr_rg *rg)
{
	return rg->ops->id;
}

const char *kattr_rg_root(const struct kattr_rg *rg)
{
	return kattr_mount_path(rg->m);
}

const struct kattr_root *kattr_rg_root_handle(const struct kattr_rg *rg)
{
	return rg->root;
}

struct kattr_mount *kattr_rg_mount(const struct kattr_rg *rg)
{
	return rg->m;
}

bool kattr_rg_has_shares(const struct kattr_rg *rg)
{
	return rg->has_shares;
}

const char *kattr_rg_share_file(const struct kattr_rg *rg)
{
	return rg->ops->shares_file;
}

int rg_file_has_word(struct kattr_mount *m, const char *rel, const char *word)
{
	char *text, *save, *tok;
	bool found = false;
	int ret = kattr_read_alloc(m, rel, &text, NULL);

	if (ret < 0)
		return ret;
	for (tok = strtok_r(text, " \n", &save); tok && !found;
	     tok = strtok_r(NULL, " \n", &save))
		found = strcmp(tok, word) == 0;
	free(text);
	return found;
}

/* ---- groups ------------------------------------------------------------- */

/* "group/file", "file" for the root, "." or "group" when file is NULL. */
int rg_gpath(char *buf, size_t size, const char *group, const char *file)
{
	int n;

	if (kattr_rg_name_is_root(group))
		n = snprintf(buf, size, "%s", file ? file : ".");
	else
		n = snprintf(buf, size, "%s%s%s", group, file ? "/" : "",
			     file ? file : "");
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

int kattr_rg_exists(struct kattr_rg *rg, const char *group)
{
	char path[PATH_MAX];
	struct stat st;
	int ret;

	ret = kattr_rg_name_check(group, true, NULL);
	if (ret < 0)
		return ret;
	ret = rg_gpath(path, sizeof(path), group, NULL);
	if (ret < 0)
		return ret;
	ret = kattr_stat(rg->m, path, &st);
	if (ret < 0)
		return ret;
	return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

int kattr_rg_group_open(struct kattr_rg *rg, const char *group, int flags)
{
	char path[PATH_MAX];
	int ret = rg_gpath(path, sizeof(path), group, NULL);

	if (ret < 0)
		return ret;
	return kattr_open(rg->m, path, flags | O_DIRECTORY);
}

int rg_group_read(struct kattr_rg *rg, const char *group, const char *file,
		  char **text)
{
	char path[PATH_MAX];
	int ret;

	ret = rg_gpath(path, sizeof(path), group, file);
	if (ret < 0)
		return ret;
	return kattr_read_alloc(rg->m, path, text, NULL);
}

int rg_read_pids(struct kattr_rg *rg, const char *group, const char *file,
		 pid_t **pids, size_t *n)
{
	char *text;
	int ret;

	ret = rg_group_read(rg, group, file, &text);
	if (ret < 0)
		return ret;
	ret = kattr_rg_parse_pids(text, pids, n);
	free(text);
	/* not a list of ids: not what the kernel writes there */
	return ret == -EINVAL ? -EBADMSG : ret;
}

int rg_members_read(struct kattr_rg *rg, const char *group,
		    unsigned int flags, pid_t **pids, size_t *n)
{
	return rg_read_pids(rg, group, (flags & KATTR_RG_THREADS) ?
			    rg->ops->tasks_file : rg->ops->procs_file, pids, n);
}

/* ---- a refused create ----------------------------------------------------- */

/* Each code's words when the caller's struct kattr_why has no buf. */
static const char *const why_short[] = {
	[KATTR_RG_WHY_DEPTH] = "RGCS groups nest at most 5 levels below the root",
	[KATTR_RG_WHY_NO_SHARES] = "no shares there",
	[KATTR_RG_WHY_PARENT] = "its parent group does not exist",
	[KATTR_RG_WHY_ATTR] = "an attribute file of that name is there (not a group)",
	[KATTR_RG_WHY_ATTR_ABOVE] = "a component of the name is an attribute file, not a group",
	[KATTR_RG_WHY_HOOK] = "cannot mark it as made by this tool",
	[KATTR_RG_WHY_HIER] = "another cgroup v1 hierarchy refused it",
};

int rg_reason(struct kattr_why *w, enum kattr_rg_why what, int err,
	      const char *fmt, ...)
{
	size_t n = sizeof(why_short) / sizeof(why_short[0]);
	va_list ap;

	va_start(ap, fmt);
	err = kattr_why_vfmt(w, what, err, (size_t)what < n && why_short[what] ?
			     why_short[what] : fmt, fmt, ap);
	va_end(ap);
	return err;
}

/* ---- attach targets ------------------------------------------------------ */

int rg_attach_pid(int fd, pid_t pid, unsigned int flags)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%d", (int)pid);
	ssize_t w = write(fd, buf, (size_t)len);

	(void)flags;
	if (w < 0)
		return -errno;
	return w == len ? 0 : -EIO;
}

/*
 * Every thread of pid, one write each, until a pass finds no new thread: a
 * thread that ended meanwhile is no failure, one that keeps appearing after
 * RG_THREAD_PASSES passes is (-EAGAIN: the process spawns faster than it
 * can be moved).
 */
#define RG_THREAD_PASSES 16
int rg_attach_threads(const struct kattr_root *root, int fd, pid_t pid)
{
	pid_t *done = NULL, *tids, *tmp;
	size_t ndone = 0, n;
	bool fresh = true;
	int ret = 0;

	for (int pass = 0; pass < RG_THREAD_PASSES && fresh && ret == 0; pass++) {
		fresh = false;
		ret = kattr_proc_tids(root, pid, &tids, &n);
		if (ret < 0)
			break;
		tmp = realloc(done, (ndone + n) * sizeof(*done));
		if (!tmp) {
			free(tids);
			ret = -ENOMEM;
			break;
		}
		done = tmp;
		for (size_t i = 0; i < n && ret == 0; i++) {
			if (kattr_pid_in(done, ndone, tids[i]))
				continue;
			fresh = true;
			ret = rg_attach_pid(fd, tids[i], 0);
			if (ret == -ESRCH && tids[i] != pid)
				ret = 0;	/* that thread ended */
			done[ndone++] = tids[i];
		}
		free(tids);
	}
	free(done);
	return ret == 0 && fresh ? -EAGAIN : ret;
}

const char *rg_target_file(const struct kattr_rg *rg, unsigned int flags)
{
	return (flags & KATTR_RG_THREADS) ? rg->ops->attach_proc :
	       rg->ops->attach_task;
}

int rg_target_write(const struct kattr_rg_target *t, int fd, pid_t pid)
{
	if (t->each_thread)
		return rg_attach_threads(t->rg->root, fd, pid);
	return t->rg->ops->attach(fd, pid, t->flags);
}

int rg_target_open(struct kattr_rg *rg, const char *group, unsigned int flags,
		   struct kattr_rg_target **out)
{
	const char *file = rg_target_file(rg, flags);
	struct kattr_rg_target *t;
	char path[PATH_MAX];
	int ret;

	ret = rg_gpath(path, sizeof(path), group, file);
	if (ret < 0)
		return ret;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->fd = kattr_open(rg->m, path, O_WRONLY);
	if (t->fd == -ENOENT && (flags & KATTR_RG_THREADS) &&
	    strcmp(file, rg->ops->attach_task) != 0 &&
	    rg_gpath(path, sizeof(path), group, rg->ops->attach_task) == 0) {
		/* no cgroup.procs (old v1 kernels): each thread through tasks */
		t->fd = kattr_open(rg->m, path, O_WRONLY);
		t->each_thread = true;
	} else if ((flags & KATTR_RG_THREADS) && rg->ops->id == KATTR_RG_RGCS) {
		t->each_thread = true;	/* RGCS moves one task per write */
	}
	if (t->fd < 0) {
		ret = t->fd;
		free(t);
		return ret;
	}
	t->rg = rg;
	t->flags = flags;
	*out = t;
	return 0;
}

void kattr_rg_target_close(struct kattr_rg_target *t)
{
	if (!t)
		return;
	close(t->fd);
	for (size_t i = 0; i < t->nspan; i++)
		close(t->span_fd[i]);
	free(t);
}

int kattr_rg_target_attach(struct kattr_rg_target *t, pid_t pid)
{
	if (pid <= 0)
		return -EINVAL;
	if (t->nspan)
		return t->rg->ops->span_attach(t, pid);
	return rg_target_write(t, t->fd, pid);
}
