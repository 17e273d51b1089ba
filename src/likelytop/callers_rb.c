// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * likelytop --callers: event format files and ring-buffer pages
 * (callers_rb.h).  The page: a u64 timestamp, a 64-bit commit word (the
 * data's length; bit 31: events were missed before this page, bit 30:
 * their count is stored after the data), then the events, each behind a
 * 32-bit header: type_len (5 bits) and time_delta (27 bits).  type_len
 * 1-28: that many 32-bit words of data follow; 0: the next word is the
 * length (itself included), then the data; 29: padding (a delta of 0:
 * the rest of the page); 30, 31: a time extension or stamp, 8 bytes.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "callers_rb.h"

#define PAGE_HDR 16
#define RB_MISSED_EVENTS (1ULL << 31)
#define RB_MISSED_STORED (1ULL << 30)
#define RB_PADDING 29
#define RB_TIME_EXTEND 30
#define RB_TIME_STAMP 31

/* The decimal number after key in [from, to); ULONG_MAX: none. */
static unsigned long number_after(const char *from, const char *to,
				  const char *key)
{
	size_t klen = strlen(key);
	const char *p = memmem(from, (size_t)(to - from), key, klen);
	unsigned long v = 0;
	int digits = 0;

	if (!p)
		return ULONG_MAX;
	for (p += klen; p < to && *p >= '0' && *p <= '9' && digits < 9; p++, digits++)
		v = v * 10 + (unsigned long)(*p - '0');
	return digits ? v : ULONG_MAX;
}

/* "...\tfield:TYPE NAME;\toffset:N;\tsize:N;\tsigned:N;" for name. */
static int find_field(const char *t, size_t len, const char *name,
		      struct lt_rb_field *f)
{
	size_t nlen = strlen(name);
	const char *line = t, *end = t + len, *nl, *semi, *p;
	unsigned long off, size, sign;

	for (; line < end; line = nl + 1) {
		nl = memchr(line, '\n', (size_t)(end - line));
		if (!nl)
			nl = end;
		p = memmem(line, (size_t)(nl - line), "field:", 6);
		semi = p ? memchr(p, ';', (size_t)(nl - p)) : NULL;
		/* the name is the last word before ';' (arrays: "name[N]") */
		if (!semi || (size_t)(semi - p) < nlen + 1 ||
		    memcmp(semi - nlen, name, nlen) ||
		    (semi[-(long)nlen - 1] != ' ' && semi[-(long)nlen - 1] != '*'))
			continue;
		off = number_after(semi, nl, "offset:");
		size = number_after(semi, nl, "size:");
		sign = number_after(semi, nl, "signed:");
		if ((size != 1 && size != 2 && size != 4 && size != 8) ||
		    off > 65535)
			return -EINVAL;
		f->offset = (unsigned int)off;
		f->size = (unsigned int)size;
		f->is_signed = sign == 1;
		return 0;
	}
	return -EINVAL;
}

int lt_rb_format_parse(const char *text, size_t len, const char *a,
		       struct lt_rb_field *fa, const char *b,
		       struct lt_rb_field *fb, unsigned int *id)
{
	const char *p = memmem(text, len, "\nID: ", 5);
	char num[16];
	size_t n = 0;

	if (!p && len >= 4 && !memcmp(text, "ID: ", 4))
		p = text - 1;
	if (!p)
		return -EINVAL;
	p += 5;
	while (p + n < text + len && n < sizeof(num) - 1 &&
	       p[n] >= '0' && p[n] <= '9')
		n++;
	if (!n || n > 5)
		return -EINVAL;
	memcpy(num, p, n);
	num[n] = '\0';
	*id = (unsigned int)strtoul(num, NULL, 10);
	if (a && find_field(text, len, a, fa) < 0)
		return -EINVAL;
	if (b && find_field(text, len, b, fb) < 0)
		return -EINVAL;
	return 0;
}

uint64_t lt_rb_field_get(const struct lt_rb_field *f, const unsigned char *rec,
			 size_t reclen)
{
	uint64_t v = 0;

	if (!f->size || (size_t)f->offset + f->size > reclen)
		return 0;
	memcpy(&v, rec + f->offset, f->size);	/* little-endian */
	if (f->is_signed && f->size < 8 && (v >> (8 * f->size - 1)) & 1)
		v |= ~0ULL << (8 * f->size);
	return v;
}

static uint32_t get32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

int lt_rb_page_foreach(const unsigned char *page, size_t len,
		       lt_rb_record_fn fn, void *arg, bool *missed)
{
	uint64_t commit;
	size_t off = PAGE_HDR, end;
	uint32_t hdr, type, w;
	int count = 0;

	if (len < PAGE_HDR)
		return -EINVAL;
	memcpy(&commit, page + 8, 8);
	if (missed)
		*missed = commit & RB_MISSED_EVENTS;
	commit &= ~(RB_MISSED_EVENTS | RB_MISSED_STORED);
	end = commit > len - PAGE_HDR ? len : PAGE_HDR + (size_t)commit;
	while (off + 4 <= end) {
		hdr = get32(page + off);
		type = hdr & 31;
		if (type == RB_TIME_EXTEND || type == RB_TIME_STAMP) {
			off += 8;
			continue;
		}
		if (type == RB_PADDING && !(hdr >> 5))
			break;		/* the rest is padding */
		if (type == RB_PADDING || type == 0) {
			if (off + 8 > end)
				break;
			w = get32(page + off + 4);
			if (w < 4 || w > end - off - 4)
				break;
			if (type == 0 && w > 4) {
				fn(page + off + 8, w - 4, arg);
				count++;
			}
			off += 4 + (size_t)w;
			continue;
		}
		if ((size_t)type * 4 > end - off - 4)
			break;
		fn(page + off + 4, (size_t)type * 4, arg);
		count++;
		off += 4 + (size_t)type * 4;
	}
	return count;
}
