/* libFuzzer: rgctl top's readers (lib/rg/rgwatch.c, kattr_rg_watch_parse())
 * on arbitrary text.  The first byte picks the backend and the file.
 * Invariants, not just crashes: a parsed figure is KATTR_RG_W_NA (the
 * text held none: unchanged from NA), KATTR_RG_W_UNLIMITED (a setting's
 * "max"), or 0 and above; a PSI average is at most 100.00 percent; a
 * cpu.shares weight is within 1..10000; an unknown file is -EINVAL. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kattr/rgwatch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct { enum kattr_rg_backend b; const char *file; } files[] = {
	{ KATTR_RG_CGROUP2, "cgroup.procs" }, { KATTR_RG_CGROUP2, "cpu.stat" },
	{ KATTR_RG_CGROUP2, "memory.current" }, { KATTR_RG_CGROUP2, "memory.events" },
	{ KATTR_RG_CGROUP2, "io.stat" }, { KATTR_RG_CGROUP2, "pids.events" },
	{ KATTR_RG_CGROUP2, "cpu.pressure" }, { KATTR_RG_CGROUP2, "memory.max" },
	{ KATTR_RG_CGROUP2, "cpu.weight" }, { KATTR_RG_CGROUP1, "cpuacct.usage" },
	{ KATTR_RG_CGROUP1, "cpu.stat" }, { KATTR_RG_CGROUP1, "memory.oom_control" },
	{ KATTR_RG_CGROUP1, "blkio.throttle.io_service_bytes" },
	{ KATTR_RG_CGROUP1, "cpu.shares" }, { KATTR_RG_CGROUP1, "memory.limit_in_bytes" },
	{ KATTR_RG_RGCS, "members" }, { KATTR_RG_RGCS, "shares" },
	{ KATTR_RG_CGROUP2, "no.such" },
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t nf = sizeof(files) / sizeof(files[0]), which;
	long long v[KATTR_RG_W_NR];
	char *text;
	int ret;

	if (size < 1)
		return 0;
	which = data[0] % nf;
	text = malloc(size);
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	for (int i = 0; i < KATTR_RG_W_NR; i++)
		v[i] = KATTR_RG_W_NA;
	ret = kattr_rg_watch_parse(files[which].b, files[which].file, text, v);
	if (strcmp(files[which].file, "no.such") == 0 ? ret != -EINVAL : ret != 0)
		abort();
	for (int i = 0; i < KATTR_RG_W_NR; i++) {
		if (v[i] < KATTR_RG_W_NA)
			abort();
		if (i >= KATTR_RG_W_PSI_CPU && i <= KATTR_RG_W_PSI_IO && v[i] > 10000)
			abort();
	}
	if (strcmp(files[which].file, "cpu.shares") == 0 && v[KATTR_RG_W_CPU_WEIGHT] != KATTR_RG_W_NA &&
	    (v[KATTR_RG_W_CPU_WEIGHT] < 1 || v[KATTR_RG_W_CPU_WEIGHT] > 10000))
		abort();
	free(text);
	return 0;
}
