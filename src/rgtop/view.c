// SPDX-License-Identifier: GPL-2.0-or-later
/* rgctl top's live view (ncurses): not built yet in this step. */
#include "config.h"
#include "rgtop.h"
#include "tool.h"

int top_live(struct model *m, struct top_opts *o)
{
	(void)m;
	(void)o;
#if WITH_NCURSES
	tool_die(EXIT_FAIL, "the live view is not there yet: use -b");
#else
	tool_die(EXIT_FAIL, "built without ncurses (WITH_NCURSES=OFF): no live view; use -b for snapshots");
#endif
}
