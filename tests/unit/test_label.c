/* Labels (src/campaign/label.c) and the plan they feed (plan.c): a label
 * only on one's own open assignment and with a configured grade; skip and
 * undo; the qrels rule (majority, ties to the earliest label), all checked
 * against counts worked out by hand on the fixture. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "campaign_fixture.h"

/* The assignment of person for (topic, docno). */
static int64_t assignment(qk_campaign *c, const char *name, const char *qid, const char *docno)
{
    char sql[300];
    snprintf(sql, sizeof sql,
             "SELECT a.id FROM assignments a JOIN people p ON p.id = a.person_id JOIN topics t ON t.id = a.topic_id"
             " JOIN documents d ON d.id = a.doc_id WHERE p.name = '%s' AND t.qid = '%s' AND d.docno = '%s'",
             name, qid, docno);
    return cfix_int(c, sql);
}

static void test_labels(void **state)
{
    cfix f;
    qk_campaign *c;
    qk_error err = {0};
    qk_campaign_plan_opts po;
    char ta[65], tb[65];
    size_t n = 0;
    int undone;
    qk_qrels *q = NULL;
    (void)state;
    cfix_init(&f);
    c = cfix_create(&f, 3);
    assert_int_equal(qk_campaign_add_person(c, "alice", QK_CAMPAIGN_ASSESSOR, 0, ta, &err), QK_OK);
    assert_int_equal(qk_campaign_add_person(c, "bob", QK_CAMPAIGN_ASSESSOR, 0, tb, &err), QK_OK);
    qk_campaign_plan_opts_init(&po);
    po.pool.method = QK_POOL_DEPTH;
    po.pool.batch = 1;
    po.overlap = 2;
    /* depth, batch 1: topic 1 'a' (rank 1 in both runs); topic 2 'p' or 'q'
     * (both rank 1; ties by docno: p). Two assessors each: 4 */
    assert_int_equal(qk_campaign_plan(c, &po, &n, &err), QK_OK);
    assert_int_equal(n, 4);
    int64_t a1 = assignment(c, "alice", "1", "a"), b1 = assignment(c, "bob", "1", "a");
    int64_t a2 = assignment(c, "alice", "2", "p"), b2 = assignment(c, "bob", "2", "p");
    assert_true(a1 > 0 && b1 > 0 && a2 > 0 && b2 > 0);
    /* not yours; a grade not configured; end before start; unknown token */
    assert_int_equal(qk_campaign_label(c, ta, b1, 1, 10, 20, &err), QK_EINPUT);
    assert_int_equal(qk_campaign_label(c, ta, a1, 2, 10, 20, &err), QK_EINPUT);
    assert_int_equal(qk_campaign_label(c, ta, a1, 1, 30, 20, &err), QK_EINPUT);
    assert_int_equal(qk_campaign_label(c, "00", a1, 1, 10, 20, &err), QK_EUSAGE);
    assert_int_equal(cfix_int(c, "SELECT COUNT(*) FROM labels"), 0);
    /* alice: a relevant, p non-relevant; bob: a relevant, p relevant (later) */
    assert_int_equal(qk_campaign_label(c, ta, a1, 1, 10, 20, &err), QK_OK);
    assert_int_equal(qk_campaign_label(c, ta, a1, 0, 10, 20, &err), QK_EINPUT); /* answered */
    assert_int_equal(qk_campaign_label(c, ta, a2, 0, 10, 21, &err), QK_OK);
    assert_int_equal(qk_campaign_label(c, tb, b1, 1, 10, 22, &err), QK_OK);
    assert_int_equal(qk_campaign_label(c, tb, b2, 1, 10, 23, &err), QK_OK);
    /* qrels: 1 a = 1 (both); 2 p: a tie 0 (alice, earlier) vs 1 -> 0 */
    assert_int_equal(qkc_qrels(c, &q, &err), QK_OK);
    {
        size_t t;
        uint32_t d;
        assert_true(qk_qrels_find_topic(q, "1", 1, &t) && qk_qrels_find_doc(q, t, "a", 1, &d));
        assert_int_equal((long)qk_qrels_get(q, t, 0, d)->rel, 1);
        assert_true(qk_qrels_find_topic(q, "2", 1, &t) && qk_qrels_find_doc(q, t, "p", 1, &d));
        assert_int_equal((long)qk_qrels_get(q, t, 0, d)->rel, 0);
    }
    qk_qrels_free(q);
    /* alice undoes her last answer (p) and answers again with 1: now 1 wins */
    int64_t alice = cfix_int(c, "SELECT id FROM people WHERE name = 'alice'");
    assert_int_equal(qkc_undo_as(c, alice, &undone, &err), QK_OK);
    assert_int_equal(undone, 1);
    assert_int_equal(cfix_int(c, "SELECT COUNT(*) FROM labels WHERE undone = 1"), 1);
    assert_int_equal(qk_campaign_label(c, ta, a2, 1, 30, 40, &err), QK_OK);
    assert_int_equal(qkc_qrels(c, &q, &err), QK_OK);
    {
        size_t t;
        uint32_t d;
        assert_true(qk_qrels_find_topic(q, "2", 1, &t) && qk_qrels_find_doc(q, t, "p", 1, &d));
        assert_int_equal((long)qk_qrels_get(q, t, 0, d)->rel, 1);
    }
    qk_qrels_free(q);
    /* the next plan: a and p are judged, so the next by best rank are
     * topic 1 'b' or 'd' (rank 2; b first) and topic 2 'q' (rank 1 in B) */
    po.overlap = 1;
    assert_int_equal(qk_campaign_plan(c, &po, &n, &err), QK_OK);
    assert_int_equal(n, 2);
    assert_true(assignment(c, "alice", "1", "b") > 0 || assignment(c, "bob", "1", "b") > 0);
    assert_true(assignment(c, "alice", "2", "q") > 0 || assignment(c, "bob", "2", "q") > 0);
    /* skip and undo of a skip */
    int64_t next = cfix_int(c, "SELECT MIN(id) FROM assignments a WHERE person_id = (SELECT id FROM people WHERE"
                               " name = 'alice') AND NOT EXISTS (SELECT 1 FROM labels l WHERE l.assignment_id = a.id)");
    assert_int_equal(qkc_skip_as(c, alice, next, &err), QK_OK);
    assert_int_equal(qkc_skip_as(c, alice, next, &err), QK_EINPUT);
    assert_int_equal(qkc_undo_as(c, alice, &undone, &err), QK_OK);
    assert_int_equal(cfix_int(c, "SELECT COUNT(*) FROM assignments WHERE skipped = 1"), 0);
    /* the method is fixed by the first plan */
    po.pool.method = QK_POOL_MTC;
    assert_int_equal(qk_campaign_plan(c, &po, &n, &err), QK_EUSAGE);
    qk_campaign_close(c);
    cfix_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_labels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
