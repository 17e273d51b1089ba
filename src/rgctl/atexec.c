// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rgctl classify --at-exec: every program in its group before its first
 * instruction.  fanotify permission events (FAN_OPEN_EXEC_PERM, Linux
 * 5.0+) stop execve() while the file it runs is opened, until the
 * listener answers; the daemon predicts what the program will be, moves
 * it if a rule matches, then answers FAN_ALLOW.  The proc connector's
 * exec event confirms the prediction afterwards (cmd_classify.c).
 *
 * What a program will be, read while its execve() waits:
 *  - comm: the basename of the path given to execve (what the kernel
 *    names it after, not the resolved file: a symlink, a #! script), read
 *    from the caller's memory at the address /proc/PID/syscall shows;
 *    where that cannot be known (execveat of a descriptor, a thread other
 *    than the leader) the event file's basename, confirmed after;
 *  - uid, gid, groups: the caller's (/proc/PID/status), changed as a set-id
 *    program will change them;
 *  - exe: the event's file, unless it is a #! script (then the
 *    interpreter's event, next, carries it).
 * Each exec gives several events (the file, a script's interpreter, the
 * ELF interpreter): the registers /proc/PID/syscall shows are the same for
 * all of them, so only the first one that can decide is classified.
 *
 * Every event is answered, FAN_ALLOW, on every path: a failure to read
 * the process only means no prediction; every event read is classified,
 * and once a call has taken ATEXEC_BUDGET_MS no more are read in it (the
 * loop sees signals and the watchdog, then reads on); an answer the kernel refuses closes the fanotify group, which
 * allows everything it held, and marks anew.  Closing (SIGTERM, a
 * reload, any exit, SIGKILL) releases every waiting exec.  The daemon
 * must never exec while it holds marks: it would wait for itself.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <mntent.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fanotify.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "rgctl.h"
#include "rgctl_atexec.h"

#define SEEN_SLOTS	256	/* recent execs, by pid */
#define READS_PER_CALL	2	/* reads of the group per atexec_handle(): the
				 * loop sees signals and other events between */
#define MARKS_MAX	64	/* filesystems marked */
#define RUNNING_NS	500000000 /* an exec not asleep in its event: asked again
				  * (a vCPU of a loaded host stalls for 20 ms) */
#define PEND_MAX	64	/* events asked again */

struct seen {
	pid_t pid;
	bool final;		/* decided with the program's exe known */
	uint64_t key;		/* hash of /proc/PID/syscall: this exec */
};

struct pend {
	int fd;
	pid_t pid;
	uint64_t t0;
};

struct atexec {
	int fd;
	struct pend pend[PEND_MAX];	/* events whose process was not asleep */
	size_t npend;
	const struct kattr_rgconf *conf;
	bool fs_wide;		/* a rule without exe: filesystems marked */
	bool has_exe;		/* a rule with exe */
	bool broken;		/* an answer was refused: start anew */
	unsigned int needs;	/* kattr_rgconf_needs() */
	atexec_place_fn place;
	void *data;
	long pagesz;
	bool no_vm_readv;	/* no CONFIG_CROSS_MEMORY_ATTACH: /proc/PID/mem */
	struct seen seen[SEEN_SLOTS];
	struct atexec_stats st;
};

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

/* ---- what the program will be ------------------------------------------ */

/* A small /proc file into buf (NUL-terminated); its length or -errno. */
static ssize_t read_small(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	if (n < 0)
		n = -errno;
	close(fd);
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

/* The string at addr in pid's memory (a path), into out; 0 or -errno. */
/* The same through /proc/PID/mem, for a kernel without process_vm_readv
 * (CONFIG_CROSS_MEMORY_ATTACH unset): a read stops at an unmapped page. */
static ssize_t remote_mem(pid_t pid, unsigned long addr, char *out, size_t len)
{
	char file[64];
	ssize_t n;
	int fd;

	snprintf(file, sizeof(file), "/proc/%d/mem", (int)pid);
	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = pread(fd, out, len, (off_t)addr);
	close(fd);
	return n;
}

static int remote_str(struct atexec *a, pid_t pid, unsigned long addr, char *out,
		      size_t size)
{
	size_t first = (size_t)a->pagesz - addr % (size_t)a->pagesz;
	struct iovec local = { out, size - 1 }, remote[2];
	ssize_t n = -1;

	/* A transfer stops at an unmapped page, between elements only. */
	if (first > size - 1)
		first = size - 1;
	remote[0] = (struct iovec){ (void *)addr, first };
	remote[1] = (struct iovec){ (void *)(addr + first), size - 1 - first };
	if (!a->no_vm_readv) {
		n = process_vm_readv(pid, &local, 1, remote, first < size - 1 ? 2 : 1, 0);
		a->no_vm_readv = n < 0 && errno == ENOSYS;
	}
	if (a->no_vm_readv)
		n = remote_mem(pid, addr, out, size - 1);
	if (n < 0)
		return -errno;
	if (!memchr(out, '\0', (size_t)n))
		return -ENAMETOOLONG;
	return 0;
}

/*
 * The path pid gave execve (or execveat), while it waits in it, and a
 * key naming this exec (its registers).  -ENOENT when it cannot be known.
 */
static int exec_path(struct atexec *a, pid_t pid, char *path, size_t size,
		     uint64_t *key)
{
	char file[64], line[512];
	unsigned long arg[6];
	long nr;
	uint64_t h = 1469598103934665603ULL;
	int r;

	snprintf(file, sizeof(file), "/proc/%d/syscall", (int)pid);
	if (read_small(file, line, sizeof(line)) <= 0)
		return -ENOENT;
	/* "running": it queued the event and was preempted before it could
	 * sleep (or another thread execs): asked again later. */
	if (sscanf(line, "%ld %lx %lx %lx %lx %lx %lx", &nr, &arg[0], &arg[1], &arg[2],
		   &arg[3], &arg[4], &arg[5]) != 7)
		return -EAGAIN;
	for (const char *s = line; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	*key = h;
	if (nr == SYS_execve)
		r = remote_str(a, pid, arg[0], path, size);
	else if (nr == SYS_execveat)
		r = remote_str(a, pid, arg[1], path, size);
	else
		return -ENOENT;	/* another thread execs: the leader's regs */
	/* execveat(fd, "", AT_EMPTY_PATH): the name comes from the fd */
	return r < 0 || !path[0] ? -ENOENT : 0;
}

static bool is_script(int fd)
{
	char b[2];

	return pread(fd, b, 2, 0) == 2 && b[0] == '#' && b[1] == '!';
}

/* The ids after the exec: a set-id program (on a suid mount) changes them. */
static void setid_ids(int fd, struct kattr_proc *p)
{
	struct statvfs vfs;
	struct stat st;

	if (fstat(fd, &st) < 0 || !(st.st_mode & (S_ISUID | S_ISGID)) ||
	    (fstatvfs(fd, &vfs) == 0 && (vfs.f_flag & ST_NOSUID)))
		return;
	if (st.st_mode & S_ISUID)
		p->uid = st.st_uid;
	if ((st.st_mode & S_ISGID) && (st.st_mode & S_IXGRP))
		p->gid = st.st_gid;
}

/* Whether some rule could match a program named comm. */
static bool may_match(const struct kattr_rgconf *conf, const char *comm)
{
	for (size_t i = 0; i < conf->nrules; i++)
		if (!conf->rules[i].comm || strcmp(conf->rules[i].comm, comm) == 0)
			return true;
	return false;
}

/* Whether a rule before rule r looks at exe. */
static bool exe_before(const struct kattr_rgconf *conf, size_t r)
{
	for (size_t i = 0; i < r; i++)
		if (conf->rules[i].exe)
			return true;
	return false;
}

/*
 * Classify the exec of pid (its file open as fd) and place it.  false
 * when it is to be asked again (not asleep in its exec yet), unless last.
 */
static bool on_exec(struct atexec *a, pid_t pid, int fd, bool last)
{
	static struct kattr_proc p;	/* 5 KiB: not on the stack */
	char path[PATH_MAX], self[64], comm[17];
	const char *base;
	struct seen *s = &a->seen[(unsigned)pid % SEEN_SLOTS];
	uint64_t key = 0;
	bool known, script;
	ssize_t n;
	int r;

	r = exec_path(a, pid, path, sizeof(path), &key);
	if (r == -EAGAIN && !last)
		return false;
	known = r == 0;
	if (known && s->pid == pid && s->key == key && (s->final || !a->has_exe)) {
		a->st.repeats++;	/* the interpreter of an exec decided */
		return true;
	}
	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	if (!known) {
		/* The name of the file run: right unless reached by a link. */
		n = readlink(self, path, sizeof(path) - 1);
		path[n > 0 ? n : 0] = '\0';
		a->st.guessed++;
	}
	/* The kernel's name for it: the basename, 15 bytes at most. */
	base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	memset(comm, 0, sizeof(comm));
	memcpy(comm, base, strnlen(base, 15));
	script = a->has_exe || (a->needs & KATTR_PROC_IDS) ? is_script(fd) : false;
	*s = (struct seen){ .pid = known ? pid : 0, .key = key,
			    .final = !(script && a->has_exe) };
	if (!may_match(a->conf, comm))
		return true;
	a->st.classified++;
	if (a->needs & KATTR_PROC_IDS) {
		if (kattr_proc_read_at(tool_root(), pid, KATTR_PROC_IDS, &p) < 0)
			return true;	/* gone (killed while it waited) */
		if (!script)
			setid_ids(fd, &p);
	} else {
		memset(&p, 0, offsetof(struct kattr_proc, exe) + 1);
	}
	p.pid = pid;
	memcpy(p.comm, comm, sizeof(comm));
	p.exe[0] = '\0';
	if (a->has_exe && !script) {
		n = readlink(self, p.exe, sizeof(p.exe) - 1);
		p.exe[n > 0 ? n : 0] = '\0';
	}
	r = kattr_rgconf_match(a->conf, &p);
	/* A match no exe rule comes before is what the interpreter's event
	 * would find too: decided. */
	if (r >= 0 && !exe_before(a->conf, (size_t)r))
		s->final = true;
	if (r < 0)
		return true;
	a->st.placed++;
	a->place(a->data, &p, r);
	return true;
}

/* ---- answering ------------------------------------------------------------ */

static void answer(struct atexec *a, int fd)
{
	struct fanotify_response resp = { .fd = fd, .response = FAN_ALLOW };

	if (write(a->fd, &resp, sizeof(resp)) != (ssize_t)sizeof(resp)) {
		a->st.reply_failed++;
		a->broken = true;
	}
	close(fd);
	a->st.events++;
}

/* Answer each event of buf (n bytes), classifying when asked to. */
static void batch(struct atexec *a, const void *buf, ssize_t n, bool classify)
{
	const struct fanotify_event_metadata *m = buf;

	for (; FAN_EVENT_OK(m, n); m = FAN_EVENT_NEXT(m, n)) {
		if (m->fd < 0)
			continue;	/* FAN_NOFD: an overflow notice */
		if (m->vers != FANOTIFY_METADATA_VERSION)
			a->broken = true;	/* unreadable: answered by closing */
		else if (!classify || !(m->mask & FAN_OPEN_EXEC_PERM))
			;
		else if (!on_exec(a, m->pid, m->fd, a->npend == PEND_MAX)) {
			a->pend[a->npend++] = (struct pend){ m->fd, m->pid, now_ns() };
			continue;	/* asked again, answered then */
		}
		if (m->vers == FANOTIFY_METADATA_VERSION)
			answer(a, m->fd);
		else
			close(m->fd);
	}
}

static unsigned long drain(struct atexec *a, bool classify)
{
	char buf[4096] __attribute__((aligned(8)));
	unsigned long before = a->st.events;
	uint64_t t0 = now_ns();

	/* Closing: answer what came, boundedly; closing allows the rest. */
	for (int i = 0; i < (classify ? READS_PER_CALL : 4 * READS_PER_CALL); i++) {
		ssize_t n = read(a->fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;	/* EAGAIN: all answered */
		batch(a, buf, n, classify);
		if (classify && now_ns() - t0 > ATEXEC_BUDGET_MS * 1000000ULL) {
			a->st.over_budget++;	/* the rest waits for the next call */
			break;
		}
	}
	return a->st.events - before;
}

/* ---- marks -------------------------------------------------------------------- */

/* Filesystems that hold no programs (and some that cannot be marked). */
static bool pseudo_fs(const char *type)
{
	static const char *const types[] = {
		"proc", "sysfs", "cgroup", "cgroup2", "devpts", "mqueue", "debugfs",
		"tracefs", "securityfs", "pstore", "bpf", "configfs", "fusectl",
		"hugetlbfs", "binfmt_misc", "autofs", "efivarfs", "nsfs",
		"rpc_pipefs", "selinuxfs", "devtmpfs",
	};

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (strcmp(type, types[i]) == 0)
			return true;
	return false;
}

/* Mark every filesystem that can hold programs; their names into f. */
static int mark_filesystems(struct atexec *a, FILE *f)
{
	FILE *mt = setmntent("/proc/self/mounts", "re");
	dev_t done[MARKS_MAX];
	size_t ndone = 0;
	struct mntent *m;
	int err = 0;

	if (!mt)
		return -errno;
	while ((m = getmntent(mt)) && ndone < MARKS_MAX) {
		struct stat st;
		bool dup = false;

		if (pseudo_fs(m->mnt_type) || hasmntopt(m, "noexec") ||
		    stat(m->mnt_dir, &st) < 0)
			continue;
		for (size_t i = 0; i < ndone; i++)
			dup |= done[i] == st.st_dev;
		if (dup)
			continue;
		if (fanotify_mark(a->fd, FAN_MARK_ADD | FAN_MARK_FILESYSTEM,
				  FAN_OPEN_EXEC_PERM, AT_FDCWD, m->mnt_dir) < 0 &&
		    fanotify_mark(a->fd, FAN_MARK_ADD | FAN_MARK_MOUNT,
				  FAN_OPEN_EXEC_PERM, AT_FDCWD, m->mnt_dir) < 0) {
			if (errno == EINVAL && strcmp(m->mnt_dir, "/") == 0)
				err = -EINVAL;	/* no FAN_OPEN_EXEC_PERM at all */
			continue;
		}
		done[ndone++] = st.st_dev;
		fprintf(f, "%s%s (%s)", ndone > 1 ? ", " : "", m->mnt_dir, m->mnt_type);
	}
	endmntent(mt);
	return err ? err : ndone ? 0 : -ENOENT;
}

/* Mark the inode of each exe rule's file; their paths into f. */
static int mark_exes(struct atexec *a, FILE *f)
{
	size_t n = 0;

	for (size_t i = 0; i < a->conf->nrules; i++) {
		const char *exe = a->conf->rules[i].exe;

		if (!exe)
			continue;
		if (fanotify_mark(a->fd, FAN_MARK_ADD, FAN_OPEN_EXEC_PERM, AT_FDCWD, exe) < 0) {
			if (errno == EINVAL)
				return -EINVAL;
			fprintf(f, "%s%s (not marked: %s)", n++ ? ", " : "", exe,
				tool_strerror(errno));
			continue;
		}
		fprintf(f, "%s%s", n++ ? ", " : "", exe);
	}
	return 0;
}

static const char *init_cause(int err)
{
	switch (err) {
	case EPERM:
		return "permission denied (fanotify needs CAP_SYS_ADMIN)";
	case ENOSYS:
		return "the kernel has no fanotify (CONFIG_FANOTIFY)";
	case EINVAL:
		return "the kernel has no fanotify permission events "
		       "(CONFIG_FANOTIFY_ACCESS_PERMISSIONS; FAN_OPEN_EXEC_PERM needs Linux 5.0)";
	default:
		return tool_strerror(err);
	}
}

/* A fanotify group with the marks a->conf needs; what into msg. */
static int start(struct atexec *a, char *msg, size_t msgsz)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int r;

	a->fd = fanotify_init(FAN_CLASS_CONTENT | FAN_CLOEXEC | FAN_NONBLOCK |
			      FAN_UNLIMITED_QUEUE | FAN_UNLIMITED_MARKS,
			      O_RDONLY | O_LARGEFILE | O_CLOEXEC);
	if (a->fd < 0) {
		r = -errno;
		snprintf(msg, msgsz, "%s", init_cause(-r));
		return r;
	}
	f = open_memstream(&text, &len);
	if (!f) {
		close(a->fd);
		return -ENOMEM;
	}
	if (a->fs_wide) {
		fprintf(f, "every exec from these filesystems waits for the daemon "
			"(a rule names no exe): ");
		r = mark_filesystems(a, f);
	} else {
		fprintf(f, "the execs of these programs wait for the daemon (exe rules): ");
		r = mark_exes(a, f);
	}
	fclose(f);
	if (r < 0) {
		snprintf(msg, msgsz, "%s", r == -EINVAL ? init_cause(EINVAL) :
			 r == -ENOENT ? "no filesystem could be marked" : tool_strerror(-r));
		close(a->fd);
		a->fd = -1;
	} else {
		snprintf(msg, msgsz, "%s", text ? text : "");
	}
	free(text);
	return r;
}

int atexec_open(const struct kattr_rgconf *conf, atexec_place_fn place, void *data,
		struct atexec **out, char *msg, size_t msgsz)
{
	struct atexec *a = calloc(1, sizeof(*a));
	int r;

	if (!a)
		return -ENOMEM;
	a->conf = conf;
	a->place = place;
	a->data = data;
	a->needs = kattr_rgconf_needs(conf);
	a->pagesz = sysconf(_SC_PAGESIZE) > 0 ? sysconf(_SC_PAGESIZE) : 4096;
	for (size_t i = 0; i < conf->nrules; i++) {
		if (conf->rules[i].exe)
			a->has_exe = true;
		else
			a->fs_wide = true;
	}
	r = start(a, msg, msgsz);
	if (r < 0) {
		free(a);
		return r;
	}
	*out = a;
	return 0;
}

int atexec_fd(const struct atexec *a)
{
	return a->fd;
}

/* Ask again the processes that were not asleep in their exec. */
static void retry(struct atexec *a, bool classify)
{
	size_t k = 0;

	for (size_t i = 0; i < a->npend; i++) {
		struct pend *e = &a->pend[i];

		if (classify && !on_exec(a, e->pid, e->fd, now_ns() - e->t0 > RUNNING_NS)) {
			a->pend[k++] = *e;
			continue;
		}
		answer(a, e->fd);
	}
	a->npend = k;
}

int atexec_timeout_ms(const struct atexec *a)
{
	return a && a->npend ? 1 : -1;
}

void atexec_handle(struct atexec *a)
{
	char msg[512];

	retry(a, true);
	drain(a, true);
	if (!a->broken)
		return;
	/* Closing the group allows every exec it held; then anew. */
	for (size_t i = 0; i < a->npend; i++)
		close(a->pend[i].fd);
	a->npend = 0;
	close(a->fd);
	a->fd = -1;
	a->broken = false;
	if (start(a, msg, sizeof(msg)) < 0)
		tool_warn("placing at exec stopped: the kernel refused an answer and "
			  "the marks cannot be made again: %s", msg);
	else
		tool_warn("the kernel refused an answer to a permission event: the "
			  "fanotify group was closed (releasing every waiting exec) and "
			  "marked anew");
}

unsigned long atexec_close(struct atexec *a)
{
	unsigned long n = 0;

	if (!a)
		return 0;
	if (a->fd >= 0) {
		n = a->npend;
		retry(a, false);
		n += drain(a, false);
		close(a->fd);	/* and whatever came since is allowed */
	}
	free(a);
	return n;
}

const struct atexec_stats *atexec_stats(const struct atexec *a)
{
	return &a->st;
}
