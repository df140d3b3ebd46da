/* X-hat and V of QDP (000b §3.6) on a hand-worked pool: topic 1 pools
 * d1..d5 from three runs; d1, d3 relevant and d5 non-relevant are judged, so
 * pi = 3/5 and R-hat = 2 / (3/5) = 10/3.
 *   A = d1 d2 d3 d4: PC at the relevant ranks 5/3, 10/9 -> statAP 25/18;
 *     u = +-1/12, var = (1 - pi)/pi^2 * 2/144 = 5/324
 *   B = d5 d3 d1:    PC 5/6, 10/9 -> 35/36; u = +-1/24, var = 5/1296
 *   C = d4 d1:       PC 5/6 at rank 2 -> 5/12; d3 missed: u = -5/12 * 3/10;
 *     u = +-1/8, var = 5/144
 * Topic 2 has no judged relevant document: 0 and 0. */
#include "budget_fixture.h"

static const char *const tids[2] = {"1", "2"};
static const char *const a1[] = {"d1", "d2", "d3", "d4", NULL}, *a2[] = {"x1", "x2", NULL};
static const char *const b1[] = {"d5", "d3", "d1", NULL}, *b2[] = {"x2", NULL};
static const char *const c1[] = {"d4", "d1", NULL}, *c2[] = {"x3", NULL};
static const char *const *const la[] = {a1, a2};
static const char *const *const lb[] = {b1, b2};
static const char *const *const lc[] = {c1, c2};
static const char *const *const *const lists[] = {la, lb, lc};

static void test_hand_worked(void **state)
{
    qk_pool_runs *p = bx_pool(3, 2, tids, 4, lists);
    qk_pool_judged *j = NULL;
    qk_topic_matrix *m = NULL;
    double u[2];
    (void)state;
    assert_int_equal(qk_pool_judged_new(p, &j, NULL), QK_OK);
    bx_judge(p, j, "1", "d1", 1);
    bx_judge(p, j, "1", "d3", 1);
    bx_judge(p, j, "1", "d5", 0);
    bx_judge(p, j, "2", "x1", 0);
    assert_int_equal(qk_budget_estimate(p, j, 1, &m, NULL), QK_OK);
    assert_int_equal(m->nsys, 3);
    assert_int_equal(m->ntopics, 2);
    assert_string_equal(m->topics[0], "1");
    NEAR(m->x[0 * 2 + 0], 25.0 / 18, 1e-12);
    NEAR(m->x[1 * 2 + 0], 35.0 / 36, 1e-12);
    NEAR(m->x[2 * 2 + 0], 5.0 / 12, 1e-12);
    NEAR(m->var[0 * 2 + 0], 5.0 / 324, 1e-12);
    NEAR(m->var[1 * 2 + 0], 5.0 / 1296, 1e-12);
    NEAR(m->var[2 * 2 + 0], 5.0 / 144, 1e-12);
    for (int s = 0; s < 3; s++) {
        NEAR(m->x[s * 2 + 1], 0, 0);
        NEAR(m->var[s * 2 + 1], 0, 0);
    }
    qk_topics_uncertainty(m, u);
    NEAR(u[0], (5.0 / 324 + 5.0 / 1296 + 5.0 / 144) / 3, 1e-12);
    qk_topics_matrix_free(m);
    /* judged documents fixed (pi = 1), R = 2: A (1 + 2/3)/2 = 5/6, B (1/2 +
     * 2/3)/2 = 7/12, C (1/2)/2 = 1/4; the variances stay the SRSWO ones */
    assert_int_equal(qk_budget_estimate(p, j, 0, &m, NULL), QK_OK);
    NEAR(m->x[0], 5.0 / 6, 1e-12);
    NEAR(m->x[2], 7.0 / 12, 1e-12);
    NEAR(m->x[4], 1.0 / 4, 1e-12);
    NEAR(m->var[0], 5.0 / 324, 1e-12);
    qk_topics_matrix_free(m);
    qk_pool_judged_free(j);
    qk_pool_runs_free(p);
}

static void test_whole_pool_is_exact_ap(void **state)
{
    /* 000b §9.8: the whole pool judged (pi = 1) gives AP with R = the
     * pool's relevant documents, variance 0. A: d1 d2 d3 d4 with d1, d3 of
     * d1, d3 relevant: (1 + 2/3)/2 = 5/6; C: d4 d1: (1/2)/2 = 1/4 */
    qk_pool_runs *p = bx_pool(3, 2, tids, 4, lists);
    qk_pool_judged *j = NULL;
    qk_topic_matrix *m = NULL;
    const char *docs[] = {"d1", "d2", "d3", "d4", "d5"};
    (void)state;
    assert_int_equal(qk_pool_judged_new(p, &j, NULL), QK_OK);
    for (int d = 0; d < 5; d++)
        bx_judge(p, j, "1", docs[d], d == 0 || d == 2);
    assert_int_equal(qk_budget_estimate(p, j, 1, &m, NULL), QK_OK);
    NEAR(m->x[0], 5.0 / 6, 1e-12);
    NEAR(m->x[4], 1.0 / 4, 1e-12);
    for (int s = 0; s < 3; s++)
        NEAR(m->var[s * 2], 0, 0);
    qk_topics_matrix_free(m);
    qk_pool_judged_free(j);
    qk_pool_runs_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_worked),
        cmocka_unit_test(test_whole_pool_is_exact_ap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
