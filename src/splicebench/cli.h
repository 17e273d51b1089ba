/* SPDX-License-Identifier: GPL-2.0-or-later */
/* splicebench: the command line (cli.c). */
#ifndef SPLICEBENCH_CLI_H
#define SPLICEBENCH_CLI_H

#include "output/output.h"
#include "sb.h"

/* The options into cfg, the format, --plot and the table's form; a usage
 * error exits 2 with one message. */
void sb_parse_args(int argc, char **argv, struct sb_config *cfg,
		   enum sb_format *fmt, const char **plot,
		   struct sb_table_opts *t);

#endif
