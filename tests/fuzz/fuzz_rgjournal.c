/* libFuzzer: the intent journal's parser (lib/rgconf/journal.c) on arbitrary
 * text.  Invariants, not just crashes: an accepted journal's counts stay
 * inside its plan (what recovery undoes is a started step of it), a DELETE
 * step alone has saved data, every prefix cut at a line is accepted too
 * (a writer killed mid-write), and nothing leaks. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kattr/rgplan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const struct kattr_rgplan *p, const struct kattr_rgjournal_state *st)
{
	if (st->started > p->n || st->undone > st->started || (!st->run && st->started))
		abort();
	for (size_t i = 0; i < p->n; i++) {
		const struct kattr_rgplan_step *s = &p->v[i];

		if (!s->group || !*s->group)
			abort();
		if ((s->nattrs || s->ntids || s->skip) && s->kind != KATTR_RGPLAN_DELETE)
			abort();
		if (s->kind == KATTR_RGPLAN_RES && (!s->res.n || !s->res.old || !s->res.want))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kattr_rgjournal_state st;
	struct kattr_rgplan p;
	const char *text = (const char *)data;

	if (kattr_rgjournal_parse(text, size, &p, &st) < 0)
		return 0;
	check(&p, &st);
	kattr_rgplan_free(&p);
	for (size_t k = 0; k < size; k++) {
		if (text[k] != '\n')
			continue;
		if (kattr_rgjournal_parse(text, k + 1, &p, &st) < 0)
			abort();
		check(&p, &st);
		kattr_rgplan_free(&p);
	}
	return 0;
}
