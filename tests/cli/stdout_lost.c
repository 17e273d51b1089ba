// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A tool that loses output the way a printf inside a long report does: a
 * flush fails, its error is not looked at, and nothing is left in the
 * buffer at exit.  tool_init()'s check at exit must still name the cause
 * (not "unknown error"), or say nothing when the reader left.
 */
#include <stdio.h>

#include "tool.h"

int main(void)
{
	tool_init("stdout_lost");
	fputs("a line that cannot be written\n", stdout);
	(void)fflush(stdout);	/* fails; the cause is not kept */
	return EXIT_OK;
}
