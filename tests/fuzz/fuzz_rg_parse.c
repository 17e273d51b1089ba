/* libFuzzer: the resource-group parsers (lib/rg/rg_parse.c) on arbitrary text.
 * The first byte picks the parser; invariants are checked, not just crashes:
 * an accepted pid is > 0, an accepted shares value formats to printable
 * text that RGCS would not cut short and that always names res=. */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kattr/rg.h"
#include "kattr/private.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_printable(const char *s)
{
	for (; *s; s++)
		if (!isprint((unsigned char)*s) || *s == ' ')
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kattr_rg_share *sh;
	struct kattr_rg_stat *st = NULL;
	char *text, buf[256], *path;
	struct kattr_why why = { 0 };
	size_t n = 0;
	pid_t *pids, pid;
	int ret;

	if (size < 1)
		return 0;
	text = malloc(size);
	if (!text)
		return 0;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	switch (data[0] % 8) {
	case 0:
		if (kattr_rg_parse_pid(text, &pid) == 0 && pid <= 0)
			abort();
		break;
	case 1:
	case 2:
	case 3:
		ret = kattr_rg_share_format((enum kattr_rg_backend)(data[0] % 8),
					     text, (data[0] & 0x80) ? "numtasks" : NULL,
					     buf, sizeof(buf), &why);
		if (ret == 0) {
			check_printable(buf);
			if (data[0] % 8 == KATTR_RG_RGCS && strncmp(buf, "res=", 4))
				abort();
		} else if (!why.text) {
			abort();
		}
		break;
	case 4:
		if (kattr_rg_parse_rgcs_shares(text, &sh, &n) == 0)
			free(sh);
		break;
	case 5:
		if (kattr_rg_parse_rgcs_stats(text, &st, &n) == 0)
			kattr_rg_stats_free(st, n);
		break;
	case 6:
		if (kattr_rg_parse_keyed(text, "cpu", &st, &n) == 0)
			kattr_rg_stats_free(st, n);
		else
			free(st);
		if (kattr_rg_parse_pids(text, &pids, &n) == 0) {
			for (size_t i = 0; i < n; i++)
				if (pids[i] < 0)
					abort();
			free(pids);
		}
		break;
	case 7:
		ret = kattr_rg_parse_proc_cgroup(text, (data[0] & 0x80) ? NULL :
						 "cpu,cpuacct", &path);
		if (ret == 0) {
			if (path[0] != '/')
				abort();
			free(path);
		}
		break;
	}
	free(text);
	return 0;
}
