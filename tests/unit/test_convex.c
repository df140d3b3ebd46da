/* Convex selection: first entrant, exact sizes along the path, brute-force
 * agreement of the subset at the path's lambda, and the greedy completion. */
#include "test_topics_common.h"

static void test_toy_sizes(void **state)
{
    /* 000a §9.3: q1 (largest c_j) enters first, unlike the greedy */
    qk_topic_matrix *m = toy_matrix();
    qk_topics_cov *c = toy_cov(m);
    (void)state;
    for (size_t k = 1; k <= 5; k++) {
        qk_topics_selection *s = NULL;
        double b[5] = {0};
        assert_int_equal(qk_topics_convex(c, k, 0, &s, NULL), QK_OK);
        assert_int_equal(s->m, k);
        if (k == 1)
            assert_int_equal(s->order[0], 0);
        NEAR(s->rho[k - 1], direct_rho(m, s->order, k), 1e-12);
        if (!s->completed) { /* the subset is the support of the QP at s->lambda */
            size_t sup = 0;
            assert_int_equal(qk_topics_qp_solve(c, s->lambda, INFINITY, 0, b, NULL, NULL), QK_OK);
            for (int j = 0; j < 5; j++)
                sup += b[j] > 1e-9;
            assert_true(sup >= k);
        }
        qk_topics_selection_free(s);
    }
    qk_topics_cov_free(c);
    qk_topics_matrix_free(m);
}

static void test_completion_beyond_rank(void **state)
{
    /* 4 systems: rank(Z) <= 3, so for lambda > 0 the support has at most 3
     * topics; at lambda = 0 any beta with Z beta = Z e is optimal (000a §6.4
     * fact 3), so six topics come either from there or from greedy steps
     * after the path (completed): six distinct topics either way */
    double x[4 * 6];
    const char *sys[4] = {"a", "b", "c", "d"}, *top[6] = {"1", "2", "3", "4", "5", "6"};
    qk_topic_matrix *m = NULL;
    qk_topics_cov *c;
    qk_topics_selection *s = NULL;
    qk_rng rng;
    (void)state;
    qk_rng_seed(&rng, 5);
    for (int i = 0; i < 24; i++)
        x[i] = qk_rng_uniform(&rng);
    assert_int_equal(qk_topics_matrix_new(4, 6, sys, top, x, NULL, &m, NULL), QK_OK);
    c = toy_cov(m);
    assert_int_equal(qk_topics_convex(c, 6, 0, &s, NULL), QK_OK);
    assert_int_equal(s->m, 6);
    for (int i = 0; i < 6; i++)
        for (int j = i + 1; j < 6; j++)
            assert_true(s->order[i] != s->order[j]);
    qk_topics_selection_free(s);
    qk_topics_cov_free(c);
    qk_topics_matrix_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_toy_sizes),
        cmocka_unit_test(test_completion_beyond_rank),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
