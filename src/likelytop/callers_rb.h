/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * likelytop --callers: the bytes tracefs gives: an event's format file
 * (events/SYS/NAME/format) and the ring buffer's pages as read from
 * per_cpu/cpuN/trace_pipe_raw (the layout events/header_page and
 * events/header_event describe).  Pure: no I/O.
 */
#ifndef LIKELYTOP_CALLERS_RB_H
#define LIKELYTOP_CALLERS_RB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where one field of an event's record is. */
struct lt_rb_field {
	unsigned int offset, size;	/* size 0: not found */
	bool is_signed;
};

/*
 * From a format file's text: the event's id and the fields named a and b
 * (either may be NULL).  0, or -EINVAL when the text has no "ID:" line or
 * a named field is missing or is not 1, 2, 4 or 8 bytes.
 */
int lt_rb_format_parse(const char *text, size_t len, const char *a,
		       struct lt_rb_field *fa, const char *b,
		       struct lt_rb_field *fb, unsigned int *id);

/* A field's value (little-endian host, zero- or sign-extended). */
uint64_t lt_rb_field_get(const struct lt_rb_field *f, const unsigned char *rec,
			 size_t reclen);

/*
 * Each data record of one page (len bytes, as one read of trace_pipe_raw
 * returned it) to fn (a record shorter than a field it reads: the
 * field reads as 0).  Returns the
 * number of records, or -EINVAL when the page header does not fit.
 * *missed (if not NULL) is set when the page says events were lost
 * before it.
 */
typedef void (*lt_rb_record_fn)(const unsigned char *rec, size_t len, void *arg);
int lt_rb_page_foreach(const unsigned char *page, size_t len,
		       lt_rb_record_fn fn, void *arg, bool *missed);

#endif
