/* libFuzzer: a group's resource values (lib/rg/rgres.c) on arbitrary text.
 * The first byte picks: "KEY=VALUE" as the user types it, or a kernel
 * file's text read back (each file of each setting, io.max's lines).
 * Invariants, not just crashes: an accepted value prints as text that
 * parses back to the same text, and formats for every backend file either
 * into printable text or into a refusal with a reason. */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kattr/rgres.h"
#include "kattr/private.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct kattr_rgres_limits lim = {
	.mem_total = 8ULL << 30, .page_size = 4096, .nr_cpus = 4, .nr_mems = 2,
};

static void check_file_texts(const struct kattr_rgres_value *v)
{
	char buf[1024];
	struct kattr_why why = { 0 };

	for (int b = KATTR_RG_RGCS; b <= KATTR_RG_CGROUP2; b++) {
		const struct kattr_rgres_file *f = &v->res->be[b];
		const char *files[2] = { f->file, f->file2 };

		for (int i = 0; i < 2; i++) {
			int ret;

			if (!files[i] || (b == KATTR_RG_RGCS && i == 1))
				continue;
			ret = kattr_rgres_file_text(files[i], v, buf, sizeof(buf), &why);
			if (ret == -ERANGE && !why.text)
				abort();
			for (const char *p = buf; ret == 0 && *p; p++)
				if (!isprint((unsigned char)*p))
					abort();
		}
	}
}

static void user_value(const char *text)
{
	struct kattr_rgres_value v, back;
	struct kattr_why why = { 0 };
	char t1[1024], t2[1024];

	if (kattr_rgres_parse_assign(text, &lim, &v, &why) < 0) {
		if (!why.text)
			abort();
		return;
	}
	if (kattr_rgres_text(&v, t1, sizeof(t1)) < 0)
		abort();
	if (kattr_rgres_parse(v.res->key, t1, &lim, &back, &why) < 0 ||
	    kattr_rgres_text(&back, t2, sizeof(t2)) < 0 || strcmp(t1, t2) != 0)
		abort();
	check_file_texts(&v);
}

static void file_value(unsigned int pick, const char *text)
{
	size_t n;
	const struct kattr_rgres *t = kattr_rgres_table(&n);
	const struct kattr_rgres *r = &t[pick % n];
	const struct kattr_rgres_file *f = &r->be[(pick / n) % 3 + 1];
	struct kattr_rgres_value v = { .res = r, .period = 100000 };
	struct kattr_rgres_vec vals = { 0 };
	char buf[1024];

	if (!f->file)
		return;
	if (r->type == KATTR_RGRES_IO_MAX) {
		kattr_rgres_io_parse(text, (int)(pick % 5) - 1, r, &vals);
		for (size_t i = 0; i < vals.n; i++)
			if (kattr_rgres_text(&vals.v[i], buf, sizeof(buf)) < 0)
				abort();
		free(vals.v);
		return;
	}
	if (kattr_rgres_file_parse(f->file, text, &v) == 0 &&
	    kattr_rgres_text(&v, buf, sizeof(buf)) < 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text;

	if (size < 2)
		return 0;
	text = malloc(size);
	if (!text)
		return 0;
	memcpy(text, data + 2, size - 2);
	text[size - 2] = '\0';
	if (data[0] & 1)
		user_value(text);
	else
		file_value(data[1], text);
	free(text);
	return 0;
}
