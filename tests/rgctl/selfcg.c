/*
 * For the --at-exec tests (not a test itself): the first thing it does is
 * read /proc/self/cgroup and copy it to standard output, so it shows the
 * groups it started its life in.  Named as the tests need (copies,
 * symlinks to it).
 */
#include <fcntl.h>
#include <unistd.h>

int main(void)
{
	char buf[8192];
	int fd = open("/proc/self/cgroup", O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return 1;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		if (write(STDOUT_FILENO, buf, (size_t)n) != n)
			return 1;
	return n < 0;
}
