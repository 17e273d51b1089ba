/*
 * For the rgctl stats test (not a test itself):
 *   stats_helper touch MIB SECONDS   write to every page of MIB MiB, print
 *                                    "ready", then sleep SECONDS
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	size_t len;
	char *p;

	if (argc != 4 || strcmp(argv[1], "touch") != 0) {
		fprintf(stderr, "usage: stats_helper touch MIB SECONDS\n");
		return 2;
	}
	len = (size_t)strtoul(argv[2], NULL, 10) << 20;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	for (size_t i = 0; i < len; i += 4096)
		p[i] = (char)i | 1;
	printf("ready\n");
	fflush(stdout);
	sleep((unsigned int)strtoul(argv[3], NULL, 10));
	return p[0] == 0;
}
