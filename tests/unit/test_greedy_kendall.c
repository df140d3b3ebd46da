/* Greedy by Kendall tau: the check vector of spec 000a §9.3. */
#include "test_topics_common.h"

static void test_toy_order(void **state)
{
    /* order q5, q2, q3, q1, q4 with tau_a 1, 1, 1, 0.866667 (13/15), 1 */
    const size_t order[5] = {4, 1, 2, 0, 3};
    const double tau[5] = {1, 1, 1, 13.0 / 15, 1};
    qk_topic_matrix *m = toy_matrix();
    qk_topics_cov *c = toy_cov(m);
    qk_topics_selection *s = NULL;
    (void)state;
    assert_int_equal(qk_topics_greedy_kendall(m, c, 5, &s, NULL), QK_OK);
    for (int k = 0; k < 5; k++) {
        assert_int_equal(s->order[k], order[k]);
        NEAR(s->objective[k], tau[k], 1e-12);
        NEAR(s->rho[k], direct_rho(m, s->order, (size_t)k + 1), 1e-12);
    }
    qk_topics_selection_free(s);
    qk_topics_cov_free(c);
    qk_topics_matrix_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_toy_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
