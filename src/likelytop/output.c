// SPDX-License-Identifier: GPL-2.0-or-later
/* likelytop batch output: text, CSV, JSON and metrics (OpenMetrics, and
 * Prometheus' text format for --textfile). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "columns.h"
#include "openmetrics.h"
#include "output.h"
#include "tool.h"

int lt_out_parse(const char *name, enum lt_out_format *f)
{
	if (!strcmp(name, "text"))
		*f = LT_OUT_TEXT;
	else if (!strcmp(name, "csv"))
		*f = LT_OUT_CSV;
	else if (!strcmp(name, "json"))
		*f = LT_OUT_JSON;
	else if (!strcmp(name, "openmetrics"))
		*f = LT_OUT_OPENMETRICS;
	else
		return -EINVAL;
	return 0;
}

/* A miss rate below 100 that one decimal would round up to 100.0: its
 * first two decimals, cut (99.99), so only a site that always missed
 * shows 100.0. */
static bool pct_near_100(double pct)
{
	return pct >= 99.95 && pct < 100;
}

static double pct_cut2(double pct)
{
	double t = (double)(uint64_t)(pct * 100) / 100;

	return t >= 100 ? 99.99 : t;
}

void lt_fmt_pct(char *buf, size_t size, double pct)
{
	if (pct < 0)
		snprintf(buf, size, "-");
	else if (pct_near_100(pct))
		snprintf(buf, size, "%.2f", pct_cut2(pct));
	else
		snprintf(buf, size, "%.1f", pct);
}

void lt_fmt_count(char *buf, size_t size, uint64_t v, int width)
{
	static const char units[] = "KMGTPE";
	double d = (double)v;
	int n = snprintf(buf, size, "%llu", (unsigned long long)v);

	for (int u = 0; n > width && u < 6; u++) {
		d /= 1000;
		n = snprintf(buf, size, d < 10 ? "%.1f%c" : "%.0f%c", d, units[u]);
	}
}

void lt_fmt_rate(char *buf, size_t size, double rate)
{
	static const char units[] = "KMGTPE";
	int u = 0;

	if (!(rate >= 99999.95)) {
		snprintf(buf, size, "%.1f", rate);
		return;
	}
	rate /= 1000;
	while (rate >= 999.95 && u < 5) {
		rate /= 1000;
		u++;
	}
	snprintf(buf, size, "%.1f%c", rate, units[u]);
}

static const char digit_pairs[] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* v in decimal, ending at end (written backwards, two digits a step);
 * returns where it starts. */
static inline char *dec_back(char *end, uint64_t v)
{
	while (v >= 100) {
		end -= 2;
		memcpy(end, digit_pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10) {
		end -= 2;
		memcpy(end, digit_pairs + 2 * v, 2);
	} else {
		*--end = (char)('0' + v);
	}
	return end;
}

/* Unsigned decimal into p (no NUL); returns the end. */
static char *put_u64(char *p, uint64_t v)
{
	char tmp[24], *q = dec_back(tmp + sizeof(tmp), v);
	size_t n = (size_t)(tmp + sizeof(tmp) - q);

	memcpy(p, q, n);
	return p + n;
}

/* One decimal, fixed width, right-aligned. */
static char *put_pad_dec1(char *p, double v, int width)
{
	char tmp[48];
	int n;

	if (v < 0) {
		n = 1;
		tmp[0] = '-';
	} else if (v < 1e15) {
		uint64_t t = (uint64_t)(v * 10 + 0.5);
		char *q = put_u64(tmp, t / 10);

		*q++ = '.';
		*q++ = (char)('0' + t % 10);
		n = (int)(q - tmp);
	} else {
		n = snprintf(tmp, sizeof(tmp), "%.3g", v);
	}
	for (; n < width; width--)
		*p++ = ' ';
	memcpy(p, tmp, (size_t)n);
	return p + n;
}

static bool is_all(const struct lt_out_meta *m)
{
	return m->format == KATTR_PROFILE_FMT_ALL;
}

/*
 * The text columns (-o).  One name per column: the -o name is the title
 * (the live view's too); branch_all profiles title the counts by what
 * they are (taken / not taken: .title), and -o takes those titles as well.
 * alias: the name -o took before (kept so that scripts do not break).
 */
static const struct tool_column column_defs[LT_COL_COUNT] = {
	[LT_COL_MARK] = { .name = "MARK", .title = "MARK", .alias = "!", .help = "! when the hint is wrong more often than right" },
	[LT_COL_HINT] = { .name = "HINT", .title = "HINT", .help = "likely, unlikely, annotated or none" },
	[LT_COL_CORRECT] = { .name = "CORRECT", .title = "NOT-TAKEN", .alias = "NOTTAKEN", .help = "evaluations that went as hinted (branch_all: not taken)", .flags = TOOL_COL_RIGHT },
	[LT_COL_INCORRECT] = { .name = "INCORRECT", .title = "TAKEN", .help = "evaluations that did not (branch_all: taken)", .flags = TOOL_COL_RIGHT },
	[LT_COL_MISS] = { .name = "MISS%", .title = "TAKEN%", .alias = "MISS", .help = "incorrect in percent of all evaluations", .flags = TOOL_COL_RIGHT },
	[LT_COL_RATE] = { .name = "WRONG/s", .title = "TAKEN/s", .alias = "RATE", .help = "incorrect per second since the previous snapshot", .flags = TOOL_COL_RIGHT },
	[LT_COL_CONSTANT] = { .name = "CONSTANT", .title = "CONSTANT", .help = "constant evaluations (branch_annotated)", .flags = TOOL_COL_RIGHT },
	[LT_COL_FUNCTION] = { .name = "FUNCTION", .title = "FUNCTION", .help = "function name" },
	[LT_COL_LOCATION] = { .name = "LOCATION", .title = "LOCATION", .alias = "FILE:LINE", .help = "source file and line" },
	[LT_COL_FILE] = { .name = "FILE", .title = "FILE", .help = "source file" },
	[LT_COL_LINE] = { .name = "LINE", .title = "LINE", .help = "source line", .flags = TOOL_COL_RIGHT },
};

static const int default_columns[] = {
	LT_COL_MARK, LT_COL_HINT, LT_COL_CORRECT, LT_COL_INCORRECT, LT_COL_MISS,
	LT_COL_RATE, LT_COL_FUNCTION, LT_COL_LOCATION,
};

static const struct tool_columns columns = {
	.col = column_defs, .n = LT_COL_COUNT,
	.def = default_columns,
	.ndef = sizeof(default_columns) / sizeof(default_columns[0]),
	.max = LT_COL_MAX,
	.help_indent = " ", .help_width = 11, .help_gap = "  ",
	.flags = TOOL_COLS_HELP_ALIAS | TOOL_COLS_MATCH_TITLE,
};

const char *lt_out_column_title(enum lt_column_id c, bool branch_all)
{
	return tool_column_header(&columns, (int)c, branch_all);
}

bool lt_out_column_right(enum lt_column_id c)
{
	return column_defs[c].flags & TOOL_COL_RIGHT;
}

const char *lt_out_column_help(enum lt_column_id c)
{
	return column_defs[c].help;
}

const enum lt_column_id *lt_out_columns_default(size_t *n)
{
	static enum lt_column_id ids[sizeof(default_columns) / sizeof(default_columns[0])];

	*n = sizeof(ids) / sizeof(ids[0]);
	for (size_t i = 0; i < *n; i++)
		ids[i] = (enum lt_column_id)default_columns[i];
	return ids;
}

int lt_out_columns_parse(const char *list, enum lt_column_id *cols,
			 size_t *n, const char **bad, size_t *badlen)
{
	int ids[LT_COL_MAX];
	int ret = tool_columns_parse(&columns, list, ids, n, bad, badlen);

	for (size_t i = 0; ret == 0 && i < *n; i++)
		cols[i] = (enum lt_column_id)ids[i];
	return ret;
}

size_t lt_out_columns_all(enum lt_column_id *cols)
{
	for (int i = 0; i < LT_COL_COUNT; i++)
		cols[i] = (enum lt_column_id)i;
	return LT_COL_COUNT;
}

void lt_out_columns_help(FILE *fp)
{
	tool_columns_help(fp, &columns);
}

/* Cell text of column c for e (no padding); returns the end. */
static char *put_cell(char *p, enum lt_column_id c,
		      const struct kattr_profile_entry *e, bool raw)
{
	switch (c) {
	case LT_COL_MARK:
		*p++ = kattr_profile_entry_is_wrong(e) ? '!' : raw ? '-' : ' ';
		return p;
	case LT_COL_HINT:
		return stpcpy(p, kattr_profile_hint_name(e->hint));
	case LT_COL_CORRECT:
		return put_u64(p, e->correct);
	case LT_COL_INCORRECT:
		return put_u64(p, e->incorrect);
	case LT_COL_MISS: {
		double pct = kattr_profile_entry_pct(e);

		if (pct_near_100(pct))
			return p + sprintf(p, "%.2f", pct_cut2(pct));
		return put_pad_dec1(p, pct, 0);
	}
	case LT_COL_RATE:
		if (e->reset)	/* a counter went down: no rate */
			return stpcpy(p, "reset");
		return put_pad_dec1(p, e->has_rate ? e->rate : -1, 0);
	case LT_COL_CONSTANT:
		if (!e->has_constant)
			return stpcpy(p, "-");
		return put_u64(p, e->constant);
	case LT_COL_FUNCTION:
		return tool_esc(p, e->function, raw ? TOOL_ESC_BLANK : 0);
	case LT_COL_LOCATION:
		p = tool_esc(p, e->file, raw ? TOOL_ESC_BLANK : 0);
		*p++ = ':';
		return put_u64(p, e->line);
	case LT_COL_FILE:
		return tool_esc(p, e->file, raw ? TOOL_ESC_BLANK : 0);
	case LT_COL_LINE:
		return put_u64(p, e->line);
	case LT_COL_COUNT:
		break;
	}
	return p;
}

static size_t digits(uint64_t v)
{
	size_t n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/* Display columns of s as tool_esc() shows it (tool_esc_width()), in
 * one pass for the usual plain ASCII name. */
static size_t name_width(const char *s)
{
	size_t n = strlen(s);

	return tool_esc_plain(s, n) ? n : tool_esc_width(s, 0);
}

/* What the widths of the columns depend on, over all rows. */
struct widths {
	uint64_t correct, incorrect, constant, line;
	double rate;
	size_t hint, function, file, location;
	bool reset;
};

/*
 * Rows come in sort order, scattered over a snapshot of 200,000 sites:
 * fetch the entry 16 rows ahead and its names 8 rows ahead, so the
 * printers do not wait on memory (bench/likelytop/run.sh: without it one
 * batch iteration takes some 20% more CPU).  always_inline: GCC takes a
 * function of prefetches alone for one without effect and drops its
 * calls before inlining them.
 */
static inline __attribute__((always_inline)) void
fetch_ahead(const struct kattr_profile_entry *const *rows, size_t i, size_t n)
{
	if (i + 16 < n)
		__builtin_prefetch(rows[i + 16]);
	if (i + 8 < n) {
		__builtin_prefetch(rows[i + 8]->function);
		__builtin_prefetch(rows[i + 8]->file);
	}
}

/* The rows to print: pointers to entries (a live model's), or a table's
 * sites in its order (a batch pass: kattr_profile_table_order()). */
struct lt_rows {
	const struct kattr_profile_entry *const *v;	/* NULL: t's */
	const struct kattr_profile_table *t;
	size_t n;
};

/* Row i, those ahead fetched meanwhile: v's entry, or the table's site
 * made an entry in *tmp. */
static inline __attribute__((always_inline)) const struct kattr_profile_entry *
row_at(const struct lt_rows *r, size_t i, struct kattr_profile_entry *tmp)
{
	if (r->v) {
		fetch_ahead(r->v, i, r->n);
		return r->v[i];
	}
	kattr_profile_table_entry(r->t, i, tmp);
	return tmp;
}

/* One pass over the rows, measuring only what the padded columns need:
 * the numbers' largest values and the names' widest. */
static void measure(const struct lt_rows *r, const bool *need,
		    struct widths *m)
{
	bool names = need[LT_COL_FUNCTION], files = need[LT_COL_FILE] ||
		     need[LT_COL_LOCATION];

	memset(m, 0, sizeof(*m));
	for (size_t i = 0; i < r->n; i++) {
		struct kattr_profile_entry tmp;
		const struct kattr_profile_entry *e = row_at(r, i, &tmp);
		size_t w;

		if (e->correct > m->correct)
			m->correct = e->correct;
		if (e->incorrect > m->incorrect)
			m->incorrect = e->incorrect;
		if (e->has_constant && e->constant > m->constant)
			m->constant = e->constant;
		if (e->line > m->line)
			m->line = e->line;
		if (e->has_rate && !e->reset && e->rate > m->rate)
			m->rate = e->rate;
		m->reset |= e->reset;
		w = strlen(kattr_profile_hint_name(e->hint));
		if (w > m->hint)
			m->hint = w;
		if (names && (w = name_width(e->function)) > m->function)
			m->function = w;
		if (files) {
			w = name_width(e->file);
			if (w > m->file)
				m->file = w;
			w += 1 + digits(e->line);
			if (w > m->location)
				m->location = w;
		}
	}
}

/* The width of column c's widest cell, from measure(). */
static size_t column_width(enum lt_column_id c, const struct widths *m)
{
	char tmp[64];
	size_t w;

	switch (c) {
	case LT_COL_MARK:
		return 1;
	case LT_COL_HINT:
		return m->hint;
	case LT_COL_CORRECT:
		return digits(m->correct);
	case LT_COL_INCORRECT:
		return digits(m->incorrect);
	case LT_COL_MISS:
		return 5;		/* 100.0 */
	case LT_COL_RATE:
		w = (size_t)(put_pad_dec1(tmp, m->rate, 0) - tmp);
		return m->reset && w < 5 ? 5 : w;
	case LT_COL_CONSTANT:
		return digits(m->constant);
	case LT_COL_FUNCTION:
		return m->function;
	case LT_COL_LOCATION:
		return m->location;
	case LT_COL_FILE:
		return m->file;
	case LT_COL_LINE:
		return digits(m->line);
	case LT_COL_COUNT:
		break;
	}
	return 0;
}

/* Display width of the cell text at [s, e) that put_cell() wrote: bytes
 * but UTF-8 continuation bytes (\xNN escapes are 4 bytes, 4 columns). */
static size_t shown_width(const char *s, const char *e)
{
	size_t w = (size_t)(e - s);

	for (; s < e; s++)
		w -= ((unsigned char)*s & 0xc0) == 0x80;
	return w;
}

/* Room for need bytes in the line buffer *buf (capacity *cap): 0 or
 * -ENOMEM (*buf is then freed). */
static int line_room(char **buf, size_t *cap, size_t need)
{
	char *nb;

	if (need <= *cap)
		return 0;
	nb = realloc(*buf, need);
	if (!nb) {
		free(*buf);
		*buf = NULL;
		return -ENOMEM;
	}
	*buf = nb;
	*cap = need;
	return 0;
}

/* The text table's columns and their widths. */
struct text_table {
	const enum lt_column_id *cols;
	size_t ncols;
	size_t last;		/* the first column not padded */
	size_t width[LT_COL_MAX];
	bool all, raw;
};

/* Columns as wide as their titles and (unless raw) widest cells. */
static void text_widths(struct text_table *tt, const struct lt_out_meta *meta,
			const struct lt_rows *r)
{
	bool need[LT_COL_COUNT] = { false };
	struct widths m;

	tt->cols = meta->ncols ? meta->cols : lt_out_columns_default(&tt->ncols);
	if (meta->ncols)
		tt->ncols = meta->ncols;
	tt->all = is_all(meta);
	tt->raw = meta->raw;
	for (size_t k = 0; k < tt->ncols; k++)
		tt->width[k] = strlen(lt_out_column_title(tt->cols[k],
							  tt->all));
	/* The last column is not padded (unless right-aligned): no need to
	 * measure it. */
	tt->last = lt_out_column_right(tt->cols[tt->ncols - 1]) ? tt->ncols :
		   tt->ncols - 1;
	if (tt->raw)
		return;
	for (size_t k = 0; k < tt->last; k++)
		need[tt->cols[k]] = true;
	measure(r, need, &m);
	for (size_t k = 0; k < tt->last; k++) {
		size_t w = column_width(tt->cols[k], &m);

		if (w > tt->width[k])
			tt->width[k] = w;
	}
}

/* The summary line and the column titles. */
static int text_header(FILE *fp, const struct lt_out_meta *meta,
		       const struct text_table *tt, const struct lt_rows *r)
{
	time_t t = (time_t)meta->time;
	size_t wrong = 0;
	char tbuf[64], *source;
	struct tm tm;

	for (size_t i = 0; i < r->n; i++) {
		struct kattr_profile_entry tmp;

		wrong += kattr_profile_entry_is_wrong(row_at(r, i, &tmp));
	}
	localtime_r(&t, &tm);
	strftime(tbuf, sizeof(tbuf), "%H:%M:%S", &tm);
	/* The source is a file name: any bytes. */
	source = malloc(4 * strlen(meta->source) + 1);
	if (!source)
		return -ENOMEM;
	tool_esc(source, meta->source, 0);
	fprintf(fp, "likelytop - %s - %s (%s) - %zu sites, %zu shown, %zu wrong hint%s",
		tbuf, source, kattr_profile_format_name(meta->format),
		meta->sites, r->n, wrong, wrong == 1 ? "" : "s");
	free(source);
	if (meta->bad_rows)
		fprintf(fp, ", %zu malformed rows skipped", meta->bad_rows);
	fputs("\n\n", fp);
	for (size_t k = 0; k < tt->ncols; k++) {
		const char *title = lt_out_column_title(tt->cols[k], tt->all);
		bool right = lt_out_column_right(tt->cols[k]);
		int pad = tt->raw ? 0 : (int)(tt->width[k] - strlen(title));

		fprintf(fp, "%s%*s%s%*s", k ? " " : "",
			right ? pad : 0, "", title,
			right || k == tt->last ? 0 : pad, "");
	}
	fputc('\n', fp);
	return 0;
}

/* A number right-aligned in width columns (no padding when wider). */
static inline char *put_u64_right(char *p, uint64_t v, size_t width)
{
	char tmp[24], *q = dec_back(tmp + sizeof(tmp), v);
	size_t n = (size_t)(tmp + sizeof(tmp) - q);

	if (n < width) {
		memset(p, ' ', width - n);
		p += width - n;
	}
	memcpy(p, q, n);
	return p + n;
}

/* A name cell: the name itself when plain (the usual case: one length,
 * one check, one copy), else escaped; *w gets its display width. */
static inline char *put_name(char *p, const char *s, bool raw, size_t *w)
{
	size_t n = strlen(s);
	char *start = p;

	if (!raw && tool_esc_plain(s, n)) {
		memcpy(p, s, n);
		*w = n;
		return p + n;
	}
	p = tool_esc(p, s, raw ? TOOL_ESC_BLANK : 0);
	*w = shown_width(start, p);
	return p;
}

/* Left-aligned cell of w columns at [.., p): pad to width. */
static inline char *pad_left(char *p, size_t w, size_t width)
{
	if (w < width) {
		memset(p, ' ', width - w);
		p += width - w;
	}
	return p;
}

/* One cell of row e in column c, padded to width (0: not padded). */
static inline char *text_cell(char *p, enum lt_column_id c,
			      const struct kattr_profile_entry *e, size_t width,
			      bool raw)
{
	char tmp[64], *q;
	size_t w;

	switch (c) {
	case LT_COL_CORRECT:
		return put_u64_right(p, e->correct, width);
	case LT_COL_INCORRECT:
		return put_u64_right(p, e->incorrect, width);
	case LT_COL_LINE:
		return put_u64_right(p, e->line, width);
	case LT_COL_FUNCTION:
		p = put_name(p, e->function, raw, &w);
		return pad_left(p, w, width);
	case LT_COL_FILE:
		p = put_name(p, e->file, raw, &w);
		return pad_left(p, w, width);
	case LT_COL_LOCATION:
		p = put_name(p, e->file, raw, &w);
		*p++ = ':';
		q = put_u64(p, e->line);
		return pad_left(q, w + 1 + (size_t)(q - p), width);
	default:
		break;
	}
	/* the others, short: into tmp, then aligned */
	q = put_cell(tmp, c, e, raw);
	w = (size_t)(q - tmp);
	if (lt_out_column_right(c) && w < width) {
		memset(p, ' ', width - w);
		p += width - w;
	}
	memcpy(p, tmp, w);
	p += w;
	return lt_out_column_right(c) ? p : pad_left(p, w, width);
}

/* Row e's cells at p (room enough), padded to the widths; returns the
 * end of the row, its '\n' written. */
static char *text_row(char *p, const struct text_table *tt,
		      const struct kattr_profile_entry *e)
{
	for (size_t k = 0; k < tt->ncols; k++) {
		if (k)
			*p++ = ' ';
		p = text_cell(p, tt->cols[k], e,
			      tt->raw || k == tt->last ? 0 : tt->width[k],
			      tt->raw);
	}
	*p++ = '\n';
	return p;
}

/*
 * Text: like top -b, a summary line, then a table whose columns are as
 * wide as their widest cell.  Hand-written rather than libsmartcols:
 * scols_print_table() takes about 1 s of CPU for the 200,000 rows of a
 * CONFIG_PROFILE_ALL_BRANCHES kernel, several times `sort` on the same
 * file (bench/likelytop/run.sh); this takes two cheap passes.
 */
static int write_text(FILE *fp, const struct lt_out_meta *meta,
		      const struct lt_rows *r)
{
	enum { CHUNK = 1 << 16 };	/* rows go out 64 KiB at a time */
	struct text_table tt;
	size_t cap = 0, cells = 0, used = 0;
	char *buf = NULL;

	text_widths(&tt, meta, r);
	for (size_t k = 0; k < tt.ncols; k++)
		cells += tt.width[k] + 1;
	if (!meta->noheadings && text_header(fp, meta, &tt, r) < 0)
		return -ENOMEM;
	for (size_t i = 0; i < r->n; i++) {
		struct kattr_profile_entry tmp;
		const struct kattr_profile_entry *e = row_at(r, i, &tmp);
		/* escapes take at most 4 bytes a byte; a row names its file
		 * at most twice (FILE, LOCATION) per column given */
		size_t need = 4 * (strlen(e->function) + strlen(e->file)) *
			      tt.ncols + 32 * tt.ncols + cells;

		if (used + need > cap) {
			if (used)
				fwrite(buf, 1, used, fp);
			used = 0;
			if (line_room(&buf, &cap, need > CHUNK ? need : CHUNK) < 0)
				return -ENOMEM;
		}
		used = (size_t)(text_row(buf + used, &tt, e) - buf);
	}
	if (used)
		fwrite(buf, 1, used, fp);
	free(buf);
	if (!meta->noheadings)
		fputc('\n', fp);
	return 0;
}

/* A double >= 0 with a fixed number of decimals (at most 3). */
static char *put_fixed(char *p, double v, int decimals)
{
	static const uint64_t scale[] = { 1, 10, 100, 1000 };
	uint64_t t, m = scale[decimals];

	if (!(v >= 0) || v >= 1e15)
		return p + sprintf(p, "%.*f", decimals, v);
	t = (uint64_t)(v * (double)m + 0.5);
	p = put_u64(p, t / m);
	if (decimals) {
		char frac[4];
		uint64_t f = t % m;

		*p++ = '.';
		for (int i = decimals - 1; i >= 0; i--) {
			frac[i] = (char)('0' + f % 10);
			f /= 10;
		}
		memcpy(p, frac, (size_t)decimals);
		p += decimals;
	}
	return p;
}

static int write_csv(FILE *fp, const struct lt_out_meta *meta,
		     const struct lt_rows *r)
{
	char *line = NULL;
	size_t cap = 0;

	if (meta->iteration <= 1 && !meta->noheadings)
		fputs("iteration,hint,correct,incorrect,miss_pct,constant,function,file,line,rate,reset\n", fp);
	for (size_t i = 0; i < r->n; i++) {
		struct kattr_profile_entry tmp;
		const struct kattr_profile_entry *e = row_at(r, i, &tmp);
		double pct = kattr_profile_entry_pct(e);
		size_t need;
		char *p;

		/* Quoting and U+FFFD take at most 3 bytes per byte. */
		need = 3 * (strlen(e->function) + strlen(e->file)) + 192;
		if (line_room(&line, &cap, need) < 0)
			return -ENOMEM;
		p = put_u64(line, meta->iteration);
		*p++ = ',';
		p = stpcpy(p, kattr_profile_hint_name(e->hint));
		*p++ = ',';
		p = put_u64(p, e->correct);
		*p++ = ',';
		p = put_u64(p, e->incorrect);
		*p++ = ',';
		if (pct >= 0)
			p = put_fixed(p, pct, 2);
		*p++ = ',';
		if (e->has_constant)
			p = put_u64(p, e->constant);
		*p++ = ',';
		p = tool_csv(p, e->function);
		*p++ = ',';
		p = tool_csv(p, e->file);
		*p++ = ',';
		p = put_u64(p, e->line);
		*p++ = ',';
		if (e->has_rate)
			p = put_fixed(p, e->rate, 3);
		*p++ = ',';
		if (e->reset)
			*p++ = '1';
		*p++ = '\n';
		fwrite(line, 1, (size_t)(p - line), fp);
	}
	free(line);
	return 0;
}

/* A number with CSV's decimals (2 for miss_pct, 3 for rate: 55.55, not
 * 55.547264995641953, rounded the same way), trailing zeros cut (55.5,
 * 100.0). */
static char *json_num(char *p, double v, int decimals)
{
	char *end = put_fixed(p, v, decimals);

	while (end[-1] == '0' && end[-2] != '.' && memchr(p, '.', (size_t)(end - p)))
		end--;
	return end;
}

/* One row's object into p (room: 6 bytes per name byte and 256). */
static char *json_row(char *p, const struct kattr_profile_entry *e,
		      const char *fn, const char *file)
{
	double pct = kattr_profile_entry_pct(e);

	p = stpcpy(p, "{\"hint\":\"");
	p = stpcpy(p, kattr_profile_hint_name(e->hint));
	p = stpcpy(p, "\",\"correct\":");
	p = put_u64(p, e->correct);
	p = stpcpy(p, ",\"incorrect\":");
	p = put_u64(p, e->incorrect);
	p = stpcpy(p, ",\"miss_pct\":");
	p = pct >= 0 ? json_num(p, pct, 2) : stpcpy(p, "null");
	p = stpcpy(p, ",\"constant\":");
	p = e->has_constant ? put_u64(p, e->constant) : stpcpy(p, "null");
	p = stpcpy(p, ",\"function\":");
	p = tool_json_quote(p, fn);
	p = stpcpy(p, ",\"file\":");
	p = tool_json_quote(p, file);
	p = stpcpy(p, ",\"line\":");
	p = put_u64(p, e->line);
	if (e->has_rate) {
		p = stpcpy(p, ",\"rate\":");
		p = json_num(p, e->rate, 3);
	}
	/* A counter went down (a restart): "reset": true, no rate. */
	if (e->reset)
		p = stpcpy(p, ",\"reset\":true");
	*p++ = '}';
	return p;
}

/*
 * JSON written by hand, as the text and CSV rows are (json-c's object per
 * row cost 1.8x sort's CPU on 200,000 rows): the same bytes json-c wrote
 * (tests/likelytop/test_output.c compares them), names made valid UTF-8
 * first (U+FFFD for invalid bytes), so the output is always valid JSON.
 */
static int write_json(FILE *fp, const struct lt_out_meta *meta,
		      const struct lt_rows *r)
{
	char *fbuf = NULL, *lbuf = NULL, *line = NULL;
	size_t fcap = 0, lcap = 0, cap = 0;
	int ret = 0;

	(void)meta;
	fputc('[', fp);
	for (size_t i = 0; i < r->n; i++) {
		struct kattr_profile_entry tmp;
		const struct kattr_profile_entry *e = row_at(r, i, &tmp);
		const char *fn, *file;
		char *p;

		fn = tool_json_text(e->function, &fbuf, &fcap);
		file = tool_json_text(e->file, &lbuf, &lcap);
		if (!fn || !file ||
		    line_room(&line, &cap, 6 * (strlen(fn) + strlen(file)) + 256) < 0) {
			ret = -ENOMEM;
			break;
		}
		p = line;
		if (i)
			*p++ = ',';
		p = json_row(p, e, fn, file);
		fwrite(line, 1, (size_t)(p - line), fp);
	}
	if (!ret)
		fputs("]\n", fp);
	free(fbuf);
	free(lbuf);
	free(line);
	return ret;
}

/* The order sites are merged in: one series per label set. */
static int site_cmp(const void *pa, const void *pb)
{
	const struct kattr_profile_entry *a = *(const struct kattr_profile_entry *const *)pa;
	const struct kattr_profile_entry *b = *(const struct kattr_profile_entry *const *)pb;
	int c = strcmp(a->file, b->file);

	if (c == 0)
		c = (a->line > b->line) - (a->line < b->line);
	if (c == 0)
		c = strcmp(a->function, b->function);
	if (c == 0)
		c = (int)a->hint - (int)b->hint;
	return c;
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

/* One counter family: a sample per site (incorrect: its misses). */
static int metric_family(struct tool_om *om, const struct kattr_profile_entry **s,
			 size_t n, bool incorrect, bool all)
{
	static const char *const help[2][2] = {
		{ "Evaluations of the branch that went as its hint says.",
		  "Evaluations of the branch that did not go as its hint says." },
		{ "Evaluations of the branch that were not taken (branch_all profile).",
		  "Evaluations of the branch that were taken (branch_all profile)." },
	};
	int ret = tool_om_family(om, incorrect ? "likelytop_branch_incorrect" :
				 "likelytop_branch_correct", TOOL_OM_COUNTER, NULL,
				 help[all][incorrect]);

	for (size_t i = 0, j; ret == 0 && i < n; i = j) {
		uint64_t v = 0;
		char line[24];
		struct tool_om_label l[] = {
			{ "function", s[i]->function }, { "file", s[i]->file },
			{ "line", line }, { "hint", kattr_profile_hint_name(s[i]->hint) },
		};

		/* Sites of one line and hint (two likely() on a line) are
		 * one series: a duplicate would fail the whole scrape. */
		for (j = i; j < n && (j == i || site_cmp(&s[i], &s[j]) == 0); j++)
			v = add_sat(v, incorrect ? s[j]->incorrect : s[j]->correct);
		snprintf(line, sizeof(line), "%u", (unsigned int)s[i]->line);
		ret = tool_om_sample(om, l, 4, v);
	}
	return ret;
}

/* The sites as two counter families, with function, file, line and hint
 * as labels, in the dialect d. */
static int write_metrics(FILE *fp, enum tool_om_dialect d,
			 const struct lt_out_meta *meta,
			 const struct kattr_profile_entry *const *rows, size_t n)
{
	const struct kattr_profile_entry **s = malloc((n ? n : 1) * sizeof(*s));
	struct tool_om om;
	int ret;

	if (!s)
		return -ENOMEM;
	memcpy(s, rows, n * sizeof(*s));
	qsort(s, n, sizeof(*s), site_cmp);
	tool_om_init(&om, fp, d);
	ret = metric_family(&om, s, n, false, is_all(meta));
	if (ret == 0)
		ret = metric_family(&om, s, n, true, is_all(meta));
	tool_om_end(&om);
	free(s);
	return ret;
}

/* One iteration's rows r in the format f. */
static int write_rows(FILE *fp, enum lt_out_format f,
		      const struct lt_out_meta *meta, const struct lt_rows *r)
{
	int ret;

	errno = 0;
	switch (f) {
	case LT_OUT_CSV:
		ret = write_csv(fp, meta, r);
		break;
	case LT_OUT_JSON:
		ret = write_json(fp, meta, r);
		break;
	case LT_OUT_OPENMETRICS:
	case LT_OUT_PROM:
		if (!r->v)
			return -EINVAL;	/* not from a table (see the header) */
		ret = write_metrics(fp, f == LT_OUT_PROM ? TOOL_OM_PROMETHEUS :
				    TOOL_OM_OPENMETRICS, meta, r->v, r->n);
		break;
	default:
		ret = write_text(fp, meta, r);
	}
	/* The errno of the write that failed (EPIPE: the reader left). */
	if (ret == 0 && (fflush(fp) == EOF || ferror(fp)))
		ret = errno ? -errno : -EIO;
	return ret;
}

int lt_out_write(FILE *fp, enum lt_out_format f, const struct lt_out_meta *meta,
		 const struct kattr_profile_entry *const *rows, size_t n)
{
	struct lt_rows r = { .v = rows, .n = n };

	return write_rows(fp, f, meta, &r);
}

int lt_out_write_table(FILE *fp, enum lt_out_format f,
		       const struct lt_out_meta *meta,
		       const struct kattr_profile_table *t)
{
	struct lt_rows r = { .t = t, .n = t->shown };

	return write_rows(fp, f, meta, &r);
}
