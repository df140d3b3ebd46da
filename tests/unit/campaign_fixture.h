/* A small campaign for the unit tests of src/campaign/: two runs over two
 * topics (the golden cases' A.run and B.run), in a fresh temporary folder. */
#ifndef QK_TEST_CAMPAIGN_FIXTURE_H
#define QK_TEST_CAMPAIGN_FIXTURE_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign/campaign_internal.h"

typedef struct cfix {
    char dir[64], db[128];
    qk_run *runs[2];
    qk_topics *topics;
} cfix;

static void cfix_run(qk_run **r, const char *name, const char *const *d1, const char *const *d2)
{
    static const double sc[3] = {3, 2, 1};
    qk_error err = {0};
    assert_int_equal(qk_run_new(name, r, &err), QK_OK);
    assert_int_equal(qk_run_add_topic(*r, "1", 3, d1, sc, NULL, &err), QK_OK);
    assert_int_equal(qk_run_add_topic(*r, "2", 3, d2, sc, NULL, &err), QK_OK);
}

static void cfix_init(cfix *f)
{
    static const char *const a1[] = {"a", "b", "c"}, *const a2[] = {"p", "q", "r"};
    static const char *const b1[] = {"a", "d", "e"}, *const b2[] = {"q", "s", "p"};
    char path[160];
    qk_error err = {0};
    FILE *t;
    memset(f, 0, sizeof *f);
    snprintf(f->dir, sizeof f->dir, "/tmp/qk-campaign-XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    snprintf(f->db, sizeof f->db, "%s/c.db", f->dir);
    snprintf(path, sizeof path, "%s/topics.tsv", f->dir);
    assert_non_null(t = fopen(path, "w"));
    fputs("1\tsolar power\n2\twind farms\n", t);
    fclose(t);
    assert_int_equal(qk_topics_read(path, NULL, &f->topics, &err), QK_OK);
    remove(path);
    cfix_run(&f->runs[0], "A", a1, a2);
    cfix_run(&f->runs[1], "B", b1, b2);
}

static qk_campaign *cfix_create(cfix *f, long budget)
{
    qk_campaign_init_opts o;
    qk_campaign *c = NULL;
    qk_error err = {0};
    qk_campaign_init_opts_init(&o);
    o.budget = budget;
    assert_int_equal(qk_campaign_create(f->db, (const qk_run *const *)f->runs, 2, f->topics, NULL, &o, &c, &err),
                     QK_OK);
    return c;
}

static void cfix_free(cfix *f)
{
    char cmd[128];
    qk_run_free(f->runs[0]);
    qk_run_free(f->runs[1]);
    qk_topics_free(f->topics);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", f->dir);
    assert_int_equal(system(cmd), 0);
}

/* One integer from a query. */
static long long cfix_int(qk_campaign *c, const char *sql)
{
    sqlite3_stmt *st = NULL;
    long long v = -1;
    assert_int_equal(sqlite3_prepare_v2(c->db, sql, -1, &st, NULL), SQLITE_OK);
    if (sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}
#endif
