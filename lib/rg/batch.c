// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Creating groups in a batch (kattr_rg_create_batch()): many groups under
 * one parent, as "rgctl create G1 ... G1000" makes them.  The parent is
 * opened once in each place a group is made (rg->m; on cgroup v1 each
 * hierarchy the group spans) and held, so each group after the first
 * costs one mkdirat(2) per place, relative to the held descriptor, and
 * its parents are not looked for again once a group was made below them.
 *
 * What makes that as safe as opening the parent by name each time: each
 * descriptor was opened beneath its mount as every other (kattr_open(): no
 * symlink, no "..", no other mount; the mount's type checked when it was
 * opened), and what is made below it is one component, neither "." nor
 * "..".  What it may change: a parent renamed meanwhile by another tool
 * gets the later groups (as if the whole call had run before the rename).
 * A held parent removed (or removed and made again) makes the mkdirat
 * fail; kattr_rg_create() then drops what the batch holds, undoes what
 * it made and makes the group once more by name, so the outcome is the
 * one without a batch.  Anything removed through the handle drops it too.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kattr/rg.h"
#include "kattr/private_rg.h"
#include "rg_internal.h"

/* name's last component; *plen: the length of its parent's name. */
static const char *base_of(const char *name, size_t *plen)
{
	const char *slash = strrchr(name, '/');

	*plen = slash ? (size_t)(slash - name) : 0;
	return slash ? slash + 1 : name;
}

/* A component mkdirat(2) may take relative to the parent: a real name. */
static bool plain(const char *base)
{
	return *base && strcmp(base, ".") != 0 && strcmp(base, "..") != 0;
}

void rg_batch_drop(struct kattr_rg *rg)
{
	struct rg_batch *b = &rg->batch;

	for (size_t i = 0; i < RG_MAX_HIER; i++)
		if (b->opened & (1u << i))
			close(b->fd[i]);
	b->opened = 0;
	free(b->parent);
	b->parent = NULL;
	b->known = false;
}

void kattr_rg_create_batch(struct kattr_rg *rg, bool on)
{
	rg_batch_drop(rg);
	rg->batch.on = on;
}

/* Whether the batch holds the parent of name (plen bytes of it). */
static bool holds(const struct rg_batch *b, const char *name, size_t plen)
{
	return b->on && b->parent && strlen(b->parent) == plen &&
	       memcmp(b->parent, name, plen) == 0;
}

/* Hold the parent of name (plen bytes), dropping another one held. */
static int hold(struct kattr_rg *rg, const char *name, size_t plen)
{
	struct rg_batch *b = &rg->batch;

	if (holds(b, name, plen))
		return 0;
	rg_batch_drop(rg);
	b->parent = strndup(name, plen);
	return b->parent ? 0 : -ENOMEM;
}

int rg_mkdir_in(struct kattr_rg *rg, size_t i, struct kattr_mount *m,
		const char *name)
{
	struct rg_batch *b = &rg->batch;
	size_t plen;
	const char *base = base_of(name, &plen);
	int ret;

	if (!b->on || name[0] == '/' || !plain(base) || i >= RG_MAX_HIER)
		return kattr_mkdir(m, name, 0755);
	ret = hold(rg, name, plen);
	if (ret < 0)
		return ret;
	if (!(b->opened & (1u << i))) {
		int fd = kattr_open(m, plen ? b->parent : ".", O_PATH | O_DIRECTORY);

		if (fd < 0)
			return fd;
		b->fd[i] = fd;
		b->opened |= 1u << i;
	}
	return mkdirat(b->fd[i], base, 0755) < 0 ? -errno : 0;
}

bool rg_batch_known(const struct kattr_rg *rg, const char *name)
{
	const struct rg_batch *b = &rg->batch;
	size_t n = strlen(name);

	return b->on && b->known && b->parent &&
	       strncmp(b->parent, name, n) == 0 &&
	       (b->parent[n] == '\0' || b->parent[n] == '/');
}

void rg_batch_made(struct kattr_rg *rg, const char *group)
{
	size_t plen;

	if (!rg->batch.on)
		return;
	base_of(group, &plen);
	if (hold(rg, group, plen) == 0)
		rg->batch.known = true;
}

int rg_batch_group_open(struct kattr_rg *rg, const char *group, int flags)
{
	const struct rg_batch *b = &rg->batch;
	size_t plen;
	const char *base = base_of(group, &plen);
	int fd;

	if (!holds(b, group, plen) || !(b->opened & 1u) || !plain(base))
		return kattr_rg_group_open(rg, group, flags);
	fd = kattr_openat2(b->fd[0], base, flags | O_DIRECTORY | O_NOFOLLOW,
			   RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
			   RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV);
	return fd == -ENOSYS ? kattr_rg_group_open(rg, group, flags) : fd;
}

/* Undo one create step (rg_ops.mkdir's made bits): every rmdir through the
 * handle drops what a batch holds first. */
void rg_rmdir_made(struct kattr_rg *rg, const char *name, unsigned int made)
{
	rg_batch_drop(rg);
	for (size_t i = 1; i < rg->nhier; i++)
		if ((made & (1u << i)) && rg->hier[i].m)
			kattr_rmdir(rg->hier[i].m, name);
	if (made & 1u)
		kattr_rmdir(rg->m, name);
}
