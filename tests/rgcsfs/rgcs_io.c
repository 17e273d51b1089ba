/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rgcs_io: one system call at a time, for the RGCS emulator's shell tests
 * (and rgctl's).  Prints "OK" or the errno name (EINVAL, ESRCH...) so that
 * tests compare exact errors, and exits 0 on success, 1 on failure.
 *
 *   rgcs_io write FILE DATA     open(O_WRONLY) + ONE write(2) of DATA
 *   rgcs_io read FILE           open + read to EOF; the text on stdout
 *   rgcs_io mkdir|rmdir|creat|mknod|unlink|truncate PATH   (mknod: a FIFO)
 *   rgcs_io rename|link|symlink FROM TO
 *   rgcs_io fd FILE OP...       one O_RDWR descriptor, OPs in order:
 *       read        pread(fd, 0) once: "read:<n|ERRNO>:<text, \n as ' '>"
 *       write:DATA  one write(2) on fd: "write:<OK|ERRNO>"
 *       ext:PATH:DATA  open PATH, one write, close: "ext:<OK|ERRNO>"
 * DATA understands \n \t \\ \0 and \xHH escapes.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *ename(int e)
{
	const char *n = strerrorname_np(e);

	return n ? n : "E?";
}

static size_t unescape(const char *s, char *out)
{
	size_t n = 0;

	while (*s) {
		if (*s != '\\' || !s[1]) {
			out[n++] = *s++;
			continue;
		}
		s++;
		switch (*s) {
		case 'n': out[n++] = '\n'; s++; break;
		case 't': out[n++] = '\t'; s++; break;
		case '0': out[n++] = '\0'; s++; break;
		case 'x': {
			char hex[3] = { 0 };

			if (s[1] && s[2]) {
				hex[0] = s[1];
				hex[1] = s[2];
				out[n++] = (char)strtol(hex, NULL, 16);
				s += 3;
			} else {
				out[n++] = *s++;
			}
			break;
		}
		default: out[n++] = *s++; break;
		}
	}
	return n;
}

static int one_write(const char *path, const char *data, int flags)
{
	size_t len = strlen(data);
	char *buf = malloc(len + 1);
	int fd, rc = 0;
	ssize_t n;

	if (!buf)
		return ENOMEM;
	len = unescape(data, buf);
	fd = open(path, O_WRONLY | flags);
	if (fd < 0) {
		rc = errno;
	} else {
		n = write(fd, buf, len);
		if (n < 0)
			rc = errno;
		else if ((size_t)n != len)
			rc = EIO;	/* short write: not configfs-like */
		close(fd);
	}
	free(buf);
	return rc;
}

static int report(int e)
{
	puts(e ? ename(e) : "OK");
	return e ? 1 : 0;
}

static int fd_ops(const char *path, int nops, char **ops)
{
	int fd = open(path, O_RDWR), i;
	char buf[8192];

	if (fd < 0)
		return report(errno);
	for (i = 0; i < nops; i++) {
		if (!strcmp(ops[i], "read")) {
			ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0), j;

			if (n < 0) {
				printf("read:%s:\n", ename(errno));
				continue;
			}
			for (j = 0; j < n; j++)
				if (buf[j] == '\n')
					buf[j] = ' ';
			buf[n] = '\0';
			printf("read:%zd:%s\n", n, buf);
		} else if (!strncmp(ops[i], "write:", 6)) {
			char *data = malloc(strlen(ops[i]) + 1);
			size_t len;
			ssize_t n;

			if (!data)
				return 1;
			len = unescape(ops[i] + 6, data);
			n = write(fd, data, len);
			printf("write:%s\n", n < 0 ? ename(errno) : "OK");
			free(data);
		} else if (!strncmp(ops[i], "ext:", 4)) {
			char *p = strdup(ops[i] + 4), *colon;
			int e;

			if (!p)
				return 1;
			colon = strchr(p, ':');
			if (!colon) {
				fprintf(stderr, "rgcs_io: ext:PATH:DATA\n");
				return 2;
			}
			*colon = '\0';
			e = one_write(p, colon + 1, 0);
			printf("ext:%s\n", e ? ename(e) : "OK");
			free(p);
		} else {
			fprintf(stderr, "rgcs_io: unknown op '%s'\n", ops[i]);
			return 2;
		}
	}
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";

	if (argc >= 4 && !strcmp(cmd, "fd"))
		return fd_ops(argv[2], argc - 3, argv + 3);
	if (argc == 4 && !strcmp(cmd, "write"))
		return report(one_write(argv[2], argv[3], 0));
	if (argc == 3 && !strcmp(cmd, "read")) {
		char buf[8192];
		ssize_t n;
		int fd = open(argv[2], O_RDONLY);

		if (fd < 0)
			return report(errno);
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			fwrite(buf, 1, (size_t)n, stdout);
		if (n < 0) {
			int e = errno;

			close(fd);
			return report(e);
		}
		close(fd);
		return 0;
	}
	if (argc == 3) {
		const char *p = argv[2];
		int rc;

		if (!strcmp(cmd, "mkdir"))
			rc = mkdir(p, 0755);
		else if (!strcmp(cmd, "rmdir"))
			rc = rmdir(p);
		else if (!strcmp(cmd, "creat"))
			rc = open(p, O_WRONLY | O_CREAT | O_EXCL, 0644);
		else if (!strcmp(cmd, "mknod"))
			rc = mknod(p, S_IFIFO | 0644, 0);
		else if (!strcmp(cmd, "unlink"))
			rc = unlink(p);
		else if (!strcmp(cmd, "truncate"))
			rc = truncate(p, 0);
		else
			goto usage;
		if (rc >= 0 && !strcmp(cmd, "creat"))
			close(rc);
		return report(rc < 0 ? errno : 0);
	}
	if (argc == 4) {
		int rc;

		if (!strcmp(cmd, "rename"))
			rc = rename(argv[2], argv[3]);
		else if (!strcmp(cmd, "link"))
			rc = link(argv[2], argv[3]);
		else if (!strcmp(cmd, "symlink"))
			rc = symlink(argv[2], argv[3]);
		else
			goto usage;
		return report(rc < 0 ? errno : 0);
	}
usage:
	fprintf(stderr, "usage: rgcs_io write FILE DATA | read FILE | mkdir|rmdir|creat|mknod|"
		"unlink|truncate PATH | rename|link|symlink A B | fd FILE OP...\n");
	return 2;
}
