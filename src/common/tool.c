// SPDX-License-Identifier: GPL-2.0-or-later
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "kattr/private.h"
#include "kattr/kattr.h"
#include "tool.h"

static const char *prog = "tool";
/*
 * The tool's root handle (--sysroot DIR, else $KATTR_SYSROOT, else the
 * host's "/"), which every open beneath it is given explicitly; NULL
 * until tool_init() (the library then takes the host's "/").  Kept until
 * exit: a thread may still read beneath it then.
 */
static struct kattr_root *root;

/* Make dir (NULL or "": the host's "/") the tool's root. */
static int root_set(const char *dir)
{
	struct kattr_root *r;
	int ret = kattr_root_open(dir, &r);

	if (ret < 0)
		return ret;
	kattr_root_close(root);
	root = r;
	return 0;
}

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

bool tool_common_option(int c, void (*usage)(void))
{
	switch (c) {
	case 'h':
		if (!usage)
			return false;
		usage();
		return true;	/* (usage() does not return) */
	case 'V':
		tool_version();
	case TOOL_OPT_SYSROOT:
		tool_set_sysroot(optarg);
		return true;
	default:
		return false;
	}
}

void tool_option_tail(int c, char **argv, const char *shortopts,
		      void (*usage)(void))
{
	if (!tool_common_option(c, usage))
		tool_bad_option(c, argv, shortopts);
}

void tool_columns_error(int ret, const char *list, const char *bad,
			size_t badlen, int max)
{
	if (ret == -E2BIG)
		tool_usage_error("too many columns in '%s' (at most %d)", list, max);
	tool_usage_error("unknown column '%.*s' in '%s' (the columns are listed in --help)",
			 (int)badlen, bad, list);
}

void tool_version(void)
{
	printf("%s (kattr suite) %s\n", prog, SUITE_VERSION);
	exit(EXIT_OK);
}

/*
 * Why writes to standard output fail, asked of the descriptor itself
 * (before it is closed): a flush that failed earlier (inside printf, or a
 * caller's fflush) leaves the stream's error flag but not its errno.  An
 * empty write still fails on a closed or read-only descriptor and on
 * /dev/full; a pipe or socket whose reader left polls as an error (EPIPE).
 * 0 when the descriptor does not tell.
 */
static int stdout_probe(void)
{
	struct pollfd p = { .fd = STDOUT_FILENO, .events = POLLOUT };

	if (write(STDOUT_FILENO, "", 0) < 0)
		return errno;
	if (poll(&p, 1, 0) == 1 && (p.revents & POLLERR))
		return EPIPE;
	return 0;
}

/*
 * Each cause made once, lower-cased, and kept: several in one message
 * stay apart, and splicebench's threads may ask at once (the first
 * copy installed wins).
 */
const char *tool_strerror(int err)
{
	static char *done[256];
	char *s, *prev = NULL;

	if (err < 0)
		err = -err;
	if (err >= (int)(sizeof(done) / sizeof(done[0])))
		return "unknown error";
	s = __atomic_load_n(&done[err], __ATOMIC_ACQUIRE);
	if (s)
		return s;
	s = strdup(strerror(err));
	if (!s)
		return strerror(err);
	/* "No such file", but "I/O error", "RFS specific error" */
	if (isupper((unsigned char)s[0]) && !isupper((unsigned char)s[1]) && s[1] != '/')
		s[0] = (char)tolower((unsigned char)s[0]);
	if (!__atomic_compare_exchange_n(&done[err], &prev, s, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		free(s);
		return prev;
	}
	return s;
}

/* "write error on standard output: no space left on device" and exit 1;
 * silent when the reader went away (EPIPE). */
__attribute__((noreturn)) static void stdout_error(int e)
{
	if (e == EPIPE)
		_exit(EXIT_FAIL);
	fprintf(stderr, "%s: write error on standard output: %s\n", prog,
		e ? tool_strerror(e) :
		"part of the output was lost (the system did not say why)");
	_exit(EXIT_FAIL);
}

void tool_flush_stdout(void)
{
	int e;

	errno = 0;
	if (fflush(stdout) != 0) {
		e = errno;
		stdout_error(e ? e : stdout_probe());
	}
	if (ferror(stdout))
		stdout_error(stdout_probe());
}

/*
 * A full disk or a closed pipe must not pass silently: check stdout once
 * everything is written (atexit), as util-linux's close_stdout does.
 */
static void close_stdout(void)
{
	int prev_fail = ferror(stdout), probe = 0, e;
	bool fclose_fail;

	if (prev_fail)
		probe = stdout_probe();
	errno = 0;
	fclose_fail = fclose(stdout) != 0;
	e = errno;
	if (prev_fail || fclose_fail)
		stdout_error(fclose_fail && e ? e : probe);
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
	/*
	 * A reader that leaves (| head) makes writes fail with EPIPE, which
	 * close_stdout() turns into exit status 1 without a message, as the
	 * man pages say, instead of death by SIGPIPE (status 141).  Whatever
	 * a tool runs (rgctl exec, likelytop --exec) gets SIGPIPE back.
	 */
	signal(SIGPIPE, SIG_IGN);
	atexit(close_stdout);
	ret = root_set(getenv(KATTR_SYSROOT_ENV));
	if (ret < 0)
		tool_die(EXIT_USAGE, "cannot use $%s as sysroot: %s",
			 KATTR_SYSROOT_ENV, tool_strerror(-ret));
}

void tool_set_sysroot(const char *dir)
{
	int ret = root_set(dir);

	if (ret < 0)
		tool_usage_error("cannot use '%s' as sysroot: %s", dir,
				 tool_strerror(-ret));
}

const struct kattr_root *tool_root(void)
{
	return root;
}

const char *tool_sysroot(void)
{
	return root ? kattr_root_sysroot(root) : NULL;
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

const char *tool_closest(const char *word, const char *const *names, size_t n)
{
	size_t cap = strlen(word) <= 3 ? 1 : 2, best = cap + 1, i;
	const char *pick = NULL;

	for (i = 0; i < n; i++) {
		size_t d = kattr_str_distance(word, names[i], cap, false);

		/* a unique prefix is as good as a typo away */
		if (d > 1 && strlen(word) >= 2 && strncmp(names[i], word, strlen(word)) == 0)
			d = 1;
		if (d < best) {
			best = d;
			pick = names[i];
		}
	}
	return pick;
}

bool tool_parse_seconds(const char *s, double min, double max, double *out)
{
	char *end;
	double d;

	if (!s || !(isdigit((unsigned char)s[0]) || s[0] == '.') || strpbrk(s, "xX"))
		return false;
	errno = 0;
	d = strtod(s, &end);
	if (errno || *end || !isfinite(d) || !(d >= min) || d > max)
		return false;
	*out = d;
	return true;
}

void tool_human_bytes(char *b, size_t size, double v, const char *per)
{
	static const char units[] = "BKMGTPE";
	size_t u = 0;

	while (v >= 1024 && u + 1 < sizeof(units) - 1) {
		v /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(b, size, "%.0fB%s", v, per);
	else
		snprintf(b, size, "%.1f%c%s", v, units[u], per);
}

void tool_sleep_until(struct timespec *t, double sec)
{
	long long ns = (long long)(sec * 1e9);

	t->tv_sec += (time_t)(ns / 1000000000);
	t->tv_nsec += (long)(ns % 1000000000);
	if (t->tv_nsec >= 1000000000) {
		t->tv_sec++;
		t->tv_nsec -= 1000000000;
	}
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, t, NULL) == EINTR)
		continue;
}
