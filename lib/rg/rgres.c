// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A group's resources, the pure part: the table of settings, their values
 * as the user types them, and the text each backend's files hold.  No I/O
 * except kattr_rgres_limits_read() and kattr_rgres_resolve().
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "kattr/rgres.h"
#include "kattr/private_rg.h"
#include "rg_internal.h"

#define NONE(w)	{ .why = (w) }
#define RGCS_NO_MEM	NONE("RGCS has no memory controller (the 2006 series had cpu and numtasks only)")
#define RGCS_NO_IO	NONE("RGCS has no I/O controller (the 2006 series had cpu and numtasks only)")
#define RGCS_NO_CPUSET	NONE("RGCS has no cpuset controller (the 2006 series had cpu and numtasks only)")

static const struct kattr_rgres table[] = {
	{ "cpu.weight", "CPUWeight", KATTR_RGRES_WEIGHT, "weight",
	  "1..10000", "100", "CPU time share relative to the sibling groups",
	  { [KATTR_RG_RGCS] = { "cpu", "shares", "min_shares", NULL },
	    [KATTR_RG_CGROUP1] = { "cpu", "cpu.shares", NULL, NULL },
	    [KATTR_RG_CGROUP2] = { "cpu", "cpu.weight", NULL, NULL } } },
	{ "cpu.max", "CPUQuota", KATTR_RGRES_CPU_MAX, "percent or time",
	  "1ms..; period 1ms..1s", "max", "CPU time limit per period",
	  { [KATTR_RG_RGCS] = NONE("the RGCS cpu controller has no limit (its max_shares reads -2, unsupported)"),
	    [KATTR_RG_CGROUP1] = { "cpu", "cpu.cfs_quota_us", "cpu.cfs_period_us", NULL },
	    [KATTR_RG_CGROUP2] = { "cpu", "cpu.max", NULL, NULL } } },
	{ "cpuset.cpus", "AllowedCPUs", KATTR_RGRES_LIST, "CPU list",
	  "possible CPUs", "parent's", "The CPUs the group's tasks may run on",
	  { [KATTR_RG_RGCS] = RGCS_NO_CPUSET,
	    [KATTR_RG_CGROUP1] = { "cpuset", "cpuset.cpus", NULL, NULL },
	    [KATTR_RG_CGROUP2] = { "cpuset", "cpuset.cpus", NULL, NULL } } },
	{ "cpuset.mems", "AllowedMemoryNodes", KATTR_RGRES_LIST, "node list",
	  "possible nodes", "parent's", "The memory nodes the group may allocate from",
	  { [KATTR_RG_RGCS] = RGCS_NO_CPUSET,
	    [KATTR_RG_CGROUP1] = { "cpuset", "cpuset.mems", NULL, NULL },
	    [KATTR_RG_CGROUP2] = { "cpuset", "cpuset.mems", NULL, NULL } } },
	{ "memory.min", "MemoryMin", KATTR_RGRES_BYTES, "bytes",
	  "0..max", "0", "Memory never reclaimed (hard protection)",
	  { [KATTR_RG_RGCS] = RGCS_NO_MEM,
	    [KATTR_RG_CGROUP1] = NONE("cgroup v1 has no memory protection that holds under every pressure"),
	    [KATTR_RG_CGROUP2] = { "memory", "memory.min", NULL, NULL } } },
	{ "memory.low", "MemoryLow", KATTR_RGRES_BYTES, "bytes",
	  "0..max", "0", "Memory reclaimed last (best-effort protection)",
	  { [KATTR_RG_RGCS] = RGCS_NO_MEM,
	    [KATTR_RG_CGROUP1] = { "memory", "memory.soft_limit_in_bytes", NULL, NULL },
	    [KATTR_RG_CGROUP2] = { "memory", "memory.low", NULL, NULL } } },
	{ "memory.high", "MemoryHigh", KATTR_RGRES_BYTES, "bytes",
	  "0..max", "max", "Memory use above which the group is throttled and reclaimed",
	  { [KATTR_RG_RGCS] = RGCS_NO_MEM,
	    [KATTR_RG_CGROUP1] = NONE("cgroup v1 has no throttling limit (memory.soft_limit_in_bytes is memory.low's nearest)"),
	    [KATTR_RG_CGROUP2] = { "memory", "memory.high", NULL, NULL } } },
	{ "memory.max", "MemoryMax", KATTR_RGRES_BYTES, "bytes",
	  "0..max", "max", "Memory use limit (the OOM killer acts past it)",
	  { [KATTR_RG_RGCS] = RGCS_NO_MEM,
	    [KATTR_RG_CGROUP1] = { "memory", "memory.limit_in_bytes", NULL, NULL },
	    [KATTR_RG_CGROUP2] = { "memory", "memory.max", NULL, NULL } } },
	{ "memory.swap.max", "MemorySwapMax", KATTR_RGRES_BYTES, "bytes",
	  "0..max", "max", "Swap use limit",
	  { [KATTR_RG_RGCS] = RGCS_NO_MEM,
	    [KATTR_RG_CGROUP1] = NONE("cgroup v1 has no swap-only limit (memory.memsw.limit_in_bytes limits memory and swap together)"),
	    [KATTR_RG_CGROUP2] = { "memory", "memory.swap.max", NULL, NULL } } },
	{ "io.weight", "IOWeight", KATTR_RGRES_WEIGHT, "weight",
	  "1..10000 (v1: 2..200, BFQ 1..1000)", "100", "I/O time share relative to the sibling groups",
	  { [KATTR_RG_RGCS] = RGCS_NO_IO,
	    [KATTR_RG_CGROUP1] = { "blkio", "blkio.weight", "blkio.bfq.weight", NULL },
	    [KATTR_RG_CGROUP2] = { "io", "io.weight", "io.bfq.weight", NULL } } },
	{ "io.max", NULL, KATTR_RGRES_IO_MAX, "bytes/s, IO/s",
	  "1..max", "max", "Per-device bandwidth and IOPS limits",
	  { [KATTR_RG_RGCS] = RGCS_NO_IO,
	    [KATTR_RG_CGROUP1] = { "blkio", "blkio.throttle.read_bps_device", NULL, NULL },
	    [KATTR_RG_CGROUP2] = { "io", "io.max", NULL, NULL } } },
	{ "pids.max", "TasksMax", KATTR_RGRES_COUNT, "tasks",
	  "0..4194304, max", "max", "Number of tasks limit (fork fails past it)",
	  { [KATTR_RG_RGCS] = NONE("RGCS numtasks limits are shares of the parent's limit (max_shares/child_shares_divisor), not a count of tasks: use 'rgctl shares --res numtasks'"),
	    [KATTR_RG_CGROUP1] = { "pids", "pids.max", NULL, NULL },
	    [KATTR_RG_CGROUP2] = { "pids", "pids.max", NULL, NULL } } },
};
#define NROWS	(sizeof(table) / sizeof(table[0]))

/* The v1 throttle files, in io[] order. */
static const char *const v1_throttle[KATTR_RGRES_IO_FIELDS] = {
	"blkio.throttle.read_bps_device", "blkio.throttle.write_bps_device",
	"blkio.throttle.read_iops_device", "blkio.throttle.write_iops_device",
};
static const char *const io_fields[KATTR_RGRES_IO_FIELDS] = {
	"rbps", "wbps", "riops", "wiops",
};

/* systemd properties beyond the table's one per row. */
static const struct {
	const char *alias, *key;
	int field;
} more_aliases[] = {
	{ "IOReadBandwidthMax", "io.max", 0 },
	{ "IOWriteBandwidthMax", "io.max", 1 },
	{ "IOReadIOPSMax", "io.max", 2 },
	{ "IOWriteIOPSMax", "io.max", 3 },
	{ "StartupAllowedCPUs", NULL, -1 },	/* not ours: refused by name */
};

#define CPU_PERIOD_DEF	100000ULL
#define CPU_PERIOD_MIN	1000ULL
#define CPU_PERIOD_MAX	1000000ULL
#define CPU_QUOTA_MIN	1000ULL
#define CPU_QUOTA_MAX	((1ULL << 44) - 1)
#define BYTES_MAX	((uint64_t)INT64_MAX)
#define PIDS_LIMIT	4194304ULL
#define WEIGHT_MIN	1
#define WEIGHT_MAX	10000

const struct kattr_rgres *kattr_rgres_table(size_t *n)
{
	*n = NROWS;
	return table;
}

const struct kattr_rgres *kattr_rgres_find(const char *name, int *field)
{
	if (field)
		*field = -1;
	if (!name)
		return NULL;
	for (size_t i = 0; i < NROWS; i++)
		if (strcmp(name, table[i].key) == 0 ||
		    (table[i].alias && strcasecmp(name, table[i].alias) == 0))
			return &table[i];
	for (size_t i = 0; i < sizeof(more_aliases) / sizeof(*more_aliases); i++) {
		if (strcasecmp(name, more_aliases[i].alias) != 0 ||
		    !more_aliases[i].key)
			continue;
		if (field)
			*field = more_aliases[i].field;
		return kattr_rgres_find(more_aliases[i].key, NULL);
	}
	return NULL;
}

static void suggest_one(const char *name, const char *cand, size_t *best,
			const char **out)
{
	size_t d;

	if (!cand)
		return;
	d = kattr_str_distance(name, cand, 4, true);
	if (d < *best) {
		*best = d;
		*out = cand;
	}
}

const char *kattr_rgres_suggest(const char *name)
{
	size_t best = SIZE_MAX, len = name ? strlen(name) : 0;
	const char *out = NULL;

	if (!len)
		return NULL;
	for (size_t i = 0; i < NROWS; i++) {
		suggest_one(name, table[i].key, &best, &out);
		suggest_one(name, table[i].alias, &best, &out);
	}
	for (size_t i = 0; i < sizeof(more_aliases) / sizeof(*more_aliases); i++)
		if (more_aliases[i].key)
			suggest_one(name, more_aliases[i].alias, &best, &out);
	/* near: at most a third of the name wrong, and never more than 4 */
	return best <= 4 && best * 3 <= len + 2 ? out : NULL;
}

/* ---- numbers ----------------------------------------------------------- */

/* Decimal digits s[0..len) as a u64: -EINVAL, -ERANGE. */
static int parse_u64(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;

	if (len == 0)
		return -EINVAL;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
		if (v > (UINT64_MAX - (uint64_t)(s[i] - '0')) / 10)
			return -ERANGE;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	*out = v;
	return 0;
}

/* Length of the leading digits of s. */
static size_t digits(const char *s)
{
	size_t n = 0;

	while (s[n] >= '0' && s[n] <= '9')
		n++;
	return n;
}

static bool is_max(const char *s)
{
	return strcmp(s, "max") == 0 || strcmp(s, "infinity") == 0;
}

static int fail(const char **why, const char *text, int err)
{
	if (why)
		*why = text;
	return err;
}

/* N with an optional binary suffix K, M, G, T (either case). */
static int parse_size(const char *s, uint64_t *out, const char **why)
{
	size_t n = digits(s);
	unsigned int shift = 0;
	uint64_t v;
	int ret;

	if (s[0] == '-')
		return fail(why, "a negative size", -ERANGE);
	ret = parse_u64(s, n, &v);
	if (ret == -ERANGE)
		return fail(why, "larger than 2^64", -ERANGE);
	if (ret < 0)
		return fail(why, "not a number (write bytes, with K, M, G or T, or max)", -EINVAL);
	if (s[n]) {
		const char *u = strchr("KMGT", toupper((unsigned char)s[n]));

		if (!u)
			return fail(why, "unknown unit (K, M, G and T are known)", -EINVAL);
		if (s[n + 1])
			return fail(why, "units are one letter: K, M, G, T, each 1024 times the one before (write 1G, not 1GB or 1GiB)",
				    -EINVAL);
		shift = 10u * (unsigned int)(u - "KMGT" + 1);
	}
	if (shift && v > (UINT64_MAX >> shift))
		return fail(why, "larger than 2^64", -ERANGE);
	*out = v << shift;
	return 0;
}

/* N% with N an integer 0..max_pct: -EINVAL when s is not a percent. */
static int parse_percent(const char *s, uint64_t max_pct, uint64_t *pct,
			 const char **why)
{
	size_t n = digits(s);
	int ret;

	if (s[0] == '-' && strchr(s, '%'))
		return fail(why, "a negative percent", -ERANGE);
	if (!n || strcmp(s + n, "%") != 0)
		return fail(why, "not a percent", -EINVAL);
	ret = parse_u64(s, n, pct);
	if (ret == -ERANGE || (ret == 0 && *pct > max_pct))
		return fail(why, "a percent over the limit", -ERANGE);
	return ret;
}

/* ---- values ------------------------------------------------------------ */

static int parse_weight(const char *s, struct kattr_rgres_value *v,
			const char **why)
{
	int ret = s[0] == '-' ? -ERANGE : parse_u64(s, digits(s), &v->n);

	if (ret == 0 && s[digits(s)])
		ret = -EINVAL;
	if (ret == -EINVAL)
		return fail(why, "not a whole number", ret);
	if (ret < 0 || v->n < WEIGHT_MIN || v->n > WEIGHT_MAX)
		return fail(why, "out of range (1..10000)", -ERANGE);
	return 0;
}

/* A time: N with us (the default), ms or s. */
static int parse_time(const char *s, size_t len, uint64_t *us,
		      const char **why)
{
	size_t n = 0;
	uint64_t v, mul = 1;
	int ret;

	while (n < len && s[n] >= '0' && s[n] <= '9')
		n++;
	if (n == len || (len - n == 2 && !strncmp(s + n, "us", 2)))
		mul = 1;
	else if (len - n == 2 && !strncmp(s + n, "ms", 2))
		mul = 1000;
	else if (len - n == 1 && s[n] == 's')
		mul = 1000000;
	else
		return fail(why, "not a time (N, Nus, Nms or Ns)", -EINVAL);
	ret = parse_u64(s, n, &v);
	if (ret == -EINVAL)
		return fail(why, "not a time (N, Nus, Nms or Ns)", ret);
	if (ret < 0 || v > UINT64_MAX / mul)
		return fail(why, "a time larger than 2^64 microseconds", -ERANGE);
	*us = v * mul;
	return 0;
}

/* max, max/PERIOD, N% (of one CPU), QUOTA or QUOTA/PERIOD. */
static int parse_cpu_max(const char *s, const struct kattr_rgres_limits *l,
			 struct kattr_rgres_value *v, const char **why)
{
	const char *slash = strchr(s, '/');
	size_t qlen = slash ? (size_t)(slash - s) : strlen(s);
	uint64_t pct, cap = l && l->nr_cpus ? 100ULL * l->nr_cpus : 100000ULL;
	int ret;

	v->period = CPU_PERIOD_DEF;
	if (s[0] == '-')
		return fail(why, "a negative quota", -ERANGE);
	if (strchr(s, '%')) {
		ret = parse_percent(s, cap, &pct, why);
		if (ret == -ERANGE)
			return fail(why, l && l->nr_cpus ? "a percent over 100 times the machine's CPUs" :
				    "a percent over 100000", ret);
		if (ret < 0)
			return fail(why, "not a percent (N% of one CPU)", ret);
		if (pct == 0)
			return fail(why, "0% would stop the group: the least is 1%", -ERANGE);
		v->quota = pct * CPU_PERIOD_DEF / 100;
		return 0;
	}
	if (slash) {
		ret = parse_time(slash + 1, strlen(slash + 1), &v->period, why);
		if (ret < 0)
			return ret;
		if (v->period < CPU_PERIOD_MIN || v->period > CPU_PERIOD_MAX)
			return fail(why, "a period outside 1ms..1s", -ERANGE);
	}
	if (qlen == 3 && !strncmp(s, "max", 3)) {
		v->quota = KATTR_RGRES_MAX;
		return 0;
	}
	ret = parse_time(s, qlen, &v->quota, why);
	if (ret < 0)
		return ret;
	if (v->quota < CPU_QUOTA_MIN || v->quota > CPU_QUOTA_MAX)
		return fail(why, "a quota outside 1ms..2^44-1us", -ERANGE);
	/* the same bound as a percent: no more CPUs than there are */
	if (v->quota / v->period > cap / 100 ||
	    (v->quota / v->period == cap / 100 && v->quota % v->period))
		return fail(why, l && l->nr_cpus ? "a quota over the machine's CPUs (quota/period > CPUs)" :
			    "a quota over 1000 CPUs", -ERANGE);
	return 0;
}

/* Append "a" or "a-b" to buf at *len. */
static int list_add(char *buf, size_t size, size_t *len, unsigned long a,
		    unsigned long b)
{
	int n = a == b ? snprintf(buf + *len, size - *len, "%s%lu",
				  *len ? "," : "", a) :
		snprintf(buf + *len, size - *len, "%s%lu-%lu", *len ? "," : "",
			 a, b);

	if (n < 0 || (size_t)n >= size - *len)
		return -ENAMETOOLONG;
	*len += (size_t)n;
	return 0;
}

#define LIST_BITS	8192

/* "0-3,6" into a bitmap of LIST_BITS; limit 0: unchecked. */
static int list_bits(const char *s, unsigned int limit, unsigned char *bits,
		     const char **why)
{
	const char *p = s;

	if (!*p)
		return fail(why, "an empty list", -EINVAL);
	for (;;) {
		size_t n = digits(p);
		uint64_t a, b;

		if (*p == '-')
			return fail(why, "a negative number", -ERANGE);
		if (parse_u64(p, n, &a) < 0 && n)
			return fail(why, "a number larger than 2^64", -ERANGE);
		if (!n)
			return fail(why, "not a list such as 0-3,6", -EINVAL);
		p += n;
		b = a;
		if (*p == '-') {
			n = digits(++p);
			if (!n || parse_u64(p, n, &b) < 0)
				return fail(why, "not a list such as 0-3,6", -EINVAL);
			p += n;
			if (b < a)
				return fail(why, "a range that runs backwards", -EINVAL);
		}
		if (b >= LIST_BITS || (limit && b >= limit))
			return fail(why, "a number past the machine's last one", -ERANGE);
		for (uint64_t i = a; i <= b; i++)
			bits[i / 8] |= (unsigned char)(1u << (i % 8));
		if (*p == '\0')
			return 0;
		if (*p++ != ',' || *p == '\0')
			return fail(why, "not a list such as 0-3,6", -EINVAL);
	}
}

/* Canonical list: ascending, ranges merged. */
static int parse_list(const char *s, unsigned int limit, char *out,
		      size_t size, const char **why)
{
	unsigned char bits[LIST_BITS / 8] = { 0 };
	size_t len = 0;
	int ret = list_bits(s, limit, bits, why);

	out[0] = '\0';
	for (unsigned long i = 0; ret == 0 && i < LIST_BITS; i++) {
		unsigned long j = i;

		if (!(bits[i / 8] & (1u << (i % 8))))
			continue;
		while (j + 1 < LIST_BITS && (bits[(j + 1) / 8] & (1u << ((j + 1) % 8))))
			j++;
		ret = list_add(out, size, &len, i, j);
		if (ret < 0)
			return fail(why, "a list too long to keep", ret);
		i = j;
	}
	return ret;
}

static int parse_bytes(const char *s, const struct kattr_rgres_limits *l,
		       struct kattr_rgres_value *v, const char **why)
{
	uint64_t page = l && l->page_size ? l->page_size : 4096, pct;
	int ret;

	if (is_max(s)) {
		v->n = KATTR_RGRES_MAX;
		return 0;
	}
	if (strchr(s, '%')) {
		ret = parse_percent(s, 100, &pct, why);
		if (ret == -ERANGE)
			return fail(why, "a percent over 100 (of the machine's memory)", ret);
		if (ret < 0)
			return fail(why, "not a percent of the machine's memory", ret);
		if (!l || !l->mem_total)
			return fail(why, "a percent, and the machine's memory is unknown", -EINVAL);
		v->n = l->mem_total / 100 * pct + l->mem_total % 100 * pct / 100;
	} else {
		ret = parse_size(s, &v->n, why);
		if (ret < 0)
			return ret;
		if (v->n > BYTES_MAX)
			return fail(why, "larger than the kernel's largest limit, 2^63-1 (write max)", -ERANGE);
	}
	v->n -= v->n % page;	/* the kernel keeps whole pages */
	return 0;
}

static int parse_count(const char *s, struct kattr_rgres_value *v,
		       const char **why)
{
	size_t n = digits(s);
	int ret;

	if (is_max(s)) {
		v->n = KATTR_RGRES_MAX;
		return 0;
	}
	if (s[0] == '-')
		return fail(why, "a negative count", -ERANGE);
	if (strchr(s, '%'))
		return fail(why, "a percent: give a count of tasks (systemd's TasksMax=N% is a share of kernel.threads-max)",
			    -EINVAL);
	ret = parse_u64(s, n, &v->n);
	if (ret == 0 && s[n])
		ret = -EINVAL;
	if (ret == -EINVAL)
		return fail(why, "not a whole number or max", ret);
	if (ret < 0 || v->n > PIDS_LIMIT)
		return fail(why, "out of range (0..4194304, or max)", -ERANGE);
	return 0;
}

/* "MAJ:MIN" or an absolute path, s[0..len). */
static int parse_dev(const char *s, size_t len, struct kattr_rgres_value *v,
		     const char **why)
{
	const char *colon = memchr(s, ':', len);
	uint64_t a, b;

	if (len && s[0] == '/') {
		if (len >= sizeof(v->dev_path))
			return fail(why, "a device path too long", -EINVAL);
		memcpy(v->dev_path, s, len);
		v->dev_path[len] = '\0';
		return 0;
	}
	if (!colon || parse_u64(s, (size_t)(colon - s), &a) < 0 ||
	    parse_u64(colon + 1, len - (size_t)(colon - s) - 1, &b) < 0 ||
	    a > 4095 || b > 1048575)
		return fail(why, "not a device (a path such as /dev/vda, or MAJ:MIN)", -EINVAL);
	v->major = (unsigned int)a;
	v->minor = (unsigned int)b;
	return 0;
}

/* One io.max limit s[0..len): max, or N (bytes/s with K..T; IO/s plain). */
static int parse_io_limit(const char *s, size_t len, int field,
			  struct kattr_rgres_value *v, const char **why)
{
	char buf[32];
	int ret;

	if (len >= sizeof(buf))
		return fail(why, "a limit larger than 2^64", -ERANGE);
	memcpy(buf, s, len);
	buf[len] = '\0';
	v->io_set |= 1u << field;
	if (is_max(buf)) {
		v->io[field] = KATTR_RGRES_MAX;
		return 0;
	}
	if (field >= 2 && buf[digits(buf)] && buf[0] != '-')
		return fail(why, "IOPS are a plain number (no unit)", -EINVAL);
	ret = parse_size(buf, &v->io[field], why);
	if (ret < 0)
		return ret;
	if (v->io[field] == 0 || v->io[field] == KATTR_RGRES_MAX)
		return fail(why, "a limit of 0 would stop all I/O: the least is 1 (or max for none)",
			    -ERANGE);
	return 0;
}

/* "DEV rbps=N wiops=max ..." (field < 0) or "DEV N" (an alias's field). */
static int parse_io_max(const char *s, int field, struct kattr_rgres_value *v,
			const char **why)
{
	size_t len = strcspn(s, " \t");
	int ret = parse_dev(s, len, v, why);

	for (unsigned int i = 0; i < KATTR_RGRES_IO_FIELDS; i++)
		v->io[i] = KATTR_RGRES_MAX;
	for (s += len; ret == 0 && *s; s += len) {
		const char *eq;
		int f = field;

		s += strspn(s, " \t");
		len = strcspn(s, " \t");
		if (!len)
			break;
		eq = memchr(s, '=', len);
		if (field < 0) {
			for (f = 0; eq && f < KATTR_RGRES_IO_FIELDS; f++)
				if (strlen(io_fields[f]) == (size_t)(eq - s) &&
				    !strncmp(s, io_fields[f], (size_t)(eq - s)))
					break;
			if (!eq || f == KATTR_RGRES_IO_FIELDS)
				return fail(why, "not a limit (rbps=, wbps=, riops=, wiops=)", -EINVAL);
			if (v->io_set & (1u << f))
				return fail(why, "a limit given twice", -EINVAL);
			ret = parse_io_limit(eq + 1, len - (size_t)(eq + 1 - s), f, v, why);
		} else if ((v->io_set & (1u << f)) || eq) {
			return fail(why, "give the device, then one limit", -EINVAL);
		} else {
			ret = parse_io_limit(s, len, f, v, why);
		}
	}
	if (ret == 0 && !v->io_set)
		return fail(why, "a device without a limit (DEV rbps=N wbps=N riops=N wiops=N)", -EINVAL);
	return ret;
}

static int rgres_parse(const char *name, const char *value,
		       const struct kattr_rgres_limits *l,
		       struct kattr_rgres_value *out, const char **why)
{
	int field;
	const struct kattr_rgres *res = kattr_rgres_find(name, &field);

	memset(out, 0, sizeof(*out));
	if (!res)
		return fail(why, "no such setting", -ENOENT);
	out->res = res;
	if (!value)
		return fail(why, "no value", -EINVAL);
	switch (res->type) {
	case KATTR_RGRES_WEIGHT:
		return parse_weight(value, out, why);
	case KATTR_RGRES_CPU_MAX:
		return parse_cpu_max(value, l, out, why);
	case KATTR_RGRES_LIST:
		return parse_list(value, !l ? 0 :
				  strcmp(res->key, "cpuset.mems") ? l->nr_cpus : l->nr_mems,
				  out->list, sizeof(out->list), why);
	case KATTR_RGRES_BYTES:
		return parse_bytes(value, l, out, why);
	case KATTR_RGRES_IO_MAX:
		return parse_io_max(value, field, out, why);
	default:
		return parse_count(value, out, why);
	}
}

static int rgres_parse_assign(const char *text,
			      const struct kattr_rgres_limits *l,
			      struct kattr_rgres_value *out, const char **why)
{
	const char *eq = text ? strchr(text, '=') : NULL;
	char name[64];

	memset(out, 0, sizeof(*out));
	if (!eq)
		return fail(why, "not KEY=VALUE", -EINVAL);
	if ((size_t)(eq - text) >= sizeof(name))
		return fail(why, "no such setting", -ENOENT);
	memcpy(name, text, (size_t)(eq - text));
	name[eq - text] = '\0';
	return rgres_parse(name, eq + 1, l, out, why);
}

/* ---- text ---------------------------------------------------------------- */

/* bytes with the largest exact suffix: "1G", "1536M", "4095" */
static void size_text(uint64_t n, char *buf, size_t size)
{
	static const char suffix[] = "KMGT";
	int s = 0;

	if (n == KATTR_RGRES_MAX) {
		snprintf(buf, size, "max");
		return;
	}
	while (n && s < 4 && n % 1024 == 0) {
		n /= 1024;
		s++;
	}
	if (s)
		snprintf(buf, size, "%" PRIu64 "%c", n, suffix[s - 1]);
	else
		snprintf(buf, size, "%" PRIu64, n);
}

/* microseconds: "20ms", "1s", "1500" */
static void time_text(uint64_t us, char *buf, size_t size)
{
	if (us && us % 1000000 == 0)
		snprintf(buf, size, "%" PRIu64 "s", us / 1000000);
	else if (us && us % 1000 == 0)
		snprintf(buf, size, "%" PRIu64 "ms", us / 1000);
	else
		snprintf(buf, size, "%" PRIu64 "us", us);
}

static void cpu_max_text(const struct kattr_rgres_value *v, char *buf,
			 size_t size)
{
	char q[32], p[32];

	if (v->period == CPU_PERIOD_DEF && v->quota == KATTR_RGRES_MAX) {
		snprintf(buf, size, "max");
		return;
	}
	if (v->period == CPU_PERIOD_DEF && v->quota % 1000 == 0) {
		snprintf(buf, size, "%" PRIu64 "%%", v->quota / 1000);
		return;
	}
	if (v->quota == KATTR_RGRES_MAX)
		snprintf(q, sizeof(q), "max");
	else
		time_text(v->quota, q, sizeof(q));
	time_text(v->period, p, sizeof(p));
	snprintf(buf, size, "%s/%s", q, p);
}

static void io_text(const struct kattr_rgres_value *v, char *buf, size_t size)
{
	size_t len;

	if (v->dev_path[0])
		snprintf(buf, size, "%s", v->dev_path);
	else
		snprintf(buf, size, "%u:%u", v->major, v->minor);
	bool all_max = true;

	for (int f = 0; f < KATTR_RGRES_IO_FIELDS; f++)
		if ((v->io_set & (1u << f)) && v->io[f] != KATTR_RGRES_MAX)
			all_max = false;
	/* the limits in force: those not max (all of them when none is) */
	for (int f = 0; f < KATTR_RGRES_IO_FIELDS; f++) {
		char n[32];

		if (!(v->io_set & (1u << f)) ||
		    (!all_max && v->io[f] == KATTR_RGRES_MAX))
			continue;
		if (f < 2)
			size_text(v->io[f], n, sizeof(n));
		else if (v->io[f] == KATTR_RGRES_MAX)
			snprintf(n, sizeof(n), "max");
		else
			snprintf(n, sizeof(n), "%" PRIu64, v->io[f]);
		len = strlen(buf);
		snprintf(buf + len, size - len, " %s=%s", io_fields[f], n);
	}
}

int kattr_rgres_text(const struct kattr_rgres_value *v, char *buf, size_t size)
{
	char tmp[KATTR_RGRES_LIST_LEN + 64];

	if (v->unset)
		snprintf(tmp, sizeof(tmp), "-");
	else if (v->res->type == KATTR_RGRES_CPU_MAX)
		cpu_max_text(v, tmp, sizeof(tmp));
	else if (v->res->type == KATTR_RGRES_LIST)
		snprintf(tmp, sizeof(tmp), "%s", v->list);
	else if (v->res->type == KATTR_RGRES_BYTES)
		size_text(v->n, tmp, sizeof(tmp));
	else if (v->res->type == KATTR_RGRES_IO_MAX)
		io_text(v, tmp, sizeof(tmp));
	else if (v->n == KATTR_RGRES_MAX)
		snprintf(tmp, sizeof(tmp), "max");
	else
		snprintf(tmp, sizeof(tmp), "%" PRIu64, v->n);
	if (strlen(tmp) >= size)
		return -ENAMETOOLONG;
	memcpy(buf, tmp, strlen(tmp) + 1);
	return 0;
}

/* ---- the backends' files ------------------------------------------------- */

const char *kattr_rgres_io_file(enum kattr_rg_backend b, int field)
{
	if (field < 0 || field >= KATTR_RGRES_IO_FIELDS)
		return NULL;
	return b == KATTR_RG_CGROUP1 ? v1_throttle[field] : "io.max";
}

/* A weight into file: cpu.shares, blkio.weight, *.bfq.weight, "default N". */
static int weight_file_text(const char *file, uint64_t w, char *buf,
			    size_t size, const char **why)
{
	if (strcmp(file, "cpu.shares") == 0)	/* libcgroup 3: 100 <-> 1024 */
		return snprintf(buf, size, "%" PRIu64, (w * 1024 + 50) / 100);
	if (strcmp(file, "blkio.weight") == 0) {
		if (w < 2 || w > 200)
			return fail(why, "blkio.weight takes 10..1000, which is io.weight 2..200", -ERANGE);
		return snprintf(buf, size, "%" PRIu64, w * 5);
	}
	if (kattr_ends_with(file, "bfq.weight") && w > 1000)
		return fail(why, "BFQ weights go up to 1000", -ERANGE);
	if (strcmp(file, "shares") == 0)	/* RGCS: res=cpu's guarantee */
		return snprintf(buf, size, "min_shares=%" PRIu64, w);
	if (strncmp(file, "io.", 3) == 0)
		return snprintf(buf, size, "default %" PRIu64, w);
	return snprintf(buf, size, "%" PRIu64, w);
}

static int io_file_text(const char *file, const struct kattr_rgres_value *v,
			char *buf, size_t size)
{
	size_t len;
	int n = snprintf(buf, size, "%u:%u", v->major, v->minor);

	for (int f = 0; f < KATTR_RGRES_IO_FIELDS && n >= 0; f++) {
		if (!(v->io_set & (1u << f)))
			continue;
		len = strlen(buf);
		if (strcmp(file, "io.max") == 0 && v->io[f] == KATTR_RGRES_MAX)
			n = snprintf(buf + len, size - len, " %s=max", io_fields[f]);
		else if (strcmp(file, "io.max") == 0)
			n = snprintf(buf + len, size - len, " %s=%" PRIu64,
				     io_fields[f], v->io[f]);
		else if (strcmp(file, v1_throttle[f]) == 0)	/* 0: none */
			n = snprintf(buf + len, size - len, " %" PRIu64,
				     v->io[f] == KATTR_RGRES_MAX ? 0 : v->io[f]);
	}
	return n < 0 ? n : (int)strlen(buf);
}

static int rgres_file_text(const char *file, const struct kattr_rgres_value *v,
			   char *buf, size_t size, const char **why)
{
	const struct kattr_rgres *r = v->res;
	bool v1 = kattr_ends_with(file, "_in_bytes") || kattr_ends_with(file, "_us");
	int n;

	if (r->type == KATTR_RGRES_WEIGHT) {
		n = weight_file_text(file, v->n, buf, size, why);
	} else if (r->type == KATTR_RGRES_CPU_MAX && strcmp(file, "cpu.max") == 0) {
		if (v->quota == KATTR_RGRES_MAX)
			n = snprintf(buf, size, "max %" PRIu64, v->period);
		else
			n = snprintf(buf, size, "%" PRIu64 " %" PRIu64, v->quota,
				     v->period);
	} else if (r->type == KATTR_RGRES_CPU_MAX && strstr(file, "period")) {
		n = snprintf(buf, size, "%" PRIu64, v->period);
	} else if (r->type == KATTR_RGRES_LIST) {
		n = snprintf(buf, size, "%s", v->list);
	} else if (r->type == KATTR_RGRES_IO_MAX) {
		n = io_file_text(file, v, buf, size);
	} else {
		uint64_t x = r->type == KATTR_RGRES_CPU_MAX ? v->quota : v->n;

		if (x == KATTR_RGRES_MAX)
			n = snprintf(buf, size, "%s", v1 ? "-1" : "max");
		else
			n = snprintf(buf, size, "%" PRIu64, x);
	}
	if (n < 0)
		return n;
	return (size_t)n >= size ? -ENAMETOOLONG : 0;
}

/* The first line of text, whitespace-trimmed, into buf. */
static int first_line(const char *text, char *buf, size_t size)
{
	size_t len;

	text += strspn(text, " \t");
	len = strcspn(text, "\n");
	while (len && isspace((unsigned char)text[len - 1]))
		len--;
	if (len >= size)
		return -EBADMSG;
	memcpy(buf, text, len);
	buf[len] = '\0';
	return 0;
}

/* A number the kernel printed: "max", "-1" (v1: none), digits. */
static int file_u64(const char *s, uint64_t *out)
{
	if (strcmp(s, "max") == 0 || strcmp(s, "-1") == 0) {
		*out = KATTR_RGRES_MAX;
		return 0;
	}
	return parse_u64(s, strlen(s), out) < 0 ? -EBADMSG : 0;
}

static int weight_file_parse(const char *file, const char *line,
			     struct kattr_rgres_value *v)
{
	const char *num = strncmp(line, "default ", 8) == 0 ? line + 8 : line;
	int ret = file_u64(num, &v->n);

	if (ret < 0 || v->n == KATTR_RGRES_MAX)
		return -EBADMSG;
	if (strcmp(file, "cpu.shares") == 0)
		v->n = (v->n * 100 + 512) / 1024;
	else if (strcmp(file, "blkio.weight") == 0)
		v->n = (v->n + 2) / 5;
	if (v->n < WEIGHT_MIN)
		v->n = WEIGHT_MIN;
	if (v->n > WEIGHT_MAX)
		v->n = WEIGHT_MAX;
	return 0;
}

/* v1 memory limits read PAGE_COUNTER_MAX pages: 2^63-1 rounded down. */
#define V1_BYTES_NONE	(BYTES_MAX - 65535)

int kattr_rgres_file_parse(const char *file, const char *text,
			   struct kattr_rgres_value *v)
{
	char line[KATTR_RGRES_LIST_LEN], *sp;
	int ret = first_line(text, line, sizeof(line));

	if (ret < 0)
		return ret;
	switch (v->res->type) {
	case KATTR_RGRES_WEIGHT:
		return weight_file_parse(file, line, v);
	case KATTR_RGRES_CPU_MAX:
		if (strcmp(file, "cpu.max") == 0) {
			sp = strchr(line, ' ');
			if (!sp)
				return -EBADMSG;
			*sp = '\0';
			if (file_u64(sp + 1, &v->period) < 0)
				return -EBADMSG;
		} else if (strstr(file, "period")) {
			return file_u64(line, &v->period);
		}
		return file_u64(line, &v->quota);
	case KATTR_RGRES_LIST:
		v->unset = !line[0];	/* v1: none yet; v2: the parent's */
		if (v->unset)
			return 0;
		return parse_list(line, 0, v->list, sizeof(v->list), NULL) < 0 ?
			-EBADMSG : 0;
	case KATTR_RGRES_BYTES:
	case KATTR_RGRES_COUNT:
		ret = file_u64(line, &v->n);
		if (ret == 0 && v->n >= V1_BYTES_NONE && v->n != KATTR_RGRES_MAX)
			v->n = KATTR_RGRES_MAX;
		return ret;
	default:
		return -EINVAL;
	}
}

/* The value for major:minor in vals, added (all limits max) if absent. */
static struct kattr_rgres_value *io_dev(struct kattr_rgres_vec *vals,
					const struct kattr_rgres *res,
					unsigned int maj, unsigned int min)
{
	struct kattr_rgres_value *v;

	for (size_t i = 0; i < vals->n; i++)
		if (vals->v[i].major == maj && vals->v[i].minor == min)
			return &vals->v[i];
	if (kattr_grow((void **)&vals->v, &vals->cap, vals->n, sizeof(*v)) < 0)
		return NULL;
	v = &vals->v[vals->n++];
	memset(v, 0, sizeof(*v));
	v->res = res;
	v->major = maj;
	v->minor = min;
	for (int f = 0; f < KATTR_RGRES_IO_FIELDS; f++)
		v->io[f] = KATTR_RGRES_MAX;
	v->io_set = (1u << KATTR_RGRES_IO_FIELDS) - 1;
	return v;
}

/* One line "MAJ:MIN rbps=N ..." (io.max) or "MAJ:MIN N" (field's v1 file). */
static int io_line(const char *line, int field, struct kattr_rgres_vec *vals,
		   const struct kattr_rgres *res)
{
	struct kattr_rgres_value tmp = { .res = res }, *v;
	const char *why;
	int ret;

	if (field < 0) {
		ret = parse_io_max(line, -1, &tmp, &why);
	} else {
		/* "8:0 0": v1's "no limit" */
		size_t len = strcspn(line, " ");

		const char *lim = line[len] ? line + len + 1 : "";

		ret = parse_dev(line, len, &tmp, &why);
		if (strcmp(lim, "0") == 0)
			lim = "max";
		if (ret == 0)
			ret = parse_io_limit(lim, strlen(lim), field, &tmp, &why);
	}
	if (ret < 0 || tmp.dev_path[0])
		return -EBADMSG;
	v = io_dev(vals, res, tmp.major, tmp.minor);
	if (!v)
		return -ENOMEM;
	for (int f = 0; f < KATTR_RGRES_IO_FIELDS; f++)
		if (tmp.io_set & (1u << f))
			v->io[f] = tmp.io[f];
	return 0;
}

int kattr_rgres_io_parse(const char *text, int field,
			 const struct kattr_rgres *res,
			 struct kattr_rgres_vec *vals)
{
	while (*text) {
		size_t len = strcspn(text, "\n");
		char line[256];
		int ret;

		if (len >= sizeof(line))
			return -EBADMSG;
		memcpy(line, text, len);
		line[len] = '\0';
		if (len) {
			ret = io_line(line, field, vals, res);
			if (ret < 0)
				return ret;
		}
		text += len + (text[len] ? 1 : 0);
	}
	return 0;
}

/* The highest number in a list file ("0-1", "0,2-7") plus one. */
static int list_file_count(const struct kattr_root *root, const char *path,
			   unsigned int *out)
{
	char *text, *p, *end;
	unsigned long last = 0;
	int ret = kattr_root_file_read(root, path, &text, NULL);

	if (ret < 0)
		return ret;
	for (p = text; *p; p = end) {
		if (!isdigit((unsigned char)*p)) {
			end = p + 1;
			continue;
		}
		last = strtoul(p, &end, 10);
	}
	free(text);
	*out = (unsigned int)(last + 1);
	return 0;
}

int kattr_rgres_limits_read(const struct kattr_root *root,
			    struct kattr_rgres_limits *l)
{
	char *text, *p;
	long page = sysconf(_SC_PAGESIZE);
	int ret;

	memset(l, 0, sizeof(*l));
	l->page_size = page > 0 ? (uint64_t)page : 4096;
	if (list_file_count(root, "/sys/devices/system/cpu/possible", &l->nr_cpus) < 0)
		l->nr_cpus = 0;
	if (list_file_count(root, "/sys/devices/system/node/possible", &l->nr_mems) < 0)
		l->nr_mems = 1;	/* no NUMA: node 0 */
	ret = kattr_root_file_read(root, "/proc/meminfo", &text, NULL);
	if (ret < 0)
		return ret;
	p = strstr(text, "MemTotal:");
	if (p) {
		unsigned long long kb = strtoull(p + 9, NULL, 10);

		l->mem_total = kb * 1024;
	}
	free(text);
	return 0;
}

int kattr_rgres_resolve(const struct kattr_root *root,
			struct kattr_rgres_value *v)
{
	struct stat st;
	int fd;

	if (v->res->type != KATTR_RGRES_IO_MAX || !v->dev_path[0])
		return 0;
	fd = kattr_root_open_path(root, v->dev_path, O_PATH);
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	close(fd);
	if (!S_ISBLK(st.st_mode))
		return -ENOTBLK;
	v->major = major(st.st_rdev);
	v->minor = minor(st.st_rdev);
	v->dev_path[0] = '\0';
	return 0;
}

/* ---- the calls, their words in a struct kattr_why ------------------------ */

int kattr_rgres_parse(const char *name, const char *value,
		      const struct kattr_rgres_limits *l,
		      struct kattr_rgres_value *out, struct kattr_why *why)
{
	const char *words = NULL;
	int ret = rgres_parse(name, value, l, out, &words);

	return kattr_why_words(why, ret, words);
}

int kattr_rgres_parse_assign(const char *text,
			     const struct kattr_rgres_limits *l,
			     struct kattr_rgres_value *out, struct kattr_why *why)
{
	const char *words = NULL;
	int ret = rgres_parse_assign(text, l, out, &words);

	return kattr_why_words(why, ret, words);
}

int kattr_rgres_file_text(const char *file, const struct kattr_rgres_value *v,
			  char *buf, size_t size, struct kattr_why *why)
{
	const char *words = NULL;
	int ret = rgres_file_text(file, v, buf, size, &words);

	return kattr_why_words(why, ret, words);
}
