// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "kattr/kattr.h"
#include "tool.h"

static const char *prog = "tool";

const char *tool_name(void)
{
	return prog;
}

__attribute__((format(printf, 1, 0)))
static void vwarn_msg(const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", prog);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void tool_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn_msg(fmt, ap);
	va_end(ap);
}

void tool_die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn_msg(fmt, ap);
	va_end(ap);
	exit(status);
}

void tool_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn_msg(fmt, ap);
	va_end(ap);
	fprintf(stderr, "Try '%s --help' for more information.\n", prog);
	exit(EXIT_USAGE);
}

void tool_try_help(void)
{
	fprintf(stderr, "Try '%s --help' for more information.\n", prog);
	exit(EXIT_USAGE);
}

/* The option element argv[i] as typed, without any "=VALUE". */
static void option_word(const char *arg, char *buf, size_t size)
{
	size_t n = strcspn(arg, "=");

	if (n >= size)
		n = size - 1;
	memcpy(buf, arg, n);
	buf[n] = '\0';
}

void tool_option_problem(int c, char **argv, const char *shortopts, char *buf,
			 size_t size)
{
	const char *arg = optind > 0 ? argv[optind - 1] : NULL;
	bool is_long = arg && strncmp(arg, "--", 2) == 0 && arg[2];
	bool known = optopt > 0 && (optopt > 255 || (optopt != ':' &&
		     strchr(shortopts, optopt)));
	char word[64];

	/* An unknown short option may sit inside a cluster ("-bQ"), where
	 * argv[optind - 1] is still the word before it. */
	if (c != ':' && optopt > 0 && optopt < 256 && !known)
		is_long = false;
	if (is_long)
		option_word(arg, word, sizeof(word));
	else
		snprintf(word, sizeof(word), "-%c", optopt >= 0x21 && optopt < 0x7f ?
			 optopt : '?');
	if (c == ':')
		snprintf(buf, size, "option '%s' needs an argument", word);
	else if (!is_long)
		snprintf(buf, size, "unknown option '%s'", word);
	else if (known)
		snprintf(buf, size, "option '%s' takes no argument", word);
	else
		snprintf(buf, size, "unknown or ambiguous option '%s'", word);
}

void tool_bad_option(int c, char **argv, const char *shortopts)
{
	char what[128];

	tool_option_problem(c, argv, shortopts, what, sizeof(what));
	tool_usage_error("%s", what);
}

void tool_version(void)
{
	printf("%s (kattr suite) %s\n", prog, SUITE_VERSION);
	exit(EXIT_OK);
}

/*
 * A full disk or a closed pipe must not pass silently: check stdout once
 * everything is written (atexit), as util-linux's close_stdout does.
 */
static int stdout_failed(void)
{
	int prev_fail = ferror(stdout);
	int fclose_fail;

	errno = 0;
	fclose_fail = fclose(stdout) != 0;
	if (!prev_fail && !fclose_fail)
		return 0;
	/* EPIPE: the reader went away; that is not worth a message. */
	return errno == EPIPE ? -1 : 1;
}

void tool_flush_stdout(void)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		int e = errno;

		if (e == EPIPE)
			_exit(EXIT_FAIL);
		fprintf(stderr, "%s: write error on standard output: %s\n",
			prog, e ? strerror(e) : "unknown error");
		_exit(EXIT_FAIL);
	}
}

static void close_stdout(void)
{
	int r = stdout_failed();

	if (r > 0) {
		fprintf(stderr, "%s: write error on standard output: %s\n",
			prog, errno ? strerror(errno) : "unknown error");
		_exit(EXIT_FAIL);
	}
	if (r < 0)
		_exit(EXIT_FAIL);
	if (fclose(stderr) != 0)
		_exit(EXIT_FAIL);
}

/*
 * A standard descriptor started closed (`>&-`): hold its number with
 * /dev/null opened the wrong way round, so that the next file opened does
 * not become our standard output, and writing to it fails with EBADF as
 * it would on the closed descriptor.
 */
static void hold_closed_std_fds(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		int nfd;

		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		nfd = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
		if (nfd >= 0 && nfd != fd)
			close(nfd);	/* a lower one was closed too: done above */
	}
}

void tool_init(const char *name)
{
	int ret;

	prog = name;
	hold_closed_std_fds();
	atexit(close_stdout);
	ret = kattr_sysroot_from_env();
	if (ret < 0)
		tool_die(EXIT_USAGE, "cannot use $%s as sysroot: %s",
			 KATTR_SYSROOT_ENV, strerror(-ret));
}

void tool_set_sysroot(const char *dir)
{
	int ret = kattr_set_sysroot(dir);

	if (ret < 0)
		tool_usage_error("cannot use '%s' as sysroot: %s", dir,
				 strerror(-ret));
}

const char *tool_file_kind(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return "gone";
	switch (st.st_mode & S_IFMT) {
	case S_IFLNK:
		return "a symbolic link";
	case S_IFIFO:
		return "a FIFO";
	case S_IFDIR:
		return "a directory";
	case S_IFSOCK:
		return "a socket";
	case S_IFCHR:
		return "a character device";
	case S_IFBLK:
		return "a block device";
	case S_IFREG:
		return "a regular file";
	default:
		return "not a regular file";
	}
}
