// SPDX-License-Identifier: GPL-2.0-or-later
/* The column table behind every tool's -o, --output-all and --help (columns.h). */
#include <errno.h>
#include <string.h>
#include <strings.h>

#include <libsmartcols.h>

#include "columns.h"

_Static_assert(TOOL_COL_TREE == SCOLS_FL_TREE, "TOOL_COL_TREE is SCOLS_FL_TREE");
_Static_assert(TOOL_COL_RIGHT == SCOLS_FL_RIGHT, "TOOL_COL_RIGHT is SCOLS_FL_RIGHT");

static bool name_is(const char *name, const char *s, size_t len)
{
	return name && strlen(name) == len && !strncasecmp(name, s, len);
}

static int column_by_name(const struct tool_columns *t, const char *s, size_t len)
{
	for (int i = 0; i < t->n; i++) {
		const struct tool_column *c = &t->col[i];

		if (name_is(c->name, s, len) || name_is(c->alias, s, len) ||
		    ((t->flags & TOOL_COLS_MATCH_TITLE) && name_is(c->title, s, len)))
			return i;
	}
	return -1;
}

size_t tool_columns_default(const struct tool_columns *t, int *cols)
{
	size_t k;

	for (k = 0; k < t->ndef && k < t->max; k++)
		cols[k] = t->def[k];
	return k;
}

int tool_columns_parse(const struct tool_columns *t, const char *list,
		       int *cols, size_t *n, const char **bad, size_t *badlen)
{
	size_t k = 0;

	if (*list == '+') {
		k = tool_columns_default(t, cols);
		list++;
	}
	for (;;) {
		size_t len = strcspn(list, ",");
		int c = column_by_name(t, list, len);

		if (c < 0 || k >= t->max) {
			*bad = list;
			*badlen = len;
			return c < 0 ? -EINVAL : -E2BIG;
		}
		cols[k++] = c;
		if (!list[len])
			break;
		list += len + 1;
	}
	*n = k;
	return 0;
}

size_t tool_columns_all(const struct tool_columns *t, int *cols)
{
	for (int i = 0; i < t->n; i++)
		cols[i] = i;
	return (size_t)t->n;
}

const char *tool_column_header(const struct tool_columns *t, int c, bool title)
{
	return title && t->col[c].title ? t->col[c].title : t->col[c].name;
}

static bool is_default(const struct tool_columns *t, int c)
{
	for (size_t i = 0; i < t->ndef; i++)
		if (t->def[i] == c)
			return true;
	return false;
}

void tool_columns_help(FILE *fp, const struct tool_columns *t)
{
	for (int i = 0; i < t->n; i++) {
		const struct tool_column *c = &t->col[i];
		bool also = (t->flags & TOOL_COLS_HELP_ALIAS) && c->alias;

		fprintf(fp, "%s%*s%s%s%s%s%s%s%s\n", t->help_indent, t->help_width,
			c->name, t->help_gap, c->help,
			also ? " (also " : "", also ? c->alias : "", also ? ")" : "",
			(t->flags & TOOL_COLS_HELP_DEFAULT) && !is_default(t, i) ?
			" (not shown by default)" : "",
			t->flags & TOOL_COLS_HELP_PERIOD ? "." : "");
	}
}
