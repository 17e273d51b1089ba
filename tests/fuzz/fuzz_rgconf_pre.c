/*
 * libFuzzer: rgctl.conf's preprocessor alone (lib/rgconf/pre.c): the text
 * as the main file of a small tree of includes (one plain, one that
 * includes it, one that includes itself), @include expanded.  Whatever
 * it accepts has as many lines as its line map, each mapped to a file it
 * read and a line > 0, and integers only ever grow an "L".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kattr/private.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64], main_file[96];

static void put(const char *name, const char *text)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0)
		abort();
}

static void cleanup(void)
{
	const char *names[] = { "a.conf", "b.conf", "self.conf" };
	char path[128];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	snprintf(dir, sizeof(dir), "/tmp/fuzz_rgconf_pre.XXXXXX");
	if (!mkdtemp(dir))
		abort();
	atexit(cleanup);
	put("a.conf", "groups = ( { name = \"a\"; shares = 2; } );\n");
	put("b.conf", "# b\n@include \"a.conf\"\nx = 4294968320;\n");
	put("self.conf", "@include \"self.conf\"\n");
	snprintf(main_file, sizeof(main_file), "%s/main.conf", dir);
	return 0;
}

static size_t count_lines(const char *s)
{
	size_t n = 1;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kattr_rgconf_pre_out out;
	char err[256] = "";
	char *text;

	if (size > 65536)
		return 0;
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (kattr_rgconf_preprocess(text, main_file, true, &out, &(struct kattr_why)KATTR_WHY_BUF(err)) == 0) {
		if (count_lines(out.text) != out.lines)
			abort();	/* the line map and the text disagree */
		for (unsigned int i = 0; i < out.lines; i++)
			if (!out.where[i][0] || out.line[i] == 0)
				abort();
		if (strlen(text) > strlen(out.text) && !strchr(text, '@'))
			abort();	/* without includes it only ever grows */
		kattr_rgconf_pre_out_free(&out);
	} else if (!err[0]) {
		abort();	/* a refusal always says why */
	}
	free(text);
	return 0;
}
