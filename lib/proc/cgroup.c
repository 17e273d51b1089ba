// SPDX-License-Identifier: LGPL-2.1-or-later
/* /proc/PID/cgroup: the line of one hierarchy, by its controllers. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "kattr/private_proc.h"

/* Whether two comma-separated lists name the same set of words. */
static bool same_set(const char *a, size_t alen, const char *b)
{
	size_t blen = strlen(b), count_a = 0, count_b = 0;
	const char *p, *end;

	for (p = a, end = a + alen; p < end;) {
		const char *c = memchr(p, ',', (size_t)(end - p));
		size_t len = c ? (size_t)(c - p) : (size_t)(end - p);
		char word[64];

		if (len && len < sizeof(word)) {
			memcpy(word, p, len);
			word[len] = '\0';
			if (!kattr_opt_has(b, word))
				return false;
			count_a++;
		}
		p += len + 1;
	}
	for (p = b; p < b + blen;) {
		const char *c = strchr(p, ',');
		size_t len = c ? (size_t)(c - p) : strlen(p);

		if (len)
			count_b++;
		p += len + 1;
	}
	return count_a && count_a == count_b;
}

int kattr_rg_parse_proc_cgroup(const char *text, const char *ctrls,
			       char **path)
{
	const char *p = text, *line;
	size_t len;

	while (kattr_next_line(&p, &line, &len)) {
		const char *c1 = memchr(line, ':', len), *c2;
		const char *list, *rest;
		size_t llen, restlen;

		if (!c1)
			continue;
		c2 = memchr(c1 + 1, ':', len - (size_t)(c1 + 1 - line));
		if (!c2)
			continue;
		list = c1 + 1;
		llen = (size_t)(c2 - list);
		rest = c2 + 1;
		restlen = len - (size_t)(rest - line);
		if (ctrls ? !same_set(list, llen, ctrls) :
			    (llen != 0 || c1 - line != 1 || line[0] != '0'))
			continue;
		if (!restlen || rest[0] != '/')
			return -EINVAL;
		*path = strndup(rest, restlen);
		return *path ? 0 : -ENOMEM;
	}
	return -ENOENT;
}
