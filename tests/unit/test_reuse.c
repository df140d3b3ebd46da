/* Average reuse AR (000a §6.8; 000b §9 #12). */
#include "test_topics_common.h"

static void test_ar(void **state)
{
    unsigned char top[5] = {1, 1, 0, 0, 0}, mixed[4] = {0, 1, 0, 1}, none[3] = {0, 0, 0};
    (void)state;
    /* the judged(q) = 2 judged documents on top: AR = 1 */
    NEAR(qk_topics_ar(top, 5, 2, 0), 1.0, 1e-15);
    /* judged at ranks 2 and 4: (1/2 + 2/4) / 2 = 0.5 */
    NEAR(qk_topics_ar(mixed, 4, 2, 0), 0.5, 1e-15);
    /* literal sum over all ranks: (0 + 1/2 + 1/3 + 2/4) / 2 = 2/3 */
    NEAR(qk_topics_ar(mixed, 4, 2, 1), 2.0 / 3, 1e-15);
    NEAR(qk_topics_ar(none, 3, 5, 0), 0, 0);
    NEAR(qk_topics_ar(none, 3, 0, 0), 0, 0);
}

static void test_mar(void **state)
{
    /* topic 1: judged d1, d2, d3; the run ranks d1, x, d2, y -> AR = (1/1 +
     * 2/3) / 3 = 5/9. topic 2: judged d4; the run lacks topic 2 -> AR 0.
     * MAR = 5/18. With depth 2 only d1 counts: AR = 1/3. */
    qk_qrels *q = NULL;
    qk_run *r = NULL;
    const char *docs[4] = {"d1", "x", "d2", "y"};
    double scores[4] = {4, 3, 2, 1}, ar[2], mar;
    (void)state;
    assert_int_equal(qk_qrels_new(QK_REL_QRELS, &q, NULL), QK_OK);
    assert_int_equal(qk_qrels_add(q, "1", "0", "d1", 1, NULL), QK_OK);
    assert_int_equal(qk_qrels_add(q, "1", "0", "d2", 0, NULL), QK_OK);
    assert_int_equal(qk_qrels_add(q, "1", "0", "d3", 1, NULL), QK_OK);
    assert_int_equal(qk_qrels_add(q, "2", "0", "d4", 1, NULL), QK_OK);
    assert_int_equal(qk_qrels_finish(q, QK_DEDUP_ERROR, NULL), QK_OK);
    assert_int_equal(qk_run_new("r", &r, NULL), QK_OK);
    assert_int_equal(qk_run_add_topic(r, "1", 4, docs, scores, NULL, NULL), QK_OK);
    assert_int_equal(qk_topics_mar(q, r, 1000, 0, ar, &mar, NULL), QK_OK);
    NEAR(ar[0], 5.0 / 9, 1e-15);
    NEAR(ar[1], 0, 0);
    NEAR(mar, 5.0 / 18, 1e-15);
    assert_int_equal(qk_topics_mar(q, r, 2, 0, ar, &mar, NULL), QK_OK);
    NEAR(ar[0], 1.0 / 3, 1e-15);
    qk_run_free(r);
    qk_qrels_free(q);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ar),
        cmocka_unit_test(test_mar),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
