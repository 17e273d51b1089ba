// SPDX-License-Identifier: GPL-2.0-or-later
/* splicebench: the plot, drawn by gnuplot. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "kattr/kattr.h"
#include "outfile.h"
#include "tool.h"
#include "strutils.h"



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

/* "64 KiB", "1 MiB", "1536 KiB", "24 B": exact, in the largest unit that
 * divides n. */
static const char *iec_size(uint64_t n, char *buf, size_t size)
{
	if (n && n % (1u << 20) == 0)
		snprintf(buf, size, "%" PRIu64 " MiB", n >> 20);
	else if (n && n % 1024 == 0)
		snprintf(buf, size, "%" PRIu64 " KiB", n >> 10);
	else
		snprintf(buf, size, "%" PRIu64 " B", n);
	return buf;
}

/* The terminal, the title (what was measured, where) and the axes. */
static void plot_frame(FILE *gp, const struct sb_report *rep, bool svg)
{
	const struct sb_config *cfg = rep->cfg;
	char title[400], a[32];

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
		 sb_format_size(sb_pipe_size_used(rep), a, sizeof(a)),
		 cfg->huge ? ", huge pages asked" : "", cfg->busy ? ", busy" : "",
		 sb_or_unknown(rep->facts.kernel_release),
		 sb_or_unknown(rep->facts.cpu_model));
	fprintf(gp, "set title ");
	gp_string(gp, title);
	fprintf(gp, " noenhanced\n");
	fprintf(gp, "set xlabel 'chunk size'\n"
		"set ylabel 'GB/s (median; bars: min to max; log scale)'\n"
		"set logscale x 2\n"
		/* log y: gift at 0.1 GB/s and copy at 25 both readable */
		"set logscale y 10\n"
		"set yrange [*:*]\nset grid\n"
		/* one row below the plot, entries apart, in a box */
		"set key below horizontal maxrows 1 Left reverse width 2 samplen 2.5 spacing 1.3 box\n"
		"set style data yerrorlines\n");
}

/* The x range around the sizes measured, and a tick at each, in KiB or MiB. */
static void plot_sizes(FILE *gp, const struct sb_report *rep)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	int i, j, ticks = 0;
	char a[32];

	for (i = 0; i < rep->nres; i++) {
		if (rep->res[i].failed)
			continue;
		if (rep->res[i].size < lo)
			lo = rep->res[i].size;
		if (rep->res[i].size > hi)
			hi = rep->res[i].size;
	}
	fprintf(gp, "set xrange [%g:%g]\n", (double)lo / 1.5, (double)hi * 1.5);
	fprintf(gp, "set xtics (");
	for (i = 0; i < rep->nres; i++) {
		const struct sb_result *r = &rep->res[i];

		for (j = 0; j < i; j++)
			if (rep->res[j].size == r->size && !rep->res[j].failed)
				break;
		if (r->failed || j < i)
			continue;
		fprintf(gp, "%s\"%s\" %" PRIu64, ticks++ ? ", " : "",
			iec_size(r->size, a, sizeof(a)), r->size);
	}
	fprintf(gp, ")\n");
}

/* The points whose spread is too wide to trust, ringed (titled once). */
static void plot_wide(FILE *gp, const struct sb_report *rep)
{
	int i, n = 0;

	for (i = 0; i < rep->nres; i++)
		n += sb_wide_spread(&rep->res[i]);
	if (!n)
		return;
	fprintf(gp, ", '-' using 1:2 with points pt 6 ps 2.5 lc rgb 'red' "
		"title 'spread > %.0f%%: not to be trusted'", SB_SPREAD_WARN * 100);
}

/* The data of plot_wide(), after the plot command. */
static void plot_wide_data(FILE *gp, const struct sb_report *rep)
{
	int i, m, lines = 0, k;

	for (i = 0; i < rep->nres; i++)
		if (sb_wide_spread(&rep->res[i]))
			break;
	if (i == rep->nres)
		return;
	for (m = 0; m < SB_NMODES; m++) {
		for (k = 0; k < rep->nres; k++)
			if (rep->res[k].mode == (enum sb_mode)m && !rep->res[k].failed)
				break;
		if (k == rep->nres)
			continue;
		for (i = 0; i < rep->nres; i++) {
			const struct sb_result *r = &rep->res[i];

			if (r->mode == (enum sb_mode)m && sb_wide_spread(r))
				fprintf(gp, "%.6g %.4f\n", (double)r->size *
					pow(2, 0.05 * (lines - 1)), r->gbps.median);
		}
		lines++;
	}
	fprintf(gp, "e\n");
}

/* A data block per mode, a line per mode measured, and the baseline. */
static void plot_lines(FILE *gp, const struct sb_report *rep)
{
	int m, i, lines = 0;

	/* The baseline labelled on its line, not in the key among the modes. */
	fprintf(gp, "set label 1 \"memcpy from RAM: %.2f GB/s\" at graph 0.01, first %.4f "
		"offset 0,0.7 textcolor rgb 'gray30' noenhanced\n",
		rep->base.ram.median, rep->base.ram.median);
	if (rep->base.fresh.n)
		fprintf(gp, "set label 2 \"fresh pages (fault+zero+drop, no pipe): %.2f GB/s\" at graph 0.01, first %.4f "
			"offset 0,0.7 textcolor rgb 'gray30' noenhanced\n",
			rep->base.fresh.median, rep->base.fresh.median);
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
		/* each mode a little apart on x (x 2^(0.05 k)): two modes'
		 * bars at one size never hide each other */
		fprintf(gp, "%s$%s using ($1*2**(%.2f)):2:3:4 title '%s' lw 2 pt 7",
			lines ? ", " : "", sb_mode_name(m), 0.05 * (lines - 1),
			sb_mode_name(m));
		lines++;
	}
	plot_wide(gp, rep);
	fprintf(gp, ", %.4f with lines dt 2 lc rgb 'gray40' notitle",
		rep->base.ram.median);
	if (rep->base.fresh.n)
		fprintf(gp, ", %.4f with lines dt 3 lc rgb 'gray40' notitle",
			rep->base.fresh.median);
	fputc('\n', gp);
}

static void plot_script(FILE *gp, const struct sb_report *rep, bool svg)
{
	plot_frame(gp, rep, svg);
	plot_sizes(gp, rep);
	plot_lines(gp, rep);
	plot_wide_data(gp, rep);
}

/* A path that is (or became) a symlink, device, FIFO or directory is
 * refused: 0 or -EINVAL after saying so. */
static int plot_target_ok(const char *path)
{
	struct stat st;

	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		tool_warn("refusing to draw %s: it is %s, not a regular file",
			  path, tool_file_kind(path));
		return -EINVAL;
	}
	return 0;
}

/* Whether path may be drawn: a point to draw, gnuplot, a regular file
 * or none; 0, or -errno after saying why. */
static int plot_check(const struct sb_report *rep, const char *path)
{
	bool any = false;
	int i;

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
	return plot_target_ok(path);
}

/*
 * gnuplot, fed the script, drawing into outfd: 0 or -errno (told).
 * gnuplot dies with us (PR_SET_PDEATHSIG): a splicebench ended by any
 * signal while it draws leaves no gnuplot behind (and, outfile.h, no
 * file).
 */
static int plot_run(const struct sb_report *rep, const char *path, int outfd)
{
	pid_t parent = getpid(), pid;
	int fds[2], ret, status;
	FILE *gp;

	if (pipe2(fds, O_CLOEXEC) < 0) {
		ret = -errno;
		tool_warn("cannot draw %s: %s", path, tool_strerror(errno));
		return ret;
	}
	pid = fork();
	if (pid == 0) {
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
			_exit(127);
		if (dup2(fds[0], 0) < 0 || dup2(outfd, 1) < 0)
			_exit(127);
		execlp("gnuplot", "gnuplot", (char *)NULL);
		_exit(127);
	}
	ret = pid < 0 ? -errno : 0;
	close(fds[0]);
	if (ret < 0) {
		close(fds[1]);
		tool_warn("cannot run gnuplot: %s", tool_strerror(-ret));
		return ret;
	}
	gp = fdopen(fds[1], "w");
	if (!gp) {
		close(fds[1]);
	} else {
		plot_script(gp, rep, str_ends_with_icase(path, ".svg"));
		fclose(gp);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		tool_warn("cannot draw %s: gnuplot failed (see its message above); %s is unchanged",
			  path, path);
		return -EIO;
	}
	return 0;
}

/*
 * gnuplot draws into a temporary file beside path (outfile.h), renamed
 * over path only when it succeeded: a failure leaves path as it was, and
 * nothing but our own temporary file is ever removed.  A path that is (or
 * becomes) a symlink, device, FIFO or directory is refused, never written
 * through.
 */
int sb_plot(const struct sb_report *rep, const char *path)
{
	struct tool_out o;
	int ret;

	ret = plot_check(rep, path);
	if (ret < 0)
		return ret;
	ret = tool_out_open(&o, path);
	if (ret == -EINVAL)
		return plot_target_ok(path);	/* says what it is */
	if (ret < 0) {
		tool_warn("cannot write %s: cannot create a temporary file beside it: %s",
			  path, tool_strerror(-ret));
		return ret;
	}
	ret = plot_run(rep, path, o.fd);
	if (ret < 0) {
		tool_out_abort(&o);
		return ret;
	}
	ret = tool_out_commit(&o);
	if (ret == -EINVAL && plot_target_ok(path) == 0)
		tool_warn("refusing to draw %s: it changed while drawing", path);
	else if (ret < 0 && ret != -EINVAL)
		tool_warn("cannot write %s: %s", path, tool_strerror(-ret));
	return ret;
}
