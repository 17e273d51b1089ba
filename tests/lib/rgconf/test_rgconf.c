/*
 * The configuration model: the example, every schema and syntax
 * error (FILE:LINE and the key), formatting round trips, reading a
 * process's status, and first-match rule matching.
 */
#include "testutil.h"
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kattr/rgconf.h"
#include "kattr/private.h"

static const char example[] __attribute__((unused)) =
	"backend = \"cgroup1\";                          // optional\n"
	"groups = (\n"
	"  { name = \"db\";       shares = 2048; },\n"
	"  { name = \"db/batch\"; shares = 256; },\n"
	"  { name = \"web\"; }\n"
	");\n"
	"rules = (\n"
	"  { group = \"db\";       comm = \"postgres\"; },\n"
	"  { group = \"web\";      user = \"root\"; },\n"
	"  { group = \"db/batch\"; exe = \"/usr/bin/backup\"; }\n"
	");\n";

#if WITH_LIBCONFIG
static struct kattr_rgconf *parse_ok(const char *text)
{
	struct kattr_rgconf *c = NULL;
	char err[512] = "";
	int r = kattr_rgconf_parse_string(text, "t.conf", &c, &(struct kattr_why)KATTR_WHY_BUF(err));

	if (r)
		print_message("unexpected error: %s\n", err);
	assert_int_equal(r, 0);
	return c;
}

static void example_parses(void **state)
{
	struct kattr_rgconf *c = parse_ok(example);

	assert_string_equal(c->backend, "cgroup1");
	assert_int_equal(c->ngroups, 3);
	assert_string_equal(c->groups[1].name, "db/batch");
	assert_string_equal(c->groups[1].shares, "256");
	assert_int_equal(c->groups[1].line, 4);
	assert_null(c->groups[2].shares);
	assert_int_equal(c->nrules, 3);
	assert_string_equal(c->rules[0].comm, "postgres");
	assert_string_equal(c->rules[1].user, "root");
	assert_string_equal(c->rules[2].exe, "/usr/bin/backup");
	assert_int_equal(c->rules[2].line, 10);
	assert_non_null(kattr_rgconf_find_group(c, "web"));
	assert_null(kattr_rgconf_find_group(c, "nope"));
	kattr_rgconf_free(c);
	/* an empty file is an empty configuration */
	c = parse_ok("");
	assert_int_equal(c->ngroups + c->nrules, 0);
	assert_null(c->backend);
	kattr_rgconf_free(c);
	/* RGCS shares as a key list */
	c = parse_ok("groups = ({ name = \"a\"; shares = \"res=cpu,min_shares=10\"; });");
	assert_string_equal(c->groups[0].shares, "res=cpu,min_shares=10");
	kattr_rgconf_free(c);
}

static void expect_error(const char *text, const char *want)
{
	struct kattr_rgconf *c = NULL;
	char err[512] = "";

	int r = kattr_rgconf_parse_string(text, "t.conf", &c, &(struct kattr_why)KATTR_WHY_BUF(err));

	if (r != -EINVAL)
		print_message("accepted: %s\n", text);
	assert_int_equal(r, -EINVAL);
	assert_null(c);
	if (strcmp(err, want) != 0)
		print_message("got  '%s'\nwant '%s'\n", err, want);
	assert_string_equal(err, want);
}

static void every_error(void **state)
{
	expect_error("groups = (\n { name = }\n);",
		     "t.conf:2: syntax error");
	expect_error("\nbackend = \"cgroup3\";",
		     "t.conf:2: backend: 'cgroup3' is not a backend (rgcs, cgroup1, cgroup2)");
	expect_error("backend = 1;", "t.conf:1: backend: must be a string");
	expect_error("colour = \"red\";",
		     "t.conf:1: colour: unknown key (known: backend, groups, rules)");
	expect_error("groups = { name = \"a\"; };",
		     "t.conf:1: groups: must be a list ( {...}, {...} )");
	expect_error("groups = (\n \"a\" );",
		     "t.conf:2: groups[1]: must be a group { name = ...; }");
	expect_error("groups = (\n { shares = 5; }\n);",
		     "t.conf:2: groups[1].name: missing");
	expect_error("groups = ({ name = \"a\"; },\n { name = \"b\"; colour = 1; });",
		     "t.conf:2: groups[2].colour: unknown key (known: name, shares, and the resources of rgctl(8), with _ for .)");
	expect_error("groups = ({ name = \"a\";\n shares = 1.5; });",
		     "t.conf:2: groups[1].shares: must be an integer or a string");
	expect_error("groups = ({ name = \"a\"; shares = -3; });",
		     "t.conf:1: groups[1].shares: -3 is not a positive number");
	expect_error("groups = ({ name = \"a\"; shares = \"\"; });",
		     "t.conf:1: groups[1].shares: empty");
	expect_error("groups = ({ name = \"../etc\"; });",
		     "t.conf:1: groups[1].name: bad group name '../etc': "
		     "the name contains '..'");
	expect_error("groups = ({ name = \"a\"; },\n{ name = \"a\"; });",
		     "t.conf:2: groups[2].name: group 'a' is declared twice");
	expect_error("groups = ({ name = \"a\"; },\n{ name = \"b/c\"; });",
		     "t.conf:2: groups[2].name: parent group 'b' of 'b/c' is not declared");
	expect_error("groups = ({ name = \"a\"; });\nrules = (\n{ comm = \"x\"; });",
		     "t.conf:3: rules[1].group: missing");
	expect_error("groups = ({ name = \"a\"; });\nrules = (\n{ group = \"b\"; comm = \"x\"; });",
		     "t.conf:3: rules[1].group: group 'b' is not declared in groups");
	expect_error("groups = ({ name = \"a\"; });\nrules = ({ group = \"a\"; });",
		     "t.conf:2: rules[1]: no condition (give comm, exe, user, uid, gid or unix_group)");
	expect_error("groups = ({ name = \"a\"; });\nrules = ({ group = \"a\";\n colour = \"x\"; });",
		     "t.conf:3: rules[1].colour: unknown key (known: group, comm, exe, user, uid, gid, unix_group)");
	expect_error("groups = ({ name = \"a\"; });\nrules = ({ group = \"a\"; comm = \"0123456789abcdef\"; });",
		     "t.conf:2: rules[1].comm: must be 1 to 15 bytes (the kernel keeps 15)");
	expect_error("groups = ({ name = \"a\"; });\nrules = ({ group = \"a\"; comm = 5; });",
		     "t.conf:2: rules[1].comm: must be a string");
	expect_error("groups = ({ name = \"a\"; });\nrules = ({ group = \"a\"; exe = \"bin/x\"; });",
		     "t.conf:2: rules[1].exe: must be a full path");
	expect_error("groups = ({ name = \"a\"; });\nrules = ({ group = \"a\"; uid = -1; });",
		     "t.conf:2: rules[1].uid: -1 is out of range (0..4294967294)");
	expect_error("groups = ({ name = \"a\"; });\nrules = ({ group = \"a\"; gid = \"x\"; });",
		     "t.conf:2: rules[1].gid: must be an integer");
	expect_error("groups = ({ name = \"a\"; });\nrules = ({ group = \"a\"; user = \"\"; });",
		     "t.conf:2: rules[1].user: empty");
	expect_error("groups = ({ name = \"a\"; });\nrules = ({ group = \"a\"; unix_group = \"\"; });",
		     "t.conf:2: rules[1].unix_group: empty");
	expect_error("groups = ();\ngroups = ();",
		     "t.conf:2: duplicate setting name");
}

/*
 * libconfig 1.5 reads a plain integer with atoi(): 2^32 + 1024 became
 * 1024.  Every integer must come through whole or be refused.
 */
static void integers_are_64_bit(void **state)
{
	static const struct { const char *text, *want; } cases[] = {
		{ "shares = 4294968320", "groups[1].shares: 4294968320 is out of range (at most 262144" },
		{ "shares = -4294966272", "groups[1].shares: -4294966272 is not a positive number" },
		{ "shares = 262145", "groups[1].shares: 262145 is out of range" },
		{ "shares = 0x100000400", "groups[1].shares: 4294968320 is out of range" },
		{ "shares = 99999999999999999999", "shares: 99999999999999999999 does not fit in 64 bits" },
		{ "shares = -99999999999999999999L", "shares: -99999999999999999999 does not fit in 64 bits" },
		{ "shares = 0xFFFFFFFFFFFFFFFF", "shares: 0xFFFFFFFFFFFFFFFF does not fit in 64 bits" },
	};
	static const struct { const char *text, *want; } ids[] = {
		{ "uid = 4294967296", "rules[1].uid: 4294967296 is out of range" },
		{ "uid = 4294967295", "rules[1].uid: 4294967295 is out of range" },
		{ "gid = 0xFFFFFFFF", "rules[1].gid: 4294967295 is out of range" },
		{ "gid = -4294967296", "rules[1].gid: -4294967296 is out of range" },
		{ "uid = 18446744073709551616", "uid: 18446744073709551616 does not fit in 64 bits" },
	};
	struct kattr_rgconf *c;
	char text[256], err[512];

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		snprintf(text, sizeof(text), "groups = (\n{ name = \"a\"; %s; });\n",
			 cases[i].text);
		c = NULL;
		assert_int_equal(kattr_rgconf_parse_string(text, "t.conf", &c, &(struct kattr_why)KATTR_WHY_BUF(err)), -EINVAL);
		if (strncmp(err, "t.conf:2: ", 10) || !strstr(err, cases[i].want))
			print_message("%s: got '%s'\n", cases[i].text, err);
		assert_int_equal(strncmp(err, "t.conf:2: ", 10), 0);
		assert_non_null(strstr(err, cases[i].want));
	}
	for (size_t i = 0; i < sizeof(ids) / sizeof(*ids); i++) {
		snprintf(text, sizeof(text), "groups = ({ name = \"a\"; });\n"
			 "rules = (\n{ group = \"a\"; %s; });\n", ids[i].text);
		c = NULL;
		assert_int_equal(kattr_rgconf_parse_string(text, "t.conf", &c, &(struct kattr_why)KATTR_WHY_BUF(err)), -EINVAL);
		if (strncmp(err, "t.conf:3: ", 10) || !strstr(err, ids[i].want))
			print_message("%s: got '%s'\n", ids[i].text, err);
		assert_int_equal(strncmp(err, "t.conf:3: ", 10), 0);
		assert_non_null(strstr(err, ids[i].want));
	}
	/* the largest values that fit, in every spelling */
	c = parse_ok("groups = ({ name = \"a\"; shares = 262144; },\n"
		     " { name = \"b\"; shares = 0x40000L; }, { name = \"c1\"; shares = +7; });\n"
		     "rules = ({ group = \"a\"; uid = 4294967294; gid = 0xFFFFFFFE; comm = \"x1\"; });");
	assert_string_equal(c->groups[0].shares, "262144");
	assert_string_equal(c->groups[1].shares, "262144");
	assert_string_equal(c->groups[2].shares, "7");
	assert_int_equal(c->rules[0].uid, 4294967294u);
	assert_int_equal(c->rules[0].gid, 4294967294u);
	assert_string_equal(c->rules[0].comm, "x1");
	kattr_rgconf_free(c);
	/* digits inside names, strings and comments are left alone */
	expect_error("groups = ({ name = \"a\"; x10 = 1; });",
		     "t.conf:1: groups[1].x10: unknown key (known: name, shares, and the resources of rgctl(8), with _ for .)");
	c = parse_ok("# 99999999999999999999\n/* 4294968320 */ // 0x1\n"
		     "groups = ({ name = \"a9\"; shares = \"res=cpu,min_shares=10\"; });");
	assert_string_equal(c->groups[0].name, "a9");
	assert_string_equal(c->groups[0].shares, "res=cpu,min_shares=10");
	assert_int_equal(c->groups[0].line, 3);
	kattr_rgconf_free(c);
	/* a float stays a float */
	expect_error("groups = ({ name = \"a\"; shares = 1e3; });",
		     "t.conf:1: groups[1].shares: must be an integer or a string");
}

/* Random 64-bit uids: read whole or refused, never cut. */
static void integers_random(void **state)
{
	struct kattr_rgconf *c;
	char text[256], err[512];
	unsigned int seed = 12345;

	for (int i = 0; i < 4000; i++) {
		long long v;
		int r;

		v = (long long)(((unsigned long long)rand_r(&seed) << 33) ^
				((unsigned long long)rand_r(&seed) << 11) ^
				(unsigned long long)rand_r(&seed));
		if (i % 4 == 1)
			v = (v & 0xffffffffLL) + (long long)(i % 3) * 0x100000000LL;
		if (i % 4 == 2)
			v = -v;
		snprintf(text, sizeof(text), "groups = ({ name = \"a\"; });\n"
			 "rules = ({ group = \"a\"; uid = %s%lld; });",
			 i % 8 == 3 && v >= 0 ? "+" : "", v);
		c = NULL;
		r = kattr_rgconf_parse_string(text, "t.conf", &c, &(struct kattr_why)KATTR_WHY_BUF(err));
		if (v >= 0 && v < 4294967295LL) {
			assert_int_equal(r, 0);
			assert_int_equal(c->rules[0].uid, (uint32_t)v);
			kattr_rgconf_free(c);
		} else {
			if (r != -EINVAL || !strstr(err, "is out of range"))
				print_message("%s: %d %s\n", text, r, err);
			assert_int_equal(r, -EINVAL);
			assert_non_null(strstr(err, "is out of range"));
		}
	}
}

static void write_at(const char *dir, const char *name, const char *text, char *path,
		     size_t size)
{
	tu_write_file(dir, name, text);
	snprintf(path, size, "%s/%s", dir, name);
}

/* @include: expanded with FILE:LINE kept; only regular files are read. */
static void includes(void **state)
{
	struct kattr_rgconf *c = NULL;
	char err[512], *dir = tu_mkdtemp(), path[512], fifo[512], sub[512];

	/* refused in text given as a string: no file is read */
	expect_error("groups = (\n@include \"/etc/passwd\"\n);",
		     "t.conf:2: @include: only a configuration file may include another");
	snprintf(sub, sizeof(sub), "%s/sub", dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	write_at(dir, "sub/g.inc", "\n{ name = \"db\"; shares = 512; },\n"
		 "@include \"h.inc\"\n", path, sizeof(path));
	write_at(dir, "sub/h.inc", "{ name = \"web\"; },", path, sizeof(path));
	write_at(dir, "main.conf", "groups = (\n  @include \"sub/g.inc\"\n"
		 "  { name = \"x\"; }\n);\nrules = (\n{ group = \"web\"; comm = \"w\"; });\n",
		 path, sizeof(path));
	assert_int_equal(kattr_rgconf_parse_file(path, &c, &(struct kattr_why)KATTR_WHY_BUF(err)), 0);
	assert_int_equal(c->ngroups, 3);
	assert_string_equal(c->groups[0].name, "db");
	assert_int_equal(c->groups[0].line, 2);
	assert_non_null(strstr(c->groups[0].file, "/sub/g.inc"));
	assert_string_equal(c->groups[1].name, "web");
	assert_non_null(strstr(c->groups[1].file, "/sub/h.inc"));
	assert_int_equal(c->groups[1].line, 1);
	assert_string_equal(c->groups[2].name, "x");
	assert_string_equal(c->groups[2].file, path);
	assert_int_equal(c->groups[2].line, 3);
	assert_int_equal(c->rules[0].line, 6);
	kattr_rgconf_free(c);
	/* an error inside an included file names it */
	write_at(dir, "sub/bad.inc", "{ name = \"a\"; },\n{ name = \"b\"; uid = 4294967296; }",
		 path, sizeof(path));
	write_at(dir, "bad.conf", "groups = (\n@include \"sub/bad.inc\"\n);\n", path,
		 sizeof(path));
	assert_int_equal(kattr_rgconf_parse_file(path, &c, &(struct kattr_why)KATTR_WHY_BUF(err)), -EINVAL);
	assert_non_null(strstr(err, "/sub/bad.inc:2: groups[2].uid: unknown key"));
	write_at(dir, "sub/syn.inc", "{ name = \"a\"; },\n\n{ name = }", path, sizeof(path));
	write_at(dir, "syn.conf", "groups = (\n@include \"sub/syn.inc\"\n);\n", path,
		 sizeof(path));
	assert_int_equal(kattr_rgconf_parse_file(path, &c, &(struct kattr_why)KATTR_WHY_BUF(err)), -EINVAL);
	assert_non_null(strstr(err, "/sub/syn.inc:3: syntax error"));
	/* a FIFO, a directory, a missing file, a cycle: refused, nothing hangs */
	alarm(10);
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(kattr_rgconf_parse_file(fifo, &c, &(struct kattr_why)KATTR_WHY_BUF(err)), -EINVAL);
	assert_non_null(strstr(err, "fifo: not a regular file (a FIFO)"));
	write_at(dir, "f.conf", "groups = (\n\n @include \"fifo\"\n);\n", path, sizeof(path));
	assert_int_equal(kattr_rgconf_parse_file(path, &c, &(struct kattr_why)KATTR_WHY_BUF(err)), -EINVAL);
	assert_non_null(strstr(err, "f.conf:3: @include: "));
	assert_non_null(strstr(err, "/fifo: not a regular file (a FIFO)"));
	assert_int_equal(kattr_rgconf_parse_file(sub, &c, &(struct kattr_why)KATTR_WHY_BUF(err)), -EINVAL);
	assert_non_null(strstr(err, "sub: not a regular file (a directory)"));
	write_at(dir, "d.conf", "@include \"sub\"\n", path, sizeof(path));
	assert_int_equal(kattr_rgconf_parse_file(path, &c, &(struct kattr_why)KATTR_WHY_BUF(err)), -EINVAL);
	assert_non_null(strstr(err, "not a regular file (a directory)"));
	write_at(dir, "m.conf", "@include \"nope.inc\"\n", path, sizeof(path));
	assert_int_equal(kattr_rgconf_parse_file(path, &c, &(struct kattr_why)KATTR_WHY_BUF(err)), -ENOENT);
	assert_non_null(strstr(err, "m.conf:1: @include: "));
	assert_non_null(strstr(err, "nope.inc: No such file or directory"));
	write_at(dir, "loop.conf", "@include \"loop.conf\"\n", path, sizeof(path));
	assert_int_equal(kattr_rgconf_parse_file(path, &c, &(struct kattr_why)KATTR_WHY_BUF(err)), -EINVAL);
	assert_non_null(strstr(err, "more than 10 includes deep"));
	alarm(0);
	tu_rmtree(dir);
	free(dir);
}

static void file_errors(void **state)
{
	struct kattr_rgconf *c = NULL;
	char err[512], *dir = tu_mkdtemp(), path[512];

	snprintf(path, sizeof(path), "%s/nope.conf", dir);
	assert_int_equal(kattr_rgconf_parse_file(path, &c, &(struct kattr_why)KATTR_WHY_BUF(err)), -ENOENT);
	assert_non_null(strstr(err, "nope.conf: No such file"));
	tu_write_file(dir, "bad.conf", "groups = (\n{ name = \"a\"; x = 1; });\n");
	snprintf(path, sizeof(path), "%s/bad.conf", dir);
	assert_int_equal(kattr_rgconf_parse_file(path, &c, &(struct kattr_why)KATTR_WHY_BUF(err)), -EINVAL);
	assert_non_null(strstr(err, "bad.conf:2: groups[1].x: unknown key"));
	tu_write_file(dir, "good.conf", example);
	snprintf(path, sizeof(path), "%s/good.conf", dir);
	assert_int_equal(kattr_rgconf_parse_file(path, &c, &(struct kattr_why)KATTR_WHY_BUF(err)), 0);
	assert_string_equal(c->file, path);
	kattr_rgconf_free(c);
	tu_rmtree(dir);
	free(dir);
}

static void format_round_trip(void **state)
{
	struct kattr_rgconf *c = parse_ok(example), *d;
	char *t1, *t2;

	/* awkward strings survive */
	free(c->rules[0].comm);
	c->rules[0].comm = strdup("a\"b\\c\td");
	c->rules[0].has_uid = true;
	c->rules[0].uid = 33;
	c->rules[0].has_gid = true;
	c->rules[0].gid = 44;
	c->rules[0].ugroup = strdup("staff");
	t1 = kattr_rgconf_format(c);
	assert_non_null(t1);
	d = parse_ok(t1);
	t2 = kattr_rgconf_format(d);
	assert_string_equal(t1, t2);
	assert_string_equal(d->rules[0].comm, "a\"b\\c\td");
	assert_int_equal(d->rules[0].uid, 33);
	assert_int_equal(d->rules[0].gid, 44);
	assert_string_equal(d->rules[0].ugroup, "staff");
	assert_string_equal(d->groups[0].shares, "2048");
	free(t1);
	free(t2);
	kattr_rgconf_free(d);
	kattr_rgconf_free(c);
	/* empty lists and string shares */
	c = parse_ok("groups = ({ name = \"x\"; shares = \"007\"; });");
	t1 = kattr_rgconf_format(c);
	assert_string_equal(t1, "groups = (\n  { name = \"x\"; shares = \"007\"; }\n);\nrules = ( );\n");
	d = parse_ok(t1);
	assert_string_equal(d->groups[0].shares, "007");
	free(t1);
	kattr_rgconf_free(d);
	kattr_rgconf_free(c);
}

/* a group's resources (kattr/rgres.h): keys, aliases, values, lists */
static void resources(void **state)
{
	struct kattr_rgconf *c;
	char *t1, *t2;

	(void)state;
	c = parse_ok("groups = ({ name = \"x\"; memory_max = \"1G\"; TasksMax = 200; CPUQuota = \"50%\";\n"
		     " io_max = ( \"8:0 rbps=1M\", \"/dev/vda wiops=5\" ); cpuset_cpus = \"0-1\"; });");
	assert_int_equal(c->groups[0].nres, 6);
	assert_string_equal(c->groups[0].res[0], "memory.max=1G");
	assert_string_equal(c->groups[0].res[1], "pids.max=200");
	assert_string_equal(c->groups[0].res[2], "cpu.max=50%");
	assert_string_equal(c->groups[0].res[4], "io.max=/dev/vda wiops=5");
	t1 = kattr_rgconf_format(c);
	assert_string_equal(t1, "groups = (\n  { name = \"x\"; memory_max = \"1G\"; pids_max = \"200\"; cpu_max = \"50%\";"
			    " io_max = ( \"8:0 rbps=1M\", \"/dev/vda wiops=5\" ); cpuset_cpus = \"0-1\"; }\n);\nrules = ( );\n");
	kattr_rgconf_free(c);
	c = parse_ok(t1);
	t2 = kattr_rgconf_format(c);
	assert_string_equal(t1, t2);
	free(t1);
	free(t2);
	kattr_rgconf_free(c);
	expect_error("groups = ({ name = \"x\"; memory_max = \"1GB\"; });",
		     "t.conf:1: groups[1].memory_max: '1GB': units are one letter: K, M, G, T, each 1024 times the one before (write 1G, not 1GB or 1GiB)");
	expect_error("groups = ({ name = \"x\"; pids_max = -1; });",
		     "t.conf:1: groups[1].pids_max: '-1': a negative count");
	expect_error("groups = ({ name = \"x\"; memory_max = \"1G\"; MemoryMax = \"2G\"; });",
		     "t.conf:1: groups[1].MemoryMax: given twice (as memory.max)");
	expect_error("groups = ({ name = \"x\"; shares = 100; cpu_weight = 3; });",
		     "t.conf:1: groups[1].cpu_weight: give shares or cpu_weight, not both (shares is its short form)");
	expect_error("groups = ({ name = \"x\"; memory_max = ( \"1G\" ); });",
		     "t.conf:1: groups[1].memory_max: must be a string or an integer");
	expect_error("groups = ({ name = \"x\"; IOReadBandwidthMax = \"8:0 1M\"; });",
		     "t.conf:1: groups[1].IOReadBandwidthMax: write io_max = \"DEV rbps=N wbps=N riops=N wiops=N\"");
}

static void matching(void **state)
{
	struct kattr_rgconf *c = parse_ok(
		"groups = ({ name = \"a\"; }, { name = \"b\"; }, { name = \"c\"; },"
		" { name = \"d\"; }, { name = \"e\"; });\n"
		"rules = (\n"
		" { group = \"a\"; comm = \"postgres\"; uid = 70; },\n"	/* both must match */
		" { group = \"b\"; comm = \"postgres\"; },\n"
		" { group = \"c\"; exe = \"/usr/bin/backup\"; },\n"
		" { group = \"d\"; user = \"root\"; },\n"
		" { group = \"e\"; gid = 27; unix_group = \"root\"; }\n"
		");\n");
	struct kattr_proc p;
	char err[256];

	assert_int_equal(kattr_rgconf_needs(c), KATTR_PROC_ALL);
	memset(&p, 0, sizeof(p));
	p.uid = 70;
	p.gid = 1000;
	strcpy(p.comm, "postgres");
	assert_int_equal(kattr_rgconf_match(c, &p), 0);
	p.uid = 71;
	assert_int_equal(kattr_rgconf_match(c, &p), 1);
	strcpy(p.comm, "backup");
	assert_int_equal(kattr_rgconf_match(c, &p), -1);
	strcpy(p.exe, "/usr/bin/backup");
	assert_int_equal(kattr_rgconf_match(c, &p), 2);
	p.exe[0] = '\0';
	/* names match only once resolved */
	p.uid = 0;
	assert_int_equal(kattr_rgconf_match(c, &p), -1);
	assert_int_equal(kattr_rgconf_resolve(c, &(struct kattr_why)KATTR_WHY_BUF(err)), 0);
	assert_int_equal(kattr_rgconf_match(c, &p), 3);
	p.uid = 5;
	/* gid 27 and unix group root (0): effective or supplementary */
	p.gid = 27;
	assert_int_equal(kattr_rgconf_match(c, &p), -1);
	p.groups[0] = 0;
	p.ngroups = 1;
	assert_int_equal(kattr_rgconf_match(c, &p), 4);
	p.gid = 0;
	p.groups[0] = 27;
	assert_int_equal(kattr_rgconf_match(c, &p), 4);
	/* kernel threads are never classified */
	p.kthread = true;
	assert_int_equal(kattr_rgconf_match(c, &p), -1);
	kattr_rgconf_free(c);

	c = parse_ok("groups = ({ name = \"a\"; });\n"
		     "rules = ({ group = \"a\"; comm = \"x\"; },\n"
		     " { group = \"a\"; user = \"no-such-user-here\"; });");
	assert_int_equal(kattr_rgconf_resolve(c, &(struct kattr_why)KATTR_WHY_BUF(err)), -ENOENT);
	assert_string_equal(err, "t.conf:3: rules[2].user: no such user 'no-such-user-here'");
	kattr_rgconf_free(c);
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
#if WITH_LIBCONFIG
		cmocka_unit_test(example_parses),
		cmocka_unit_test(every_error),
		cmocka_unit_test(file_errors),
		cmocka_unit_test(integers_are_64_bit),
		cmocka_unit_test(integers_random),
		cmocka_unit_test(includes),
		cmocka_unit_test(format_round_trip),
		cmocka_unit_test(resources),
		cmocka_unit_test(matching),
#endif
	};

#if !WITH_LIBCONFIG
	printf("[  SKIPPED ] configuration parser: built without libconfig (WITH_LIBCONFIG=OFF)\n");
#endif
	return cmocka_run_group_tests(tests, NULL, NULL);
}
