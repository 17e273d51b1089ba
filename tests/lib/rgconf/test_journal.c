/*
 * lib/rgconf/journal.c, the intent journal's format: a plan with every kind
 * of step (names and values with spaces, newlines and backslashes), its
 * records, written and read back equal; every prefix of it (a writer
 * killed mid-write) read as far as it goes; malformed journals refused.
 */
#include "testutil.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include "kattr/rgplan.h"

/* Every kind: create, set (old known / unknown), delete (with saved
 * attributes and threads), res (a value and an unset one). */
static void build(struct kattr_rgplan *p)
{
	struct kattr_rgplan_step *s;
	struct kattr_why why = { 0 };

	memset(p, 0, sizeof(*p));
	assert_int_equal(kattr_rgplan_add(p, KATTR_RGPLAN_CREATE, "new group", &s), 0);
	assert_int_equal(kattr_rgplan_add(p, KATTR_RGPLAN_SET, "keep\\x", &s), 0);
	s->old = strdup("min_shares=1,max_shares=2");
	assert_int_equal(kattr_rgplan_add(p, KATTR_RGPLAN_SET, "v2", &s), 0);
	s->enable = strdup("R/cgroup.subtree_control");
	assert_int_equal(kattr_rgplan_add(p, KATTR_RGPLAN_DELETE, "old/kid", &s), 0);
	s->attrs = calloc(2, sizeof(*s->attrs));
	s->attrs[0].file = strdup("cpu.shares");
	s->attrs[0].value = strdup("");
	s->attrs[1].file = strdup("res");
	s->attrs[1].value = strdup("cpu=1 2\nio=3\t\x7f\xc3\xa9");
	s->nattrs = 2;
	s->ntids = 70;
	s->tids = calloc(s->ntids, sizeof(*s->tids));
	for (size_t i = 0; i < s->ntids; i++)
		s->tids[i] = (pid_t)(100 + i);
	assert_int_equal(kattr_rgplan_add(p, KATTR_RGPLAN_RES, "r", &s), 0);
	s->res.n = 3;
	s->res.old = calloc(3, sizeof(*s->res.old));
	s->res.want = calloc(3, sizeof(*s->res.want));
	assert_int_equal(kattr_rgres_parse_assign("pids.max=100", NULL, &s->res.old[0], &why), 0);
	assert_int_equal(kattr_rgres_parse_assign("memory.max=1G", NULL, &s->res.old[1], &why), 0);
	s->res.old[1].unset = true;
	/* cgroup v2: no cpu.weight yet, its controller off above the group */
	assert_int_equal(kattr_rgres_parse_assign("cpu.weight=100", NULL, &s->res.old[2], &why), 0);
	s->res.old[2].unset = s->res.old[2].off = true;
	s->no_enable = true;
	/* the subtree_control of the groups above (cgroup v2) */
	assert_int_equal(kattr_rgplan_sc_add(p, "/", "cpu memory"), 0);
	assert_int_equal(kattr_rgplan_sc_add(p, "old", ""), 0);
	assert_int_equal(kattr_rgplan_sc_add(p, "a b\\c", "pids"), 0);
}

/* The journal of p: plan, steps 0..4 started (4 with its saved data),
 * then the undo of 4 and 3: as text (malloc'ed). */
static char *journal_text(struct kattr_rgplan *p, char *dir_path)
{
	struct kattr_rgjournal *j;
	char path[4096], *text;
	int dir = open(dir_path, O_RDONLY | O_DIRECTORY);
	size_t len;

	assert_true(dir >= 0);
	struct kattr_rgjournal *again;

	assert_int_equal(kattr_rgjournal_create(dir, "j", "apply", p, &j), 0);
	/* one journal a hierarchy: a second is refused */
	assert_int_equal(kattr_rgjournal_create(dir, "j", "apply", p, &again), -EEXIST);
	assert_null(again);
	for (size_t i = 0; i < p->n; i++)
		assert_int_equal(kattr_rgjournal_step(j, i, &p->v[i]), 0);
	assert_int_equal(kattr_rgjournal_undone(j, 4), 0);
	assert_int_equal(kattr_rgjournal_undone(j, 3), 0);
	assert_int_equal(kattr_rgjournal_close(j, false), 0);
	snprintf(path, sizeof(path), "%s/j", dir_path);
	assert_int_equal(kattr_file_read(path, &text, &len), 0);
	close(dir);
	return text;
}

static void round_trip(void **state)
{
	struct kattr_rgjournal_state st;
	struct kattr_rgplan p, q;
	char *dir = tu_mkdtemp(), *text;
	char buf[64];

	(void)state;
	build(&p);
	text = journal_text(&p, dir);
	assert_int_equal(kattr_rgjournal_parse(text, strlen(text), &q, &st), 0);
	assert_string_equal(st.cmd, "apply");
	assert_int_equal(st.pid, getpid());
	assert_true(st.run);
	assert_int_equal(st.started, 5);
	assert_int_equal(st.undone, 3);
	assert_int_equal(q.n, p.n);
	for (size_t i = 0; i < p.n; i++) {
		assert_int_equal(q.v[i].kind, p.v[i].kind);
		assert_string_equal(q.v[i].group, p.v[i].group);
	}
	assert_string_equal(q.v[1].old, p.v[1].old);
	assert_null(q.v[1].enable);
	assert_null(q.v[2].old);
	assert_non_null(q.v[2].enable);
	assert_int_equal(q.v[3].nattrs, 2);
	assert_string_equal(q.v[3].attrs[0].value, "");
	assert_string_equal(q.v[3].attrs[1].file, "res");
	assert_string_equal(q.v[3].attrs[1].value, p.v[3].attrs[1].value);
	assert_int_equal(q.v[3].ntids, 70);
	assert_int_equal(q.v[3].tids[69], 169);
	assert_int_equal(q.v[4].res.n, 3);
	assert_false(q.v[4].res.old[1].off);
	assert_true(q.v[4].res.old[2].unset && q.v[4].res.old[2].off);
	assert_string_equal(q.v[4].res.old[2].res->key, "cpu.weight");
	assert_int_equal(q.nsc, 3);
	for (size_t k = 0; k < p.nsc; k++) {
		assert_string_equal(q.sc[k].group, p.sc[k].group);
		assert_string_equal(q.sc[k].words, p.sc[k].words);
	}
	assert_true(q.v[4].no_enable);
	assert_false(q.v[4].res.fresh);
	kattr_rgres_text(&q.v[4].res.old[0], buf, sizeof(buf));
	assert_string_equal(buf, "100");
	assert_true(q.v[4].res.old[1].unset);
	kattr_rgplan_free(&q);
	kattr_rgplan_free(&p);
	free(text);
	tu_rmtree(dir);
	free(dir);
}

/* Every prefix: cut before "run", nothing started; after, at most as
 * far as the full text; never refused (a line cut short is ignored). */
static void prefixes(void **state)
{
	struct kattr_rgjournal_state st;
	struct kattr_rgplan p, q;
	char *dir = tu_mkdtemp(), *text;
	size_t len, run;

	(void)state;
	build(&p);
	text = journal_text(&p, dir);
	len = strlen(text);
	run = (size_t)(strstr(text, "\nrun\n") - text) + 5;
	for (size_t k = 0; k <= len; k++) {
		assert_int_equal(kattr_rgjournal_parse(text, k, &q, &st), 0);
		assert_int_equal(st.run, k >= run);
		if (k < run)
			assert_int_equal(st.started, 0);
		assert_true(st.started <= 5 && st.undone <= st.started);
		kattr_rgplan_free(&q);
	}
	kattr_rgplan_free(&p);
	free(text);
	tu_rmtree(dir);
	free(dir);
}

#define HEAD "rgctl-journal 1\ncmd apply\npid 12\nsteps 2\ncreate a\ndelete b\nrun\n"
static void malformed(void **state)
{
	static const char *const bad[] = {
		"rgctl-journal 2\ncmd apply\npid 1\nsteps 0\n",	/* version */
		"something else\n",
		"rgctl-journal 1\ncmd  apply\npid 1\nsteps 0\n",	/* two spaces */
		"rgctl-journal 1\ncmd apply\npid x\nsteps 0\n",
		"rgctl-journal 1\ncmd apply\npid 1\nsteps 1\nmake a\n",
		"rgctl-journal 1\ncmd apply\npid 1\nsteps 1\ncreate a b\n",
		"rgctl-journal 1\ncmd apply\npid 1\nsteps 1\ncreate a\\x00\n",
		"rgctl-journal 1\ncmd apply\npid 1\nsteps 1\ncreate a\\xZZ\n",
		"rgctl-journal 1\ncmd apply\npid 1\nsteps 1\nset a 512 0\n",	/* no '=' */
		"rgctl-journal 1\ncmd apply\npid 1\nsteps 1\nset a =1 2\n",
		"rgctl-journal 1\ncmd apply\npid 1\nsteps 1\nres a 0 0\n",	/* no value */
		"rgctl-journal 1\ncmd apply\npid 1\nsteps 1\nres a 0 0 no.such=1\n",
		"rgctl-journal 1\ncmd apply\npid 1\nsteps 1\ncreate a\nrun?\n",
		"rgctl-journal 1\ncmd apply\npid 1\nsteps 1\ncreate a\nsc / cpu\nrun\n",	/* no '=' */
		"rgctl-journal 1\ncmd apply\npid 1\nsteps 1\ncreate a\nsc / =cpu x\nrun\n",
		"rgctl-journal 1\ncmd apply\npid 1\nsteps 1\ncreate a\nsc =cpu\nrun\n",
		"rgctl-journal 1\ncmd apply\npid 1\nsteps 1\nres a 0 0 !\n",
		HEAD "sc / =cpu\n",	/* after "run" */
		HEAD "s 1\n",		/* not in order */
		HEAD "s 0\ns 0\n",
		HEAD "s 2\n",		/* past the plan */
		HEAD "s 0\na 0 f =v\n",	/* saved data of a create */
		HEAD "s 0\ns 1\nt 1 0\n",
		HEAD "s 0\ns 1\nt 1 12 x\n",
		HEAD "s 0\ns 1\na 1 f v\n",
		HEAD "s 0\nu 0\nu 0\n",	/* undone twice */
		HEAD "s 0\nu 1\n",	/* never started */
		HEAD "s 0\nu 0\ns 1\n",	/* a step after the undo began */
		HEAD "s 0\nx 0\n",
		HEAD "s 0 \n",
		HEAD "s 00\n",
		HEAD "s 0\n\n",
	};
	struct kattr_rgjournal_state st;
	struct kattr_rgplan p;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		if (kattr_rgjournal_parse(bad[i], strlen(bad[i]), &p, &st) != -EINVAL)
			fail_msg("accepted: %s", bad[i]);
		assert_int_equal(p.n, 0);
	}
	assert_int_equal(kattr_rgjournal_parse(HEAD "s 0\ns 1\nt 1 5 6\nu 1\n",
					       strlen(HEAD "s 0\ns 1\nt 1 5 6\nu 1\n"), &p, &st), 0);
	assert_int_equal(st.started, 2);
	assert_int_equal(st.undone, 1);
	assert_int_equal(p.v[1].ntids, 2);
	kattr_rgplan_free(&p);
	/* a deletion passed over: its group had gone, nothing to undo */
	{
		const char *t = "rgctl-journal 1\ncmd delete\npid 3\nsteps 2\ndelete a/b\ndelete a\nrun\ns 1\n";

		assert_int_equal(kattr_rgjournal_parse(t, strlen(t), &p, &st), 0);
		assert_int_equal(st.started, 2);
		assert_true(p.v[0].skip);
		assert_false(p.v[1].skip);
		kattr_rgplan_free(&p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip),
		cmocka_unit_test(prefixes),
		cmocka_unit_test(malformed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
