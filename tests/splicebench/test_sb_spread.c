/*
 * splicebench's report on a made-up measurement: a point whose spread is
 * above SB_SPREAD_WARN is warned about on stderr (the threshold said) and
 * marked in the table, CSV and JSON; one below it is not.
 */
#include "testutil.h"
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sb.h"
#include "output/output.h"
#include "tool.h"

static struct sb_config cfg = { .modes = 1, .consumer = SB_READ, .runs = 3,
				.total = 1 << 20, .pin_producer = -1,
				.pin_consumer = -1 };
static struct sb_result res[2];
static char *argv0[] = { "splicebench", "--runs", "3", NULL };
static struct sb_report rep = { .cfg = &cfg, .res = res, .nres = 2,
				.argc = 3, .argv = argv0, .started = 0 };

static void point(struct sb_result *r, uint64_t size, const double *g)
{
	memset(r, 0, sizeof(*r));
	r->mode = SB_COPY;
	r->size = size;
	r->runs = 3;
	r->pipe_size = 65536;
	r->bytes = 1 << 20;
	for (int i = 0; i < 3; i++) {
		r->sample_gbps[i] = g[i];
		r->sample_seconds[i] = 0.001;
	}
	sb_stats_compute(g, 3, &r->gbps);
}

/* What fn() writes on fd (1 or 2), NUL-terminated; the caller frees. */
static char *capture(int fd, void (*fn)(void *), void *arg)
{
	char path[] = "/tmp/sb_output_XXXXXX", *buf;
	int tmp = mkstemp(path), save = dup(fd);
	FILE *fp;
	long len;

	assert_true(tmp >= 0 && save >= 0);
	fflush(fd == 1 ? stdout : stderr);
	dup2(tmp, fd);
	fn(arg);
	fflush(fd == 1 ? stdout : stderr);
	dup2(save, fd);
	close(save);
	fp = fdopen(tmp, "r");
	unlink(path);
	fseek(fp, 0, SEEK_END);
	len = ftell(fp);
	rewind(fp);
	buf = calloc(1, (size_t)len + 1);
	assert_int_equal(fread(buf, 1, (size_t)len, fp), (size_t)len);
	fclose(fp);
	return buf;
}

/* A copy of the first line of s holding what. */
static char *line_with(const char *s, const char *what)
{
	const char *p = strstr(s, what), *b, *e;

	if (!p)
		return NULL;
	for (b = p; b > s && b[-1] != '\n'; b--)
		;
	e = strchr(p, '\n');
	return strndup(b, e ? (size_t)(e - b) : strlen(b));
}

static void do_warn(void *a) { sb_warn_spread(a); }
static void do_table(void *a) { static struct sb_table_opts t; sb_output(a, SB_TABLE, &t); }
static void do_csv(void *a) { static struct sb_table_opts t; sb_output(a, SB_CSV, &t); }
static void do_json(void *a) { static struct sb_table_opts t; sb_output(a, SB_JSON, &t); }

static int setup(void **state)
{
	static const double calm[] = { 1.0, 1.1, 1.2 };	/* spread 18% */
	static const double wild[] = { 0.5, 1.0, 1.6 };	/* spread 110% */

	(void)state;
	tool_init("splicebench");
	point(&res[0], 4096, calm);
	point(&res[1], 65536, wild);
	return 0;
}

static void warns_wide_only(void **state)
{
	char *err = capture(2, do_warn, &rep);

	(void)state;
	assert_non_null(strstr(err, "spread above 50% ((max-min)/median) at copy 64K (110%)"));
	assert_null(strstr(err, "copy 4K"));
	free(err);
}

static void marked_in_every_format(void **state)
{
	char *out = capture(1, do_table, &rep), *l64, *l4;
	json_object *root, *a;

	(void)state;
	l4 = line_with(out, " 18.2% ");
	l64 = line_with(out, " 110.0% ");
	assert_non_null(l4);
	assert_non_null(l64);
	assert_non_null(strstr(l64, "wide spread"));
	assert_null(strstr(l4, "wide spread"));
	free(l4);
	free(l64);
	assert_non_null(strstr(out, "wide spread: above 50%"));
	free(out);

	out = capture(1, do_csv, &rep);
	assert_non_null(strstr(out, "\ncopy,read,4096,"));
	assert_non_null(strstr(out, ",1.0000;1.1000;1.2000,false,"));
	assert_non_null(strstr(out, ",0.5000;1.0000;1.6000,true,"));
	free(out);

	out = capture(1, do_json, &rep);
	root = json_tokener_parse(out);
	assert_non_null(root);
	a = json_object_object_get(root, "results");
	assert_false(json_object_get_boolean(json_object_object_get(
		json_object_array_get_idx(a, 0), "wide_spread")));
	assert_true(json_object_get_boolean(json_object_object_get(
		json_object_array_get_idx(a, 1), "wide_spread")));
	assert_string_equal(json_object_get_string(json_object_object_get(root, "timestamp")),
			    "1970-01-01T00:00:00Z");
	assert_string_equal(json_object_get_string(json_object_object_get(root, "command")),
			    "splicebench --runs 3");
	json_object_put(root);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(warns_wide_only),
		cmocka_unit_test(marked_in_every_format),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
