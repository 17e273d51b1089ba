// SPDX-License-Identifier: GPL-2.0-or-later
/* rgctl attach / members / exec / whereis: tasks and their groups. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kattr/private_proc.h"
#include "rgctl.h"
#include "rgctl_members.h"
#include "rgctl_systemd.h"
#include "xalloc.h"

static int run_attach(struct rgctl *ctx, int argc, char **argv);
static int run_members(struct rgctl *ctx, int argc, char **argv);
static int run_exec(struct rgctl *ctx, int argc, char **argv);
static int run_whereis(struct rgctl *ctx, int argc, char **argv);

static const struct option attach_opts[] = {
	{ "thread",  no_argument, NULL, 'T' },
	{ "threads", no_argument, NULL, 't' },
	{ "help",    no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};
static const struct option members_opts[] = {
	{ "threads", no_argument, NULL, 't' },
	{ "output",  required_argument, NULL, 'o' },
	{ "help",    no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};
static const char *const attach_help[] = {
	"-T, --thread", "Move only the thread given (by default every thread of each process moves).",
	"-t, --threads", "Every thread of each process: the default, accepted for older scripts.",
	NULL
};
static const char *const members_help[] = {
	"-t, --threads", "List threads (cgroups list processes by default).",
	"-o, --output COLUMNS", "A table of PID, COMM, ARGS (comma-separated) instead of the ids alone.",
	NULL
};

const struct rgctl_cmd rgctl_cmd_attach = {
	.name = "attach",
	.args = "GROUP PID...",
	.help = "Move tasks into a group",
	.run = run_attach,
	.opts = attach_opts, .shortopts = "Tt", .opt_help = attach_help,
};
const struct rgctl_cmd rgctl_cmd_members = {
	.name = "members",
	.args = "GROUP",
	.help = "List the tasks of a group (cgroups: processes)",
	.run = run_members,
	.opts = members_opts, .shortopts = "to:", .opt_help = members_help,
	.help_more = rgctl_members_columns_help,
};
const struct rgctl_cmd rgctl_cmd_exec = {
	.name = "exec",
	.args = "GROUP [--] COMMAND [ARG...]",
	.help = "Run a command in a group from its start",
	.run = run_exec,
	.raw_args = true,
};
const struct rgctl_cmd rgctl_cmd_whereis = {
	.name = "whereis",
	.args = "PID",
	.help = "Show which group a task is in",
	.run = run_whereis,
};

/* members -o LIST (NULL: the ids alone) */
static const char *members_output;

/* members: -t lists threads.  attach: whole processes unless -T. */
static unsigned int threads_option(const struct rgctl_cmd *cmd, int argc,
				   char **argv)
{
	bool attach = cmd == &rgctl_cmd_attach, one = false, all = false;
	int c;

	optind = 0;
	while ((c = rgctl_getopt(cmd, argc, argv)) != -1) {
		one |= c == 'T';
		all |= c == 't';
		if (c == 'o')
			members_output = optarg;
	}
	if (one && all)
		rgctl_cmd_usage(cmd, "--thread (one thread) and --threads (every thread) contradict each other");
	if (attach)
		return one ? 0 : KATTR_RG_THREADS;
	return all ? KATTR_RG_THREADS : 0;
}

/* Moving the shell rgctl runs from, or its session: said, not refused. */
static void attach_note(pid_t pid)
{
	pid_t sid = getsid(0);

	if (pid == getppid())
		tool_warn("note: pid %d is rgctl's parent (your shell): it and every command it starts from now on run in the group",
			  (int)pid);
	else if (sid > 0 && pid == sid)
		tool_warn("note: pid %d is the leader of rgctl's session (your login shell or terminal): what it starts from now on runs in the group",
			  (int)pid);
}

/* cgroup v1: members come from the root's own hierarchy; say where the
 * group's other hierarchies lack it or hold other tasks. */
static void members_span_note(struct kattr_rg *rg, const char *group)
{
	char buf[256];

	if (kattr_rg_missing(rg, group, buf, sizeof(buf)) > 0)
		tool_warn("note: '%s' has no directory in the hierarchies of %s (made by another tool?): its tasks there are elsewhere",
			  TOOL_Q(group), buf);
	if (kattr_rg_disagree(rg, group, buf, sizeof(buf)) > 0)
		tool_warn("note: the hierarchies disagree: '%s' holds other tasks in %s than in %s (listed from there)",
			  TOOL_Q(group), buf, kattr_rg_root(rg));
}

static const char *attach_cause(struct kattr_rg *rg, int err)
{
	switch (-err) {
	case EPERM:
	case EACCES:
		return "not permitted to move it";
	case EINVAL:
		if (kattr_rg_backend_of(rg) == KATTR_RG_CGROUP2)
			return "the kernel refused it (cgroup v2 moves whole processes: give a process id; kernel threads cannot move)";
		return "the kernel refused it (invalid argument; kernel threads cannot move)";
	case EBUSY:
		return "the group has child groups with controllers enabled (cgroup v2 'no internal processes' rule)";
	case ENOSPC:
		if (kattr_rg_backend_of(rg) == KATTR_RG_CGROUP1)
			return "the group's cpuset has no cpus or mems (cpuset.cpus, cpuset.mems empty), which refuses every task; it was left where it was in every hierarchy";
		return rgctl_strerror(err);
	case EOPNOTSUPP:
		if (kattr_rg_backend_of(rg) == KATTR_RG_CGROUP2)
			return "the group is not a valid domain (cgroup v2: a group above it has processes of its own and controllers enabled for its children, or it is threaded)";
		return rgctl_strerror(err);
	default:
		return rgctl_strerror(err);
	}
}

static int run_attach(struct rgctl *ctx, int argc, char **argv)
{
	unsigned int flags;
	const char *group;
	struct kattr_rg *rg;
	pid_t *pids;
	int *res, n, ret, bad = 0;

	flags = threads_option(&rgctl_cmd_attach, argc, argv);
	if (argc - optind < 2)
		rgctl_cmd_usage(&rgctl_cmd_attach, "give a GROUP and at least one PID");
	group = argv[optind++];
	n = argc - optind;
	rgctl_check_group(group, true);
	pids = xcalloc((size_t)n, sizeof(*pids));
	res = xcalloc((size_t)n, sizeof(*res));
	/* Every pid is checked before any task moves. */
	for (int i = 0; i < n; i++)
		if (rgctl_parse_pid(argv[optind + i], &pids[i]) < 0)
			bad++;
	if (bad) {
		free(pids);
		free(res);
		tool_die(EXIT_USAGE, "nothing moved: %d invalid pid%s", bad,
			 bad > 1 ? "s" : "");
	}
	rg = rgctl_rg(ctx);
	rgctl_sd_check(ctx, group, RGCTL_SD_ATTACH);
	if (!flags && kattr_rg_backend_of(rg) == KATTR_RG_CGROUP2) {
		free(pids);
		free(res);
		tool_die(EXIT_USAGE, "--thread: cgroup v2 moves whole processes (a thread alone "
			 "moves only inside a threaded subtree, through cgroup.threads); nothing moved");
	}
	ret = kattr_rg_attach(rg, group, pids, (size_t)n, flags, res);
	if (ret < 0) {
		free(pids);
		free(res);
		tool_die(EXIT_FAIL, "cannot move tasks to '%s': %s", TOOL_Q(group),
			 rgctl_strerror(ret));
	}
	for (int i = 0; i < n; i++) {
		if (res[i] == -EAGAIN)
			tool_warn("cannot move every thread of pid %d to '%s': new threads kept appearing "
				  "(some may be left behind; see 'rgctl members --threads')",
				  (int)pids[i], TOOL_Q(group));
		else if (res[i] < 0)
			tool_warn("cannot move pid %d to '%s': %s", (int)pids[i],
				  TOOL_Q(group), attach_cause(rg, res[i]));
		else
			attach_note(pids[i]);
	}
	free(pids);
	free(res);
	return ret ? EXIT_FAIL : EXIT_OK;
}

struct thread_count {
	const pid_t *in;	/* the group's threads */
	size_t nin;
	int total, out;
};

static int count_thread(pid_t tid, void *data)
{
	struct thread_count *tc = data;
	bool in = false;

	for (size_t i = 0; i < tc->nin && !in; i++)
		in = tc->in[i] == tid;
	tc->total++;
	tc->out += !in;
	return 0;
}

/*
 * For each process listed, how many of its threads are in other groups
 * (elsewhere[i], total[i]; 0 when it is whole here or gone).  Cgroups only:
 * the group's threads against /proc/PID/task.
 */
static void members_split(struct kattr_rg *rg, const char *group,
			  const pid_t *pids, size_t n, int *elsewhere,
			  int *total)
{
	struct thread_count tc;
	pid_t *tids;
	size_t ntids;

	if (kattr_rg_members(rg, group, KATTR_RG_THREADS, &tids, &ntids) < 0)
		return;
	for (size_t i = 0; i < n; i++) {
		tc = (struct thread_count){ .in = tids, .nin = ntids };
		if (kattr_proc_foreach_at(tool_root(), pids[i], count_thread, &tc) == 0) {
			elsewhere[i] = tc.out;
			total[i] = tc.total;
		}
	}
	free(tids);
}

static void members_text(bool tasks, const pid_t *pids, size_t n,
			 const int *elsewhere, const int *total)
{
	printf("# %s\n", tasks ? "threads" : "processes");
	for (size_t i = 0; i < n; i++) {
		if (elsewhere[i])
			printf("%d\t# split: %d of its %d threads in other groups\n",
			       (int)pids[i], elsewhere[i], total[i]);
		else
			printf("%d\n", (int)pids[i]);
	}
}

static int run_members(struct rgctl *ctx, int argc, char **argv)
{
	unsigned int flags;
	const char *group;
	struct kattr_rg *rg;
	pid_t *pids;
	int *elsewhere, *total;
	size_t n;
	bool tasks;
	int ret;

	flags = threads_option(&rgctl_cmd_members, argc, argv);
	if (argc - optind != 1)
		rgctl_cmd_usage(&rgctl_cmd_members, "give exactly one GROUP");
	group = argv[optind];
	rgctl_check_group(group, true);
	rg = rgctl_rg(ctx);
	ret = kattr_rg_members(rg, group, flags, &pids, &n);
	if (ret == -ENOSPC)
		tool_die(EXIT_FAIL, "cannot list the members of '%s': the list is longer than one page "
			 "(the RGCS members file fails with ENOSPC past 4096 bytes) and "
			 "/proc/PID/res_group is not there to list them another way",
			 TOOL_Q(group));
	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot list the members of '%s': %s",
			 TOOL_Q(group), rgctl_strerror(ret));
	tasks = (flags & KATTR_RG_THREADS) ||
		kattr_rg_backend_of(rg) == KATTR_RG_RGCS;
	if (members_output) {
		rgctl_members_table(&rgctl_cmd_members, members_output,
				    kattr_rg_name_is_root(group) ? "/" : group, tasks,
				    ctx->json, pids, n);
		members_span_note(rg, group);
		free(pids);
		return EXIT_OK;
	}
	elsewhere = xcalloc(n + 1, sizeof(*elsewhere));
	total = xcalloc(n + 1, sizeof(*total));
	if (!tasks)
		members_split(rg, group, pids, n, elsewhere, total);
	if (ctx->json)
		rgctl_json_print(rgctl_json_members(
			kattr_rg_name_is_root(group) ? "/" : group, tasks, pids, n,
			elsewhere, total));
	else
		members_text(tasks, pids, n, elsewhere, total);
	members_span_note(rg, group);
	free(elsewhere);
	free(total);
	free(pids);
	return EXIT_OK;
}

static int run_exec(struct rgctl *ctx, int argc, char **argv)
{
	const char *group;
	pid_t self = getpid();
	int res = 0, ret, c;
	static const struct option lo[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};

	/* '+': options of COMMAND are not ours. */
	optind = 0;
	while ((c = getopt_long(argc, argv, "+h", lo, NULL)) != -1) {
		if (c == 'h')
			rgctl_cmd_help(&rgctl_cmd_exec);
		rgctl_bad_option(&rgctl_cmd_exec, argv);
	}
	if (argc - optind < 1)
		rgctl_cmd_usage(&rgctl_cmd_exec, "give a GROUP and a COMMAND");
	group = argv[optind++];
	if (optind < argc && strcmp(argv[optind], "--") == 0)
		optind++;
	if (optind >= argc)
		rgctl_cmd_usage(&rgctl_cmd_exec, "give a COMMAND after the GROUP");
	rgctl_check_group(group, true);
	rgctl_sd_check(ctx, group, RGCTL_SD_ATTACH);
	/* cgroup v2: COMMAND starts in the group, rgctl waits for it. */
	ret = rgctl_exec_clone3(rgctl_rg(ctx), group, argv + optind);
	if (ret >= 0)
		return ret;
	if (ret != -ENOSYS)
		tool_die(EXIT_FAIL, "cannot run in '%s': %s", TOOL_Q(group),
			 attach_cause(rgctl_rg(ctx), ret));
	/* Else rgctl moves itself, then becomes COMMAND: it runs in the group
	 * from its first instruction, with no window outside it. */
	ret = kattr_rg_attach(rgctl_rg(ctx), group, &self, 1, 0, &res);
	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot run in '%s': %s", TOOL_Q(group),
			 rgctl_strerror(ret));
	if (res < 0)
		tool_die(EXIT_FAIL, "cannot move pid %d (rgctl itself) to '%s': %s",
			 (int)self, TOOL_Q(group), attach_cause(rgctl_rg(ctx), res));
	kattr_rg_close(ctx->rg);
	ctx->rg = NULL;
	tool_flush_stdout();
	signal(SIGPIPE, SIG_DFL);	/* tool_init() ignores it for rgctl only */
	execvp(argv[optind], argv + optind);
	ret = errno;
	tool_warn("cannot run '%s': %s", TOOL_Q(argv[optind]), tool_strerror(ret));
	return ret == ENOENT ? 127 : 126;
}

/* The groups of a task whose hierarchies disagree (cgroup v1), on
 * stderr below the answer: a line per hierarchy. */
static void whereis_disagree(pid_t pid, const struct kattr_rg_place *v,
			     size_t n)
{
	tool_warn("note: the hierarchies disagree on the group of pid %d (moved by another tool? "
		  "rgctl attach moves a task into all of them):", (int)pid);
	for (size_t i = 0; i < n; i++) {
		fprintf(stderr, "  %s: ", v[i].hier);
		if (v[i].group)
			tool_fputs_esc(v[i].group, stderr, 0);
		else if (v[i].path)
			fprintf(stderr, "outside the root (%s)", TOOL_Q(v[i].path));
		else
			fputs("not in this hierarchy", stderr);
		fputc('\n', stderr);
	}
}

static int run_whereis(struct rgctl *ctx, int argc, char **argv)
{
	struct kattr_rg_place *v;
	struct kattr_rg *rg;
	json_object *o;
	size_t n;
	pid_t pid;
	int ret;

	rgctl_no_options(&rgctl_cmd_whereis, argc, argv);
	if (argc - optind != 1)
		rgctl_cmd_usage(&rgctl_cmd_whereis, "give exactly one PID");
	if (rgctl_parse_pid(argv[optind], &pid) < 0)
		return EXIT_USAGE;
	rg = rgctl_rg(ctx);
	ret = kattr_rg_whereis_each(rg, pid, &v, &n);
	if (ret == -ENOENT)
		tool_die(EXIT_FAIL, "pid %d is not in the hierarchy at %s", (int)pid,
			 kattr_rg_root(rg));
	if (ret == -ENOSPC)
		tool_die(EXIT_FAIL, "cannot tell which group pid %d is in: it is in no group whose members "
			 "could be read, and a members list is longer than one page (the RGCS members file "
			 "fails with ENOSPC past 4096 bytes; /proc/PID/res_group is not there to ask)",
			 (int)pid);
	if (ret < 0)
		tool_die(EXIT_FAIL, "cannot find the group of pid %d: %s", (int)pid,
			 rgctl_strerror(ret));
	if (ctx->json) {
		o = rgctl_json_whereis(pid, v[0].group,
				       kattr_rg_backend_name(kattr_rg_backend_of(rg)));
		json_object_object_add(o, "hierarchies", rgctl_json_places(v, n));
		json_object_object_add(o, "disagree", json_object_new_boolean(ret > 0));
		rgctl_json_print(o);
	} else {
		/* a group some other tool named with any bytes: escaped */
		tool_fputs_esc(v[0].group, stdout, 0);
		putchar('\n');
		tool_flush_stdout();
	}
	if (ret > 0)
		whereis_disagree(pid, v, n);
	kattr_rg_places_free(v, n);
	return EXIT_OK;
}
