/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Metrics for Prometheus (openmetrics.c): metric families (HELP, TYPE,
 * UNIT), samples with labels, and the closing "# EOF", in one of two
 * dialects of the same text:
 *
 *   TOOL_OM_OPENMETRICS  OpenMetrics 1.0 (application/openmetrics-text):
 *                        TYPE, UNIT and HELP name the family ("foo"),
 *                        a counter's samples are "foo_total", "# EOF"
 *                        ends the exposition.
 *   TOOL_OM_PROMETHEUS   Prometheus' text format 0.0.4, what
 *                        node_exporter's textfile collector and
 *                        `promtool check metrics` read: HELP and TYPE
 *                        name the sample ("foo_total"), no UNIT, no
 *                        "# EOF".
 *
 * Label values and HELP texts are bytes from the system (file and group
 * names): invalid UTF-8 is repaired (U+FFFD, both formats are UTF-8),
 * and backslash, double quote and line feed are escaped (\\, \", \n), as
 * both formats say (Prometheus' HELP lines take no \").  Names (metric
 * and label names) are the caller's constants: checked (tool_om_name_ok),
 * never escaped.
 *
 * Nothing is printed on stderr; write errors are left in the FILE's
 * error flag (ferror) for the caller, which reports them once.
 */
#ifndef SUITE_OPENMETRICS_H
#define SUITE_OPENMETRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum tool_om_dialect { TOOL_OM_OPENMETRICS, TOOL_OM_PROMETHEUS };
enum tool_om_type { TOOL_OM_COUNTER, TOOL_OM_GAUGE };

struct tool_om_label {
	const char *name;	/* [a-zA-Z_][a-zA-Z0-9_]* */
	const char *value;	/* any bytes (escaped, repaired) */
};

struct tool_om {
	FILE *fp;
	enum tool_om_dialect dialect;
	/* The family being written (tool_om_family()). */
	const char *family;
	enum tool_om_type type;
	char *buf;		/* line buffer */
	size_t cap;
};

/* Start writing to fp; tool_om_end() finishes and frees. */
void tool_om_init(struct tool_om *om, FILE *fp, enum tool_om_dialect dialect);
/*
 * A family's metadata: name (without "_total"; ending in "_UNIT" when
 * unit is given, as both formats want), its type, unit ("seconds",
 * "bytes"; NULL or "" for none) and help (one line of text).  The
 * samples that follow belong to it.  -EINVAL for a name that is not a
 * metric name or does not end in its unit, -ENOMEM.
 */
int tool_om_family(struct tool_om *om, const char *name,
		   enum tool_om_type type, const char *unit, const char *help);
/* A sample of the current family: its labels (n of them) and value. */
int tool_om_sample(struct tool_om *om, const struct tool_om_label *labels,
		   size_t n, uint64_t value);
/* The same with a value that is not a whole number (NaN and the
 * infinities as the formats spell them). */
int tool_om_sample_double(struct tool_om *om, const struct tool_om_label *labels,
			  size_t n, double value);
/* "# EOF" (OpenMetrics); frees what the writer holds. */
void tool_om_end(struct tool_om *om);

/* A metric or label name ([a-zA-Z_:][a-zA-Z0-9_:]*, no ':' for labels). */
bool tool_om_name_ok(const char *name, bool label);
/*
 * s as a label value or HELP text into p: valid UTF-8 (U+FFFD for each
 * byte of an invalid sequence), '\\' and LF escaped, and '"' when dquote
 * (label values; OpenMetrics' HELP too, Prometheus' HELP takes no \").
 * p has room for TOOL_OM_ESC_SIZE(strlen(s)).  Returns the terminating NUL.
 */
#define TOOL_OM_ESC_SIZE(len) (3 * (size_t)(len) + 1)
char *tool_om_escape(char *p, const char *s, bool dquote);

#endif
