// SPDX-License-Identifier: GPL-2.0-or-later
/* splicebench: the report as a table, CSV or JSON (json-c), and a plot
 * drawn by gnuplot. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <json-c/json.h>

#include "kattr/kattr.h"
#include "sb.h"
#include "tool.h"

extern char **environ;

static const char *or_unknown(const char *s)
{
	return s && *s ? s : "unknown";
}

static bool data_touched(const struct sb_config *cfg)
{
	return cfg->consumer != SB_NULL;
}

/* The pipe size every point ran with (they all get the same). */
static uint64_t pipe_size_used(const struct sb_report *rep)
{
	int i;

	for (i = 0; i < rep->nres; i++)
		if (!rep->res[i].failed)
			return rep->res[i].pipe_size;
	return (uint64_t)rep->pipe_size_default;
}

static const char *consumer_label(const struct sb_config *cfg)
{
	switch (cfg->consumer) {
	case SB_NULL:	return "null (splice to /dev/null: no data touched)";
	case SB_READ:	return "read (read(2) into a buffer)";
	case SB_VERIFY:	return "verify (read(2), every byte checked)";
	case SB_FILE:	return "file (splice into a file)";
	}
	return "?";
}

/* ---- table ------------------------------------------------------------ */

static void table(const struct sb_report *rep)
{
	const struct sb_config *cfg = rep->cfg;
	const struct kattr_sysfacts *f = &rep->facts;
	char a[32], b[32], c[32];
	int i;

	printf("system:   Linux %s, %s, %u CPUs, virtualisation %s, container %s\n",
	       or_unknown(f->kernel_release), or_unknown(f->cpu_model),
	       f->cpus_online, or_unknown(f->virt), or_unknown(f->container));
	printf("          page size %s, pipe-max-size %s, THP %s, pipe size used %s\n",
	       f->page_size ? sb_format_size(f->page_size, a, sizeof(a)) : "unknown",
	       f->pipe_max_size ? sb_format_size(f->pipe_max_size, b, sizeof(b)) : "unknown",
	       or_unknown(f->thp_mode), sb_format_size(pipe_size_used(rep), c, sizeof(c)));
	printf("consumer: %s\n", consumer_label(cfg));
	if (cfg->total)
		printf("runs:     %d per point after a warm-up, %s per run",
		       cfg->runs, sb_format_size(cfg->total, a, sizeof(a)));
	else
		printf("runs:     %d per point after a warm-up, %g s per run",
		       cfg->runs, cfg->seconds);
	if (cfg->pin_producer >= 0)
		printf(", producer on CPU %d, consumer on CPU %d",
		       cfg->pin_producer, cfg->pin_consumer);
	else
		printf(", not pinned");
	printf("%s%s\n", cfg->busy ? ", busy loop" : "",
	       cfg->unsafe_reuse ? ", UNSAFE buffer reuse" : "");
	if (rep->interrupted)
		printf("          INTERRUPTED (SIGINT): only the runs finished before it\n");
	putchar('\n');

	printf("%-20s %8s %8s %8s %7s\n", "memcpy baseline", "GB/s", "min", "max",
	       "spread");
	printf("%-9s %10s %8.2f %8.2f %8.2f %6.1f%%\n", "cache-hot",
	       sb_format_size(rep->base.hot_size, a, sizeof(a)), rep->base.hot.median,
	       rep->base.hot.min, rep->base.hot.max, rep->base.hot.spread * 100);
	printf("%-9s %10s %8.2f %8.2f %8.2f %6.1f%%\n\n", "from RAM",
	       sb_format_size(rep->base.ram_size, a, sizeof(a)), rep->base.ram.median,
	       rep->base.ram.min, rep->base.ram.max, rep->base.ram.spread * 100);

	printf("%-8s %6s %6s %-4s %-4s %4s %8s %8s %8s %7s %9s %9s\n",
	       "mode", "size", "pipe", "huge", "busy", "runs", "GB/s", "min", "max",
	       "spread", "cpu-prod", "cpu-cons");
	for (i = 0; i < rep->nres; i++) {
		const struct sb_result *r = &rep->res[i];

		printf("%-8s %6s ", sb_mode_name(r->mode),
		       sb_format_size(r->size, a, sizeof(a)));
		if (r->failed) {
			printf("not measured: %s\n", r->why);
			continue;
		}
		printf("%6s %-4s %-4s %4d %8.2f %8.2f %8.2f %6.1f%% %9.3f %9.3f%s\n",
		       sb_format_size(r->pipe_size, b, sizeof(b)),
		       r->huge ? "yes" : "no", cfg->busy ? "yes" : "no", r->runs,
		       r->gbps.median, r->gbps.min, r->gbps.max, r->gbps.spread * 100,
		       r->cpu_producer, r->cpu_consumer,
		       r->corrupt ? "  CORRUPT" : "");
	}
	printf("\nGB/s: 10^9 bytes per second, median over the runs; spread: (max-min)/median;\n"
	       "cpu-prod, cpu-cons: CPU seconds (user+system) per GB on each side.\n");
	if (!data_touched(cfg))
		printf("null consumer: splice to /dev/null, no data touched; compare with the\n"
		       "memcpy baseline only as an upper bound.\n");
	if (cfg->consumer == SB_VERIFY) {
		uint64_t chunks = 0, bad = 0;

		for (i = 0; i < rep->nres; i++) {
			chunks += rep->res[i].chunks;
			bad += rep->res[i].corrupt;
		}
		printf("verify: %" PRIu64 " chunks checked, %" PRIu64 " corrupted.\n",
		       chunks, bad);
		if (cfg->unsafe_reuse && !bad)
			printf("--unsafe-reuse: nothing caught this time; a double buffer of chunks at\n"
			       "least as large as the pipe happens to be safe with a copying consumer.\n"
			       "Try smaller chunks (--size 4K).\n");
	} else if (cfg->unsafe_reuse) {
		printf("--unsafe-reuse: any corruption went unseen; use --consumer verify.\n");
	}
}

/* ---- CSV -------------------------------------------------------------- */

/*
 * A number in a CSV field: printf's "%.4f" with four decimals, or nothing
 * when it is not finite (printf would write "nan" or "inf", which no CSV
 * reader takes for a number, and JSON cannot hold).
 */
static void csv_num(FILE *fp, double v)
{
	if (isfinite(v))
		fprintf(fp, "%.4f", v);
}

/* A text field, RFC 4180 quoted, as valid UTF-8 (U+FFFD for invalid bytes). */
static void csv_text(FILE *fp, const char *s)
{
	fputc('"', fp);
	while (*s) {
		size_t n = tool_utf8_seq(s);

		if (!n) {
			fputs("\xef\xbf\xbd", fp);
			s++;
			continue;
		}
		if (*s == '"')
			fputc('"', fp);
		fwrite(s, 1, n, fp);
		s += n;
	}
	fputc('"', fp);
}

static void csv_base(FILE *fp, const char *name, uint64_t size,
		     const struct sb_stats *st)
{
	fprintf(fp, "%s,,%" PRIu64 ",,false,false,%d,", name, size, st->n);
	csv_num(fp, st->median);
	fputc(',', fp);
	csv_num(fp, st->min);
	fputc(',', fp);
	csv_num(fp, st->max);
	fputc(',', fp);
	csv_num(fp, st->spread);
	fputs(",,,,true,false,,,,\n", fp);
}

void sb_output_csv(FILE *fp, const struct sb_report *rep)
{
	const struct sb_config *cfg = rep->cfg;
	int i;

	fprintf(fp, "mode,consumer,size,pipe_size,huge,busy,runs,median_gbps,min_gbps,"
		"max_gbps,spread,cpu_s_per_gb,cpu_s_per_gb_producer,"
		"cpu_s_per_gb_consumer,data_touched,huge_requested,bytes_per_run,"
		"chunks_verified,corrupt_chunks,error\n");
	csv_base(fp, "memcpy-hot", rep->base.hot_size, &rep->base.hot);
	csv_base(fp, "memcpy-ram", rep->base.ram_size, &rep->base.ram);
	for (i = 0; i < rep->nres; i++) {
		const struct sb_result *r = &rep->res[i];
		const double v[] = {
			r->gbps.median, r->gbps.min, r->gbps.max, r->gbps.spread,
			r->cpu_producer + r->cpu_consumer, r->cpu_producer,
			r->cpu_consumer,
		};

		fprintf(fp, "%s,%s,%" PRIu64 ",", sb_mode_name(r->mode),
			sb_consumer_name(cfg->consumer), r->size);
		if (r->failed) {
			fprintf(fp, ",false,%s,0,,,,,,,,%s,%s,,,,",
				cfg->busy ? "true" : "false",
				data_touched(cfg) ? "true" : "false",
				r->huge_requested ? "true" : "false");
			csv_text(fp, r->why);
			fputc('\n', fp);
			continue;
		}
		fprintf(fp, "%" PRIu64 ",%s,%s,%d", r->pipe_size,
			r->huge ? "true" : "false", cfg->busy ? "true" : "false",
			r->runs);
		for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++) {
			fputc(',', fp);
			csv_num(fp, v[k]);
		}
		fprintf(fp, ",%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",\n",
			data_touched(cfg) ? "true" : "false",
			r->huge_requested ? "true" : "false", r->bytes, r->chunks,
			r->corrupt);
	}
}

/* ---- JSON --------------------------------------------------------------- */

/* A string from the system (CPU model, kernel release, a path in a
 * message): valid UTF-8 in the output, U+FFFD for invalid bytes. */
static json_object *jstr(const char *s)
{
	json_object *o;
	char *r;

	if (tool_utf8_valid(s))
		return json_object_new_string(s);
	r = tool_utf8_repair(s);
	if (!r)
		return NULL;
	o = json_object_new_string(r);
	free(r);
	return o;
}

static json_object *jstr_or_null(const char *s)
{
	return s && *s ? jstr(s) : NULL;
}

static json_object *jdouble(double v)
{
	/* four decimals are plenty and keep the output stable to read;
	 * NaN and infinities are no JSON number: null */
	char buf[32];

	if (!isfinite(v))
		return NULL;
	snprintf(buf, sizeof(buf), "%.4f", v);
	return json_object_new_double_s(v, buf);
}

static json_object *json_stats(uint64_t size, const struct sb_stats *st)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "size", json_object_new_uint64(size));
	json_object_object_add(o, "runs", json_object_new_int(st->n));
	json_object_object_add(o, "median_gbps", jdouble(st->median));
	json_object_object_add(o, "min_gbps", jdouble(st->min));
	json_object_object_add(o, "max_gbps", jdouble(st->max));
	json_object_object_add(o, "spread", jdouble(st->spread));
	return o;
}

static const char *bad_name(enum sb_chunk_status s)
{
	switch (s) {
	case SB_CHUNK_BAD_SEQ:	return "another chunk's data";
	case SB_CHUNK_BAD_SUM:	return "checksum mismatch";
	case SB_CHUNK_BAD_DATA:	return "data differs";
	default:		return "ok";
	}
}

static json_object *json_result(const struct sb_report *rep,
				const struct sb_result *r)
{
	const struct sb_config *cfg = rep->cfg;
	json_object *o = json_object_new_object();
	bool ok = !r->failed;

	json_object_object_add(o, "mode", json_object_new_string(sb_mode_name(r->mode)));
	json_object_object_add(o, "consumer",
			       json_object_new_string(sb_consumer_name(cfg->consumer)));
	json_object_object_add(o, "size", json_object_new_uint64(r->size));
	json_object_object_add(o, "pipe_size",
			       ok ? json_object_new_uint64(r->pipe_size) : NULL);
	json_object_object_add(o, "huge", json_object_new_boolean(r->huge));
	json_object_object_add(o, "busy", json_object_new_boolean(cfg->busy));
	json_object_object_add(o, "runs", json_object_new_int(r->runs));
	json_object_object_add(o, "median_gbps", ok ? jdouble(r->gbps.median) : NULL);
	json_object_object_add(o, "min_gbps", ok ? jdouble(r->gbps.min) : NULL);
	json_object_object_add(o, "max_gbps", ok ? jdouble(r->gbps.max) : NULL);
	json_object_object_add(o, "cpu_s_per_gb",
			       ok ? jdouble(r->cpu_producer + r->cpu_consumer) : NULL);
	json_object_object_add(o, "cpu_s_per_gb_producer", ok ? jdouble(r->cpu_producer) : NULL);
	json_object_object_add(o, "cpu_s_per_gb_consumer", ok ? jdouble(r->cpu_consumer) : NULL);
	json_object_object_add(o, "spread", ok ? jdouble(r->gbps.spread) : NULL);
	json_object_object_add(o, "huge_requested", json_object_new_boolean(r->huge_requested));
	json_object_object_add(o, "data_touched", json_object_new_boolean(data_touched(cfg)));
	json_object_object_add(o, "bytes_per_run", ok ? json_object_new_uint64(r->bytes) : NULL);
	json_object_object_add(o, "unsafe_reuse", json_object_new_boolean(cfg->unsafe_reuse));
	if (cfg->pin_producer >= 0) {
		json_object *pin = json_object_new_array();

		json_object_array_add(pin, json_object_new_int(cfg->pin_producer));
		json_object_array_add(pin, json_object_new_int(cfg->pin_consumer));
		json_object_object_add(o, "pin", pin);
	} else {
		json_object_object_add(o, "pin", NULL);
	}
	if (cfg->consumer == SB_VERIFY && ok) {
		json_object *v = json_object_new_object();

		json_object_object_add(v, "chunks", json_object_new_uint64(r->chunks));
		json_object_object_add(v, "corrupt", json_object_new_uint64(r->corrupt));
		if (r->corrupt) {
			json_object_object_add(v, "first_bad_chunk",
					       json_object_new_uint64(r->first_bad_chunk));
			json_object_object_add(v, "first_bad_found",
					       json_object_new_string(bad_name(r->first_bad)));
		}
		json_object_object_add(o, "verify", v);
	}
	if (r->failed)
		json_object_object_add(o, "error", jstr(r->why));
	return o;
}

void sb_output_json(FILE *fp, const struct sb_report *rep)
{
	const struct kattr_sysfacts *f = &rep->facts;
	json_object *root = json_object_new_object(), *sys, *base, *res;
	int i;

	sys = json_object_new_object();
	json_object_object_add(sys, "kernel_release", jstr_or_null(f->kernel_release));
	json_object_object_add(sys, "cpu_model", jstr_or_null(f->cpu_model));
	json_object_object_add(sys, "cpus_online",
			       f->cpus_online ? json_object_new_int((int)f->cpus_online) : NULL);
	json_object_object_add(sys, "page_size",
			       f->page_size ? json_object_new_uint64(f->page_size) : NULL);
	json_object_object_add(sys, "pipe_max_size",
			       f->pipe_max_size ? json_object_new_uint64(f->pipe_max_size) : NULL);
	json_object_object_add(sys, "thp_mode", jstr_or_null(f->thp_mode));
	json_object_object_add(sys, "virtualization", jstr_or_null(f->virt));
	json_object_object_add(sys, "container", jstr_or_null(f->container));
	json_object_object_add(sys, "pipe_size_default",
			       json_object_new_int(rep->pipe_size_default));
	json_object_object_add(sys, "pipe_size_used",
			       json_object_new_uint64(pipe_size_used(rep)));
	json_object_object_add(root, "system", sys);

	base = json_object_new_object();
	json_object_object_add(base, "memcpy_cache_hot",
			       json_stats(rep->base.hot_size, &rep->base.hot));
	json_object_object_add(base, "memcpy_from_ram",
			       json_stats(rep->base.ram_size, &rep->base.ram));
	json_object_object_add(root, "baseline", base);

	res = json_object_new_array();
	for (i = 0; i < rep->nres; i++)
		json_object_array_add(res, json_result(rep, &rep->res[i]));
	json_object_object_add(root, "results", res);
	json_object_object_add(root, "interrupted",
			       json_object_new_boolean(rep->interrupted));
	fprintf(fp, "%s\n", json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
						       JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(root);
}

int sb_output(const struct sb_report *rep, enum sb_format fmt)
{
	switch (fmt) {
	case SB_TABLE:
		table(rep);
		break;
	case SB_CSV:
		sb_output_csv(stdout, rep);
		break;
	case SB_JSON:
		sb_output_json(stdout, rep);
		break;
	}
	return 0;
}

/* ---- the plot ------------------------------------------------------------ */

static bool in_path(const char *prog)
{
	const char *path = getenv("PATH");
	char buf[4096];

	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		const char *colon = strchr(path, ':');
		size_t n = colon ? (size_t)(colon - path) : strlen(path);

		if (n && snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, path, prog) <
			 (int)sizeof(buf) && access(buf, X_OK) == 0)
			return true;
		if (!colon)
			break;
		path = colon + 1;
	}
	return false;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && strcasecmp(s + a - b, suffix) == 0;
}

/* Keep what goes inside a gnuplot "..." string harmless. */
static void gp_string(FILE *gp, const char *s)
{
	fputc('"', gp);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', gp);
		if ((unsigned char)*s >= ' ')
			fputc(*s, gp);
	}
	fputc('"', gp);
}

static void plot_script(FILE *gp, const struct sb_report *rep, bool svg)
{
	const struct sb_config *cfg = rep->cfg;
	char title[400], a[32];
	uint64_t lo = UINT64_MAX, hi = 0;
	int m, i, lines = 0;

	if (svg)
		fprintf(gp, "set terminal svg size 900,540 dynamic enhanced "
			"font 'sans,11' background rgb 'white'\n");
	else
		fprintf(gp, "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) "
			"{ set terminal pngcairo size 900,540 font 'sans,10' } "
			"else { set terminal png size 900,540 }\n");
	snprintf(title, sizeof(title),
		 "splicebench: consumer %s, pipe %s%s%s - Linux %s, %s",
		 sb_consumer_name(cfg->consumer),
		 sb_format_size(pipe_size_used(rep), a, sizeof(a)),
		 cfg->huge ? ", huge pages asked" : "", cfg->busy ? ", busy" : "",
		 or_unknown(rep->facts.kernel_release),
		 or_unknown(rep->facts.cpu_model));
	fprintf(gp, "set title ");
	gp_string(gp, title);
	fprintf(gp, " noenhanced\n");
	fprintf(gp, "set xlabel 'chunk size (bytes)'\n"
		"set ylabel 'GB/s (median; bars: min to max)'\n"
		"set logscale x 2\nset format x '%%.0b%%BB'\n"
		"set yrange [0:*]\nset grid\nset key below\n"
		"set style data yerrorlines\n");
	for (i = 0; i < rep->nres; i++) {
		if (rep->res[i].failed)
			continue;
		if (rep->res[i].size < lo)
			lo = rep->res[i].size;
		if (rep->res[i].size > hi)
			hi = rep->res[i].size;
	}
	fprintf(gp, "set xrange [%g:%g]\n", (double)lo / 1.5, (double)hi * 1.5);
	for (m = 0; m < SB_NMODES; m++) {
		fprintf(gp, "$%s << EOD\n", sb_mode_name(m));
		for (i = 0; i < rep->nres; i++) {
			const struct sb_result *r = &rep->res[i];

			if (r->mode == (enum sb_mode)m && !r->failed)
				fprintf(gp, "%" PRIu64 " %.4f %.4f %.4f\n", r->size,
					r->gbps.median, r->gbps.min, r->gbps.max);
		}
		fprintf(gp, "EOD\n");
	}
	fprintf(gp, "plot ");
	for (m = 0; m < SB_NMODES; m++) {
		for (i = 0; i < rep->nres; i++)
			if (rep->res[i].mode == (enum sb_mode)m && !rep->res[i].failed)
				break;
		if (i == rep->nres)
			continue;
		fprintf(gp, "%s$%s using 1:2:3:4 title '%s' lw 2 pt 7",
			lines++ ? ", " : "", sb_mode_name(m), sb_mode_name(m));
	}
	fprintf(gp, ", %.4f with lines dt 2 lc rgb 'gray40' title 'memcpy from RAM'\n",
		rep->base.ram.median);
}

/*
 * A new temporary file beside path, "<dir>/.<name>.XXXXXX": ours to
 * remove.  Mode 0666 & ~umask, as a plain creat() would give.
 */
static int plot_tmp(const char *path, char **tmp)
{
	const char *slash = strrchr(path, '/');
	int dlen = slash ? (int)(slash - path + 1) : 0;
	mode_t um = umask(0);
	int fd;

	umask(um);
	if (asprintf(tmp, "%.*s.%s.XXXXXX", dlen, path, slash ? slash + 1 : path) < 0) {
		*tmp = NULL;
		return -ENOMEM;
	}
	fd = mkostemp(*tmp, O_CLOEXEC);
	if (fd < 0 || fchmod(fd, 0666 & ~um) < 0) {
		int e = errno;

		if (fd >= 0) {
			close(fd);
			unlink(*tmp);
		}
		free(*tmp);
		*tmp = NULL;
		return -e;
	}
	return fd;
}

/*
 * gnuplot draws into a temporary file beside path, renamed over path only
 * when it succeeded: a failure leaves path as it was, and nothing but our
 * own temporary file is ever removed.  A path that is (or becomes) a
 * symlink, device, FIFO or directory is refused, never written through.
 */
int sb_plot(const struct sb_report *rep, const char *path)
{
	posix_spawn_file_actions_t fa;
	char *argv[] = { "gnuplot", NULL }, *tmp = NULL;
	int fds[2], outfd, ret, status, i;
	bool any = false;
	struct stat st;
	FILE *gp;
	pid_t pid;

	for (i = 0; i < rep->nres; i++)
		any |= !rep->res[i].failed;
	if (!any) {
		tool_warn("cannot draw %s: no point was measured", path);
		return -ENODATA;
	}
	if (!in_path("gnuplot")) {
		tool_warn("cannot draw %s: gnuplot is not installed "
			  "(Debian: apt-get install gnuplot-nox)", path);
		return -ENOENT;
	}
	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		tool_warn("refusing to draw %s: it is %s, not a regular file",
			  path, tool_file_kind(path));
		return -EINVAL;
	}
	outfd = plot_tmp(path, &tmp);
	if (outfd < 0) {
		ret = outfd;
		tool_warn("cannot write %s: cannot create a temporary file beside it: %s",
			  path, strerror(-ret));
		return ret;
	}
	if (pipe2(fds, O_CLOEXEC) < 0) {
		ret = -errno;
		tool_warn("cannot draw %s: %s", path, strerror(errno));
		goto out_unlink;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[0], 0);
	posix_spawn_file_actions_adddup2(&fa, outfd, 1);
	ret = -posix_spawnp(&pid, "gnuplot", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[0]);
	if (ret < 0) {
		close(fds[1]);
		tool_warn("cannot run gnuplot: %s", strerror(-ret));
		goto out_unlink;
	}
	gp = fdopen(fds[1], "w");
	if (!gp) {
		close(fds[1]);
	} else {
		plot_script(gp, rep, ends_with(path, ".svg"));
		fclose(gp);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		tool_warn("cannot draw %s: gnuplot failed (see its message above); %s is unchanged",
			  path, path);
		ret = -EIO;
		goto out_unlink;
	}
	if (fsync(outfd) < 0 || close(outfd) < 0) {
		ret = -errno;
		outfd = -1;
		tool_warn("cannot write %s: %s", path, strerror(-ret));
		goto out_unlink;
	}
	outfd = -1;
	/* Again, just before: rename() replaces the name, never writes
	 * through it, but a device or FIFO planted meanwhile is not ours to
	 * replace either. */
	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		tool_warn("refusing to draw %s: it is %s, not a regular file",
			  path, tool_file_kind(path));
		ret = -EINVAL;
		goto out_unlink;
	}
	if (rename(tmp, path) < 0) {
		ret = -errno;
		tool_warn("cannot write %s: %s", path, strerror(-ret));
		goto out_unlink;
	}
	free(tmp);
	return 0;
out_unlink:
	if (outfd >= 0)
		close(outfd);
	unlink(tmp);		/* our own temporary file, nothing else */
	free(tmp);
	return ret;
}
