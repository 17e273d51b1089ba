// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rgctl top -b: a snapshot every --delay seconds, the first after one
 * interval (its rates measured, not guessed), as a text table (a blank
 * line between snapshots) or, with --json, one JSON object a line.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "rgtop.h"
#include "tool.h"
#include "xalloc.h"

/* A path as text shows names (esc.h). */
#define ESC_SIZE TOOL_ESC_SIZE(1024)
#define ESC(s, f) tool_esc_to((char[ESC_SIZE]){ 0 }, ESC_SIZE, (s), (f))

static bool right(int col)
{
	return col != TC_GROUP;
}

static void print_text(const struct model *m, const struct top_opts *o,
		       const size_t *ord, size_t n)
{
	unsigned int esc = tool_esc_locale();
	int w[TC_N * 4];
	char cell[64], path[ESC_SIZE];

	for (size_t k = 0; k < o->ncols; k++) {
		int c = o->cols[k];

		w[k] = (int)strlen(rgctl_top_columns[c].name);
		if (c == TC_GROUP)
			for (size_t i = 0; i < n; i++) {
				int l = (int)strlen(ESC(m->g[ord[i]]->path, esc));

				w[k] = l > w[k] ? l : w[k];
			}
		else if (w[k] < (int)rgctl_top_columns[c].whint)
			w[k] = (int)rgctl_top_columns[c].whint;
	}
	for (size_t k = 0; k < o->ncols; k++)
		printf(right(o->cols[k]) ? "%*s%s" : "%-*s%s", w[k],
		       rgctl_top_columns[o->cols[k]].name, k + 1 < o->ncols ? " " : "\n");
	for (size_t i = 0; i < n; i++) {
		const struct tgroup *g = m->g[ord[i]];

		for (size_t k = 0; k < o->ncols; k++) {
			int c = o->cols[k];
			const char *text = cell;

			if (c == TC_GROUP)
				text = tool_esc_to(path, sizeof(path), g->path, esc);
			else
				top_cell(g, c, false, cell, sizeof(cell));
			if (k + 1 == o->ncols && !right(c))
				printf("%s\n", text);
			else
				printf(right(c) ? "%*s%s" : "%-*s%s", w[k], text,
				       k + 1 < o->ncols ? " " : "\n");
		}
	}
}

/* A number as JSON with at most `digits` decimals (json-c would print 17). */
static json_object *json_fixed(double v, int digits)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.*f", digits, v);
	return json_object_new_double_s(v, buf);
}

static json_object *json_value(const struct tgroup *g, int col)
{
	double v = g->val[col];

	if (col == TC_GROUP)
		return tool_json_str(g->path);
	if (isinf(v))
		return json_object_new_string("max");
	if (v < 0 || isnan(v))
		return NULL;
	switch (col) {
	case TC_CPU: case TC_EXPECT: case TC_SHARE: case TC_THROTTLED:
	case TC_PSICPU: case TC_PSIMEM: case TC_PSIIO: case TC_IOR: case TC_IOW:
		return json_fixed(v, 2);
	default:
		return json_object_new_int64((int64_t)v);
	}
}

static void print_json(const struct model *m, const struct top_opts *o,
		       const size_t *ord, size_t n)
{
	json_object *snap = json_object_new_object(), *arr = json_object_new_array();
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	json_object_object_add(snap, "time", json_fixed(
		(double)now.tv_sec + (double)now.tv_nsec / 1e9, 3));
	json_object_object_add(snap, "interval", json_fixed(m->interval, 3));
	json_object_object_add(snap, "backend", json_object_new_string(o->backend));
	json_object_object_add(snap, "root", tool_json_str(o->root));
	for (size_t i = 0; i < n; i++) {
		json_object *g = json_object_new_object();

		json_object_object_add(g, "path", json_value(m->g[ord[i]], TC_GROUP));
		for (size_t k = 0; k < o->ncols; k++)
			if (o->cols[k] != TC_GROUP)
				json_object_object_add(g, rgctl_top_json_keys[o->cols[k]],
						       json_value(m->g[ord[i]], o->cols[k]));
		json_object_array_add(arr, g);
	}
	json_object_object_add(snap, "groups", arr);
	puts(json_object_to_json_string_ext(snap, JSON_C_TO_STRING_PLAIN |
					    JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(snap);
}

int top_batch(struct model *m, const struct top_opts *o)
{
	struct timespec tick = m->at;

	for (unsigned long i = 0; i < o->iterations; i++) {
		size_t *ord, n;
		int ret;

		tool_sleep_until(&tick, o->delay);
		ret = model_update(m);
		if (ret < 0)
			tool_die(EXIT_FAIL, "cannot watch '%s': %s", TOOL_Q(o->group),
				 ret == -ENOENT ? "the group is gone" : tool_strerror(ret));
		n = model_order(m, o->sort, o->flat, NULL, &ord);
		if (o->json) {
			print_json(m, o, ord, n);
		} else {
			if (i)
				putchar('\n');
			print_text(m, o, ord, n);
		}
		free(ord);
		fflush(stdout);
	}
	return EXIT_OK;
}
