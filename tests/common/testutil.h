/* Small helpers shared by the cmocka tests. */
#ifndef SUITE_TESTUTIL_H
#define SUITE_TESTUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

/* mkdtemp under $TMPDIR (or /tmp); returns a malloc'ed path. */
char *tu_mkdtemp(void);
/* rm -rf path (no symlink following). */
void tu_rmtree(const char *path);
/* Create path (relative to dir) with content; dies on error. */
void tu_write_file(const char *dir, const char *rel, const char *content);
/* Skip with a printed reason unless running as root. */
#define TU_REQUIRE_ROOT()                                                    \
	do {                                                                 \
		if (geteuid() != 0) {                                        \
			print_message("skip: needs root (euid %u)\n",        \
				      (unsigned)geteuid());                  \
			skip();                                              \
		}                                                            \
	} while (0)

#endif
