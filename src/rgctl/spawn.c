// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rgctl exec on cgroup v2: clone3(CLONE_INTO_CGROUP) (Linux 5.7) starts
 * COMMAND in the group, so it is there from its first instruction and
 * rgctl itself never moves (nothing of rgctl's is charged to the group,
 * and on a systemd host rgctl stays in its own unit).  rgctl then waits
 * for it: the signals a caller sends rgctl (TERM, HUP, INT and QUIT sent
 * with kill(2), USR1, USR2, ALRM) go on to COMMAND; if rgctl dies,
 * COMMAND gets SIGTERM (PR_SET_PDEATHSIG); COMMAND's exit status (or its
 * death by a signal) is rgctl's.  Where the kernel has no clone3 or no
 * CLONE_INTO_CGROUP, the caller falls back to moving itself and exec.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rgctl.h"
#include "rgctl_systemd.h"

#ifndef CLONE_INTO_CGROUP
#define CLONE_INTO_CGROUP 0x200000000ULL
#endif

static volatile sig_atomic_t child_pid;

static const int forwarded[] = {
	SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM,
};

static void forward(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	/* INT and QUIT from the terminal reach COMMAND (same process
	 * group) by themselves: only pass on what a process sent. */
	if ((sig == SIGINT || sig == SIGQUIT) && si && si->si_code > 0)
		return;
	if (child_pid > 0)
		kill((pid_t)child_pid, sig);
}

/* Wait for pid; its status as rgctl's (a signal is raised again). */
static int wait_child(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			tool_die(EXIT_FAIL, "cannot wait for the command (pid %d): %s",
				 (int)pid, tool_strerror(errno));
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st)) {
		int sig = WTERMSIG(st);
		sigset_t set;

		signal(sig, SIG_DFL);
		sigemptyset(&set);
		sigaddset(&set, sig);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		if (sig != SIGKILL && sig != SIGSTOP)
			raise(sig);
		return 128 + sig;
	}
	return EXIT_FAIL;
}

int rgctl_exec_clone3(struct kattr_rg *rg, const char *group, char **argv)
{
	struct clone_args args;
	struct sigaction sa;
	sigset_t fwd, old;
	pid_t parent = getpid();
	const char *e = getenv("RGCTL_NO_CLONE3");	/* tests: the fallback */
	long pid;
	int fd, err;

	if (kattr_rg_backend_of(rg) != KATTR_RG_CGROUP2 || (e && *e == '1'))
		return -ENOSYS;
	fd = kattr_rg_group_open(rg, group, O_RDONLY);
	if (fd < 0)
		return fd;
	memset(&args, 0, sizeof(args));
	args.flags = CLONE_INTO_CGROUP;
	args.exit_signal = SIGCHLD;
	args.cgroup = (uint64_t)fd;
	tool_flush_stdout();
	fflush(stderr);
	/* Held until the child's pid is known, then passed on. */
	sigemptyset(&fwd);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = forward;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(forwarded) / sizeof(forwarded[0]); i++) {
		sigaddset(&fwd, forwarded[i]);
		sigaction(forwarded[i], &sa, NULL);
	}
	sigprocmask(SIG_BLOCK, &fwd, &old);
	pid = syscall(SYS_clone3, &args, sizeof(args));
	err = errno;
	if (pid < 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		for (size_t i = 0; i < sizeof(forwarded) / sizeof(forwarded[0]); i++)
			signal(forwarded[i], SIG_DFL);
		close(fd);
		/* no clone3 (< 5.3) or no CLONE_INTO_CGROUP (< 5.7): fall back */
		if (err == ENOSYS || err == E2BIG || err == EINVAL)
			return -ENOSYS;
		return -err;
	}
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(EXIT_FAIL);
		/* exec resets the handlers; the mask is the caller's again */
		sigprocmask(SIG_SETMASK, &old, NULL);
		close(fd);
		execvp(argv[0], argv);
		err = errno;
		tool_warn("cannot run '%s': %s", TOOL_Q(argv[0]), tool_strerror(err));
		fflush(stderr);
		_exit(err == ENOENT ? 127 : 126);
	}
	close(fd);
	child_pid = (sig_atomic_t)pid;
	sigprocmask(SIG_SETMASK, &old, NULL);
	return wait_child((pid_t)pid);
}
