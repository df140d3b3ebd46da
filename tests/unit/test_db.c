/* The campaign database (src/campaign/db.c): the schema of version 1, WAL
 * and foreign keys on every connection, constraints that hold whatever the
 * caller does, refusal of newer schemas and of files that are not
 * campaigns, and a failed init that leaves no file behind. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <sys/stat.h>

#include "campaign_fixture.h"

static void test_schema(void **state)
{
    cfix f;
    qk_campaign *c;
    qk_error err = {0};
    static const char *const tables[] = {"meta", "topics", "documents", "runs", "run_entries", "design",
                                         "people", "assignments", "labels", "budget"};
    (void)state;
    cfix_init(&f);
    c = cfix_create(&f, 3);
    assert_int_equal(qk_campaign_schema_version(c), QK_CAMPAIGN_SCHEMA);
    assert_int_equal(cfix_int(c, "PRAGMA user_version"), QK_CAMPAIGN_SCHEMA);
    assert_int_equal(cfix_int(c, "PRAGMA foreign_keys"), 1);
    for (size_t i = 0; i < sizeof tables / sizeof *tables; i++) {
        char sql[128];
        snprintf(sql, sizeof sql, "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = '%s'",
                 tables[i]);
        assert_int_equal(cfix_int(c, sql), 1);
    }
    /* by hand: 2 topics; documents a b c d e p q r s; 2 runs x 2 topics x 3 */
    assert_int_equal(cfix_int(c, "SELECT COUNT(*) FROM topics"), 2);
    assert_int_equal(cfix_int(c, "SELECT COUNT(*) FROM documents"), 9);
    assert_int_equal(cfix_int(c, "SELECT COUNT(*) FROM run_entries"), 12);
    assert_int_equal(cfix_int(c, "SELECT total FROM budget"), 6);
    qk_campaign_close(c);
    /* reopened: WAL persists, foreign keys are on again */
    assert_int_equal(qk_campaign_open(f.db, &c, &err), QK_OK);
    {
        sqlite3_stmt *st = NULL;
        assert_int_equal(sqlite3_prepare_v2(c->db, "PRAGMA journal_mode", -1, &st, NULL), SQLITE_OK);
        assert_int_equal(sqlite3_step(st), SQLITE_ROW);
        assert_string_equal((const char *)sqlite3_column_text(st, 0), "wal");
        sqlite3_finalize(st);
    }
    assert_int_equal(cfix_int(c, "PRAGMA foreign_keys"), 1);
    qk_campaign_close(c);
    cfix_free(&f);
}

static void test_constraints(void **state)
{
    cfix f;
    qk_campaign *c;
    (void)state;
    cfix_init(&f);
    c = cfix_create(&f, 3);
    /* an assignment of a topic that does not exist */
    assert_int_not_equal(sqlite3_exec(c->db,
                                      "INSERT INTO people(name, role, token_hash, created) VALUES('x', 0, 'h', 0);"
                                      "INSERT INTO assignments(topic_id, doc_id, person_id, batch, pi, created)"
                                      " VALUES(99, 1, 1, 1, 1, 0)",
                                      NULL, NULL, NULL),
                         SQLITE_OK);
    assert_int_equal(sqlite3_exec(c->db,
                                  "INSERT INTO assignments(topic_id, doc_id, person_id, batch, pi, created)"
                                  " VALUES(1, 1, 1, 1, 1, 0)",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    /* the same document twice for one person; a label ending before it starts;
     * a label of no assignment; a role that does not exist */
    assert_int_not_equal(sqlite3_exec(c->db,
                                      "INSERT INTO assignments(topic_id, doc_id, person_id, batch, pi, created)"
                                      " VALUES(1, 1, 1, 2, 1, 0)",
                                      NULL, NULL, NULL),
                         SQLITE_OK);
    assert_int_not_equal(sqlite3_exec(c->db, "INSERT INTO labels(assignment_id, value, started, finished) VALUES(1, 1, 5, 4)",
                                      NULL, NULL, NULL),
                         SQLITE_OK);
    assert_int_not_equal(sqlite3_exec(c->db, "INSERT INTO labels(assignment_id, value, started, finished) VALUES(42, 1, 4, 5)",
                                      NULL, NULL, NULL),
                         SQLITE_OK);
    assert_int_not_equal(sqlite3_exec(c->db, "INSERT INTO people(name, role, token_hash, created) VALUES('y', 7, 'g', 0)",
                                      NULL, NULL, NULL),
                         SQLITE_OK);
    qk_campaign_close(c);
    cfix_free(&f);
}

static void test_refusals(void **state)
{
    cfix f;
    qk_campaign *c;
    qk_campaign_init_opts o;
    qk_error err = {0};
    struct stat sb;
    char other[160];
    FILE *junk;
    sqlite3 *raw;
    (void)state;
    cfix_init(&f);
    c = cfix_create(&f, 3);
    qk_campaign_close(c);
    /* init over an existing file */
    qk_campaign_init_opts_init(&o);
    assert_int_equal(qk_campaign_create(f.db, (const qk_run *const *)f.runs, 2, f.topics, NULL, &o, &c, &err),
                     QK_EUSAGE);
    /* a database from a newer qrelkit */
    assert_int_equal(sqlite3_open(f.db, &raw), SQLITE_OK);
    assert_int_equal(sqlite3_exec(raw, "PRAGMA user_version = 99", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(raw);
    assert_int_equal(qk_campaign_open(f.db, &c, &err), QK_EINPUT);
    assert_non_null(strstr(err.message, "newer"));
    assert_null(c);
    /* not a database; a database that is not a campaign; no file */
    snprintf(other, sizeof other, "%s/junk.db", f.dir);
    assert_non_null(junk = fopen(other, "w"));
    fputs("not sqlite\n", junk);
    fclose(junk);
    assert_int_equal(qk_campaign_open(other, &c, &err), QK_EINPUT);
    snprintf(other, sizeof other, "%s/plain.db", f.dir);
    assert_int_equal(sqlite3_open(other, &raw), SQLITE_OK);
    assert_int_equal(sqlite3_exec(raw, "CREATE TABLE t(x)", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(raw);
    assert_int_equal(qk_campaign_open(other, &c, &err), QK_EINPUT);
    assert_non_null(strstr(err.message, "not a qrelkit campaign"));
    snprintf(other, sizeof other, "%s/none.db", f.dir);
    assert_int_equal(qk_campaign_open(other, &c, &err), QK_EIO);
    /* a run topic missing from the topics: the new file is removed */
    {
        static const char *const d[] = {"x"};
        static const double s[] = {1};
        qk_run *r = NULL;
        assert_int_equal(qk_run_new("C", &r, &err), QK_OK);
        assert_int_equal(qk_run_add_topic(r, "9", 1, d, s, NULL, &err), QK_OK);
        snprintf(other, sizeof other, "%s/bad.db", f.dir);
        assert_int_equal(qk_campaign_create(other, (const qk_run *const *)&r, 1, f.topics, NULL, &o, &c, &err),
                         QK_EINPUT);
        assert_non_null(strstr(err.message, "topic '9' is not in the topics"));
        assert_int_not_equal(stat(other, &sb), 0);
        qk_run_free(r);
    }
    cfix_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_schema),
        cmocka_unit_test(test_constraints),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
