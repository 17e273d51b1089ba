// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kfree_storm SECONDS: open, read and close /proc/self/stat as fast as it
 * can for SECONDS (each round frees its seq_file and buffer through
 * kfree), then print the rounds per second.  The workload of
 * bench/likelytop/callers_cost.sh.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 2, t0 = now(), t = t0;
	unsigned long n = 0;
	char buf[4096];

	while (t - t0 < secs) {
		for (int i = 0; i < 256; i++, n++) {
			int fd = open("/proc/self/stat", O_RDONLY);

			if (fd < 0 || read(fd, buf, sizeof(buf)) < 0)
				return 1;
			close(fd);
		}
		t = now();
	}
	printf("%.0f\n", (double)n / (t - t0));
	return 0;
}
