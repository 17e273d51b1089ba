// SPDX-License-Identifier: LGPL-2.1-or-later
/* System facts for benchmark reports, read beneath the sysroot. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kattr/kattr.h"
#include "kattr/sysfacts.h"
#include "kattr/private_sys.h"

/* Copy [s, s+n) into buf with surrounding whitespace removed. */
static int copy_trimmed(const char *s, size_t n, char *buf, size_t size)
{
	while (n && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (n + 1 > size)
		return -EOVERFLOW;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return 0;
}

/*
 * Find the first line "key<spaces>: value" in text; *val and *vlen give
 * the value (up to the end of the line).  false when absent.
 */
static int find_keyed_line(const char *text, const char *key,
			   const char **val, size_t *vlen)
{
	size_t klen = strlen(key);
	const char *line = text;

	while (line && *line) {
		const char *eol = strchr(line, '\n');
		size_t len = eol ? (size_t)(eol - line) : strlen(line);

		if (len > klen && strncmp(line, key, klen) == 0) {
			const char *p = line + klen;

			while (p < line + len && (*p == ' ' || *p == '\t'))
				p++;
			if (p < line + len && *p == ':') {
				*val = p + 1;
				*vlen = (size_t)(line + len - (p + 1));
				return 1;
			}
		}
		line = eol ? eol + 1 : NULL;
	}
	return 0;
}

int kattr_cpuinfo_model(const char *cpuinfo, char *buf, size_t size)
{
	static const char *const keys[] = {
		"model name", "Model", "cpu model", "Hardware", "cpu",
	};
	const char *v;
	size_t n, i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (find_keyed_line(cpuinfo, keys[i], &v, &n))
			return copy_trimmed(v, n, buf, size);
	}
	return -ENOENT;
}

int kattr_cpuinfo_has_flag(const char *cpuinfo, const char *flag)
{
	size_t flen = strlen(flag), n;
	const char *v, *end, *p;

	if (!flen || !find_keyed_line(cpuinfo, "flags", &v, &n))
		return 0;
	end = v + n;
	p = v;
	while (p < end) {
		const char *w;

		while (p < end && isspace((unsigned char)*p))
			p++;
		w = p;
		while (p < end && !isspace((unsigned char)*p))
			p++;
		if ((size_t)(p - w) == flen && strncmp(w, flag, flen) == 0)
			return 1;
	}
	return 0;
}

int kattr_choice_selected(const char *text, char *buf, size_t size)
{
	const char *open = strchr(text, '['), *close;

	if (!open)
		return -ENOENT;
	close = strchr(open + 1, ']');
	if (!close || close == open + 1)
		return -ENOENT;
	return copy_trimmed(open + 1, (size_t)(close - open - 1), buf, size);
}

int kattr_cpulist_count(const char *list, unsigned int *count)
{
	const char *p = list;
	unsigned long total = 0;

	while (isspace((unsigned char)*p))
		p++;
	if (!*p)
		return -EINVAL;
	for (;;) {
		unsigned long a, b;
		char *end;

		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		a = strtoul(p, &end, 10);
		p = end;
		b = a;
		if (*p == '-') {
			p++;
			if (!isdigit((unsigned char)*p))
				return -EINVAL;
			b = strtoul(p, &end, 10);
			p = end;
			if (b < a)
				return -EINVAL;
		}
		if (b - a >= 1u << 20 || total > 1u << 20)
			return -EINVAL;
		total += b - a + 1;
		if (*p == ',') {
			p++;
			continue;
		}
		while (isspace((unsigned char)*p))
			p++;
		if (*p)
			return -EINVAL;
		break;
	}
	*count = (unsigned int)total;
	return 0;
}

/* A mapping header line of smaps: "start-end perms offset dev inode [path]". */
static int parse_vma_header(const char *line, uintptr_t *start, uintptr_t *end)
{
	unsigned long long a, b;
	int n = 0;

	if (sscanf(line, "%llx-%llx %n", &a, &b, &n) != 2 || n == 0)
		return 0;
	*start = (uintptr_t)a;
	*end = (uintptr_t)b;
	return 1;
}

int kattr_smaps_field_kb(const char *smaps, uintptr_t addr, const char *field,
			 uint64_t *kb)
{
	const char *line = smaps;
	int inside = 0, seen_header = 0;
	size_t flen = strlen(field);

	while (line && *line) {
		const char *eol = strchr(line, '\n');
		uintptr_t s, e;

		if (parse_vma_header(line, &s, &e)) {
			seen_header = 1;
			if (inside)
				return -ENOENT;	/* field missing in our mapping */
			inside = addr >= s && addr < e;
		} else if (inside && strncmp(line, field, flen) == 0 &&
			   line[flen] == ':') {
			unsigned long long v;

			if (sscanf(line + flen + 1, " %llu kB", &v) != 1)
				return -EINVAL;
			*kb = v;
			return 0;
		}
		line = eol ? eol + 1 : NULL;
	}
	if (!seen_header && smaps[0])
		return -EINVAL;
	return -ENOENT;
}

int kattr_smaps_page_size(const char *smaps, uint64_t *bytes)
{
	const char *v;
	size_t n;
	unsigned long long kb;

	if (!find_keyed_line(smaps, "KernelPageSize", &v, &n))
		return -ENOENT;
	if (sscanf(v, " %llu kB", &kb) != 1 || kb == 0)
		return -EINVAL;
	*bytes = kb * 1024;
	return 0;
}

/* Read path (beneath root) and trim it into buf. */
static int read_trimmed(const struct kattr_root *root, const char *path,
			char *buf, size_t size)
{
	char *text;
	size_t len;
	int ret = kattr_root_file_read(root, path, &text, &len);

	if (ret < 0)
		return ret;
	ret = copy_trimmed(text, len, buf, size);
	free(text);
	return ret;
}

static int file_exists(const struct kattr_root *root, const char *path)
{
	char *text;
	int ret = kattr_root_file_read(root, path, &text, NULL);

	if (ret < 0)
		return 0;
	free(text);
	return 1;
}

/* Name the hypervisor from DMI (as systemd-detect-virt does, in short). */
static void detect_virt(const struct kattr_root *root, const char *cpuinfo,
			char *out, size_t size)
{
	static const struct { const char *vendor, *name; } dmi[] = {
		{ "KVM", "kvm" }, { "QEMU", "qemu" }, { "VMware", "vmware" },
		{ "innotek GmbH", "oracle" }, { "VirtualBox", "oracle" },
		{ "Xen", "xen" }, { "Microsoft Corporation", "microsoft" },
		{ "Amazon EC2", "amazon" }, { "Google", "google" },
		{ "Parallels", "parallels" }, { "Bochs", "bochs" },
		{ "Firecracker", "firecracker" },
	};
	static const char *const files[] = {
		"/sys/class/dmi/id/product_name", "/sys/class/dmi/id/sys_vendor",
		"/sys/class/dmi/id/board_vendor", "/sys/class/dmi/id/bios_vendor",
	};
	char val[128];
	size_t i, j;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		if (read_trimmed(root, files[i], val, sizeof(val)) < 0)
			continue;
		for (j = 0; j < sizeof(dmi) / sizeof(dmi[0]); j++) {
			if (strncmp(val, dmi[j].vendor, strlen(dmi[j].vendor)) == 0) {
				snprintf(out, size, "%s", dmi[j].name);
				return;
			}
		}
	}
	if (read_trimmed(root, "/sys/hypervisor/type", val, sizeof(val)) == 0 && val[0]) {
		snprintf(out, size, "%.32s", val);
		return;
	}
	if (cpuinfo && kattr_cpuinfo_has_flag(cpuinfo, "hypervisor")) {
		snprintf(out, size, "vm");	/* a hypervisor, vendor unknown */
		return;
	}
	snprintf(out, size, cpuinfo ? "none" : "");
}

static void detect_container(const struct kattr_root *root, char *out,
			     size_t size)
{
	char *env;
	size_t len, off;

	if (file_exists(root, "/.dockerenv")) {
		snprintf(out, size, "docker");
		return;
	}
	if (file_exists(root, "/run/.containerenv")) {
		snprintf(out, size, "podman");
		return;
	}
	if (kattr_root_file_read(root, "/proc/1/environ", &env, &len) == 0) {
		for (off = 0; off < len; off += strlen(env + off) + 1) {
			if (strncmp(env + off, "container=", 10) == 0 &&
			    env[off + 10]) {
				snprintf(out, size, "%s", env + off + 10);
				free(env);
				return;
			}
		}
		free(env);
	}
	snprintf(out, size, "none");
}

int kattr_sysfacts_read_at(const struct kattr_root *root,
			   struct kattr_sysfacts *f)
{
	char *text = NULL, buf[64];
	int missing = 0;
	uint64_t v;

	memset(f, 0, sizeof(*f));
	if (read_trimmed(root, "/proc/sys/kernel/osrelease", f->kernel_release,
			 sizeof(f->kernel_release)) < 0 || !f->kernel_release[0])
		missing++;
	if (kattr_root_file_read(root, "/proc/cpuinfo", &text, NULL) < 0)
		text = NULL;
	if (!text || kattr_cpuinfo_model(text, f->cpu_model,
					 sizeof(f->cpu_model)) < 0)
		missing++;
	detect_virt(root, text, f->virt, sizeof(f->virt));
	if (!f->virt[0])
		missing++;
	free(text);
	detect_container(root, f->container, sizeof(f->container));
	if (read_trimmed(root, "/sys/devices/system/cpu/online", buf, sizeof(buf)) < 0 ||
	    kattr_cpulist_count(buf, &f->cpus_online) < 0)
		missing++;
	if (kattr_root_file_read(root, "/proc/self/smaps", &text, NULL) == 0) {
		if (kattr_smaps_page_size(text, &v) == 0)
			f->page_size = v;
		free(text);
	}
	if (!f->page_size)
		missing++;
	if (read_trimmed(root, "/proc/sys/fs/pipe-max-size", buf, sizeof(buf)) == 0 &&
	    sscanf(buf, "%" SCNu64, &v) == 1)
		f->pipe_max_size = v;
	else
		missing++;
	if (kattr_root_file_read(root, "/sys/kernel/mm/transparent_hugepage/enabled",
				 &text, NULL) == 0) {
		if (kattr_choice_selected(text, f->thp_mode,
					  sizeof(f->thp_mode)) < 0)
			f->thp_mode[0] = '\0';
		free(text);
	}
	if (!f->thp_mode[0])
		missing++;
	return missing;
}

int kattr_sysfacts_read(struct kattr_sysfacts *f)
{
	return kattr_sysfacts_read_at(NULL, f);
}
