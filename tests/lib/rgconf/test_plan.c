/*
 * lib/rgconf/plan.c, the apply engine, on a fixture tree: a cgroup v1 cpu
 * hierarchy captured in a plain directory (opened beneath a sysroot),
 * with operations that model the kernel's (mkdir makes cpu.shares and
 * tasks, a task is in one group at a time, deleting a group moves its
 * tasks to the parent).  Every step fails in turn, before and after it
 * is done, and every undo fails in turn; a stop (a signal) comes before
 * every step; after each run the tree must be exactly as before.  And
 * the journal: a child process runs the plan and is killed (SIGKILL) at
 * every point, between steps, after each, in the middle of the undo; the
 * parent recovers from the journal it left, and the tree is as before.
 * Then the planner: its steps for create, shares, prune and mixed
 * configurations against the tree, the mixed plan run with every fault,
 * and verify after the run.
 */
#include "testutil.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "kattr/rgplan.h"
#include "kattr/private.h"

#define HIER "sys/fs/cgroup/cpu"

struct fx {
	char *root;		/* the sysroot */
	char hier[PATH_MAX];	/* root/HIER */
	struct kattr_rg *rg;
	/* faults: 1-based step (or undo) numbers, 0: none */
	size_t fail_before, fail_after, fail_undo, stop_at;
	size_t calls;		/* stop(): how often asked */
	bool fail_attach;	/* the attach op refuses every thread */
	/* SIGKILL (in a child): before step, after step, before undo */
	size_t kill_before, kill_after, kill_undo;
};

static void mkdirs(const char *root, const char *rel)
{
	char path[PATH_MAX], *p;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	mkdir(path, 0755);
}

/* ---- the fake kernel -------------------------------------------------------- */

static void gpath(const struct fx *f, const char *group, const char *file,
		  char *buf, size_t size)
{
	int n = snprintf(buf, size, "%s%s%s%s%s", f->hier,
			 kattr_rg_name_is_root(group) ? "" : "/",
			 kattr_rg_name_is_root(group) ? "" : group, file ? "/" : "",
			 file ? file : "");

	assert_true(n > 0 && (size_t)n < size);
}

static void put(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static char *get(const char *path)
{
	static char buf[4096];
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return NULL;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

/* Remove tid from the tasks file of every group below dir. */
static void unlist(const char *dir, pid_t tid)
{
	char path[PATH_MAX], *text, out[4096] = "", word[32];
	DIR *d = opendir(dir);
	struct dirent *e;

	snprintf(path, sizeof(path), "%s/tasks", dir);
	text = get(path);
	if (text) {
		snprintf(word, sizeof(word), "%d", (int)tid);
		for (char *l = strtok(text, "\n"); l; l = strtok(NULL, "\n"))
			if (strcmp(l, word) != 0)
				snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s\n", l);
		put(path, out);
	}
	while (d && (e = readdir(d)))
		if (e->d_type == DT_DIR && e->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			unlist(path, tid);
		}
	if (d)
		closedir(d);
}

static int f_attach(void *arg, struct kattr_rg *rg, const char *group,
		    const pid_t *tids, size_t nt, int *results)
{
	struct fx *f = arg;
	char path[PATH_MAX], line[4200];
	int failed = 0, n;

	(void)rg;
	for (size_t i = 0; i < nt; i++) {
		results[i] = f->fail_attach ? -EPERM : 0;
		if (f->fail_attach) {
			failed++;
			continue;
		}
		unlist(f->hier, tids[i]);
		gpath(f, group, "tasks", path, sizeof(path));
		n = snprintf(line, sizeof(line), "%s%d\n", get(path), (int)tids[i]);
		assert_true(n > 0 && (size_t)n < sizeof(line));
		put(path, line);
	}
	return failed;
}

static int f_create(void *arg, struct kattr_rg *rg, const char *group,
		    const char *shares, struct kattr_rg_cpu_path *done)
{
	struct fx *f = arg;
	char path[PATH_MAX];

	(void)rg;
	(void)done;
	gpath(f, group, NULL, path, sizeof(path));
	if (mkdir(path, 0755) < 0)
		return -errno;
	gpath(f, group, "cpu.shares", path, sizeof(path));
	put(path, shares ? shares : "1024");
	gpath(f, group, "notify_on_release", path, sizeof(path));
	put(path, "0");
	gpath(f, group, "tasks", path, sizeof(path));
	put(path, "");
	return 0;
}

static int f_shares_set(void *arg, struct kattr_rg *rg, const char *group,
			const char *shares, struct kattr_why *why)
{
	struct fx *f = arg;
	char path[PATH_MAX];

	(void)rg;
	(void)why;
	gpath(f, group, "cpu.shares", path, sizeof(path));
	put(path, shares);
	return 0;
}

static int f_attr_write(void *arg, struct kattr_rg *rg, const char *rel,
			const char *value)
{
	struct fx *f = arg;
	char path[PATH_MAX];

	(void)rg;
	int n = snprintf(path, sizeof(path), "%s/%s", f->hier, rel);

	assert_true(n > 0 && (size_t)n < sizeof(path));
	put(path, value);
	return 0;
}

static int f_members(void *arg, struct kattr_rg *rg, const char *group,
		     pid_t **tids, size_t *n)
{
	struct fx *f = arg;
	char path[PATH_MAX], *text;

	(void)rg;
	gpath(f, group, "tasks", path, sizeof(path));
	text = get(path);
	*tids = calloc(64, sizeof(**tids));
	*n = 0;
	for (char *l = strtok(text, "\n"); l && *n < 64; l = strtok(NULL, "\n"))
		(*tids)[(*n)++] = atoi(l);
	return 0;
}

/* rmdir after moving the tasks to the parent (as cgroup v1 rgctl does). */
static int f_delete(void *arg, struct kattr_rg *rg, const char *group)
{
	struct fx *f = arg;
	char path[PATH_MAX], parent[PATH_MAX], *slash;
	pid_t *tids;
	size_t n;
	int res[64];

	gpath(f, group, NULL, path, sizeof(path));
	if (access(path, F_OK) < 0)
		return -ENOENT;
	snprintf(parent, sizeof(parent), "%s", group);
	slash = strrchr(parent, '/');
	snprintf(slash ? slash : parent, sizeof(parent) - (size_t)(slash ? slash - parent : 0),
		 "%s", slash ? "" : "/");
	f_members(arg, rg, group, &tids, &n);
	f_attach(arg, rg, parent, tids, n, res);
	free(tids);
	for (const char *const *a = (const char *const[]){ "cpu.shares", "notify_on_release",
							   "tasks", NULL }; *a; a++) {
		gpath(f, group, *a, path, sizeof(path));
		unlink(path);
	}
	gpath(f, group, NULL, path, sizeof(path));
	return rmdir(path) < 0 ? -errno : 0;
}

/* ---- the faults ------------------------------------------------------------- */

static int f_before(void *arg, size_t i, struct kattr_why *why)
{
	struct fx *f = arg;

	kattr_why_set(why, KATTR_WHY_INVALID, 0, "injected before");
	if (i + 1 == f->kill_before)
		raise(SIGKILL);
	return i + 1 == f->fail_before ? -EIO : 0;
}

static int f_after(void *arg, size_t i, struct kattr_why *why)
{
	struct fx *f = arg;

	kattr_why_set(why, KATTR_WHY_INVALID, 0, "injected after");
	if (i + 1 == f->kill_after)
		raise(SIGKILL);
	return i + 1 == f->fail_after ? -EIO : 0;
}

static int f_before_undo(void *arg, size_t i, struct kattr_why *why)
{
	struct fx *f = arg;

	kattr_why_set(why, KATTR_WHY_INVALID, 0, "injected undo");
	if (i + 1 == f->kill_undo)
		raise(SIGKILL);
	return i + 1 == f->fail_undo ? -EIO : 0;
}

static int f_stop(void *arg)
{
	struct fx *f = arg;

	return ++f->calls == f->stop_at ? SIGTERM : 0;
}

static void fx_ops(struct fx *f, struct kattr_rgplan_ops *ops)
{
	kattr_rgplan_ops_init(ops);
	ops->create = f_create;
	ops->shares_set = f_shares_set;
	ops->delete = f_delete;
	ops->members = f_members;
	ops->attach = f_attach;
	ops->attr_write = f_attr_write;
	ops->before = f_before;
	ops->after = f_after;
	ops->before_undo = f_before_undo;
	ops->stop = f_stop;
	ops->arg = f;
}

/* ---- the fixture and its snapshot --------------------------------------------- */

/*
 * Groups: keep (shares 512), old (256, notify_on_release 1, tasks 4242
 * 4243) and old/kid (100, task 77); the root holds task 1.
 */
static void fx_open(struct fx *f)
{
	char rel[PATH_MAX];

	memset(f, 0, sizeof(*f));
	f->root = tu_mkdtemp();
	snprintf(rel, sizeof(rel), "proc/%ld", (long)getpid());
	mkdirs(f->root, rel);
	mkdirs(f->root, HIER "/keep");
	mkdirs(f->root, HIER "/old/kid");
	snprintf(rel, sizeof(rel), "proc/%ld/mountinfo", (long)getpid());
	tu_write_file(f->root, rel,
		      "23 1 0:21 / / rw - ext4 /dev/sda1 rw\n"
		      "32 23 0:29 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n");
	tu_write_file(f->root, HIER "/cpu.shares", "1024\n");
	tu_write_file(f->root, HIER "/tasks", "1\n");
	tu_write_file(f->root, HIER "/keep/cpu.shares", "512\n");
	tu_write_file(f->root, HIER "/keep/notify_on_release", "0\n");
	tu_write_file(f->root, HIER "/keep/tasks", "");
	tu_write_file(f->root, HIER "/old/cpu.shares", "256\n");
	tu_write_file(f->root, HIER "/old/notify_on_release", "1\n");
	tu_write_file(f->root, HIER "/old/tasks", "4242\n4243\n");
	tu_write_file(f->root, HIER "/old/kid/cpu.shares", "100\n");
	tu_write_file(f->root, HIER "/old/kid/notify_on_release", "0\n");
	tu_write_file(f->root, HIER "/old/kid/tasks", "77\n");
	snprintf(f->hier, sizeof(f->hier), "%s/" HIER, f->root);
	assert_int_equal(kattr_set_sysroot(f->root), 0);
	assert_int_equal(kattr_rg_open(KATTR_RG_CGROUP1, NULL, &f->rg), 0);
}

static void fx_close(struct fx *f)
{
	kattr_rg_close(f->rg);
	assert_int_equal(kattr_set_sysroot(NULL), 0);
	tu_rmtree(f->root);
	free(f->root);
}

static int by_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every file below dir as "rel:line" (each line of its content), sorted. */
static void snap_dir(const char *dir, const char *rel, char ***v, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	assert_non_null(d);
	while ((e = readdir(d))) {
		char path[PATH_MAX], sub[PATH_MAX], *text;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		snprintf(sub, sizeof(sub), "%s/%s", rel, e->d_name);
		*v = realloc(*v, (*n + 1) * sizeof(**v));
		assert_true(asprintf(&(*v)[(*n)++], "%s/", sub) > 0);
		if (e->d_type == DT_DIR) {
			snap_dir(path, sub, v, n);
			continue;
		}
		text = get(path);
		for (char *l = strtok(text, "\n"); l; l = strtok(NULL, "\n")) {
			*v = realloc(*v, (*n + 1) * sizeof(**v));
			assert_true(asprintf(&(*v)[(*n)++], "%s:%s", sub, l) > 0);
		}
	}
	closedir(d);
}

static char *snapshot(const struct fx *f)
{
	char **v = NULL, *out;
	size_t n = 0, len = 1;

	snap_dir(f->hier, "", &v, &n);
	qsort(v, n, sizeof(*v), by_str);
	for (size_t i = 0; i < n; i++)
		len += strlen(v[i]) + 1;
	out = calloc(1, len);
	for (size_t i = 0; i < n; i++) {
		strcat(strcat(out, v[i]), "\n");
		free(v[i]);
	}
	free(v);
	return out;
}

/*
 * The plan: create new (shares 300), create new/sub, set keep to 2048
 * (was 512), delete old/kid, delete old.
 */
#define NSTEPS 5
static void build(struct kattr_rgplan *p)
{
	struct kattr_rgplan_step *s;

	memset(p, 0, sizeof(*p));
	assert_int_equal(kattr_rgplan_add(p, KATTR_RGPLAN_CREATE, "new", &s), 0);
	s->want = strdup("300");
	assert_int_equal(kattr_rgplan_add(p, KATTR_RGPLAN_CREATE, "new/sub", &s), 0);
	assert_int_equal(kattr_rgplan_add(p, KATTR_RGPLAN_SET, "keep", &s), 0);
	s->want = strdup("2048");
	s->old = strdup("512");
	assert_int_equal(kattr_rgplan_add(p, KATTR_RGPLAN_DELETE, "old/kid", NULL), 0);
	assert_int_equal(kattr_rgplan_add(p, KATTR_RGPLAN_DELETE, "old", NULL), 0);
	assert_int_equal(p->n, NSTEPS);
}

/* Run the plan with f's faults: the return value, r filled. */
static int run(struct fx *f, unsigned int flags, struct kattr_rgplan_result *r)
{
	struct kattr_rgplan_ops ops;
	struct kattr_rgplan p;
	int ret;

	build(&p);
	fx_ops(f, &ops);
	f->calls = 0;
	ret = kattr_rgplan_run(f->rg, &p, &ops, flags, r);
	kattr_rgplan_free(&p);
	return ret;
}

/* ---- the tests ------------------------------------------------------------------ */

/* No fault: every step done, the tree as the plan says. */
static void all_done(void **state)
{
	struct kattr_rgplan_result r;
	struct fx f;

	(void)state;
	fx_open(&f);
	assert_int_equal(run(&f, 0, &r), 0);
	assert_int_equal(r.failed, NSTEPS);
	assert_int_equal(r.nnotes, 0);
	assert_int_equal(f.calls, NSTEPS + 1);	/* before each step, after the last */
	assert_string_equal(get(strcat(strcpy((char[PATH_MAX]){ 0 }, f.hier), "/new/cpu.shares")),
			    "300");
	assert_string_equal(get(strcat(strcpy((char[PATH_MAX]){ 0 }, f.hier), "/keep/cpu.shares")),
			    "2048");
	assert_int_equal(access(strcat(strcpy((char[PATH_MAX]){ 0 }, f.hier), "/old"), F_OK), -1);
	/* old's and kid's tasks went to the root */
	assert_string_equal(get(strcat(strcpy((char[PATH_MAX]){ 0 }, f.hier), "/tasks")),
			    "1\n4242\n4243\n77\n");
	kattr_rgplan_result_free(&r);
	fx_close(&f);
}

/* Every step fails, before and after it is done: the tree is as before. */
static void every_step_fails(void **state)
{
	(void)state;
	for (size_t k = 1; k <= NSTEPS; k++)
		for (int after = 0; after < 2; after++) {
			struct kattr_rgplan_result r;
			char *before, *now;
			struct fx f;

			fx_open(&f);
			before = snapshot(&f);
			if (after)
				f.fail_after = k;
			else
				f.fail_before = k;
			assert_int_equal(run(&f, 0, &r), -EIO);
			assert_int_equal(r.failed, k - 1);
			assert_int_equal(r.done, after ? k : k - 1);
			assert_string_equal(r.why, after ? "injected after" : "injected before");
			assert_int_equal(r.nnotes, 0);
			now = snapshot(&f);
			assert_string_equal(now, before);
			free(before);
			free(now);
			kattr_rgplan_result_free(&r);
			fx_close(&f);
		}
}

/* Every undo fails in turn (the last step failing after it is done): that
 * step's change stays and is the one note; the others are undone. */
static void every_undo_fails(void **state)
{
	(void)state;
	for (size_t k = 1; k <= NSTEPS; k++) {
		struct kattr_rgplan_result r;
		char *before, *now;
		struct fx f;

		fx_open(&f);
		before = snapshot(&f);
		f.fail_after = NSTEPS;
		f.fail_undo = k;
		assert_int_equal(run(&f, 0, &r), -EIO);
		assert_int_equal(r.done, NSTEPS);
		/* first the one injected; then what it takes with it: new
		 * cannot go while new/sub stays, old/kid not come back
		 * without old */
		assert_int_equal(r.nnotes, k == 2 || k == 5 ? 2 : 1);
		assert_int_equal(r.notes[0].kind, KATTR_RGPLAN_NOTE_UNDO);
		assert_int_equal(r.notes[0].step, k - 1);
		assert_string_equal(r.notes[0].why, "injected undo");
		now = snapshot(&f);
		assert_string_not_equal(now, before);
		free(before);
		free(now);
		kattr_rgplan_result_free(&r);
		fx_close(&f);
	}
}

/* A stop (a signal) before each step and after the last: all undone. */
static void stop_undoes(void **state)
{
	(void)state;
	for (size_t k = 1; k <= NSTEPS + 1; k++) {
		struct kattr_rgplan_result r;
		char *before, *now;
		struct fx f;

		fx_open(&f);
		before = snapshot(&f);
		f.stop_at = k;
		assert_int_equal(run(&f, 0, &r), -EINTR);
		assert_int_equal(r.stopped, SIGTERM);
		assert_int_equal(r.done, k - 1);
		assert_int_equal(r.nnotes, 0);
		now = snapshot(&f);
		assert_string_equal(now, before);
		free(before);
		free(now);
		kattr_rgplan_result_free(&r);
		fx_close(&f);
	}
}

/* KATTR_RGPLAN_NO_UNDO: a stop keeps what was done. */
static void no_undo_keeps(void **state)
{
	struct kattr_rgplan_result r;
	struct fx f;

	(void)state;
	fx_open(&f);
	f.stop_at = 3;		/* before step 3: two creates done */
	assert_int_equal(run(&f, KATTR_RGPLAN_NO_UNDO, &r), -EINTR);
	assert_int_equal(r.done, 2);
	assert_int_equal(access(strcat(strcpy((char[PATH_MAX]){ 0 }, f.hier), "/new/sub"), F_OK), 0);
	kattr_rgplan_result_free(&r);
	fx_close(&f);
}

/* Undo starts: from then on the attach op refuses every thread. */
static int refuse_attach(void *arg, size_t i, struct kattr_why *why)
{
	struct fx *f = arg;

	(void)i;
	(void)why;
	f->fail_attach = true;
	return 0;
}

/* Threads that cannot be put back are named, one note each. */
static void threads_not_back(void **state)
{
	struct kattr_rgplan_result r;
	struct kattr_rgplan_ops ops;
	struct kattr_rgplan p;
	struct fx f;

	(void)state;
	fx_open(&f);
	build(&p);
	fx_ops(&f, &ops);
	f.fail_after = NSTEPS;
	ops.before_undo = refuse_attach;
	assert_int_equal(kattr_rgplan_run(f.rg, &p, &ops, 0, &r), -EIO);
	/* old's three threads (undone first: 77 came up from old/kid when
	 * it went), then old/kid's one */
	assert_int_equal(r.nnotes, 4);
	for (size_t i = 0; i < 4; i++) {
		assert_int_equal(r.notes[i].kind, KATTR_RGPLAN_NOTE_THREAD);
		assert_int_equal(r.notes[i].err, -EPERM);
		assert_int_equal(r.notes[i].step, i < 3 ? 4 : 3);
	}
	assert_int_equal(r.notes[0].tid, 4242);
	assert_int_equal(r.notes[1].tid, 4243);
	assert_int_equal(r.notes[2].tid, 77);
	assert_int_equal(r.notes[3].tid, 77);
	kattr_rgplan_result_free(&r);
	kattr_rgplan_free(&p);
	fx_close(&f);
}

/* The apply lock: held once, -EWOULDBLOCK (holder: us is not named) again. */
static void lock(void **state)
{
	struct fx f;
	pid_t holder = -1;
	int fd, fd2;

	(void)state;
	fx_open(&f);
	fd = kattr_rg_lock(f.rg, 0, &holder);
	assert_true(fd >= 0);
	assert_int_equal(holder, 0);
	fd2 = kattr_rg_lock(f.rg, 50, &holder);
	assert_int_equal(fd2, -EWOULDBLOCK);
	assert_int_equal(holder, 0);	/* ourselves: not reported */
	close(fd);
	fd2 = kattr_rg_lock(f.rg, 0, NULL);
	assert_true(fd2 >= 0);
	close(fd2);
	fx_close(&f);
}

static int stop_now(void *arg)
{
	(void)arg;
	return SIGTERM;
}

/* The wait ends when the stop hook says so (a signal), not at its bound. */
static void lock_stopped(void **state)
{
	struct fx f;
	pid_t holder = -1;
	int fd;

	(void)state;
	fx_open(&f);
	fd = kattr_rg_lock(f.rg, 0, NULL);
	assert_true(fd >= 0);
	assert_int_equal(kattr_rg_lock_wait(f.rg, 600000, stop_now, NULL, &holder), -EINTR);
	assert_int_equal(holder, 0);
	close(fd);
	assert_true((fd = kattr_rg_lock_wait(f.rg, 0, stop_now, NULL, NULL)) >= 0);
	close(fd);
	fx_close(&f);
}

/* The classify daemon's lock file: made, held, its holder named (the pid
 * it holds where /proc/locks does not tell); no symlink, no FIFO. */
static void lock_file(void **state)
{
	char path[PATH_MAX];
	pid_t holder = -1;
	int dir, fd, fd2;
	struct fx f;

	(void)state;
	fx_open(&f);
	dir = open(f.root, O_RDONLY | O_DIRECTORY);
	assert_true(dir >= 0);
	fd = kattr_lock_file(NULL, dir, "classify.1-2.lock", 0, &holder);
	assert_true(fd >= 0);
	assert_int_equal(holder, 0);
	assert_int_equal(pwrite(fd, "4242\n", 5, 0), 5);
	assert_int_equal(kattr_lock_file(NULL, dir, "classify.1-2.lock", 30, &holder), -EWOULDBLOCK);
	assert_int_equal(holder, 4242);
	close(fd);
	fd2 = kattr_lock_file(NULL, dir, "classify.1-2.lock", 0, NULL);
	assert_true(fd2 >= 0);
	close(fd2);
	assert_int_equal(symlinkat("classify.1-2.lock", dir, "link.lock"), 0);
	assert_int_equal(kattr_lock_file(NULL, dir, "link.lock", 0, NULL), -ELOOP);
	snprintf(path, sizeof(path), "%s/fifo.lock", f.root);
	assert_int_equal(mkfifo(path, 0644), 0);
	assert_int_equal(kattr_lock_file(NULL, dir, "fifo.lock", 0, NULL), -EINVAL);
	close(dir);
	fx_close(&f);
}

/* ---- the journal ------------------------------------------------------------------ */

/*
 * In a child: run the plan with its journal in f->root and f's kill
 * point; it must die of SIGKILL.  Then recover from what it left (the
 * kill point: where the recovery dies too, and a second one finishes).
 */
static void killed_run(struct fx *f)
{
	struct kattr_rgplan_result r;
	struct kattr_rgplan_ops ops;
	struct kattr_rgplan p;
	int status, dir;
	pid_t pid;

	dir = open(f->root, O_RDONLY | O_DIRECTORY);
	assert_true(dir >= 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		build(&p);
		fx_ops(f, &ops);
		if (kattr_rgjournal_create(dir, "journal", "test", &p, &ops.journal) < 0)
			_exit(1);
		kattr_rgplan_run(f->rg, &p, &ops, 0, &r);
		_exit(2);	/* not killed */
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	close(dir);
}

/* Recover from f->root/journal with the faults off: 0, r filled. */
static int recover(struct fx *f, struct kattr_rgplan_result *r,
		   struct kattr_rgjournal_state *st)
{
	struct kattr_rgplan_ops ops;
	struct kattr_rgjournal *j;
	struct kattr_rgplan p;
	int dir = open(f->root, O_RDONLY | O_DIRECTORY), ret;

	assert_true(dir >= 0);
	assert_int_equal(kattr_rgjournal_open(dir, "journal", &p, st, &j), 0);
	assert_int_equal(p.n, NSTEPS);
	f->fail_before = f->fail_after = f->fail_undo = 0;
	f->kill_before = f->kill_after = f->kill_undo = 0;
	fx_ops(f, &ops);
	ops.journal = j;
	ret = kattr_rgplan_recover(f->rg, &p, st, &ops, r);
	kattr_rgplan_free(&p);
	assert_int_equal(kattr_rgjournal_close(j, true), 0);
	close(dir);
	return ret;
}

/* Killed before and after every step, and before every undo (the last
 * step failing after it is done): recovered, the tree is as before. */
static void killed_recovers(void **state)
{
	(void)state;
	for (size_t k = 1; k <= 3 * NSTEPS; k++) {
		struct kattr_rgjournal_state st;
		struct kattr_rgplan_result r;
		char *before, *now, path[PATH_MAX];
		struct fx f;
		size_t i = (k - 1) % NSTEPS + 1;

		fx_open(&f);
		before = snapshot(&f);
		if (k <= NSTEPS)
			f.kill_before = i;
		else if (k <= 2 * NSTEPS)
			f.kill_after = i;
		else {
			f.fail_after = NSTEPS;
			f.kill_undo = i;
		}
		killed_run(&f);
		assert_int_equal(recover(&f, &r, &st), 0);
		assert_string_equal(st.cmd, "test");
		assert_true(st.run);
		/* what was started and not undone, nothing else */
		assert_int_equal(st.started, k <= NSTEPS ? i - 1 : k <= 2 * NSTEPS ? i : NSTEPS);
		assert_int_equal(r.done, k <= 2 * NSTEPS ? st.started : i);
		assert_int_equal(r.nnotes, 0);
		now = snapshot(&f);
		assert_string_equal(now, before);
		snprintf(path, sizeof(path), "%s/journal", f.root);
		assert_int_equal(access(path, F_OK), -1);
		free(before);
		free(now);
		kattr_rgplan_result_free(&r);
		fx_close(&f);
	}
}

/* ---- the planner (lib/rgconf/plan_build.c) on the same tree ----------------------------- */

/* A configuration by hand: groups g[0..n). */
static void conf_of(struct kattr_rgconf *c, struct kattr_rgconf_group *g, size_t n)
{
	memset(c, 0, sizeof(*c));
	c->file = (char *)"test.conf";
	c->groups = g;
	c->ngroups = n;
}

/* The caller's groups, for --prune: those in the "\n"-separated arg. */
static bool ours_in(void *arg, struct kattr_rg *rg, const char *group)
{
	const char *l = arg;
	size_t n = strlen(group);

	(void)rg;
	for (; l && *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] == '\n'))
		if (strcspn(l, "\n") == n && strncmp(l, group, n) == 0)
			return true;
	return false;
}

static void assert_step(const struct kattr_rgplan *p, size_t i, enum kattr_rgplan_kind kind,
			const char *group, const char *want, const char *old)
{
	assert_true(i < p->n);
	assert_int_equal(p->v[i].kind, kind);
	assert_string_equal(p->v[i].group, group);
	if (want)
		assert_string_equal(p->v[i].want, want);
	else
		assert_null(p->v[i].want);
	if (old)
		assert_string_equal(p->v[i].old, old);
	else
		assert_null(p->v[i].old);
	assert_null(p->v[i].enable);	/* cgroup v1: nothing to enable */
}

/* Plan c against f's tree (flags, ours): the return value. */
static int plan_conf(struct fx *f, const struct kattr_rgconf *c, unsigned int flags,
		     const char *ours, struct kattr_rgplan *p, struct kattr_rgplan_info *info)
{
	struct kattr_rgplan_conf pc = {
		.conf = c, .flags = flags, .ours = ours_in, .arg = (void *)ours,
	};

	memset(p, 0, sizeof(*p));
	return kattr_rgplan_build(f->rg, &pc, p, info);
}

/* Creates, parents first whatever the file's order; a group with the
 * shares it has already gets no step. */
static void planned_create(void **state)
{
	struct kattr_rgconf_group g[] = {
		{ .name = (char *)"new/sub", .line = 2 },
		{ .name = (char *)"new", .shares = (char *)"300", .line = 1 },
		{ .name = (char *)"keep", .shares = (char *)"512", .line = 3 },
	};
	struct kattr_rgplan_info info;
	struct kattr_rgconf c;
	struct kattr_rgplan p;
	char *before, *now;
	struct fx f;

	(void)state;
	fx_open(&f);
	before = snapshot(&f);
	conf_of(&c, g, 3);
	assert_int_equal(plan_conf(&f, &c, 0, NULL, &p, &info), 0);
	assert_int_equal(p.n, 2);
	assert_step(&p, 0, KATTR_RGPLAN_CREATE, "new", "300", NULL);
	assert_int_equal(p.v[0].line, 1);
	assert_step(&p, 1, KATTR_RGPLAN_CREATE, "new/sub", NULL, NULL);
	assert_int_equal(p.v[1].line, 2);
	assert_int_equal(info.nkept, 0);
	/* planning touches nothing */
	now = snapshot(&f);
	assert_string_equal(now, before);
	free(before);
	free(now);
	kattr_rgplan_info_free(&info);
	kattr_rgplan_free(&p);
	fx_close(&f);
}

/* A change of shares keeps the old value for undo; a bad value is refused
 * naming the group. */
static void planned_shares(void **state)
{
	struct kattr_rgconf_group g[] = {
		{ .name = (char *)"keep", .shares = (char *)"2048", .line = 1 },
		{ .name = (char *)"old", .shares = (char *)"lots", .line = 2 },
	};
	struct kattr_rgplan_info info;
	struct kattr_rgconf c;
	struct kattr_rgplan p;
	struct fx f;

	(void)state;
	fx_open(&f);
	conf_of(&c, g, 1);
	assert_int_equal(plan_conf(&f, &c, 0, NULL, &p, &info), 0);
	assert_int_equal(p.n, 1);
	assert_step(&p, 0, KATTR_RGPLAN_SET, "keep", "2048", "512");
	kattr_rgplan_free(&p);
	conf_of(&c, g, 2);
	assert_true(plan_conf(&f, &c, 0, NULL, &p, &info) < 0);
	assert_int_equal(info.fail.kind, KATTR_RGPLAN_FAIL_SHARES);
	assert_ptr_equal(info.fail.g, &g[1]);
	assert_non_null(info.fail.why);
	kattr_rgplan_info_free(&info);
	kattr_rgplan_free(&p);
	fx_close(&f);
}

/* --prune: the caller's groups go, children first; one not the caller's
 * is kept, and so is every group above it. */
static void planned_prune(void **state)
{
	struct kattr_rgconf_group g[] = { { .name = (char *)"keep", .line = 1 } };
	struct kattr_rgplan_info info;
	struct kattr_rgconf c;
	struct kattr_rgplan p;
	struct fx f;

	(void)state;
	fx_open(&f);
	conf_of(&c, g, 1);
	assert_int_equal(plan_conf(&f, &c, KATTR_RGPLAN_PRUNE, "old\nold/kid", &p, &info), 0);
	assert_int_equal(p.n, 2);
	assert_step(&p, 0, KATTR_RGPLAN_DELETE, "old/kid", NULL, NULL);
	assert_step(&p, 1, KATTR_RGPLAN_DELETE, "old", NULL, NULL);
	assert_int_equal(info.nkept, 0);
	kattr_rgplan_free(&p);
	/* old/kid is not ours: both stay */
	assert_int_equal(plan_conf(&f, &c, KATTR_RGPLAN_PRUNE, "old", &p, &info), 0);
	assert_int_equal(p.n, 0);
	assert_int_equal(info.nkept, 2);
	assert_string_equal(info.kept[0], "old/kid");
	assert_string_equal(info.kept[1], "old");
	kattr_rgplan_info_free(&info);
	kattr_rgplan_free(&p);
	/* old is not ours: old/kid goes, old stays */
	assert_int_equal(plan_conf(&f, &c, KATTR_RGPLAN_PRUNE, "old/kid", &p, &info), 0);
	assert_int_equal(p.n, 1);
	assert_step(&p, 0, KATTR_RGPLAN_DELETE, "old/kid", NULL, NULL);
	assert_int_equal(info.nkept, 1);
	assert_string_equal(info.kept[0], "old");
	kattr_rgplan_info_free(&info);
	kattr_rgplan_free(&p);
	/* without --prune nothing is deleted, nothing said */
	assert_int_equal(plan_conf(&f, &c, 0, "old\nold/kid", &p, &info), 0);
	assert_int_equal(p.n, 0);
	assert_int_equal(info.nkept, 0);
	kattr_rgplan_free(&p);
	fx_close(&f);
}

/* The mixed configuration: create new (300) and new/sub, keep to 2048,
 * old and old/kid pruned. */
static struct kattr_rgconf_group mixed[] = {
	{ .name = (char *)"new", .shares = (char *)"300", .line = 1 },
	{ .name = (char *)"new/sub", .line = 2 },
	{ .name = (char *)"keep", .shares = (char *)"2048", .line = 3 },
};
#define MIXED_STEPS 5

static void plan_mixed(struct fx *f, struct kattr_rgconf *c, struct kattr_rgplan *p)
{
	struct kattr_rgplan_info info;

	conf_of(c, mixed, 3);
	assert_int_equal(plan_conf(f, c, KATTR_RGPLAN_PRUNE, "old\nold/kid", p, &info), 0);
	assert_int_equal(p->n, MIXED_STEPS);
	kattr_rgplan_info_free(&info);
}

/* The planner's plan, run with a fault at every step (before and after
 * it is done), a stop before each, and a failing undo of each. */
static void planned_every_fault(void **state)
{
	(void)state;
	for (size_t k = 1; k <= 4 * MIXED_STEPS; k++) {
		struct kattr_rgplan_result r;
		struct kattr_rgplan_ops ops;
		struct kattr_rgconf c;
		struct kattr_rgplan p;
		char *before, *now;
		size_t i = (k - 1) % MIXED_STEPS + 1;
		struct fx f;

		fx_open(&f);
		before = snapshot(&f);
		plan_mixed(&f, &c, &p);
		if (k <= MIXED_STEPS)
			f.fail_before = i;
		else if (k <= 2 * MIXED_STEPS)
			f.fail_after = i;
		else if (k <= 3 * MIXED_STEPS)
			f.stop_at = i;
		else {
			f.fail_after = MIXED_STEPS;
			f.fail_undo = i;
		}
		fx_ops(&f, &ops);
		assert_true(kattr_rgplan_run(f.rg, &p, &ops, 0, &r) < 0);
		now = snapshot(&f);
		if (k <= 3 * MIXED_STEPS) {
			assert_int_equal(r.nnotes, 0);
			assert_string_equal(now, before);
		} else {
			/* the step whose undo failed stays, and is said first */
			assert_true(r.nnotes >= 1);
			assert_int_equal(r.notes[0].kind, KATTR_RGPLAN_NOTE_UNDO);
			assert_int_equal(r.notes[0].step, i - 1);
			assert_string_not_equal(now, before);
		}
		free(before);
		free(now);
		kattr_rgplan_result_free(&r);
		kattr_rgplan_free(&p);
		fx_close(&f);
	}
}

/* After the run: verify finds nothing; then what another writer changed. */
static void verify_finds(void **state)
{
	struct kattr_rgplan_conf pc = {
		.flags = KATTR_RGPLAN_PRUNE, .ours = ours_in, .arg = (void *)"old\nold/kid\nextra",
	};
	struct kattr_rgplan_result r;
	struct kattr_rgplan_ops ops;
	struct kattr_rgplan_diffs d;
	struct kattr_rgplan_fail fl;
	struct kattr_rgconf c;
	struct kattr_rgplan p;
	char path[PATH_MAX];
	struct fx f;

	(void)state;
	fx_open(&f);
	plan_mixed(&f, &c, &p);
	fx_ops(&f, &ops);
	assert_int_equal(kattr_rgplan_run(f.rg, &p, &ops, 0, &r), 0);
	pc.conf = &c;
	assert_int_equal(kattr_rgplan_verify(f.rg, &pc, &d, &fl), 0);
	assert_int_equal(d.n, 0);
	kattr_rgplan_diffs_free(&d);
	/* and planning again finds nothing to do */
	kattr_rgplan_free(&p);
	plan_conf(&f, &c, KATTR_RGPLAN_PRUNE, "old\nold/kid", &p, &(struct kattr_rgplan_info){ 0 });
	assert_int_equal(p.n, 0);
	/* shares changed, a group gone, one of ours the file does not name */
	gpath(&f, "keep", "cpu.shares", path, sizeof(path));
	put(path, "100");
	gpath(&f, "new/sub", NULL, path, sizeof(path));
	tu_rmtree(path);
	mkdirs(f.hier, "extra");	/* a group: a directory with its tasks */
	gpath(&f, "extra", "tasks", path, sizeof(path));
	put(path, "");
	assert_int_equal(kattr_rgplan_verify(f.rg, &pc, &d, &fl), 0);
	assert_int_equal(d.n, 3);
	assert_int_equal(d.v[0].kind, KATTR_RGPLAN_DIFF_GROUP);
	assert_ptr_equal(d.v[0].g, &mixed[1]);
	assert_int_equal(d.v[0].err, -ENOENT);
	assert_int_equal(d.v[1].kind, KATTR_RGPLAN_DIFF_SHARES);
	assert_ptr_equal(d.v[1].g, &mixed[2]);
	assert_string_equal(d.v[1].have, "100");
	assert_int_equal(d.v[2].kind, KATTR_RGPLAN_DIFF_EXTRA);
	assert_string_equal(d.v[2].group, "extra");
	kattr_rgplan_diffs_free(&d);
	kattr_rgplan_result_free(&r);
	kattr_rgplan_free(&p);
	fx_close(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(all_done),
		cmocka_unit_test(every_step_fails),
		cmocka_unit_test(every_undo_fails),
		cmocka_unit_test(stop_undoes),
		cmocka_unit_test(no_undo_keeps),
		cmocka_unit_test(threads_not_back),
		cmocka_unit_test(lock),
		cmocka_unit_test(lock_stopped),
		cmocka_unit_test(lock_file),
		cmocka_unit_test(killed_recovers),
		cmocka_unit_test(planned_create),
		cmocka_unit_test(planned_shares),
		cmocka_unit_test(planned_prune),
		cmocka_unit_test(planned_every_fault),
		cmocka_unit_test(verify_finds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
