// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * likelytop --callers' tracefs readers on arbitrary bytes: an event
 * format file (the text) and a ring-buffer page (the same bytes): every
 * record handed out lies inside the page, every field read inside its
 * record.
 */
#include <stdint.h>
#include <stdlib.h>

#include "callers_rb.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct ctx {
	const uint8_t *page;
	size_t size;
	struct lt_rb_field a, b;
};

static void on_record(const unsigned char *rec, size_t len, void *arg)
{
	struct ctx *c = arg;

	if (rec < c->page || rec + len > c->page + c->size || !len)
		abort();
	(void)lt_rb_field_get(&c->a, rec, len);
	(void)lt_rb_field_get(&c->b, rec, len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ctx c = { .page = data, .size = size };
	unsigned int id;
	bool missed;

	if (lt_rb_format_parse((const char *)data, size, "call_site", &c.a,
			       "ptr", &c.b, &id) == 0 &&
	    (c.a.size == 0 || c.a.size > 8 || c.b.size == 0 || c.b.size > 8))
		abort();
	c.a = (struct lt_rb_field){ .offset = 8, .size = 8 };
	c.b = (struct lt_rb_field){ .offset = 16, .size = 8 };
	(void)lt_rb_page_foreach(data, size, on_record, &c, &missed);
	return 0;
}
