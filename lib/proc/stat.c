// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What the classifier reads of a process (kattr/rgproc.h): /proc/PID/stat
 * and status, parsed, and the exe link, all beneath the sysroot.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kattr/private_proc.h"

static int parse_u32(const char *s, char **end, uint32_t *v)
{
	unsigned long n;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	n = strtoul(s, end, 10);
	if (errno || n > UINT32_MAX)
		return -EINVAL;
	*v = (uint32_t)n;
	return 0;
}

/* The value of "Key:\t..." in status text, or NULL. */
static const char *status_field(const char *text, const char *key)
{
	size_t kl = strlen(key);
	const char *p = text;

	while (p && *p) {
		if (strncmp(p, key, kl) == 0 && p[kl] == ':') {
			p += kl + 1;
			while (*p == ' ' || *p == '\t')
				p++;
			return p;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return NULL;
}

/* The second number of an "Uid:" line: the effective id. */
static int effective_id(const char *v, uint32_t *id)
{
	char *end;
	uint32_t real;

	if (!v || parse_u32(v, &end, &real) < 0)
		return -EINVAL;
	while (*end == ' ' || *end == '\t')
		end++;
	return parse_u32(end, &end, id);
}

int kattr_proc_parse_status(const char *text, struct kattr_proc *p)
{
	const char *v;
	char *end;
	uint32_t n;

	if (effective_id(status_field(text, "Uid"), &p->uid) < 0 ||
	    effective_id(status_field(text, "Gid"), &p->gid) < 0)
		return -EINVAL;
	v = status_field(text, "PPid");
	if (!v || parse_u32(v, &end, &n) < 0 || n > INT_MAX)
		return -EINVAL;
	p->ppid = (pid_t)n;
	p->ngroups = 0;
	v = status_field(text, "Groups");
	while (v && *v && *v != '\n') {
		if (parse_u32(v, &end, &n) < 0)
			return -EINVAL;
		if (p->ngroups < KATTR_PROC_MAX_GROUPS)
			p->groups[p->ngroups++] = n;
		v = end;
		while (*v == ' ' || *v == '\t')
			v++;
	}
	v = status_field(text, "Kthread");
	p->kthread = (v && *v == '1') || p->ppid == 2 || p->pid == 2;
	return 0;
}

int kattr_proc_parse_stat(const char *text, struct kattr_proc *p)
{
	const char *open = strchr(text, '('), *close = strrchr(text, ')');
	unsigned long long flags, start;
	char state;
	int ppid;
	size_t n;

	if (!open || !close || close < open)
		return -EINVAL;
	n = (size_t)(close - open - 1);
	if (n >= sizeof(p->comm))
		n = sizeof(p->comm) - 1;
	memcpy(p->comm, open + 1, n);
	p->comm[n] = '\0';
	/* state ppid pgrp session tty_nr tpgid flags (9), ..., starttime (22) */
	if (sscanf(close + 1, " %c %d %*d %*d %*d %*d %llu %*u %*u %*u %*u %*u %*u"
		   " %*d %*d %*d %*d %*d %*d %llu", &state, &ppid, &flags, &start) != 4 ||
	    ppid < 0)
		return -EINVAL;
	p->ppid = ppid;
	p->starttime = start;
	p->kthread = (flags & 0x00200000ULL) != 0;	/* PF_KTHREAD */
	return 0;
}

int kattr_proc_read_at(const struct kattr_root *root, pid_t pid,
		       unsigned int what, struct kattr_proc *p)
{
	char path[64];
	char *text;
	bool kthread;
	ssize_t n;
	int r;

	memset(p, 0, sizeof(*p));
	p->pid = pid;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	r = kattr_root_file_read(root, path, &text, NULL);
	if (r < 0)
		return r == -ENOENT ? -ESRCH : r;
	r = kattr_proc_parse_stat(text, p);
	free(text);
	if (r < 0)
		return r;
	kthread = p->kthread;
	if (what & KATTR_PROC_IDS) {
		char comm[sizeof(p->comm)];
		pid_t ppid = p->ppid;

		uint64_t start = p->starttime;

		memcpy(comm, p->comm, sizeof(comm));
		snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
		r = kattr_root_file_read(root, path, &text, NULL);
		if (r < 0)
			return r == -ENOENT ? -ESRCH : r;
		r = kattr_proc_parse_status(text, p);
		free(text);
		if (r < 0)
			return r;
		memcpy(p->comm, comm, sizeof(comm));
		p->ppid = ppid;
		p->starttime = start;
		p->kthread = kthread;
	}
	snprintf(path, sizeof(path), "/proc/%d", (int)pid);
	if ((what & KATTR_PROC_EXE) && !p->kthread) {
		/* The link itself, read beneath the root. */
		int dfd = kattr_root_open_path(root, path, O_PATH | O_DIRECTORY);

		n = dfd >= 0 ? readlinkat(dfd, "exe", p->exe, sizeof(p->exe) - 1) : -1;
		p->exe[n > 0 ? n : 0] = '\0';
		if (dfd >= 0)
			close(dfd);
	}
	return 0;
}

int kattr_proc_read(pid_t pid, unsigned int what, struct kattr_proc *p)
{
	return kattr_proc_read_at(NULL, pid, what, p);
}
