// SPDX-License-Identifier: GPL-2.0-or-later
/* OpenMetrics and Prometheus text exposition (see openmetrics.h). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "openmetrics.h"
#include "tool.h"

void tool_om_init(struct tool_om *om, FILE *fp, enum tool_om_dialect dialect)
{
	memset(om, 0, sizeof(*om));
	om->fp = fp;
	om->dialect = dialect;
}

bool tool_om_name_ok(const char *name, bool label)
{
	if (!name || !*name)
		return false;
	for (const char *p = name; *p; p++) {
		char c = *p;
		bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			     c == '_' || (!label && c == ':');

		if (!alpha && !(p > name && c >= '0' && c <= '9'))
			return false;
	}
	return true;
}

char *tool_om_escape(char *p, const char *s, bool dquote)
{
	while (*s) {
		size_t n = tool_utf8_seq(s);

		if (n == 0) {	/* each byte of an invalid sequence: U+FFFD */
			p = stpcpy(p, "\xef\xbf\xbd");
			s++;
		} else if (*s == '\\' || (*s == '"' && dquote)) {
			*p++ = '\\';
			*p++ = *s++;
		} else if (*s == '\n') {
			p = stpcpy(p, "\\n");
			s++;
		} else {
			memcpy(p, s, n);
			p += n;
			s += n;
		}
	}
	*p = '\0';
	return p;
}

/* Room for need bytes in om->buf. */
static int room(struct tool_om *om, size_t need)
{
	char *b;

	if (need <= om->cap)
		return 0;
	b = realloc(om->buf, need);
	if (!b)
		return -ENOMEM;
	om->buf = b;
	om->cap = need;
	return 0;
}

/* "_UNIT" ends name. */
static bool ends_in_unit(const char *name, const char *unit)
{
	size_t n = strlen(name), u = strlen(unit);

	return n > u + 1 && name[n - u - 1] == '_' && !strcmp(name + n - u, unit);
}

int tool_om_family(struct tool_om *om, const char *name,
		   enum tool_om_type type, const char *unit, const char *help)
{
	bool om1 = om->dialect == TOOL_OM_OPENMETRICS;
	const char *tname = type == TOOL_OM_COUNTER ? "counter" : "gauge";
	const char *suffix = type == TOOL_OM_COUNTER && !om1 ? "_total" : "";

	if (!tool_om_name_ok(name, false) ||
	    (unit && *unit && (!tool_om_name_ok(unit, true) || !ends_in_unit(name, unit))))
		return -EINVAL;
	if (room(om, TOOL_OM_ESC_SIZE(strlen(help))) < 0)
		return -ENOMEM;
	tool_om_escape(om->buf, help, om1);
	om->family = name;
	om->type = type;
	if (om1) {
		fprintf(om->fp, "# TYPE %s %s\n", name, tname);
		if (unit && *unit)
			fprintf(om->fp, "# UNIT %s %s\n", name, unit);
		fprintf(om->fp, "# HELP %s %s\n", name, om->buf);
	} else {
		fprintf(om->fp, "# HELP %s%s %s\n", name, suffix, om->buf);
		fprintf(om->fp, "# TYPE %s%s %s\n", name, suffix, tname);
	}
	return 0;
}

/* The sample's name and labels, up to the value. */
static int sample_head(struct tool_om *om, const struct tool_om_label *labels,
		       size_t n)
{
	size_t need = 1;
	char *p;

	if (!om->family)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (!tool_om_name_ok(labels[i].name, true))
			return -EINVAL;
		need += strlen(labels[i].name) + TOOL_OM_ESC_SIZE(strlen(labels[i].value)) + 4;
	}
	if (room(om, need) < 0)
		return -ENOMEM;
	p = om->buf;
	*p = '\0';
	for (size_t i = 0; i < n; i++) {
		p += sprintf(p, "%s%s=\"", i ? "," : "", labels[i].name);
		p = tool_om_escape(p, labels[i].value, true);
		*p++ = '"';
		*p = '\0';
	}
	fprintf(om->fp, "%s%s%s%s%s ", om->family,
		om->type == TOOL_OM_COUNTER ? "_total" : "",
		n ? "{" : "", om->buf, n ? "}" : "");
	return 0;
}

int tool_om_sample(struct tool_om *om, const struct tool_om_label *labels,
		   size_t n, uint64_t value)
{
	int ret = sample_head(om, labels, n);

	if (ret == 0)
		fprintf(om->fp, "%" PRIu64 "\n", value);
	return ret;
}

int tool_om_sample_double(struct tool_om *om, const struct tool_om_label *labels,
			  size_t n, double value)
{
	int ret = sample_head(om, labels, n);

	if (ret < 0)
		return ret;
	if (isnan(value))
		fputs("NaN\n", om->fp);
	else if (isinf(value))
		fputs(value > 0 ? "+Inf\n" : "-Inf\n", om->fp);
	else
		fprintf(om->fp, "%.17g\n", value);
	return 0;
}

void tool_om_end(struct tool_om *om)
{
	if (om->dialect == TOOL_OM_OPENMETRICS)
		fputs("# EOF\n", om->fp);
	free(om->buf);
	om->buf = NULL;
	om->cap = 0;
	om->family = NULL;
}
