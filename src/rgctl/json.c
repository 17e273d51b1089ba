// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rgctl's --json documents, built from plain data so that
 * tests/fuzz/fuzz_rgctl_json.c can feed them any bytes.  Every string
 * that comes from the system (group names from directories and
 * /proc/PID/cgroup, stat keys, comm) may hold any byte: it goes through
 * tool_json_str(), so the output is always valid UTF-8 JSON.
 */
#include <stdlib.h>
#include <string.h>

#include "rgctl.h"

/* A key of an object, made valid UTF-8 the same way. */
static void add_key(json_object *o, const char *key, json_object *v)
{
	char *buf = NULL;
	size_t cap = 0;
	const char *k = tool_json_text(key, &buf, &cap);

	if (k)
		json_object_object_add(o, k, v);
	else
		json_object_put(v);
	free(buf);
}

const char *rgctl_json_text(json_object *obj)
{
	return json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PLAIN |
					      JSON_C_TO_STRING_NOSLASHESCAPE);
}

json_object *rgctl_json_share_of(bool rgcs, const char *file,
				 const struct kattr_rg_share *s)
{
	json_object *o = json_object_new_object();
	char res[sizeof(s->res) + 1];

	/* res[] is filled from the hierarchy: never trust its NUL */
	memcpy(res, s->res, sizeof(s->res));
	res[sizeof(s->res)] = '\0';
	json_object_object_add(o, "res", tool_json_str(res));
	if (rgcs) {
		json_object_object_add(o, "min_shares",
				       json_object_new_int64(s->min_shares));
		json_object_object_add(o, "max_shares",
				       json_object_new_int64(s->max_shares));
		json_object_object_add(o, "child_shares_divisor",
				       json_object_new_int64(s->child_shares_divisor));
	} else {
		json_object_object_add(o, "file", tool_json_str(file));
		json_object_object_add(o, "value", json_object_new_int64(s->value));
	}
	return o;
}

/* "memory, pids" (kattr_rg_missing()) as ["memory","pids"]. */
static json_object *name_array(const char *list)
{
	json_object *a = json_object_new_array();

	while (*list) {
		const char *end = strstr(list, ", ");
		size_t len = end ? (size_t)(end - list) : strlen(list);
		char *one = strndup(list, len);

		if (one)
			json_object_array_add(a, tool_json_str(one));
		free(one);
		list = end ? end + 2 : list + len;
	}
	return a;
}

json_object *rgctl_json_list(const struct rgctl_json_hier *h,
			     const struct kattr_rg_info *v, size_t n,
			     char *const *missing)
{
	json_object *o = json_object_new_object(), *a = json_object_new_array();

	json_object_object_add(o, "backend", tool_json_str(h->backend));
	json_object_object_add(o, "root", tool_json_str(h->root));
	for (size_t i = 0; i < n; i++) {
		json_object *g = json_object_new_object(), *s = json_object_new_array();

		json_object_object_add(g, "name", tool_json_str(v[i].name));
		json_object_object_add(g, "depth", json_object_new_int64(v[i].depth));
		json_object_object_add(g, "tasks", v[i].nr_tasks < 0 ? NULL :
				       json_object_new_int64(v[i].nr_tasks));
		for (size_t k = 0; k < v[i].nr_shares; k++)
			json_object_array_add(s, rgctl_json_share_of(h->rgcs,
					      h->shares_file, &v[i].shares[k]));
		json_object_object_add(g, "shares", s);
		/* only where a hierarchy is missing: the old keys as they were */
		if (missing && missing[i] && *missing[i])
			json_object_object_add(g, "missing", name_array(missing[i]));
		json_object_array_add(a, g);
	}
	json_object_object_add(o, "groups", a);
	return o;
}

/* A figure's value: null when none, PSI averages in percent. */
static json_object *stat_value(const struct kattr_rg_stat *s)
{
	if (!s->has_value)
		return NULL;
	if (s->unit == KATTR_RG_UNIT_CENTIPCT)
		return json_object_new_double((double)s->value / 100.0);
	return json_object_new_int64(s->value);
}

/* The object named key in o, made if missing. */
static json_object *sub_object(json_object *o, const char *key)
{
	char *k = tool_utf8_repair(key);
	json_object *r = NULL;

	if (!k)
		return NULL;
	if (!json_object_object_get_ex(o, k, &r)) {
		r = json_object_new_object();
		json_object_object_add(o, k, r);
	}
	free(k);
	return r;
}

json_object *rgctl_json_stats(const char *group, const char *backend,
			      const struct kattr_rg_stat *v, size_t n)
{
	json_object *o = json_object_new_object(), *s = json_object_new_object();
	json_object *absent = json_object_new_object();

	json_object_object_add(o, "group", tool_json_str(group));
	json_object_object_add(o, "backend", tool_json_str(backend));
	for (size_t i = 0; i < n; i++) {
		json_object *r;

		if (v[i].absent) {
			add_key(absent, v[i].res, tool_json_str(v[i].key));
			continue;
		}
		r = sub_object(s, v[i].res);
		if (r && v[i].dev)	/* io: per device */
			r = sub_object(r, v[i].dev);
		if (r)
			add_key(r, v[i].key, stat_value(&v[i]));
	}
	json_object_object_add(o, "stats", s);
	json_object_object_add(o, "absent", absent);
	return o;
}

const char *rgctl_unit_name(enum kattr_rg_unit u)
{
	switch (u) {
	case KATTR_RG_UNIT_COUNT:
		return "count";
	case KATTR_RG_UNIT_USEC:
		return "usec";
	case KATTR_RG_UNIT_BYTES:
		return "bytes";
	case KATTR_RG_UNIT_CENTIPCT:
		return "percent";
	default:
		return NULL;
	}
}

json_object *rgctl_json_figures(const struct kattr_rg_stat *v, size_t n,
				const double *rates)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < n; i++) {
		json_object *f = json_object_new_object();
		const char *unit = rgctl_unit_name(v[i].unit);

		if (v[i].absent) {
			json_object_put(f);
			continue;
		}
		json_object_object_add(f, "resource", tool_json_str(v[i].res));
		json_object_object_add(f, "figure", tool_json_str(v[i].key));
		json_object_object_add(f, "device", v[i].dev ? tool_json_str(v[i].dev) : NULL);
		json_object_object_add(f, "value", stat_value(&v[i]));
		json_object_object_add(f, "unit", unit ? json_object_new_string(unit) : NULL);
		json_object_object_add(f, "counter", json_object_new_boolean(v[i].counter));
		if (rates)
			json_object_object_add(f, "rate", rates[i] == rates[i] ?
					       json_object_new_double(rates[i]) : NULL);
		json_object_object_add(f, "file", v[i].file ? tool_json_str(v[i].file) : NULL);
		json_object_array_add(a, f);
	}
	return a;
}

json_object *rgctl_json_members(const char *group, bool tasks,
				const pid_t *pids, size_t n,
				const int *elsewhere, const int *total)
{
	json_object *o = json_object_new_object(), *a = json_object_new_array();
	json_object *split = json_object_new_array();

	json_object_object_add(o, "group", tool_json_str(group));
	json_object_object_add(o, "lists", tool_json_str(tasks ? "threads" : "processes"));
	for (size_t i = 0; i < n; i++) {
		json_object_array_add(a, json_object_new_int(pids[i]));
		if (elsewhere && elsewhere[i]) {
			json_object *s = json_object_new_object();

			json_object_object_add(s, "pid", json_object_new_int(pids[i]));
			json_object_object_add(s, "threads", json_object_new_int(total[i]));
			json_object_object_add(s, "elsewhere", json_object_new_int(elsewhere[i]));
			json_object_array_add(split, s);
		}
	}
	json_object_object_add(o, tasks ? "tasks" : "processes", a);
	json_object_object_add(o, "split", split);
	return o;
}

json_object *rgctl_json_whereis(pid_t pid, const char *group,
				const char *backend)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "pid", json_object_new_int(pid));
	json_object_object_add(o, "group", tool_json_str(group));
	json_object_object_add(o, "backend", tool_json_str(backend));
	return o;
}

json_object *rgctl_json_places(const struct kattr_rg_place *v, size_t n)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < n; i++) {
		json_object *p = json_object_new_object();

		json_object_object_add(p, "hierarchy", tool_json_str(v[i].hier));
		json_object_object_add(p, "group", v[i].group ? tool_json_str(v[i].group) : NULL);
		json_object_object_add(p, "path", v[i].path ? tool_json_str(v[i].path) : NULL);
		json_object_array_add(a, p);
	}
	return a;
}

json_object *rgctl_json_taskstats(pid_t pid, const struct kattr_taskstats *t)
{
	json_object *o = json_object_new_object();
	char comm[sizeof(t->comm) + 1];

	if (pid)
		json_object_object_add(o, "pid", json_object_new_int(pid));
	memcpy(comm, t->comm, sizeof(t->comm));
	comm[sizeof(t->comm)] = '\0';
	if (comm[0])
		json_object_object_add(o, "comm", tool_json_str(comm));
	/* unsigned 64-bit counters, as the kernel keeps them */
#define F(name) json_object_object_add(o, #name, json_object_new_uint64(t->name))
	F(cpu_count);
	F(cpu_delay_total);
	F(blkio_count);
	F(blkio_delay_total);
	F(swapin_count);
	F(swapin_delay_total);
	F(freepages_count);
	F(freepages_delay_total);
	F(thrashing_delay_total);
	F(compact_delay_total);
	F(cpu_run_real_total);
#undef F
	return o;
}
