// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rgctl on a systemd host.  systemd is the single writer of the cgroup v2
 * tree except inside the subtrees it delegated (a service or scope with
 * Delegate=yes; systemd 251 and later mark such a unit's cgroup with the
 * xattr trusted.delegate=1, user.delegate=1 for a user manager since 254).
 *
 * Detection: PID 1 is systemd (/proc/1/comm) and the cgroup v2 tree has
 * init.scope; both are read beneath --sysroot, so a captured tree works.
 * There the default root is rgctl's own delegated subtree,
 * rgctl.slice/rgctl.service (shipped with rgctl), and creating, deleting,
 * setting shares or moving tasks outside a delegated subtree is refused
 * naming the unit that owns the group, unless --force.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "kattr/private_core.h"
#include "rgctl.h"
#include "rgctl_systemd.h"
#include "strutils.h"

#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif

static struct rgctl_sd sd;
static bool probed;

/* The first line of an absolute file beneath the sysroot, or "". */
static void first_line(const char *path, char *buf, size_t size)
{
	char *text = NULL;

	buf[0] = '\0';
	if (kattr_root_file_read(tool_root(), path, &text, NULL) < 0)
		return;
	text[strcspn(text, "\n")] = '\0';
	snprintf(buf, size, "%s", text);
	free(text);
}

const struct rgctl_sd *rgctl_sd_probe(void)
{
	char comm[64];
	struct stat st;

	if (probed)
		return &sd;
	probed = true;
	first_line("/proc/1/comm", comm, sizeof(comm));
	sd.pid1 = strcmp(comm, "systemd") == 0;
	if (kattr_mountinfo_find_at(tool_root(), "cgroup2", NULL, &sd.mnt) < 0) {
		sd.mnt = NULL;
		return &sd;
	}
	if (kattr_mount_open_at(tool_root(), sd.mnt, CGROUP2_SUPER_MAGIC, 0, &sd.m) < 0) {
		sd.m = NULL;
		return &sd;
	}
	sd.init_scope = kattr_stat(sd.m, "init.scope", &st) == 0 &&
			S_ISDIR(st.st_mode);
	sd.manages = sd.pid1 && sd.init_scope;
	sd.subtree_present = sd.manages &&
			     kattr_stat(sd.m, RGCTL_SD_SUBTREE, &st) == 0 &&
			     S_ISDIR(st.st_mode);
	return &sd;
}

/* Whether rg is the cgroup v2 hierarchy systemd manages. */
static bool managed(const struct kattr_rg *rg)
{
	return rg && kattr_rg_backend_of(rg) == KATTR_RG_CGROUP2 &&
	       rgctl_sd_probe()->manages;
}

/*
 * Where rg's root lies in the v2 tree ("" for the tree's root,
 * "rgctl.slice/rgctl.service"), into buf; -EXDEV when it is not beneath
 * the mount systemd manages (another cgroup2 mount).
 */
static int root_rel(const struct kattr_rg *rg, char *buf, size_t size)
{
	const char *root = kattr_rg_root(rg), *mnt = sd.mnt;
	size_t ml = strcmp(mnt, "/") ? strlen(mnt) : 0;

	if (strncmp(root, mnt, ml) != 0 || (root[ml] && root[ml] != '/'))
		return -EXDEV;
	root += ml;
	while (*root == '/')
		root++;
	snprintf(buf, size, "%s", root);
	return 0;
}

const char *rgctl_sd_pick_root(const struct kattr_rg *rg, char *buf, size_t size)
{
	const struct rgctl_sd *s;
	char rel[PATH_MAX];

	if (!managed(rg))
		return NULL;
	s = rgctl_sd_probe();
	/* Detection found the whole tree: rgctl's delegated subtree. */
	if (root_rel(rg, rel, sizeof(rel)) < 0 || rel[0] || !s->subtree_present)
		return NULL;
	snprintf(buf, size, "%s%s" RGCTL_SD_SUBTREE, s->mnt,
		 strcmp(s->mnt, "/") ? "/" : "");
	return buf;
}

/* A cgroup named as systemd names a unit's (the units that have one). */
static bool unit_name(const char *s, size_t len)
{
	static const char *const suffixes[] = {
		".slice", ".service", ".scope", ".socket", ".mount", ".swap",
	};

	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++)
		if (len > strlen(suffixes[i]) && str_ends_with_n(s, len, suffixes[i]))
			return true;
	return false;
}

/* systemd's delegation mark on the cgroup rel of the v2 tree. */
static bool delegated(const char *rel)
{
	static const char *const names[] = { "trusted.delegate", "user.delegate" };
	char v[8];
	int fd;
	bool yes = false;

	fd = kattr_open(sd.m, rel, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return false;
	for (size_t i = 0; i < 2 && !yes; i++) {
		ssize_t n = fgetxattr(fd, names[i], v, sizeof(v) - 1);

		if (n > 0) {
			v[n] = '\0';
			yes = strcmp(v, "1") == 0;
		}
	}
	close(fd);
	return yes;
}

int rgctl_sd_owner(struct kattr_rg *rg, const char *group,
		   struct rgctl_sd_owner *o)
{
	char rel[PATH_MAX], path[PATH_MAX];
	size_t len;
	int ret;

	memset(o, 0, sizeof(*o));
	if (!managed(rg))
		return -ENOENT;
	ret = root_rel(rg, rel, sizeof(rel));
	if (ret < 0)
		return ret;
	if (kattr_rg_name_is_root(group))
		snprintf(path, sizeof(path), "%s", rel);
	else if ((size_t)snprintf(path, sizeof(path), "%s%s%s", rel,
				  rel[0] ? "/" : "", group) >= sizeof(path))
		return -ENAMETOOLONG;
	snprintf(o->path, sizeof(o->path), "%s", path);
	snprintf(o->unit, sizeof(o->unit), "-.slice");
	/* The deepest component named as a unit owns the group. */
	len = strlen(path);
	for (size_t end = 0; end <= len; end++) {
		size_t start;

		if (path[end] != '/' && path[end] != '\0')
			continue;
		start = end;
		while (start > 0 && path[start - 1] != '/')
			start--;
		if (end > start && unit_name(path + start, end - start)) {
			snprintf(o->unit, sizeof(o->unit), "%.*s", (int)(end - start),
				 path + start);
			snprintf(o->unit_path, sizeof(o->unit_path), "%.*s", (int)end, path);
			o->is_unit_cgroup = end == len;
		}
	}
	o->delegated = o->unit_path[0] && delegated(o->unit_path);
	return 0;
}

/* "/sys/fs/cgroup" or "/sys/fs/cgroup/system.slice", into b; full(rel)
 * into a buffer of the caller's block (as TOOL_Q()). */
static const char *full_into(const char *rel, char *b, size_t size)
{
	snprintf(b, size, "%s%s%s", sd.mnt, rel[0] ? "/" : "", TOOL_Q(rel));
	return b;
}
#define full(rel) full_into((rel), (char[RGCTL_FILE_TEXT]){ 0 }, RGCTL_FILE_TEXT)

static const char *verb(enum rgctl_sd_op op)
{
	switch (op) {
	case RGCTL_SD_CREATE:
		return "create";
	case RGCTL_SD_DELETE:
		return "delete";
	case RGCTL_SD_SHARES:
		return "set the shares of";
	case RGCTL_SD_ENABLE:
		return "enable cpu in";
	default:
		return "move tasks to";
	}
}

void rgctl_sd_check(struct rgctl *ctx, const char *group, enum rgctl_sd_op op)
{
	struct rgctl_sd_owner o;
	struct kattr_rg *rg = rgctl_rg(ctx);
	/* The unit's own cgroup: its processes and cgroup.subtree_control
	 * are the delegatee's, its attributes (cpu.weight) systemd's. */
	bool own_ok = op == RGCTL_SD_ATTACH || op == RGCTL_SD_ENABLE;

	if (ctx->force || rgctl_sd_owner(rg, group, &o) < 0)
		return;
	if (o.delegated && (!o.is_unit_cgroup || own_ok))
		return;
	if (o.delegated)
		tool_die(EXIT_FAIL, "cannot %s '%s': %s is the cgroup of %s itself, whose "
			 "attributes systemd manages (make groups below it); --force does it anyway",
			 verb(op), TOOL_Q(group), full(o.path), TOOL_Q(o.unit));
	tool_die(EXIT_FAIL, "cannot %s '%s': %s belongs to %s, which systemd manages and has "
		 "not delegated; use rgctl's delegated subtree %s (systemctl start rgctl.service; "
		 "rgctl's default root), or --root a unit with Delegate=yes "
		 "(systemd-run --scope -p Delegate=yes COMMAND); --force writes anyway, and "
		 "systemd may then move the tasks back or remove the groups",
		 verb(op), TOOL_Q(group), full(o.path), TOOL_Q(o.unit),
		 RGCTL_SD_SUBTREE);
}

void rgctl_sd_check_enable(struct rgctl *ctx, const char *group)
{
	struct kattr_rg_cpu_path miss;
	struct kattr_rg *rg = rgctl_rg(ctx);

	if (ctx->force || !managed(rg) || kattr_rg_cpu_missing(rg, group, &miss) < 0)
		return;
	for (size_t i = 0; i < miss.n; i++)
		if (kattr_rg_exists(rg, miss.groups[i]) == 0)
			rgctl_sd_check(ctx, miss.groups[i], RGCTL_SD_ENABLE);
	kattr_rg_cpu_path_free(&miss);
}

json_object *rgctl_sd_json(struct kattr_rg *rg)
{
	const struct rgctl_sd *s = rgctl_sd_probe();
	json_object *o = json_object_new_object();
	struct rgctl_sd_owner own;

	json_object_object_add(o, "pid1", json_object_new_boolean(s->pid1));
	json_object_object_add(o, "init_scope", json_object_new_boolean(s->init_scope));
	json_object_object_add(o, "manages", json_object_new_boolean(managed(rg)));
	if (managed(rg) && rgctl_sd_owner(rg, "/", &own) == 0) {
		json_object_object_add(o, "unit", tool_json_str(own.unit));
		json_object_object_add(o, "delegated", json_object_new_boolean(own.delegated));
	}
	return o;
}

void rgctl_sd_print(struct kattr_rg *rg)
{
	struct rgctl_sd_owner own;

	if (!managed(rg) || rgctl_sd_owner(rg, "/", &own) < 0)
		return;
	if (own.delegated)
		printf("systemd manages %s; rgctl writes in %s, delegated by %s\n",
		       sd.mnt, full(own.path), TOOL_Q(own.unit));
	else
		printf("systemd manages %s; %s belongs to %s, not delegated: rgctl only reads here "
		       "(systemctl start rgctl.service for %s)\n", sd.mnt,
		       full(own.path), TOOL_Q(own.unit), RGCTL_SD_SUBTREE);
}

/*
 * The service manager's notification protocol (sd_notify(3), documented
 * as stable): one datagram of "KEY=VALUE" lines to the AF_UNIX socket
 * named by $NOTIFY_SOCKET, a path, or an abstract name written with a
 * leading '@'.  The socket is made once and kept (watchdog pings).
 * 0 when sent or no manager listens ($NOTIFY_SOCKET unset), else -errno.
 */
static int notify_send(const char *state)
{
	static int fd = -1;
	const char *e = getenv("NOTIFY_SOCKET");
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct iovec iov = { (void *)state, strlen(state) };
	struct msghdr mh = { .msg_name = &sa, .msg_iov = &iov, .msg_iovlen = 1 };
	size_t len;

	if (!e || !*e)
		return 0;
	len = strlen(e);
	if (e[0] != '/' && e[0] != '@')
		return -EAFNOSUPPORT;	/* vsock: and others: not spoken */
	if (len > sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	memcpy(sa.sun_path, e, len);
	if (e[0] == '@')
		sa.sun_path[0] = '\0';	/* abstract: exactly len bytes */
	mh.msg_namelen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len);
	if (fd < 0)
		fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (sendmsg(fd, &mh, MSG_NOSIGNAL) < 0)
		return -errno;
	return 0;
}

void rgctl_sd_notify(const char *state)
{
	int ret = notify_send(state);

	if (ret < 0)
		tool_warn("cannot tell the service manager '%s' ($NOTIFY_SOCKET): %s",
			  state, tool_strerror(-ret));
}

uint64_t rgctl_sd_watchdog_usec(void)
{
	const char *us = getenv("WATCHDOG_USEC"), *pid = getenv("WATCHDOG_PID");
	unsigned long long v;
	char *end;

	if (!us || !*us || !getenv("NOTIFY_SOCKET"))
		return 0;
	/* Meant for another process (a wrapper's child): not ours. */
	if (pid && *pid && strtol(pid, NULL, 10) != (long)getpid())
		return 0;
	errno = 0;
	v = strtoull(us, &end, 10);
	return errno || *end ? 0 : (uint64_t)v;
}
