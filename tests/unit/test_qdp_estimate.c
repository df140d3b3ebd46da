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

static double **pi_of(const qk_pool_runs *p, const char *qid, const char *const *docs, const double *v,
                      size_t n)
{
    double **pi = calloc(qk_pool_num_topics(p), sizeof *pi);
    size_t t;
    assert_non_null(pi);
    for (size_t k = 0; k < qk_pool_num_topics(p); k++)
        assert_non_null(pi[k] = calloc(qk_pool_topic_at(p, k)->ndocs, sizeof **pi));
    assert_true(qk_pool_find_topic(p, qid, &t));
    for (size_t i = 0; i < n; i++) {
        uint32_t d;
        assert_true(qk_pool_find_doc(qk_pool_topic_at(p, t), docs[i], &d));
        pi[t][d] = v[i];
    }
    return pi;
}

static void pi_free(const qk_pool_runs *p, double **pi)
{
    for (size_t k = 0; k < qk_pool_num_topics(p); k++)
        free(pi[k]);
    free(pi);
}

static void test_statap_with_pi_by_hand(void **state)
{
    /* d1 relevant (pi 1/2), d3 relevant (pi 1/4), d5 non-relevant (pi 1/2):
     * R-hat = 2 + 4 = 6.
     *   A = d1 d2 d3 d4: PC 2 at rank 1, (2 + 4)/3 = 2 at rank 3; statAP =
     *     (2 * 2 + 2 * 4)/6 = 2; u = 0 for both: var 0.
     *   C = d4 d1: PC 2/2 = 1 at rank 2; statAP = 1 * 2 / 6 = 1/3;
     *     u(d1) = (1 - 1/3)/6 = 1/9, u(d3) = (0 - 1/3)/6 = -1/18 (missed);
     *     var = (1/2)/(1/4) / 81 + (3/4)/(1/16) / 324 = 2/81 + 3/81 = 5/81. */
    qk_pool_runs *p = bx_pool(3, 2, tids, 4, lists);
    qk_pool_judged *j = NULL;
    qk_topic_matrix *m = NULL;
    const char *docs[3] = {"d1", "d3", "d5"};
    const double v[3] = {0.5, 0.25, 0.5}, one[3] = {1, 1, 1};
    double **pi = pi_of(p, "1", docs, v, 3);
    (void)state;
    assert_int_equal(qk_pool_judged_new(p, &j, NULL), QK_OK);
    bx_judge(p, j, "1", "d1", 1);
    bx_judge(p, j, "1", "d3", 1);
    bx_judge(p, j, "1", "d5", 0);
    assert_int_equal(qk_budget_estimate_pi(p, j, (const double *const *)pi, &m, NULL), QK_OK);
    NEAR(m->x[0 * 2 + 0], 2.0, 1e-12);
    NEAR(m->var[0 * 2 + 0], 0, 1e-12);
    NEAR(m->x[2 * 2 + 0], 1.0 / 3, 1e-12);
    NEAR(m->var[2 * 2 + 0], 5.0 / 81, 1e-12);
    qk_topics_matrix_free(m);
    pi_free(p, pi);
    /* every pi = 1 (000b §9.8): AP with R = the judged relevant documents,
     * A (1 + 2/3)/2 = 5/6, B (1/2 + 2/3)/2 = 7/12, C (1/2)/2 = 1/4, var 0 */
    pi = pi_of(p, "1", docs, one, 3);
    assert_int_equal(qk_budget_estimate_pi(p, j, (const double *const *)pi, &m, NULL), QK_OK);
    NEAR(m->x[0], 5.0 / 6, 1e-12);
    NEAR(m->x[2], 7.0 / 12, 1e-12);
    NEAR(m->x[4], 1.0 / 4, 1e-12);
    for (int s = 0; s < 3; s++)
        NEAR(m->var[s * 2], 0, 0);
    qk_topics_matrix_free(m);
    assert_int_equal(qk_budget_estimate_pi(p, j, NULL, &m, NULL), QK_EUSAGE);
    pi_free(p, pi);
    qk_pool_judged_free(j);
    qk_pool_runs_free(p);
}

static void test_plan_sampled_stage(void **state)
{
    /* UN, budget 3, no judgments: topic 1 gets 2 (remainder drawn), topic 2
     * 1, or 1 and 2. Each drawn pair carries its stratum's n_h / N_h, and
     * plan->pi agrees with the pairs and is 0 for documents not in the
     * pool's candidates; the inclusion probabilities of a topic sum to its
     * count (sum over strata of n_h). */
    qk_pool_runs *p = bx_pool(3, 2, tids, 4, lists);
    qk_pool_judged *j = NULL;
    qk_budget_opts o;
    qk_budget_plan *pl = NULL;
    (void)state;
    assert_int_equal(qk_pool_judged_new(p, &j, NULL), QK_OK);
    qk_budget_opts_init(&o);
    o.method = QK_BUDGET_UN;
    o.budget = 3;
    o.sampled = 1;
    assert_int_equal(qk_budget_plan_next(p, j, &o, &pl, NULL), QK_OK);
    assert_int_equal(pl->npairs, 3);
    assert_non_null(pl->pi);
    for (size_t t = 0; t < 2; t++) {
        double sum = 0;
        for (uint32_t d = 0; d < qk_pool_topic_at(p, t)->ndocs; d++)
            sum += pl->pi[t][d];
        NEAR(sum, (double)pl->count[t], 1e-12);
    }
    for (size_t k = 0; k < pl->npairs; k++) {
        assert_true(pl->pairs[k].pi > 0 && pl->pairs[k].pi <= 1);
        assert_true(pl->pairs[k].pi == pl->pi[pl->pairs[k].topic][pl->pairs[k].doc]);
    }
    qk_budget_plan_free(pl);
    /* the literal mode: no pi arrays, pi = 1 on every pair */
    o.sampled = 0;
    assert_int_equal(qk_budget_plan_next(p, j, &o, &pl, NULL), QK_OK);
    assert_null(pl->pi);
    for (size_t k = 0; k < pl->npairs; k++)
        assert_true(pl->pairs[k].pi == 1);
    qk_budget_plan_free(pl);
    qk_pool_judged_free(j);
    qk_pool_runs_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_statap_with_pi_by_hand),
        cmocka_unit_test(test_plan_sampled_stage),
        cmocka_unit_test(test_hand_worked),
        cmocka_unit_test(test_whole_pool_is_exact_ap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
