/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: the RGCS emulator's store parsers (tests/rgcsfs).
 * Byte 0 picks the group (root, a, a/b, a/b/c, a/b/c/d), byte 1 the
 * attribute; the rest is one write(2).  After every store the shares of
 * the whole tree must still satisfy the ABI's invariants.
 *
 * The model is included whole, so this file needs nothing but the
 * fuzz CMakeLists' glob (and no FUSE).
 */
#include "../rgcsfs/rgcs_model.c"

#include <stdint.h>

static struct rgcs_fs fz;
static struct rgcs_group *groups[5];

static void setup(void)
{
	static const char *const names[] = { "a", "b", "c", "d" };
	int i;

	if (rgcs_init(&fz, "/proc"))
		abort();
	groups[0] = fz.root;
	for (i = 0; i < 4; i++) {
		if (rgcs_mkdir(&fz, groups[i], names[i]))
			abort();
		groups[i + 1] = rgcs_child(groups[i], names[i]);
	}
}

static void check(const struct rgcs_group *g)
{
	const struct rgcs_group *c;
	int k;

	for (k = 0; k < RGCS_NCTL; k++) {
		const struct rgcs_shares *s = &g->shares[k];

		if (!(s->min >= -3 && s->min != -1) || !(s->max >= -3 && s->max != -1) ||
		    !(s->div >= -3 && s->div != -1))
			__builtin_trap();
		if (s->min >= 0 && s->max >= 0 && s->min > s->max)
			__builtin_trap();
		if (k == RGCS_CPU && s->max != RGCS_SHARE_UNSUPPORTED)
			__builtin_trap();
		for (c = g->children; c; c = c->next)
			if (rgcs_attached(c) && s->div >= 0 &&
			    (c->shares[k].min > s->div || c->shares[k].max > s->div))
				__builtin_trap();
	}
	for (c = g->children; c; c = c->next)
		check(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char buf[RGCS_PAGE + 1];
	struct rgcs_group *g;
	int attr;
	long n;

	if (!fz.root)
		setup();
	if (size < 2)
		return 0;
	g = groups[data[0] % 5];
	attr = data[1] % 3;
	if (attr == RGCS_MEMBERS)
		attr = RGCS_SHARES;	/* members would move real pids around the model */
	rgcs_store(&fz, g, (enum rgcs_attr)attr, (const char *)data + 2, size - 2);
	check(fz.root);
	n = rgcs_show(&fz, g, RGCS_SHARES, buf);
	if (n < 0 || n > RGCS_PAGE || strlen(buf) != (size_t)n)
		__builtin_trap();
	return 0;
}
