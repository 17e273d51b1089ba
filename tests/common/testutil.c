#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

char *tu_mkdtemp(void)
{
	const char *tmp = getenv("TMPDIR");
	char *path;

	if (asprintf(&path, "%s/kattr-test.XXXXXX", tmp && *tmp ? tmp : "/tmp") < 0)
		abort();
	if (!mkdtemp(path))
		abort();
	return path;
}

static int rm_cb(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st; (void)f;
	if (flag == FTW_DP)
		return rmdir(p);
	return unlink(p);
}

void tu_rmtree(const char *path)
{
	nftw(path, rm_cb, 16, FTW_DEPTH | FTW_PHYS);
}

void tu_write_file(const char *dir, const char *rel, const char *content)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "w");
	if (!f || fputs(content, f) < 0 || fclose(f) != 0) {
		fprintf(stderr, "cannot write %s: %s\n", path, strerror(errno));
		abort();
	}
}
